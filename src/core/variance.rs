//! The variance experiment behind "divide by √d_k": sample many pairs of unit-variance q, k,
//! look at the spread of q·k, and compare the empirical variance with the prediction d_k.

use super::rng::SplitMix64;

/// `samples` dot products q·k of independent q, k ∈ R^{d_k} with N(0, 1) entries.
pub fn sample_dots(d_k: usize, samples: usize, seed: u64) -> Vec<f32> {
    let mut rng = SplitMix64::new(seed ^ (d_k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (0..samples)
        .map(|_| {
            (0..d_k)
                .map(|_| {
                    let (q, k) = rng.normal_pair();
                    q as f64 * k as f64
                })
                .sum::<f64>() as f32
        })
        .collect()
}

/// The sample variance (divided by N − 1), in f64 for accuracy; 0 for fewer than 2 values.
pub fn variance(values: &[f32]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let n = values.len() as f64;
    let mean = values.iter().map(|v| *v as f64).sum::<f64>() / n;
    values.iter().map(|v| (*v as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0)
}

/// Counts of `values` in `bins` equal bins over [lo, hi); values outside are left out.
pub fn histogram(values: &[f32], bins: usize, lo: f32, hi: f32) -> Vec<u32> {
    let mut counts = vec![0u32; bins.max(1)];
    let width = (hi - lo) / counts.len() as f32;
    if width.is_nan() || width <= 0.0 {
        return counts;
    }
    for v in values {
        let b = ((v - lo) / width).floor();
        if b >= 0.0 && (b as usize) < counts.len() {
            counts[b as usize] += 1;
        }
    }
    counts
}

/// Bins of the histograms the experiment draws.
pub const BINS: usize = 40;

/// A histogram over ±4σ and the normal density N(0, σ²) it should follow, scaled to counts
/// (density × samples × bin width), so the curve and the bars have the same area.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// One count per bin.
    pub counts: Vec<u32>,
    /// (low, high) edges: ±4σ.
    pub range: (f32, f32),
    /// (x, expected count) at 101 points across the range.
    pub density: Vec<(f32, f32)>,
}

/// The histogram of `values` against N(0, σ²).
pub fn normal_histogram(values: &[f32], sigma: f32) -> Histogram {
    let (lo, hi) = (-4.0 * sigma, 4.0 * sigma);
    let counts = histogram(values, BINS, lo, hi);
    let bin = (hi - lo) / BINS as f32;
    let n = values.len() as f32;
    let density = (0..=100)
        .map(|i| {
            let x = lo + (hi - lo) * i as f32 / 100.0;
            let pdf = (-(x * x) / (2.0 * sigma * sigma)).exp() / (sigma * std::f32::consts::TAU.sqrt());
            (x, pdf * n * bin)
        })
        .collect();
    Histogram { counts, range: (lo, hi), density }
}

/// The experiment at one d_k: the sampled dot products' variance and their histograms before
/// (against variance d_k) and after dividing by √d_k (against variance 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    /// Empirical variance of q·k.
    pub variance: f64,
    pub raw: Histogram,
    pub scaled: Histogram,
}

/// Sample `samples` pairs at width `d_k` (fixed by `seed`) and measure them.
pub fn experiment(d_k: usize, samples: usize, seed: u64) -> Experiment {
    let dots = sample_dots(d_k, samples, seed);
    let root = (d_k.max(1) as f32).sqrt();
    let scaled: Vec<f32> = dots.iter().map(|x| x / root).collect();
    Experiment { variance: variance(&dots), raw: normal_histogram(&dots, root), scaled: normal_histogram(&scaled, 1.0) }
}

/// (d_k, empirical variance of q·k) for each d_k in `dks`, `samples` pairs each.
pub fn variance_curve(dks: &[usize], samples: usize, seed: u64) -> Vec<(usize, f64)> {
    dks.iter().map(|&d| (d, variance(&sample_dots(d, samples, seed)))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empirical_variance_converges_to_dk() {
        // The relative standard error of a sample variance here is about √((2 + 6/d_k)/N):
        // with N = 20 000, at most 2%; 6% leaves room for three of them.
        for d_k in [1, 4, 16, 64, 256] {
            let v = variance(&sample_dots(d_k, 20_000, 7));
            assert!((v / d_k as f64 - 1.0).abs() < 0.06, "d_k = {d_k}: variance {v}");
        }
    }

    #[test]
    fn dividing_by_sqrt_dk_gives_unit_variance() {
        let d_k = 128;
        let scaled: Vec<f32> = sample_dots(d_k, 20_000, 3).iter().map(|x| x / (d_k as f32).sqrt()).collect();
        assert!((variance(&scaled) - 1.0).abs() < 0.06);
    }

    #[test]
    fn the_density_curve_has_the_histograms_area() {
        // Σ counts ≈ ∫ curve: both ≈ the number of samples inside ±4σ.
        let e = experiment(16, 4000, 1);
        for h in [&e.raw, &e.scaled] {
            let total: u32 = h.counts.iter().sum();
            let (lo, hi) = h.range;
            let (step, bin) = ((hi - lo) / 100.0, (hi - lo) / BINS as f32);
            let area: f32 = h.density.iter().map(|(_, y)| y * step / bin).sum();
            assert!((area / total as f32 - 1.0).abs() < 0.05, "area {area} vs {total}");
        }
        assert_eq!(e.raw.range, (-16.0, 16.0), "±4σ with σ = √16");
    }

    #[test]
    fn histogram_counts_in_range_values() {
        // [0, 0.5) holds 0.0 and 0.25; [0.5, 1) holds 0.5 and 0.99; 1.0 and −0.1 are outside.
        assert_eq!(histogram(&[0.0, 0.5, 0.99, 1.0, -0.1, 0.25], 2, 0.0, 1.0), vec![2, 2]);
        assert_eq!(histogram(&[1.0], 3, 1.0, 1.0), vec![0, 0, 0]);
        assert_eq!(variance(&[2.0]), 0.0);
        // 1, 2, 3: mean 2, squares 1 + 0 + 1 = 2, over N − 1 = 2 → 1
        assert_eq!(variance(&[1.0, 2.0, 3.0]), 1.0);
    }
}
