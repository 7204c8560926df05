// Repeats `buflab real --json LINK` and prints one Markdown row per source
// and reader: the median of the repeats' wall-time medians, the range of
// every sample of every repeat, time per read call, the simulated total and
// the calibrated sys. Timings on a small shared machine wander; repeats show
// by how much. docs/benchmarks.md's Real I/O tables come from this script.
//
//   node scripts/real-io.mjs [--repeat 3] [--binary target/release/buflab] [--debug] LINK
//
// Build first: `cargo build --release -p buflab` (or `cargo build -p buflab`
// with --debug, for the debug-build comparison with the BufRead article).

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const debug = args.includes("--debug") ? (args.splice(args.indexOf("--debug"), 1), true) : false;
const repeat = Number(option("--repeat", "3"));
const targetDir = process.env.CARGO_TARGET_DIR ?? `${root}target`;
const binary = option("--binary", `${targetDir}/${debug ? "debug" : "release"}/buflab`);
const link = args[0] ?? "";

const median = (values) => {
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  return n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
};
const ms = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(ns >= 1e8 ? 0 : 1)} ms` : `${(ns / 1e3).toFixed(1)} µs`);
const ns = (n) => (n >= 1e4 ? `${(n / 1e3).toFixed(1)} µs` : `${Math.round(n)} ns`);

const reports = [];
for (let i = 0; i < repeat; i++) {
  const out = execFileSync(binary, ["real", "--json", link], { encoding: "utf8", maxBuffer: 1 << 28 });
  reports.push(JSON.parse(out));
  process.stderr.write(`run ${i + 1}/${repeat} done\n`);
}

const first = reports[0];
console.log(`#${first.simulated.link}  (${debug ? "debug" : "release"} build, ${repeat} runs)\n`);
console.log("| source | reader | read calls | bytes/read min–median–max | wall: median of run medians (all samples min–max) | per read call | model: CPU + reads × sys | real ÷ model | sys fit |");
console.log("| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: |");
first.real.forEach((row, i) => {
  const runs = reports.map((r) => r.real[i]);
  const wall = median(runs.map((r) => r.wall_ns.median));
  const lo = Math.min(...runs.map((r) => r.wall_ns.min));
  const hi = Math.max(...runs.map((r) => r.wall_ns.max));
  const model = median(runs.map((r) => r.model.total_ns));
  const b = row.bytes_per_read;
  console.log(
    `| ${row.source} | ${row.reader} | ${row.read_calls.toLocaleString("en-US")} | ${b.min}–${b.median}–${b.max} | ${ms(wall)} (${ms(lo)}–${ms(hi)}) | ` +
      `${ns(median(runs.map((r) => r.ns_per_read)))} | ${ms(model)} | ${(wall / model).toFixed(2)} | ${ns(median(runs.map((r) => r.sys_ns)))} |`,
  );
});
const sys = reports.map((r) => r.calibrated_sys);
console.log(
  `\ncalibrated sys (${first.calibrated_from.reader} over ${first.calibrated_from.source}): median ${median(sys)} ns, runs ${sys.join(", ")} ns`,
);
for (const run of first.simulated.runs) {
  const cpu = median(reports.map((r) => r.simulated.runs.find((x) => x.reader === run.reader).cpu_ns.median));
  console.log(`simulated ${run.reader}: CPU ${ms(cpu)} + modelled I/O ${ms(run.modelled_io_ns)} (${run.source_reads.toLocaleString("en-US")} source reads × ${first.simulated.params.sys} ns)`);
}
