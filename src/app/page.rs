//! The page's shared state, provided once by `App` as a context: the settings (split by
//! owner, see `settings`), the models that have arrived, the lesson's model and its forward
//! pass (`forward`: computed once per change of what it reads, in the page or in the forward
//! worker), the last good outcome, the language and the theme with its
//! chart ink.

use super::forward::forward_of;
use crate::chart::ink::Ink;
use crate::core::model::{Model, ModelError, Outcome};
use crate::export::file_stem;
use crate::fetch::LoadState;
use crate::i18n::{t, Lang, Text};
use crate::models::{Catalog, ModelId, Models};
use crate::settings::{Settings, Theme};
use leptos::prelude::*;
use std::sync::Arc;

pub use crate::shared::Shared;

pub use super::forward::Computed;

/// The context every component reads.
#[derive(Debug, Clone, Copy)]
pub struct Page {
    /// What the learner controls (fields private; change it through `apply`).
    pub settings: RwSignal<Settings>,
    /// The models that have arrived.
    pub models: RwSignal<Models>,
    /// Models being fetched, and those that failed.
    pub loads: RwSignal<Vec<(ModelId, LoadState)>>,
    /// The lesson's model, as known now (a stand-in until it arrives).
    pub model: Memo<Shared<dyn Model>>,
    /// The last outcome that computed; `None` only if nothing has computed yet. It carries
    /// the shape and options that produced it, which is what its labels must describe.
    pub outcome: Memo<Option<Shared<Outcome>>>,
    /// The tokens of the last outcome (empty before the first).
    pub tokens: Memo<Vec<String>>,
    /// Why the current settings did not compute, if they did not.
    pub error: Memo<Option<ModelError>>,
    /// The forward pass of the current settings is under way in the worker (the last outcome
    /// stays on screen meanwhile).
    pub computing: Memo<bool>,
    pub lang: Memo<Lang>,
    /// Presentation mode (the classroom's).
    pub present: Memo<bool>,
    /// The system asks for dark colours (kept up to date by `App`).
    pub prefers_dark: RwSignal<bool>,
    /// The theme shown.
    pub shown: Memo<Shown>,
    /// Chart colours of the theme shown, read from the stylesheet by `App` each time the theme
    /// changes (charts redraw when it does).
    pub ink: RwSignal<Ink>,
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
        let tokens = Memo::new(move |_| outcome.with(|o| o.as_ref().map(|o| o.0.tokens.clone()).unwrap_or_default()));
        let error = Memo::new(move |_| computed.with(|c| c.as_ref().and_then(|c| c.as_ref().err().cloned())));
        let computing = Memo::new(move |_| computed.with(Option::is_none));
        let lang = Memo::new(move |_| settings.with(|s| s.lang()));
        let present = Memo::new(move |_| settings.with(|s| s.classroom().present()));
        let prefers_dark = RwSignal::new(false);
        let shown = Memo::new(move |_| resolve(settings.with(|s| s.classroom().theme()), prefers_dark.get()));
        Self {
            settings,
            models,
            loads: RwSignal::new(vec![]),
            model,
            outcome,
            tokens,
            error,
            computing,
            lang,
            present,
            prefers_dark,
            shown,
            ink: RwSignal::new(Ink::PLAIN),
        }
    }

    /// A module's mirror of the page (`crate::side`): the page's settings, and its outcome as
    /// `handed` over by the page (`app::module_host::hand_over`), never computed here.
    pub fn mirror(initial: Settings, handed: Memo<Option<Shared<Outcome>>>) -> Self {
        let page = Self::new(initial);
        let tokens = Memo::new(move |_| handed.with(|o| o.as_ref().map(|o| o.0.tokens.clone()).unwrap_or_default()));
        Self { outcome: handed, tokens, error: Memo::new(|_| None), computing: Memo::new(|_| false), ..page }
    }

    /// Change the settings through one of their setters, which says whether it accepted the
    /// change (and reads the models from the catalogue it is given); a refused change notifies
    /// nobody. Returns the setter's answer.
    pub fn apply(self, mut change: impl FnMut(&mut Settings, &dyn Catalog) -> bool) -> bool {
        self.apply_dyn(&mut change)
    }

    /// [`Page::apply`] without the generic: one copy of the update code for every caller.
    fn apply_dyn(self, change: &mut dyn FnMut(&mut Settings, &dyn Catalog) -> bool) -> bool {
        let mut accepted = false;
        self.models.with_untracked(|models| {
            self.settings.maybe_update(|s| {
                accepted = change(s, models);
                accepted
            })
        });
        accepted
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

    /// The name of a file holding `what` (a stable slug) at the current stage: named after the
    /// outcome shown (the settings' own model before anything computed).
    pub fn file_stem(self, what: &str) -> String {
        let stage = self.settings.with_untracked(|s| s.lesson().stage());
        let shape = self.outcome.with_untracked(|o| o.as_ref().map(|o| (o.0.shape().clone(), o.0.layer)));
        let (shape, layer) = shape.unwrap_or_else(|| (self.model.get_untracked().0.shape().clone(), 0));
        let options = self.outcome.with_untracked(|o| o.as_ref().map(|o| o.0.encoding.options.clone()));
        let cross = self.outcome.with_untracked(|o| o.as_ref().is_some_and(|o| o.0.trace().is_cross()));
        file_stem(stage, &shape, layer, &options.unwrap_or_default(), cross, what)
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

    /// `msg` as a signal of owned text, for props such as a heatmap's name.
    pub fn label<M: Text + Copy + Send + Sync + 'static>(self, msg: M) -> Signal<String> {
        Signal::derive(move || self.t(msg).to_string())
    }

    /// A live text of `msg` for a view: follows the language. One closure type per message
    /// catalogue (not one per call site), which keeps the .wasm small.
    pub fn text<M: Text + Copy + Send + Sync + 'static>(
        self,
        msg: M,
    ) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
        move || self.t(msg)
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
            s.switch_language();
            s.set_head(2, c)
        });
        assert_eq!(page.outcome.get().map(|o| Arc::clone(&o.0.encoding)), first.map(|o| Arc::clone(&o.0.encoding)));
    }
}
