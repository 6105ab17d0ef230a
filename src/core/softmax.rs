//! The numerically stable, masked, temperature softmax: the one the attention heads of every
//! model use, in f32, and training uses, in f64 ([`Real`]).
//!
//! Mask convention (one, written down once): `blocked = true` means the query may not see that
//! key (burn's convention). A blocked entry gets weight exactly 0, as if its logit were −∞. A
//! row where every entry is blocked has no key to attend to; its weights are defined to be all
//! 0, so that query's output is the zero vector (never NaN).

use super::real::Real;
use ndarray::Array2;

/// softmax(row / T) of each row: `logits` (n_q, n_kv) and `blocked` (n_q, n_kv) → (n_q, n_kv).
pub fn softmax_rows<F: Real>(logits: &Array2<F>, blocked: &Array2<bool>, temperature: F) -> Array2<F> {
    let mut weights = Array2::zeros(logits.dim());
    let n_kv = logits.ncols();
    if n_kv == 0 {
        return weights;
    }
    let (Some(l), Some(b)) = (logits.as_slice(), blocked.as_slice()) else {
        // Not in standard layout (never, as the core builds them): the same, copied.
        let (l, b) = (logits.as_standard_layout().to_owned(), blocked.as_standard_layout().to_owned());
        return softmax_rows(&l, &b, temperature);
    };
    let Some(w) = weights.as_slice_mut() else { return weights };
    // Without a mask (the usual case) no row needs to look at one.
    let masked = b.contains(&true);
    for ((logits, blocked), out) in l.chunks_exact(n_kv).zip(b.chunks_exact(n_kv)).zip(w.chunks_exact_mut(n_kv)) {
        softmax_row(logits, masked.then_some(blocked), temperature, out);
    }
    weights
}

/// softmax(logits / T) of one row into `out`, blocked entries 0 (`None`: none is); all have
/// length n_kv.
///
/// Stable: the row's maximum m (over allowed keys) is subtracted first,
/// p_j = exp((l_j − m)/T) / Σ_k exp((l_k − m)/T), so nothing overflows whatever the size of the
/// scores or however small T is; the maximum contributes exactly 1, so the sum is at least 1.
/// Logits must be finite (the core checks the scores before calling).
pub fn softmax_row<F: Real>(logits: &[F], blocked: Option<&[bool]>, temperature: F, out: &mut [F]) {
    let blocked = blocked.filter(|b| b.contains(&true));
    let top = match blocked {
        Some(blocked) => {
            logits.iter().zip(blocked).filter(|(_, b)| !**b).map(|(l, _)| *l).fold(F::neg_infinity(), F::max)
        }
        None => F::row_max(logits),
    };
    if top == F::neg_infinity() {
        out.fill(F::zero());
        return;
    }
    let mut sum = F::exp_shifted_sum(logits, top, F::one() / temperature, out);
    if let Some(blocked) = blocked {
        // A blocked logit may exceed the maximum of the allowed ones: its value is discarded.
        for (o, _) in out.iter_mut().zip(blocked).filter(|(_, b)| **b) {
            *o = F::zero();
        }
        sum = out.iter().fold(F::zero(), |a, &b| a + b);
    }
    F::scale_row(out, F::one() / sum);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn softmax(l: &[f32], blocked: &[bool], t: f32) -> Vec<f32> {
        let mut out = vec![0.0; l.len()];
        softmax_row(l, Some(blocked), t, &mut out);
        out
    }

    #[test]
    fn hand_checked() {
        // e^0 : e^(ln 3) = 1 : 3 → 1/4, 3/4
        let p = softmax(&[0.0, 3f32.ln()], &[false, false], 1.0);
        assert!((p[0] - 0.25).abs() < 1e-6 && (p[1] - 0.75).abs() < 1e-6, "{p:?}");
    }

    #[test]
    fn huge_logits_do_not_overflow() {
        let p = softmax(&[1e30, 1e30, -1e30], &[false; 3], 1.0);
        assert_eq!(p, vec![0.5, 0.5, 0.0]);
    }

    #[test]
    fn blocked_entries_are_exactly_zero_and_fully_blocked_row_is_zero() {
        // The blocked logit is the largest: it must not set the maximum or add to the sum.
        let p = softmax(&[1.0, 50.0, 2.0], &[false, true, false], 1.0);
        assert_eq!(p[1], 0.0);
        assert!((p[0] + p[2] - 1.0).abs() < 1e-6);
        // 1 : e → 1/(1+e), e/(1+e)
        assert!((p[2] - 1f32.exp() / (1.0 + 1f32.exp())).abs() < 1e-6);
        assert_eq!(softmax(&[1.0; 3], &[true; 3], 1.0), vec![0.0; 3]);
    }

    #[test]
    fn temperature_sharpens_and_flattens() {
        let cold = softmax(&[1.0, 2.0, 3.0], &[false; 3], 0.01);
        assert!(cold[2] > 0.999_999);
        let hot = softmax(&[1.0, 2.0, 3.0], &[false; 3], 1000.0);
        assert!(hot.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-3));
    }

    #[test]
    fn rows_of_a_matrix_are_independent() {
        let l = ndarray::arr2(&[[0.0, 0.0], [0.0, 3f32.ln()]]);
        let b = ndarray::arr2(&[[false, true], [false, false]]);
        let w = softmax_rows(&l, &b, 1.0);
        assert_eq!(w.row(0).to_vec(), vec![1.0, 0.0]);
        assert!((w[[1, 1]] - 0.75).abs() < 1e-6);
    }

    /// Training's f64 rows are the same softmax: the causal mask's first row is one-hot, and a
    /// row of equal logits spreads evenly over what it may see (1/2, 1/2).
    #[test]
    fn in_f64_under_the_causal_mask() {
        let l = ndarray::arr2(&[[5.0f64, 9.0], [1.0, 1.0]]);
        let w = softmax_rows(&l, &crate::attention::causal_mask(2), 1.0);
        assert_eq!(w, ndarray::arr2(&[[1.0, 0.0], [0.5, 0.5]]));
    }
}
