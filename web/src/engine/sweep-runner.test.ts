// The sweep view's runner over a bridge with a stand-in worker: each point's
// report reaches the view, Cancel terminates the worker and keeps what
// arrived, and the next sweep runs on a fresh worker. The bridge's own rules
// (time budget, crashes) are tested for every job kind in client.test.ts.

import { describe, expect, it } from "vitest";
import { Cancelled, EngineClient, isDropped } from "./client";
import type { FromWorker, ToWorker } from "./protocol";
import type { Params, SweepReport } from "./types.gen";
import { sweepRunner } from "./sweep-runner";
import { StandInWorker } from "./stand-in-worker";

const params = { sweep: { axis: "cap", from: 16, to: 64 } } as unknown as Params;
const reportOf = (done: number): SweepReport =>
  ({ values: [16, 32, 64], points: Array.from({ length: done }, (_, i) => ({ value: 16 << i })), complete: done === 3 }) as unknown as SweepReport;
const point = (id: number, index: number): FromWorker => ({ type: "progress", id, progress: { index, total: 3, report: reportOf(index + 1), elapsedMs: 1 } });

function setUp() {
  const workers: StandInWorker<ToWorker, FromWorker>[] = [];
  const runner = sweepRunner(
    new EngineClient({
      createWorker: () => {
        const w = new StandInWorker<ToWorker, FromWorker>();
        workers.push(w);
        return w;
      },
    }),
  );
  return { runner, workers };
}

describe("SweepRunner", () => {
  it("reports each point and resolves with the last report", async () => {
    const { runner, workers } = setUp();
    const seen: number[] = [];
    const done = runner.run(params, false, (report, progress) => seen.push(report.points.length, progress.index));
    expect(workers[0]!.posted[0]).toEqual({ type: "job", id: 1, job: { kind: "sweep", params, quick: false } });
    expect(runner.busy).toBe(true);
    for (const i of [0, 1, 2]) workers[0]!.say(point(1, i));
    workers[0]!.say({ type: "done", id: 1, reply: reportOf(3) });
    await expect(done).resolves.toMatchObject({ complete: true });
    expect(seen).toEqual([1, 0, 2, 1, 3, 2]);
    expect(runner.busy).toBe(false);
    expect(workers[0]!.terminated).toBe(false);
  });

  it("cancel terminates the worker, keeps what arrived, and the next run starts on a fresh worker", async () => {
    const { runner, workers } = setUp();
    const seen: number[] = [];
    const first = runner.run(params, false, (r) => seen.push(r.points.length));
    workers[0]!.say(point(1, 0));
    runner.cancel();
    await expect(first).rejects.toBeInstanceOf(Cancelled);
    expect(workers[0]!.terminated).toBe(true);
    // A late message from the terminated worker changes nothing.
    workers[0]!.say(point(1, 1));
    expect(seen).toEqual([1]);

    const second = runner.run(params, true, () => undefined);
    expect(workers).toHaveLength(2);
    expect(workers[1]!.posted[0]).toMatchObject({ id: 2, job: { kind: "sweep", quick: true } });
    workers[1]!.say({ type: "done", id: 2, reply: reportOf(3) });
    await expect(second).resolves.toMatchObject({ complete: true });
  });

  it("a second run without a cancel ends the first, which is dropped, not failed", async () => {
    const { runner, workers } = setUp();
    const first = runner.run(params, false, () => undefined);
    const second = runner.run(params, false, () => undefined);
    await expect(first).rejects.toSatisfy(isDropped);
    expect(workers[0]!.terminated).toBe(true);
    workers[1]!.say({ type: "done", id: 2, reply: reportOf(3) });
    await expect(second).resolves.toMatchObject({ complete: true });
  });

  it("an engine error ends the sweep with its message", async () => {
    const { runner, workers } = setUp();
    const run = runner.run(params, false, () => undefined);
    workers[0]!.say({ type: "error", id: 1, message: "to: 3 points past streams = 64 dropped", fatal: false });
    await expect(run).rejects.toThrow(/streams = 64/);
    expect(runner.busy).toBe(false);
  });
});
