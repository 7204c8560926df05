#!/usr/bin/env bash
# Runs every BufLab test, installing whatever is missing first (`npm test`).
#
#   engine         Rust engine natively: unit, property and real-I/O tests (cargo test);
#                  its build starts at once, beside the installs
#   wasm glue      the wasm glue in headless Chromium, in a dedicated worker (wasm-pack test)
#   release wasm   the ten release builds the page loads (scripts/wasm.sh), two at a time;
#                  their dependencies and first builds compile at once, beside the installs
#   faults build   the recovery-test build (its dev wasm at once; its site once the release wasm is in)
#   types, units   TypeScript: type check and unit tests against the real wasm (tsc, vitest)
#   end to end     the built page in headless Chromium (vitest + playwright-core), and
#                  the smoke set in Firefox (puppeteer-core, WebDriver BiDi) and WebKit (WebKitWebDriver)
#   tracked files  the run left the files git tracks as it found them (images go to
#                  test-results/; `npm run screenshots` writes docs/ on request)
#
# A suite starts as soon as what it needs is there, so on 2 cores the run is
# about as long as its longest chain: the release wasm (its compile needs
# no install), the end-to-end tests. Work off that chain runs at a lower CPU priority (nice),
# so it takes only what the chain leaves. Each suite writes its output to
# target/test-logs/NAME.log, printed whole when it ends; every suite's time
# is listed at the end (overlapping suites share the cores, so a suite's
# time is its wall time in this run, not alone).
#
# Each concurrent cargo gets its own target dir (cargo locks one for a whole
# build): target/ for the native engine, target/wasm for scripts/wasm.sh's
# first lane, target/wasm-lane-2 for its second, target/wasm-dev for the
# wasm dev builds (wasm-pack test, the fault build), which share their
# dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
# One run builds each crate once or twice: incremental compilation's caches
# would only take disk (gigabytes of target/debug/incremental).
export CARGO_INCREMENTAL=0
root=$PWD
logs=$root/target/test-logs
rm -rf "$logs"
mkdir -p "$logs"

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

# ---- the job runner ---------------------------------------------------------
# `job NAME NICE "NEEDS" LABEL CMD…` declares a suite: it starts (in the
# background, its own process group, at CPU priority NICE, output to
# $logs/NAME.log) once every suite in NEEDS has passed, and is listed as not
# run if one failed. When a suite ends its log is printed whole.
declare -A label niceness needs command pid began took result
order=()
job() {
  local name=$1
  niceness[$name]=$2 needs[$name]=$3 label[$name]=$4
  shift 4
  command[$name]="$*"
  order+=("$name")
}
launch() {
  local name=$1
  began[$name]=$SECONDS
  printf '\033[1m==> %s\033[0m (started at %ds)\n' "${label[$name]}" "$SECONDS"
  # shellcheck disable=SC2086 # a command is words
  setsid --wait nice -n "${niceness[$name]}" bash -c '"$@"' _ ${command[$name]} >"$logs/$name.log" 2>&1 </dev/null &
  pid[$name]=$!
}
ended() {
  local name=$1 status=$2
  unset "pid[$name]"
  took[$name]=$((SECONDS - ${began[$name]}))
  printf '\n\033[1m==> %s\033[0m\n' "${label[$name]}"
  cat "$logs/$name.log"
  if [ "$status" = 0 ]; then
    result[$name]=passed
    printf '(%s: %ds)\n' "${label[$name]}" "${took[$name]}"
  else
    result[$name]=FAILED
    printf '\n\033[1mFAILED: %s (exit %d, %ds)\033[0m\n' "${label[$name]}" "$status" "${took[$name]}"
  fi
}
# Starts what can start, waits for the next suite to end, until all have.
run_all() {
  local name need ready finished status
  while :; do
    for name in "${order[@]}"; do
      [ -n "${result[$name]:-}" ] || [ -n "${pid[$name]:-}" ] && continue
      ready=1
      for need in ${needs[$name]}; do
        case "${result[$need]:-}" in
          passed) ;;
          "") ready=0 ;;
          *) result[$name]="not run ($need did not pass)"; ready=0; break ;;
        esac
      done
      [ "$ready" = 1 ] && launch "$name"
    done
    [ "${#pid[@]}" -gt 0 ] || return 0
    status=0
    wait -n -p finished "${pid[@]}" || status=$?
    for name in "${!pid[@]}"; do
      [ "${pid[$name]}" = "$finished" ] && ended "$name" "$status"
    done
  done
}
# Stops what is still running when the run ends early (Ctrl-C, an error here).
stop_all() {
  local name
  for name in "${!pid[@]}"; do kill -- "-${pid[$name]}" 2>/dev/null || true; done
}
trap stop_all EXIT

# The suites' commands (exported: each runs in a bash of its own).
# The cursor test's release example is built here, with the features its
# test builds it with (crate/tests/cursor_insns.rs), so that test finds it built.
engine_build() {
  cargo test --workspace --no-run &&
    cargo build --release -p buflab --example insns --no-default-features --features timed,write-lab,program
}
release_wasm() { BUFLAB_WASM_LANES=2 CARGO_TARGET_DIR="$PWD/target/wasm" bash scripts/wasm.sh; }
compile_wasm() { BUFLAB_WASM_COMPILE_ONLY=1 release_wasm; }
wasm_glue() { CARGO_TARGET_DIR="$PWD/target/wasm-dev" wasm-pack test --headless --chrome crate --test wasm; }
faults_wasm() { CARGO_TARGET_DIR="$PWD/target/wasm-dev" bash scripts/wasm.sh faults; }
# The fault build's site bundles the release builds it does not replace
# (counts, trace: vite.config.ts), so it waits for them; its wasm is stamped
# by faults_wasm, so build:faults finds it built.
faults_build() { CARGO_TARGET_DIR="$PWD/target/wasm-dev" BUFLAB_PRECOMPRESS=gzip npm run --silent build:faults; }
web_units() { npm run --silent typecheck && npm run --silent test:unit; }
# The sweep test compares the page with the CLI the engine build made (a
# `cargo run` would wait while `cargo test` holds target/debug).
end_to_end() { BUFLAB_CLI="$PWD/target/debug/buflab" npm run --silent test:e2e; }
export -f engine_build release_wasm compile_wasm wasm_glue faults_wasm faults_build web_units end_to_end

# ---- the run ----------------------------------------------------------------
# On the chain (nice 0): the release wasm's compile, its packing (wasm-pack,
# once the installs have brought it), the end-to-end tests. The engine's
# build and the wasm's compile need none of the installs and start at once.
bash scripts/setup.sh --rust
job setup 0 "" "installs (scripts/setup.sh --browser)" bash scripts/setup.sh --browser
job engine-build 10 "" "engine build (cargo test --no-run; the cursor test's release example)" engine_build
job wasm-compile 0 "" "release wasm's first compiles (scripts/wasm.sh, BUFLAB_WASM_COMPILE_ONLY)" compile_wasm
job wasm 0 "setup wasm-compile" "release wasm (scripts/wasm.sh, two lanes: wasm-pack, wasm-opt)" release_wasm
job glue 10 "setup" "wasm glue in Chromium (wasm-pack test)" wasm_glue
job faults-wasm 5 "setup" "recovery-test wasm (scripts/wasm.sh faults)" faults_wasm
job faults 5 "wasm faults-wasm" "recovery-test build (npm run build:faults)" faults_build
job engine 10 "setup engine-build" "engine (cargo test)" cargo test --workspace
job units 10 "wasm" "TypeScript types and units (tsc, vitest)" web_units
job e2e 0 "wasm faults engine-build" "end to end in Chromium, smoke set in Firefox and WebKit (vitest)" end_to_end
run_all

label[tree]="tracked files unchanged (git status before and after)"
order+=(tree)
if tree_unchanged >"$logs/tree.log" 2>&1; then result[tree]=passed; else result[tree]=FAILED; fi
cat "$logs/tree.log"

# ---- the summary -------------------------------------------------------------
passed=0
failed=0
printf '\n\033[1msuites (wall time in this run, overlapping; the run took %ds):\033[0m\n' "$SECONDS"
for name in "${order[@]}"; do
  case "${result[$name]:-}" in
    passed) passed=$((passed + 1)) ;;
    *) failed=$((failed + 1)) ;;
  esac
  if [ -n "${took[$name]:-}" ]; then
    printf '  %-8s %5ds  from %4ds  %s\n' "${result[$name]}" "${took[$name]}" "${began[$name]}" "${label[$name]}"
  else
    printf '  %-8s %s  %s\n' "${result[$name]:-?}" "" "${label[$name]}"
  fi
done
# What failed, last, where a reader of only the run's tail sees it: each
# failed suite's failing tests (vitest's FAIL lines, cargo's FAILED and
# panicked lines, a build's error lines), without colour, at most 12 each.
for name in "${order[@]}"; do
  case "${result[$name]:-}" in passed | "not run"*) continue ;; esac
  [ -f "$logs/$name.log" ] || continue
  printf '\n\033[1mfailed in %s:\033[0m\n' "${label[$name]}"
  sed 's/\x1b\[[0-9;]*m//g' "$logs/$name.log" |
    grep -E '^ *FAIL |^test .* FAILED$|panicked at|^error(\[|:)|AssertionError|Error: ' |
    awk '!seen[$0]++' | head -n 12 || true
done
printf '\nsuites: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" = 0 ]
