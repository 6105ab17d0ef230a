//! Where a model that has to be fetched is, and why one could not be: the loader writes it,
//! the page keeps it, the weights control and the model views show it.

use crate::i18n::{fill, t, Lang, ModelMsg};

/// Where a model that has to be fetched is.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum LoadState {
    /// Nobody asked for it yet: nothing is downloaded.
    #[default]
    Idle,
    /// Downloading (or reading from the browser's cache): bytes so far of the total.
    Loading { received: usize, total: usize },
    /// Why it could not be loaded (shown with a retry button).
    Failed(LoadError),
}

/// Why the model could not be loaded.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadError {
    /// No answer from the server (offline, or the server is gone).
    Network,
    /// The server answered with an error status (404: the file was not published).
    Status(u16),
    /// Fewer bytes than the file has.
    Truncated { received: usize, total: usize },
    /// The bytes are not the published file.
    Checksum,
    /// The file is whole but not a model this page can read.
    Format(String),
}

impl LoadError {
    /// The message shown next to the weights switch.
    pub fn message(&self, lang: Lang) -> String {
        let mb = |bytes: usize| format!("{:.1}", bytes as f64 / 1e6);
        match self {
            Self::Network => t(lang, ModelMsg::ErrNetwork).to_string(),
            Self::Status(code) => fill(t(lang, ModelMsg::ErrStatus), &[("code", &code.to_string())]),
            Self::Truncated { received, total } => {
                fill(t(lang, ModelMsg::ErrTruncated), &[("got", &mb(*received)), ("total", &mb(*total))])
            }
            Self::Checksum => t(lang, ModelMsg::ErrChecksum).to_string(),
            Self::Format(why) => fill(t(lang, ModelMsg::ErrFormat), &[("why", why)]),
        }
    }
}
