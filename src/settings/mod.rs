//! Everything a learner controls in the page, split by owner: the classroom (language, theme,
//! presentation), the model choice (`models::Choice`), the lesson, each side view's state, and
//! which view is open (the modules the page starts own their own: `url::module_keys`). Each part keeps its fields private behind setters that keep its rules;
//! the rules that span parts (a new sentence or model keeps the layer, head, query row,
//! spotlight and anchor within range) are kept here, reading the model from a [`Catalog`].
//! The controls and the URL parser change the settings only through these setters. Pure: no
//! web APIs, so it is tested natively.

mod classroom;
mod lesson;
mod limits;
mod nav;
pub mod url;
mod views;
mod waiting;

pub use crate::core::model::SentenceProblem;
pub use crate::models::{heads_allowed, Catalog, Choice, ModelId};
pub use classroom::Classroom;
pub use lesson::Lesson;
pub use limits::*;
pub use nav::{Chapter, Stage, Theme, View};
pub use views::{Cost, Lab, Patterns, Variance};
pub use waiting::Index;

use crate::core::ablate::Ablation;
use crate::core::attention::Mask;
use crate::core::model::{Input, Model, RunOptions, Token};
use crate::core::tokenize::tokenize;
use crate::i18n::Lang;
use std::sync::Arc;
use waiting::Waiting;

/// The whole state of the page, as a link holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    classroom: Classroom,
    choice: Choice,
    lesson: Lesson,
    lab: Lab,
    variance: Variance,
    cost: Cost,
    patterns: Patterns,
    view: View,
    /// A link's indices into the sentence that wait for its model to arrive.
    waiting: Waiting,
}

/// The number of tokens of `text` by the site's own rule, if it can be drawn with random
/// weights: 1 to [`MAX_TOKENS`].
pub fn check_sentence(text: &str) -> Result<usize, SentenceProblem> {
    SentenceProblem::within(tokenize(text).len(), MAX_TOKENS)
}

/// Short, exact enough: 0.05, 1, 12.5.
pub fn format_temperature(t: f32) -> String {
    let s = format!("{t:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The default sentences (query side, key/value side) in `lang`.
pub fn default_sentences(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        // Each holds a repeated token (“the”, 它), so switching positional encoding off shows
        // two identical rows; the English is in lower case for that (“The” ≠ “the”). Its
        // pronoun is a piece of its own to every model: multilingual-e5-small reads 因为它 as
        // one piece, 原因是 | 它 as two (`tests/e5.rs`).
        Lang::En => ("the animal didn't cross the street because it was too tired", "Le chat est fatigué"),
        Lang::Zh => ("小猫没过马路，原因是它太累了，它想睡觉。", "The cat was too tired"),
    }
}

/// The pronouns a lesson's query starts on: the default sentences ask what "it" and 它 refer
/// to, and so does a learner's sentence with a pronoun.
const PRONOUNS: [&str; 7] = ["it", "it's", "he", "she", "它", "他", "她"];

/// The first of `tokens` that is a pronoun, if any (the token a lesson talks about): a token
/// of its own, not a piece inside a word (`▁wa | it`: SentencePiece marks a word's start with
/// ▁, WordPiece a continuation with ##). Compared without Unicode's case tables, which would
/// cost the page's .wasm 9 KB: the pronouns are ASCII or Chinese.
pub fn pronoun(tokens: &[Token]) -> Option<usize> {
    let marked = tokens.iter().any(|t| t.text.starts_with('▁'));
    tokens.iter().position(|t| {
        let bare = t.text.trim_start_matches('▁');
        let whole = |p: &str| !p.is_ascii() || !marked || t.text.starts_with('▁');
        PRONOUNS.iter().any(|p| bare.eq_ignore_ascii_case(p) && whole(p))
    })
}

impl Settings {
    /// Defaults, with the sentences in `lang`: the query on the sentence's pronoun as random
    /// weights (the default model) read it.
    pub fn new(lang: Lang) -> Self {
        let (text, kv_text) = default_sentences(lang);
        let mut lesson = Lesson::new(text, kv_text);
        lesson.follow(pronoun(&site_tokens(text)), (0, 0));
        Self {
            classroom: Classroom::new(lang),
            choice: Choice::default(),
            lesson,
            lab: Lab::default(),
            variance: Variance::default(),
            cost: Cost::default(),
            patterns: Patterns::default(),
            view: View::Lesson,
            waiting: Waiting::default(),
        }
    }

    pub fn classroom(&self) -> &Classroom {
        &self.classroom
    }

    /// The language (the classroom's).
    pub fn lang(&self) -> Lang {
        self.classroom.lang()
    }

    pub fn choice(&self) -> &Choice {
        &self.choice
    }

    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    pub fn lab(&self) -> &Lab {
        &self.lab
    }

    pub fn variance(&self) -> &Variance {
        &self.variance
    }

    pub fn cost(&self) -> &Cost {
        &self.cost
    }

    pub fn patterns(&self) -> &Patterns {
        &self.patterns
    }

    pub fn view(&self) -> View {
        self.view
    }

    /// The classroom's own setters (theme, presentation).
    pub fn classroom_mut(&mut self) -> &mut Classroom {
        &mut self.classroom
    }

    /// The lesson's own setters (mask, scaling, temperature, stage, cross-attention).
    pub fn lesson_mut(&mut self) -> &mut Lesson {
        &mut self.lesson
    }

    pub fn lab_mut(&mut self) -> &mut Lab {
        &mut self.lab
    }

    pub fn variance_mut(&mut self) -> &mut Variance {
        &mut self.variance
    }

    pub fn cost_mut(&mut self) -> &mut Cost {
        &mut self.cost
    }

    pub fn set_view(&mut self, view: View) {
        self.view = view;
    }

    /// The model the lesson shows, as `catalog` knows it now.
    pub fn model(&self, catalog: &dyn Catalog) -> Arc<dyn Model> {
        catalog.model(&self.choice)
    }

    /// Cross-attention is on and `model` takes a second sentence.
    pub fn cross_applies(&self, model: &dyn Model) -> bool {
        self.lesson.cross() && model.shape().cross
    }

    /// Whether the causal mask can apply: not between two sentences (their positions are not
    /// one timeline, and real decoders never mask cross-attention).
    pub fn mask_applies(&self, model: &dyn Model) -> bool {
        !self.cross_applies(model)
    }

    /// The mask attention runs with: the chosen one, or none in cross-attention (the choice is
    /// kept, and comes back with self-attention).
    pub fn effective_mask(&self, model: &dyn Model) -> Mask {
        if self.mask_applies(model) {
            self.lesson.mask()
        } else {
            Mask::None
        }
    }

    /// What `model`'s forward pass reads: the sentence, and the second one in cross-attention.
    pub fn input(&self, model: &dyn Model) -> Input {
        let kv_text = self.cross_applies(model).then(|| self.lesson.kv_text().to_string());
        Input { text: self.lesson.text().to_string(), kv_text }
    }

    /// How `model` runs attention for the lesson.
    pub fn run_options(&self, model: &dyn Model) -> RunOptions {
        RunOptions {
            mask: self.effective_mask(model),
            scaled: self.lesson.scaled(),
            temperature: self.lesson.temperature(),
            ablation: self.lesson.ablation().clone(),
        }
    }

    /// The tokens of `text` as the lesson's model reads it (the site's own, if it cannot).
    pub fn tokens(&self, text: &str, catalog: &dyn Catalog) -> Vec<String> {
        tokens_of(&*self.model(catalog), text)
    }

    /// The number of tokens of the lesson's sentence.
    pub fn token_count(&self, catalog: &dyn Catalog) -> usize {
        self.tokens(self.lesson.text(), catalog).len()
    }

    /// Why the lesson's sentence could not be shown with model `id` (their tokens differ, and
    /// so do their limits), if it could not.
    pub fn model_problem(&self, id: ModelId, catalog: &dyn Catalog) -> Option<SentenceProblem> {
        let mut choice = self.choice;
        choice.set_id(id);
        catalog.model(&choice).tokenize(self.lesson.text()).err()
    }

    /// Show model `id`, if the sentence fits it (a reload must find the same sentence valid);
    /// a model that reads only its own tokens gives the sentence way to its example. The
    /// layer, head, query, spotlight and anchor stay within the new model's range.
    pub fn set_model(&mut self, id: ModelId, catalog: &dyn Catalog) -> bool {
        let mut choice = self.choice;
        choice.set_id(id);
        let model = catalog.model(&choice);
        if !self.give_way(&*model) {
            return false;
        }
        self.choice = choice;
        self.waiting.take();
        self.fit_to(&*model);
        true
    }

    /// Model `id` as a link names it, before the link's sentence is read: chosen whatever the
    /// sentence now, which [`Settings::settle_link`] checks once the whole link is read.
    pub(crate) fn select_model(&mut self, id: ModelId, catalog: &dyn Catalog) -> bool {
        self.choice.set_id(id);
        self.fit(catalog);
        true
    }

    /// Once a whole link is read: the model must read the sentence (or give it way to its
    /// example); if it cannot, the link named a model for a sentence it cannot show, and the
    /// default model stays. `false` then.
    pub(crate) fn settle_link(&mut self, catalog: &dyn Catalog) -> bool {
        self.fit(catalog);
        if self.model(catalog).tokenize(self.lesson.text()).is_ok() {
            return true;
        }
        self.choice.set_id(ModelId::default());
        self.fit(catalog);
        false
    }

    /// After the catalog changed (a model arrived): a sentence the model cannot read gives way
    /// to its example, and every index stays within the model's range.
    /// Indices a link asked for while the model was on its way are checked once it is here.
    pub fn fit(&mut self, catalog: &dyn Catalog) {
        let model = self.model(catalog);
        self.give_way(&*model);
        self.fit_to(&*model);
        if !model.on_its_way() {
            for (index, at) in self.waiting.take() {
                self.set_index(index, at, catalog);
            }
        }
    }

    /// Whether `model` reads the sentence, after a sentence it cannot read gave way to the
    /// model's example (when it has one it reads).
    fn give_way(&mut self, model: &dyn Model) -> bool {
        if model.tokenize(self.lesson.text()).is_ok() {
            return true;
        }
        match model.example().filter(|e| model.tokenize(e).is_ok()) {
            Some(example) => {
                self.lesson.put_text(&example);
                true
            }
            None => false,
        }
    }

    /// The layer and head within `model`'s, the query, anchor and spotlight within its tokens;
    /// what nobody chose follows the model (its talking head, the pronoun as it reads it).
    fn fit_to(&mut self, model: &dyn Model) {
        let shape = model.shape();
        let tokens = model_tokens(model, self.lesson.text());
        self.lesson.follow(pronoun(&tokens), shape.talking_head());
        let n = tokens.len().max(1);
        self.lesson.fit(shape.n_layers, shape.n_heads, n);
        self.patterns.fit(n);
    }

    /// Change the model choice through one of its own setters (random weights' sizes:
    /// [`Choice::set_d_model`], [`Choice::set_n_heads`], [`Choice::set_seed`],
    /// [`Choice::set_positional`]); `false`, and no change, if it refused. The head and the
    /// indices then stay within the model it names.
    pub fn change_choice(&mut self, catalog: &dyn Catalog, change: impl FnOnce(&mut Choice) -> bool) -> bool {
        let mut choice = self.choice;
        if !change(&mut choice) {
            return false;
        }
        self.choice = choice;
        let model = self.model(catalog);
        self.fit_to(&*model);
        true
    }

    /// Use `text` as the sentence if the lesson's model can read it; the chosen query,
    /// spotlight and anchor stay within its tokens.
    pub fn set_text(&mut self, text: &str, catalog: &dyn Catalog) -> Result<(), SentenceProblem> {
        let model = self.model(catalog);
        model.tokenize(text)?;
        self.lesson.put_text(text);
        self.waiting.take();
        self.fit_to(&*model);
        Ok(())
    }

    /// Use `text` as the second sentence if the lesson's model reads it, when it takes one
    /// (else by the site's own rule, which is random weights', the model that does).
    pub fn set_kv_text(&mut self, text: &str, catalog: &dyn Catalog) -> Result<(), SentenceProblem> {
        let model = self.model(catalog);
        if model.shape().cross {
            model.tokenize(text)?;
        } else {
            check_sentence(text)?;
        }
        self.lesson.put_kv_text(text);
        Ok(())
    }

    /// The model's layer shown (0-based), if it has it.
    pub fn set_layer(&mut self, layer: usize, catalog: &dyn Catalog) -> bool {
        let n_layers = self.model(catalog).shape().n_layers;
        self.lesson.set_layer(layer, n_layers)
    }

    /// The head shown (0-based), if the model has it.
    pub fn set_head(&mut self, head: usize, catalog: &dyn Catalog) -> bool {
        let n_heads = self.model(catalog).shape().n_heads;
        self.lesson.set_head(head, n_heads)
    }

    /// Switch off `ablation`'s heads (its replacement is the lesson's), if the model has each.
    pub fn set_ablated(&mut self, ablation: &Ablation, catalog: &dyn Catalog) -> bool {
        let shape = self.model(catalog).shape().clone();
        self.lesson.set_ablated(ablation, shape.n_layers, shape.n_heads)
    }

    /// Head `head` of `layer` (from 0) switched off if it was on, on if it was off.
    pub fn toggle_head(&mut self, layer: usize, head: usize, catalog: &dyn Catalog) -> bool {
        let toggled = self.lesson.ablation().toggled(layer, head);
        self.set_ablated(&toggled, catalog)
    }

    /// The query row (0-based), if the sentence has it.
    pub fn set_query(&mut self, query: usize, catalog: &dyn Catalog) -> bool {
        self.waiting.forget(Index::Query);
        self.set_index(Index::Query, query, catalog)
    }

    /// The spotlighted token (0-based), if the sentence has it; `None` clears it.
    pub fn set_spot(&mut self, spot: Option<usize>, catalog: &dyn Catalog) -> bool {
        self.waiting.forget(Index::Spot);
        match spot {
            Some(at) => self.set_index(Index::Spot, at, catalog),
            None => self.lesson.set_spot(None, 0),
        }
    }

    /// The sparse head's anchor token (0-based), if the sentence has it.
    pub fn set_anchor(&mut self, anchor: usize, catalog: &dyn Catalog) -> bool {
        self.waiting.forget(Index::Anchor);
        self.set_index(Index::Anchor, anchor, catalog)
    }

    /// Token `at` as `index`, if the sentence has it.
    fn set_index(&mut self, index: Index, at: usize, catalog: &dyn Catalog) -> bool {
        let n = self.token_count(catalog);
        match index {
            Index::Query => self.lesson.set_query(at, n),
            Index::Spot => self.lesson.set_spot(Some(at), n),
            Index::Anchor => self.patterns.set_anchor(at, n),
        }
    }

    /// Token `at` as `index`, as a link asks for it: set if the sentence has it; else, while
    /// the model is on its way (its stand-in counts no more tokens than it will have), kept
    /// until it arrives, if within the model's limit.
    pub(crate) fn ask_for(&mut self, index: Index, at: usize, catalog: &dyn Catalog) -> bool {
        self.waiting.forget(index);
        if self.set_index(index, at, catalog) {
            return true;
        }
        let model = self.model(catalog);
        let waits = model.on_its_way() && at < model.shape().max_tokens;
        if waits {
            self.waiting.put(index, at);
        }
        waits
    }

    /// Token `index` as a link gives it (0-based): the one waiting for the model, else the
    /// one shown (`None`: no spotlight, or the query that follows the sentence's pronoun).
    pub fn linked(&self, index: Index) -> Option<usize> {
        self.waiting.get(index).or(match index {
            Index::Query => (!self.lesson.query_follows()).then(|| self.lesson.query()),
            Index::Spot => self.lesson.spot(),
            Index::Anchor => Some(self.patterns.anchor()),
        })
    }

    /// The other language; an untouched default sentence follows it (its query on the new
    /// sentence's pronoun, as the model reads it); a sentence of the teacher's own stays, and
    /// so do the query, layer and head chosen on it.
    pub fn switch_language(&mut self, catalog: &dyn Catalog) {
        let next = if self.lang() == Lang::En { Lang::Zh } else { Lang::En };
        let (old_text, old_kv) = default_sentences(self.lang());
        let (new_text, new_kv) = default_sentences(next);
        if self.lesson.text() == old_text {
            let model = self.model(catalog);
            if model.tokenize(new_text).is_ok() {
                self.lesson.put_text(new_text);
                self.lesson.restart_indices();
                self.waiting.take();
                self.fit_to(&*model);
            }
        }
        if self.lesson.kv_text() == old_kv {
            self.lesson.put_kv_text(new_kv);
        }
        self.classroom.set_lang(next);
    }

    /// What a student's phone should open: this state in the normal layout and the default
    /// theme (a projector's presentation mode and high contrast are the teacher's choice).
    pub fn for_students(&self) -> Settings {
        Settings { classroom: self.classroom.for_students(), ..self.clone() }
    }
}

/// The texts of `text`'s tokens as `model` reads them, or the site's own tokens if it cannot.
fn tokens_of(model: &dyn Model, text: &str) -> Vec<String> {
    Token::texts(&model_tokens(model, text))
}

/// `text`'s tokens as `model` reads them, or the site's own tokens if it cannot.
fn model_tokens(model: &dyn Model, text: &str) -> Vec<Token> {
    model.tokenize(text).unwrap_or_else(|_| site_tokens(text))
}

/// `text`'s tokens by the site's own rule (random weights'), without vocabulary ids.
fn site_tokens(text: &str) -> Vec<Token> {
    tokenize(text).into_iter().map(|text| Token { id: 0, text }).collect()
}

#[cfg(test)]
mod tests;
