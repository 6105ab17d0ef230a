//! The reference-fixture format (see tests/reference/make_fixtures.py) and the comparison of
//! the core against it: shared by the golden test and the export round trip, and by the
//! kernels' in-browser test in the core crate (`src/core/tests/kernels.rs`), so it names the
//! core as `super::core`, which each includer provides.

use super::core::{run, AttentionConfig, Mask, Projections};
use ndarray::{Array2, Array3};
use serde::Deserialize;

type Rows = Vec<Vec<f32>>;

#[derive(Deserialize)]
pub struct Fixture {
    pub name: String,
    d_model: usize,
    heads: usize,
    mask: String,
    scaled: bool,
    x: Rows,
    x_kv: Option<Rows>,
    w_q: Rows,
    w_k: Rows,
    w_v: Rows,
    w_o: Rows,
    expected: Expected,
}

#[derive(Deserialize)]
struct Expected {
    q: Rows,
    k: Rows,
    v: Rows,
    scores: Vec<Rows>,
    weights: Vec<Rows>,
    output: Rows,
}

fn matrix(rows: &Rows) -> Array2<f32> {
    let cols = rows.first().map_or(0, Vec::len);
    Array2::from_shape_vec((rows.len(), cols), rows.concat()).expect("rectangular matrix in fixture")
}

fn stack(heads: &[Rows]) -> Array3<f32> {
    let (r, c) = matrix(&heads[0]).dim();
    let flat: Vec<f32> = heads.iter().flat_map(|h| h.concat()).collect();
    Array3::from_shape_vec((heads.len(), r, c), flat).expect("equal head shapes in fixture")
}

/// Largest violation of |got − want| ≤ abs + rel·|want|, as (excess, index); `None` if all pass.
pub fn worst<'a>(
    got: impl Iterator<Item = &'a f32>,
    want: impl Iterator<Item = &'a f32>,
    abs: f32,
    rel: f32,
) -> Option<(f32, usize)> {
    got.zip(want)
        .enumerate()
        .map(|(i, (g, w))| ((g - w).abs() - (abs + rel * w.abs()), i))
        .filter(|(excess, _)| *excess > 0.0 || excess.is_nan())
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// One matrix compared: its name, our values, the reference's, and the tolerances.
type Comparison = (&'static str, Vec<f32>, Vec<f32>, f32, f32);

pub fn check(f: &Fixture) -> Vec<String> {
    let weights = Projections::from_matrices(matrix(&f.w_q), matrix(&f.w_k), matrix(&f.w_v), matrix(&f.w_o))
        .expect("fixture weights are valid");
    assert_eq!(weights.d_model(), f.d_model, "{}: d_model field vs weights", f.name);
    let mask = match f.mask.as_str() {
        "none" => Mask::None,
        "causal" => Mask::Causal,
        other => panic!("{}: unknown mask {other:?}", f.name),
    };
    let cfg = AttentionConfig { n_heads: f.heads, mask, scaled: f.scaled, ..AttentionConfig::default() };
    let x_kv = f.x_kv.as_ref().map(matrix);
    let trace = run(&matrix(&f.x), x_kv.as_ref(), &weights, &cfg).expect("fixture input is valid");

    let e = &f.expected;
    let got_scores: Vec<f32> = trace.head_traces.iter().flat_map(|h| h.scores.iter().copied()).collect();
    let got_weights: Vec<f32> = trace.head_traces.iter().flat_map(|h| h.weights.iter().copied()).collect();
    let (want_scores, want_weights) = (stack(&e.scores), stack(&e.weights));
    assert_eq!(want_scores.len(), got_scores.len(), "{}: scores size", f.name);
    assert_eq!(want_weights.len(), got_weights.len(), "{}: weights size", f.name);

    // (what, ours, ONNX Runtime's, absolute tolerance, relative tolerance)
    let comparisons: [Comparison; 6] = [
        ("q", trace.q.iter().copied().collect(), matrix(&e.q).into_iter().collect(), 0.0, 1e-3),
        ("k", trace.k.iter().copied().collect(), matrix(&e.k).into_iter().collect(), 0.0, 1e-3),
        ("v", trace.v.iter().copied().collect(), matrix(&e.v).into_iter().collect(), 0.0, 1e-3),
        ("scores", got_scores, want_scores.into_iter().collect(), 1e-3, 1e-3),
        ("weights", got_weights, want_weights.into_iter().collect(), 1e-4, 0.0),
        ("output", trace.output.iter().copied().collect(), matrix(&e.output).into_iter().collect(), 1e-3, 1e-3),
    ];
    comparisons
        .iter()
        .filter_map(|(what, got, want, abs, rel)| {
            assert_eq!(got.len(), want.len(), "{}: {what} size", f.name);
            // "within 1e-3·(1+|e|)" is abs 1e-3 plus rel 1e-3; q, k, v use the same rule.
            let abs = if *abs == 0.0 { 1e-3 } else { *abs };
            worst(got.iter(), want.iter(), abs, *rel).map(|(excess, i)| {
                format!(
                    "{}: {what}[{i}] = {} but ONNX Runtime gave {} (over tolerance by {excess:e})",
                    f.name, got[i], want[i]
                )
            })
        })
        .collect()
}
