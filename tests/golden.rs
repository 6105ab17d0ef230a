//! The core against ONNX Runtime: every `tests/fixtures/*.json` (written by
//! `tests/reference/make_fixtures.py`, or dropped there by any other tool) is loaded, run
//! through `attention::run` and compared.
//!
//! Tolerances: attention weights within 1e-4 absolute; everything else within
//! 1e-3 · (1 + |expected|), which allows f32 summation-order differences on scores of ~1e4.

mod common;

use common::{check, worst, Fixture};
use std::path::PathBuf;

fn fixture_paths() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fixtures exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
}

#[test]
fn core_matches_onnx_runtime_on_every_fixture() {
    let paths = fixture_paths();
    assert!(paths.len() >= 10, "expected at least 10 fixtures, found {}", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("readable fixture");
        let fixture: Fixture = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not in the fixture format: {e}", path.display()));
        failures.extend(check(&fixture));
    }
    println!("compared {} fixtures against ONNX Runtime", paths.len());
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_comparison_would_catch_a_wrong_weight() {
    // Guard against a vacuous test: nudging one weight past the tolerance must be reported.
    let want = [0.25f32, 0.75];
    let got = [0.25f32, 0.7502];
    assert!(worst(got.iter(), want.iter(), 1e-4, 0.0).is_some());
    assert!(worst(want.iter(), want.iter(), 1e-4, 0.0).is_none());
}
