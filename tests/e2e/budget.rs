//! The size budget of the built site: what a classroom's network has to fetch before the
//! first heatmap. Sizes are deterministic for a given toolchain, so this is a check, not a
//! timing (timings are printed by the benchmark instead).

use crate::server::{dist_dir, gzip_len};

/// Every .wasm of the build: the page's, and the training view's module (fetched only when
/// that view opens), with their names.
fn wasm_files() -> Vec<(String, Vec<u8>)> {
    let files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dist_dir())
        .expect("dist/ exists: build the site first")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with("_bg.wasm"))
        .map(|name| (name.clone(), std::fs::read(dist_dir().join(&name)).expect("read the .wasm")))
        .collect();
    assert_eq!(files.len(), 2, "the page's .wasm and the training module's");
    files
}

/// Each .wasm, as a static server sends it (gzip -9), stays within 400 KB: the page's, which
/// comes before the first heatmap, and the training view's, which comes only when that view
/// opens (model weights are a file of their own).
#[test]
#[ignore = "needs the built site: scripts/test.sh"]
fn each_wasm_stays_within_its_400_kb_gzip_budget() {
    for (name, wasm) in wasm_files() {
        let gz = gzip_len(&wasm);
        assert!(
            gz <= 400_000,
            "{name} is {gz} bytes gzipped, over the 400 KB budget: see `twiggy top` and README's benchmark section"
        );
    }
}

/// The benchmark mode (`?bench=1`, the naive drawing, the draw counter) is built only with the
/// `bench` feature: its marks are not in the published .wasm.
#[test]
#[ignore = "needs the built site: scripts/test.sh"]
fn the_published_wasm_carries_no_benchmark_code() {
    for (name, wasm) in wasm_files() {
        for mark in ["bench-output", "first-heatmap", "slider_to_paint_ms"] {
            assert!(!wasm.windows(mark.len()).any(|w| w == mark.as_bytes()), "{mark:?} is in {name}");
        }
    }
}
