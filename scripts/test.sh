#!/usr/bin/env bash
# Runs every BufLab test, installing whatever is missing first (`npm test`).
#
#   1. Rust engine natively: unit tests and property tests (cargo test)
#   2. the wasm glue in headless Chromium, in a dedicated worker (wasm-pack test)
#   3. the release wasm the page loads (npm run wasm)
#   4. TypeScript: type check and unit tests against the real wasm (vitest)
#   5. end to end: the built page in headless Chromium (vitest + playwright-core),
#      and the recovery-test build (injected panic, hang, out-of-memory)
#   6. the run left the files git tracks as it found them (images go to
#      test-results/; `npm run screenshots` writes docs/ on request)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
# One run builds each crate once or twice: incremental compilation's caches
# would only take disk (gigabytes of target/debug/incremental).
export CARGO_INCREMENTAL=0

# What git sees before the run (a dirty checkout is compared with itself):
# the status of every file and a digest of the tracked files' changes.
tree_state() { git status --porcelain=v1 --untracked-files=all && git diff HEAD --no-ext-diff --binary | sha256sum; }
in_git=0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && in_git=1
before=""
[ "$in_git" = 1 ] && before=$(tree_state)
tree_unchanged() {
  if [ "$in_git" = 0 ]; then
    echo "not a git checkout: nothing to compare"
    return 0
  fi
  local after
  after=$(tree_state)
  if [ "$after" != "$before" ]; then
    echo "the run changed files git sees (< before, > after; the last line digests the tracked files' diff):"
    diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") || true
    return 1
  fi
  echo "git status and the tracked files' diff are as before the run"
}

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
suite "tracked files unchanged (git status before and after)" tree_unchanged

printf '\nsuites: %d passed, 0 failed\n' "$passed"
