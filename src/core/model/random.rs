//! Seeded random weights: the one-layer case of [`Model`]. Its tokens are the site's own (words
//! split on spaces, one per CJK character), its embeddings are drawn from each token's text and
//! the seed, X = E + PE with the sinusoidal encoding (which may be switched off), and it alone
//! takes a second sentence for cross-attention. The arithmetic is real; what attends to what
//! means nothing.

use super::stack::{run_layers, Layer};
use super::{Encoding, Input, InputRule, Model, ModelError, Origin, RunOptions, SentenceProblem, Shape, Token};
use crate::attention::head_width;
use crate::embed::{positional_encoding, EmbeddingTable};
use crate::projections::Projections;
use crate::tokenize::tokenize;
use ndarray::Array2;
use std::sync::{Arc, Mutex};

/// What a learner sets of random weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomSetup {
    pub d_model: usize,
    pub n_heads: usize,
    /// Fixes the embeddings and the projections.
    pub seed: u64,
    /// Add the sinusoidal positional encoding to the embeddings.
    pub positional: bool,
}

impl Default for RandomSetup {
    fn default() -> Self {
        Self { d_model: 64, n_heads: 4, seed: 42, positional: true }
    }
}

/// What random models keep between sentences: the projections of the last (d_model, seed),
/// and the token embeddings already drawn. Shared by every [`Random`] a page makes.
#[derive(Debug, Default)]
pub struct RandomCache {
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    projections: Option<((usize, u64), Arc<Projections>)>,
    table: EmbeddingTable,
}

/// Seeded random weights of one layer.
#[derive(Debug)]
pub struct Random {
    setup: RandomSetup,
    shape: Shape,
    cache: Arc<RandomCache>,
}

impl Random {
    /// Random weights for `setup`, reading sentences of up to `max_tokens` tokens, keeping
    /// what it makes in `cache`.
    pub fn new(setup: RandomSetup, max_tokens: usize, cache: Arc<RandomCache>) -> Self {
        let shape = Shape {
            n_layers: 1,
            n_heads: setup.n_heads,
            kv_heads: setup.n_heads,
            d_model: setup.d_model,
            max_tokens,
            causal: false,
            scaled: true,
            input: InputRule::Sinusoidal { on: setup.positional },
            framed: false,
            unknown: None,
            cross: true,
            biases: false,
            origin: Origin::Seeded { seed: setup.seed },
        };
        Self { setup, shape, cache }
    }

    /// The projections for this d_model and seed (the ones kept, if they are the same).
    pub fn projections(&self) -> Result<Arc<Projections>, ModelError> {
        let key = (self.setup.d_model, self.setup.seed);
        let mut kept = self.cache.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((k, p)) = &kept.projections {
            if *k == key {
                return Ok(Arc::clone(p));
            }
        }
        let made = Arc::new(Projections::seeded(key.0, key.1)?);
        kept.projections = Some((key, Arc::clone(&made)));
        Ok(made)
    }

    /// X of `tokens`: the embeddings, and the positional encoding if it is on, (n, d_model) each.
    fn embed(&self, tokens: &[Token]) -> Result<(Array2<f32>, Option<Array2<f32>>), ModelError> {
        let RandomSetup { d_model, seed, positional, .. } = self.setup;
        let mut kept = self.cache.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let embedding = kept.table.embed(&Token::texts(tokens), d_model, seed)?;
        Ok((embedding, positional.then(|| positional_encoding(tokens.len(), d_model))))
    }

    /// The tokens of `text`, or why there are none or too many, as the forward pass reports
    /// it for the sentence `which`.
    fn sentence(&self, text: &str, which: &'static str) -> Result<Vec<Token>, ModelError> {
        self.tokenize(text).map_err(|p| p.of(which))
    }
}

impl Model for Random {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The site's own tokens (no vocabulary ids: the embeddings are drawn from the text).
    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem> {
        let tokens = tokenize(text);
        SentenceProblem::within(tokens.len(), self.shape.max_tokens)?;
        Ok(tokens.into_iter().map(|text| Token { id: 0, text }).collect())
    }

    fn forward(&self, input: &Input, options: &RunOptions) -> Result<Encoding, ModelError> {
        head_width(self.setup.d_model, self.setup.n_heads)?;
        let tokens = self.sentence(&input.text, "query")?;
        let kv_tokens = input.kv_text.as_deref().map(|t| self.sentence(t, "key/value")).transpose()?;
        let (embedding, position) = self.embed(&tokens)?;
        let x = match &position {
            Some(pe) => &embedding + pe,
            None => embedding.clone(),
        };
        let x_kv = match &kv_tokens {
            Some(t) => {
                let (e, pe) = self.embed(t)?;
                Some(pe.map_or_else(|| e.clone(), |pe| &e + &pe))
            }
            None => None,
        };
        let layer = Layer { projections: self.projections()?, block: None, rotary: false };
        let layers = run_layers(x, x_kv.as_ref(), std::slice::from_ref(&layer), self.setup.n_heads, options)?;
        Ok(Encoding {
            shape: self.shape.clone(),
            options: options.clone(),
            tokens,
            kv_tokens,
            embedding,
            position,
            layers,
        })
    }

    fn layer_projections(&self) -> Vec<Arc<Projections>> {
        self.projections().into_iter().collect()
    }
}

/// The lesson's default sentence through the default random weights under `options` (the
/// core's own tests read real traces from it).
#[cfg(test)]
pub(crate) fn sample_trace(options: &RunOptions) -> crate::trace::Trace {
    let model = Random::new(RandomSetup::default(), 64, Arc::default());
    let input = Input { text: "the animal didn't cross the street because it was too tired".into(), kv_text: None };
    let mut e = model.forward(&input, options).expect("the default sentence computes");
    e.layers.remove(0).trace
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::Mask;

    fn model(setup: RandomSetup) -> Random {
        Random::new(setup, 64, Arc::default())
    }

    fn input(text: &str) -> Input {
        Input { text: text.into(), kv_text: None }
    }

    const SENTENCE: &str = "the animal didn't cross the street because it was too tired";

    #[test]
    fn the_default_sentence_computes_with_its_token_count() {
        let e = model(RandomSetup::default()).forward(&input(SENTENCE), &RunOptions::default()).unwrap();
        let t = &e.layers[0].trace;
        assert_eq!((e.tokens.len(), t.n(), t.n_heads(), t.d_k), (11, (11, 11), 4, 16));
        let pe = e.position.as_ref().unwrap();
        assert_eq!(t.x, &e.embedding + pe);
        assert_eq!((t.mask, t.scaled, t.temperature), (Mask::None, true, 1.0));
        assert!(!t.is_cross() && e.layers.len() == 1 && e.shape.origin == Origin::Seeded { seed: 42 });
    }

    #[test]
    fn cross_attention_uses_the_second_sentence_for_keys() {
        let both = Input { text: SENTENCE.into(), kv_text: Some("猫很累。".into()) };
        let e = model(RandomSetup::default()).forward(&both, &RunOptions::default()).unwrap();
        assert_eq!(Token::texts(e.kv_tokens.as_deref().unwrap()), ["猫", "很", "累", "。"]);
        assert_eq!(e.layers[0].trace.n(), (11, 4));
        assert!(e.layers[0].trace.is_cross());
    }

    #[test]
    fn bad_settings_are_errors_with_messages() {
        let ok = RandomSetup::default();
        let run = |setup: RandomSetup, text: &str| {
            model(setup).forward(&input(text), &RunOptions::default()).unwrap_err().to_string()
        };
        assert_eq!(run(ok, "  "), "the query sentence has no tokens: type at least one word");
        assert_eq!(run(ok, &"a ".repeat(500)), "the query sentence has 500 tokens; at most 64 can be shown");
        assert!(run(RandomSetup { n_heads: 3, ..ok }, SENTENCE).contains("d_model = 64 is not divisible by heads = 3"));
        assert_eq!(run(RandomSetup { d_model: 0, ..ok }, SENTENCE), "d_model must be at least 1, got 0");
    }

    #[test]
    fn a_new_sentence_keeps_the_projections_and_a_new_seed_makes_new_ones() {
        let cache = Arc::new(RandomCache::default());
        let first = Random::new(RandomSetup::default(), 64, Arc::clone(&cache)).projections().unwrap();
        let again = Random::new(RandomSetup { n_heads: 2, ..RandomSetup::default() }, 64, Arc::clone(&cache));
        assert!(Arc::ptr_eq(&first, &again.projections().unwrap()), "the same d_model and seed");
        let other = Random::new(RandomSetup { seed: 7, ..RandomSetup::default() }, 64, cache).projections().unwrap();
        assert!(!Arc::ptr_eq(&first, &other) && *other != *first);
    }
}
