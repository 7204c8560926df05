// How fast the page's engine reads an strace log: the trace build
// (`npm run wasm:trace`, web/pkg-trace) in Node, fed a log in 1 MiB chunks
// as the worker feeds a dropped file, `rounds` times over. Prints lines per
// second of wall and CPU time (Node's process.cpuUsage). Make the log with
// the native example, which times the same bytes natively:
//
//   cargo run --release --example trace_speed -- 1000000 one-byte --write /tmp/one-byte.strace
//   node scripts/trace-speed.mjs /tmp/one-byte.strace 10
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const [file, roundsArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node scripts/trace-speed.mjs LOG [ROUNDS]");
  process.exit(2);
}
const rounds = Number(roundsArg ?? 10);
const pkg = new URL("../web/pkg-trace/", import.meta.url);
const glue = await import(new URL("buflab_trace.js", pkg).href);
glue.initSync({ module: readFileSync(fileURLToPath(new URL("buflab_trace_bg.wasm", pkg))) });

const log = new Uint8Array(readFileSync(file));
let lines = 0;
for (const b of log) if (b === 10) lines++;
const CHUNK = 1 << 20;

// A warm-up round: V8 compiles wasm lazily and tiers up.
const warm = new glue.TraceSession();
for (let at = 0; at < log.length; at += CHUNK) warm.feed(log.subarray(at, at + CHUNK));
warm.finish(true);
warm.free();

const session = new glue.TraceSession();
const cpu = process.cpuUsage();
const start = performance.now();
for (let r = 0; r < rounds; r++) {
  for (let at = 0; at < log.length; at += CHUNK) session.feed(log.subarray(at, at + CHUNK));
}
const report = session.finish(true);
const wall = (performance.now() - start) / 1000;
const used = process.cpuUsage(cpu);
const cpuS = (used.user + used.system) / 1e6;
const total = lines * rounds;
const mib = (log.length * rounds) / 1048576;
console.log(
  `wasm in Node ${process.version}: ${total} lines, ${mib.toFixed(1)} MiB in ${wall.toFixed(2)} s wall ` +
    `(${(total / wall / 1e6).toFixed(2)} M lines/s), ${cpuS.toFixed(2)} s CPU (${(total / cpuS / 1e6).toFixed(2)} M lines/s, ` +
    `${(mib / cpuS).toFixed(0)} MiB/s); ${report.read_calls} read calls, ${report.descriptors.length} descriptors, ${report.skipped.lines} skipped`,
);
const busiest = report.descriptors.reduce((a, d) => (d.calls > a.calls ? d : a), report.descriptors[0]);
const t0 = performance.now();
const replay = session.replay(busiest.id, { caps: [8192], readers: ["std"], sweep: false, fit: false });
console.log(`replay of the busiest descriptor (${busiest.calls} calls): ${((performance.now() - t0) / 1000).toFixed(2)} s: ${replay.headline}`);
