// @vitest-environment happy-dom
// The effects run with stand-in workers: each request goes to the worker
// the model named, with what it asked, and its answer (or failure, or its
// being dropped) comes back as the action the model expects.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Cancelled, Superseded, type EngineClient, type Engines, type RunResult } from "../engine/client";
import type { Codec } from "../engine/codec";
import type { LabReport, Params, SweepReport } from "../engine/types.gen";
import type { CameraReports } from "../panels/room/camera";
import { deferred, settle } from "./dom-fixtures";
import { createEffects, type Milestones } from "./effects";
import type { Action, Effect, Held } from "./state";

const hoisted = vi.hoisted(() => ({
  sweep: { run: undefined as unknown, cancels: 0 },
  side: { made: [] as [string, (job: { kind: string; link?: string }) => string][], submit: undefined as unknown },
  camera: { started: [] as unknown[], stops: 0 },
}));
vi.mock("../engine/sweep-runner", () => ({
  createSweepRunner: () => ({ run: (...args: unknown[]) => (hoisted.sweep.run as (...a: unknown[]) => unknown)(...args), cancel: () => void hoisted.sweep.cancels++ }),
}));
vi.mock("../engine/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../engine/client")>()),
  createEngineClient: (name: string, build: (job: { kind: string }) => string) => {
    hoisted.side.made.push([name, build]);
    return { submit: (job: unknown) => (hoisted.side.submit as (job: unknown) => unknown)(job) };
  },
}));
vi.mock("../panels/room/camera", () => ({
  startCamera: (reports: unknown) => {
    hoisted.camera.started.push(reports);
    return () => void hoisted.camera.stops++;
  },
}));


const report = (stage: string) => ({ stage, lab: "read", link: "x" }) as unknown as LabReport;

function make(opening = deferred<RunResult>()) {
  const asked: { client: string; args: unknown[]; answer: ReturnType<typeof deferred<unknown>> }[] = [];
  const client = (name: string) =>
    ({
      run: (...args: unknown[]) => {
        const answer = deferred<unknown>();
        asked.push({ client: name, args, answer });
        return answer.promise;
      },
      submit: (...args: unknown[]) => {
        const answer = deferred<unknown>();
        asked.push({ client: `${name}.submit`, args, answer });
        return answer.promise;
      },
      cancel: () => void asked.push({ client: `${name}.cancel`, args: [], answer: deferred() }),
    }) as unknown as EngineClient;
  const engines: Engines = { counter: client("counter"), timer: client("timer") };
  const codec = {
    countsBuild: (lab: string) => (lab === "write" ? "program" : "counts"),
    decodeLink: (link: string) => ({ params: { lab: link.includes("write") ? "write" : "read", workload: link.includes("lines") ? "lines" : "fixed" } }),
  } as unknown as Codec;
  const dispatched: Action[] = [];
  const reached: string[] = [];
  const milestones: Milestones = { firstNumbers: () => void reached.push("firstNumbers"), firstFull: () => void reached.push("firstFull") };
  const replayed: Held[] = [];
  const lessons: string[] = [];
  const effects = createEffects({
    codec,
    engines,
    openingCounts: opening.promise,
    milestones,
    dispatch: (action) => void dispatched.push(action),
    replay: (held) => void replayed.push(held),
    openLesson: (id) => void lessons.push(id),
  });
  return { effects, asked, dispatched, reached, replayed, lessons, opening };
}

const run = (id: number, stage: "counts" | "quick" | "full", lab: "read" | "write" = "read", counts: LabReport | null = null): Effect => ({ type: "run", id, stage, fragment: `link-${id}`, lab, counts });

beforeEach(() => {
  hoisted.side.made = [];
  hoisted.camera.started = [];
  hoisted.camera.stops = 0;
  hoisted.sweep.cancels = 0;
});
afterEach(() => vi.useRealTimers());

describe("run requests", () => {
  it("the first counts are the opening's, asked before the page was built; later counts go to the counting worker", async () => {
    const s = make();
    s.effects.run(run(1, "counts"));
    expect(s.asked).toEqual([]);
    s.opening.resolve({ report: report("counts"), elapsedMs: 3 } as RunResult);
    await settle();
    expect(s.dispatched).toEqual([{ type: "settled", id: 1, outcome: { kind: "report", report: report("counts"), elapsedMs: 3 } }]);
    s.effects.run(run(2, "counts"));
    expect(s.asked.map((a) => [a.client, a.args])).toEqual([["counter", ["link-2", "counts"]]]);
    // A lab the counting build leaves out is counted by the timing worker.
    s.effects.run(run(3, "counts", "write"));
    expect(s.asked.map((a) => [a.client, a.args])[1]).toEqual(["timer", ["link-3", "counts"]]);
  });

  it("timed stages go to the timing worker with the counts they time", async () => {
    const s = make();
    const counts = report("counts");
    s.effects.run(run(4, "full", "read", counts));
    s.effects.run(run(5, "quick"));
    expect(s.asked.map((a) => [a.client, a.args])).toEqual([
      ["timer", ["link-4", "full", undefined, counts]],
      ["timer", ["link-5", "quick", undefined, undefined]],
    ]);
    s.asked[0]!.answer.resolve({ report: report("full"), elapsedMs: 9 });
    await settle();
    expect(s.dispatched).toEqual([{ type: "settled", id: 4, outcome: { kind: "report", report: report("full"), elapsedMs: 9 } }]);
  });

  it("an injected fault rides on the next timed request only, which then times without counts", () => {
    const s = make();
    const fault = { kind: "panic" } as never;
    s.effects.injectFault(fault);
    s.effects.run(run(6, "full", "read", report("counts")));
    s.effects.run(run(7, "full", "read", report("counts")));
    expect(s.asked.map((a) => a.args)).toEqual([
      ["link-6", "full", fault, undefined],
      ["link-7", "full", undefined, report("counts")],
    ]);
  });

  it("a failure says why; a request dropped by a newer one or by Stop is dropped, not failed", async () => {
    const s = make();
    for (const id of [1, 2, 3, 4]) s.effects.run(run(id, "full"));
    s.asked[0]!.answer.reject(new Error("out of memory"));
    s.asked[1]!.answer.reject(new Superseded());
    s.asked[2]!.answer.reject(new Cancelled());
    s.asked[3]!.answer.reject("a string");
    await settle();
    expect(s.dispatched).toEqual([
      { type: "settled", id: 1, outcome: { kind: "failed", message: "out of memory" } },
      { type: "settled", id: 2, outcome: { kind: "dropped" } },
      { type: "settled", id: 3, outcome: { kind: "dropped" } },
      { type: "settled", id: 4, outcome: { kind: "failed", message: "a string" } },
    ]);
  });

  it("opening counts that fail release what waits for the first numbers", async () => {
    const s = make();
    s.opening.reject(new Error("no engine"));
    await settle();
    expect(s.reached).toEqual(["firstNumbers"]);
  });

  it("Stop ends both workers' requests", () => {
    const s = make();
    s.effects.run({ type: "cancelRuns" });
    expect(s.asked.map((a) => a.client)).toEqual(["counter.cancel", "timer.cancel"]);
  });
});

describe("the controls' quiet time", () => {
  it("a slider's step is estimated once it has rested 120 ms; another step waits again; a cancel waits for nothing", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const s = make();
    s.effects.run({ type: "debounce" });
    vi.advanceTimersByTime(100);
    s.effects.run({ type: "debounce" });
    vi.advanceTimersByTime(119);
    expect(s.dispatched).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(s.dispatched).toEqual([{ type: "debounced" }]);
    s.effects.run({ type: "debounce" });
    s.effects.run({ type: "cancelDebounce" });
    vi.advanceTimersByTime(1000);
    expect(s.dispatched).toHaveLength(1);
  });
});

describe("the page's other effects", () => {
  it("writes the link into the address bar", () => {
    const s = make();
    s.effects.run({ type: "writeLink", fragment: "v=1&cap=4096" });
    expect(location.hash).toBe("#v=1&cap=4096");
  });

  it("replays a held change and opens a lesson through the page", () => {
    const s = make();
    const held: Held = { kind: "view", view: "sweep" };
    s.effects.run({ type: "replay", held });
    s.effects.run({ type: "openLesson", id: "one-byte" });
    expect(s.replayed).toEqual([held]);
    expect(s.lessons).toEqual(["one-byte"]);
  });

  it("marks each milestone for the bench and releases what waits for it", () => {
    const s = make();
    const mark = vi.spyOn(performance, "mark");
    s.effects.run({ type: "milestone", milestone: "firstNumbers" });
    expect(mark.mock.calls.map((c) => c[0])).toEqual(["buflab:first-results"]);
    expect(s.reached).toEqual(["firstNumbers"]);
    s.effects.run({ type: "milestone", milestone: "firstFullShown" });
    expect(mark.mock.calls.map((c) => c[0])).toEqual(["buflab:first-results", "buflab:first-full"]);
    expect(s.reached).toEqual(["firstNumbers"]);
    s.effects.run({ type: "milestone", milestone: "firstFull" });
    expect(s.reached).toEqual(["firstNumbers", "firstFull"]);
    expect(mark).toHaveBeenCalledTimes(2);
    mark.mockRestore();
  });
});

describe("the sweep", () => {
  it("each point arrives as it comes, and the sweep settles done with its time", async () => {
    const s = make();
    const answer = deferred<SweepReport>();
    let onPoint: (r: SweepReport) => void = () => undefined;
    const runs: unknown[] = [];
    hoisted.sweep.run = (params: Params, quick: boolean, point: (r: SweepReport) => void) => {
      runs.push([params, quick]);
      onPoint = point;
      return answer.promise;
    };
    const params = { sweep: { axis: "cap" } } as unknown as Params;
    const now = vi.spyOn(performance, "now").mockReturnValue(1000);
    s.effects.run({ type: "sweep", id: 3, params, fragment: "s" });
    await settle();
    expect(runs).toEqual([[params, false]]);
    const point = { points: [1] } as unknown as SweepReport;
    onPoint(point);
    expect(s.dispatched).toEqual([{ type: "sweepPoint", id: 3, report: point }]);
    now.mockReturnValue(1250);
    answer.resolve(point);
    await settle();
    expect(s.dispatched[1]).toEqual({ type: "sweepSettled", id: 3, outcome: { kind: "done", report: point }, elapsedMs: 250 });
    now.mockRestore();
  });

  it("a sweep cancelled or replaced is cancelled; one that fails says why", async () => {
    const s = make();
    const answers = [deferred<SweepReport>(), deferred<SweepReport>(), deferred<SweepReport>()];
    let next = 0;
    hoisted.sweep.run = () => answers[next++]!.promise;
    for (const id of [1, 2, 3]) s.effects.run({ type: "sweep", id, params: {} as Params, fragment: "s" });
    await settle();
    answers[0]!.reject(new Cancelled());
    answers[1]!.reject(new Superseded());
    answers[2]!.reject(new Error("too many points"));
    await settle();
    expect(s.dispatched.map((a) => a.type === "sweepSettled" && [a.id, a.outcome])).toEqual([
      [1, { kind: "cancelled" }],
      [2, { kind: "cancelled" }],
      [3, { kind: "failed", message: "too many points" }],
    ]);
  });

  it("Cancel stops the sweep's worker, and does nothing before any sweep", async () => {
    const s = make();
    s.effects.run({ type: "cancelSweep" });
    await settle();
    expect(hoisted.sweep.cancels).toBe(0);
    hoisted.sweep.run = () => new Promise(() => undefined);
    s.effects.run({ type: "sweep", id: 1, params: {} as Params, fragment: "s" });
    s.effects.run({ type: "cancelSweep" });
    await settle();
    expect(hoisted.sweep.cancels).toBe(1);
  });
});

describe("a comparison", () => {
  it("is measured by the timing worker in full, and settles done, failed or dropped", async () => {
    const s = make();
    for (const id of [1, 2, 3]) s.effects.run({ type: "compare", id, fragment: `cmp-${id}` });
    expect(s.asked.map((a) => [a.client, a.args])).toEqual([1, 2, 3].map((id) => ["timer.submit", [{ kind: "compare", link: `cmp-${id}`, quick: false }]]));
    const comparison = { a: 1 };
    s.asked[0]!.answer.resolve({ comparison });
    s.asked[1]!.answer.reject(new Error("B is invalid"));
    s.asked[2]!.answer.reject(new Superseded());
    await settle();
    expect(s.dispatched).toEqual([
      { type: "compareSettled", id: 1, outcome: { kind: "done", comparison } },
      { type: "compareSettled", id: 2, outcome: { kind: "failed", message: "B is invalid" } },
      { type: "compareSettled", id: 3, outcome: { kind: "dropped" } },
    ]);
  });
});

describe("the side worker's questions", () => {
  it("a quiz is written by one side worker, started by the first question, on the questions build (the write lab's lesson's choices on the program build)", async () => {
    const s = make();
    const jobs: unknown[] = [];
    const answers: ReturnType<typeof deferred<unknown>>[] = [];
    hoisted.side.submit = (job: unknown) => {
      jobs.push(job);
      const answer = deferred<unknown>();
      answers.push(answer);
      return answer.promise;
    };
    expect(hoisted.side.made).toEqual([]);
    s.effects.run({ type: "quiz", link: "q-lines" });
    s.effects.run({ type: "quiz", link: "q2" });
    s.effects.run({ type: "quiz", link: "q3" });
    expect(hoisted.side.made.map(([name]) => name)).toEqual(["buflab-side"]);
    const build = hoisted.side.made[0]![1];
    // A write-lab link's quiz too: the questions build says the quiz is the read lab's (the program build's worker writes no quiz).
    const asked = [
      build({ kind: "quiz", link: "x-lines" }),
      build({ kind: "quiz", link: "x-write" }),
      build({ kind: "choices", link: "y" }),
      build({ kind: "choices", link: "y-write" }),
      build({ kind: "run", link: "z-lines" }),
    ];
    expect(asked).toEqual(["questions", "questions", "questions", "program", "program"]);
    expect(jobs).toEqual([{ kind: "quiz", link: "q-lines" }, { kind: "quiz", link: "q2" }, { kind: "quiz", link: "q3" }]);
    const written = { questions: [] };
    answers[0]!.resolve(written);
    answers[1]!.reject(new Error("no quiz for this link"));
    answers[2]!.reject(new Superseded());
    await settle();
    expect(s.dispatched).toEqual([
      { type: "quiz", action: { kind: "written", link: "q-lines", quiz: written } },
      { type: "quiz", action: { kind: "failed", link: "q2", message: "no quiz for this link" } },
    ]);
  });

  it("a lesson question's four choices are asked of the side worker", async () => {
    const s = make();
    const jobs: unknown[] = [];
    hoisted.side.submit = (job: unknown) => (jobs.push(job), Promise.resolve("choices"));
    await expect(s.effects.lessonChoices("one-byte", "l", "A" as never)).resolves.toBe("choices");
    expect(jobs).toEqual([{ kind: "choices", lesson: "one-byte", link: "l", answer: "A" }]);
  });
});

describe("the room's camera", () => {
  it("starts with its detector and reports what it sees; stopping it stops them", async () => {
    const s = make();
    s.effects.run({ type: "room", effect: { kind: "startCamera" } });
    await settle();
    expect(hoisted.camera.started).toHaveLength(1);
    const reports = hoisted.camera.started[0] as CameraReports;
    reports.on();
    reports.failed(true, "Permission denied");
    reports.seen([{ id: 3, letter: "A" }] as never);
    expect(s.dispatched).toEqual([
      { type: "room", action: { kind: "cameraOn" } },
      { type: "room", action: { kind: "cameraFailed", refused: true, message: "Permission denied" } },
      { type: "room", action: { kind: "seen", markers: [{ id: 3, letter: "A" }] } },
    ]);
    s.effects.run({ type: "room", effect: { kind: "stopCamera" } });
    expect(hoisted.camera.stops).toBe(1);
    // Stopping starts nothing, not even once the scanner's module would have loaded.
    await settle();
    expect(hoisted.camera.started).toHaveLength(1);
    s.effects.run({ type: "room", effect: { kind: "stopCamera" } });
    await settle();
    expect(hoisted.camera.stops).toBe(1);
    expect(hoisted.camera.started).toHaveLength(1);
  });

  it("a second start stops the first camera; a stop before the scanner has loaded starts none", async () => {
    const s = make();
    s.effects.run({ type: "room", effect: { kind: "startCamera" } });
    await settle();
    s.effects.run({ type: "room", effect: { kind: "startCamera" } });
    expect(hoisted.camera.stops).toBe(1);
    await settle();
    expect(hoisted.camera.started).toHaveLength(2);
    s.effects.run({ type: "room", effect: { kind: "stopCamera" } });
    s.effects.run({ type: "room", effect: { kind: "startCamera" } });
    s.effects.run({ type: "room", effect: { kind: "stopCamera" } });
    await settle();
    expect(hoisted.camera.started).toHaveLength(2);
    expect(hoisted.camera.stops).toBe(2);
  });
});
