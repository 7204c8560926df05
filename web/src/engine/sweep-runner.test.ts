// The sweep runner against a scripted stand-in worker: progress per point,
// Cancel terminates the worker and keeps what arrived, the next run gets a
// fresh worker, and errors end the sweep.

import { describe, expect, it } from "vitest";
import { Cancelled } from "./client";
import type { FromWorker, SweepProgress, SweepRequest } from "./protocol";
import type { Params, SweepReport } from "./types.gen";
import { SweepRunner, type SweepWorkerLike } from "./sweep-runner";
import { StandInWorker } from "./stand-in-worker";

class FakeWorker extends StandInWorker<SweepRequest, FromWorker | SweepProgress> implements SweepWorkerLike {}

const params = { sweep: { axis: "cap", from: 16, to: 64 } } as unknown as Params;
const reportOf = (done: number): SweepReport =>
  ({ values: [16, 32, 64], points: Array.from({ length: done }, (_, i) => ({ value: 16 << i })), complete: done === 3 }) as unknown as SweepReport;
const point = (id: number, index: number): SweepProgress => ({ type: "sweep-point", id, index, total: 3, report: reportOf(index + 1), elapsedMs: 1 });

function setUp() {
  const workers: FakeWorker[] = [];
  const runner = new SweepRunner(() => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  }, 60_000);
  return { runner, workers };
}

describe("SweepRunner", () => {
  it("reports each point and resolves with the last report", async () => {
    const { runner, workers } = setUp();
    const seen: number[] = [];
    const done = runner.run(params, false, (r) => seen.push(r.points.length));
    const id = workers[0]!.posted[0]!.id;
    expect(workers[0]!.posted[0]).toMatchObject({ type: "sweep", quick: false });
    for (const i of [0, 1, 2]) workers[0]!.say(point(id, i));
    await expect(done).resolves.toMatchObject({ complete: true });
    expect(seen).toEqual([1, 2, 3]);
    expect(runner.busy).toBe(false);
    expect(workers[0]!.terminated).toBe(false);
  });

  it("cancel terminates the worker, keeps what arrived, and the next run starts a fresh worker", async () => {
    const { runner, workers } = setUp();
    const seen: number[] = [];
    const first = runner.run(params, false, (r) => seen.push(r.points.length));
    const id = workers[0]!.posted[0]!.id;
    workers[0]!.say(point(id, 0));
    runner.cancel();
    await expect(first).rejects.toBeInstanceOf(Cancelled);
    expect(workers[0]!.terminated).toBe(true);
    // A late message from the terminated worker changes nothing.
    workers[0]!.say(point(id, 1));
    expect(seen).toEqual([1]);

    const second = runner.run(params, false, () => undefined);
    expect(workers).toHaveLength(2);
    const id2 = workers[1]!.posted[0]!.id;
    expect(id2).not.toBe(id);
    for (const i of [0, 1, 2]) workers[1]!.say(point(id2, i));
    await expect(second).resolves.toMatchObject({ complete: true });
  });

  it("an engine error ends the sweep with its message", async () => {
    const { runner, workers } = setUp();
    const run = runner.run(params, false, () => undefined);
    const id = workers[0]!.posted[0]!.id;
    workers[0]!.say({ type: "error", id, message: "to: 3 points past streams = 64 dropped", fatal: false });
    await expect(run).rejects.toThrow(/streams = 64/);
    expect(runner.busy).toBe(false);
  });
});
