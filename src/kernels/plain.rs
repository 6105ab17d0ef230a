//! Without SIMD: the micro-kernel and the softmax pieces one value at a time; and the
//! exponential both paths share: x = n·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its Taylor series
//! to r⁷ (error below 1e-8 there), 2ⁿ built in the exponent bits.

// With SIMD compiled in, only the exponential and its constants are used from here.
#![cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]

use super::{store, Block, MR, NR};

pub const LOG2_E: f32 = std::f32::consts::LOG2_E;
/// ln 2 split in two so that n·LN2_HI is exact for the n used here.
pub const LN2_HI: f32 = 0.693_145_75;
pub const LN2_LO: f32 = 1.428_606_8e-6;
/// 1/7!, 1/6!, …, 1/1!, 1/0!: Horner's order.
pub const POLY: [f32; 8] = [1.0 / 5040.0, 1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0];
/// e^x is below f32's smallest normal number here: taken as 0.
pub const UNDERFLOW: f32 = -87.3;
/// e^x is near f32's largest number here: larger arguments are taken as this.
pub const OVERFLOW: f32 = 88.0;

/// e^x, within 2e-7 relative; 0 below [`UNDERFLOW`] and for NaN.
pub fn exp(x: f32) -> f32 {
    if x.is_nan() || x < UNDERFLOW {
        return 0.0;
    }
    // Positive arguments only arise for blocked entries, whose values are discarded: kept
    // finite, so the exponent bits below cannot overflow.
    let x = x.min(OVERFLOW);
    let n = (x * LOG2_E).round_ties_even();
    let r = x - n * LN2_HI - n * LN2_LO;
    let p = POLY[1..].iter().fold(POLY[0], |p, c| p * r + c);
    p * f32::from_bits(((n as i32 + 127) << 23) as u32)
}

/// Abramowitz & Stegun 7.1.26: erfc(z) ≈ t·(a₁ + t·(a₂ + … + t·a₅))·e^(−z²) with
/// t = 1 / (1 + p·z), for z ≥ 0, absolute error below 1.5e-7. `ERFC[0]` is p, then a₅ … a₁.
pub const ERFC: [f32; 6] = [0.327_591_1, 1.061_405_4, -1.453_152, 1.421_413_7, -0.284_496_74, 0.254_829_6];

/// x · Φ(x) = x/2 · (1 + erf(x/√2)), with 1 + erf written as erfc of |x|/√2 (or 2 minus it) so
/// that nothing cancels for negative x; absolute error below 1e-7·(1 + |x|).
pub fn gelu(x: f32) -> f32 {
    let z = x.abs() * std::f32::consts::FRAC_1_SQRT_2;
    let t = 1.0 / (1.0 + ERFC[0] * z);
    let erfc = ERFC[2..].iter().fold(ERFC[1], |p, c| p * t + c) * t * exp(-z * z);
    0.5 * x * if x >= 0.0 { 2.0 - erfc } else { erfc }
}

/// `out[p·NR + j] = q[p·NR + j] · scale[j]`, in f32 as the dequantised matrix has it.
pub fn widen(q: &[i8], scale: &[f32; NR], out: &mut [f32]) {
    for (dst, src) in out.chunks_exact_mut(NR).zip(q.chunks_exact(NR)) {
        for ((d, v), s) in dst.iter_mut().zip(src).zip(scale) {
            *d = f32::from(*v) * s;
        }
    }
}

/// C[block] = panel (k × MR, interleaved) · strip (k × NR).
pub fn kernel(panel: &[f32], strip: &[f32], k: usize, out: &mut [f32], block: Block) {
    let mut result = [0.0f32; MR * NR];
    for (a, b) in panel.chunks_exact(MR).zip(strip.chunks_exact(NR)).take(k) {
        for (row, x) in result.chunks_exact_mut(NR).zip(a) {
            for (c, y) in row.iter_mut().zip(b) {
                *c += x * y;
            }
        }
    }
    store(&result, out, block);
}

pub fn exp_shifted_sum(input: &[f32], shift: f32, scale: f32, out: &mut [f32]) -> f32 {
    let mut total = 0.0;
    for (i, o) in input.iter().zip(out.iter_mut()) {
        *o = exp((i - shift) * scale);
        total += *o;
    }
    total
}

pub fn max(values: &[f32]) -> f32 {
    values.iter().copied().fold(f32::NEG_INFINITY, f32::max)
}

pub fn scale(values: &mut [f32], factor: f32) {
    values.iter_mut().for_each(|v| *v *= factor);
}

pub fn gelu_all(values: &mut [f32]) {
    values.iter_mut().for_each(|v| *v = gelu(*v));
}
