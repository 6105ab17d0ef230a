//! The parts of a Transformer layer around attention: layer normalisation, a dense layer with
//! bias, and the GELU activation (exact, with erf, as BERT uses it).

use crate::kernels::{PackedA, PackedB};
use crate::AttnError;
use ndarray::{Array1, Array2, ArrayView2};

/// LayerNorm over the last axis: y = (x − mean) / √(var + eps) · gamma + beta.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerNorm {
    pub gamma: Array1<f32>,
    pub beta: Array1<f32>,
    pub eps: f32,
}

impl LayerNorm {
    /// Normalise each row of `x` (n, d) in place.
    pub fn apply(&self, x: &mut Array2<f32>) {
        let d = x.ncols() as f32;
        for mut row in x.rows_mut() {
            let mean = row.sum() / d;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / d;
            let inv = 1.0 / (var + self.eps).sqrt();
            for ((v, g), b) in row.iter_mut().zip(&self.gamma).zip(&self.beta) {
                *v = (*v - mean) * inv * g + b;
            }
        }
    }
}

/// y = x · W + b with W (d_in, d_out), kept packed for the matrix product.
#[derive(Debug, Clone, PartialEq)]
pub struct Dense {
    pub weight: PackedB,
    pub bias: Array1<f32>,
}

impl Dense {
    /// (n, d_in) → (n, d_out); `what` names the layer in an overflow error.
    pub fn apply(&self, what: &'static str, x: ArrayView2<f32>) -> Result<Array2<f32>, AttnError> {
        crate::attention::project(what, &PackedA::new(x), &self.weight, Some(&self.bias))
    }
}

/// GELU(x) = x · Φ(x) = x/2 · (1 + erf(x/√2)), in place.
pub fn gelu(x: &mut Array2<f32>) {
    x.mapv_inplace(|v| 0.5 * v * (1.0 + erf(v * std::f32::consts::FRAC_1_SQRT_2)));
}

/// The error function, from Numerical Recipes' Chebyshev fit of erfc (fractional error below
/// 1.2e-7 everywhere), computed in f64.
pub fn erf(x: f32) -> f32 {
    let x = f64::from(x);
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    (if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn erf_matches_known_values() {
        for (x, want) in [(0.0, 0.0), (0.5, 0.520_499_9), (1.0, 0.842_700_8), (2.0, 0.995_322_3), (-1.0, -0.842_700_8)]
        {
            assert!((erf(x) - want).abs() < 2e-7, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn layer_norm_gives_zero_mean_unit_variance_rows() {
        let ln = LayerNorm { gamma: Array1::ones(4), beta: Array1::zeros(4), eps: 1e-12 };
        let mut x = array![[1.0f32, 2.0, 3.0, 4.0], [10.0, 10.0, 10.0, 14.0]];
        ln.apply(&mut x);
        for row in x.rows() {
            assert!(row.sum().abs() < 1e-5);
            assert!((row.iter().map(|v| v * v).sum::<f32>() / 4.0 - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn gelu_is_x_times_the_normal_cdf() {
        let mut x = array![[-3.0f32, -1.0, 0.0, 1.0, 3.0]];
        gelu(&mut x);
        let want = [-0.004_049_7, -0.158_655_3, 0.0, 0.841_344_7, 2.995_950_3];
        for (g, w) in x.iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{g} vs {w}");
        }
    }
}
