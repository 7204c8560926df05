// Whether this machine runs the same code at one speed: `node
// scripts/machine-phases.mjs [SECONDS]` (default 6) times two loops over and
// over, alternating, and prints each loop's median per quarter second, then
// its fastest and slowest quarter seconds (10th and 90th percentile) and
// their ratio:
//   - load/store: a byte array of 32 KiB (inside any core's L1 cache), each
//     byte read and written, as BufLab's readers move bytes;
//   - chain: a multiply-add chain in registers, no memory at all.
// On a machine that runs code at one speed both read about 1.0×. On the 2-core VM this
// project's figures come from (docs/benchmarks.md, "The machine's two
// speeds"), the load/store loop switches between two speeds about 1.6×
// apart, in phases of a quarter second to a few seconds, on each core on its
// own, while the chain stays flat: no time taken there can be held to a
// tenth against a time taken a second earlier. Pin it to a core with
// `taskset -c N` to watch one core. `npm run bench` runs it for three
// seconds before and after its run (`machinePhases`).

/** The two loops, each a call of a few milliseconds. */
const LOOPS = {
  "load/store": (() => {
    const bytes = new Uint8Array(32 * 1024);
    return () => {
      let sum = 0;
      for (let round = 0; round < 64; round++) {
        for (let i = 0; i < bytes.length; i++) {
          sum = (sum + bytes[i]) | 0;
          bytes[i] = sum;
        }
      }
      return sum;
    };
  })(),
  chain: () => {
    let x = 0;
    for (let i = 0; i < 1.5e6; i++) x = (x * 31 + i) | 0;
    return x;
  },
};

/** The q-quantile of sorted numbers (nearest rank). */
const quantile = (sorted, q) => sorted[Math.round(q * (sorted.length - 1))];

/**
 * Runs each loop in turn for `ms` (both a few times first, for the JIT) and
 * returns per loop: `series`, its median call (ms) per quarter second in
 * order; `fast` and `slow`, the 10th and 90th percentile of those; `ratio`,
 * slow ÷ fast.
 */
export function machinePhases(ms = 6000) {
  const names = Object.keys(LOOPS);
  for (let i = 0; i < 5; i++) for (const name of names) LOOPS[name]();
  const bins = Object.fromEntries(names.map((name) => [name, []]));
  const origin = performance.now();
  while (performance.now() - origin < ms) {
    for (const name of names) {
      const start = performance.now();
      LOOPS[name]();
      const bin = Math.floor((start - origin) / 250);
      (bins[name][bin] ??= []).push(performance.now() - start);
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const series = bins[name].filter(Boolean).map((calls) => quantile(calls.sort((a, b) => a - b), 0.5));
      const sorted = [...series].sort((a, b) => a - b);
      const fast = quantile(sorted, 0.1);
      const slow = quantile(sorted, 0.9);
      return [name, { series, fast, slow, ratio: slow / fast }];
    }),
  );
}

/** One line per loop: its quarter seconds, then fastest, slowest and their ratio. */
export function phaseLines(phases) {
  return Object.entries(phases).map(
    ([name, p]) =>
      `${name}: ${p.fast.toFixed(2)} ms a call in its fast quarter seconds, ${p.slow.toFixed(2)} in its slow ones: ${p.ratio.toFixed(2)}× (each quarter second: ${p.series.map((x) => x.toFixed(1)).join(" ")})`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.argv[2] ?? 6);
  console.log(phaseLines(machinePhases(seconds * 1000)).join("\n"));
}
