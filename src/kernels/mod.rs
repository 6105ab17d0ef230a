//! The loops the whole core runs on, written once: the matrix product, and the pieces of the
//! softmax (the row maximum, the shifted exponentials and their sum, the rescaling).
//!
//! The product packs A into panels of MR rows (interleaved, so one pointer walks them) and B
//! into strips of NR columns, then a micro-kernel keeps an MR × NR block of C in registers while
//! it walks k and stores it straight into C. Weights are packed once and kept ([`PackedB`]), so
//! a projection packs only its input. In the browser the micro-kernel and the softmax pieces use
//! Wasm simd128 (four f32 lanes, `simd`); elsewhere the same packing runs plain loops (`plain`),
//! so the native tests exercise the packing and the edges, and the in-browser tests check the
//! lanes against them.

mod double;
mod pack;
mod plain;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd;

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
use plain as lanes;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use simd as lanes;

pub use double::matmul_f64;
use ndarray::{Array2, ArrayView2};
pub use pack::{PackedA, PackedB, BLOCK};

/// Which build of the loops runs: "simd128", "relaxed" (simd128 with relaxed SIMD's fused
/// multiply–add, the `relaxed` feature) or "plain" (natively).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub const BUILD: &str = simd::BUILD;
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub const BUILD: &str = "plain";

/// Rows × columns of C computed together by the micro-kernel. Four rows: V8 keeps about a
/// dozen vectors in x86-64 registers for Wasm code, and four rows need eight accumulators, the
/// strip's two vectors, the broadcast (and, without a fused multiply–add, the product). Five or
/// six rows spill there (measured in Chromium on this machine's Zen 3, 128 × 384 · 384 × 1536:
/// six rows 11 GFLOP/s, four rows 23 GFLOP/s; with relaxed SIMD's multiply–add five rows 14,
/// four rows 35). Blocking the depth for the caches (k = 1536 in blocks of 128–512) gained nothing.
const MR: usize = 4;
const NR: usize = 8;

/// Where a micro-kernel's MR × NR result goes in C (row-major): its first element, the row
/// stride, and how many of its rows and columns are real (the rest is padding).
#[derive(Clone, Copy)]
struct Block {
    first: usize,
    stride: usize,
    rows: usize,
    cols: usize,
}

/// C = A · B for packed operands: (m, k) · (k, n) → (m, n).
pub fn matmul_packed(a: &PackedA, b: &PackedB) -> Array2<f32> {
    let ((m, k), (k2, n)) = (a.dim(), b.dim());
    assert_eq!(k, k2, "matmul: inner dimensions differ"); // a bug in the core, never user input
    let mut c = Array2::zeros((m, n));
    let Some(out) = c.as_slice_mut() else { return c };
    if m == 0 || n == 0 || k == 0 {
        return c;
    }
    // Strip by strip of B: each strip stays in the L1 cache while every panel of A meets it.
    let mut scratch = Vec::new();
    for s in 0..b.strip_count() {
        let (strip, j0) = (b.strip(s, &mut scratch), s * NR);
        for (p, panel) in a.panels().enumerate() {
            let i0 = p * MR;
            let block = Block { first: i0 * n + j0, stride: n, rows: MR.min(m - i0), cols: NR.min(n - j0) };
            lanes::kernel(panel, strip, k, out, block);
        }
    }
    c
}

/// C = A · B: (m, k) · (k, n) → (m, n). Any strides.
pub fn matmul(a: ArrayView2<f32>, b: ArrayView2<f32>) -> Array2<f32> {
    matmul_packed(&PackedA::new(a), &PackedB::new(b))
}

/// C = A · Bᵀ: (m, k) · (n, k)ᵀ → (m, n), e.g. the scores Q Kᵀ.
pub fn matmul_t(a: ArrayView2<f32>, b: ArrayView2<f32>) -> Array2<f32> {
    matmul(a, b.t())
}

/// Write an MR × NR result (row-major) into C where `block` says, dropping the padding.
fn store(result: &[f32; MR * NR], out: &mut [f32], block: Block) {
    for (r, row) in result.chunks_exact(NR).take(block.rows).enumerate() {
        let at = block.first + r * block.stride;
        out[at..at + block.cols].copy_from_slice(&row[..block.cols]);
    }
}

/// e^x for x ≤ 0 (a logit minus its row's maximum, times 1/T): relative error below 2e-7,
/// exactly 0 below −87.3 (where f32 underflows) and 1 at 0; above 88 it stays at e^88.
pub fn exp_nonpositive(x: f32) -> f32 {
    plain::exp(x)
}

/// `out[j] = e^((in[j] − shift)·scale)` and the sum of `out`. The softmax calls it with shift =
/// the row's maximum and scale = 1/T, so every exponent is ≤ 0 and nothing overflows.
pub fn exp_shifted_sum(input: &[f32], shift: f32, scale: f32, out: &mut [f32]) -> f32 {
    lanes::exp_shifted_sum(input, shift, scale, out)
}

/// The largest value of `values` (−∞ for none); the values must not be NaN.
pub fn max(values: &[f32]) -> f32 {
    lanes::max(values)
}

/// Multiply every value by `factor`.
pub fn scale(values: &mut [f32], factor: f32) {
    lanes::scale(values, factor)
}

/// GELU as BERT has it, x · Φ(x), in place: within 1e-7·(1 + |x|) of the exact value.
pub fn gelu(values: &mut [f32]) {
    lanes::gelu_all(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{s, Array2};

    fn naive(a: &Array2<f32>, b: &Array2<f32>) -> Array2<f32> {
        Array2::from_shape_fn((a.nrows(), b.ncols()), |(i, j)| (0..a.ncols()).map(|p| a[[i, p]] * b[[p, j]]).sum())
    }

    /// Values in [−1, 1) from a small linear congruential stream fixed by `seed`.
    fn sample(rows: usize, cols: usize, seed: u64) -> Array2<f32> {
        let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        Array2::from_shape_simple_fn((rows, cols), || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
    }

    #[test]
    fn matmul_matches_the_definition_at_every_edge() {
        // Sizes around the 4 × 8 blocks: remainders of rows and columns, k of 1, empty.
        for (m, k, n) in [(1, 1, 1), (3, 5, 7), (6, 8, 8), (7, 9, 17), (13, 64, 33), (0, 3, 4), (6, 0, 5)] {
            let (a, b) = (sample(m, k, 1), sample(k, n, 2));
            let (got, want) = (matmul(a.view(), b.view()), naive(&a, &b));
            assert_eq!(got.dim(), (m, n));
            let err = got.iter().zip(&want).map(|(g, w)| (g - w).abs()).fold(0.0f32, f32::max);
            assert!(err < 1e-4, "{m}×{k}·{k}×{n}: max error {err}");
        }
    }

    #[test]
    fn int8_strips_multiply_exactly_as_their_dequantised_matrix() {
        // W (n × k) int8 per row with a scale per row, as the model file stores a Linear layer;
        // B = Wᵀ. Widths around the 8-column strips, and a row of zeros.
        for (m, k, n) in [(1, 1, 1), (5, 3, 7), (4, 16, 8), (9, 33, 17)] {
            let q: Vec<i8> = (0..n * k).map(|i| ((i * 37 + 11) % 255) as u8 as i8).collect();
            let scales: Vec<f32> = (0..n).map(|j| if j == 2 { 0.0 } else { 0.013 + j as f32 * 0.0007 }).collect();
            let w = Array2::from_shape_fn((n, k), |(j, p)| f32::from(q[j * k + p]) * scales[j]);
            let Some(packed) = PackedB::from_int8_rows(n, k, &scales, &q) else { panic!("lengths match") };
            assert_eq!(packed.dim(), (k, n));
            assert_eq!(packed.unpacked(), w.t(), "{n}×{k}: read back");
            let a = sample(m, k, 5);
            let want = matmul_packed(&PackedA::new(a.view()), &PackedB::new(w.t()));
            assert_eq!(matmul_packed(&PackedA::new(a.view()), &packed), want, "{m}×{k}·{k}×{n}");
        }
        assert_eq!(PackedB::from_int8_rows(2, 3, &[1.0], &[0; 6]), None);
        assert_eq!(PackedB::from_int8_rows(2, 3, &[1.0, 1.0], &[0; 5]), None);
    }

    #[test]
    fn block_scaled_strips_multiply_exactly_as_their_dequantised_matrix() {
        // W (n × k) int8 −8…7 with a scale per 32 entries of a row, as a 4-bit model file stores
        // a Linear layer; B = Wᵀ. Widths around the 8-column strips, one and several blocks.
        for (m, k, n) in [(1, 32, 1), (5, 64, 7), (4, 32, 8), (9, 96, 17)] {
            let blocks = k / BLOCK;
            let q: Vec<i8> = (0..n * k).map(|i| ((i * 37 + 11) % 16) as i8 - 8).collect();
            let scales: Vec<f32> =
                (0..n * blocks).map(|i| if i == 3 { 0.0 } else { 0.01 + i as f32 * 0.003 }).collect();
            let w = Array2::from_shape_fn((n, k), |(j, p)| f32::from(q[j * k + p]) * scales[j * blocks + p / BLOCK]);
            let Some(packed) = PackedB::from_block_rows(n, k, &scales, &q) else { panic!("lengths match") };
            assert_eq!(packed.dim(), (k, n));
            assert_eq!(packed.unpacked(), w.t(), "{n}×{k}: read back");
            let a = sample(m, k, 5);
            let want = matmul_packed(&PackedA::new(a.view()), &PackedB::new(w.t()));
            assert_eq!(matmul_packed(&PackedA::new(a.view()), &packed), want, "{m}×{k}·{k}×{n}");
        }
        assert_eq!(PackedB::from_block_rows(1, 31, &[1.0], &[0; 31]), None, "k not whole blocks");
        assert_eq!(PackedB::from_block_rows(2, 32, &[1.0], &[0; 64]), None, "a scale short");
        assert_eq!(PackedB::from_block_rows(2, 32, &[1.0, 1.0], &[0; 63]), None, "a value short");
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
    fn max_and_scale_over_lanes_and_remainders() {
        let v: Vec<f32> = (0..11).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
        assert_eq!(max(&v), 5.0);
        assert_eq!(max(&[]), f32::NEG_INFINITY);
        let mut w = v.clone();
        scale(&mut w, 0.5);
        assert!(w.iter().zip(&v).all(|(a, b)| *a == b * 0.5));
    }

    #[test]
    fn gelu_is_x_times_the_normal_cdf() {
        // Φ from the tables (15 digits); far out GELU is x and 0, and GELU(0) = 0.
        let cdf = [(0.5, 0.691_462_461_274_013), (1.0, 0.841_344_746_068_543), (-1.0, 0.158_655_253_931_457)];
        let cdf = cdf.into_iter().chain([(1.96, 0.975_002_104_851_780), (-3.0, 0.001_349_898_031_630_09)]);
        let cdf = cdf.chain([(2.0, 0.977_249_868_051_821), (-0.25, 0.401_293_674_317_076)]);
        for (x, phi) in cdf {
            let mut v = [x as f32];
            gelu(&mut v);
            let want = x * phi;
            assert!((v[0] as f64 - want).abs() < 1e-7 * (1.0 + x.abs()), "GELU({x}) = {}, want {want}", v[0]);
        }
        let mut v = [0.0f32, 30.0, -30.0, 0.0, 0.0];
        gelu(&mut v);
        assert_eq!(v, [0.0, 30.0, 0.0, 0.0, 0.0]);
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
