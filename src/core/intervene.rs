//! The experiment of switching heads off, on a whole model: what changed from the intact run
//! (each head's maps per layer, each token's final row, the similarity to a second sentence),
//! the sweep that switches every head off in turn, scored by a readout the student picks, and
//! the weight each head puts where its name says (the previous token), to set beside the
//! effect: a strong map and a small effect, or the reverse, is visible.

use crate::ablate::{Ablation, Replacement};
use crate::model::{similarity, Encoding, Input, Model, ModelError, RunOptions};
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

/// What a sweep measures of a run with heads off, against the intact run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Readout {
    /// How far the final representations move: the mean over the tokens of 1 − cosine.
    Final,
    /// How much the weight from token `from` to token `to` in `layer` falls (the mean over the
    /// layer's heads; negative when it rises). All from 0.
    Weight { layer: usize, from: usize, to: usize },
    /// How much the sentence's similarity to a second sentence falls (the same heads off in
    /// both; negative when it rises).
    Similarity,
}

/// A sentence through a model with every head on, and perhaps a second one to compare it
/// with: what an experiment switches heads off from.
#[derive(Debug, Clone)]
pub struct Experiment {
    pub input: Input,
    pub intact: Encoding,
    /// The second sentence and its intact run.
    pub other: Option<(Input, Encoding)>,
}

/// The runs with heads off: the sentence's, and the second sentence's.
#[derive(Debug, Clone)]
pub struct Off {
    pub run: Encoding,
    pub other: Option<Encoding>,
}

impl Experiment {
    /// `input` (and `other`) through `model` under `options` with every head on.
    pub fn new(
        model: &dyn Model,
        input: Input,
        options: &RunOptions,
        other: Option<Input>,
    ) -> Result<Self, ModelError> {
        let options = RunOptions { ablation: Ablation::default(), ..options.clone() };
        let intact = model.forward(&input, &options)?;
        let other = match other {
            Some(o) => Some((o.clone(), model.forward(&o, &options)?)),
            None => None,
        };
        Ok(Self { input, intact, other })
    }

    /// What `readout` is read from: `text` as the lesson shows it, or, for a similarity, `text`
    /// and `other` each as the model embeds a text (with its prefix: "query: " for e5).
    pub fn for_readout(
        model: &dyn Model,
        text: &str,
        options: &RunOptions,
        other: Option<&str>,
        readout: Readout,
    ) -> Result<Self, ModelError> {
        let plain = |t: &str| Input { text: t.to_string(), kv_text: None };
        match (readout, other) {
            (Readout::Similarity, Some(other)) => {
                let embedded = |t: &str| plain(&format!("{}{t}", model.shape().origin.embedding_prefix()));
                Self::new(model, embedded(text), options, Some(embedded(other)))
            }
            _ => Self::new(model, plain(text), options, None),
        }
    }

    /// The runs with `ablation`'s heads off, each resumed from its intact run.
    pub fn off(&self, model: &dyn Model, ablation: &Ablation) -> Result<Off, ModelError> {
        let options = RunOptions { ablation: ablation.clone(), ..self.intact.options.clone() };
        let run = model.ablated(&self.input, &self.intact, &options)?;
        let other = match &self.other {
            Some((input, intact)) => Some(model.ablated(input, intact, &options)?),
            None => None,
        };
        Ok(Off { run, other })
    }

    /// The two sentences' similarity with every head on, if there is a second one.
    pub fn similarity(&self) -> Option<f32> {
        self.other.as_ref().map(|(_, o)| similarity(&self.intact, o))
    }

    /// What `readout` measures of `off` against the intact run (NaN for a readout this
    /// experiment cannot read: a token or layer it does not have, no second sentence).
    pub fn effect(&self, off: &Off, readout: Readout) -> f32 {
        match readout {
            Readout::Final => change(&self.intact, &off.run).mean_final_change(),
            Readout::Weight { layer, from, to } => {
                let mean = |e: &Encoding| {
                    let heads = &e.layers.get(layer)?.trace.head_traces;
                    let sum = heads.iter().map(|h| h.weights.get([from, to]).copied()).sum::<Option<f32>>()?;
                    Some(sum / heads.len().max(1) as f32)
                };
                mean(&self.intact).zip(mean(&off.run)).map_or(f32::NAN, |(a, b)| a - b)
            }
            Readout::Similarity => match (self.similarity(), off.similarity()) {
                (Some(a), Some(b)) => a - b,
                _ => f32::NAN,
            },
        }
    }

    /// Every head of `model` switched off alone in turn, passing on `replacement`, each scored
    /// by `readout`: `[layer][head]`. `heard` hears each (layer, head, effect) as it comes.
    pub fn sweep(
        &self,
        model: &dyn Model,
        replacement: Replacement,
        readout: Readout,
        mut heard: impl FnMut(usize, usize, f32),
    ) -> Result<Vec<Vec<f32>>, ModelError> {
        let (layers, heads) = (model.shape().n_layers, model.shape().n_heads);
        let mut grid = vec![vec![0.0; heads]; layers];
        for (l, row) in grid.iter_mut().enumerate() {
            for (h, cell) in row.iter_mut().enumerate() {
                *cell = self.effect(&self.off(model, &Ablation::one(l, h, replacement))?, readout);
                heard(l, h, *cell);
            }
        }
        Ok(grid)
    }
}

impl Off {
    /// The two sentences' similarity with the heads off, if there is a second one.
    pub fn similarity(&self) -> Option<f32> {
        self.other.as_ref().map(|o| similarity(&self.run, o))
    }
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
