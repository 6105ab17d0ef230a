#!/usr/bin/env bash
# Sets everything up, builds the site and serves it on http://127.0.0.1:8080: the release build
# in dist/, without Trunk's live-reload script, so dist/ stays exactly what scripts/build.sh
# publishes. `--dev` serves a quicker unoptimised build with live reload from target/dev-dist/
# instead, leaving dist/ alone.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
if [ "${1:-}" = "--dev" ]; then
  exec trunk serve --dist target/dev-dist
fi
exec trunk serve --release --no-autoreload
