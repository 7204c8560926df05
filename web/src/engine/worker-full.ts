// The full build's worker script (engine/spawn.ts): worker.ts on the full
// build's glue, bundled into this one file, doing every job kind
// (protocol.ts, Jobs). Each blocks this thread until it is done; Cancel
// terminates the worker.

import init, { calibrate_opfs, run, sweep_point, sweep_report, sweep_total, time_counted } from "../../pkg/buflab.js";
import { openOpfsFile } from "./opfs";
import type { Calibration, SweepPoint, SweepReport } from "./types.gen";
import { serve, timedRun } from "./worker";

serve(
  { build: "full", init },
  {
    // Counts known already (the counting worker's): only the timed pass runs.
    run: ({ link, stage, fault, counted }) =>
      timedRun(() =>
        counted !== undefined && stage !== "counts" ? time_counted(link, stage === "quick", counted) : run(link, stage === "counts", stage === "quick", fault),
      ),
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
    // Opens a file in the Origin Private File System (the async part), then
    // the engine writes the stream to it and times reading it back through
    // the sync access handle (blocking, about half a second).
    calibrate: async ({ params }) => {
      const file = await openOpfsFile();
      if ("missing" in file) return { kind: "missing", reason: file.missing };
      try {
        return { kind: "measured", calibration: calibrate_opfs(params, file.handle as never) as Calibration };
      } finally {
        await file.release();
      }
    },
  },
);
