#!/usr/bin/env bash
# Installs whatever BufLab needs and is missing; skips what is present, so a
# second run takes seconds. Used by `npm start` and `npm test`.
#
#   scripts/setup.sh            Rust wasm target, wasm-bindgen CLI, wasm-pack, npm packages
#   scripts/setup.sh --browser  the same, plus the test browsers from Debian: Chromium and
#                               ChromeDriver, Firefox ESR, WebKitGTK's WebDriver, and Xvfb
#   scripts/setup.sh --rust     the Rust wasm target only (seconds): what compiling the
#                               wasm needs, which `npm test` starts before the rest installs
#
# Facts behind the choices (measured, see ../shared/TOOLCHAIN.md): the
# wasm-bindgen CLI must match the version in Cargo.lock exactly; wasm-pack and
# the CLI come from crates.io (the npm wasm-pack downloads from GitHub, which
# is unreachable here); wasm-opt comes from the npm package `binaryen`.
#
# The three kinds of install (Debian's packages, npm's, the two cargo tools)
# run at the same time: the first two mostly wait on the network, the third
# compiles. Each writes a log, printed in full if it fails.
set -euo pipefail
cd "$(dirname "$0")/.."

browser=0
rust_only=0
[ "${1:-}" = "--browser" ] && browser=1
[ "${1:-}" = "--rust" ] && rust_only=1

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
[ "$rust_only" = 1 ] && exit 0

# Debian's packages: one update and one install for all that is missing.
#   strace    crate/tests/kernel.rs counts the printed programs' read(2) calls with it
#   valgrind  crate/tests/cursor_insns.rs counts the write cursors' instructions with callgrind
#   chromium, chromium-driver   the browser tests (--browser)
#   firefox-esr                 the smoke set in Firefox, over WebDriver BiDi (--browser)
#   webkit2gtk-driver           the smoke set in WebKit: WebKitWebDriver and its MiniBrowser (--browser)
#   xvfb                        the X display WebKitGTK's browser needs even when headless (--browser)
debs=()
[ -x /usr/bin/strace ] || debs+=(strace)
have valgrind || debs+=(valgrind)
if [ "$browser" = 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  debs+=(chromium chromium-driver)
fi
if [ "$browser" = 1 ]; then
  [ -x /usr/bin/firefox-esr ] || debs+=(firefox-esr)
  [ -x /usr/bin/WebKitWebDriver ] || debs+=(webkit2gtk-driver)
  [ -x /usr/bin/Xvfb ] || debs+=(xvfb)
fi
install_debs() {
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${debs[@]}"
}

# npm ci when node_modules is missing or older than the lock file.
npm_needed=0
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm_needed=1
fi

# The two cargo tools. The CLI version must equal the wasm-bindgen crate in
# Cargo.lock. Built in one `cargo install` with one target dir, so the
# dependencies they share compile once, and unoptimized without debug info:
# a third of the compile time of the default release build, and their bytes
# out are the same; they run slower (wasm-bindgen about 5x on a release
# module, 3x on a dev one), less in all than the install saves
# (docs/benchmarks.md, "The test run"). wasm-bindgen-cli without its default feature: TLS, for a
# WebDriver that is not on this machine; the test runner talks plain HTTP to
# the local ChromeDriver.
wbg_version=$(awk -F'"' '$0 == "name = \"wasm-bindgen\"" { getline; print $2; exit }' Cargo.lock)
tools=()
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wbg_version"; then
  tools+=("wasm-bindgen-cli@$wbg_version")
fi
have wasm-pack || tools+=(wasm-pack@0.15.1)
install_tools() {
  local dir status=0
  dir=$(mktemp -d)
  CARGO_TARGET_DIR="$dir" CARGO_PROFILE_DEV_DEBUG=0 cargo install --debug --no-default-features "${tools[@]}" || status=$?
  rm -rf "$dir"
  return "$status"
}

logs=$(mktemp -d)
pids=()
names=()
start() {
  local name=$1
  shift
  step "$name"
  "$@" >"$logs/${#pids[@]}.log" 2>&1 &
  pids+=($!)
  names+=("$name")
}
[ "${#debs[@]}" -gt 0 ] && start "installing ${debs[*]} from Debian (about a minute, once)" install_debs
[ "$npm_needed" = 1 ] && start "installing npm packages (seconds)" npm ci --no-audit --no-fund
[ "${#tools[@]}" -gt 0 ] && start "installing ${tools[*]} with cargo (about 3 minutes on 2 cores, once)" install_tools

failed=0
for i in "${!pids[@]}"; do
  if wait "${pids[$i]}"; then
    printf '    done: %s\n' "${names[$i]}"
  else
    printf '\n\033[1mFAILED: %s\033[0m\n' "${names[$i]}"
    cat "$logs/$i.log"
    failed=1
  fi
done
rm -rf "$logs"
exit "$failed"
