#!/usr/bin/env bash
# Mutation testing (`npm run mutants`; not part of `npm test`): plants small
# bugs one at a time and reports the ones no test catches.
#
#   npm run mutants            both parts below
#   npm run mutants -- rust    cargo-mutants over the engine's link codec, model,
#                              simulated source and sweep verdicts (crate/src/link/*.rs,
#                              crate/src/model/*.rs, crate/src/engine/source.rs,
#                              crate/src/engine/sweep.rs)
#   npm run mutants -- web     Stryker over web/src/app/ and baseline.ts's
#                              comparisons (stryker.config.mjs); extra arguments
#                              go to Stryker: `npm run mutants -- web --mutate
#                              web/src/app/room.ts` runs one file
#
# Each Rust mutant rebuilds the crate's test binaries (about a minute on a
# loaded 2-core machine): the 512 mutants take hours there. MUTANTS_SHARD=k/n
# tests every n-th mutant from the k-th (round robin), an even sample across
# the three modules; MUTANTS_RE=regex only the mutants whose names match (as
# `cargo mutants --list` shows them). Results: target/mutants/mutants.out/
# (missed.txt, caught.txt, timeout.txt) and test-results/mutation/web.html.
# docs/benchmarks.md ("Mutation testing") has the last scores, file by file,
# and the narrower commands that rerun each in minutes rather than hours.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

part="${1:-all}"
CARGO_MUTANTS_VERSION=27.1.0

rust() {
  if ! cargo mutants --version 2>/dev/null | grep -qx "cargo-mutants $CARGO_MUTANTS_VERSION"; then
    printf '\n\033[1m==> installing cargo-mutants %s (a few minutes, once)\033[0m\n' "$CARGO_MUTANTS_VERSION"
    cargo install cargo-mutants --version "$CARGO_MUTANTS_VERSION" --locked
  fi
  local args=(
    -p buflab
    -f 'crate/src/link/*.rs' -f 'crate/src/model/*.rs' -f crate/src/engine/source.rs -f crate/src/engine/sweep.rs
    -j 1 --timeout 180 --build-timeout 900 --baseline skip
    -C --lib -C --test=readers -C --test=chained
    -o target/mutants
  )
  [ -n "${MUTANTS_SHARD:-}" ] && args+=(--shard "$MUTANTS_SHARD" --sharding round-robin)
  [ -n "${MUTANTS_RE:-}" ] && args+=(-F "$MUTANTS_RE")
  # Built and run: the unit tests (the link codec's and the model's among
  # them) and the integration tests that drive the source (every reader over
  # every chunking). A missed mutant exits 2 and a timeout 3: reported, not
  # a failure.
  nice -n 10 cargo mutants "${args[@]}" || {
    status=$?
    [ "$status" = 2 ] || [ "$status" = 3 ] || return "$status"
  }
}

web() {
  if [ ! -f web/pkg-program/buflab_program_bg.wasm ]; then npm run --silent wasm; fi
  nice -n 10 stryker run stryker.config.mjs "$@"
}

[ "$#" -gt 0 ] && shift
case "$part" in
  rust) rust ;;
  web) web "$@" ;;
  all) rust; web ;;
  *) echo "usage: scripts/mutants.sh [rust|web|all]" >&2; exit 64 ;;
esac
