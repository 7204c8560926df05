// Calibrate's handle over a bridge with a stand-in worker (the real one
// needs a browser: web/e2e/calibrate.test.ts): each calibration gets a worker
// that ends once it is done, whatever the answer; a missing OPFS is an
// outcome, not an error. The bridge's own rules (time budget, crashes) are
// tested for every job kind in client.test.ts. And in Node, which has no
// Origin Private File System, the worker's file opener says so.

import { describe, expect, it } from "vitest";
import { EngineClient } from "./client";
import { calibrator } from "./calibrate-runner";
import { openOpfsFile } from "./opfs";
import type { FromWorker, ToWorker } from "./protocol";
import type { Calibration, Params } from "./types.gen";
import { StandInWorker } from "./stand-in-worker";

const params = { rs: 1 } as unknown as Params;
const calibration = { source: "opfs", sys: 212_000 } as unknown as Calibration;

function setUp() {
  const workers: StandInWorker<ToWorker, FromWorker>[] = [];
  const calibrate = calibrator(
    new EngineClient({
      worker: "per-job",
      createWorker: () => {
        const w = new StandInWorker<ToWorker, FromWorker>();
        workers.push(w);
        return w;
      },
    }),
  );
  return { calibrate, workers };
}

describe("calibrator", () => {
  it("sends the params to a fresh worker and resolves with the calibration, ending the worker", async () => {
    const { calibrate, workers } = setUp();
    expect(workers).toHaveLength(0);
    const done = calibrate(params);
    expect(workers[0]!.posted).toEqual([{ type: "job", id: 1, job: { kind: "calibrate", params } }]);
    workers[0]!.say({ type: "ready", isolated: true });
    workers[0]!.say({ type: "done", id: 2, reply: { kind: "measured", calibration: { ...calibration, sys: 1 } } });
    workers[0]!.say({ type: "done", id: 1, reply: { kind: "measured", calibration } });
    await expect(done).resolves.toEqual({ kind: "measured", calibration });
    expect(workers[0]!.terminated).toBe(true);
    const again = calibrate(params);
    expect(workers).toHaveLength(2);
    workers[1]!.say({ type: "done", id: 2, reply: { kind: "measured", calibration } });
    await again;
  });

  it("a missing OPFS is an outcome that names what is missing", async () => {
    const { calibrate, workers } = setUp();
    const done = calibrate(params);
    workers[0]!.say({ type: "done", id: 1, reply: { kind: "missing", reason: "no getDirectory" } });
    await expect(done).resolves.toEqual({ kind: "missing", reason: "no getDirectory" });
    expect(workers[0]!.terminated).toBe(true);
  });

  it("rejects with the engine's error and ends the worker", async () => {
    const { calibrate, workers } = setUp();
    const failed = calibrate(params);
    workers[0]!.say({ type: "error", id: 1, message: "calibrate: writing the file: quota", fatal: false });
    await expect(failed).rejects.toThrow("quota");
    expect(workers[0]!.terminated).toBe(true);
  });
});

describe("openOpfsFile", () => {
  it("says what is missing where there is no Origin Private File System (Node)", async () => {
    const file = await openOpfsFile();
    expect(file).toEqual({ missing: expect.stringMatching(/Origin Private File System/) });
  });
});
