//! Numbers that summarise one row of attention weights: how peaked it is, and how much
//! gradient can still flow through its softmax. These are what the saturation lesson plots.

use ndarray::{Array2, ArrayView1};

/// Readouts of one query row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RowReadout {
    /// Shannon entropy of the weights, in nats (0 = one-hot).
    pub entropy: f32,
    /// ln(number of keys this row may attend to): the entropy of a uniform row, the maximum.
    pub log_n: f32,
    /// The largest weight (1 = one-hot).
    pub max_weight: f32,
    /// Frobenius norm of the softmax Jacobian diag(p) − p pᵀ: how much gradient reaches the
    /// scores. 0 for a one-hot row; √(1/n − 1/n²) for a uniform row.
    pub jacobian_norm: f32,
    /// Mean of the unblocked logits (scores after the optional ÷√d_k).
    pub score_mean: f32,
    /// Standard deviation (population) of the unblocked logits.
    pub score_std: f32,
}

/// Averages of [`RowReadout`] over the rows of a head (rows with no allowed key are skipped).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Summary {
    pub entropy: f32,
    pub log_n: f32,
    pub max_weight: f32,
    /// Median over rows of the largest weight: the typical row. Robust to the few rows whose
    /// top two scores nearly tie, which keep the mean below 1 even when most rows are one-hot.
    pub median_max_weight: f32,
    pub jacobian_norm: f32,
    /// Median over rows of the Jacobian norm: the gradient a typical row lets through.
    pub median_jacobian_norm: f32,
    /// Mean and std over all unblocked logits of the head (not the mean of row stds).
    pub score_mean: f32,
    pub score_std: f32,
}

/// Readouts for one row: `weights` and `logits` have length n_kv; −∞ logits are blocked.
pub fn row_readout(weights: ArrayView1<f32>, logits: ArrayView1<f32>) -> RowReadout {
    let allowed: Vec<f32> = logits.iter().copied().filter(|l| *l != f32::NEG_INFINITY).collect();
    let (score_mean, score_std) = mean_std(&allowed);
    let (mut entropy, mut s2, mut s3, mut max_weight) = (0.0f64, 0.0f64, 0.0f64, 0.0f32);
    for &p in weights {
        if p > 0.0 {
            let p64 = p as f64;
            entropy -= p64 * p64.ln();
            s2 += p64 * p64;
            s3 += p64 * p64 * p64;
        }
        max_weight = max_weight.max(p);
    }
    // ‖diag(p) − ppᵀ‖²_F = Σp² − 2Σp³ + (Σp²)²  (diagonal (p−p²)², off-diagonal p_i² p_j²).
    let jac2 = (s2 - 2.0 * s3 + s2 * s2).max(0.0);
    RowReadout {
        entropy: entropy.max(0.0) as f32,
        log_n: if allowed.is_empty() { 0.0 } else { (allowed.len() as f32).ln() },
        max_weight,
        jacobian_norm: jac2.sqrt() as f32,
        score_mean,
        score_std,
    }
}

/// The softmax Jacobian's norm for a uniform row of n weights, √(1/n − 1/n²): the reference
/// line of the lab's gradient chart. It is not the largest the norm gets: a row split evenly
/// between two keys has 1/2 whatever n.
pub fn uniform_jacobian_norm(n: usize) -> f32 {
    let n = n.max(1) as f64;
    (1.0 / n - 1.0 / (n * n)).sqrt() as f32
}

/// One readout per row: `weights` and `logits` are (n_q, n_kv), −∞ logits blocked.
pub fn row_readouts(weights: &Array2<f32>, logits: &Array2<f32>) -> Vec<RowReadout> {
    weights.rows().into_iter().zip(logits.rows()).map(|(p, l)| row_readout(p, l)).collect()
}

/// Summary over rows; `logits` are all the head's logits (−∞ = blocked).
pub fn summarise<'a>(rows: &[RowReadout], logits: impl Iterator<Item = &'a f32>) -> Summary {
    let live: Vec<&RowReadout> = rows.iter().filter(|r| r.max_weight > 0.0).collect();
    let allowed: Vec<f32> = logits.copied().filter(|l| *l != f32::NEG_INFINITY).collect();
    let (score_mean, score_std) = mean_std(&allowed);
    if live.is_empty() {
        return Summary { score_mean, score_std, ..Summary::default() };
    }
    let mean = |f: fn(&RowReadout) -> f32| live.iter().map(|r| f(r) as f64).sum::<f64>() as f32 / live.len() as f32;
    Summary {
        entropy: mean(|r| r.entropy),
        log_n: mean(|r| r.log_n),
        max_weight: mean(|r| r.max_weight),
        median_max_weight: median(live.iter().map(|r| r.max_weight).collect()),
        jacobian_norm: mean(|r| r.jacobian_norm),
        median_jacobian_norm: median(live.iter().map(|r| r.jacobian_norm).collect()),
        score_mean,
        score_std,
    }
}

/// The median (mean of the middle two for an even count); 0 for no values.
fn median(values: Vec<f32>) -> f32 {
    let values = super::order::ascending(&values);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// The entries of `m` a mask leaves open (`blocked` false), finite ones only: what a score map
/// shows in colour, and what its spread is over.
pub fn open_values(m: &ndarray::Array2<f32>, blocked: &ndarray::Array2<bool>) -> Vec<f32> {
    m.iter().zip(blocked.iter()).filter(|(v, b)| v.is_finite() && !**b).map(|(v, _)| *v).collect()
}

/// Mean and population standard deviation, in f64 for accuracy; (0, 0) for no values.
pub fn mean_std(values: &[f32]) -> (f32, f32) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().map(|v| *v as f64).sum::<f64>() / n;
    let var = values.iter().map(|v| (*v as f64 - mean).powi(2)).sum::<f64>() / n;
    (mean as f32, var.sqrt() as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::arr1;

    #[test]
    fn one_hot_row_has_no_entropy_and_no_gradient() {
        let r = row_readout(arr1(&[0.0, 1.0, 0.0]).view(), arr1(&[-9.0, 9.0, -9.0]).view());
        assert_eq!((r.entropy, r.max_weight, r.jacobian_norm), (0.0, 1.0, 0.0));
        assert!((r.log_n - 3f32.ln()).abs() < 1e-6);
    }

    #[test]
    fn uniform_row_has_max_entropy_and_known_jacobian() {
        let r = row_readout(arr1(&[0.25; 4]).view(), arr1(&[1.0, 1.0, 1.0, 1.0]).view());
        assert!((r.entropy - 4f32.ln()).abs() < 1e-6);
        // √(1/4 − 1/16) = √(3/16) ≈ 0.4330
        assert!((r.jacobian_norm - (3f32 / 16.0).sqrt()).abs() < 1e-6);
        assert_eq!((r.score_mean, r.score_std), (1.0, 0.0));
    }

    #[test]
    fn a_two_way_split_lets_more_gradient_through_than_a_uniform_row() {
        assert!((uniform_jacobian_norm(4) - (3f32 / 16.0).sqrt()).abs() < 1e-7);
        let split = row_readout(arr1(&[0.5, 0.5, 0.0, 0.0]).view(), arr1(&[0.0, 0.0, -30.0, -30.0]).view());
        assert!((split.jacobian_norm - 0.5).abs() < 1e-6);
        assert!(split.jacobian_norm > uniform_jacobian_norm(4));
    }

    #[test]
    fn summary_mean_and_median_of_row_maxima() {
        let row = |m: f32| RowReadout {
            entropy: 0.0,
            log_n: 1.0,
            max_weight: m,
            jacobian_norm: 0.0,
            score_mean: 0.0,
            score_std: 0.0,
        };
        let s = summarise(&[row(1.0), row(0.5), row(0.99)], [1.0f32].iter());
        assert!((s.max_weight - 0.83).abs() < 1e-6);
        assert_eq!(s.median_max_weight, 0.99);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn blocked_logits_are_left_out_of_score_stats() {
        let r = row_readout(arr1(&[0.5, 0.5, 0.0]).view(), arr1(&[1.0, 3.0, f32::NEG_INFINITY]).view());
        assert_eq!((r.score_mean, r.score_std), (2.0, 1.0));
        assert!((r.log_n - 2f32.ln()).abs() < 1e-6);
    }
}
