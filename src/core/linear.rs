//! Linear attention: replace exp(q·k) by a kernel φ(q)·φ(k) with φ(x) = elu(x) + 1 > 0. Then
//! Σ_j φ(q_i)·φ(k_j) v_j = φ(q_i)ᵀ (Σ_j φ(k_j) v_jᵀ): the bracket is computed once, in
//! O(n · d_k · d_v), and no n × n matrix is ever needed.

use super::attention::Mask;
use super::kernels::{matmul, matmul_t};
use super::trace::HeadTrace;
use ndarray::{Array1, Array2, ArrayView2};

/// φ(x) = elu(x) + 1: x + 1 for x > 0, eˣ otherwise. Always positive.
pub fn phi(x: f32) -> f32 {
    if x > 0.0 {
        x + 1.0
    } else {
        x.exp()
    }
}

/// Linear attention, the O(n) way. `q`: (n_q, d_k), `k`: (n_kv, d_k), `v`: (n_kv, d_v) →
/// (n_q, d_v). With `causal`, query i sums keys j ≤ i only, by running prefix sums.
pub fn linear_attention(q: ArrayView2<f32>, k: ArrayView2<f32>, v: ArrayView2<f32>, causal: bool) -> Array2<f32> {
    let (n_q, d_k, d_v) = (q.nrows(), q.ncols(), v.ncols());
    let fq = q.mapv(phi);
    let fk = k.mapv(phi);
    let mut kv = Array2::<f32>::zeros((d_k, d_v)); // Σ_j φ(k_j) v_jᵀ
    let mut z = Array1::<f32>::zeros(d_k); // Σ_j φ(k_j)
    let mut out = Array2::zeros((n_q, d_v));
    let add_key = |j: usize, kv: &mut Array2<f32>, z: &mut Array1<f32>| {
        for a in 0..d_k {
            kv.row_mut(a).scaled_add(fk[[j, a]], &v.row(j));
        }
        *z += &fk.row(j);
    };
    if !causal {
        (0..k.nrows()).for_each(|j| add_key(j, &mut kv, &mut z));
    }
    for i in 0..n_q {
        if causal && i < k.nrows() {
            add_key(i, &mut kv, &mut z);
        }
        let denom = fq.row(i).dot(&z);
        if denom > 0.0 {
            out.row_mut(i).assign(&(fq.row(i).dot(&kv) / denom));
        }
    }
    out
}

/// The weights linear attention implies, A_ij = φ(q_i)·φ(k_j) / Σ_m φ(q_i)·φ(k_m): only for
/// showing them next to softmax's (this is the O(n²) way).
pub fn linear_weights(q: ArrayView2<f32>, k: ArrayView2<f32>, causal: bool) -> Array2<f32> {
    let mut a = matmul_t(q.mapv(phi).view(), k.mapv(phi).view());
    for (i, mut row) in a.rows_mut().into_iter().enumerate() {
        if causal {
            row.iter_mut().skip(i + 1).for_each(|x| *x = 0.0);
        }
        let sum = row.sum();
        if sum > 0.0 {
            row /= sum;
        }
    }
    a
}

/// Linear attention on one head's Q, K and V: the weights it implies, its output the O(n)
/// way, and how far that output is from the direct (O(n²)) way.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearCheck {
    /// φ(q_i)·φ(k_j) / Σ_m φ(q_i)·φ(k_m): (n_q, n_kv).
    pub weights: Array2<f32>,
    /// The O(n) way: (n_q, d_v).
    pub output: Array2<f32>,
    /// Largest |O(n) way − weights · V|.
    pub max_error: f32,
}

/// Linear attention of `head`, causal when `mask` is.
pub fn linear_head(head: &HeadTrace, mask: Mask) -> LinearCheck {
    let causal = mask == Mask::Causal;
    let weights = linear_weights(head.q.view(), head.k.view(), causal);
    let output = linear_attention(head.q.view(), head.k.view(), head.v.view(), causal);
    let max_error =
        output.iter().zip(&matmul(weights.view(), head.v.view())).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    LinearCheck { weights, output, max_error }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::normal_matrix;

    #[test]
    fn phi_is_positive_and_continuous_at_zero() {
        assert_eq!(phi(0.0), 1.0);
        assert_eq!(phi(2.0), 3.0);
        assert!((phi(-1.0) - (-1f32).exp()).abs() < 1e-7);
        assert!(phi(-50.0) > 0.0);
    }

    #[test]
    fn the_linear_way_equals_the_direct_way() {
        for causal in [false, true] {
            let (q, k, v) = (normal_matrix(12, 8, 5, 1), normal_matrix(12, 8, 5, 2), normal_matrix(12, 4, 5, 3));
            let fast = linear_attention(q.view(), k.view(), v.view(), causal);
            let direct = matmul(linear_weights(q.view(), k.view(), causal).view(), v.view());
            let err = fast.iter().zip(&direct).map(|(a, b)| (a - b).abs() / (1.0 + b.abs())).fold(0.0f32, f32::max);
            assert!(err < 1e-5, "causal {causal}: relative error {err}");
        }
    }

    #[test]
    fn a_head_of_a_trace_agrees_both_ways_and_keeps_the_mask() {
        let options = crate::model::RunOptions { mask: Mask::Causal, ..Default::default() };
        let trace = crate::model::random::sample_trace(&options);
        let check = linear_head(trace.head(0).unwrap(), trace.mask);
        assert!(check.max_error < 1e-4, "max error {}", check.max_error);
        assert_eq!(check.weights.dim(), (11, 11));
        assert!(check.weights.indexed_iter().all(|((i, j), w)| j <= i || *w == 0.0), "the future gets no weight");
    }

    #[test]
    fn linear_weights_are_rows_of_a_distribution() {
        let a = linear_weights(normal_matrix(6, 4, 1, 1).view(), normal_matrix(6, 4, 1, 2).view(), true);
        for (i, row) in a.rows().into_iter().enumerate() {
            assert!((row.sum() - 1.0).abs() < 1e-5);
            assert!(row.iter().skip(i + 1).all(|x| *x == 0.0));
        }
    }
}
