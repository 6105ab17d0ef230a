//! Rotary position embedding (RoPE, Su et al. 2021): nothing is added to the tokens; instead
//! each head's query and key columns are taken in pairs (2j, 2j + 1) and the pair at position p
//! is rotated by the angle p·θ_j, θ_j = 10000^(−2j/d_k). A rotation keeps lengths, and the dot
//! product of two rotated vectors depends only on the difference of their angles, so a score
//! q_i·k_j depends on the positions only through the offset i − j. A last odd column is left
//! as it is.

use crate::real::Real;
use ndarray::Array2;

/// θ_j of pair `j` in a head of width `d_k`.
pub fn frequency(j: usize, d_k: usize) -> f64 {
    10000f64.powf(-2.0 * j as f64 / d_k.max(1) as f64)
}

/// Rotate every head's pairs of `x` (rows are positions `first`, `first` + 1, …; columns are
/// heads of `d_k`) by their angles, or back by them when `back` (the transpose, which the
/// backward pass uses).
pub fn rotate<F: Real>(x: &mut Array2<F>, d_k: usize, first: usize, back: bool) {
    if d_k < 2 {
        return;
    }
    let sign = if back { -1.0 } else { 1.0 };
    let pairs: Vec<f64> = (0..d_k / 2).map(|j| frequency(j, d_k)).collect();
    for (i, mut row) in x.rows_mut().into_iter().enumerate() {
        let position = (first + i) as f64;
        for head in 0..row.len() / d_k {
            for (j, theta) in pairs.iter().enumerate() {
                let (a, b) = (head * d_k + 2 * j, head * d_k + 2 * j + 1);
                let (sin, cos) = (sign * position * theta).sin_cos();
                let (x0, x1) = (row[a], row[b]);
                row[a] = x0 * F::of(cos) - x1 * F::of(sin);
                row[b] = x0 * F::of(sin) + x1 * F::of(cos);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    fn random(rows: usize, cols: usize, seed: u64) -> Array2<f64> {
        let mut rng = SplitMix64::new(seed);
        Array2::from_shape_simple_fn((rows, cols), || f64::from(rng.normal()))
    }

    /// The property RoPE is made for: a score depends on the positions only through their
    /// offset, so shifting every position by the same amount leaves every score as it was.
    #[test]
    fn a_score_depends_only_on_the_offset_between_positions() {
        let (q, k) = (random(6, 8, 1), random(6, 8, 2));
        let scores = |shift: usize| {
            let (mut q, mut k) = (q.clone(), k.clone());
            rotate(&mut q, 4, shift, false);
            rotate(&mut k, 4, shift, false);
            q.dot(&k.t())
        };
        let (at_0, at_37) = (scores(0), scores(37));
        let far = at_0.iter().zip(&at_37).fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        assert!(far < 1e-12, "shifting every position changed a score by {far}");
        // It does move with the offset: position 0 against 1 differs from 0 against 3.
        let (mut q1, mut k1) = (q.clone(), q.clone());
        rotate(&mut q1, 4, 0, false);
        rotate(&mut k1, 4, 1, false);
        assert!((q1.row(0).dot(&k1.row(0)) - q.row(0).dot(&q.row(0))).abs() > 1e-3);
    }

    /// On a trained model's first layer: under RoPE, the example's scores stand still when
    /// every position moves by 7; with the sinusoidal encoding added, they do not; learned
    /// positions have nothing past the places trained on.
    #[test]
    fn a_model_with_rotary_positions_scores_by_offset_only() {
        use crate::train::model::{first_layer_scores, Positions};
        use crate::train::session::{Session, Setup};
        let far = |positions: Positions| {
            let session = Session::new(Setup { positions, kv_heads: Some(1), ..Setup::default() })
                .unwrap_or_else(|e| panic!("{e:?}"));
            let (p, c, tokens) = (&session.params, &session.config, session.example());
            let (here, there) = (first_layer_scores(p, c, &tokens, 0), first_layer_scores(p, c, &tokens, 7));
            here.zip(there).map(|(a, b)| {
                a.iter()
                    .zip(&b)
                    .map(|(x, y)| x.iter().zip(y).fold(0.0f64, |m, (u, v)| m.max((u - v).abs())))
                    .fold(0.0, f64::max)
            })
        };
        assert!(far(Positions::Rotary).is_some_and(|d| d < 1e-9), "{:?}", far(Positions::Rotary));
        assert!(far(Positions::Sinusoidal).is_some_and(|d| d > 1e-2), "{:?}", far(Positions::Sinusoidal));
        assert_eq!(far(Positions::Learned), None);
    }

    #[test]
    fn rotating_back_undoes_a_rotation_and_keeps_lengths() {
        let x = random(5, 7, 3);
        let mut y = x.clone();
        rotate(&mut y, 7, 2, false);
        let norms = |a: &Array2<f64>| a.rows().into_iter().map(|r| r.dot(&r)).collect::<Vec<_>>();
        assert!(norms(&x).iter().zip(norms(&y)).all(|(a, b)| (a - b).abs() < 1e-12));
        assert_eq!(y.column(6), x.column(6), "an odd last column stays");
        rotate(&mut y, 7, 2, true);
        assert!(x.iter().zip(&y).all(|(a, b)| (a - b).abs() < 1e-12));
    }
}
