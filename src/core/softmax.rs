//! The numerically stable, masked, temperature softmax used by every attention head.
//!
//! Mask convention (one, written down once): a logit of −∞ means "blocked". Blocked entries
//! get weight exactly 0. A row where every entry is blocked has no key to attend to; its
//! weights are defined to be all 0, so that query's output is the zero vector (never NaN).

use ndarray::{ArrayView1, ArrayViewMut1};

/// softmax(logits / temperature) into `out`; `logits` and `out` have the same length n_kv.
///
/// Stable: the row max m is subtracted first, p_j = exp((l_j − m)/T) / Σ_k exp((l_k − m)/T), so
/// nothing overflows whatever the magnitude of the scores or how small T is.
/// Logits must be finite or −∞ (blocked); the core guarantees that before calling.
pub fn softmax_row(logits: ArrayView1<f32>, temperature: f32, mut out: ArrayViewMut1<f32>) {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        out.fill(0.0);
        return;
    }
    let mut sum = 0.0f32;
    for (o, &l) in out.iter_mut().zip(logits) {
        // l − max ≤ 0, so exp ≤ 1; the max itself contributes exactly 1, so sum ≥ 1.
        *o = if l == f32::NEG_INFINITY { 0.0 } else { ((l - max) / temperature).exp() };
        sum += *o;
    }
    out.mapv_inplace(|p| p / sum);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{arr1, Array1};

    fn softmax(l: &[f32], t: f32) -> Vec<f32> {
        let mut out = Array1::zeros(l.len());
        softmax_row(arr1(l).view(), t, out.view_mut());
        out.to_vec()
    }

    #[test]
    fn hand_checked() {
        // e^0 : e^(ln 3) = 1 : 3 → 1/4, 3/4
        let p = softmax(&[0.0, 3f32.ln()], 1.0);
        assert!((p[0] - 0.25).abs() < 1e-6 && (p[1] - 0.75).abs() < 1e-6);
    }

    #[test]
    fn huge_logits_do_not_overflow() {
        let p = softmax(&[1e30, 1e30, -1e30], 1.0);
        assert_eq!(p, vec![0.5, 0.5, 0.0]);
    }

    #[test]
    fn blocked_entries_are_exactly_zero_and_fully_blocked_row_is_zero() {
        let p = softmax(&[1.0, f32::NEG_INFINITY, 2.0], 1.0);
        assert_eq!(p[1], 0.0);
        assert!((p[0] + p[2] - 1.0).abs() < 1e-6);
        assert_eq!(softmax(&[f32::NEG_INFINITY; 3], 1.0), vec![0.0; 3]);
    }

    #[test]
    fn temperature_sharpens_and_flattens() {
        let cold = softmax(&[1.0, 2.0, 3.0], 0.01);
        assert!(cold[2] > 0.999_999);
        let hot = softmax(&[1.0, 2.0, 3.0], 1000.0);
        assert!(hot.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-3));
    }
}
