//! What a view of the lesson reads, in the page and in a module alike: the settings, the
//! outcome shown, the shape of the model it came from, the language and the chart ink. The
//! page builds it from its own state (`app::page::Page`, which computes the outcome); a module
//! builds it from the page's link and the numbers the page handed over (`side::handover`),
//! and computes nothing.

use crate::chart::ink::Ink;
use crate::core::model::{Outcome, Shape};
use crate::export::file_stem;
use crate::i18n::{t, Lang, Text};
use crate::models::{Catalog, Models};
use crate::settings::Settings;
use crate::shared::Shared;
use leptos::prelude::*;

/// The context a view of the lesson reads (provided by the page and by each module).
#[derive(Debug, Clone, Copy)]
pub struct LessonState {
    /// What the learner controls (fields private; change it through `apply`).
    pub settings: RwSignal<Settings>,
    /// What a change of the settings is checked against: the models known here (in a module
    /// only random weights and stand-ins, whose bounds the page checks again).
    pub models: RwSignal<Models>,
    /// The last outcome that computed; `None` only if nothing has computed yet. It carries
    /// the shape and options that produced it, which is what its labels must describe.
    pub outcome: Memo<Option<Shared<Outcome>>>,
    /// The tokens of the last outcome (empty before the first).
    pub tokens: Memo<Vec<String>>,
    /// The shape of the model shown: its layers and heads are what a view may choose from.
    pub shape: Memo<Shape>,
    pub lang: Memo<Lang>,
    /// Presentation mode (the classroom's).
    pub present: Memo<bool>,
    /// Chart colours of the theme shown, read from the stylesheet each time the theme changes
    /// (charts redraw when it does).
    pub ink: RwSignal<Ink>,
}

impl LessonState {
    /// The lesson's state around `settings` and the `outcome` shown, with `shape` the shape
    /// of the model it comes from (before anything computed too).
    pub fn new(
        settings: RwSignal<Settings>,
        models: RwSignal<Models>,
        outcome: Memo<Option<Shared<Outcome>>>,
        shape: Memo<Shape>,
    ) -> Self {
        Self {
            settings,
            models,
            outcome,
            tokens: Memo::new(move |_| outcome.with(|o| o.as_ref().map(|o| o.0.tokens.clone()).unwrap_or_default())),
            shape,
            lang: Memo::new(move |_| settings.with(|s| s.lang())),
            present: Memo::new(move |_| settings.with(|s| s.classroom().present())),
            ink: RwSignal::new(Ink::PLAIN),
        }
    }

    /// Change the settings through one of their setters, which says whether it accepted the
    /// change (and reads the models from the catalogue it is given); a refused change notifies
    /// nobody. Returns the setter's answer.
    pub fn apply(self, mut change: impl FnMut(&mut Settings, &dyn Catalog) -> bool) -> bool {
        self.apply_dyn(&mut change)
    }

    /// [`LessonState::apply`] without the generic: one copy of the update code for every caller.
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

    /// The name of a file holding `what` (a stable slug) at the current stage: named after the
    /// outcome shown (the model's own shape before anything computed).
    pub fn file_stem(self, what: &str) -> String {
        let stage = self.settings.with_untracked(|s| s.lesson().stage());
        let shown = self.outcome.with_untracked(|o| {
            o.as_ref().map(|o| {
                let o = &o.0;
                (o.shape().clone(), o.layer, o.encoding.options.clone(), o.trace().is_cross())
            })
        });
        let (shape, layer, options, cross) =
            shown.unwrap_or_else(|| (self.shape.get_untracked(), 0, Default::default(), false));
        file_stem(stage, &shape, layer, &options, cross, what)
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

/// The context, provided by the page and by each module's view; a component outside it is a
/// programming error.
pub fn use_lesson_state() -> LessonState {
    expect_context::<LessonState>()
}
