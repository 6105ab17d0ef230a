//! The page's shared state, provided once by `App` as a context: the settings, the last good
//! computed outcome (computed once per change of the attention inputs), the language and the
//! theme with its chart ink.

use super::hooks::{timed, Work};
use crate::chart::ink::Ink;
use crate::core::bert::{Encoding, Model};
use crate::core::embed::EmbeddingTable;
use crate::core::scenario::{attend, encode, layer_outcome, prepare, Outcome, Scenario, ScenarioError, Source};
use crate::core::train::lesson::Trained;
use crate::core::weights::Weights;
use crate::export::file_stem;
use crate::i18n::{t, Lang, Text};
use crate::settings::{Settings, Theme, MAX_TOKENS};
use leptos::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// A computed result shared by every panel that shows it (by default the outcome). Equality
/// is identity: a new computation is always a change, and comparing never walks the matrices.
#[derive(Debug)]
pub struct Shared<T = Outcome>(pub Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The context every component reads.
#[derive(Debug, Clone, Copy)]
pub struct Page {
    pub settings: RwSignal<Settings>,
    /// The last outcome that computed; `None` only if nothing has computed yet. It carries
    /// the settings that produced it, which is what its labels must describe.
    pub outcome: Memo<Option<Shared>>,
    /// The tokens of the last outcome (empty before the first).
    pub tokens: Memo<Vec<String>>,
    /// Why the current settings did not compute, if they did not.
    pub error: Memo<Option<ScenarioError>>,
    pub lang: Memo<Lang>,
    /// The system asks for dark colours (kept up to date by `App`).
    pub prefers_dark: RwSignal<bool>,
    /// The theme shown.
    pub shown: Memo<Shown>,
    /// Chart colours of the theme shown, read from the stylesheet by `App` each time the theme
    /// changes (charts redraw when it does).
    pub ink: RwSignal<Ink>,
    /// The trained model: not asked for, on its way, ready, or failed.
    pub model: RwSignal<ModelState>,
    /// The trained model's forward pass on the sentence (every layer), when the model is ready
    /// and trained weights or the model view are shown.
    pub encoding: Memo<Option<Result<Shared<Encoding>, ScenarioError>>>,
    /// The learner's own trained model, once read from the browser's storage (see `yours`).
    pub yours: RwSignal<Option<Shared<Trained>>>,
}

/// Where the trained model is.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ModelState {
    /// Nobody asked for it yet: nothing is downloaded.
    #[default]
    Idle,
    /// Downloading (or reading from the browser's cache): bytes so far of the total.
    Loading {
        received: usize,
        total: usize,
    },
    Ready(Shared<Model>),
    /// Why it could not be loaded (shown with a retry button).
    Failed(super::model_loader::LoadError),
}

impl ModelState {
    /// The model, if ready.
    pub fn ready(&self) -> Option<Arc<Model>> {
        match self {
            ModelState::Ready(m) => Some(Arc::clone(&m.0)),
            _ => None,
        }
    }
}

/// Why the settings shown have no outcome of their own.
#[derive(Debug, Clone, PartialEq)]
enum Refusal {
    /// Trained weights are asked for and the model is still loading (or failed: its own
    /// message says so): the last outcome stays, with its own label.
    Waiting,
    Error(ScenarioError),
}

impl Page {
    /// Build the state from initial settings. The trace is recomputed only when the fields
    /// that feed attention change (not the stage, the saturation lab or the language).
    pub fn new(initial: Settings) -> Self {
        Self::with_token_limit(initial, MAX_TOKENS)
    }

    /// [`Page::new`] with another token limit (the benchmark measures up to 256 tokens).
    pub fn with_token_limit(initial: Settings, max_tokens: usize) -> Self {
        let settings = RwSignal::new(initial);
        let scenario = Memo::new(move |_| settings.with(Settings::scenario));
        // The weights depend on d_model and the seed only: a new sentence keeps them.
        let weights_key = Memo::new(move |_| settings.with(|s| (s.d_model, s.seed)));
        let weights = Memo::new(move |_| {
            let (d_model, seed) = weights_key.get();
            Weights::seeded(d_model, seed).map(|w| Shared(Arc::new(w))).map_err(ScenarioError::Attention)
        });
        // Token embeddings already made, kept across sentences like the weights.
        let table = StoredValue::new(EmbeddingTable::default());
        let model = RwSignal::new(ModelState::Idle);
        let ready = Memo::new(move |_| model.with(|m| m.ready().map(Shared)));
        // The forward pass depends on the sentence and the attention switches, not the layer.
        let encode_key = Memo::new(move |_| {
            settings.with(|s| {
                let wanted = s.source == Source::Minilm || s.view.needs_model();
                wanted.then(|| Scenario { layer: 0, source: Source::Minilm, ..s.scenario() })
            })
        });
        let encoding = Memo::new(move |_| {
            let model = ready.get()?;
            let encoded = encode_key.with(|key| {
                let s = key.as_ref()?;
                Some(timed(Work::Compute, || encode(s, &model.0)).map(|e| Shared(Arc::new(e))))
            });
            if encoded.is_some() {
                COMPUTATIONS.fetch_add(1, Ordering::Relaxed);
            }
            encoded
        });
        let random = move |s: &Scenario| -> Result<Outcome, Refusal> {
            let w: Arc<Weights> =
                weights.with(|w| w.as_ref().map(|w| Arc::clone(&w.0)).map_err(|e| Refusal::Error(e.clone())))?;
            COMPUTATIONS.fetch_add(1, Ordering::Relaxed);
            timed(Work::Compute, || {
                // `None`: the page is closing and the table is gone; nothing to say.
                let prepared = table.try_update_value(|t| prepare(s, max_tokens, t)).ok_or(Refusal::Waiting)?;
                prepared.and_then(|inputs| attend(s, inputs, w)).map_err(Refusal::Error)
            })
        };
        let yours = RwSignal::new(None::<Shared<Trained>>);
        let computed = Memo::new(move |_| {
            let computed = scenario.with(|s| match (s.source, ready.get(), encoding.get()) {
                (Source::Random, ..) => random(s),
                (Source::Yours, ..) => {
                    let model = yours.get().ok_or(Refusal::Error(ScenarioError::NoTrainedModel))?;
                    COMPUTATIONS.fetch_add(1, Ordering::Relaxed);
                    timed(Work::Compute, || model.0.outcome(s)).map_err(Refusal::Error)
                }
                (Source::Minilm, Some(model), Some(encoded)) => {
                    let encoded = encoded.map_err(Refusal::Error)?;
                    layer_outcome(s, &model.0, encoded.0).map_err(Refusal::Error)
                }
                // The trained model is on its way: random weights meanwhile, labelled as such.
                (Source::Minilm, ..) => {
                    random(&Scenario { source: Source::Random, ..s.clone() }).map_err(|_| Refusal::Waiting)
                }
            });
            computed.map(|o| Shared(Arc::new(o)))
        });
        let outcome = Memo::new(move |prev: Option<&Option<Shared>>| match computed.get() {
            Ok(o) => Some(o),
            Err(_) => prev.cloned().flatten(),
        });
        let tokens = Memo::new(move |_| outcome.with(|o| o.as_ref().map(|o| o.0.tokens.clone()).unwrap_or_default()));
        let error = Memo::new(move |_| {
            computed.with(|c| match c {
                Err(Refusal::Error(e)) => Some(e.clone()),
                _ => None,
            })
        });
        let lang = Memo::new(move |_| settings.with(|s| s.lang));
        let prefers_dark = RwSignal::new(false);
        let shown = Memo::new(move |_| resolve(settings.with(|s| s.theme), prefers_dark.get()));
        Self {
            settings,
            outcome,
            tokens,
            error,
            lang,
            prefers_dark,
            shown,
            ink: RwSignal::new(Ink::PLAIN),
            model,
            encoding,
            yours,
        }
    }

    /// Change the settings through one of their setters, which says whether it accepted the
    /// change; a refused change notifies nobody. Returns the setter's answer.
    pub fn apply(self, mut change: impl FnMut(&mut Settings) -> bool) -> bool {
        self.apply_dyn(&mut change)
    }

    /// [`Page::apply`] without the generic: one copy of the update code for every caller.
    fn apply_dyn(self, change: &mut dyn FnMut(&mut Settings) -> bool) -> bool {
        let mut accepted = false;
        self.settings.maybe_update(|s| {
            accepted = change(s);
            accepted
        });
        accepted
    }

    /// The name of a file holding `what` (a stable slug) at the current stage: named after the
    /// scenario of the outcome shown (the settings' own before anything computed).
    pub fn file_stem(self, what: &str) -> String {
        let stage = self.settings.with_untracked(|s| s.stage);
        let shown = self.outcome.with_untracked(|o| o.as_ref().map(|o| file_stem(stage, &o.0.scenario, what)));
        shown.unwrap_or_else(|| file_stem(stage, &self.settings.with_untracked(Settings::scenario), what))
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

/// How many times the page has computed attention since it loaded: a change that does not
/// touch the trace (stage, head, language, theme) must not add to it.
static COMPUTATIONS: AtomicU32 = AtomicU32::new(0);

/// The number of attention computations so far (see [`COMPUTATIONS`]).
pub fn computations() -> u32 {
    COMPUTATIONS.load(Ordering::Relaxed)
}

/// The context, provided by `App`.
pub fn use_page() -> Page {
    use_context::<Page>().unwrap_or_else(|| Page::new(Settings::new(Lang::En)))
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
    use crate::core::error::AttnError;

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

        // Heads that do not divide d_model (no control offers them; a setter would refuse).
        page.settings.update(|s| s.heads = 3);
        let error = page.error.get().expect("the change is reported");
        assert_eq!(error, ScenarioError::Attention(AttnError::HeadsDoNotDivide { d_model: 64, heads: 3 }));
        assert_eq!(page.outcome.get(), Some(first.clone()), "the last good outcome stays, unchanged");
        assert_eq!(first.0.scenario.heads, 4, "and it still says what produced it");

        page.settings.update(|s| {
            s.heads = 2;
            s.text = "two words".into();
        });
        let next = page.outcome.get().expect("computes again");
        assert_ne!(next, first);
        assert_eq!((page.tokens.get(), page.error.get()), (vec!["two".to_string(), "words".to_string()], None));
        assert_eq!(next.0.trace.heads.len(), 2);
    }

    #[test]
    fn a_new_sentence_keeps_the_weights_and_a_new_seed_makes_new_ones() {
        let owner = Owner::new();
        owner.set();
        let page = Page::new(Settings::new(Lang::En));
        let weights = |p: &Page| p.outcome.with(|o| o.as_ref().map(|o| Arc::clone(&o.0.weights)));
        let first = weights(&page).expect("computed");
        page.apply(|s| s.set_text("a different sentence").is_ok());
        let after_text = weights(&page).expect("computed");
        assert!(Arc::ptr_eq(&first, &after_text), "editing the sentence regenerated the weights");
        page.apply(|s| s.set_seed(7));
        let after_seed = weights(&page).expect("computed");
        assert!(!Arc::ptr_eq(&first, &after_seed) && *after_seed != *first);
    }

    #[test]
    fn while_the_trained_model_loads_random_weights_are_shown_and_labelled_as_such() {
        let owner = Owner::new();
        owner.set();
        let page = Page::new(Settings::new(Lang::En));
        page.apply(|s| s.set_source(Source::Minilm));
        let shown = page.outcome.get().expect("an outcome meanwhile");
        assert_eq!(shown.0.scenario.source, Source::Random, "its own scenario says random");
        assert_eq!(page.error.get(), None, "waiting is not an error");
        assert_eq!(page.encoding.get(), None, "no model, no forward pass");
    }

    #[test]
    fn changes_outside_the_scenario_do_not_recompute() {
        let owner = Owner::new();
        owner.set();
        let page = Page::new(Settings::new(Lang::En));
        let first = page.outcome.get();
        page.settings.update(|s| {
            s.stage = crate::settings::Stage::Softmax;
            s.head = 2;
            s.lang = Lang::Zh;
            s.theme = Theme::Dark;
        });
        assert_eq!(page.outcome.get(), first, "the same Arc: nothing was recomputed");
    }
}
