#!/usr/bin/env bash
# `npm run wasm`: the engine's wasm builds the page loads, and the test-only
# ones, each a wasm-pack build of crate/ with its own features and profile
# (crate/Cargo.toml says what each feature holds):
#
#   counts          web/pkg-counts           reading links and the read lab's exact counts: the first numbers
#   timing-<wl>     web/pkg-timing/<wl>      the timed pass, timelines and sweeps of one workload (seven builds);
#                                            the page fetches the one its link's workload needs (engine/spawn.ts);
#                                            web/src/engine/builds.test.ts checks each runs its own and refuses the others
#   program         web/pkg-program          writing links, the code panel, the write lab, Calibrate
#   questions       web/pkg-questions        the quiz and a read lesson's choices (counted runs; fetched
#                                            when a room, a quiz link or a lesson first asks)
#   trace           web/pkg-trace            reading an strace log (the trace panel; fetched when a log is opened)
#   faults          web/pkg-faults           test only: every feature and `faults`, a dev build (npm run build:faults)
#
#   scripts/wasm.sh                 the page's eleven release builds (counts, questions, timing-*, program, trace)
#   scripts/wasm.sh NAME…           those builds only (`timing` is the seven; `behind` is
#                                   all but counts, most needed first: what `npm start`
#                                   builds while the page is already served,
#                                   web/build/builds-behind.ts)
#   BUFLAB_WASM_LANES=2 scripts/wasm.sh
#                                   two builds at a time, the second lane in its own
#                                   target dir (target/wasm-lane-2)
#   BUFLAB_WASM_COMPILE_ONLY=1 scripts/wasm.sh
#                                   the `cargo build` wasm-pack runs first (needs neither
#                                   wasm-pack nor wasm-bindgen) of each lane's first build
#                                   of each profile: the dependencies and one build each,
#                                   which `npm test` compiles while the tools install;
#                                   wasm-pack's own cargo build then finds it done. Only
#                                   the first: a cdylib's file has no hash in its name, so
#                                   a profile's dir keeps the last feature set built, and
#                                   wasm-pack would compile any other again
#
# A build is skipped when its out dir holds the stamp of the same inputs:
# the source files it compiled last time (cargo's dep-info for it, kept in
# its out dir as .sources: a file only other builds compile, or only the
# native engine, changes none of its inputs), the manifests, Cargo.lock,
# .cargo/config.toml, the tools' versions (wasm-opt's too), RUSTFLAGS and
# the build's own arguments. Cargo would rebuild nothing then, but
# wasm-bindgen and wasm-opt would still run on every module.
# BUFLAB_WASM_FORCE=1 rebuilds anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

# The model's workloads (crate/tests/workloads.rs checks this line).
WORKLOADS=(fixed exact bytes to_end lines frames scan)
TIMING=("${WORKLOADS[@]/#/timing-}")
# Every release build, in the order one lane builds them; two lanes split
# them so each holds about half of the compile time (the counting build
# compiles the dependencies again, in its own profile).
RELEASE=(counts questions "${TIMING[@]}" program trace)
# What the default link needs after its first numbers, then the rest: its
# timing build, the program build (writing links), the questions, the other
# workloads, the trace build.
BEHIND=(timing-fixed program questions "${TIMING[@]:1}" trace)
# (The questions build shares the counting build's profile, so its lane.)
LANE_1=(counts questions "${TIMING[@]:0:3}" trace)
LANE_2=(program "${TIMING[@]:3}")

# The wasm-pack arguments of a build (after `wasm-pack build crate --target web`).
args_of() {
  case "$1" in
    counts) echo "--profile counts --no-opt --out-dir ../web/pkg-counts --out-name buflab_counts -- --no-default-features --features workloads" ;;
    questions) echo "--profile counts --no-opt --out-dir ../web/pkg-questions --out-name buflab_questions -- --no-default-features --features workloads,questions" ;;
    timing-*) echo "--release --out-dir ../web/pkg-timing/${1#timing-} --out-name buflab_timing -- --no-default-features --features timed,wl-${1#timing-}" ;;
    program) echo "--release --out-dir ../web/pkg-program --out-name buflab_program -- --no-default-features --features timed,write-lab,program,questions" ;;
    trace) echo "--release --out-dir ../web/pkg-trace --out-name buflab_trace -- --no-default-features --features trace" ;;
    faults) echo "--dev --out-dir ../web/pkg-faults --out-name buflab -- --features faults" ;;
    *) echo "scripts/wasm.sh: no build named $1 (counts, questions, timing, timing-<workload>, program, trace, faults)" >&2; return 1 ;;
  esac
}

# The `cargo build` wasm-pack runs for a build (wasm-pack 0.15's
# `cargo_build_wasm`: in crate/, `--lib`, the profile's flag, the target in
# CARGO_BUILD_TARGET, the arguments after `--`): the same command, so its
# fingerprints are the ones wasm-pack's build finds.
compile() {
  local args profile=() features
  args=$(args_of "$1")
  case "$args" in
    --release*) profile=(--release) ;;
    "--profile counts"*) profile=(--profile counts) ;;
  esac
  features=${args#* -- }
  # shellcheck disable=SC2086 # the arguments are words
  (cd crate && CARGO_BUILD_TARGET=wasm32-unknown-unknown cargo build --lib "${profile[@]}" $features)
}

out_of() {
  case "$1" in
    timing-*) echo "web/pkg-timing/${1#timing-}" ;;
    *) echo "web/pkg-$1" ;;
  esac
}

# What every build depends on besides its sources and its own arguments.
common=$(
  {
    sha256sum crate/Cargo.toml Cargo.toml Cargo.lock
    if [ -f .cargo/config.toml ]; then sha256sum .cargo/config.toml; fi
    rustc -vV
    # (Missing while `npm test` installs them and compiles: unused then.)
    wasm-pack --version 2>/dev/null || echo "no wasm-pack"
    wasm-bindgen --version 2>/dev/null || echo "no wasm-bindgen"
    # wasm-opt (npm's binaryen) by its version: a new npm package elsewhere rebuilds nothing.
    wasm-opt --version 2>/dev/null || echo "no wasm-opt"
    echo "RUSTFLAGS=${RUSTFLAGS-unset}"
  } | sha256sum | cut -d' ' -f1
)

# The target dir's profile dir of a build, where cargo writes its dep-info.
profile_dir() {
  local target=${CARGO_TARGET_DIR:-$PWD/target}
  # (Relative, it is cargo's, which runs in crate/.)
  [[ $target == /* ]] || target=crate/$target
  case "$(profile_of "$1")" in
    dev) echo "$target/wasm32-unknown-unknown/debug" ;;
    *) echo "$target/wasm32-unknown-unknown/$(profile_of "$1")" ;;
  esac
}

# The stamp of the build in `out` with arguments `args`: the common inputs,
# the source files its last build compiled ($out/.sources) and their
# contents (a file gone hashes as its error), its arguments.
stamp_of() {
  local out=$1 args=$2 sources="none listed"
  if [ -s "$out/.sources" ]; then
    sources=$({ cat "$out/.sources"; xargs -d '\n' sha256sum <"$out/.sources" 2>&1; } | sha256sum | cut -d' ' -f1)
  fi
  echo "$common $sources $args"
}

# Keeps the workspace's files a build compiled, from the dep-info cargo
# wrote beside it (its first line: `<artifact>: <file> <file> …`).
keep_sources() {
  local name=$1 out=$2 root
  root=$(pwd -P)
  sed -n '1s/^[^:]*: *//p' "$(profile_dir "$name")/buflab.d" 2>/dev/null | tr ' ' '\n' | sed -n "s|^$root/||p" | sort >"$out/.sources" || true
}

build() {
  local name=$1 args out stamp
  args=$(args_of "$name")
  out=$(out_of "$name")
  stamp=$(stamp_of "$out" "$args")
  if [ "${BUFLAB_WASM_FORCE:-0}" != 1 ] && [ "$(cat "$out/.inputs" 2>/dev/null)" = "$stamp" ]; then
    echo "$out: up to date (same inputs as its last build)"
    return
  fi
  if [ "${BUFLAB_WASM_COMPILE_ONLY:-0}" = 1 ]; then
    compile "$name" || return 1
    echo "$out: compiled (wasm-pack's build packs it)"
    return
  fi
  rm -f "$out/.inputs"
  # (Errors are checked by hand: `set -e` does not hold inside `lane || …`.)
  # shellcheck disable=SC2086 # the arguments are words
  wasm-pack build crate --target web $args || return 1
  if [ "$(profile_of "$name")" = counts ]; then
    # The counting and questions builds lean to size (Cargo.toml's `counts`
    # profile) and get wasm-opt -Os, not wasm-pack's -O (crate/Cargo.toml
    # says why 50).
    wasm-opt -Os --one-caller-inline-max-function-size 50 "$out/buflab_${name}_bg.wasm" -o "$out/buflab_${name}_bg.wasm" || return 1
  fi
  keep_sources "$name" "$out"
  stamp_of "$out" "$args" >"$out/.inputs"
  echo "$out: built"
}

profile_of() {
  case "$1" in
    counts | questions) echo counts ;;
    faults) echo dev ;;
    *) echo release ;;
  esac
}

lane() {
  local name compiled=" "
  for name in "$@"; do
    if [ "${BUFLAB_WASM_COMPILE_ONLY:-0}" = 1 ]; then
      [[ $compiled == *" $(profile_of "$name") "* ]] && continue
      compiled+="$(profile_of "$name") "
    fi
    build "$name" || return 1
  done
}

names=()
for name in "${@:-release}"; do
  case "$name" in
    release) names+=("${RELEASE[@]}") ;;
    behind) names+=("${BEHIND[@]}") ;;
    timing) names+=("${TIMING[@]}") ;;
    *) args_of "$name" >/dev/null && names+=("$name") ;;
  esac
done

if [ "${BUFLAB_WASM_LANES:-1}" = 2 ] && [ "${names[*]}" = "${RELEASE[*]}" ]; then
  # Each build's last step (one codegen unit, fat LTO) runs on one core, so
  # two lanes keep two cores busy. A lane has its own target dir: cargo
  # locks one for the whole build.
  CARGO_TARGET_DIR="$PWD/target/wasm-lane-2" lane "${LANE_2[@]}" &
  second=$!
  lane "${LANE_1[@]}" || { wait "$second" || true; exit 1; }
  wait "$second"
else
  lane "${names[@]}"
fi
