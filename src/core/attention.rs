//! Scaled dot-product attention, multi-head, self or cross, with masks — producing a
//! [`Trace`] of every intermediate.

use super::ablate::{replaced, Replacement};
use super::error::AttnError;
use super::kernels::{matmul, matmul_packed, matmul_t, PackedA, PackedB};
use super::projections::{check_finite, Projections};
use super::softmax::softmax_rows;
use super::trace::{HeadTrace, Trace};
use crate::rotary::rotate;
use ndarray::{s, Array1, Array2, ArrayView2};

pub use super::mask::{causal_mask, Mask};

/// Everything about the computation that is not data.
#[derive(Debug, Clone, PartialEq)]
pub struct AttentionConfig {
    /// Number of heads; must divide d_model.
    pub n_heads: usize,
    pub mask: Mask,
    /// Optional key-padding mask, one entry per key: `true` = that key is padding (blocked).
    pub key_padding: Option<Vec<bool>>,
    /// Divide the scores by √d_k (the Transformer's choice) or not (to see saturation).
    pub scaled: bool,
    /// Softmax temperature T > 0: weights = softmax(logits / T). 1 is the ordinary softmax.
    pub temperature: f32,
    /// Heads switched off (0-based): each keeps its own trace, but what it passes on, its
    /// columns of the concatenation, is `replacement` (zeros, or its mean over the positions),
    /// so W_O and everything after never see its output.
    pub switched_off: Vec<usize>,
    pub replacement: Replacement,
    /// Rotate each head's queries and keys by their positions after projecting them (RoPE):
    /// the trace's Q and K are the rotated ones, which the scores use.
    pub rotary: bool,
}

impl Default for AttentionConfig {
    fn default() -> Self {
        Self {
            n_heads: 1,
            mask: Mask::None,
            key_padding: None,
            scaled: true,
            temperature: 1.0,
            switched_off: vec![],
            replacement: Replacement::Zero,
            rotary: false,
        }
    }
}

/// Run multi-head attention and keep every intermediate.
///
/// - `x`: (n_q, d_model) query-side input.
/// - `x_kv`: (n_kv, d_model) key/value-side input for cross-attention; `None` = self-attention.
/// - `w`: the projections, of width d_model.
///
/// Errors (never panics) on d_model 0, heads not dividing d_model, an empty sequence, shapes
/// that disagree, non-finite inputs, a bad temperature, or projections that overflow f32.
pub fn run(
    x: &Array2<f32>,
    x_kv: Option<&Array2<f32>>,
    w: &Projections,
    cfg: &AttentionConfig,
) -> Result<Trace, AttnError> {
    let d_model = w.d_model();
    let d_k = head_width(d_model, cfg.n_heads)?;
    if !(cfg.temperature.is_finite() && cfg.temperature > 0.0) {
        return Err(AttnError::BadTemperature(cfg.temperature));
    }
    check_input("X", x, d_model)?;
    let kv_input = match x_kv {
        Some(xk) => {
            check_input("X_kv", xk, d_model)?;
            xk
        }
        None => x,
    };

    // X is packed once for Q (and, in self-attention, for K and V); the weights come packed.
    let [w_q, w_k, w_v, w_o] = w.packed();
    let x_packed = PackedA::new(x.view());
    let kv_packed = x_kv.map(|xk| PackedA::new(xk.view()));
    let kv_packed = kv_packed.as_ref().unwrap_or(&x_packed);
    let mut q = project("Q", &x_packed, w_q, w.bias(0))?;
    let mut k = project("K", kv_packed, w_k, w.bias(1))?;
    if cfg.rotary {
        rotate(&mut q, d_k, 0, false);
        rotate(&mut k, d_k, 0, false);
    }
    let v = project("V", kv_packed, w_v, w.bias(2))?;
    let blocked = blocked_pairs(x.nrows(), kv_input.nrows(), cfg)?;
    let scale = if cfg.scaled { (d_k as f32).sqrt() } else { 1.0 };

    let head_traces: Vec<HeadTrace> = (0..cfg.n_heads)
        .map(|h| {
            let cols = s![.., h * d_k..(h + 1) * d_k];
            head(q.slice(cols), k.slice(cols), v.slice(cols), &blocked, scale, cfg.temperature)
        })
        .collect::<Result<_, _>>()?;

    let mut concat = Array2::zeros((x.nrows(), d_model));
    for (h, head) in head_traces.iter().enumerate() {
        let passed = if cfg.switched_off.contains(&h) {
            replaced(head.output.view(), cfg.replacement, cfg.mask == Mask::Causal)
        } else {
            head.output.clone()
        };
        concat.slice_mut(s![.., h * d_k..(h + 1) * d_k]).assign(&passed);
    }
    let output = project("the output", &PackedA::new(concat.view()), w_o, w.bias(3))?;

    Ok(Trace {
        x: x.clone(),
        x_kv: x_kv.cloned(),
        q,
        k,
        v,
        blocked,
        mask: cfg.mask,
        scaled: cfg.scaled,
        scale,
        temperature: cfg.temperature,
        d_k,
        head_traces,
        concat,
        output,
    })
}

/// d_k = d_model / n_heads, or the reason it does not exist.
pub fn head_width(d_model: usize, n_heads: usize) -> Result<usize, AttnError> {
    if d_model == 0 {
        return Err(AttnError::ZeroModelWidth);
    }
    if n_heads == 0 || !d_model.is_multiple_of(n_heads) {
        return Err(AttnError::HeadsDoNotDivide { d_model, n_heads });
    }
    Ok(d_model / n_heads)
}

/// One head of scaled dot-product attention: (n_q, d_k), (n_kv, d_k), (n_kv, d_v) → its
/// [`HeadTrace`]. `blocked` is (n_q, n_kv); the scores are divided by `scale` (√d_k or 1).
pub fn head(
    q: ArrayView2<f32>,
    k: ArrayView2<f32>,
    v: ArrayView2<f32>,
    blocked: &Array2<bool>,
    scale: f32,
    temperature: f32,
) -> Result<HeadTrace, AttnError> {
    let scores = matmul_t(q, k);
    let scaled_scores = &scores / scale;
    // One pass checks both: the softmax needs finite logits, and an infinite score stays
    // infinite when divided.
    check_finite("the scores QKᵀ", &scaled_scores)?;
    let weights = softmax_rows(&scaled_scores, blocked, temperature);
    let output = matmul(weights.view(), v);
    Ok(HeadTrace { q: q.to_owned(), k: k.to_owned(), v: v.to_owned(), scores, scaled_scores, weights, output })
}

/// `input` · `w` (+ `bias` on every row), with an error if the result overflowed f32.
pub fn project(
    what: &'static str,
    input: &PackedA,
    w: &PackedB,
    bias: Option<&Array1<f32>>,
) -> Result<Array2<f32>, AttnError> {
    let mut out = matmul_packed(input, w);
    if let Some(b) = bias {
        out += b;
    }
    check_finite(what, &out)?;
    Ok(out)
}

/// `Err` unless `m` is a non-empty, finite (n, d_model) matrix.
fn check_input(what: &'static str, m: &Array2<f32>, d_model: usize) -> Result<(), AttnError> {
    if m.nrows() == 0 {
        return Err(AttnError::EmptySequence { which: if what == "X" { "query" } else { "key/value" } });
    }
    if m.ncols() != d_model {
        return Err(AttnError::Shape {
            what,
            // A shape in symbols only: the page shows it in either language.
            expected: format!("n × {d_model}"),
            given: m.dim(),
        });
    }
    check_finite(what, m)
}

/// The (n_q, n_kv) blocked-pair matrix from the causal mask and key padding.
fn blocked_pairs(n_q: usize, n_kv: usize, cfg: &AttentionConfig) -> Result<Array2<bool>, AttnError> {
    if let Some(pad) = &cfg.key_padding {
        if pad.len() != n_kv {
            return Err(AttnError::PaddingLength { expected: n_kv, given: pad.len() });
        }
    }
    if cfg.mask == Mask::None && cfg.key_padding.is_none() {
        return Ok(Array2::from_elem((n_q, n_kv), false));
    }
    Ok(Array2::from_shape_fn((n_q, n_kv), |(i, j)| {
        let future = cfg.mask == Mask::Causal && j > i;
        let padding = cfg.key_padding.as_ref().is_some_and(|p| p[j]);
        future || padding
    }))
}
