#!/usr/bin/env bash
# Sets everything up and runs every test, after the lint (rustfmt, clippy): native (core,
# golden fixtures, properties, UI logic),
# in-browser (wasm-bindgen-test in headless Chromium) and end-to-end (the release build of the
# site in headless Chromium, Firefox and WebKit). Ends with one line "tests: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# A clean clone gains nothing from incremental compilation, and its files take gigabytes.
if [[ -n "${CI:-}" ]]; then export CARGO_INCREMENTAL=0; fi
free_gb=$(df -Pk . | awk 'NR == 2 {print int($4 / 1048576)}')
if (( free_gb < 12 )); then
  echo "warning: ${free_gb} GB free here; a clean build of every test needs about 12 GB" >&2
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "lint: formatting, and clippy for the native and the wasm32 targets (benchmark code included)"
cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
cargo clippy --locked --workspace --all-targets --target wasm32-unknown-unknown -- -D warnings
cargo clippy --locked --all-targets --target wasm32-unknown-unknown --features bench -- -D warnings
cargo clippy --locked -p attention-kernels --target wasm32-unknown-unknown --features relaxed -- -D warnings
cargo clippy --locked --bin attention-lab --target wasm32-unknown-unknown --features external-texts,page -- -D warnings

step "native tests"
cargo test --locked --workspace 2>&1 | tee -a "$log"

step "in-browser tests (wasm-bindgen-test, headless Chromium; with the benchmark build's counters)"
cargo test --locked --target wasm32-unknown-unknown --features bench --test web 2>&1 | tee -a "$log"

step "the kernels in the browser: the page's simd128 build, and the forward worker's relaxed-SIMD build"
cargo test --locked --target wasm32-unknown-unknown --test kernels 2>&1 | tee -a "$log"
cargo test --locked --target wasm32-unknown-unknown --features relaxed --test kernels 2>&1 | tee -a "$log"

step "release build of the site and its archive, as a teacher publishes it (scripts/build.sh)"
bash scripts/build.sh

# The end-to-end suite in each engine a class brings (tests/e2e/engine.rs reads E2E_BROWSER):
# Chromium, Firefox ESR and WebKitGTK (Safari's engine). Each engine's time goes in the summary.
# An engine that fails does not stop the others: every engine's result is in the summary.
timings=()
failed_engines=()
for engine in chromium firefox webkit; do
  step "end-to-end tests in $engine (dist/ and the unpacked archive)"
  started=$SECONDS
  # WebKitGTK (several processes per window, drawing in software) one test at a time: two of
  # its windows at once on 2 cores starved each other past the tests' waits.
  threads=2
  if [[ $engine == webkit ]]; then threads=1; fi
  # No backtraces: a failure's message is what says why, and a long log is cut before it.
  E2E_BROWSER=$engine RUST_BACKTRACE=0 cargo test --locked --test e2e -- --ignored --test-threads=$threads 2>&1 | tee -a "$log" ||
    failed_engines+=("$engine")
  timings+=("$engine $((SECONDS - started)) s")
done

passed=$(grep -oE 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log" | awk '{s += $4} END {print s + 0}')
failed=$(grep -oE '[0-9]+ failed' "$log" | awk '{s += $1} END {print s + 0}')
# Each failure's message again, at the end, where a log cut short still shows it.
if grep -q "panicked at" "$log"; then
  echo
  echo "what failed, in the order it ran (each message's first lines):"
  grep -A5 "panicked at" "$log" | cut -c1-1500
fi
echo
echo "end-to-end time per engine: ${timings[*]}"
echo "tests: $passed passed, $failed failed"
if (( ${#failed_engines[@]} > 0 )); then
  echo "end-to-end tests failed in: ${failed_engines[*]}" >&2
  exit 1
fi
