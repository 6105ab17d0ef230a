//! The kernels in the browser (wasm-bindgen-test, in headless Chromium and Firefox), in the
//! build the page runs (simd128) and, with `--features relaxed`, the forward worker's
//! relaxed-SIMD build (a test of the core crate, so that it builds without the site):
//! each agrees with the definitions and with ONNX Runtime's fixtures within float tolerance.
#![cfg(target_arch = "wasm32")]

// The fixtures' format and comparison, shared with the site's native golden test; it names
// the core as `super::core`.
use attention_core as core;
#[path = "../../../tests/common/fixture.rs"]
mod fixture;
use fixture as common;

use attention_core::kernels::{
    exp_shifted_sum, gelu, matmul, matmul_f64, matmul_packed, matmul_t, PackedA, PackedB, BUILD,
};
use attention_core::real::erf;
use attention_core::rng::normal_matrix;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The reference fixtures made with ONNX Runtime that are small enough to build into the test
/// (the two d_k = 256 ones, 3.6 MB each, run natively in `tests/golden.rs`).
const FIXTURES: [(&str, &str); 13] = [
    ("causal_4heads", include_str!("../../../tests/fixtures/causal_4heads.json")),
    ("causal_single_token", include_str!("../../../tests/fixtures/causal_single_token.json")),
    ("cross_causal_nq5_nkv8", include_str!("../../../tests/fixtures/cross_causal_nq5_nkv8.json")),
    ("cross_nq3_nkv7", include_str!("../../../tests/fixtures/cross_nq3_nkv7.json")),
    ("cross_nq9_nkv2", include_str!("../../../tests/fixtures/cross_nq9_nkv2.json")),
    ("dk1_four_heads", include_str!("../../../tests/fixtures/dk1_four_heads.json")),
    ("magnitude30", include_str!("../../../tests/fixtures/magnitude30.json")),
    ("magnitude30_unscaled_causal", include_str!("../../../tests/fixtures/magnitude30_unscaled_causal.json")),
    ("n64_4heads", include_str!("../../../tests/fixtures/n64_4heads.json")),
    ("n64_causal_8heads", include_str!("../../../tests/fixtures/n64_causal_8heads.json")),
    ("single_token", include_str!("../../../tests/fixtures/single_token.json")),
    ("tiny_two_heads", include_str!("../../../tests/fixtures/tiny_two_heads.json")),
    ("unscaled_dk64_causal", include_str!("../../../tests/fixtures/unscaled_dk64_causal.json")),
];

#[wasm_bindgen_test]
fn the_build_is_the_one_asked_for() {
    assert_eq!(BUILD, if cfg!(feature = "relaxed") { "relaxed" } else { "simd128" });
}

#[wasm_bindgen_test]
fn the_simd_core_in_the_browser_matches_onnx_runtime() {
    // The same check as tests/golden.rs, but through the Wasm SIMD kernels the page runs.
    for (name, text) in FIXTURES {
        let fixture: common::Fixture = serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let failures = common::check(&fixture);
        assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
    }
}

#[wasm_bindgen_test]
fn simd_kernels_agree_with_the_definitions() {
    // Products around the 4 × 8 blocks, and a strided (per-head) view.
    for (m, k, n) in [(1, 1, 1), (4, 8, 8), (5, 9, 17), (7, 9, 17), (13, 64, 33), (64, 64, 64)] {
        let (a, b) = (normal_matrix(m, k, 1, 1), normal_matrix(k, n, 1, 2));
        let got = matmul(a.view(), b.view());
        for ((i, j), g) in got.indexed_iter() {
            let want: f32 = (0..k).map(|p| a[[i, p]] * b[[p, j]]).sum();
            assert!((g - want).abs() < 1e-4, "{m}×{k}·{k}×{n} at ({i},{j}): {g} vs {want}");
        }
    }
    let q = normal_matrix(7, 32, 3, 1);
    let head = q.slice(ndarray::s![.., 8..16]);
    let s = matmul_t(head, head);
    assert!((s[[2, 2]] - head.row(2).dot(&head.row(2))).abs() < 1e-4);
    // Four lanes and a remainder of exponentials, against f64.
    let input: Vec<f32> = (0..11).map(|i| -0.7 * i as f32).collect();
    let mut out = vec![0.0f32; 11];
    let sum = exp_shifted_sum(&input, 0.0, 1.0, &mut out);
    for (x, e) in input.iter().zip(&out) {
        let want = (*x as f64).exp();
        assert!(((*e as f64) - want).abs() <= 2e-7 * want, "e^{x} = {e}, want {want}");
    }
    assert!((sum - out.iter().sum::<f32>()).abs() < 1e-6);
}

#[wasm_bindgen_test]
fn int8_weights_widen_in_lanes_to_their_exact_values() {
    // Every int8 value (−128…127) in a 256 × 20 weight, scaled per row: widened in the lanes and
    // multiplied, it must give the very product of the dequantised f32 matrix.
    let (n, k) = (20, 256);
    let q: Vec<i8> = (0..n * k).map(|i| ((i % k) as u8).wrapping_add((i / k) as u8) as i8).collect();
    let scales: Vec<f32> = (0..n).map(|j| 0.004 + j as f32 * 1e-4).collect();
    let w = ndarray::Array2::from_shape_fn((n, k), |(j, p)| f32::from(q[j * k + p]) * scales[j]);
    let Some(packed) = PackedB::from_int8_rows(n, k, &scales, &q) else { panic!("lengths match") };
    assert_eq!(packed.unpacked(), w.t());
    let a = normal_matrix(6, k, 1, 9);
    let want = matmul_packed(&PackedA::new(a.view()), &PackedB::new(w.t()));
    assert_eq!(matmul_packed(&PackedA::new(a.view()), &packed), want);
}

#[wasm_bindgen_test]
fn the_f64_product_in_lanes_sums_in_the_definitions_order() {
    // Training's shapes: rows and columns around the 2 × 8 blocks, through transposed views on
    // either side (Xᵀ · dQ, dX · Wᵀ), and a column slice (one head's Q_h). Summed p = 0, 1, …
    // with no fused multiply–add, every entry equals the plain loop's exactly.
    let naive = |a: ndarray::ArrayView2<f64>, b: ndarray::ArrayView2<f64>| {
        ndarray::Array2::from_shape_fn((a.nrows(), b.ncols()), |(i, j)| {
            (0..a.ncols()).fold(0.0, |sum, p| sum + a[[i, p]] * b[[p, j]])
        })
    };
    let wide = |m: usize, n: usize, salt: u64| normal_matrix(m, n, 3, salt).mapv(f64::from);
    for (m, k, n) in [(1, 1, 1), (3, 5, 7), (16, 16, 16), (17, 32, 11), (8, 128, 512), (2, 0, 3)] {
        let (a, b) = (wide(m, k, 1), wide(k, n, 2));
        assert_eq!(matmul_f64(a.view(), b.view()), naive(a.view(), b.view()), "{m}×{k}·{k}×{n}");
        let (at, bt) = (wide(k, m, 3), wide(n, k, 4));
        assert_eq!(matmul_f64(at.t(), b.view()), naive(at.t(), b.view()), "Aᵀ {m}×{k}·{k}×{n}");
        assert_eq!(matmul_f64(a.view(), bt.t()), naive(a.view(), bt.t()), "Bᵀ {m}×{k}·{k}×{n}");
    }
    let q = wide(9, 64, 5);
    let head = q.slice(ndarray::s![.., 16..32]);
    let w = wide(16, 24, 6);
    assert_eq!(matmul_f64(head, w.view()), naive(head, w.view()));
}

#[wasm_bindgen_test]
fn gelu_in_lanes_agrees_with_the_f64_definition() {
    // Four lanes and a remainder, over the range BERT's hidden values take and beyond.
    let x: Vec<f32> = (0..=4001).map(|i| (i as f32 - 2000.0) / 150.0).collect();
    let mut got = x.clone();
    gelu(&mut got);
    for (x, g) in x.iter().zip(&got) {
        let x = *x as f64;
        let want = 0.5 * x * (1.0 + erf(x * std::f64::consts::FRAC_1_SQRT_2));
        assert!((*g as f64 - want).abs() < 3e-7 * (1.0 + x.abs()), "GELU({x}) = {g}, want {want}");
    }
}
