//! A toy model, for tests only: two layers of two heads over a fixed vocabulary of nine words,
//! d_model 8, seeded projections, learned-looking positions, a post-LayerNorm block without an
//! MLP, sentences framed by [CLS] and [SEP]. It is one implementation of `Model` and nothing
//! else: the lesson, the model view and the export handle it without a line of their own.
#![allow(dead_code)]

use attention_lab::core::block::{Block, LayerNorm};
use attention_lab::core::model::stack::{Embedded, Layer};
use attention_lab::core::model::{
    Cutting, Encoding, Input, InputRule, Model, ModelError, Origin, Quantised, RunOptions, SentenceProblem, Shape,
    Token,
};
use attention_lab::core::projections::Projections;
use attention_lab::core::rng::normal_matrix;
use attention_lab::core::tokenize::tokenize;
use ndarray::{s, Array1, Array2};
use std::sync::Arc;

/// Its words; a sentence of others is refused, naming the first.
pub const WORDS: [&str; 9] = ["[CLS]", "[SEP]", "the", "cat", "sat", "on", "a", "mat", "."];
/// The sentence it reads well.
pub const SENTENCE: &str = "the cat sat on a mat .";
const D_MODEL: usize = 8;
const MAX_TOKENS: usize = 12;

/// The toy model.
#[derive(Debug)]
pub struct Toy {
    shape: Shape,
    /// (vocabulary, d_model).
    embed: Array2<f32>,
    /// (MAX_TOKENS, d_model).
    pos: Array2<f32>,
    layers: Vec<Layer>,
}

impl Toy {
    pub fn new() -> Self {
        let norm = || LayerNorm { gamma: Array1::ones(D_MODEL), beta: Array1::zeros(D_MODEL), eps: 1e-6 };
        let layers = (0..2)
            .map(|l| Layer {
                projections: Arc::new(Projections::seeded(D_MODEL, 100 + l).expect("d_model 8")),
                block: Some(Block { attention_norm: Some(norm()), ..Block::residual_only() }),
                rotary: false,
            })
            .collect();
        let shape = Shape {
            n_layers: 2,
            n_heads: 2,
            kv_heads: 2,
            d_model: D_MODEL,
            max_tokens: MAX_TOKENS,
            causal: false,
            scaled: true,
            input: InputRule::Learned,
            framed: true,
            unknown: None,
            cross: false,
            biases: false,
            origin: Origin::Pretrained {
                name: "toy",
                tag: "toy",
                hub: "attention-lab/toy",
                cutting: Cutting::WordPiece,
                prefix: "",
                quantised: Quantised::Exact,
                talking_head: (0, 0),
            },
        };
        let embed = normal_matrix(WORDS.len(), D_MODEL, 1, 1);
        let pos = normal_matrix(MAX_TOKENS, D_MODEL, 1, 2) * 0.1;
        Self { shape, embed, pos, layers }
    }
}

impl Model for Toy {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem> {
        let inner = tokenize(text);
        if inner.is_empty() {
            return Err(SentenceProblem::NoTokens);
        }
        let words = std::iter::once("[CLS]".to_string()).chain(inner).chain(std::iter::once("[SEP]".to_string()));
        let tokens = words
            .map(|w| match WORDS.iter().position(|v| *v == w) {
                Some(id) => Ok(Token { id: id as u32, text: w }),
                None => Err(SentenceProblem::Unknown(w)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        SentenceProblem::within(tokens.len(), MAX_TOKENS)?;
        Ok(tokens)
    }

    fn forward(&self, input: &Input, options: &RunOptions) -> Result<Encoding, ModelError> {
        let tokens = self.tokenize(&input.text).map_err(|p| p.of("query"))?;
        let n = tokens.len();
        let embedding = Array2::from_shape_fn((n, D_MODEL), |(i, j)| self.embed[[tokens[i].id as usize, j]]);
        let position = self.pos.slice(s![..n, ..]).to_owned();
        Embedded { tokens, embedding, position: Some(position) }.encode(&self.shape, &self.layers, options, |x| x)
    }

    fn layer_projections(&self) -> Vec<Arc<Projections>> {
        self.layers.iter().map(|l| Arc::clone(&l.projections)).collect()
    }
}
