//! Breaking one number of the trace back into the terms that made it, for the hover details:
//! a score S_ij = Σ_m q_im k_jm, and an output O_ij = Σ_m A_im V_mj, are both dot products.

use super::order::largest_first;
use ndarray::ArrayView1;

/// One term a_m · b_m of a dot product.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Term {
    /// The index m summed over.
    pub index: usize,
    pub a: f32,
    pub b: f32,
    /// a · b
    pub product: f32,
}

/// The `top` terms of a · b with the largest magnitude, largest first. `a`, `b`: (len,).
pub fn largest_terms(a: ArrayView1<f32>, b: ArrayView1<f32>, top: usize) -> Vec<Term> {
    let magnitudes: Vec<f32> = a.iter().zip(b).map(|(a, b)| (a * b).abs()).collect();
    largest_first(&magnitudes)
        .into_iter()
        .take(top)
        .map(|index| Term { index, a: a[index], b: b[index], product: a[index] * b[index] })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::arr1;

    #[test]
    fn largest_by_magnitude_first() {
        // products: 1·2 = 2, −3·3 = −9, 0.5·1 = 0.5
        let t = largest_terms(arr1(&[1.0, -3.0, 0.5]).view(), arr1(&[2.0, 3.0, 1.0]).view(), 2);
        assert_eq!(t.iter().map(|t| (t.index, t.product)).collect::<Vec<_>>(), [(1, -9.0), (0, 2.0)]);
    }

    #[test]
    fn terms_of_a_trace_score_add_up_to_it() {
        let trace = crate::model::random::sample_trace(&Default::default());
        let h = &trace.head_traces[1];
        let all = largest_terms(h.q.row(2), h.k.row(5), usize::MAX);
        let sum: f32 = all.iter().map(|t| t.product).sum();
        assert!((sum - h.scores[[2, 5]]).abs() < 1e-4);
        assert_eq!(all.len(), trace.d_k);
    }
}
