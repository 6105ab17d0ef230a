//! A pretrained BERT encoder in memory (all-MiniLM-L6-v2, [`MINILM`]; multilingual-e5-small,
//! [`E5`]): its shape, tokenizer, embeddings and layers, built from a model file ([`Asset`]),
//! and its forward pass as a [`Model`]: word + position + segment embeddings through
//! LayerNorm, then per layer attention, residual + LayerNorm, GELU feed-forward, residual +
//! LayerNorm (the core's one `block`). Matrices are stored in the file as PyTorch has them,
//! (out, in): int8 per output row (MiniLM), kept int8, packed as (in, out) for X · W (see
//! [`PackedB::from_int8_rows`]); or 4-bit blocks (e5), their values kept as int8 with a
//! scale per block of 32 ([`PackedB::from_block_rows`]). The word embeddings stay as stored, one row read per
//! token.

use super::asset::{
    q4_parts, q4_values, Asset, AssetError, ModelFile, Tensor, E5_FILE, MINILM_FILE, Q4_BLOCK, Q4_BYTES,
};
use super::chars::CharTable;
use super::unigram::Unigram;
use super::wordpiece::Vocab;
use crate::block::{Activation, Block, Dense, LayerNorm, Mlp};
use crate::kernels::PackedB;
use crate::model::stack::{Embedded, Layer};
use crate::model::{
    Cutting, Encoding, Input, InputRule, Model, ModelError, Origin, Quantised, RunOptions, SentenceProblem, Shape,
    Token,
};
use crate::projections::Projections;
use ndarray::{s, Array1, Array2};
use std::sync::Arc;

/// A pretrained BERT encoder: its shape, name, tokenizer and file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    pub n_layers: usize,
    pub n_heads: usize,
    pub d_model: usize,
    /// Width of the feed-forward layer's hidden part.
    pub d_ff: usize,
    /// Learned positions: the longest input, the frame's tokens included.
    pub max_positions: usize,
    /// Tokens in the vocabulary (as the site's file keeps it).
    pub vocab: usize,
    /// LayerNorm's epsilon.
    pub eps: f32,
    pub cutting: Cutting,
    /// The token a text the vocabulary cannot spell becomes.
    pub unknown: &'static str,
    /// Its published name, a short tag for links and file names, its Hugging Face id.
    pub name: &'static str,
    pub tag: &'static str,
    pub hub: &'static str,
    /// What its model card asks a text to start with when it is embedded (e5: "query: ").
    pub prefix: &'static str,
    /// The most tokens the lesson reads with it, the frame's included.
    pub max_tokens: usize,
    /// The site's file of it.
    pub file: ModelFile,
    /// How that file's weights differ from the published ones.
    pub quantised: Quantised,
    /// The layer and head (0-based) a lesson opens on: the head that sends the most of the
    /// pronoun's weight to its subject in the default sentences, measured in `tests/model.rs`
    /// and `tests/e5.rs` (`…talking_head…`).
    pub talking_head: (usize, usize),
}

/// all-MiniLM-L6-v2: 6 layers × 12 heads, d_model 384 (d_k 32), FFN 1536.
pub const MINILM: Config = Config {
    n_layers: 6,
    n_heads: 12,
    d_model: 384,
    d_ff: 1536,
    max_positions: 512,
    vocab: 30522,
    eps: 1e-12,
    cutting: Cutting::WordPiece,
    unknown: "[UNK]",
    name: "all-MiniLM-L6-v2",
    tag: "minilm",
    hub: "sentence-transformers/all-MiniLM-L6-v2",
    prefix: "",
    max_tokens: 128,
    file: MINILM_FILE,
    quantised: Quantised::Int8,
    // Layer 6, head 12: "it" → "animal" 0.65.
    talking_head: (5, 11),
};

/// multilingual-e5-small: 12 layers × 12 heads, d_model 384 (d_k 32), FFN 1536, positions
/// from 0; its vocabulary pruned to the pieces Chinese and English need (`attention-convert`).
pub const E5: Config = Config {
    n_layers: 12,
    n_heads: 12,
    d_model: 384,
    d_ff: 1536,
    max_positions: 512,
    vocab: 61_488,
    eps: 1e-12,
    cutting: Cutting::Unigram,
    unknown: "<unk>",
    name: "multilingual-e5-small",
    tag: "e5",
    hub: "intfloat/multilingual-e5-small",
    prefix: "query: ",
    max_tokens: 128,
    file: E5_FILE,
    quantised: Quantised::Q4Pruned { kept: 61_488, of: 250_002 },
    // Layer 9, head 9: 它 → 猫 0.66, "it" → "animal" 0.53.
    talking_head: (8, 8),
};

/// Every pretrained model the site has, by the name exports and labels write.
pub const PRETRAINED: [Config; 2] = [MINILM, E5];

/// The model file's entries holding the tokenizer's character rules: dropped characters,
/// punctuation, normal forms (see [`CharTable`]).
pub const CHARS: [&str; 3] = ["tokenizer.dropped", "tokenizer.punctuation", "tokenizer.normal"];

/// The model file's entries holding the unigram tokenizer: pieces, scores, normalisation map,
/// and each piece's id in the published vocabulary (as f32: exact, every id is below 2^24).
pub const UNIGRAM: [&str; 4] = ["unigram.pieces", "unigram.scores", "unigram.normal", "unigram.ids"];

/// all-MiniLM-L6-v2's display name, as exports and labels write it.
pub const MINILM_NAME: &str = MINILM.name;

/// The most tokens the lesson reads with all-MiniLM-L6-v2, [CLS] and [SEP] included.
pub const MINILM_TOKENS: usize = MINILM.max_tokens;

impl Config {
    /// What the model is, before and after it has loaded.
    pub fn shape(&self) -> Shape {
        Shape {
            n_layers: self.n_layers,
            n_heads: self.n_heads,
            kv_heads: self.n_heads,
            d_model: self.d_model,
            max_tokens: self.max_tokens,
            causal: false,
            scaled: true,
            input: InputRule::LearnedNormed,
            framed: true,
            unknown: Some(self.unknown),
            cross: false,
            biases: true,
            origin: Origin::Pretrained {
                name: self.name,
                tag: self.tag,
                hub: self.hub,
                cutting: self.cutting,
                prefix: self.prefix,
                quantised: self.quantised,
                talking_head: self.talking_head,
            },
        }
    }
}

/// What all-MiniLM-L6-v2 is, before and after it has loaded.
pub fn minilm_shape() -> Shape {
    MINILM.shape()
}

/// A model's tokenizer, of either kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Tokenizer {
    WordPiece(Vocab),
    Unigram(Unigram),
}

impl Tokenizer {
    /// `text` framed, for a model of at most `max_tokens`.
    pub fn sentence(&self, text: &str, max_tokens: usize) -> Result<Vec<Token>, SentenceProblem> {
        match self {
            Tokenizer::WordPiece(v) => v.sentence(text, max_tokens),
            Tokenizer::Unigram(u) => u.sentence(text, max_tokens),
        }
    }

    fn len(&self) -> usize {
        match self {
            Tokenizer::WordPiece(v) => v.len(),
            Tokenizer::Unigram(u) => u.len(),
        }
    }

    /// The embedding row of the token with id `id` (a pruned vocabulary keeps fewer rows).
    fn row(&self, id: u32) -> Option<u32> {
        match self {
            Tokenizer::WordPiece(_) => Some(id),
            Tokenizer::Unigram(u) => u.row(id),
        }
    }
}

/// A BERT encoder.
#[derive(Debug, Clone, PartialEq)]
pub struct Bert {
    pub config: Config,
    shape: Shape,
    pub tokenizer: Tokenizer,
    /// (vocab, d_model) int8 rows or 4-bit blocks, dequantised one token at a time.
    word: Tensor,
    /// (max_positions, d_model).
    pub position: Array2<f32>,
    /// The embedding of segment 0 (every token of a single sentence): (d_model).
    pub segment: Array1<f32>,
    pub embedding_norm: LayerNorm<f32>,
    pub layers: Vec<Layer>,
}

impl Bert {
    /// Build model `c` from its file; any missing or misshapen tensor is an error.
    pub fn from_asset(mut asset: Asset, c: &Config) -> Result<Bert, AssetError> {
        let c = *c;
        let d = c.d_model;
        let tokenizer = tokenizer(&asset, &c)?;
        let word = asset.take("embeddings.word_embeddings.weight")?;
        if !matches!(word, Tensor::Int8 { .. } | Tensor::Q4 { .. }) || word.dim() != (c.vocab, d) {
            let expected = format!("int8 or 4-bit {} × {d}", c.vocab);
            return Err(shape_error("embeddings.word_embeddings.weight", &expected, &word));
        }
        let position = matrix(&asset, "embeddings.position_embeddings.weight", c.max_positions, d)?;
        let segment = matrix(&asset, "embeddings.token_type_embeddings.weight", 2, d)?.row(0).to_owned();
        let norm = |asset: &Asset, prefix: &str| -> Result<LayerNorm<f32>, AssetError> {
            Ok(LayerNorm {
                gamma: vector(asset, &format!("{prefix}.weight"), d)?,
                beta: vector(asset, &format!("{prefix}.bias"), d)?,
                eps: c.eps,
            })
        };
        let embedding_norm = norm(&asset, "embeddings.LayerNorm")?;
        // Each weight leaves the file's entries as the layer takes it in.
        let mut layer = |l: usize| -> Result<Layer, AssetError> {
            let p = format!("encoder.layer.{l}");
            let mut dense = |name: &str, d_out: usize, d_in: usize| -> Result<Dense<f32>, AssetError> {
                let weight = kept(&mut asset, &format!("{p}.{name}.weight"), d_out, d_in)?;
                Ok(Dense::kept(weight, vector(&asset, &format!("{p}.{name}.bias"), d_out)?))
            };
            let mlp = Mlp {
                up: dense("intermediate.dense", c.d_ff, d)?,
                down: dense("output.dense", d, c.d_ff)?,
                activation: Activation::Gelu,
            };
            let block = Block {
                attention_norm: Some(norm(&asset, &format!("{p}.attention.output.LayerNorm"))?),
                mlp: Some(mlp),
                mlp_norm: Some(norm(&asset, &format!("{p}.output.LayerNorm"))?),
            };
            Ok(Layer { projections: projections(&mut asset, &c, l)?, block: Some(block), rotary: false })
        };
        let layers = (0..c.n_layers).map(&mut layer).collect::<Result<_, AssetError>>()?;
        Ok(Bert { config: c, shape: c.shape(), tokenizer, word, position, segment, embedding_norm, layers })
    }

    /// The word embedding in row `id` of the file (a zero row past the vocabulary): (d_model).
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
            Tensor::Q4 { blocks, .. } => {
                let row = d / Q4_BLOCK * Q4_BYTES;
                let at = id as usize * row;
                let mut out = Vec::with_capacity(d);
                match blocks.get(at..at + row) {
                    Some(b) => q4_values(b, &mut out),
                    None => return Array1::zeros(d),
                }
                Array1::from(out)
            }
            _ => Array1::zeros(d),
        }
    }
}

impl Model for Bert {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Its tokens with the frame ([CLS] … [SEP], <s> … </s>); the frame alone is not a sentence.
    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem> {
        self.tokenizer.sentence(text, self.shape.max_tokens)
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
            // A token whose row is not kept stays a zero row (no tokenizer of this file makes one).
            if let Some(r) = self.tokenizer.row(token.id) {
                row.assign(&self.word_embedding(r));
            }
        }
        let position = &self.position.slice(s![..n, ..]) + &self.segment;
        let first = |mut x: Array2<f32>| {
            self.embedding_norm.apply(&mut x);
            x
        };
        Embedded { tokens, embedding, position: Some(position) }.encode(&self.shape, &self.layers, options, first)
    }

    fn ablated(&self, input: &Input, intact: &Encoding, options: &RunOptions) -> Result<Encoding, ModelError> {
        crate::model::stack::resume(intact, &self.layers, options).unwrap_or_else(|| self.forward(input, options))
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
    matrix_of(asset.get(name)?, name, rows, cols)
}

/// Tensor `t` (the entry `name`) as a (rows, cols) matrix, dequantised if stored as int8.
fn matrix_of(t: &Tensor, name: &str, rows: usize, cols: usize) -> Result<Array2<f32>, AssetError> {
    let data = t.to_f32().filter(|_| t.dim() == (rows, cols));
    let data = data.ok_or_else(|| shape_error(name, &format!("{rows} × {cols}"), t))?;
    Array2::from_shape_vec((rows, cols), data).map_err(|_| shape_error(name, &format!("{rows} × {cols}"), t))
}

/// What frames a pretrained model's answers on a page whose forward passes run in a worker:
/// its shape, tokenizer and attention projections (from the same file, the same numbers), and
/// no embeddings or feed-forward weights, which only the forward pass reads.
#[derive(Debug, Clone, PartialEq)]
pub struct BertFrame {
    shape: Shape,
    tokenizer: Tokenizer,
    projections: Vec<Arc<Projections>>,
}

impl BertFrame {
    /// Read model `c`'s frame from its file; any missing or misshapen tensor it needs is an error.
    /// The weights are kept as the file has them (int8, or 4-bit values with their scales) and
    /// widened to f32 matrices one layer at a time, when a view first shows that layer's.
    pub fn from_asset(mut asset: Asset, c: &Config) -> Result<BertFrame, AssetError> {
        let projections = (0..c.n_layers).map(|l| projections(&mut asset, c, l)).collect::<Result<_, _>>()?;
        Ok(BertFrame { shape: c.shape(), tokenizer: tokenizer(&asset, c)?, projections })
    }

    /// Whether the frame reads the file's entry `name`: the tokenizer's and the attention
    /// projections' (what [`Asset::decode_from`] is asked for, so the rest is never held).
    pub fn reads(name: &str) -> bool {
        // encoder.layer.<l>.<one of ATTENTION>.weight or .bias
        let in_layer = name.strip_prefix("encoder.layer.").and_then(|rest| rest.split_once('.')).map(|(_, rest)| rest);
        let attention = in_layer.and_then(|rest| ATTENTION.iter().find_map(|a| rest.strip_prefix(a)));
        let attention = attention.is_some_and(|end| end == ".weight" || end == ".bias");
        attention || name == "vocab" || CHARS.contains(&name) || UNIGRAM.contains(&name)
    }
}

impl Model for BertFrame {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem> {
        self.tokenizer.sentence(text, self.shape.max_tokens)
    }

    /// The frame has no weights to compute with: its forward passes run in the worker.
    fn forward(&self, _: &Input, _: &RunOptions) -> Result<Encoding, ModelError> {
        let name = match self.shape.origin {
            Origin::Pretrained { name, .. } => name,
            _ => "the model",
        };
        Err(ModelError::Worker(format!("{name} computes in the forward worker")))
    }

    fn layer_projections(&self) -> Vec<Arc<Projections>> {
        self.projections.clone()
    }
}

/// The tokenizer of model `c` from its file: a WordPiece vocabulary and its character rules,
/// or the unigram pieces, scores and normalisation map; as many tokens as `c` has.
fn tokenizer(asset: &Asset, c: &Config) -> Result<Tokenizer, AssetError> {
    let text = |name: &str| match asset.get(name)? {
        Tensor::Text(text) => Ok(text.as_str()),
        other => Err(shape_error(name, "text", other)),
    };
    let tokenizer = match c.cutting {
        Cutting::WordPiece => {
            let chars = CharTable::from_texts(text(CHARS[0])?, text(CHARS[1])?, text(CHARS[2])?);
            let reason = "malformed character table".to_string();
            let chars = chars.ok_or(AssetError::Invalid { name: "tokenizer".into(), reason })?;
            Tokenizer::WordPiece(Vocab::new(text("vocab")?, chars))
        }
        Cutting::Unigram => {
            let scores = matrix(asset, UNIGRAM[1], 1, c.vocab)?.into_raw_vec_and_offset().0;
            let hub_ids = matrix(asset, UNIGRAM[3], 1, c.vocab)?.iter().map(|&id| id as u32).collect();
            let unigram =
                Unigram::new(text(UNIGRAM[0])?, scores, text(UNIGRAM[2])?).and_then(|u| u.with_hub_ids(hub_ids));
            Tokenizer::Unigram(
                unigram.map_err(|e| AssetError::Invalid { name: "unigram".into(), reason: e.to_string() })?,
            )
        }
    };
    if tokenizer.len() != c.vocab {
        let expected = format!("{} tokens", c.vocab);
        return Err(AssetError::Shape { name: "vocab".into(), expected, given: (tokenizer.len(), 1) });
    }
    Ok(tokenizer)
}

/// Layer `l`'s attention projections W_Q, W_K, W_V, W_O in the file's own form ([`kept`]),
/// with their biases: what the model computes with, and what the page's frame of it shows.
fn projections(asset: &mut Asset, c: &Config, l: usize) -> Result<Arc<Projections>, AssetError> {
    let (p, d) = (format!("encoder.layer.{l}"), c.d_model);
    let [q, k, v, o] = ATTENTION.map(|name| format!("{p}.{name}"));
    let mut weight = |prefix: &str| kept(asset, &format!("{prefix}.weight"), d, d);
    let weights = [weight(&q)?, weight(&k)?, weight(&v)?, weight(&o)?];
    let bias = |prefix: &str| vector(asset, &format!("{prefix}.bias"), d);
    let biases = [bias(&q)?, bias(&k)?, bias(&v)?, bias(&o)?];
    let projections = Projections::from_packed(weights).and_then(|w| w.with_biases(biases));
    Ok(Arc::new(projections.map_err(invalid(format!("{p}.attention")))?))
}

/// A layer's attention entries, each with its `.weight` and `.bias`: W_Q, W_K, W_V, W_O.
const ATTENTION: [&str; 4] =
    ["attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"];

/// An error of the attention core about the projections `name`, as the file's error.
fn invalid(name: String) -> impl FnOnce(crate::AttnError) -> AssetError {
    move |e| AssetError::Invalid { name, reason: e.to_string() }
}

/// The weight `name`, stored (d_out, d_in) as PyTorch has it, kept as X · W needs it, (d_in,
/// d_out): int8 stays int8 in the strips, and so do 4-bit blocks' values, with their blocks'
/// scales (the same numbers as the f32 matrix, in a quarter of its bytes). Taken out of `asset`,
/// so that the file's copy is gone once the model's is made.
fn kept(asset: &mut Asset, name: &str, d_out: usize, d_in: usize) -> Result<PackedB, AssetError> {
    match asset.take(name)? {
        Tensor::Int8 { rows, cols, scales, data } if (rows, cols) == (d_out, d_in) => {
            let reason = "its int8 values or scales do not fill its shape".to_string();
            PackedB::from_int8_rows(d_out, d_in, &scales, &data)
                .ok_or(AssetError::Invalid { name: name.into(), reason })
        }
        Tensor::Q4 { rows, cols, blocks } if (rows, cols) == (d_out, d_in) => {
            let (values, scales) = q4_parts(&blocks);
            let reason = "its 4-bit blocks do not fill its shape".to_string();
            PackedB::from_block_rows(d_out, d_in, &scales, &values)
                .ok_or(AssetError::Invalid { name: name.into(), reason })
        }
        other => Ok(PackedB::new(matrix_of(&other, name, d_out, d_in)?.t())),
    }
}

/// The vector `name` of length `len`, stored as a 1 × len tensor.
fn vector(asset: &Asset, name: &str, len: usize) -> Result<Array1<f32>, AssetError> {
    Ok(matrix(asset, name, 1, len)?.row(0).to_owned())
}
