//! From what a learner sets (sentences, sizes, switches) to a [`Trace`]: the one call the UI
//! makes per change.

use super::attention::{head_width, run, AttentionConfig, Mask};
use super::bert::{forward, Encoding, Model, MINILM};
use super::embed::{positional_encoding, EmbeddingTable};
use super::error::AttnError;
use super::tokenize::tokenize;
use super::trace::Trace;
use super::weights::Weights;
use ndarray::Array2;
use std::sync::Arc;

crate::slugged! {
    /// Where the weights come from.
    #[derive(Default)]
    pub enum Source {
        /// Seeded random weights (and embeddings): the maths is real, what attends to what
        /// means nothing.
        #[default]
        Random = "random",
        /// The pretrained all-MiniLM-L6-v2: six layers of twelve heads that learned from text.
        Minilm = "minilm",
        /// The learner's own model, trained in the training view (`train::lesson`).
        Yours = "yours",
    }
}

/// The most tokens the trained model reads here, [CLS] and [SEP] included.
pub const MAX_MODEL_TOKENS: usize = 128;

/// Every setting that determines the picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The query-side sentence.
    pub text: String,
    /// The key/value-side sentence for cross-attention; `None` = self-attention.
    pub kv_text: Option<String>,
    pub d_model: usize,
    pub heads: usize,
    /// Fixes the embeddings and the weights.
    pub seed: u64,
    /// Add the sinusoidal positional encoding to the embeddings.
    pub positional: bool,
    pub mask: Mask,
    pub scaled: bool,
    pub temperature: f32,
    /// Random or trained weights. With trained ones, d_model, heads, the seed and the
    /// positional switch are the model's own and the fields above are not used.
    pub source: Source,
    /// The trained model's layer shown, 0-based.
    pub layer: usize,
}

impl Default for Scenario {
    fn default() -> Self {
        Self {
            text: "the animal didn't cross the street because it was too tired".into(),
            kv_text: None,
            d_model: 64,
            heads: 4,
            seed: 42,
            positional: true,
            mask: Mask::None,
            scaled: true,
            temperature: 1.0,
            source: Source::Random,
            layer: 0,
        }
    }
}

impl Scenario {
    /// The model width of the weights in use (for the learner's own model, the outcome sets
    /// d_model and heads to the model's).
    pub fn width(&self) -> usize {
        match self.source {
            Source::Random | Source::Yours => self.d_model,
            Source::Minilm => MINILM.d_model,
        }
    }

    /// The number of heads of the weights in use.
    pub fn head_count(&self) -> usize {
        match self.source {
            Source::Random | Source::Yours => self.heads,
            Source::Minilm => MINILM.heads,
        }
    }

    /// How attention is run: heads, mask, scaling, temperature.
    pub fn config(&self) -> AttentionConfig {
        AttentionConfig {
            heads: self.heads,
            mask: self.mask,
            key_padding: None,
            scaled: self.scaled,
            temperature: self.temperature,
        }
    }
}

/// A computed scenario: what produced it, the tokens on each axis, the inputs' parts, the
/// weights and the trace. Labels and exports read the settings from here, so a kept outcome
/// can never disagree with what is said about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The settings that produced this outcome.
    pub scenario: Scenario,
    /// Query tokens (rows of every score matrix).
    pub tokens: Vec<String>,
    /// Key/value tokens (columns); the same as `tokens` for self-attention.
    pub kv_tokens: Vec<String>,
    /// Token embeddings of the query side: (n_q, d_model). X = embedding + positional.
    pub embedding: Array2<f32>,
    /// Positional encoding of the query side, if switched on: (n_q, d_model).
    pub positional: Option<Array2<f32>>,
    /// Shared: the page keeps one set per (d_model, seed) across sentences.
    pub weights: Arc<Weights>,
    pub trace: Trace,
    /// With trained weights: the whole forward pass, every layer (`trace` is the layer shown).
    pub encoding: Option<Arc<Encoding>>,
}

/// A scenario's tokens and input matrices: everything before attention except the weights.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    pub tokens: Vec<String>,
    /// The key/value tokens of cross-attention (`None` for self-attention).
    pub kv_tokens: Option<Vec<String>>,
    /// (n_q, d_model).
    pub embedding: Array2<f32>,
    /// (n_q, d_model), if switched on.
    pub positional: Option<Array2<f32>>,
    /// X = embedding + positional: (n_q, d_model).
    pub x: Array2<f32>,
    /// (n_kv, d_model) for cross-attention.
    pub x_kv: Option<Array2<f32>>,
}

/// Tokenise and embed, taking the embeddings already in `table`. `max_tokens` bounds each
/// sentence.
pub fn prepare(s: &Scenario, max_tokens: usize, table: &mut EmbeddingTable) -> Result<Inputs, ScenarioError> {
    head_width(s.d_model, s.heads).map_err(ScenarioError::Attention)?;
    let tokens = checked_tokens(&s.text, "query", max_tokens)?;
    let kv_tokens = match &s.kv_text {
        Some(t) => Some(checked_tokens(t, "key/value", max_tokens)?),
        None => None,
    };
    let attn = ScenarioError::Attention;
    let embedding = table.embed(&tokens, s.d_model, s.seed).map_err(attn)?;
    let positional = s.positional.then(|| positional_encoding(tokens.len(), s.d_model));
    let x = match &positional {
        Some(pe) => &embedding + pe,
        None => embedding.clone(),
    };
    let x_kv = match &kv_tokens {
        Some(t) => {
            let mut x_kv = table.embed(t, s.d_model, s.seed).map_err(attn)?;
            if s.positional {
                x_kv += &positional_encoding(t.len(), s.d_model);
            }
            Some(x_kv)
        }
        None => None,
    };
    Ok(Inputs { tokens, kv_tokens, embedding, positional, x, x_kv })
}

/// Run attention on prepared `inputs` with `weights`: `Weights::seeded(s.d_model, s.seed)`,
/// which depend on d_model and the seed only, so a page can keep them across sentences.
pub fn attend(s: &Scenario, inputs: Inputs, weights: Arc<Weights>) -> Result<Outcome, ScenarioError> {
    let Inputs { tokens, kv_tokens, embedding, positional, x, x_kv } = inputs;
    let trace = run(&x, x_kv.as_ref(), &weights, &s.config()).map_err(ScenarioError::Attention)?;
    let kv_tokens = kv_tokens.unwrap_or_else(|| tokens.clone());
    Ok(Outcome { scenario: s.clone(), tokens, kv_tokens, embedding, positional, weights, trace, encoding: None })
}

/// The trained model on the query sentence, every layer kept; the scenario's mask, scaling and
/// temperature apply to every layer. At most [`MAX_MODEL_TOKENS`] tokens.
pub fn encode(s: &Scenario, model: &Model) -> Result<Encoding, ScenarioError> {
    let pieces = model.vocab.encode(&s.text);
    if pieces.len() <= 2 {
        return Err(ScenarioError::NoTokens { which: "query" });
    }
    if pieces.len() > MAX_MODEL_TOKENS {
        return Err(ScenarioError::TooManyTokens { which: "query", max: MAX_MODEL_TOKENS, given: pieces.len() });
    }
    forward(model, pieces, &s.config()).map_err(ScenarioError::Attention)
}

/// The outcome of layer `s.layer` (the last layer if past the end) of an encoding made by
/// [`encode`] with `model`.
pub fn layer_outcome(s: &Scenario, model: &Model, encoding: Arc<Encoding>) -> Result<Outcome, ScenarioError> {
    let layer = s.layer.min(model.layers.len().saturating_sub(1));
    let (Some(trace), Some(weights)) = (encoding.layers.get(layer), model.layers.get(layer)) else {
        return Err(ScenarioError::Attention(AttnError::EmptySequence { which: "layer" }));
    };
    let tokens: Vec<String> = encoding.pieces.iter().map(|p| p.text.clone()).collect();
    Ok(Outcome {
        scenario: s.clone(),
        kv_tokens: tokens.clone(),
        tokens,
        embedding: encoding.word.clone(),
        positional: Some(encoding.position.clone()),
        weights: Arc::clone(&weights.attention),
        trace: trace.trace.clone(),
        encoding: Some(encoding),
    })
}

/// Tokenise, embed, make the weights and run attention. `max_tokens` bounds each sentence.
pub fn compute(s: &Scenario, max_tokens: usize) -> Result<Outcome, ScenarioError> {
    let inputs = prepare(s, max_tokens, &mut EmbeddingTable::default())?;
    let weights = Weights::seeded(s.d_model, s.seed).map_err(ScenarioError::Attention)?;
    attend(s, inputs, Arc::new(weights))
}

/// The tokens of `text`, or why there are none or too many; `which` names the sentence.
pub fn checked_tokens(text: &str, which: &'static str, max: usize) -> Result<Vec<String>, ScenarioError> {
    let tokens = tokenize(text);
    if tokens.is_empty() {
        return Err(ScenarioError::NoTokens { which });
    }
    if tokens.len() > max {
        return Err(ScenarioError::TooManyTokens { which, max, given: tokens.len() });
    }
    Ok(tokens)
}

/// Why a scenario could not be computed.
#[derive(Debug, Clone, PartialEq)]
pub enum ScenarioError {
    /// The sentence has no tokens (empty or only spaces).
    NoTokens { which: &'static str },
    /// The sentence has more tokens than the site draws.
    TooManyTokens { which: &'static str, max: usize, given: usize },
    /// The attention core refused the sizes or values.
    Attention(AttnError),
    /// A token the learner's trained model has no embedding for.
    UnknownToken(String),
    /// The learner's trained model was asked for, and this browser keeps none.
    NoTrainedModel,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoTokens { which } => write!(f, "the {which} sentence has no tokens: type at least one word"),
            Self::TooManyTokens { which, max, given } => {
                write!(f, "the {which} sentence has {given} tokens; at most {max} can be shown")
            }
            Self::Attention(e) => e.fmt(f),
            Self::UnknownToken(t) => write!(f, "your trained model has no token \"{t}\""),
            Self::NoTrainedModel => write!(f, "no trained model is kept in this browser"),
        }
    }
}

impl std::error::Error for ScenarioError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_scenario_computes_with_its_token_count() {
        let out = compute(&Scenario::default(), 64).unwrap();
        assert_eq!(out.tokens.len(), 11);
        assert_eq!(out.trace.n(), (11, 11));
        assert_eq!(out.trace.heads.len(), 4);
        assert_eq!(out.trace.d_k, 16);
        let pe = out.positional.as_ref().unwrap();
        assert_eq!(out.trace.x, &out.embedding + pe);
        assert_eq!(out.scenario, Scenario::default(), "the outcome records what produced it");
        assert_eq!((out.trace.mask, out.trace.scaled, out.trace.temperature), (Mask::None, true, 1.0));
        assert!(!out.trace.is_cross());
    }

    #[test]
    fn cross_attention_uses_the_second_sentence_for_keys() {
        let s = Scenario { kv_text: Some("猫很累。".into()), ..Scenario::default() };
        let out = compute(&s, 64).unwrap();
        assert_eq!(out.kv_tokens, ["猫", "很", "累", "。"]);
        assert_eq!(out.trace.n(), (11, 4));
        assert!(out.trace.is_cross());
    }

    #[test]
    fn bad_settings_are_errors_with_messages() {
        let empty = Scenario { text: "  ".into(), ..Scenario::default() };
        assert_eq!(
            compute(&empty, 64).unwrap_err().to_string(),
            "the query sentence has no tokens: type at least one word"
        );
        let long = Scenario { text: "a ".repeat(500), ..Scenario::default() };
        assert_eq!(
            compute(&long, 64).unwrap_err().to_string(),
            "the query sentence has 500 tokens; at most 64 can be shown"
        );
        let heads = Scenario { heads: 3, ..Scenario::default() };
        assert!(compute(&heads, 64).unwrap_err().to_string().contains("d_model = 64 is not divisible by heads = 3"));
        let zero = Scenario { d_model: 0, ..Scenario::default() };
        assert_eq!(compute(&zero, 64).unwrap_err().to_string(), "d_model must be at least 1, got 0");
    }
}
