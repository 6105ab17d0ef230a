//! The page's shared state, provided once by `App` as a context: the settings, the last good
//! computed outcome (computed once per change of the attention inputs), and the language.

use crate::chart::heatmap::Ink;
use crate::core::scenario::{compute, Outcome};
use crate::i18n::{t, Lang, Text};
use crate::settings::{Settings, MAX_TOKENS};
use leptos::prelude::*;
use std::sync::Arc;

/// A computed outcome shared by every panel. Equality is identity: a new computation is
/// always a change, and comparing never walks the matrices.
#[derive(Debug, Clone)]
pub struct Shared(pub Arc<Outcome>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The context every component reads.
#[derive(Debug, Clone, Copy)]
pub struct LabCtx {
    pub settings: RwSignal<Settings>,
    /// The last outcome that computed; `None` only if nothing has computed yet.
    pub outcome: Memo<Option<Shared>>,
    /// Why the current settings did not compute, if they did not.
    pub error: Memo<Option<String>>,
    pub lang: Memo<Lang>,
}

impl LabCtx {
    /// Build the state from initial settings. The trace is recomputed only when the fields
    /// that feed attention change (not the stage, the lab or the language).
    pub fn new(initial: Settings) -> Self {
        let settings = RwSignal::new(initial);
        let scenario = Memo::new(move |_| settings.with(Settings::scenario));
        let computed = Memo::new(move |_| {
            scenario.with(|s| compute(s, MAX_TOKENS).map(|o| Shared(Arc::new(o))).map_err(|e| e.to_string()))
        });
        let outcome = Memo::new(move |prev: Option<&Option<Shared>>| match computed.get() {
            Ok(o) => Some(o),
            Err(_) => prev.cloned().flatten(),
        });
        let error = Memo::new(move |_| computed.with(|c| c.as_ref().err().cloned()));
        let lang = Memo::new(move |_| settings.with(|s| s.lang));
        Self { settings, outcome, error, lang }
    }

    /// `msg` in the current language (reactive).
    pub fn t(&self, msg: impl Text) -> &'static str {
        t(self.lang.get(), msg)
    }
}

/// The context, provided by `App`.
pub fn use_lab() -> LabCtx {
    use_context::<LabCtx>().unwrap_or_else(|| LabCtx::new(Settings::new(Lang::En)))
}

/// Label and frame colours for charts on the light page.
pub const INK: Ink = Ink { text: [0x1f, 0x23, 0x28], frame: [0x57, 0x60, 0x6a] };
