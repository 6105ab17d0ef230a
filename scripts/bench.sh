#!/usr/bin/env bash
# Sets everything up, builds the release site and runs the benchmark in headless Chromium.
# Prints one line per case ("bench n=… d_model=… trace_ms=… update_ms=… update_p95_ms=…"),
# the lab's slider-to-paint time, fast against naive heatmap drawing, and
# "size wasm_gz=… js_gz=… first_heatmap_ms=…". Figures only: nothing passes or fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# The published build (its sizes are what students download) and, apart, the benchmark build:
# the same site with the `bench` feature (the ?bench=1 mode), which never ships.
trunk build --release
trunk build --release --features bench --dist target/bench-dist
E2E_DIST=target/bench-dist cargo bench --locked --bench browser 2>&1 | grep -E '^(bench|lab|draw|size) '
