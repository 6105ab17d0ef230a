//! The size budget of the built site: what a classroom's network has to fetch before the
//! first heatmap. Sizes are deterministic for a given toolchain, so this is a check, not a
//! timing (timings are printed by the benchmark instead).

use crate::server::{built, gzip_len};

/// The .wasm, as a static server sends it (gzip -9), stays within 400 KB (model weights, when
/// they come, are a file of their own).
#[test]
#[ignore = "needs the built site: scripts/test.sh"]
fn the_wasm_stays_within_its_400_kb_gzip_budget() {
    let gz = gzip_len(&built("_bg.wasm"));
    assert!(
        gz <= 400_000,
        "the .wasm is {gz} bytes gzipped, over the 400 KB budget: see `twiggy top` and README's benchmark section"
    );
}

/// The benchmark mode (`?bench=1`, the naive drawing, the draw counter) is built only with the
/// `bench` feature: its marks are not in the published .wasm.
#[test]
#[ignore = "needs the built site: scripts/test.sh"]
fn the_published_wasm_carries_no_benchmark_code() {
    let wasm = built("_bg.wasm");
    for mark in ["bench-output", "first-heatmap", "slider_to_paint_ms"] {
        assert!(!wasm.windows(mark.len()).any(|w| w == mark.as_bytes()), "{mark:?} is in the published .wasm");
    }
}
