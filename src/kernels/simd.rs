//! Wasm simd128: the micro-kernel and the softmax pieces four f32 lanes at a time.

use super::plain::{ERFC, LN2_HI, LN2_LO, LOG2_E, OVERFLOW, POLY, UNDERFLOW};
use super::{store, Block, MR, NR};
use core::arch::wasm32::*;

/// c + a · b in four lanes: one fused multiply–add where the build has relaxed SIMD (the
/// `relaxed` feature: the engine may round once or twice, both within the tests' tolerance),
/// else a product and a sum.
#[inline(always)]
fn madd(a: v128, b: v128, c: v128) -> v128 {
    #[cfg(feature = "relaxed")]
    return f32x4_relaxed_madd(a, b, c);
    #[cfg(not(feature = "relaxed"))]
    f32x4_add(c, f32x4_mul(a, b))
}

/// Which build of the lanes this is, as the benchmark's lines say it.
pub const BUILD: &str = if cfg!(feature = "relaxed") { "relaxed" } else { "simd128" };

/// C[block] = panel (k × MR, interleaved) · strip (k × NR). MR × 2 accumulators (each row's
/// two 4-lane halves) stay in registers; each step loads two vectors of the strip and
/// broadcasts MR numbers of the panel straight from memory.
#[cfg_attr(feature = "relaxed", target_feature(enable = "relaxed-simd"))]
pub fn kernel(panel: &[f32], strip: &[f32], k: usize, out: &mut [f32], block: Block) {
    assert!(panel.len() >= k * MR && strip.len() >= k * NR); // once per block, never fails
    let mut c = [f32x4_splat(0.0); 2 * MR];
    // SAFETY: the panel holds k × MR floats and the strip k × NR (checked above), so a[0..MR]
    // and b[0..NR] are in bounds at every step p < k; the loads are unaligned.
    unsafe {
        let (mut a, mut b) = (panel.as_ptr(), strip.as_ptr());
        for _ in 0..k {
            let (b0, b1) = (v128_load(b as *const v128), v128_load(b.add(4) as *const v128));
            for r in 0..MR {
                let x = v128_load32_splat(a.add(r) as *const u32);
                c[2 * r] = madd(x, b0, c[2 * r]);
                c[2 * r + 1] = madd(x, b1, c[2 * r + 1]);
            }
            a = a.add(MR);
            b = b.add(NR);
        }
    }
    if block.rows == MR && block.cols == NR {
        for (r, pair) in c.chunks_exact(2).enumerate() {
            let at = block.first + r * block.stride;
            let row = &mut out[at..at + NR];
            // SAFETY: `row` holds exactly NR = 8 floats; the stores are unaligned.
            unsafe {
                v128_store(row.as_mut_ptr() as *mut v128, pair[0]);
                v128_store(row.as_mut_ptr().add(4) as *mut v128, pair[1]);
            }
        }
    } else {
        let mut result = [0.0f32; MR * NR];
        for (dst, v) in result.chunks_exact_mut(4).zip(c) {
            // SAFETY: `dst` holds exactly four floats.
            unsafe { v128_store(dst.as_mut_ptr() as *mut v128, v) };
        }
        store(&result, out, block);
    }
}

/// `out[p·NR + j] = q[p·NR + j] · scale[j]` (NR = 8 columns): each int8 row of the strip widened
/// to i16, i32 and f32 (exact) and multiplied by its column's scale (the one rounding, as the
/// dequantised matrix has it).
pub fn widen(q: &[i8], scale: &[f32; NR], out: &mut [f32]) {
    // SAFETY: `scale` holds NR = 8 floats; each step reads 8 bytes of `q` and writes 8 floats
    // of `out`, both whole chunks of NR; the loads and stores are unaligned.
    unsafe {
        let (s0, s1) = (v128_load(scale.as_ptr() as *const v128), v128_load(scale.as_ptr().add(4) as *const v128));
        for (dst, src) in out.chunks_exact_mut(NR).zip(q.chunks_exact(NR)) {
            let wide = i16x8_extend_low_i8x16(v128_load64_zero(src.as_ptr() as *const u64));
            let lo = f32x4_convert_i32x4(i32x4_extend_low_i16x8(wide));
            let hi = f32x4_convert_i32x4(i32x4_extend_high_i16x8(wide));
            v128_store(dst.as_mut_ptr() as *mut v128, f32x4_mul(lo, s0));
            v128_store(dst.as_mut_ptr().add(4) as *mut v128, f32x4_mul(hi, s1));
        }
    }
}

/// 1.5 · 2²³ + 127: added to a float of size below 2²², it rounds it to the nearest integer
/// (ties to even) and leaves that integer plus 127 in the low mantissa bits.
const ROUNDER: f32 = 12_582_912.0 + 127.0;

/// Four lanes of [`super::plain::exp`]: the same reduction, polynomial and limits. Written with
/// the instructions that map one-to-one onto x86 and ARM (pmin/pmax, adds, a shift).
#[inline(always)]
fn exp4(x: v128) -> v128 {
    let x = f32x4_pmin(f32x4_pmax(x, f32x4_splat(-87.5)), f32x4_splat(OVERFLOW));
    // t = n + 127 + 1.5·2²³ with n = round(x·log₂e); its low bits, shifted into the exponent
    // field, are 2ⁿ (the high bits fall off the top).
    let t = f32x4_add(f32x4_mul(x, f32x4_splat(LOG2_E)), f32x4_splat(ROUNDER));
    let n = f32x4_sub(t, f32x4_splat(ROUNDER));
    let r = f32x4_sub(f32x4_sub(x, f32x4_mul(n, f32x4_splat(LN2_HI))), f32x4_mul(n, f32x4_splat(LN2_LO)));
    let step = |p: v128, c: f32| f32x4_add(f32x4_mul(p, r), f32x4_splat(c));
    let p = step(
        step(step(step(step(step(step(f32x4_splat(POLY[0]), POLY[1]), POLY[2]), POLY[3]), POLY[4]), POLY[5]), POLY[6]),
        POLY[7],
    );
    let two_n = i32x4_shl(t, 23);
    // Below the underflow limit the true value is not a normal f32: 0, as the plain path gives.
    v128_and(f32x4_mul(p, two_n), f32x4_ge(x, f32x4_splat(UNDERFLOW)))
}

/// Four lanes added up.
#[inline(always)]
fn lanes_sum(v: v128) -> f32 {
    f32x4_extract_lane::<0>(v) + f32x4_extract_lane::<1>(v) + f32x4_extract_lane::<2>(v) + f32x4_extract_lane::<3>(v)
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
    let mut total = lanes_sum(sum);
    for (i, o) in chunks_in.remainder().iter().zip(chunks_out.into_remainder()) {
        *o = super::plain::exp((i - shift) * scale);
        total += *o;
    }
    total
}

pub fn max(values: &[f32]) -> f32 {
    let mut chunks = values.chunks_exact(4);
    let mut m = f32x4_splat(f32::NEG_INFINITY);
    for c in &mut chunks {
        // SAFETY: the chunk holds exactly four floats.
        m = f32x4_pmax(m, unsafe { v128_load(c.as_ptr() as *const v128) });
    }
    let lanes = [
        f32x4_extract_lane::<0>(m),
        f32x4_extract_lane::<1>(m),
        f32x4_extract_lane::<2>(m),
        f32x4_extract_lane::<3>(m),
    ];
    lanes.into_iter().chain(chunks.remainder().iter().copied()).fold(f32::NEG_INFINITY, f32::max)
}

pub fn scale(values: &mut [f32], factor: f32) {
    let f = f32x4_splat(factor);
    let mut chunks = values.chunks_exact_mut(4);
    for c in &mut chunks {
        // SAFETY: the chunk holds exactly four floats.
        unsafe {
            let p = c.as_mut_ptr() as *mut v128;
            v128_store(p, f32x4_mul(v128_load(p), f));
        }
    }
    chunks.into_remainder().iter_mut().for_each(|v| *v *= factor);
}

pub fn gelu_all(values: &mut [f32]) {
    let (half, one, two) = (f32x4_splat(0.5), f32x4_splat(1.0), f32x4_splat(2.0));
    let mut chunks = values.chunks_exact_mut(4);
    for c in &mut chunks {
        // SAFETY: the chunk holds exactly four floats; unaligned load and store.
        unsafe {
            let p = c.as_mut_ptr() as *mut v128;
            let x = v128_load(p);
            let z = f32x4_mul(f32x4_abs(x), f32x4_splat(std::f32::consts::FRAC_1_SQRT_2));
            let t = f32x4_div(one, f32x4_add(one, f32x4_mul(f32x4_splat(ERFC[0]), z)));
            let poly = ERFC[2..].iter().fold(f32x4_splat(ERFC[1]), |p, &c| f32x4_add(f32x4_mul(p, t), f32x4_splat(c)));
            let erfc = f32x4_mul(f32x4_mul(poly, t), exp4(f32x4_neg(f32x4_mul(z, z))));
            let cdf2 = v128_bitselect(f32x4_sub(two, erfc), erfc, f32x4_ge(x, f32x4_splat(0.0)));
            v128_store(p, f32x4_mul(f32x4_mul(half, x), cdf2));
        }
    }
    chunks.into_remainder().iter_mut().for_each(|v| *v = super::plain::gelu(*v));
}
