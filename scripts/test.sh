#!/usr/bin/env bash
# Runs every BufLab test, installing whatever is missing first (`npm test`).
#
#   1. Rust engine natively: unit tests and property tests (cargo test)
#   2. the wasm glue in headless Chromium, in a dedicated worker (wasm-pack test)
#   3. the release wasm the page loads (npm run wasm)
#   4. TypeScript: type check and unit tests against the real wasm (vitest)
#   5. end to end: the built page in headless Chromium (vitest + playwright-core),
#      and the recovery-test build (injected panic, hang, out-of-memory)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

bash scripts/setup.sh --browser

passed=0
current=""
trap 'if [ -n "$current" ]; then printf "\nFAILED: %s\nsuites: %d passed, 1 failed\n" "$current" "$passed"; fi' EXIT
suite() {
  current="$1"
  shift
  printf '\n\033[1m==> %s\033[0m\n' "$current"
  local start=$SECONDS
  "$@"
  printf '(%s: %ds)\n' "$current" $((SECONDS - start))
  passed=$((passed + 1))
  current=""
}

suite "engine (cargo test)" cargo test --workspace
suite "wasm glue in Chromium (wasm-pack test)" wasm-pack test --headless --chrome crate --test wasm
suite "release wasm (npm run wasm)" npm run --silent wasm
suite "TypeScript types (tsc)" npm run --silent typecheck
suite "TypeScript units (vitest)" npm run --silent test:unit
suite "recovery-test build (npm run build:faults)" npm run --silent build:faults
suite "end to end in Chromium (vitest + playwright)" npm run --silent test:e2e

printf '\nsuites: %d passed, 0 failed\n' "$passed"
