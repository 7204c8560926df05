// The bridge's scheduling, time budgets and crash handling, for every job
// kind. The worker here is a stand-in that only records messages and lets
// the test answer: the engine itself is never imitated (its behaviour is
// tested against the real wasm in link.test.ts and the end-to-end tests).

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { realCodec } from "./real-engine";
import { Cancelled, EngineClient, JOB_KINDS, LatestQueue, Superseded, isDropped, type ClientEvent, type ClientOptions, type WorkerLike } from "./client";
import { timingBuildOf, type EngineBuild, type FromWorker, type Job, type JobKind, type Reply, type ToWorker } from "./protocol";
import type { Calibration, Comparison, Params, Report, SweepReport } from "./types.gen";
import { StandInWorker } from "./stand-in-worker";

class ClientWorker extends StandInWorker<ToWorker, FromWorker> implements WorkerLike {
  lastJob(): ToWorker {
    const m = this.posted.at(-1);
    if (!m) throw new Error("nothing posted");
    return m;
  }
  /** The last job posted, which must be a run. */
  lastRun(): Job<"run"> & { id: number } {
    const { id, job } = this.lastJob();
    if (job.kind !== "run") throw new Error(`last job is a ${job.kind}`);
    return { id, ...job };
  }
  /** The worker answers its last job. */
  done(reply: Reply): void {
    this.say({ type: "done", id: this.lastJob().id, reply });
  }
}

// The engine's own defaults (so every field is there), with a short stream.
const params = (rs: number): Params => ({
  ...realCodec().schema.defaults,
  len: 1024,
  chunk: { kind: "file" },
  seed: 1,
  rs,
  sys: 0,
  readers: ["std"],
});

/** The canonical link the page would send for `params(rs)`. */
const link = (rs: number): string => realCodec().encodeLink(params(rs));
/** The settings a run request carries. */
const paramsOf = (m: { link: string }): Params => realCodec().decodeLink(m.link).params;

const reportFor = (p: Params): Report => ({
  params: p,
  runs: [],
  timer: { resolution_ns: 5000, isolated: true, samples_lengthened: false },
  quick: false,
  stage: "full",
  source_digest: "",
  link: "",
  lab: "read",
});

const sweepParams = { ...params(1), sweep: { axis: "cap", from: 16, to: 64 } } as Params;
const sweepReport = (done: number): SweepReport => ({ values: [16, 32, 64], points: Array.from({ length: done }, (_, i) => ({ value: 16 << i })) }) as unknown as SweepReport;
const calibration = { source: "opfs", sys: 212_000 } as unknown as Calibration;

/** One job of each kind and the worker's answer to it, for the rules every kind shares. */
const KINDS: { [K in JobKind]: { job: () => Job<K>; reply: () => Reply<K>; worker: "resident" | "per-job" } } = {
  run: { job: () => ({ kind: "run", link: link(7), stage: "full" }), reply: () => ({ report: reportFor(params(7)), elapsedMs: 1 }), worker: "resident" },
  sweep: { job: () => ({ kind: "sweep", params: sweepParams, quick: false }), reply: () => sweepReport(3), worker: "resident" },
  compare: {
    job: () => ({ kind: "compare", link: `${link(7)}&b.cap=64K`, quick: false }),
    reply: () => ({ comparison: { kind: "compare", a: reportFor(params(7)), b: reportFor(params(7)) } as unknown as Comparison, elapsedMs: 1 }),
    worker: "resident",
  },
  calibrate: { job: () => ({ kind: "calibrate", params: params(1) }), reply: () => ({ kind: "measured", calibration }), worker: "per-job" },
  quiz: { job: () => ({ kind: "quiz", link: link(3) }), reply: () => ({ qseed: 1, questions: [], note: "none" }), worker: "resident" },
  choices: { job: () => ({ kind: "choices", lesson: "one-byte", link: link(1), answer: { kind: "fill_serves", reader: "std" } }), reply: () => ({ lesson: "one-byte", choices: [] }), worker: "resident" },
};

function setup(options: Pick<ClientOptions, "timeoutMs" | "maxRespawns" | "preempt" | "quiet" | "worker" | "build" | "arrived"> = {}) {
  const workers: ClientWorker[] = [];
  const events: ClientEvent[] = [];
  /** The build each worker was started with, in order. */
  const builds: EngineBuild[] = [];
  const client = new EngineClient({
    createWorker: (build) => {
      const w = new ClientWorker();
      workers.push(w);
      builds.push(build);
      return w;
    },
    onEvent: (e) => events.push(e),
    ...options,
  });
  const current = (): ClientWorker => {
    const w = workers.at(-1);
    if (!w) throw new Error("no worker");
    return w;
  };
  /** The current worker answers its last run. */
  const answer = (): void => {
    const m = current().lastRun();
    current().done({ report: reportFor(paramsOf(m)), elapsedMs: 1 });
  };
  return { client, workers, builds, events, current, answer };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("LatestQueue", () => {
  it("starts a job at once when idle", () => {
    const q = new LatestQueue<string>();
    expect(q.submit("a")).toEqual({ start: "a", dropped: null });
    expect(q.running).toBe("a");
  });

  it("keeps one waiting job while one runs; a newer one replaces it", () => {
    const q = new LatestQueue<string>();
    q.submit("a");
    expect(q.submit("b")).toEqual({ start: null, dropped: null });
    expect(q.submit("c")).toEqual({ start: null, dropped: "b" });
    expect(q.finish()).toEqual({ start: "c" });
    expect(q.finish()).toEqual({ start: null });
    expect(q.running).toBeNull();
  });

  it("clear returns the running and waiting jobs", () => {
    const q = new LatestQueue<string>();
    q.submit("a");
    q.submit("b");
    expect(q.clear()).toEqual(["a", "b"]);
    expect(q.submit("c").start).toBe("c");
  });
});

describe.each(Object.keys(KINDS) as JobKind[])("every job kind: %s", (kind) => {
  const { job, reply, worker } = KINDS[kind] as unknown as (typeof KINDS)["run"];
  const budgetMs = JOB_KINDS[kind].budgetMs;

  it("goes to the worker in the one envelope and resolves with its reply", async () => {
    const { client, current } = setup({ worker });
    const done = client.submit(job());
    expect(current().posted).toEqual([{ type: "job", id: 1, job: job() }]);
    expect(client.busy).toBe(true);
    current().done(reply());
    await expect(done).resolves.toEqual(reply());
    expect(client.busy).toBe(false);
  });

  it("cancel terminates the busy worker and rejects with Cancelled; the next job runs on a fresh worker", async () => {
    const { client, workers } = setup({ worker });
    const running = client.submit(job());
    client.cancel();
    await expect(running).rejects.toBeInstanceOf(Cancelled);
    expect(workers[0]!.terminated).toBe(true);
    const next = client.submit(job());
    expect(workers).toHaveLength(2);
    expect(workers[1]!.posted).toHaveLength(1);
    workers[1]!.done(reply());
    await expect(next).resolves.toEqual(reply());
  });

  it("a crash rejects with what the worker was doing, replaces the worker, and the next job works", async () => {
    const { client, workers, events, current } = setup({ worker });
    const crashed = client.submit(job());
    workers[0]!.crash("Uncaught RangeError: out of memory");
    await expect(crashed).rejects.toThrow(`crashed while doing ${JOB_KINDS[kind].describe(job() as never)}: Uncaught RangeError: out of memory`);
    expect(workers[0]!.terminated).toBe(true);
    expect(events.find((e) => e.type === "respawned")).toMatchObject({ reason: expect.stringContaining("out of memory") });
    const next = client.submit(job());
    expect(workers).toHaveLength(2);
    current().done(reply());
    await expect(next).resolves.toEqual(reply());
  });

  it("a trap (a Rust panic) rejects with the engine's message and replaces the worker", async () => {
    const { client, workers, current } = setup({ worker });
    const trapped = client.submit(job());
    current().say({ type: "error", id: 1, message: "The engine panicked: unreachable", fatal: true });
    await expect(trapped).rejects.toThrow("The engine panicked: unreachable");
    expect(workers[0]!.terminated).toBe(true);
    const next = client.submit(job());
    expect(workers).toHaveLength(2);
    current().done(reply());
    await expect(next).resolves.toEqual(reply());
  });

  it("a job silent past its kind's time budget is stopped with a message that says so, on a fresh worker after", async () => {
    const { client, workers, events, current } = setup({ worker });
    const slow = client.submit(job());
    const rejected = expect(slow).rejects.toThrow(`${JOB_KINDS[kind].slow} took longer than ${budgetMs / 1000} s and was stopped`);
    vi.advanceTimersByTime(budgetMs - 1);
    expect(workers[0]!.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    await rejected;
    expect(workers[0]!.terminated).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "respawned" });
    const next = client.submit(job());
    expect(workers).toHaveLength(2);
    current().done(reply());
    await expect(next).resolves.toEqual(reply());
    // An answered job's budget is over.
    vi.advanceTimersByTime(budgetMs * 2);
    expect(current().terminated).toBe(worker === "per-job");
  });

  it("ignores messages from a worker it has replaced", async () => {
    const { client, workers } = setup({ worker });
    const first = client.submit(job());
    client.cancel();
    await expect(first).rejects.toBeInstanceOf(Cancelled);
    const second = client.submit(job());
    workers[0]!.say({ type: "done", id: 1, reply: reply() });
    workers[0]!.crash("late");
    expect(client.busy).toBe(true);
    workers[1]!.done(reply());
    await expect(second).resolves.toEqual(reply());
  });
});

describe("runs (the page's counting and timing workers)", () => {
  it("resolves ready with the worker's isolation", async () => {
    const { client, current, events } = setup();
    current().say({ type: "ready", isolated: true });
    await expect(client.ready).resolves.toEqual({ isolated: true });
    expect(events).toEqual([{ type: "ready", info: { isolated: true } }]);
  });

  it("run() sends a run job with only the fields given", async () => {
    const { client, current, answer } = setup();
    const p = params(1);
    const done = client.run(link(1), "quick");
    expect(current().posted).toEqual([{ type: "job", id: 1, job: { kind: "run", link: link(1), stage: "quick" } }]);
    answer();
    await expect(done).resolves.toMatchObject({ report: { params: p }, elapsedMs: 1 });
  });

  it("a timing run carries the link's counts to the worker, which then times them", async () => {
    const { client, current, answer } = setup();
    const counted = { ...reportFor(params(1)), stage: "counts" as const };
    const timed = client.run(link(1), "full", undefined, counted);
    expect(current().posted).toEqual([{ type: "job", id: 1, job: { kind: "run", link: link(1), stage: "full", counted } }]);
    answer();
    await timed;
  });

  it("drops requests superseded while queued and runs only the newest after the running one", async () => {
    const { client, current, answer } = setup();
    const first = client.run(link(1), "full");
    const second = client.run(link(2), "quick");
    const third = client.run(link(3), "quick");
    await expect(second).rejects.toBeInstanceOf(Superseded);
    expect(isDropped(new Superseded())).toBe(true);
    expect(current().posted.map((m) => paramsOf(m.job as Job<"run">).rs)).toEqual([1]);
    answer();
    await expect(first).resolves.toMatchObject({ report: { params: { rs: 1 } } });
    expect(current().posted.map((m) => paramsOf(m.job as Job<"run">).rs)).toEqual([1, 3]);
    answer();
    await expect(third).resolves.toMatchObject({ report: { params: { rs: 3 } } });
  });

  it("passes the engine's error message through and keeps the worker", async () => {
    const { client, current, workers } = setup();
    const done = client.run(link(1), "full");
    current().say({ type: "error", id: 1, message: "cap: 0 is outside 1..=4M", fatal: false });
    await expect(done).rejects.toThrow("cap: 0 is outside 1..=4M");
    expect(workers).toHaveLength(1);
  });

  it("after a trap, the job waiting runs on the new worker", async () => {
    const { client, current, workers } = setup();
    const first = client.run(link(1), "full");
    const next = client.run(link(2), "full");
    workers[0]!.say({ type: "error", id: 1, message: "The engine crashed: unreachable", fatal: true });
    await expect(first).rejects.toThrow("unreachable");
    expect(workers).toHaveLength(2);
    expect(paramsOf(current().lastRun()).rs).toBe(2);
    answerRun(current());
    await expect(next).resolves.toBeDefined();
  });

  it("cancel drops the waiting run too, and a resident worker is replaced at once", async () => {
    const { client, workers } = setup();
    const running = client.run(link(1), "full");
    const waiting = client.run(link(2), "full");
    client.cancel();
    await expect(running).rejects.toBeInstanceOf(Cancelled);
    await expect(waiting).rejects.toBeInstanceOf(Cancelled);
    expect(workers).toHaveLength(2);
    expect(workers[1]!.posted).toEqual([]);
    expect(client.busy).toBe(false);
  });

  it("a new request preempts a running job the policy gives up: it is superseded and a fresh worker runs the new one", async () => {
    const { client, workers } = setup({ preempt: ({ job }) => job.kind === "run" && job.stage === "full" });
    const full = client.run(link(1), "full");
    const quick = client.run(link(2), "quick");
    await expect(full).rejects.toBeInstanceOf(Superseded);
    expect(workers[0]!.terminated).toBe(true);
    expect(workers[1]!.lastRun()).toMatchObject({ stage: "quick", link: link(2) });
    // A quick estimate is not given up: the next request waits behind it.
    const next = client.run(link(3), "full");
    expect(workers).toHaveLength(2);
    answerRun(workers[1]!);
    await expect(quick).resolves.toBeDefined();
    expect(workers[1]!.lastRun()).toMatchObject({ stage: "full", link: link(3) });
    answerRun(workers[1]!);
    await expect(next).resolves.toBeDefined();
  });

  it("the preempt policy is told how long the running job has run", async () => {
    const { client, workers } = setup({ preempt: ({ ms }) => ms > 150 });
    const first = client.run(link(1), "counts");
    vi.advanceTimersByTime(100);
    const second = client.run(link(2), "counts");
    expect(workers).toHaveLength(1);
    vi.advanceTimersByTime(100);
    const third = client.run(link(3), "counts");
    await expect(first).rejects.toBeInstanceOf(Superseded);
    await expect(second).rejects.toBeInstanceOf(Superseded);
    expect(workers).toHaveLength(2);
    expect(workers[1]!.lastRun()).toMatchObject({ link: link(3) });
    answerRun(workers[1]!);
    await expect(third).resolves.toBeDefined();
  });

  it("cancel with nothing running leaves the worker alone", () => {
    const { client, workers } = setup();
    client.cancel();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.terminated).toBe(false);
  });

  it("a run over its time budget names the run, and the job waiting runs on a fresh worker", async () => {
    const { client, workers } = setup({ timeoutMs: 20_000 });
    const slow = client.run(link(1), "full");
    const next = client.run(link(2), "full");
    const rejected = expect(slow).rejects.toThrow(/longer than 20 s.*full run of #v=1&len=1K&.*rs=1.*shorter stream/);
    vi.advanceTimersByTime(20_000);
    await rejected;
    expect(workers[0]!.terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(paramsOf(workers[1]!.lastRun()).rs).toBe(2);
    answerRun(workers[1]!);
    await expect(next).resolves.toBeDefined();
  });

  it("gives up after repeated crashes without a ready worker", async () => {
    const { client, workers, events } = setup({ maxRespawns: 2 });
    for (let i = 0; i < 3; i++) workers.at(-1)!.crash("SyntaxError in worker script");
    expect(events.at(-1)).toMatchObject({ type: "broken" });
    await expect(client.ready).rejects.toThrow(/Gave up after 2 restarts/);
    await expect(client.run(link(1), "full")).rejects.toThrow(/Gave up/);
  });

  it("a wasm that fails to load breaks the client for good", async () => {
    const { client, current, events } = setup();
    const done = client.run(link(1), "full");
    current().say({ type: "failed", message: "Could not load the engine (wasm): 404" });
    await expect(done).rejects.toThrow("404");
    await expect(client.ready).rejects.toThrow("404");
    expect(events.at(-1)).toEqual({ type: "broken", message: "Could not load the engine (wasm): 404" });
    await expect(client.submit(KINDS.sweep.job())).rejects.toThrow("404");
  });

  it("timed jobs wait for the page's quiet, counts do not; a newer request replaces a waiting one without a new worker", async () => {
    let quiet!: () => void;
    const { client, workers, current, answer } = setup({ quiet: new Promise<void>((resolve) => (quiet = resolve)), preempt: ({ job }) => job.kind === "run" && job.stage === "full" });
    const counts = client.run(link(1), "counts");
    expect(current().posted).toEqual([{ type: "job", id: 1, job: { kind: "run", link: link(1), stage: "counts" } }]);
    const first = client.run(link(1), "full");
    answer();
    await expect(counts).resolves.toBeDefined();
    // The full measurement is next, but the page is still loading.
    expect(current().posted).toHaveLength(1);
    const second = client.run(link(2), "full");
    await expect(first).rejects.toBeInstanceOf(Superseded);
    expect(workers).toHaveLength(1);
    expect(client.busy).toBe(true);
    quiet();
    await Promise.resolve();
    expect(current().lastRun()).toMatchObject({ stage: "full", link: link(2) });
    answer();
    await expect(second).resolves.toMatchObject({ report: { params: { rs: 2 } } });
    // Once quiet, timed jobs start at once.
    void client.run(link(3), "quick");
    expect(current().lastRun()).toMatchObject({ stage: "quick", link: link(3) });
  });

  it("a sweep waits for the page's quiet like a timed run", async () => {
    let quiet!: () => void;
    const { client, current } = setup({ quiet: new Promise<void>((resolve) => (quiet = resolve)) });
    const sweep = client.submit(KINDS.sweep.job());
    expect(current().posted).toEqual([]);
    quiet();
    await Promise.resolve();
    expect(current().lastJob().job.kind).toBe("sweep");
    current().done(sweepReport(3));
    await sweep;
  });

  it("cancel drops a timed job still waiting for the page's quiet; it never starts", async () => {
    let quiet!: () => void;
    const { client, current } = setup({ quiet: new Promise<void>((resolve) => (quiet = resolve)) });
    const waiting = client.run(link(1), "full");
    client.cancel();
    await expect(waiting).rejects.toBeInstanceOf(Cancelled);
    quiet();
    await Promise.resolve();
    expect(current().posted).toEqual([]);
    expect(client.busy).toBe(false);
  });
});

describe("builds (each job on the engine build it needs)", () => {
  /** The timing worker's rule (main.ts): a run on the timing build of its link's workload. */
  const byWorkload = (job: Job): EngineBuild => (job.kind === "run" ? timingBuildOf(paramsOf(job)) : "program");
  const lines = (): string => realCodec().encodeLink({ ...params(7), workload: "lines" });

  it("a fixed build is started at once; a build per job waits for the first job, then stays for jobs of that build", async () => {
    const fixed = setup();
    expect(fixed.builds).toEqual(["counts"]);
    const perJob = setup({ build: byWorkload });
    expect(perJob.builds).toEqual([]);
    const first = perJob.client.run(link(1), "full");
    expect(perJob.builds).toEqual(["timing-fixed"]);
    perJob.answer();
    await first;
    const second = perJob.client.run(link(2), "full");
    expect(perJob.builds).toEqual(["timing-fixed"]);
    expect(perJob.current().lastRun().link).toBe(link(2));
    perJob.answer();
    await second;
  });

  it("a job for another build starts on a fresh worker of that build, the old one ended", async () => {
    const { client, workers, builds, answer } = setup({ build: byWorkload });
    const first = client.run(link(1), "full");
    answer();
    await first;
    const other = client.run(lines(), "full");
    expect(builds).toEqual(["timing-fixed", "timing-lines"]);
    expect(workers[0]!.terminated).toBe(true);
    expect(workers[1]!.lastRun().link).toBe(lines());
    answer();
    await expect(other).resolves.toMatchObject({ report: { params: { workload: "lines" } } });
  });

  it("a job's time budget runs once its build has arrived, not while the build is still being compiled", async () => {
    let arrivedNow: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (arrivedNow = resolve));
    const asked: EngineBuild[] = [];
    const { client, workers } = setup({ build: byWorkload, arrived: (build) => (asked.push(build), arrived) });
    const run = client.run(lines(), "full");
    const rejected = expect(run).rejects.toThrow("took longer than 60 s");
    expect(asked).toEqual(["timing-lines"]);
    // Minutes of `npm start` compiling the build: no time-out.
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(workers[0]!.terminated).toBe(false);
    arrivedNow();
    await vi.advanceTimersByTimeAsync(60_000 - 1);
    expect(workers[0]!.terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await rejected;
    expect(workers[0]!.terminated).toBe(true);
  });

  it("a job waiting for the page's quiet already has its build's worker, loading", () => {
    let quietNow: () => void = () => undefined;
    const quiet = new Promise<void>((resolve) => (quietNow = resolve));
    const { client, builds, workers } = setup({ build: byWorkload, quiet });
    void client.run(lines(), "full").catch(() => undefined);
    expect(builds).toEqual(["timing-lines"]);
    expect(workers[0]!.posted).toEqual([]);
    quietNow();
  });
});

describe("sweeps (a progress message per point)", () => {
  it("hands each point's progress to the caller and resolves with the reply", async () => {
    const { client, current } = setup();
    const seen: number[] = [];
    const done = client.submit(KINDS.sweep.job(), (p) => seen.push(p.report.points.length));
    for (const index of [0, 1, 2]) current().say({ type: "progress", id: 1, progress: { index, total: 3, report: sweepReport(index + 1), elapsedMs: 1 } });
    current().say({ type: "progress", id: 99, progress: { index: 0, total: 3, report: sweepReport(1), elapsedMs: 1 } });
    current().done(sweepReport(3));
    await expect(done).resolves.toEqual(sweepReport(3));
    expect(seen).toEqual([1, 2, 3]);
  });

  it("the time budget is per point: each progress message restarts it", async () => {
    const { client, current, workers } = setup();
    const done = client.submit(KINDS.sweep.job());
    const budget = JOB_KINDS.sweep.budgetMs;
    for (const index of [0, 1, 2]) {
      vi.advanceTimersByTime(budget - 1);
      current().say({ type: "progress", id: 1, progress: { index, total: 3, report: sweepReport(index + 1), elapsedMs: budget - 1 } });
    }
    current().done(sweepReport(3));
    await expect(done).resolves.toEqual(sweepReport(3));
    expect(workers).toHaveLength(1);
  });

  it("a new sweep ends the running one at once: it is superseded and a fresh worker runs the new one", async () => {
    const { client, workers } = setup();
    const seen: number[] = [];
    const first = client.submit(KINDS.sweep.job(), (p) => seen.push(p.index));
    workers[0]!.say({ type: "progress", id: 1, progress: { index: 0, total: 3, report: sweepReport(1), elapsedMs: 1 } });
    const second = client.submit(KINDS.sweep.job());
    await expect(first).rejects.toBeInstanceOf(Superseded);
    expect(workers[0]!.terminated).toBe(true);
    workers[0]!.say({ type: "progress", id: 1, progress: { index: 1, total: 3, report: sweepReport(2), elapsedMs: 1 } });
    expect(seen).toEqual([0]);
    expect(workers[1]!.lastJob()).toMatchObject({ id: 2, job: { kind: "sweep" } });
    workers[1]!.done(sweepReport(3));
    await expect(second).resolves.toEqual(sweepReport(3));
  });

  it("a crash names the sweep's axes", async () => {
    const { client, current } = setup();
    const done = client.submit({ kind: "sweep", params: { ...sweepParams, sweep: { axis: "cap", from: 64, to: 1024, across: { axis: "rs", from: 1, to: 8 } } }, quick: true });
    current().crash("boom");
    await expect(done).rejects.toThrow("crashed while doing a sweep of cap by rs: boom");
  });
});

describe("calibrations (a worker per job)", () => {
  it("starts no worker until there is a job, and ends it once there is none", async () => {
    const { client, workers } = setup({ worker: "per-job" });
    expect(workers).toHaveLength(0);
    const first = client.submit(KINDS.calibrate.job());
    // A second one waits behind the first on the same worker.
    const second = client.submit({ kind: "calibrate", params: params(2) });
    expect(workers).toHaveLength(1);
    workers[0]!.done({ kind: "missing", reason: "no getDirectory" });
    await expect(first).resolves.toEqual({ kind: "missing", reason: "no getDirectory" });
    expect(workers[0]!.terminated).toBe(false);
    expect(workers[0]!.lastJob()).toMatchObject({ id: 2, job: { params: { rs: 2 } } });
    workers[0]!.done(KINDS.calibrate.reply());
    await expect(second).resolves.toEqual(KINDS.calibrate.reply());
    expect(workers[0]!.terminated).toBe(true);
    const third = client.submit(KINDS.calibrate.job());
    expect(workers).toHaveLength(2);
    workers[1]!.done(KINDS.calibrate.reply());
    await third;
  });

  it("a crash leaves no worker running until the next job", async () => {
    const { client, workers } = setup({ worker: "per-job" });
    const done = client.submit(KINDS.calibrate.job());
    workers[0]!.crash("Uncaught Error");
    await expect(done).rejects.toThrow("crashed while doing a calibration");
    expect(workers).toHaveLength(1);
    expect(workers[0]!.terminated).toBe(true);
  });
});

/** `worker` answers its last run with a report of that run's settings. */
function answerRun(worker: ClientWorker): void {
  worker.done({ report: reportFor(paramsOf(worker.lastRun())), elapsedMs: 1 });
}
