//! What a forward pass returns: the tokens, the inputs' parts and one trace per layer, with
//! the shape and options that produced them (so labels and exports describe the numbers they
//! stand beside, never the settings of the moment); and the lesson's view of one layer of it.

use super::{RunOptions, Shape, Token};
use crate::block::BlockTrace;
use crate::projections::Projections;
use crate::trace::Trace;
use ndarray::{Array1, Array2, Axis};
use std::sync::Arc;

/// One layer's work on a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerTrace {
    /// Attention with every intermediate; `trace.x` is the layer's input (n, d_model).
    pub trace: Trace,
    /// The projections it ran with.
    pub projections: Arc<Projections>,
    /// The residual path after attention (a lone attention layer has none).
    pub block: Option<BlockTrace<f32>>,
}

impl LayerTrace {
    /// The layer's output, the next layer's input: (n, d_model).
    pub fn output(&self) -> &Array2<f32> {
        self.block.as_ref().map_or(&self.trace.output, |b| &b.output)
    }
}

/// A sentence through a whole model.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoding {
    /// The model that computed it.
    pub shape: Shape,
    /// How attention was run.
    pub options: RunOptions,
    /// The query tokens (rows of every score matrix).
    pub tokens: Vec<Token>,
    /// The key/value tokens of cross-attention; `None` for self-attention.
    pub kv_tokens: Option<Vec<Token>>,
    /// The token embeddings E: (n, d_model).
    pub embedding: Array2<f32>,
    /// What is added to them for the positions (the sinusoidal PE, or the learned positions
    /// with the segment), if anything: (n, d_model).
    pub position: Option<Array2<f32>>,
    /// One per layer, first to last.
    pub layers: Vec<LayerTrace>,
}

impl Encoding {
    /// The sentence embedding: the mean of the last layer's rows, L2-normalised: (d_model).
    pub fn pooled(&self) -> Array1<f32> {
        let d = self.shape.d_model;
        let Some(last) = self.layers.last() else { return Array1::zeros(d) };
        let mean = last.output().mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(d));
        let norm = mean.dot(&mean).sqrt().max(1e-12);
        mean / norm
    }
}

/// The cosine similarity of two sentence embeddings.
pub fn similarity(a: &Encoding, b: &Encoding) -> f32 {
    a.pooled().dot(&b.pooled())
}

/// What the lesson shows: one layer of an encoding, with the token texts on its axes.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub encoding: Arc<Encoding>,
    /// The layer shown, 0-based (within the encoding's layers).
    pub layer: usize,
    /// Query tokens (rows of every score matrix).
    pub tokens: Vec<String>,
    /// Key/value tokens (columns); the same as `tokens` for self-attention.
    pub kv_tokens: Vec<String>,
}

impl Outcome {
    /// Layer `layer` of `encoding` (the last one if past the end); `None` for an encoding
    /// with no layers, which no model returns.
    pub fn new(encoding: Arc<Encoding>, layer: usize) -> Option<Self> {
        let layer = layer.min(encoding.layers.len().checked_sub(1)?);
        let tokens = Token::texts(&encoding.tokens);
        let kv_tokens = encoding.kv_tokens.as_deref().map_or_else(|| tokens.clone(), Token::texts);
        Some(Self { encoding, layer, tokens, kv_tokens })
    }

    fn shown(&self) -> &LayerTrace {
        // `new` keeps the layer within the encoding's layers, of which it has at least one.
        &self.encoding.layers[self.layer]
    }

    /// The attention trace of the layer shown.
    pub fn trace(&self) -> &Trace {
        &self.shown().trace
    }

    /// The projections of the layer shown.
    pub fn projections(&self) -> &Arc<Projections> {
        &self.shown().projections
    }

    /// The model that computed it.
    pub fn shape(&self) -> &Shape {
        &self.encoding.shape
    }

    /// The token embeddings E: (n, d_model).
    pub fn embedding(&self) -> &Array2<f32> {
        &self.encoding.embedding
    }

    /// The positions' part of the first layer's input, if any: (n, d_model).
    pub fn positional(&self) -> Option<&Array2<f32>> {
        self.encoding.position.as_ref()
    }
}
