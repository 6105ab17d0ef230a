//! The model registry: every model the lesson can show, by the id links name it with, what
//! the page knows of each before it has arrived (a stand-in), its name in the weights switch,
//! and how it reaches the page ([`Delivery`], which `app::model_loader` carries out). This and
//! the loader are the only places that name a model; everything else asks the model itself
//! (`core::model::Model`).
//!
//! A new model is one implementation of `Model` in the core, one variant here with its
//! stand-in and delivery, and its name in `i18n::ModelMsg`.

use crate::core::bert::asset::{ModelFile, E5_FILE, MINILM_FILE};
use crate::core::bert::unigram::rough_pieces;
use crate::core::bert::wordpiece::rough_tokens;
#[cfg(not(feature = "frames"))]
use crate::core::bert::Bert;
#[cfg(feature = "frames")]
use crate::core::bert::BertFrame;
use crate::core::bert::{minilm_shape, Asset, Config, E5, MINILM};
use crate::core::model::random::{Random, RandomCache, RandomSetup};
use crate::core::model::standin::{Meanwhile, Standin};
use crate::core::model::{Model, ModelError, Shape};
use crate::core::tokenize::tokenize;
use crate::core::train::session::Setup;
use crate::core::train::yours::YourModel;
use crate::i18n::{Lang, ModelMsg};
use std::sync::Arc;

/// The most tokens a sentence may have with random weights: beyond this the heatmaps stop
/// being readable.
pub const MAX_TOKENS: usize = 64;
/// The model widths offered for random weights.
pub const D_MODEL_CHOICES: [usize; 7] = [8, 16, 32, 64, 128, 256, 512];
/// The head counts offered (only those dividing d_model are shown).
pub const HEAD_CHOICES: [usize; 5] = [1, 2, 4, 8, 16];
/// Seeds are whole numbers up to this (they fit a number box and a URL comfortably).
pub const MAX_SEED: u64 = 999_999_999;

crate::slugged! {
    /// The models the lesson can show; the slug is the `model` value of a link.
    #[derive(Default)]
    pub enum ModelId {
        /// Seeded random weights, one layer, sizes the learner sets.
        #[default]
        Random = "random",
        /// The pretrained all-MiniLM-L6-v2.
        Minilm = "minilm",
        /// The pretrained multilingual-e5-small, which reads Chinese too.
        E5 = "e5",
        /// The learner's own model, from the training view.
        Yours = "yours",
    }
}

/// The model the browser keeps under `key` (the training view's "Open in the lesson" opens the
/// one it keeps), if any.
pub fn stored_under(key: &str) -> Option<ModelId> {
    ModelId::ALL.into_iter().find(|id| id.storage_key() == Some(key))
}

/// A model fetched as a file: the file, the entries of it this build reads, and what it makes
/// of them.
#[derive(Debug, Clone, Copy)]
pub struct Download {
    pub file: ModelFile,
    /// Whether an entry (by name) is read: in the page's own build only the frame's
    /// ([`BertFrame::reads`]); the rest of the file is never held.
    pub reads: fn(&str) -> bool,
    pub build: fn(Asset) -> Result<Arc<dyn Model>, String>,
}

/// How a model reaches the page.
#[derive(Debug, Clone, Copy)]
pub enum Delivery {
    /// Made in the page from the choice (seeded weights).
    Made,
    /// A file fetched when first asked for, checked, and kept in the browser's cache.
    Download(Download),
    /// Text the training view keeps in the browser's storage under `key`.
    Stored { key: &'static str, parse: fn(&str) -> Option<Arc<dyn Model>> },
}

impl ModelId {
    /// Its name in the weights switch.
    pub fn name(self) -> ModelMsg {
        match self {
            ModelId::Random => ModelMsg::WeightsRandom,
            ModelId::Minilm => ModelMsg::WeightsPretrained,
            ModelId::E5 => ModelMsg::WeightsE5,
            ModelId::Yours => ModelMsg::WeightsYours,
        }
    }

    /// The models in the weights switch's order for `lang`: in Chinese the pretrained model
    /// that reads Chinese comes first.
    pub fn offered(lang: Lang) -> [ModelId; 4] {
        match lang {
            Lang::En => [ModelId::Random, ModelId::Minilm, ModelId::E5, ModelId::Yours],
            Lang::Zh => [ModelId::Random, ModelId::E5, ModelId::Minilm, ModelId::Yours],
        }
    }

    /// Weights that learned from text, fetched as a file (MiniLM, e5).
    pub fn pretrained(self) -> bool {
        matches!(self.delivery(), Delivery::Download(_))
    }

    /// The pretrained model the views about one (every head at once, the case study) show when
    /// the lesson shows `self`: itself if it is pretrained, else the first pretrained model
    /// offered in `lang` (e5 in Chinese, MiniLM in English).
    pub fn viewed(self, lang: Lang) -> ModelId {
        let first = Self::offered(lang).into_iter().find(|id| id.pretrained());
        if self.pretrained() {
            self
        } else {
            first.unwrap_or(ModelId::Minilm)
        }
    }

    /// Where the browser keeps it, for a model the training view writes there.
    pub fn storage_key(self) -> Option<&'static str> {
        (self == ModelId::Yours).then_some(crate::bridge::YOURS_KEY)
    }

    /// Its forward passes run in the forward worker (`compute`), not on the page's thread: the
    /// downloaded models, whose pass takes a long task (MiniLM at 128 tokens, ~200 ms).
    /// Seeded random weights at the lesson's sizes and the learner's small model compute in
    /// the page, cheaper than a round trip (the README's benchmark: ~1 ms at 32 × 64).
    pub fn computed_in_worker(self) -> bool {
        self.pretrained()
    }

    /// How the page gets it.
    pub fn delivery(self) -> Delivery {
        match self {
            ModelId::Random => Delivery::Made,
            ModelId::Minilm => Delivery::Download(Download { file: MINILM_FILE, reads: bert_reads, build: minilm }),
            ModelId::E5 => Delivery::Download(Download { file: E5_FILE, reads: bert_reads, build: e5 }),
            ModelId::Yours => Delivery::Stored {
                key: crate::bridge::YOURS_KEY,
                parse: |text| YourModel::parse(text).map(|m| Arc::new(m) as Arc<dyn Model>),
            },
        }
    }
}

/// Which model, and the sizes of random weights (kept when another model is shown, so they
/// come back with it). Fields private: the setters keep their rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Choice {
    id: ModelId,
    random: RandomSetup,
}

/// Does `n_heads` divide `d_model`, and is it offered?
pub fn heads_allowed(d_model: usize, n_heads: usize) -> bool {
    HEAD_CHOICES.contains(&n_heads) && n_heads <= d_model && d_model.is_multiple_of(n_heads)
}

/// The largest offered head count ≤ `wish` that divides `d_model` (1 always does).
fn fit_heads(d_model: usize, wish: usize) -> usize {
    HEAD_CHOICES.iter().rev().copied().find(|h| *h <= wish && heads_allowed(d_model, *h)).unwrap_or(1)
}

impl Choice {
    pub fn id(&self) -> ModelId {
        self.id
    }

    /// The sizes random weights have (whichever model is shown).
    pub fn random(&self) -> RandomSetup {
        self.random
    }

    /// Show model `id`.
    pub fn set_id(&mut self, id: ModelId) {
        self.id = id;
    }

    /// A new model width, if offered; the head count becomes the largest offered one that
    /// divides it and is not above the current one.
    pub fn set_d_model(&mut self, d_model: usize) -> bool {
        if !D_MODEL_CHOICES.contains(&d_model) {
            return false;
        }
        self.random.d_model = d_model;
        self.random.n_heads = fit_heads(d_model, self.random.n_heads);
        true
    }

    /// A new head count, if it is offered and divides d_model.
    pub fn set_n_heads(&mut self, n_heads: usize) -> bool {
        heads_allowed(self.random.d_model, n_heads).then(|| self.random.n_heads = n_heads).is_some()
    }

    /// The head counts offered for the current d_model.
    pub fn heads_offered(&self) -> impl Iterator<Item = usize> + '_ {
        HEAD_CHOICES.into_iter().filter(|h| heads_allowed(self.random.d_model, *h))
    }

    /// A new seed, if it is at most [`MAX_SEED`].
    pub fn set_seed(&mut self, seed: u64) -> bool {
        (seed <= MAX_SEED).then(|| self.random.seed = seed).is_some()
    }

    /// The sinusoidal positional encoding on or off (always accepted).
    pub fn set_positional(&mut self, on: bool) -> bool {
        self.random.positional = on;
        true
    }
}

/// Where the settings find the model a choice names, as it is known now.
pub trait Catalog {
    fn model(&self, choice: &Choice) -> Arc<dyn Model>;
}

/// What became of a model that has to reach the page.
#[derive(Debug, Clone)]
pub enum Arrival {
    Ready(Arc<dyn Model>),
    /// It will not come (this browser keeps none): why.
    Missing(ModelError),
}

/// The models the page has: those that have arrived, and what random weights keep between
/// sentences.
#[derive(Debug, Clone)]
pub struct Models {
    arrived: Vec<(ModelId, Arrival)>,
    random: Arc<RandomCache>,
    /// The most tokens random weights read (the benchmark reads longer sentences).
    max_tokens: usize,
}

impl Default for Models {
    fn default() -> Self {
        Self::with_token_limit(MAX_TOKENS)
    }
}

impl PartialEq for Models {
    /// The same models (by identity) and limits: comparing never walks a model.
    fn eq(&self, other: &Self) -> bool {
        let same = |a: &Arrival, b: &Arrival| match (a, b) {
            (Arrival::Ready(a), Arrival::Ready(b)) => Arc::ptr_eq(a, b),
            (Arrival::Missing(a), Arrival::Missing(b)) => a == b,
            _ => false,
        };
        self.max_tokens == other.max_tokens
            && Arc::ptr_eq(&self.random, &other.random)
            && self.arrived.len() == other.arrived.len()
            && self.arrived.iter().zip(&other.arrived).all(|((i, a), (j, b))| i == j && same(a, b))
    }
}

impl Models {
    /// None arrived yet; random weights read up to `max_tokens` tokens.
    pub fn with_token_limit(max_tokens: usize) -> Self {
        Self { arrived: vec![], random: Arc::default(), max_tokens }
    }

    /// Model `id` has arrived (or will not).
    pub fn arrive(&mut self, id: ModelId, arrival: Arrival) {
        self.arrived.retain(|(i, _)| *i != id);
        self.arrived.push((id, arrival));
    }

    /// Forget that `id` arrived (the benchmark times its arrival again).
    pub fn forget(&mut self, id: ModelId) {
        self.arrived.retain(|(i, _)| *i != id);
    }

    /// What became of `id`, if anything yet.
    pub fn arrival(&self, id: ModelId) -> Option<&Arrival> {
        self.arrived.iter().find(|(i, _)| *i == id).map(|(_, a)| a)
    }

    /// Model `id`, if it has arrived.
    pub fn ready(&self, id: ModelId) -> Option<Arc<dyn Model>> {
        match self.arrival(id)? {
            Arrival::Ready(m) => Some(Arc::clone(m)),
            Arrival::Missing(_) => None,
        }
    }

    fn random(&self, choice: &Choice) -> Arc<dyn Model> {
        Arc::new(Random::new(choice.random, self.max_tokens, Arc::clone(&self.random)))
    }

    /// The model `choice` names as known now: made, arrived, or what stands in for it until it
    /// arrives (the pretrained model's shape, showing random weights meanwhile; the largest
    /// model of yours, or why there is none).
    fn known(&self, choice: &Choice) -> Arc<dyn Model> {
        match choice.id {
            ModelId::Random => self.random(choice),
            id => match (self.ready(id), id) {
                (Some(model), _) => model,
                (None, ModelId::Minilm) => {
                    Arc::new(Standin::new(minilm_shape(), rough_tokens, Meanwhile::Show(self.random(choice))))
                }
                (None, ModelId::E5) => {
                    Arc::new(Standin::new(E5.shape(), rough_pieces, Meanwhile::Show(self.random(choice))))
                }
                (None, _) => {
                    let refusal = match self.arrival(id) {
                        Some(Arrival::Missing(e)) => e.clone(),
                        _ => ModelError::NotKept,
                    };
                    Arc::new(Standin::new(yours_bounds(), tokenize, Meanwhile::Refuse(refusal)))
                }
            },
        }
    }
}

/// The largest model the training view makes: what a link may name before yours is read.
fn yours_bounds() -> Shape {
    YourModel::shape_of(Setup::LAYERS.1, Setup::HEADS.1, Setup::D_MODEL.1, MAX_TOKENS, true)
}

impl Catalog for Models {
    fn model(&self, choice: &Choice) -> Arc<dyn Model> {
        self.known(choice)
    }
}

/// Pretrained model `c` as this build keeps it: whole, or in the page's and the pretrained
/// views' builds (feature `frames`) only what frames a forward worker's answers (its shape,
/// tokenizer and projections, a [`BertFrame`]), since there its forward passes run in a worker
/// (`computed_in_worker`, `pretrained::asking`) and the module need not carry them, nor its
/// memory the embeddings and feed-forward weights.
#[cfg(not(feature = "frames"))]
fn bert(asset: Asset, c: &Config) -> Result<Arc<dyn Model>, String> {
    Bert::from_asset(asset, c).map(|m| Arc::new(m) as Arc<dyn Model>).map_err(|e| e.to_string())
}

#[cfg(not(feature = "frames"))]
fn bert_reads(_: &str) -> bool {
    true
}

#[cfg(feature = "frames")]
fn bert_reads(name: &str) -> bool {
    BertFrame::reads(name)
}

#[cfg(feature = "frames")]
fn bert(asset: Asset, c: &Config) -> Result<Arc<dyn Model>, String> {
    BertFrame::from_asset(asset, c).map(|m| Arc::new(m) as Arc<dyn Model>).map_err(|e| e.to_string())
}

fn minilm(asset: Asset) -> Result<Arc<dyn Model>, String> {
    bert(asset, &MINILM)
}

fn e5(asset: Asset) -> Result<Arc<dyn Model>, String> {
    bert(asset, &E5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pretrained_views_show_the_lesson_s_pretrained_model_else_the_language_s_first() {
        use ModelId::*;
        assert_eq!([Minilm.viewed(Lang::Zh), E5.viewed(Lang::En)], [Minilm, E5]);
        assert_eq!([Random.viewed(Lang::Zh), Yours.viewed(Lang::Zh)], [E5, E5]);
        assert_eq!([Random.viewed(Lang::En), Yours.viewed(Lang::En)], [Minilm, Minilm]);
    }

    #[test]
    fn heads_follow_the_width() {
        let mut c = Choice::default();
        assert!(!c.set_n_heads(3), "3 does not divide 64");
        assert!(c.set_d_model(8) && c.random().n_heads == 4);
        assert!(c.set_n_heads(2) && c.set_d_model(16) && c.random().n_heads == 2, "a wider model keeps the head count");
        assert_eq!(c.heads_offered().collect::<Vec<_>>(), [1, 2, 4, 8, 16]);
        assert!(!c.set_d_model(48));
        assert_eq!((fit_heads(8, 16), fit_heads(16, 3)), (8, 2));
    }

    #[test]
    fn a_model_on_its_way_stands_in_with_its_own_shape() {
        let models = Models::default();
        let mut choice = Choice::default();
        choice.set_id(ModelId::Minilm);
        let m = models.model(&choice);
        assert_eq!((m.shape().n_layers, m.shape().n_heads), (6, 12));
        assert_eq!(m.tokenize("two words").map(|t| t.len()), Ok(4), "the words between [CLS] and [SEP]");
        choice.set_id(ModelId::E5);
        let m = models.model(&choice);
        assert_eq!((m.shape().n_layers, m.shape().n_heads), (12, 12));
        assert_eq!(m.tokenize("two words").map(|t| t.len()), Ok(4), "the words between <s> and </s>");
        assert_eq!(m.tokenize("  "), Err(crate::core::model::SentenceProblem::NoTokens));
        choice.set_id(ModelId::Yours);
        let m = models.model(&choice);
        assert_eq!((m.shape().n_layers, m.shape().n_heads), (Setup::LAYERS.1, Setup::HEADS.1));
    }
}
