// Calibrate's bridge against a scripted stand-in worker (the real one needs
// a browser: web/e2e/calibrate.test.ts): each calibration gets its own
// worker and ends it, whatever the answer; a missing OPFS is an outcome, not
// an error; a silent worker is stopped at the time budget. And in Node,
// which has no Origin Private File System, the worker's file opener says so.

import { describe, expect, it } from "vitest";
import { calibrator, type CalibrateWorkerLike } from "./calibrate-runner";
import { openOpfsFile } from "./opfs";
import type { CalibrateReply, CalibrateRequest, FromWorker } from "./protocol";
import type { Calibration, Params } from "./types.gen";
import { StandInWorker } from "./stand-in-worker";

class FakeWorker extends StandInWorker<CalibrateRequest, FromWorker | CalibrateReply> implements CalibrateWorkerLike {}

const params = { rs: 1 } as unknown as Params;
const calibration = { source: "opfs", sys: 212_000 } as unknown as Calibration;

function setUp(timeoutMs = 60_000) {
  const workers: FakeWorker[] = [];
  const calibrate = calibrator(() => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  }, timeoutMs);
  return { calibrate, workers };
}

describe("calibrator", () => {
  it("sends the params to a fresh worker and resolves with the calibration, ending the worker", async () => {
    const { calibrate, workers } = setUp();
    const done = calibrate(params);
    const request = workers[0]!.posted[0]!;
    expect(request).toMatchObject({ type: "calibrate", params });
    workers[0]!.say({ type: "ready", isolated: true });
    workers[0]!.say({ type: "calibrated", id: request.id + 1, calibration: { ...calibration, sys: 1 } });
    workers[0]!.say({ type: "calibrated", id: request.id, calibration });
    await expect(done).resolves.toEqual({ kind: "measured", calibration });
    expect(workers[0]!.terminated).toBe(true);
    const again = calibrate(params);
    expect(workers).toHaveLength(2);
    workers[1]!.say({ type: "calibrated", id: workers[1]!.posted[0]!.id, calibration });
    await again;
  });

  it("turns a missing OPFS into an outcome that names what is missing", async () => {
    const { calibrate, workers } = setUp();
    const done = calibrate(params);
    workers[0]!.say({ type: "opfs-missing", id: workers[0]!.posted[0]!.id, reason: "no getDirectory" });
    await expect(done).resolves.toEqual({ kind: "missing", reason: "no getDirectory" });
    expect(workers[0]!.terminated).toBe(true);
  });

  it("rejects with the engine's error, and stops a worker that never answers", async () => {
    const { calibrate, workers } = setUp(20);
    const failed = calibrate(params);
    workers[0]!.say({ type: "error", id: workers[0]!.posted[0]!.id, message: "calibrate: writing the file: quota", fatal: false });
    await expect(failed).rejects.toThrow("quota");
    await expect(calibrate(params)).rejects.toThrow(/took longer than/);
    expect(workers[1]!.terminated).toBe(true);
  });
});

describe("openOpfsFile", () => {
  it("says what is missing where there is no Origin Private File System (Node)", async () => {
    const file = await openOpfsFile();
    expect(file).toEqual({ missing: expect.stringMatching(/Origin Private File System/) });
  });
});
