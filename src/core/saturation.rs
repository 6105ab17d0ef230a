//! The saturation experiment: attention on random unit-variance queries and keys, the setting
//! of the "why divide by √d_k" argument. Without scaling the score spread grows like √d_k and
//! the softmax rows harden into one-hot; with scaling they stay soft at every d_k.

use super::attention::head;
use super::error::AttnError;
use super::kernels::matmul_t;
use super::readouts::Summary;
use super::rng::normal_matrix;
use super::trace::HeadTrace;
use ndarray::Array2;

/// The lab's own random sample, fixed: new weights for the lesson do not resample it, so the
/// curves stay put and only a new sentence length recomputes them.
pub const LAB_SEED: u64 = 2017;

/// The d_k values the saturation experiment offers: 1, 2, 4, …, 1024.
pub const DK_STEPS: [usize; 11] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/// One saturation picture: the head and its readouts.
#[derive(Debug, Clone, PartialEq)]
pub struct Saturation {
    pub head: HeadTrace,
    pub summary: Summary,
}

/// n random queries against n random keys at width d_k, no mask. V is the keys themselves (the
/// lab looks only at the weights). Box–Muller samples stay below 8.6 in size, so for
/// d_k ≤ 1024 every score is far inside f32 and this succeeds.
pub fn saturation(n: usize, d_k: usize, scaled: bool, seed: u64) -> Result<Saturation, AttnError> {
    let (n, d_k) = (n.max(1), d_k.max(1));
    let q = normal_matrix(n, d_k, seed, 1);
    let k = normal_matrix(n, d_k, seed, 2);
    let blocked = Array2::from_elem((n, n), false);
    let scale = if scaled { (d_k as f32).sqrt() } else { 1.0 };
    let head = head(q.view(), k.view(), k.view(), &blocked, scale, 1.0)?;
    Ok(Saturation { summary: head.summary(&blocked), head })
}

/// Readouts of the saturation experiment at one d_k, with and without scaling.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweepPoint {
    pub d_k: usize,
    pub scaled: Summary,
    pub unscaled: Summary,
}

/// The readouts at every d_k in [`DK_STEPS`], for the curves against d_k.
///
/// The vectors at a smaller d_k are prefixes of those at 1024, so the scores for every step
/// come from one pass over the dimensions: S(2d) = S(d) + the next d terms (1024 dimensions of
/// work instead of 2047). Each step's scores then go through the same `head` as the picture.
pub fn sweep(n: usize, seed: u64) -> Result<Vec<SweepPoint>, AttnError> {
    let n = n.max(1);
    let max = DK_STEPS[DK_STEPS.len() - 1];
    let (q, k) = (normal_matrix(n, max, seed, 1), normal_matrix(n, max, seed, 2));
    let blocked = Array2::from_elem((n, n), false);
    let mut scores = Array2::<f32>::zeros((n, n));
    let mut done = 0;
    DK_STEPS
        .iter()
        .map(|&d_k| {
            let (qs, ks) = (q.slice(ndarray::s![.., done..d_k]), k.slice(ndarray::s![.., done..d_k]));
            scores += &matmul_t(qs, ks);
            done = d_k;
            // Attention on the accumulated scores: identity queries against keys Sᵀ give
            // I·(Sᵀ)ᵀ = S(d_k) exactly, so `head` scores, scales and summarises S(d_k) itself.
            let summary = |scale: f32| -> Result<_, AttnError> {
                let identity = Array2::<f32>::eye(n);
                Ok(head(identity.view(), scores.t(), scores.t(), &blocked, scale, 1.0)?.summary(&blocked))
            };
            Ok(SweepPoint { d_k, scaled: summary((d_k as f32).sqrt())?, unscaled: summary(1.0)? })
        })
        .collect()
}

/// The d_k step nearest to `d_k` in log scale (the slider moves in powers of two).
pub fn snap_dk(d_k: f64) -> usize {
    if !d_k.is_finite() || d_k <= 1.0 {
        return 1;
    }
    let exp = d_k.log2().round().clamp(0.0, 10.0) as u32;
    1usize << exp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unscaled_saturates_and_scaled_stays_soft() {
        // n = 11 like the default sentence.
        let hard = saturation(11, 1024, false, 42).unwrap().summary;
        let soft = saturation(11, 1024, true, 42).unwrap().summary;
        // The typical row is one-hot; a few near-ties keep the mean lower (its expectation at
        // n = 11, d_k = 1024 is about 0.965).
        assert!(hard.median_max_weight > 0.99, "unscaled median max weight {}", hard.median_max_weight);
        assert!(hard.max_weight > 0.85, "unscaled mean max weight {}", hard.max_weight);
        assert!(hard.median_jacobian_norm < 0.01, "unscaled gradient {}", hard.median_jacobian_norm);
        assert!(soft.median_jacobian_norm > 0.2, "scaled gradient {}", soft.median_jacobian_norm);
        assert!(soft.jacobian_norm > 2.0 * hard.jacobian_norm);
        assert!(soft.median_max_weight < 0.7, "scaled median max weight {}", soft.median_max_weight);
        assert!(soft.entropy > 0.5 * soft.log_n);
    }

    #[test]
    fn score_spread_is_sqrt_dk_unscaled_and_one_scaled() {
        // 64 × 64 scores: std within 15% of √d_k (unscaled) and of 1 (scaled).
        for d_k in [16, 256, 1024] {
            let raw = saturation(64, d_k, false, 3).unwrap().summary.score_std;
            let fair = saturation(64, d_k, true, 3).unwrap().summary.score_std;
            assert!((raw / (d_k as f32).sqrt() - 1.0).abs() < 0.15, "d_k {d_k}: std {raw}");
            assert!((fair - 1.0).abs() < 0.15, "d_k {d_k}: scaled std {fair}");
        }
    }

    #[test]
    fn growing_dk_extends_the_same_vectors() {
        let small = normal_matrix(3, 4, 9, 1);
        let big = normal_matrix(3, 8, 9, 1);
        assert_eq!(small, big.slice(ndarray::s![.., 0..4]));
    }

    #[test]
    fn sweep_covers_every_step_and_max_weight_rises_unscaled() {
        let points = sweep(11, 42).unwrap();
        assert_eq!(points.iter().map(|p| p.d_k).collect::<Vec<_>>(), DK_STEPS);
        assert!(points[10].unscaled.max_weight > points[0].unscaled.max_weight);
    }

    /// What the lab shows for sentence lengths from the default's 11 up to 64 (its text reads
    /// the band and the bump from the sweep itself, `stage_texts::saturation_texts`), over
    /// several samples: unscaled, the typical row's gradient first rises above the scaled one
    /// at a small d_k (rows move towards a two-way split, whose Jacobian beats a uniform
    /// row's), then collapses; scaled, the typical top weight wanders by less than 0.15 over
    /// 1–1024 (the sample's noise) and does not grow.
    #[test]
    fn the_unscaled_gradient_bumps_then_collapses_and_scaled_rows_barely_move() {
        for seed in [2017, 1, 42] {
            for n in [11, 20, 40, 64] {
                let points = sweep(n, seed).unwrap();
                let small = &points[1..=4]; // d_k = 2, 4, 8, 16
                assert!(
                    small.iter().any(|p| p.unscaled.median_jacobian_norm > p.scaled.median_jacobian_norm),
                    "n {n}, seed {seed}: no bump"
                );
                let last = &points[10];
                assert!(last.unscaled.median_jacobian_norm < 0.05, "n {n}, seed {seed}: no collapse");
                let tops: Vec<f32> = points.iter().map(|p| p.scaled.median_max_weight).collect();
                let (lo, hi) = tops.iter().fold((1f32, 0f32), |(a, b), t| (a.min(*t), b.max(*t)));
                assert!(hi - lo < 0.15, "n {n}, seed {seed}: scaled top weight spans {lo}–{hi}");
            }
        }
    }

    #[test]
    fn the_prefix_sum_sweep_equals_computing_each_step_on_its_own() {
        let points = sweep(9, 5).unwrap();
        for p in &points {
            let direct =
                (saturation(9, p.d_k, true, 5).unwrap().summary, saturation(9, p.d_k, false, 5).unwrap().summary);
            for (got, want) in [(p.scaled, direct.0), (p.unscaled, direct.1)] {
                assert!((got.median_max_weight - want.median_max_weight).abs() < 1e-4, "d_k {}", p.d_k);
                assert!((got.score_std - want.score_std).abs() < 1e-3 * (1.0 + want.score_std), "d_k {}", p.d_k);
                assert!((got.entropy - want.entropy).abs() < 1e-3, "d_k {}", p.d_k);
            }
        }
    }

    #[test]
    fn snapping_is_to_the_nearest_power_of_two_in_log_scale() {
        assert_eq!(
            [
                snap_dk(0.0),
                snap_dk(1.0),
                snap_dk(3.0),
                snap_dk(5.0),
                snap_dk(700.0),
                snap_dk(5000.0),
                snap_dk(f64::NAN)
            ],
            [1, 1, 4, 4, 512, 1024, 1]
        );
    }
}
