//! The page's shared state, provided once by `App` as a context (and its [`LessonState`], which
//! the views the modules share read, as another): the settings (split by owner, see `settings`), the
//! models that have arrived, the lesson's model and its forward pass (`forward`: computed once
//! per change of what it reads, in the page or in the forward worker), the last good outcome,
//! the language and the theme with its chart ink.

use super::forward::forward_of;
use crate::core::model::{Model, ModelError, Outcome};
use crate::fetch::LoadState;
use crate::models::{Catalog, ModelId, Models};
use crate::settings::{Settings, Theme};
use crate::ui::LessonState;
use leptos::prelude::*;
use std::sync::Arc;

pub use crate::shared::Shared;

pub use super::forward::Computed;

/// The page's state: the lesson every view reads ([`LessonState`], which `Page` derefs to), and
/// what only the page has: the models it fetches and the forward pass it computes.
#[derive(Debug, Clone, Copy)]
pub struct Page {
    pub state: LessonState,
    /// Models being fetched, and those that failed.
    pub loads: RwSignal<Vec<(ModelId, LoadState)>>,
    /// The lesson's model, as known now (a stand-in until it arrives).
    pub model: Memo<Shared<dyn Model>>,
    /// Why the current settings did not compute, if they did not.
    pub error: Memo<Option<ModelError>>,
    /// The forward pass of the current settings is under way in the worker (the last outcome
    /// stays on screen meanwhile).
    pub computing: Memo<bool>,
    /// The system asks for dark colours (kept up to date by `App`).
    pub prefers_dark: RwSignal<bool>,
    /// The theme shown.
    pub shown: Memo<Shown>,
}

impl std::ops::Deref for Page {
    type Target = LessonState;

    fn deref(&self) -> &LessonState {
        &self.state
    }
}

impl Page {
    /// Build the state from initial settings, with no model arrived yet. The forward pass is
    /// recomputed only when what it reads changes (not the stage, the layer shown, the side
    /// views or the language).
    pub fn new(initial: Settings) -> Self {
        Self::with_models(initial, Models::default())
    }

    /// [`Page::new`] with `models` (the benchmark reads longer sentences with random weights).
    pub fn with_models(initial: Settings, models: Models) -> Self {
        let settings = RwSignal::new(initial);
        let models = RwSignal::new(models);
        let choice = Memo::new(move |_| settings.with(|s| *s.choice()));
        let model = Memo::new(move |_| {
            let choice = choice.get();
            models.with(|m| Shared(m.model(&choice)))
        });
        let encoding = forward_of(settings, models, model);
        let layer = Memo::new(move |_| settings.with(|s| s.lesson().layer()));
        let computed = Memo::new(move |_| {
            let layer = layer.get();
            encoding.with(|e| e.clone()).map(|e| e.map(|e| Outcome::new(e.0, layer).map(|o| Shared(Arc::new(o)))))
        });
        let outcome = Memo::new(move |prev: Option<&Option<Shared<Outcome>>>| match computed.get() {
            Some(Ok(Some(o))) => Some(o),
            _ => prev.cloned().flatten(),
        });
        let shape = Memo::new(move |_| model.with(|m| m.0.shape().clone()));
        let prefers_dark = RwSignal::new(false);
        Self {
            state: LessonState::new(settings, models, outcome, shape),
            loads: RwSignal::new(vec![]),
            model,
            error: Memo::new(move |_| computed.with(|c| c.as_ref().and_then(|c| c.as_ref().err().cloned()))),
            computing: Memo::new(move |_| computed.with(Option::is_none)),
            prefers_dark,
            shown: Memo::new(move |_| resolve(settings.with(|s| s.classroom().theme()), prefers_dark.get())),
        }
    }

    /// A model has arrived (or will not): keep it, and fit the settings to it.
    pub fn arrive(self, id: ModelId, arrival: crate::models::Arrival) {
        self.models.update(|m| m.arrive(id, arrival));
        self.apply(|s, catalog| {
            let before = s.clone();
            s.fit(catalog);
            *s != before
        });
    }

    /// Where model `id`'s download is.
    pub fn load_state(self, id: ModelId) -> LoadState {
        self.loads.with(|l| l.iter().find(|(i, _)| *i == id).map(|(_, s)| s.clone()).unwrap_or_default())
    }

    /// Set where model `id`'s download is.
    pub fn set_load_state(self, id: ModelId, state: LoadState) {
        self.loads.update(|l| {
            l.retain(|(i, _)| *i != id);
            l.push((id, state));
        });
    }
}

/// The context, provided by `App`; a component outside it is a programming error.
pub fn use_page() -> Page {
    expect_context::<Page>()
}

crate::slugged! {
    /// The theme actually shown (`Auto` resolved by the system preference); the slug is the
    /// page's `data-theme`, which selects the stylesheet's colours.
    pub enum Shown {
        Light = "light",
        Dark = "dark",
        Contrast = "contrast",
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
    use crate::core::model::Origin;
    use crate::i18n::Lang;

    #[test]
    fn auto_follows_the_system_and_choices_override_it() {
        assert_eq!(resolve(Theme::Auto, true), Shown::Dark);
        assert_eq!(resolve(Theme::Auto, false), Shown::Light);
        assert_eq!(resolve(Theme::Light, true), Shown::Light);
        assert_eq!(resolve(Theme::Contrast, true), Shown::Contrast);
    }

    #[test]
    fn a_change_that_does_not_compute_keeps_the_last_good_outcome() {
        let owner = Owner::new();
        owner.set();
        let page = Page::new(Settings::new(Lang::En));
        let first = page.outcome.get().expect("the defaults compute");
        assert_eq!((page.tokens.get().len(), page.error.get()), (11, None));

        // Your model, which this browser does not keep.
        assert!(page.apply(|s, c| s.set_model(ModelId::Yours, c)));
        let error = page.error.get().expect("the change is reported");
        assert_eq!(error, ModelError::NotKept);
        assert_eq!(page.outcome.get(), Some(first.clone()), "the last good outcome stays, unchanged");
        assert_eq!(first.0.trace().n_heads(), 4, "and it still says what produced it");

        assert!(page.apply(|s, c| s.set_model(ModelId::Random, c) && s.change_choice(c, |m| m.set_n_heads(2))));
        assert!(page.apply(|s, c| s.set_text("two words", c).is_ok()));
        let next = page.outcome.get().expect("computes again");
        assert_ne!(next, first);
        assert_eq!((page.tokens.get(), page.error.get()), (vec!["two".to_string(), "words".to_string()], None));
        assert_eq!(next.0.trace().n_heads(), 2);
    }

    #[test]
    fn a_new_sentence_keeps_the_projections_and_a_new_seed_makes_new_ones() {
        let owner = Owner::new();
        owner.set();
        let page = Page::new(Settings::new(Lang::En));
        let projections = |p: &Page| p.outcome.with(|o| o.as_ref().map(|o| Arc::clone(o.0.projections())));
        let first = projections(&page).expect("computed");
        page.apply(|s, c| s.set_text("a different sentence", c).is_ok());
        let after_text = projections(&page).expect("computed");
        assert!(Arc::ptr_eq(&first, &after_text), "editing the sentence made the projections again");
        page.apply(|s, c| s.change_choice(c, |m| m.set_seed(7)));
        let after_seed = projections(&page).expect("computed");
        assert!(!Arc::ptr_eq(&first, &after_seed) && *after_seed != *first);
    }

    #[test]
    fn while_the_pretrained_model_loads_random_weights_are_shown_and_labelled_as_such() {
        let owner = Owner::new();
        owner.set();
        let page = Page::new(Settings::new(Lang::En));
        page.apply(|s, c| s.set_model(ModelId::Minilm, c));
        let shown = page.outcome.get().expect("an outcome meanwhile");
        assert!(matches!(shown.0.shape().origin, Origin::Seeded { .. }), "its own shape says random");
        assert_eq!(page.error.get(), None, "waiting is not an error");
    }

    #[test]
    fn changes_outside_the_forward_pass_do_not_recompute() {
        let owner = Owner::new();
        owner.set();
        let page = Page::new(Settings::new(Lang::En));
        // A sentence of the learner's own: switching the language keeps it.
        assert!(page.apply(|s, c| s.set_text("one two three", c).is_ok()));
        let first = page.outcome.get();
        page.apply(|s, c| {
            s.lesson_mut().set_stage(crate::settings::Stage::Softmax);
            s.classroom_mut().set_theme(Theme::Dark);
            s.switch_language(c);
            s.set_head(2, c)
        });
        assert_eq!(page.outcome.get().map(|o| Arc::clone(&o.0.encoding)), first.map(|o| Arc::clone(&o.0.encoding)));
    }
}
