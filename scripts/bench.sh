#!/usr/bin/env bash
# `npm run bench`: the benchmark suite (crate/src/bench.rs) natively and as
# WebAssembly in headless Chromium, on this machine, in this run; prints the
# table and rewrites docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
bash scripts/setup.sh --browser
cargo build --release -p buflab
npm run --silent build
wasm-pack build crate --target web --release --out-dir ../web/pkg-bench --out-name buflab -- --features bench
vite build --mode bench --logLevel warn
node scripts/bench.mjs "$@"
