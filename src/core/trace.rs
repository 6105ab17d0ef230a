//! The trace: every intermediate of one attention computation, in one value.
//! The UI draws from it and never recomputes; the tests compare it to ONNX Runtime.

use super::mask::{masked_logits, Mask};
use super::readouts::{row_readouts, summarise, RowReadout, Summary};
use ndarray::Array2;

/// One head's intermediates. `n_q` queries, `n_kv` keys, `d_k = d_model / n_heads`.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadTrace {
    /// Q_h = Q[:, h·d_k .. (h+1)·d_k]: (n_q, d_k).
    pub q: Array2<f32>,
    /// K_h: (n_kv, d_k).
    pub k: Array2<f32>,
    /// V_h: (n_kv, d_k).
    pub v: Array2<f32>,
    /// Raw scores S = Q_h K_hᵀ, neither scaled nor masked: (n_q, n_kv).
    pub scores: Array2<f32>,
    /// S / √d_k when scaling is on, else S itself: (n_q, n_kv). With the mask, the softmax's
    /// logits (blocked entries count as −∞).
    pub scaled_scores: Array2<f32>,
    /// A = softmax(scaled / temperature) row by row; blocked entries exactly 0: (n_q, n_kv).
    pub weights: Array2<f32>,
    /// O_h = A · V_h: (n_q, d_k).
    pub output: Array2<f32>,
}

impl HeadTrace {
    /// The softmax's logits: `scaled_scores` with the entries `blocked` (n_q, n_kv) set to −∞.
    pub fn masked(&self, blocked: &Array2<bool>) -> Array2<f32> {
        masked_logits(&self.scaled_scores, blocked)
    }

    /// One readout per query row (how peaked, how much gradient gets through).
    pub fn row_readouts(&self, blocked: &Array2<bool>) -> Vec<RowReadout> {
        row_readouts(&self.weights, &self.masked(blocked))
    }

    /// The rows' readouts summarised.
    pub fn summary(&self, blocked: &Array2<bool>) -> Summary {
        let masked = self.masked(blocked);
        summarise(&row_readouts(&self.weights, &masked), masked.iter())
    }
}

/// The whole computation for one input.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// Query-side input: (n_q, d_model).
    pub x: Array2<f32>,
    /// Key/value-side input for cross-attention: (n_kv, d_model); `None` means self-attention.
    pub x_kv: Option<Array2<f32>>,
    /// Q = X · W_Q (+ b_Q with the pretrained weights): (n_q, d_model).
    pub q: Array2<f32>,
    /// K = X_kv · W_K: (n_kv, d_model).
    pub k: Array2<f32>,
    /// V = X_kv · W_V: (n_kv, d_model).
    pub v: Array2<f32>,
    /// `true` where query i may not see key j: (n_q, n_kv).
    pub blocked: Array2<bool>,
    /// The mask that made `blocked` (key padding aside).
    pub mask: Mask,
    /// Whether the scores were divided by √d_k.
    pub scaled: bool,
    /// The divisor applied to the scores: √d_k, or 1 when scaling is off.
    pub scale: f32,
    /// The softmax temperature T: weights = softmax(scaled / T).
    pub temperature: f32,
    /// d_model / n_heads.
    pub d_k: usize,
    /// One entry per head.
    pub head_traces: Vec<HeadTrace>,
    /// The heads' outputs side by side: (n_q, d_model).
    pub concat: Array2<f32>,
    /// concat · W_O (+ b_O): (n_q, d_model).
    pub output: Array2<f32>,
}

impl Trace {
    /// (n_q, n_kv).
    pub fn n(&self) -> (usize, usize) {
        self.blocked.dim()
    }

    /// The model width.
    pub fn d_model(&self) -> usize {
        self.x.ncols()
    }

    /// Cross-attention (keys and values from a second input) rather than self-attention.
    pub fn is_cross(&self) -> bool {
        self.x_kv.is_some()
    }

    /// What each raw score is divided by before the exponential: scale · T.
    pub fn divisor(&self) -> f32 {
        self.scale * self.temperature
    }

    /// The largest |row sum − 1| of `head`'s weights over the rows that may attend to
    /// something (a fully masked row sums to 0 by definition).
    pub fn row_sum_deviation(&self, head: &HeadTrace) -> f32 {
        head.weights
            .rows()
            .into_iter()
            .zip(self.blocked.rows())
            .filter(|(_, blocked)| blocked.iter().any(|b| !b))
            .map(|(row, _)| (row.sum() - 1.0).abs())
            .fold(0.0, f32::max)
    }

    /// The number of heads.
    pub fn n_heads(&self) -> usize {
        self.head_traces.len()
    }

    /// Head `index` (0-based), or the last head when `index` is past the end: the settings
    /// may name a head that a kept, older trace does not have. `None` only for a trace with
    /// no heads, which [`super::attention::run`] never returns.
    pub fn head(&self, index: usize) -> Option<&HeadTrace> {
        self.head_traces.get(index.min(self.head_traces.len().saturating_sub(1)))
    }
}
