//! The experiment of switching heads off, on a whole model: what changed from the intact run
//! (each head's maps per layer, each token's final row), the sweep that switches every head
//! off in turn, and the weight each head puts where its name says (the previous token), to set
//! beside the effect: a strong map and a small effect, or the reverse, is visible.

use crate::ablate::{Ablation, Replacement};
use crate::model::{Encoding, Input, Model, ModelError, RunOptions};
use ndarray::{Array2, ArrayView1};

/// What switching heads off changed, from the intact run to the one with heads off.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// `[layer][head]`: the largest change of any of its attention weights (0 in every layer
    /// up to the first one with a head off, since a head is switched off after its softmax).
    pub weights: Vec<Vec<f32>>,
    /// Per token: the cosine of its last layer's row to the intact one (1 is unchanged).
    pub final_cosine: Vec<f32>,
}

impl Change {
    /// The mean over the tokens of 1 − cosine: how far the final representations moved.
    pub fn mean_final_change(&self) -> f32 {
        let n = self.final_cosine.len().max(1) as f32;
        self.final_cosine.iter().map(|c| 1.0 - c).sum::<f32>() / n
    }
}

/// How `ablated` differs from `intact`, the same sentence through the same model.
pub fn change(intact: &Encoding, ablated: &Encoding) -> Change {
    let weights = intact
        .layers
        .iter()
        .zip(&ablated.layers)
        .map(|(a, b)| {
            let heads = a.trace.head_traces.iter().zip(&b.trace.head_traces);
            heads
                .map(|(a, b)| a.weights.iter().zip(&b.weights).fold(0.0f32, |m, (x, y)| m.max((x - y).abs())))
                .collect()
        })
        .collect();
    let final_cosine = match (intact.layers.last(), ablated.layers.last()) {
        (Some(a), Some(b)) => a.output().rows().into_iter().zip(b.output().rows()).map(|(a, b)| cosine(a, b)).collect(),
        _ => vec![],
    };
    Change { weights, final_cosine }
}

/// Every head of `model` switched off alone in turn on `input` (`intact` is its run with every
/// head on), each scored by `effect(intact, with it off)`: `[layer][head]`. `progress` hears
/// (heads done, heads in all) after each.
pub fn sweep(
    model: &dyn Model,
    input: &Input,
    intact: &Encoding,
    replacement: Replacement,
    effect: impl Fn(&Encoding, &Encoding) -> f32,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<Vec<f32>>, ModelError> {
    let (layers, heads) = (model.shape().n_layers, model.shape().n_heads);
    let mut grid = vec![vec![0.0; heads]; layers];
    for (l, row) in grid.iter_mut().enumerate() {
        for (h, cell) in row.iter_mut().enumerate() {
            let options = RunOptions { ablation: Ablation::one(l, h, replacement), ..intact.options.clone() };
            *cell = effect(intact, &model.ablated(input, intact, &options)?);
            progress(l * heads + h + 1, layers * heads);
        }
    }
    Ok(grid)
}

/// `[layer][head]`: the mean weight each head of `encoding` puts on the token just before the
/// query (over the queries after the first), what a previous-token head is named for.
pub fn previous_token_weight(encoding: &Encoding) -> Vec<Vec<f32>> {
    let of = |a: &Array2<f32>| {
        let n = a.nrows().min(a.ncols());
        (1..n).map(|i| a[[i, i - 1]]).sum::<f32>() / n.saturating_sub(1).max(1) as f32
    };
    encoding.layers.iter().map(|l| l.trace.head_traces.iter().map(|h| of(&h.weights)).collect()).collect()
}

/// The cosine of two rows (1 for two zero rows).
fn cosine(a: ArrayView1<f32>, b: ArrayView1<f32>) -> f32 {
    let norms = (a.dot(&a) * b.dot(&b)).sqrt();
    if norms > 0.0 {
        a.dot(&b) / norms
    } else {
        1.0
    }
}
