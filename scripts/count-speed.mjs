// The counting build's counted pass in node, outside any page:
// `node scripts/count-speed.mjs [PKG_A [PKG_B]] [N]` loads the counting
// build from each directory (default web/pkg-counts, as `npm run wasm`
// builds it; a second directory is another build of it, say a copy made
// before a change) and counts links of 1 MiB, each run with a new seed so
// that the engine's reuse of counts (experiment.rs `count_key`) answers
// none of them. The two builds take turns, N rounds (default 3) of 25 runs a
// link; prints per build and link the median of the rounds' medians (the
// first five runs of a round aside: V8 may still be optimizing them).

import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = new URL("..", import.meta.url).pathname;
const args = process.argv.slice(2);
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 3);
const dirs = args.filter((a) => !/^\d+$/.test(a));
if (dirs.length === 0) dirs.push(`${root}web/pkg-counts`);

/** The default link's readers at read sizes 1 and 5 (a read-size change counts both), then each reader alone. */
const LINKS = ["len=1M&rs=1", "len=1M&rs=5", "len=1M&rs=5&rd=unbuffered", "len=1M&rs=5&rd=std", "len=1M&rs=64"];
const RUNS = 25;

async function load(dir) {
  const glue = resolve(dir, "buflab_counts.js");
  const wasm = resolve(dir, "buflab_counts_bg.wasm");
  statSync(wasm);
  const engine = await import(`${pathToFileURL(glue).href}?${encodeURIComponent(dir)}`);
  engine.initSync({ module: readFileSync(wasm) });
  return engine;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const engines = await Promise.all(dirs.map(load));
const times = dirs.map(() => LINKS.map(() => []));
let seed = 1000;
for (let round = 0; round < rounds; round++) {
  for (const [b, engine] of engines.entries()) {
    for (const [l, base] of LINKS.entries()) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const { fragment } = engine.decode_link(`${base}&seed=${seed++}`);
        const started = performance.now();
        engine.run(fragment, true, false, undefined);
        runs.push(performance.now() - started);
      }
      times[b][l].push(median(runs.slice(5)));
    }
  }
}
for (const [b, dir] of dirs.entries()) {
  console.log(dir);
  for (const [l, base] of LINKS.entries()) {
    console.log(`  ${base.padEnd(28)} ${median(times[b][l]).toFixed(1).padStart(6)} ms`);
  }
}
