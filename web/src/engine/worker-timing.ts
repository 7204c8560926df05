// The timing builds' worker script (engine/spawn.ts): worker.ts on the
// timing builds' glue, bundled into this one file, doing the read lab's runs
// and sweeps (protocol.ts, Jobs). Every workload's timing build has the same
// exports and imports, so one glue serves them all: the page hands over the
// compiled build of the link's workload (engine/builds.test.ts holds the
// builds' glue to that). Each job blocks this thread until it is done;
// Cancel terminates the worker.

import init, { run, sweep_point, sweep_report, sweep_total, time_counted } from "../../pkg-timing/fixed/buflab_timing.js";
import type { SweepPoint, SweepReport } from "./types.gen";
import { serve, timedRun } from "./worker";

/**
 * How long this worker runs a link's quick estimate, over and over, before
 * its first full measurement. Right after a worker has instantiated the
 * engine, its samples ran about 1.25× slower and scattered wider for up to a
 * second (the order check, docs/benchmarks.md): the page's first full
 * measurement read the unbuffered reader 1.12–1.52× the time of a Measure
 * again. Running every reader's loop for this long first brings them in line
 * (150 ms did not). A link whose quick estimate alone takes longer runs it
 * once: a run that long warms itself.
 */
const FRESH_WARMUP_MS = 300;
let warmedUp = false;

/** Runs `once` for FRESH_WARMUP_MS, the first time only. */
function warmUp(once: () => unknown): void {
  if (warmedUp) return;
  warmedUp = true;
  const until = performance.now() + FRESH_WARMUP_MS;
  do once();
  while (performance.now() < until);
}

serve(
  { build: "timing", init },
  {
    // Counts known already (the counting worker's): only the timed pass runs.
    run: ({ link, stage, fault, counted }) =>
      timedRun(() => {
        if (counted === undefined || stage === "counts") return run(link, stage === "counts", stage === "quick", fault);
        if (stage === "full") warmUp(() => time_counted(link, true, counted));
        return time_counted(link, stage === "quick", counted);
      }),
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
