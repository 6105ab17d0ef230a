//! Which (query, key) pairs attention may not use, written down once: `blocked = true` means
//! the query may not see that key (burn's convention); the softmax gives it weight exactly 0.

use ndarray::Array2;

crate::slugged! {
    /// Which (query, key) pairs are blocked before the softmax.
    #[derive(Default)]
    pub enum Mask {
        /// Every query sees every key.
        #[default]
        None = "none",
        /// Query i may not see key j > i ("no peeking at the future").
        Causal = "causal",
    }
}

/// The causal mask of `n` tokens: `true` where key j comes after query i (blocked).
pub fn causal_mask(n: usize) -> Array2<bool> {
    Array2::from_shape_fn((n, n), |(i, j)| j > i)
}

/// `logits` with the entries `blocked` (same shape) set to −∞: what the softmax sees.
pub fn masked_logits(logits: &Array2<f32>, blocked: &Array2<bool>) -> Array2<f32> {
    let mut masked = logits.clone();
    masked.zip_mut_with(blocked, |l, &b| {
        if b {
            *l = f32::NEG_INFINITY;
        }
    });
    masked
}
