//! What makes sinusoidal positional encoding useful: PE(i+k) is PE(i) turned by a rotation
//! that depends on the offset k only, so PE(i)·PE(j) depends on i − j only, and a linear map
//! can read relative position.

use super::embed::{positional_encoding, wavelength};
use super::kernels::matmul_t;
use ndarray::{Array1, Array2, ArrayView1};

/// PE · PEᵀ for positions 0 … n−1 at width `d_model`: (n, n), constant along every diagonal.
pub fn position_gram(n: usize, d_model: usize) -> Array2<f32> {
    let pe = positional_encoding(n, d_model);
    matmul_t(pe.view(), pe.view())
}

/// PE(i) turned by the offset `k`: each (sin, cos) pair of frequency ω rotated by the angle
/// k·ω. Only k and d_model enter, never i. `pe`: (d_model).
fn shift(pe: ArrayView1<f32>, k: f64) -> Array1<f32> {
    let d_model = pe.len();
    let mut out = pe.to_owned();
    for i in 0..d_model / 2 {
        let omega = 1.0 / wavelength(i, d_model);
        let (s, c) = (k * omega).sin_cos();
        let (a, b) = (f64::from(pe[2 * i]), f64::from(pe[2 * i + 1]));
        // sin(x + y) = sin x cos y + cos x sin y; cos(x + y) = cos x cos y − sin x sin y.
        out[2 * i] = (a * c + b * s) as f32;
        out[2 * i + 1] = (b * c - a * s) as f32;
    }
    out
}

/// The largest |rotate(PE(i), k) − PE(i + k)| over positions i = 0 … n−1−k: how exactly the
/// rotation moves every position by k.
pub fn shift_error(n: usize, d_model: usize, k: usize) -> f32 {
    let pe = positional_encoding(n.max(k + 1), d_model);
    (0..pe.nrows() - k)
        .flat_map(|i| {
            let turned = shift(pe.row(i), k as f64);
            let target = pe.row(i + k).to_owned();
            turned.iter().zip(target.iter()).map(|(a, b)| (a - b).abs()).collect::<Vec<_>>()
        })
        .fold(0.0f32, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gram_matrix_depends_on_the_offset_only() {
        let g = position_gram(24, 64);
        for i in 0..20 {
            for k in 0..4 {
                assert!((g[[i, i + k]] - g[[0, k]]).abs() < 1e-4, "i {i}, k {k}");
            }
        }
        assert!((g[[5, 5]] - 32.0).abs() < 1e-4, "each pair has sin² + cos² = 1: d_model/2");
    }

    #[test]
    fn one_rotation_moves_every_position_by_k() {
        for k in [1, 3, 10] {
            assert!(shift_error(32, 64, k) < 1e-4, "k {k}: {}", shift_error(32, 64, k));
        }
    }

    #[test]
    fn similarity_falls_with_distance() {
        let g = position_gram(16, 64);
        assert!(g[[0, 0]] > g[[0, 1]] && g[[0, 1]] > g[[0, 4]]);
    }
}
