// Calibrate's handle on the engine: a bridge (engine/client.ts) whose worker
// is started for each calibration and ended once it is done, so the page's
// measurement and a sweep never wait behind it and its memory goes with it.

import { createEngineClient, type EngineClient } from "./client";
import type { CalibrateOutcome } from "./protocol";
import type { Params } from "./types.gen";

export type { CalibrateOutcome } from "./protocol";

/** Measures the cost of one source read on this browser's file system, for `params`' stream. */
export type Calibrate = (params: Params) => Promise<CalibrateOutcome>;

/** Calibrations on `bridge`. */
export function calibrator(bridge: EngineClient): Calibrate {
  return (params) => bridge.submit({ kind: "calibrate", params });
}

/** The page's calibrator: a real module worker of the program build per calibration. */
export function createCalibrator(): Calibrate {
  return calibrator(createEngineClient("buflab-calibrate", "program", { worker: "per-job" }));
}
