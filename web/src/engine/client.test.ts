// The client's scheduling, time budget and crash handling. The worker here is
// a stand-in that only records messages and lets the test answer: the engine
// itself is never imitated (its behaviour is tested against the real wasm in
// link.test.ts and the end-to-end tests).

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { realCodec } from "./real-engine";
import { Cancelled, EngineClient, LatestQueue, Superseded, isDropped, type ClientEvent, type ClientOptions, type WorkerLike } from "./client";
import type { FromWorker, ToWorker } from "./protocol";
import type { Params, Report } from "./types.gen";
import { StandInWorker } from "./stand-in-worker";

class ClientWorker extends StandInWorker<ToWorker, FromWorker> implements WorkerLike {
  lastRun(): Extract<ToWorker, { type: "run" }> {
    const m = this.posted.at(-1);
    if (!m) throw new Error("nothing posted");
    return m;
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
  timer: { resolution_ns: 5000, isolated: true },
  quick: false,
  stage: "full",
  source_digest: "",
  link: "",
  lab: "read",
});

function setup(options: Pick<ClientOptions, "timeoutMs" | "maxRespawns" | "preempt" | "quiet"> = {}) {
  const workers: ClientWorker[] = [];
  const events: ClientEvent[] = [];
  const client = new EngineClient({
    createWorker: () => {
      const w = new ClientWorker();
      workers.push(w);
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
  /** The current worker answers its last request. */
  const answer = (): void => {
    const m = current().lastRun();
    current().say({ type: "result", id: m.id, report: reportFor(paramsOf(m)), elapsedMs: 1 });
  };
  return { client, workers, events, current, answer };
}

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

describe("EngineClient", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves ready with the worker's isolation", async () => {
    const { client, current, events } = setup();
    current().say({ type: "ready", isolated: true });
    await expect(client.ready).resolves.toEqual({ isolated: true });
    expect(events).toEqual([{ type: "ready", info: { isolated: true } }]);
  });

  it("sends one run and resolves it with the worker's report", async () => {
    const { client, current, answer } = setup();
    const p = params(1);
    const done = client.run(link(1), "quick");
    expect(current().posted).toEqual([{ type: "run", id: 1, link: link(1), stage: "quick" }]);
    answer();
    await expect(done).resolves.toMatchObject({ report: { params: p }, elapsedMs: 1 });
    expect(client.busy).toBe(false);
  });

  it("a timing run carries the link's counts to the worker, which then times them", async () => {
    const { client, current, answer } = setup();
    const counted = { ...reportFor(params(1)), stage: "counts" as const };
    const timed = client.run(link(1), "full", undefined, counted);
    expect(current().posted).toEqual([{ type: "run", id: 1, link: link(1), stage: "full", counted }]);
    answer();
    await timed;
  });

  it("drops requests superseded while queued and runs only the newest after the running one", async () => {
    const { client, current, answer } = setup();
    const first = client.run(link(1), "full");
    const second = client.run(link(2), "quick");
    const third = client.run(link(3), "quick");
    await expect(second).rejects.toBeInstanceOf(Superseded);
    expect(current().posted.map((m) => paramsOf(m).rs)).toEqual([1]);
    answer();
    await expect(first).resolves.toMatchObject({ report: { params: { rs: 1 } } });
    expect(current().posted.map((m) => paramsOf(m).rs)).toEqual([1, 3]);
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

  it("replaces the worker after a trap (a Rust panic) and runs the waiting job on the new one", async () => {
    const { client, current, workers, events } = setup();
    const first = client.run(link(1), "full");
    const next = client.run(link(2), "full");
    workers[0]!.say({ type: "error", id: 1, message: "The engine crashed: unreachable", fatal: true });
    await expect(first).rejects.toThrow("unreachable");
    expect(workers).toHaveLength(2);
    expect(workers[0]!.terminated).toBe(true);
    expect(events.some((e) => e.type === "respawned")).toBe(true);
    expect(paramsOf(current().lastRun()).rs).toBe(2);
    current().say({ type: "result", id: current().lastRun().id, report: reportFor(params(2)), elapsedMs: 1 });
    await expect(next).resolves.toBeDefined();
  });

  it("cancel terminates the busy worker, starts a fresh one and rejects with Cancelled", async () => {
    const { client, workers } = setup();
    const running = client.run(link(1), "full");
    const waiting = client.run(link(2), "full");
    client.cancel();
    await expect(running).rejects.toBeInstanceOf(Cancelled);
    await expect(waiting).rejects.toBeInstanceOf(Cancelled);
    expect(workers[0]!.terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(client.busy).toBe(false);
    expect(isDropped(new Cancelled())).toBe(true);
  });

  it("a new request preempts a running job the policy gives up: it is superseded and a fresh worker runs the new one", async () => {
    const { client, workers } = setup({ preempt: ({ stage }) => stage === "full" });
    const full = client.run(link(1), "full");
    const quick = client.run(link(2), "quick");
    await expect(full).rejects.toBeInstanceOf(Superseded);
    expect(workers[0]!.terminated).toBe(true);
    expect(workers[1]!.lastRun()).toMatchObject({ stage: "quick", link: link(2) });
    // A quick estimate is not given up: the next request waits behind it.
    const next = client.run(link(3), "full");
    expect(workers).toHaveLength(2);
    workers[1]!.say({ type: "result", id: workers[1]!.lastRun().id, report: reportFor(params(2)), elapsedMs: 1 });
    await expect(quick).resolves.toBeDefined();
    expect(workers[1]!.lastRun()).toMatchObject({ stage: "full", link: link(3) });
    workers[1]!.say({ type: "result", id: workers[1]!.lastRun().id, report: reportFor(params(3)), elapsedMs: 1 });
    await expect(next).resolves.toBeDefined();
  });

  it("cancel with nothing running leaves the worker alone", () => {
    const { client, workers } = setup();
    client.cancel();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.terminated).toBe(false);
  });

  it("a job over its time budget is stopped with a clear message, and the next job runs on a fresh worker", async () => {
    const { client, workers } = setup({ timeoutMs: 20_000 });
    const slow = client.run(link(1), "full");
    const next = client.run(link(2), "full");
    const rejected = expect(slow).rejects.toThrow(/longer than 20 s.*rs=1/);
    vi.advanceTimersByTime(20_000);
    await rejected;
    expect(workers[0]!.terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(paramsOf(workers[1]!.lastRun()).rs).toBe(2);
    workers[1]!.say({ type: "result", id: workers[1]!.lastRun().id, report: reportFor(params(2)), elapsedMs: 3 });
    await expect(next).resolves.toBeDefined();
  });

  it("a job that finishes in time clears its timer", async () => {
    const { client, workers, answer } = setup({ timeoutMs: 1000 });
    const done = client.run(link(1), "full");
    answer();
    await done;
    vi.advanceTimersByTime(5000);
    expect(workers).toHaveLength(1);
  });

  it("reports a worker crash with what it was doing, and starts a new worker", async () => {
    const { client, workers, events } = setup();
    const done = client.run(link(7), "full");
    workers[0]!.crash("Uncaught RangeError: out of memory");
    await expect(done).rejects.toThrow(/crashed while doing a full run of #v=1&len=1K&.*&rs=7&.*out of memory/);
    expect(workers).toHaveLength(2);
    expect(events.find((e) => e.type === "respawned")).toMatchObject({ reason: expect.stringContaining("out of memory") });
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
  });

  it("timed jobs wait for the page's quiet, counts do not; a newer request replaces a waiting one without a new worker", async () => {
    let quiet!: () => void;
    const { client, workers, current, answer } = setup({ quiet: new Promise<void>((resolve) => (quiet = resolve)), preempt: ({ stage }) => stage === "full" });
    const counts = client.run(link(1), "counts");
    expect(current().posted).toEqual([{ type: "run", id: 1, link: link(1), stage: "counts" }]);
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

  it("ignores messages from a worker it has replaced", async () => {
    const { client, workers } = setup();
    const first = client.run(link(1), "full");
    client.cancel();
    await expect(first).rejects.toBeInstanceOf(Cancelled);
    const second = client.run(link(2), "full");
    workers[0]!.say({ type: "result", id: 1, report: reportFor(params(1)), elapsedMs: 1 });
    expect(client.busy).toBe(true);
    workers[1]!.say({ type: "result", id: workers[1]!.lastRun().id, report: reportFor(params(2)), elapsedMs: 1 });
    await expect(second).resolves.toMatchObject({ report: { params: { rs: 2 } } });
  });
});
