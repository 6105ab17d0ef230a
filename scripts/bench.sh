#!/usr/bin/env bash
# Sets everything up, builds the release site and runs the benchmark in headless Chromium.
# Prints one line per case ("bench n=… d_model=… trace_ms=… update_ms=… update_p95_ms=…"),
# the lab's slider-to-paint time, fast against naive heatmap drawing, and
# "size wasm_gz=… js_gz=… first_heatmap_ms=…". Figures only: nothing passes or fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
trunk build --release
cargo bench --locked --bench browser 2>&1 | grep -E '^(bench|lab|draw|size) '
