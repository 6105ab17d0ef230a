//! all-MiniLM-L6-v2 in memory: its shape, vocabulary, embeddings and six layers, built from
//! a model file ([`Asset`]), and its forward pass as a [`Model`]: word + position + segment
//! embeddings through LayerNorm, then per layer attention, residual + LayerNorm, GELU
//! feed-forward, residual + LayerNorm (the core's one `block`). Matrices are stored in the file
//! as PyTorch has them, (out, in), int8 per output row; here they stay int8, packed as (in, out)
//! for X · W (see [`PackedB::from_int8_rows`]).

use super::asset::{Asset, AssetError, Tensor};
use super::chars::CharTable;
use super::wordpiece::Vocab;
use crate::block::{Activation, Block, Dense, LayerNorm, Mlp};
use crate::kernels::PackedB;
use crate::model::stack::{Embedded, Layer};
use crate::model::{Encoding, Input, InputRule, Model, ModelError, Origin, RunOptions, SentenceProblem, Shape, Token};
use crate::projections::Projections;
use ndarray::{s, Array1, Array2};
use std::sync::Arc;

/// The shape of a BERT encoder.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    pub n_layers: usize,
    pub n_heads: usize,
    pub d_model: usize,
    /// Width of the feed-forward layer's hidden part.
    pub d_ff: usize,
    /// Learned positions: the longest input, [CLS] and [SEP] included.
    pub max_positions: usize,
    pub vocab: usize,
    /// LayerNorm's epsilon.
    pub eps: f32,
}

/// all-MiniLM-L6-v2: 6 layers × 12 heads, d_model 384 (d_k 32), FFN 1536.
pub const MINILM: Config =
    Config { n_layers: 6, n_heads: 12, d_model: 384, d_ff: 1536, max_positions: 512, vocab: 30522, eps: 1e-12 };

/// The model file's entries holding the tokenizer's character rules: dropped characters,
/// punctuation, normal forms (see [`CharTable`]).
pub const CHARS: [&str; 3] = ["tokenizer.dropped", "tokenizer.punctuation", "tokenizer.normal"];

/// The model's display name, as exports and labels write it.
pub const MINILM_NAME: &str = "all-MiniLM-L6-v2";

/// The most tokens the lesson reads with it, [CLS] and [SEP] included.
pub const MINILM_TOKENS: usize = 128;

/// What all-MiniLM-L6-v2 is, before and after it has loaded.
pub fn minilm_shape() -> Shape {
    Shape {
        n_layers: MINILM.n_layers,
        n_heads: MINILM.n_heads,
        d_model: MINILM.d_model,
        max_tokens: MINILM_TOKENS,
        causal: false,
        scaled: true,
        input: InputRule::LearnedNormed,
        framed: true,
        unknown: Some("[UNK]"),
        cross: false,
        biases: true,
        origin: Origin::Pretrained { name: MINILM_NAME, tag: "minilm", hub: "sentence-transformers/all-MiniLM-L6-v2" },
    }
}

/// A BERT encoder.
#[derive(Debug, Clone, PartialEq)]
pub struct Bert {
    pub config: Config,
    shape: Shape,
    pub vocab: Vocab,
    /// (vocab, d_model) int8 rows, dequantised one token at a time.
    word: Tensor,
    /// (max_positions, d_model).
    pub position: Array2<f32>,
    /// The embedding of segment 0 (every token of a single sentence): (d_model).
    pub segment: Array1<f32>,
    pub embedding_norm: LayerNorm<f32>,
    pub layers: Vec<Layer>,
}

impl Bert {
    /// Build all-MiniLM-L6-v2 from its file; any missing or misshapen tensor is an error.
    pub fn from_asset(mut asset: Asset) -> Result<Bert, AssetError> {
        let c = MINILM;
        let d = c.d_model;
        let vocab = vocab(&asset)?;
        let word = asset.take("embeddings.word_embeddings.weight")?;
        if !matches!(word, Tensor::Int8 { .. }) || word.dim() != (c.vocab, d) {
            return Err(shape_error("embeddings.word_embeddings.weight", &format!("int8 {} × {d}", c.vocab), &word));
        }
        let asset = &asset;
        let position = matrix(asset, "embeddings.position_embeddings.weight", c.max_positions, d)?;
        let segment = matrix(asset, "embeddings.token_type_embeddings.weight", 2, d)?.row(0).to_owned();
        let norm = |prefix: &str| -> Result<LayerNorm<f32>, AssetError> {
            Ok(LayerNorm {
                gamma: vector(asset, &format!("{prefix}.weight"), d)?,
                beta: vector(asset, &format!("{prefix}.bias"), d)?,
                eps: c.eps,
            })
        };
        let embedding_norm = norm("embeddings.LayerNorm")?;
        let layers = (0..c.n_layers)
            .map(|l| {
                let p = format!("encoder.layer.{l}");
                let dense = |name: &str, d_out: usize, d_in: usize| -> Result<Dense<f32>, AssetError> {
                    let weight = kept(asset, &format!("{p}.{name}.weight"), d_out, d_in)?;
                    Ok(Dense::kept(weight, vector(asset, &format!("{p}.{name}.bias"), d_out)?))
                };
                let mlp = Mlp {
                    up: dense("intermediate.dense", c.d_ff, d)?,
                    down: dense("output.dense", d, c.d_ff)?,
                    activation: Activation::Gelu,
                };
                let block = Block {
                    attention_norm: Some(norm(&format!("{p}.attention.output.LayerNorm"))?),
                    mlp: Some(mlp),
                    mlp_norm: Some(norm(&format!("{p}.output.LayerNorm"))?),
                };
                let Read { weights, biases, name } = attention(asset, l, kept)?;
                let projections = Projections::from_packed(weights).and_then(|w| w.with_biases(biases));
                Ok(Layer { projections: Arc::new(projections.map_err(invalid(name))?), block: Some(block) })
            })
            .collect::<Result<_, AssetError>>()?;
        Ok(Bert { config: c, shape: minilm_shape(), vocab, word, position, segment, embedding_norm, layers })
    }

    /// The word embedding of token `id` (a zero row past the vocabulary): (d_model).
    pub fn word_embedding(&self, id: u32) -> Array1<f32> {
        let d = self.config.d_model;
        match &self.word {
            Tensor::Int8 { scales, data, .. } => {
                let (row, scale) = (id as usize, scales.get(id as usize).copied().unwrap_or(0.0));
                match data.get(row * d..(row + 1) * d) {
                    Some(q) => q.iter().map(|&v| f32::from(v) * scale).collect(),
                    None => Array1::zeros(d),
                }
            }
            _ => Array1::zeros(d),
        }
    }
}

impl Model for Bert {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    /// WordPiece tokens with [CLS] and [SEP]; those two alone are not a sentence.
    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem> {
        self.vocab.sentence(text, self.shape.max_tokens)
    }

    /// The run options apply to every layer (the model was trained with no mask, ÷√d_k and
    /// T = 1); a second sentence is not read.
    fn forward(&self, input: &Input, options: &RunOptions) -> Result<Encoding, ModelError> {
        let tokens = self.tokenize(&input.text).map_err(|p| p.of("query"))?;
        let (n, d) = (tokens.len(), self.config.d_model);
        if n > self.config.max_positions {
            // In symbols only (the page shows it in either language): X has at most that many rows.
            let expected = format!("≤ {} × {d}", self.config.max_positions);
            return Err(crate::AttnError::Shape { what: "X", expected, given: (n, d) }.into());
        }
        let mut embedding = Array2::zeros((n, d));
        for (mut row, token) in embedding.rows_mut().into_iter().zip(&tokens) {
            row.assign(&self.word_embedding(token.id));
        }
        let position = &self.position.slice(s![..n, ..]) + &self.segment;
        let first = |mut x: Array2<f32>| {
            self.embedding_norm.apply(&mut x);
            x
        };
        Embedded { tokens, embedding, position }.encode(&self.shape, &self.layers, options, first)
    }

    fn layer_projections(&self) -> Vec<Arc<Projections>> {
        self.layers.iter().map(|l| Arc::clone(&l.projections)).collect()
    }
}

fn shape_error(name: &str, expected: &str, t: &Tensor) -> AssetError {
    AssetError::Shape { name: name.into(), expected: expected.into(), given: t.dim() }
}

/// The (rows, cols) matrix `name`, dequantised if stored as int8.
fn matrix(asset: &Asset, name: &str, rows: usize, cols: usize) -> Result<Array2<f32>, AssetError> {
    let t = asset.get(name)?;
    let data = t.to_f32().filter(|_| t.dim() == (rows, cols));
    let data = data.ok_or_else(|| shape_error(name, &format!("{rows} × {cols}"), t))?;
    Array2::from_shape_vec((rows, cols), data).map_err(|_| shape_error(name, &format!("{rows} × {cols}"), t))
}

/// What frames all-MiniLM-L6-v2's answers on a page whose forward passes run in a worker: its
/// shape, tokenizer and attention projections (from the same file, the same numbers), and no
/// embeddings or feed-forward weights, which only the forward pass reads.
#[derive(Debug, Clone, PartialEq)]
pub struct BertFrame {
    shape: Shape,
    vocab: Vocab,
    projections: Vec<Arc<Projections>>,
}

impl BertFrame {
    /// Read the frame from the model file; any missing or misshapen tensor it needs is an error.
    pub fn from_asset(asset: &Asset) -> Result<BertFrame, AssetError> {
        // (d_out, d_in) as stored, dequantised, turned to (d_in, d_out) for X · W.
        let transposed = |asset: &Asset, name: &str, d_out: usize, d_in: usize| {
            Ok(matrix(asset, name, d_out, d_in)?.reversed_axes().as_standard_layout().to_owned())
        };
        let layer = |l: usize| -> Result<Arc<Projections>, AssetError> {
            let Read { weights: [w_q, w_k, w_v, w_o], biases, name } = attention(asset, l, transposed)?;
            let projections = Projections::from_matrices(w_q, w_k, w_v, w_o).and_then(|w| w.with_biases(biases));
            Ok(Arc::new(projections.map_err(invalid(name))?))
        };
        let projections = (0..MINILM.n_layers).map(layer).collect::<Result<_, _>>()?;
        Ok(BertFrame { shape: minilm_shape(), vocab: vocab(asset)?, projections })
    }
}

impl Model for BertFrame {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem> {
        self.vocab.sentence(text, self.shape.max_tokens)
    }

    /// The frame has no weights to compute with: its forward passes run in the worker.
    fn forward(&self, _: &Input, _: &RunOptions) -> Result<Encoding, ModelError> {
        Err(ModelError::Worker(format!("{MINILM_NAME} computes in the forward worker")))
    }

    fn layer_projections(&self) -> Vec<Arc<Projections>> {
        self.projections.clone()
    }
}

/// The tokenizer from the model file: its vocabulary and character rules.
fn vocab(asset: &Asset) -> Result<Vocab, AssetError> {
    let text = |name: &str| match asset.get(name)? {
        Tensor::Text(text) => Ok(text.as_str()),
        other => Err(shape_error(name, "text", other)),
    };
    let chars = CharTable::from_texts(text(CHARS[0])?, text(CHARS[1])?, text(CHARS[2])?);
    let chars = chars
        .ok_or_else(|| AssetError::Invalid { name: "tokenizer".into(), reason: "malformed character table".into() })?;
    let vocab = Vocab::new(text("vocab")?, chars);
    if vocab.len() != MINILM.vocab {
        return Err(AssetError::Shape {
            name: "vocab".into(),
            expected: format!("{} lines", MINILM.vocab),
            given: (vocab.len(), 1),
        });
    }
    Ok(vocab)
}

/// One layer's attention weights as read from the file.
struct Read<W> {
    /// W_Q, W_K, W_V, W_O.
    weights: [W; 4],
    /// b_Q, b_K, b_V, b_O.
    biases: [Array1<f32>; 4],
    /// The layer's attention, as errors name it.
    name: String,
}

/// Layer `l`'s W_Q, W_K, W_V, W_O, each read by `read` (asset, name, d_out, d_in), and their
/// biases.
fn attention<W>(
    asset: &Asset,
    l: usize,
    read: impl Fn(&Asset, &str, usize, usize) -> Result<W, AssetError>,
) -> Result<Read<W>, AssetError> {
    let (p, d) = (format!("encoder.layer.{l}"), MINILM.d_model);
    let names = ["attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"];
    let [q, k, v, o] = names.map(|name| format!("{p}.{name}"));
    let weight = |prefix: &str| read(asset, &format!("{prefix}.weight"), d, d);
    let bias = |prefix: &str| vector(asset, &format!("{prefix}.bias"), d);
    let weights = [weight(&q)?, weight(&k)?, weight(&v)?, weight(&o)?];
    let biases = [bias(&q)?, bias(&k)?, bias(&v)?, bias(&o)?];
    Ok(Read { weights, biases, name: format!("{p}.attention") })
}

/// An error of the attention core about the projections `name`, as the file's error.
fn invalid(name: String) -> impl FnOnce(crate::AttnError) -> AssetError {
    move |e| AssetError::Invalid { name, reason: e.to_string() }
}

/// The weight `name`, stored (d_out, d_in) as PyTorch has it, kept as X · W needs it, (d_in,
/// d_out): int8 stays int8 in the strips.
fn kept(asset: &Asset, name: &str, d_out: usize, d_in: usize) -> Result<PackedB, AssetError> {
    match asset.get(name)? {
        Tensor::Int8 { rows, cols, scales, data } if (*rows, *cols) == (d_out, d_in) => {
            let reason = "its int8 values or scales do not fill its shape".to_string();
            PackedB::from_int8_rows(d_out, d_in, scales, data).ok_or(AssetError::Invalid { name: name.into(), reason })
        }
        _ => Ok(PackedB::new(matrix(asset, name, d_out, d_in)?.t())),
    }
}

/// The vector `name` of length `len`, stored as a 1 × len tensor.
fn vector(asset: &Asset, name: &str, len: usize) -> Result<Array1<f32>, AssetError> {
    Ok(matrix(asset, name, 1, len)?.row(0).to_owned())
}
