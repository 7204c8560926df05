#!/usr/bin/env bash
# `npm run wasm:timing`: the read lab's timing builds, one per workload
# (web/pkg-timing/<workload>: the timed pass, timelines and sweeps of that
# workload's loops only; crate/Cargo.toml's features). The page fetches the
# one its link's workload needs (web/src/engine/spawn.ts). The workloads are
# the model's (`Workload`); web/src/engine/builds.test.ts checks that each
# build runs its own and refuses the others.
set -euo pipefail
cd "$(dirname "$0")/.."
for workload in fixed exact bytes to_end lines frames scan; do
  wasm-pack build crate --target web --release --out-dir "../web/pkg-timing/$workload" --out-name buflab_timing \
    -- --no-default-features --features "timed,wl-$workload"
done
