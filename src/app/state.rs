//! The page's shared state, provided once by `App` as a context: the settings, the last good
//! computed outcome (computed once per change of the attention inputs), and the language.

use crate::chart::heatmap::Ink;
use crate::core::scenario::{compute, Outcome};
use crate::i18n::{t, Lang, Text};
use crate::settings::{Settings, Theme, MAX_TOKENS};
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
    /// The tokens of the last outcome (empty before the first).
    pub tokens: Memo<Vec<String>>,
    /// Why the current settings did not compute, if they did not.
    pub error: Memo<Option<String>>,
    pub lang: Memo<Lang>,
    /// The system asks for dark colours (kept up to date by `App`).
    pub prefers_dark: RwSignal<bool>,
    /// The theme shown.
    pub shown: Memo<Shown>,
}

impl LabCtx {
    /// Build the state from initial settings. The trace is recomputed only when the fields
    /// that feed attention change (not the stage, the lab or the language).
    pub fn new(initial: Settings) -> Self {
        Self::with_token_limit(initial, MAX_TOKENS)
    }

    /// [`LabCtx::new`] with another token limit (the benchmark measures up to 256 tokens).
    pub fn with_token_limit(initial: Settings, max_tokens: usize) -> Self {
        let settings = RwSignal::new(initial);
        let scenario = Memo::new(move |_| settings.with(Settings::scenario));
        let computed = Memo::new(move |_| {
            scenario.with(|s| compute(s, max_tokens).map(|o| Shared(Arc::new(o))).map_err(|e| e.to_string()))
        });
        let outcome = Memo::new(move |prev: Option<&Option<Shared>>| match computed.get() {
            Ok(o) => Some(o),
            Err(_) => prev.cloned().flatten(),
        });
        let tokens = Memo::new(move |_| outcome.with(|o| o.as_ref().map(|o| o.0.tokens.clone()).unwrap_or_default()));
        let error = Memo::new(move |_| computed.with(|c| c.as_ref().err().cloned()));
        let lang = Memo::new(move |_| settings.with(|s| s.lang));
        let prefers_dark = RwSignal::new(false);
        let shown = Memo::new(move |_| resolve(settings.with(|s| s.theme), prefers_dark.get()));
        Self { settings, outcome, tokens, error, lang, prefers_dark, shown }
    }

    /// Chart colours of the theme shown (reactive: charts redraw when it changes).
    pub fn ink(&self) -> Ink {
        self.shown.get().ink()
    }

    /// `msg` in the current language (reactive).
    pub fn t(&self, msg: impl Text) -> &'static str {
        t(self.lang.get(), msg)
    }

    /// A memo of one part of the settings: it changes only when that part does. Taking a
    /// plain function (not a closure) keeps one copy of the memo code per part *type*.
    pub fn pick<T: Clone + PartialEq + Send + Sync + 'static>(self, part: fn(&Settings) -> T) -> Memo<T> {
        let settings = self.settings;
        Memo::new(move |_| settings.with(part))
    }

    /// A live text of `msg` for a view: follows the language. One closure type per message
    /// catalogue (not one per call site), which keeps the .wasm small.
    pub fn text<M: Text + Copy + Send + Sync + 'static>(self, msg: M) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
        move || self.t(msg)
    }
}

/// The context, provided by `App`.
pub fn use_lab() -> LabCtx {
    use_context::<LabCtx>().unwrap_or_else(|| LabCtx::new(Settings::new(Lang::En)))
}

/// The theme actually shown (`Auto` resolved by the system preference).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Light,
    Dark,
    Contrast,
}

impl Shown {
    pub fn slug(self) -> &'static str {
        match self {
            Shown::Light => "light",
            Shown::Dark => "dark",
            Shown::Contrast => "contrast",
        }
    }

    /// Chart colours for this theme (the heatmap colour maps stay the same everywhere).
    pub fn ink(self) -> Ink {
        match self {
            Shown::Light => Ink { text: [0x1f, 0x23, 0x28], frame: [0x57, 0x60, 0x6a], accent: [0xd0, 0x30, 0x30], series: [[0x44, 0x01, 0x54], [0x21, 0x91, 0x8c]] },
            Shown::Dark => Ink { text: [0xe6, 0xed, 0xf3], frame: [0x8b, 0x94, 0x9e], accent: [0xff, 0x7b, 0x72], series: [[0xfd, 0xe7, 0x25], [0x35, 0xb7, 0x79]] },
            Shown::Contrast => Ink { text: [0, 0, 0], frame: [0, 0, 0], accent: [0xe0, 0x00, 0x00], series: [[0x44, 0x01, 0x54], [0x00, 0x80, 0x7a]] },
        }
    }
}

/// The theme to show for a choice and the system preference.
pub fn resolve(theme: Theme, prefers_dark: bool) -> Shown {
    match theme {
        Theme::Auto if prefers_dark => Shown::Dark,
        Theme::Auto | Theme::Light => Shown::Light,
        Theme::Dark => Shown::Dark,
        Theme::Contrast => Shown::Contrast,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_follows_the_system_and_choices_override_it() {
        assert_eq!(resolve(Theme::Auto, true), Shown::Dark);
        assert_eq!(resolve(Theme::Auto, false), Shown::Light);
        assert_eq!(resolve(Theme::Light, true), Shown::Light);
        assert_eq!(resolve(Theme::Contrast, true), Shown::Contrast);
    }

    #[test]
    fn text_ink_differs_from_the_page_in_every_theme() {
        // Dark text on light pages, light text on the dark page.
        let luma = |c: [u8; 3]| 0.2126 * c[0] as f32 + 0.7152 * c[1] as f32 + 0.0722 * c[2] as f32;
        assert!(luma(Shown::Light.ink().text) < 60.0 && luma(Shown::Contrast.ink().text) < 1.0);
        assert!(luma(Shown::Dark.ink().text) > 200.0);
    }
}
