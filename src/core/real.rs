//! The two floating-point types the core computes in: f32 for everything the page shows (the
//! packed Wasm-SIMD kernels), f64 for training (whose gradient checks need the precision). The
//! pieces that are written once for both (the softmax, the residual block) are generic over
//! [`Real`], which says how each type multiplies by a kept matrix and exponentiates a row.

use super::kernels::{exp_shifted_sum, gelu, matmul_f64, matmul_packed, max, scale, PackedA, PackedB};
use ndarray::{Array2, ArrayView2, NdFloat};

/// f32 or f64, with the loops the generic code runs on.
pub trait Real: NdFloat + Default {
    /// A weight matrix kept ready for `x · W`: packed for the f32 kernels, plain for f64.
    type Kept: std::fmt::Debug + Clone + PartialEq + Send + Sync;

    /// Keep `w` (d_in, d_out) for products.
    fn keep(w: ArrayView2<Self>) -> Self::Kept;

    /// The (d_in, d_out) shape of a kept matrix.
    fn kept_dim(w: &Self::Kept) -> (usize, usize);

    /// `x · W`: (n, d_in) · (d_in, d_out) → (n, d_out).
    fn times(x: ArrayView2<Self>, w: &Self::Kept) -> Array2<Self>;

    /// `out[j] = e^((row[j] − shift)·factor)` and their sum.
    fn exp_shifted_sum(row: &[Self], shift: Self, factor: Self, out: &mut [Self]) -> Self;

    /// The largest value of `row` (−∞ for none).
    fn row_max(row: &[Self]) -> Self;

    /// Multiply every value by `factor`.
    fn scale_row(row: &mut [Self], factor: Self);

    /// GELU, x · Φ(x), in place.
    fn gelu_all(values: &mut [Self]);

    /// From an f64 constant.
    fn of(v: f64) -> Self;
}

impl Real for f32 {
    type Kept = PackedB;

    fn keep(w: ArrayView2<f32>) -> PackedB {
        PackedB::new(w)
    }

    fn kept_dim(w: &PackedB) -> (usize, usize) {
        w.dim()
    }

    fn times(x: ArrayView2<f32>, w: &PackedB) -> Array2<f32> {
        matmul_packed(&PackedA::new(x), w)
    }

    fn exp_shifted_sum(row: &[f32], shift: f32, factor: f32, out: &mut [f32]) -> f32 {
        exp_shifted_sum(row, shift, factor, out)
    }

    fn row_max(row: &[f32]) -> f32 {
        max(row)
    }

    fn scale_row(row: &mut [f32], factor: f32) {
        scale(row, factor)
    }

    fn gelu_all(values: &mut [f32]) {
        gelu(values)
    }

    fn of(v: f64) -> f32 {
        v as f32
    }
}

impl Real for f64 {
    type Kept = Array2<f64>;

    fn keep(w: ArrayView2<f64>) -> Array2<f64> {
        w.to_owned()
    }

    fn kept_dim(w: &Array2<f64>) -> (usize, usize) {
        w.dim()
    }

    fn times(x: ArrayView2<f64>, w: &Array2<f64>) -> Array2<f64> {
        matmul_f64(x, w.view())
    }

    fn exp_shifted_sum(row: &[f64], shift: f64, factor: f64, out: &mut [f64]) -> f64 {
        let mut sum = 0.0;
        for (o, &x) in out.iter_mut().zip(row) {
            *o = ((x - shift) * factor).exp();
            sum += *o;
        }
        sum
    }

    fn row_max(row: &[f64]) -> f64 {
        row.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }

    fn scale_row(row: &mut [f64], factor: f64) {
        row.iter_mut().for_each(|v| *v *= factor);
    }

    fn gelu_all(values: &mut [f64]) {
        use std::f64::consts::FRAC_1_SQRT_2;
        values.iter_mut().for_each(|v| *v = 0.5 * *v * (1.0 + erf(*v * FRAC_1_SQRT_2)));
    }

    fn of(v: f64) -> f64 {
        v
    }
}

/// The error function, from Numerical Recipes' Chebyshev fit of erfc (fractional error below
/// 1.2e-7 everywhere).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}
