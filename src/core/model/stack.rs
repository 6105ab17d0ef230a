//! The layers every model runs the same way: attention (the core's one `attention::run`), then
//! the layer's residual path (`block`), the output feeding the next layer.

use super::{Encoding, LayerTrace, ModelError, RunOptions, Shape, Token};
use crate::ablate::Ablation;
use crate::attention::{run, AttentionConfig};
use crate::block::Block;
use crate::error::AttnError;
use crate::projections::{check_finite, Projections};
use ndarray::Array2;
use std::sync::Arc;

/// One layer: its attention's projections and what follows attention.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    pub projections: Arc<Projections>,
    /// `None`: a lone attention layer, whose output is attention's own.
    pub block: Option<Block<f32>>,
    /// Its heads' queries and keys are rotated by position (RoPE, `core::rotary`).
    pub rotary: bool,
}

/// A sentence as a model of self-attention layers reads it, before its first layer.
#[derive(Debug, Clone)]
pub struct Embedded {
    pub tokens: Vec<Token>,
    /// The token embeddings E: (n, d_model).
    pub embedding: Array2<f32>,
    /// What is added to them for the positions, (n, d_model); `None` for a model that adds
    /// none (rotary positions).
    pub position: Option<Array2<f32>>,
}

impl Embedded {
    /// The sentence through `layers` of the model `shape` describes (its `n_heads` per layer):
    /// `first` makes the first layer's input of E + position (a model may normalise it).
    pub fn encode(
        self,
        shape: &Shape,
        layers: &[Layer],
        options: &RunOptions,
        first: impl FnOnce(Array2<f32>) -> Array2<f32>,
    ) -> Result<Encoding, ModelError> {
        let x = first(match &self.position {
            Some(p) => &self.embedding + p,
            None => self.embedding.clone(),
        });
        let layers = run_layers(x, None, layers, shape.n_heads, options)?;
        Ok(Encoding {
            shape: shape.clone(),
            options: options.clone(),
            tokens: self.tokens,
            kv_tokens: None,
            embedding: self.embedding,
            position: self.position,
            layers,
        })
    }
}

/// `intact` (the same sentence with no head switched off) again with `options`, whose heads
/// switched off start at some layer: the layers before it are kept as `intact` computed them
/// (their inputs and options are the same, so are their numbers), the rest run again.
/// `None` when nothing can be kept: `options` differ from `intact`'s in more than the heads
/// (the mask, scaling or temperature), `intact` has heads off, or layer 1 has one.
pub fn resume(intact: &Encoding, layers: &[Layer], options: &RunOptions) -> Option<Result<Encoding, ModelError>> {
    let same = RunOptions { ablation: intact.options.ablation.clone(), ..options.clone() };
    let from = options.ablation.first_layer().unwrap_or(layers.len()).min(intact.layers.len());
    if same != intact.options || !intact.options.ablation.is_empty() || intact.layers.len() != layers.len() {
        return None;
    }
    let kept = intact.layers.get(..from)?;
    let x = kept.last()?.output().clone();
    let rest = run_layers(x, None, &layers[from..], intact.shape.n_heads, &shifted(options, from));
    Some(rest.map_err(ModelError::from).map(|tail| Encoding {
        options: options.clone(),
        layers: kept.iter().cloned().chain(tail).collect(),
        ..intact.clone()
    }))
}

/// `options` for layers counted from `from`: its heads' layers moved down by `from`.
fn shifted(options: &RunOptions, from: usize) -> RunOptions {
    let heads = options.ablation.heads().iter().filter_map(|&(l, h)| Some((l.checked_sub(from)?, h)));
    RunOptions { ablation: Ablation::new(heads, options.ablation.replacement), ..options.clone() }
}

/// Run `layers` on `x` (n, d_model), the first layer's input; `x_kv` (n_kv, d_model) gives the
/// first layer's keys and values in cross-attention. Every layer's trace, first to last.
pub fn run_layers(
    mut x: Array2<f32>,
    x_kv: Option<&Array2<f32>>,
    layers: &[Layer],
    n_heads: usize,
    options: &RunOptions,
) -> Result<Vec<LayerTrace>, AttnError> {
    let mut traces: Vec<LayerTrace> = Vec::with_capacity(layers.len());
    for (l, layer) in layers.iter().enumerate() {
        let kv = if l == 0 { x_kv } else { None };
        let config = AttentionConfig { rotary: layer.rotary, ..options.attention(l, n_heads) };
        let trace = run(&x, kv, &layer.projections, &config)?;
        let block = layer.block.as_ref().map(|b| b.forward(&x, &trace.output));
        if let Some(b) = &block {
            check_finite("the feed-forward output", &b.output)?;
        }
        let done = LayerTrace { trace, projections: Arc::clone(&layer.projections), block };
        x = done.output().clone();
        traces.push(done);
    }
    Ok(traces)
}
