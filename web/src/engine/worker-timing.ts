// The timing builds' worker script (engine/spawn.ts): worker.ts on the
// timing builds' glue, bundled into this one file, doing the read lab's runs,
// comparisons and sweeps (protocol.ts, Jobs). Every workload's timing build has the same
// exports and imports, so one glue serves them all: the page hands over the
// compiled build of the link's workload (engine/builds.test.ts holds the
// builds' glue to that). Each job blocks this thread until it is done;
// Cancel terminates the worker. Before its first full measurement the
// worker warms its instance up with short calls of the same job (`warmUp`),
// and leaves both in its performance timeline (engine/warm-up.ts).

import init, { compare, run, sweep_point, sweep_report, sweep_total, time_counted, warmed_up } from "../../pkg-timing/fixed/buflab_timing.js";
import TIMING from "./timing.gen.json";
import type { Comparison, SweepPoint, SweepReport } from "./types.gen";
import { type Called, FULL_MEASURE, WARM_UP_MEASURE, type WarmUpDetail, type WarmUpEnd } from "./warm-up";
import { serve, timedRun } from "./worker";

/** How the worker warms up before its first full measurement (`warmUp`). */
const WARM_UP = {
  /** At least this many calls. */
  minCalls: 3,
  /**
   * A call this much faster than the second (the first also compiles the
   * baseline code of what it calls, lazily) shows the optimized code has
   * come; only after one does the warm-up end early.
   */
  step: 0.2,
  /** Then this many calls in a row, none faster than the fastest before by `gain`, end it. */
  flatCalls: 3,
  gain: 0.05,
  /** At most this long (ms): the engine's fixed fresh period (`FRESH_NS` in crate/src/engine/clock.rs, generated into timing.gen.json). */
  maxMs: TIMING.fresh_ms,
  /**
   * A call after the first this long (ms) ends it and leaves the fresh
   * period to the engine: a heavy link's runs are long calls of their own,
   * and more of them would only delay its measurement. (The first call
   * compiles baseline code as it goes: on a busy machine it alone took
   * 150–190 ms of a default link whose calls then took 55.)
   */
  longMs: 100,
};

let warm = false;

/**
 * Calls `call` (a quick estimate of the first full measurement's own link:
 * the very functions it times, a short sample each) until it has got faster
 * and stopped getting faster, then ends the engine's fresh period
 * (`warmed_up`); calls that never got faster (on a busy machine the
 * optimizing compiles wait for a core) leave that period to the engine,
 * as do calls too long to be short ones. V8 optimizes a
 * wasm function once its baseline code has run for a budget, and a call
 * already running stays in the code it began in: the next call enters the
 * optimized code. So many short calls reach it soonest, and the full
 * measurement then starts in it; a long warm-up inside that measurement
 * would keep its own outer loop in the baseline code throughout.
 * Leaves a `WARM_UP_MEASURE` performance measure: `called`, the calls made
 * and why it ended.
 */
function warmUp(call: () => unknown, called: Called): void {
  warm = true;
  const started = performance.now();
  const ended = (why: WarmUpEnd, calls: number): void => {
    const detail: WarmUpDetail = { ...called, calls, ended: why };
    performance.measure(WARM_UP_MEASURE, { start: started, end: performance.now(), detail });
  };
  let second = Infinity;
  let fastest = Infinity;
  let flat = 0;
  let calls = 0;
  while (performance.now() - started < WARM_UP.maxMs) {
    calls++;
    const at = performance.now();
    call();
    const took = performance.now() - at;
    // (the first call compiles its callees' baseline code too: it says nothing of their speed)
    if (calls === 1) continue;
    if (took > WARM_UP.longMs) return ended("long", calls);
    if (calls === 2) second = took;
    flat = took < fastest * (1 - WARM_UP.gain) ? 0 : flat + 1;
    fastest = Math.min(fastest, took);
    const optimized = fastest < second * (1 - WARM_UP.step);
    if (calls >= WARM_UP.minCalls && optimized && flat >= WARM_UP.flatCalls) {
      warmed_up();
      return ended("optimized", calls);
    }
  }
  ended("limit", calls);
}

serve(
  { build: "timing", init },
  {
    // Counts known already (the counting worker's): only the timed pass runs.
    run: ({ link, stage, fault, counted }) => {
      const [called, timed]: [Called, (quick: boolean) => unknown] =
        counted === undefined || stage === "counts"
          ? [{ export: "run", link }, (quick) => run(link, stage === "counts", quick, fault)]
          : [{ export: "time_counted", link }, (quick) => time_counted(link, quick, counted)];
      if (stage !== "full" || warm || fault !== undefined) return timedRun(() => timed(stage === "quick"));
      warmUp(() => timed(true), called);
      const started = performance.now();
      const reply = timedRun(() => timed(false));
      performance.measure(FULL_MEASURE, { start: started, end: performance.now(), detail: called });
      return reply;
    },
    // A and B in alternating rounds, in this one worker.
    compare: ({ link, quick }) => {
      const started = performance.now();
      const comparison = compare(link, false, quick) as Comparison;
      return { comparison, elapsedMs: performance.now() - started };
    },
    // Point by point, posting the report of the points so far after each one.
    sweep: ({ params, quick }, progress) => {
      const total = sweep_total(params);
      const points: SweepPoint[] = [];
      let report: SweepReport | null = null;
      for (let index = 0; index < total; index++) {
        const started = performance.now();
        points.push(sweep_point(params, index, { quick }) as SweepPoint);
        report = sweep_report(params, points) as SweepReport;
        progress({ index, total, report, elapsedMs: performance.now() - started });
      }
      return report ?? (sweep_report(params, points) as SweepReport);
    },
  },
);
