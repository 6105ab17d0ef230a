//! The loops the whole core runs on, written once: the matrix product (blocked, with the B
//! panel packed) and the exponential of the softmax. In the browser they use Wasm simd128
//! (four f32 lanes); elsewhere the same blocking runs a plain micro-kernel, so the native
//! tests exercise the packing and the edges, and the in-browser tests check the SIMD lanes
//! against it.

use ndarray::{Array2, ArrayView2};

/// Rows × columns of C computed together by the micro-kernel.
const MR: usize = 4;
const NR: usize = 8;

/// C = A · B: (m, k) · (k, n) → (m, n). Any strides.
pub fn matmul(a: ArrayView2<f32>, b: ArrayView2<f32>) -> Array2<f32> {
    let ((m, k), (k2, n)) = (a.dim(), b.dim());
    assert_eq!(k, k2, "matmul: inner dimensions differ"); // a bug in the core, never user input
    let a = Rows::of(a);
    let mut c = Array2::zeros((m, n));
    let Some(out) = c.as_slice_mut() else { return c };
    // B's columns in strips of NR, each packed contiguously (k × NR) and reused by every
    // block of MR rows of A while it sits in the L1 cache.
    let mut panel = vec![0.0f32; k * NR];
    for j0 in (0..n).step_by(NR) {
        let width = NR.min(n - j0);
        for (p, row) in panel.chunks_exact_mut(NR).enumerate() {
            for (jj, slot) in row.iter_mut().enumerate() {
                *slot = if jj < width { b[[p, j0 + jj]] } else { 0.0 };
            }
        }
        let mut i0 = 0;
        while i0 < m {
            let height = MR.min(m - i0);
            let mut acc = [[0.0f32; NR]; MR];
            if height == MR {
                micro::kernel(&a, i0, &panel, k, &mut acc);
            } else {
                for (r, acc_row) in acc.iter_mut().enumerate().take(height) {
                    let a_row = a.row(i0 + r);
                    for (p, b_row) in panel.chunks_exact(NR).enumerate() {
                        let x = a_row[p];
                        for (c, bv) in acc_row.iter_mut().zip(b_row) {
                            *c += x * bv;
                        }
                    }
                }
            }
            for (r, acc_row) in acc.iter().enumerate().take(height) {
                out[(i0 + r) * n + j0..(i0 + r) * n + j0 + width].copy_from_slice(&acc_row[..width]);
            }
            i0 += MR;
        }
    }
    c
}

/// C = A · Bᵀ: (m, k) · (n, k)ᵀ → (m, n), e.g. the scores Q Kᵀ.
pub fn matmul_t(a: ArrayView2<f32>, b: ArrayView2<f32>) -> Array2<f32> {
    matmul(a, b.t())
}

/// A matrix whose rows are contiguous slices: borrowed when they already are, else copied.
struct Rows<'a> {
    data: std::borrow::Cow<'a, [f32]>,
    /// Distance between the starts of two rows.
    stride: usize,
    cols: usize,
}

impl<'a> Rows<'a> {
    fn of(m: ArrayView2<'a, f32>) -> Self {
        let (rows, cols) = m.dim();
        let strides = m.strides();
        let contiguous_rows = cols <= 1 || strides[1] == 1;
        if contiguous_rows && rows > 0 && strides[0] >= 0 {
            let stride = if rows > 1 { strides[0] as usize } else { cols };
            let len = (rows - 1) * stride + cols;
            // SAFETY: the view's elements lie at ptr + r·stride + c for r < rows, c < cols,
            // all inside one allocation, so these `len` elements are readable and no `&mut`
            // to them exists while the view lives.
            let slice = unsafe { std::slice::from_raw_parts(m.as_ptr(), len) };
            return Rows { data: std::borrow::Cow::Borrowed(slice), stride, cols };
        }
        let owned: Vec<f32> = m.iter().copied().collect();
        Rows { data: std::borrow::Cow::Owned(owned), stride: cols, cols }
    }

    fn row(&self, r: usize) -> &[f32] {
        &self.data[r * self.stride..r * self.stride + self.cols]
    }
}

/// e^x for x ≤ 0 (a logit minus its row's maximum, times 1/T): relative error below 2e-7,
/// exactly 0 below −87.3 (where f32 underflows) and 1 at 0; above 88 it stays at e^88.
pub fn exp_nonpositive(x: f32) -> f32 {
    micro::exp_scalar(x)
}

/// `out[j] = e^((in[j] − shift)·scale)`, four lanes at a time where the browser can, and the
/// sum of `out`. The softmax calls it with shift = the row's maximum and scale = 1/T, so every
/// exponent is ≤ 0 and nothing overflows.
pub fn exp_shifted_sum(input: &[f32], shift: f32, scale: f32, out: &mut [f32]) -> f32 {
    micro::exp_shifted_sum(input, shift, scale, out)
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod micro {
    //! Wasm simd128: four f32 lanes.
    use super::{Rows, MR, NR};
    use core::arch::wasm32::*;

    /// acc (MR × NR) = A[i0..i0+MR, 0..k] · panel (k × NR, packed).
    pub fn kernel(a: &Rows, i0: usize, panel: &[f32], k: usize, acc: &mut [[f32; NR]; MR]) {
        let rows = [a.row(i0), a.row(i0 + 1), a.row(i0 + 2), a.row(i0 + 3)];
        let mut c = [f32x4_splat(0.0); 8];
        for p in 0..k {
            // SAFETY: panel holds k × NR floats, so [p·NR, p·NR + 8) is in bounds; v128_load
            // has no alignment requirement.
            let (b0, b1) = unsafe {
                let at = panel.as_ptr().add(p * NR) as *const v128;
                (v128_load(at), v128_load(at.add(1)))
            };
            for r in 0..MR {
                let x = f32x4_splat(rows[r][p]);
                c[2 * r] = f32x4_add(c[2 * r], f32x4_mul(x, b0));
                c[2 * r + 1] = f32x4_add(c[2 * r + 1], f32x4_mul(x, b1));
            }
        }
        for r in 0..MR {
            for (half, v) in [c[2 * r], c[2 * r + 1]].into_iter().enumerate() {
                acc[r][4 * half] = f32x4_extract_lane::<0>(v);
                acc[r][4 * half + 1] = f32x4_extract_lane::<1>(v);
                acc[r][4 * half + 2] = f32x4_extract_lane::<2>(v);
                acc[r][4 * half + 3] = f32x4_extract_lane::<3>(v);
            }
        }
    }

    pub use super::plain::exp_scalar;

    /// Four lanes of [`exp_scalar`].
    fn exp4(x: v128) -> v128 {
        let x = f32x4_min(f32x4_max(x, f32x4_splat(-87.5)), f32x4_splat(super::plain::OVERFLOW));
        let n = f32x4_nearest(f32x4_mul(x, f32x4_splat(super::plain::LOG2_E)));
        let r = f32x4_sub(
            f32x4_sub(x, f32x4_mul(n, f32x4_splat(super::plain::LN2_HI))),
            f32x4_mul(n, f32x4_splat(super::plain::LN2_LO)),
        );
        let mut p = f32x4_splat(super::plain::POLY[0]);
        for &coefficient in &super::plain::POLY[1..] {
            p = f32x4_add(f32x4_mul(p, r), f32x4_splat(coefficient));
        }
        let scale = i32x4_shl(i32x4_add(i32x4_trunc_sat_f32x4(n), i32x4_splat(127)), 23);
        let e = f32x4_mul(p, scale);
        // Below −87.3 the true value underflows: 0, as the plain path gives.
        v128_and(e, f32x4_ge(x, f32x4_splat(super::plain::UNDERFLOW)))
    }

    pub fn exp_shifted_sum(input: &[f32], shift: f32, scale: f32, out: &mut [f32]) -> f32 {
        let (s, t) = (f32x4_splat(scale), f32x4_splat(shift));
        let mut sum = f32x4_splat(0.0);
        let mut chunks_in = input.chunks_exact(4);
        let mut chunks_out = out.chunks_exact_mut(4);
        for (i, o) in (&mut chunks_in).zip(&mut chunks_out) {
            // SAFETY: both chunks hold exactly four floats; unaligned loads and stores.
            unsafe {
                let e = exp4(f32x4_mul(f32x4_sub(v128_load(i.as_ptr() as *const v128), t), s));
                v128_store(o.as_mut_ptr() as *mut v128, e);
                sum = f32x4_add(sum, e);
            }
        }
        let mut total = f32x4_extract_lane::<0>(sum)
            + f32x4_extract_lane::<1>(sum)
            + f32x4_extract_lane::<2>(sum)
            + f32x4_extract_lane::<3>(sum);
        for (i, o) in chunks_in.remainder().iter().zip(chunks_out.into_remainder()) {
            *o = exp_scalar((i - shift) * scale);
            total += *o;
        }
        total
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod micro {
    //! Without SIMD: the same arithmetic, one value at a time.
    use super::{Rows, MR, NR};

    /// acc (MR × NR) = A[i0..i0+MR, 0..k] · panel (k × NR, packed).
    pub fn kernel(a: &Rows, i0: usize, panel: &[f32], k: usize, acc: &mut [[f32; NR]; MR]) {
        for (r, acc_row) in acc.iter_mut().enumerate() {
            let a_row = a.row(i0 + r);
            for (p, b_row) in panel.chunks_exact(NR).take(k).enumerate() {
                let x = a_row[p];
                for (c, b) in acc_row.iter_mut().zip(b_row) {
                    *c += x * b;
                }
            }
        }
    }

    pub use super::plain::exp_scalar;

    pub fn exp_shifted_sum(input: &[f32], shift: f32, scale: f32, out: &mut [f32]) -> f32 {
        let mut total = 0.0;
        for (i, o) in input.iter().zip(out.iter_mut()) {
            *o = exp_scalar((i - shift) * scale);
            total += *o;
        }
        total
    }
}

mod plain {
    //! The exponential both paths share: x = n·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its
    //! Taylor series to r⁷ (error below 1e-8 there), 2ⁿ built in the exponent bits.
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

    pub fn exp_scalar(x: f32) -> f32 {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{s, Array2};

    fn naive(a: &Array2<f32>, b: &Array2<f32>) -> Array2<f32> {
        Array2::from_shape_fn((a.nrows(), b.ncols()), |(i, j)| (0..a.ncols()).map(|p| a[[i, p]] * b[[p, j]]).sum())
    }

    fn sample(rows: usize, cols: usize, seed: u64) -> Array2<f32> {
        crate::core::rng::normal_matrix(rows, cols, seed, 9)
    }

    #[test]
    fn matmul_matches_the_definition_at_every_edge() {
        // Sizes around the 4 × 8 blocks: remainders of rows and columns, k of 1, empty.
        for (m, k, n) in [(1, 1, 1), (3, 5, 7), (4, 8, 8), (5, 9, 17), (13, 64, 33), (0, 3, 4), (4, 0, 5)] {
            let (a, b) = (sample(m, k, 1), sample(k, n, 2));
            let (got, want) = (matmul(a.view(), b.view()), naive(&a, &b));
            assert_eq!(got.dim(), (m, n));
            let err = got.iter().zip(&want).map(|(g, w)| (g - w).abs()).fold(0.0f32, f32::max);
            assert!(err < 1e-4, "{m}×{k}·{k}×{n}: max error {err}");
        }
    }

    #[test]
    fn strided_views_give_the_same_product() {
        // A head's columns of Q and K: rows 64 apart, 16 wide, as multi-head attention slices them.
        let (q, k) = (sample(11, 64, 3), sample(9, 64, 4));
        let (qh, kh) = (q.slice(s![.., 16..32]), k.slice(s![.., 16..32]));
        let got = matmul_t(qh, kh);
        let want = naive(&qh.to_owned(), &kh.t().to_owned());
        assert!(got.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-4));
    }

    #[test]
    fn exp_is_accurate_where_softmax_uses_it() {
        // 3/2 = 1.5: e^0 = 1 exactly; e^−ln 2 = 1/2; the underflow edge is 0.
        assert_eq!(exp_nonpositive(0.0), 1.0);
        assert!((exp_nonpositive(-std::f32::consts::LN_2) - 0.5).abs() < 1e-7);
        assert_eq!((exp_nonpositive(-90.0), exp_nonpositive(f32::NEG_INFINITY)), (0.0, 0.0));
        let worst = (0..=20_000)
            .map(|i| -87.0 * i as f32 / 20_000.0)
            .map(|x| ((exp_nonpositive(x) as f64 - (x as f64).exp()) / (x as f64).exp()).abs())
            .fold(0.0, f64::max);
        assert!(worst < 2e-7, "worst relative error {worst}");
    }

    #[test]
    fn shifted_exponentials_and_their_sum() {
        let input = [3.0f32, 2.0, 1.0, 0.0, -1.0, 2.5];
        let mut out = [0.0f32; 6];
        // e^((x − 3)·0.5): 1, e^−0.5, e^−1, …
        let sum = exp_shifted_sum(&input, 3.0, 0.5, &mut out);
        for (x, o) in input.iter().zip(out) {
            let want = ((x - 3.0) * 0.5).exp();
            assert!((o - want).abs() < 2e-7 * want, "{x}: {o} vs {want}");
        }
        assert!((sum - out.iter().sum::<f32>()).abs() < 1e-6);
    }
}
