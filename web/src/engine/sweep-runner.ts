// The sweep view's handle on the engine: a bridge (engine/client.ts) with a
// worker of its own, so a sweep and the page's measurement never queue
// behind each other. A new sweep ends the one running; Cancel terminates the
// worker (the only way to stop wasm mid-point), and the points already
// delivered stay with the caller.

import { createEngineClient, type EngineClient } from "./client";
import { timingBuildOf, type SweepProgress } from "./protocol";
import type { Params, SweepReport } from "./types.gen";

export interface SweepRunner {
  /**
   * Runs the sweep `params.sweep`, calling `onPoint` with the report of the
   * points so far after each point. Resolves with the last report; rejects
   * with `Cancelled` after `cancel()` (or `Superseded` by the next sweep:
   * `isDropped`), or with what went wrong.
   */
  run(params: Params, quick: boolean, onPoint: (report: SweepReport, progress: SweepProgress) => void): Promise<SweepReport | null>;
  /** Stops the sweep now (terminating the worker). */
  cancel(): void;
  /** True while a sweep runs. */
  readonly busy: boolean;
}

/** Sweeps on `bridge`. */
export function sweepRunner(bridge: EngineClient): SweepRunner {
  return {
    run: (params, quick, onPoint) => bridge.submit({ kind: "sweep", params, quick }, (progress) => onPoint(progress.report, progress)),
    cancel: () => bridge.cancel(),
    get busy() {
      return bridge.busy;
    },
  };
}

/** The page's sweep runner: a real module worker of the timing build of the sweep's workload. */
export function createSweepRunner(): SweepRunner {
  return sweepRunner(createEngineClient("buflab-sweep", (job) => (job.kind === "sweep" ? timingBuildOf(job.params) : "program")));
}
