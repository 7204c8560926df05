// Calibrate's bridge to an engine worker: a fresh instance of worker.ts per
// calibration (so the page's measurement and a sweep never wait behind it),
// terminated when the answer arrives or the time budget runs out.
//
//   calibrate(params) ──{type:'calibrate'}──▶ worker: OPFS file, calibrate_opfs
//        resolves ◀── calibrated / opfs-missing ◀──┘   (error: rejects)

import type { CalibrateReply, CalibrateRequest, FromWorker } from "./protocol";
import { spawnEngineWorker } from "./spawn";
import type { Calibration, Params } from "./types.gen";

/**
 * Longest a calibration may take, worker start included. The engine bounds
 * its own work to about half a second; anything near this is a stuck worker.
 */
export const CALIBRATE_TIMEOUT_MS = 20_000;

/** What a calibration found. */
export type CalibrateOutcome =
  | { kind: "measured"; calibration: Calibration }
  /** No synchronous OPFS file in this browser: `reason` says what is missing; `sys` stays as it is. */
  | { kind: "missing"; reason: string };

/** What the calibrator needs from a Worker. */
export interface CalibrateWorkerLike {
  postMessage(message: CalibrateRequest): void;
  terminate(): void;
  addEventListener(type: "message", listener: (event: MessageEvent<FromWorker | CalibrateReply>) => void): void;
  addEventListener(type: "error", listener: (event: ErrorEvent) => void): void;
}

export type Calibrate = (params: Params) => Promise<CalibrateOutcome>;

/** A calibrator over workers from `createWorker`; each calibration gets one and ends it. */
export function calibrator(createWorker: () => CalibrateWorkerLike, timeoutMs = CALIBRATE_TIMEOUT_MS): Calibrate {
  let nextId = 1;
  return (params) =>
    new Promise<CalibrateOutcome>((resolve, reject) => {
      const id = nextId++;
      const worker = createWorker();
      let open = true;
      const end = (settle: () => void): void => {
        if (!open) return;
        open = false;
        clearTimeout(timer);
        worker.terminate();
        settle();
      };
      const timer = setTimeout(
        () => end(() => reject(new Error(`Calibrate took longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`))),
        timeoutMs,
      );
      worker.addEventListener("message", (event) => {
        const message = event.data;
        switch (message.type) {
          case "calibrated":
            if (message.id === id) end(() => resolve({ kind: "measured", calibration: message.calibration }));
            return;
          case "opfs-missing":
            if (message.id === id) end(() => resolve({ kind: "missing", reason: message.reason }));
            return;
          case "error":
            if (message.id === id) end(() => reject(new Error(message.message)));
            return;
          case "failed":
            end(() => reject(new Error(message.message)));
            return;
          default:
            return;
        }
      });
      worker.addEventListener("error", (event) => {
        event.preventDefault?.();
        end(() => reject(new Error(`Calibrate's engine worker crashed: ${event.message || "it failed to start or threw"}`)));
      });
      worker.postMessage({ type: "calibrate", id, params });
    });
}

/** The page's calibrator: real module workers built by Vite. */
export function createCalibrator(): Calibrate {
  return calibrator(
    () => spawnEngineWorker("buflab-calibrate", "full") as CalibrateWorkerLike,
  );
}
