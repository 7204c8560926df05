#!/usr/bin/env bash
# Installs whatever BufLab needs and is missing; skips what is present, so a
# second run takes seconds. Used by `npm start` and `npm test`.
#
#   scripts/setup.sh            Rust wasm target, wasm-bindgen CLI, wasm-pack, npm packages
#   scripts/setup.sh --browser  the same, plus Debian's Chromium and ChromeDriver for tests
#
# Facts behind the choices (measured, see ../shared/TOOLCHAIN.md): the
# wasm-bindgen CLI must match the version in Cargo.lock exactly; wasm-pack and
# the CLI come from crates.io (the npm wasm-pack downloads from GitHub, which
# is unreachable here); wasm-opt comes from the npm package `binaryen`.
set -euo pipefail
cd "$(dirname "$0")/.."

browser=0
[ "${1:-}" = "--browser" ] && browser=1

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif have sudo; then sudo "$@"; else
  echo "need root to run: $*" >&2; return 1; fi; }

export PATH="$HOME/.cargo/bin:$PATH"
if ! have cargo || ! have rustup; then
  echo "BufLab needs Rust (cargo and rustup): install it from https://rustup.rs and run this again." >&2
  exit 1
fi
if ! have node || ! have npm; then
  echo "BufLab needs Node.js 20.19+ and npm: install them and run this again." >&2
  exit 1
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "adding the wasm32-unknown-unknown Rust target"
  rustup target add wasm32-unknown-unknown
fi

# The CLI version must equal the wasm-bindgen crate in Cargo.lock.
wbg_version=$(awk -F'"' '$0 == "name = \"wasm-bindgen\"" { getline; print $2; exit }' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wbg_version"; then
  step "installing wasm-bindgen-cli $wbg_version (about 5 minutes, once)"
  cargo install wasm-bindgen-cli --version "$wbg_version"
fi

if ! have wasm-pack; then
  step "installing wasm-pack (about 5 minutes, once)"
  cargo install wasm-pack --version 0.15.1
fi

# npm ci when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "installing npm packages"
  npm ci --no-audit --no-fund
fi

# strace: crate/tests/kernel.rs counts the printed programs' read(2) calls with it.
if [ ! -x /usr/bin/strace ]; then
  step "installing strace from Debian (seconds, once)"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q strace
fi

# valgrind: crate/tests/cursor_insns.rs counts the write cursors' instructions with callgrind.
if ! have valgrind; then
  step "installing valgrind from Debian (seconds, once)"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q valgrind
fi

if [ "$browser" = 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  step "installing Chromium and ChromeDriver from Debian (about 1 minute, once)"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
fi
