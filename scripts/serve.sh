#!/usr/bin/env bash
# Sets everything up, builds the site and serves it on http://127.0.0.1:8080 (release build;
# pass --dev for a quicker unoptimised build while developing).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
mode=(--release)
[ "${1:-}" = "--dev" ] && mode=()
exec trunk serve "${mode[@]}"
