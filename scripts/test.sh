#!/usr/bin/env bash
# Sets everything up and runs every test, after the lint (rustfmt, clippy): native (core,
# golden fixtures, properties, UI logic), in-browser (wasm-bindgen-test in headless Chromium
# and Firefox: the app's, and the kernels' in both of their builds) and end-to-end (the release
# build of the site in headless Chromium, Firefox and WebKit). Ends with the time of each phase
# and one line "tests: N passed, N failed, N skipped".
#
# The end-to-end suite runs whole in Chromium; in Firefox and WebKit, the tests of what an
# engine does its own way (tests/e2e/main.rs says which, and reports the rest as skipped, with
# why). Each engine's run has its own time limit, so a hang fails that engine by name.
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
phases=()
phase_started=$SECONDS
phase_name=""
# Start phase $1 (ending the one before, whose minutes go in the timeline).
phase() {
  end_phase
  phase_name=$1
  phase_started=$SECONDS
  printf '\n\033[1m== %s\033[0m\n' "$1"
}
end_phase() {
  if [[ -n $phase_name ]]; then
    phases+=("$(awk -v s=$((SECONDS - phase_started)) -v n="$phase_name" 'BEGIN { printf "%5.1f min  %s", s / 60, n }')")
  fi
  phase_name=""
}
timeline() {
  end_phase
  echo
  echo "timeline (minutes per phase; $(awk -v s=$SECONDS 'BEGIN { printf "%.1f", s / 60 }') in all):"
  printf '  %s\n' "${phases[@]}"
}
trap 'timeline; rm -f "$log"' EXIT

phase "set-up: tools, browsers and the downloaded models (scripts/setup.sh)"
source scripts/setup.sh
# A clean clone gains nothing from incremental compilation, and its files take gigabytes.
if [[ -n "${CI:-}" ]]; then export CARGO_INCREMENTAL=0; fi
free_gb=$(df -Pk . | awk 'NR == 2 {print int($4 / 1048576)}')
if (( free_gb < 12 )); then
  echo "warning: ${free_gb} GB free here; a clean build of every test needs about 12 GB" >&2
fi

phase "lint: formatting, and clippy for the native and the wasm32 targets (benchmark code included)"
cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
cargo clippy --locked --workspace --all-targets --target wasm32-unknown-unknown -- -D warnings
cargo clippy --locked --all-targets --target wasm32-unknown-unknown --features bench -- -D warnings
cargo clippy --locked --all-targets --target wasm32-unknown-unknown --features report-memory -- -D warnings
cargo clippy --locked -p attention-core --all-targets --target wasm32-unknown-unknown --features relaxed -- -D warnings
cargo clippy --locked --bin attention-lab --bin pretrained --target wasm32-unknown-unknown --features external-texts,frames -- -D warnings

phase "native tests"
cargo test --locked --workspace 2>&1 | tee -a "$log"

# wasm-bindgen-test-runner picks the browser from CHROMEDRIVER or GECKODRIVER (else the first
# driver on PATH): each test binary runs in both, built once.
in_browsers() {
  local browser
  for browser in chromium firefox; do
    echo "-- in $browser: $*"
    if [[ $browser == chromium ]]; then
      CHROMEDRIVER=$(command -v chromedriver) "$@" 2>&1 | tee -a "$log"
    else
      GECKODRIVER=$(command -v geckodriver) "$@" 2>&1 | tee -a "$log"
    fi
  done
}
phase "in-browser tests (wasm-bindgen-test) in Chromium and Firefox: the app's (with the benchmark build's counters), and the kernels' in the page's simd128 build and the forward worker's relaxed-SIMD build"
in_browsers cargo test --locked --target wasm32-unknown-unknown --features bench --test web
in_browsers cargo test --locked --target wasm32-unknown-unknown -p attention-core --test kernels
in_browsers cargo test --locked --target wasm32-unknown-unknown -p attention-core --features relaxed --test kernels

phase "release build of the site and its archive, as a teacher publishes it (scripts/build.sh)"
bash scripts/build.sh

# Each engine a class brings (tests/e2e/main.rs reads E2E_BROWSER): Chromium, Firefox ESR and
# WebKitGTK (Safari's engine). An engine that fails does not stop the others: every engine's
# result is in the summary.
failed_engines=()
for engine in chromium firefox webkit; do
  phase "end-to-end tests in $engine (dist/ and the unpacked archive)"
  # WebKitGTK (several processes per window, drawing in software) one test at a time: two of
  # its windows at once on 2 cores starved each other past the tests' waits.
  threads=2
  if [[ $engine == webkit ]]; then threads=1; fi
  # No backtraces: a failure's message is what says why, and a long log is cut before it.
  # A hang fails this engine, by name, within its limit (each test has its own, too).
  E2E_BROWSER=$engine RUST_BACKTRACE=0 timeout --kill-after=30 25m \
    cargo test --locked --test e2e -- --test-threads=$threads 2>&1 | tee -a "$log" ||
    failed_engines+=("$engine")
done
end_phase

passed=$(grep -oE 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log" | awk '{s += $4} END {print s + 0}')
failed=$(grep -oE '[0-9]+ failed' "$log" | awk '{s += $1} END {print s + 0}')
skipped=$(grep -oE '[0-9]+ ignored' "$log" | awk '{s += $1} END {print s + 0}')
# Each failure's message again, at the end, where a log cut short still shows it.
if grep -q "panicked at\|did not finish in" "$log"; then
  echo
  echo "what failed, in the order it ran (each message's first lines):"
  grep -A5 "panicked at\|did not finish in" "$log" | cut -c1-1500
fi
# The tests each engine skipped, by reason (named where there are few).
python3 - "$log" <<'PY'
import collections, re, sys
skipped = collections.defaultdict(list)
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"skipped in (\w+): (.*): (\S+::\S+)$", line.strip())
    if m:
        skipped[(m[1], m[2])].append(m[3])
if skipped:
    print("\nskipped end-to-end tests, by engine and why:")
for (engine, why), names in sorted(skipped.items()):
    listed = ": " + ", ".join(names) if len(names) <= 4 else ""
    print(f"  {engine}: {len(names)} ({why}){listed}")
PY
# Starts the engine trapped, which the page met by loading itself once more (assets/start.js),
# besides the ones the test of that makes on purpose: never a failure, never unseen.
restarts=$(grep "note: the engine trapped while the page started" "$log" | grep -v "(the test build)" || true)
if [[ -n "$restarts" ]]; then
  echo
  echo "pages whose start the engine trapped, loaded once more: $(wc -l <<< "$restarts")"
  cut -c1-400 <<< "$restarts"
fi
timeline
trap 'rm -f "$log"' EXIT
echo "tests: $passed passed, $failed failed, $skipped skipped"
if (( ${#failed_engines[@]} > 0 )); then
  echo "end-to-end tests failed in: ${failed_engines[*]}" >&2
  exit 1
fi
