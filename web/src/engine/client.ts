// The one typed bridge between the page and the engine worker.
//
//   run(link) ─▶ LatestQueue ─▶ worker.postMessage({type:'run'}) ─▶ wasm run()
//        ▲                                                               │
//        └──────── resolve(report) / reject(error) ◀── result / error ◀──┘
//
// Only the latest request matters: a request still waiting when a newer one
// arrives is dropped (its promise rejects with `Superseded`), so at most one
// job runs and at most one waits. `run` in wasm cannot be interrupted, so
// cancelling, a job over its time budget, a crash, and a new request that
// preempts a long running one (`preempt`) all end the same way: terminate
// the worker and start a fresh one.

import type { EngineBuild, Fault, FromWorker, ToWorker } from "./protocol";
import { spawnEngineWorker } from "./spawn";
import type { LabReport, Stage } from "./types.gen";

/** Rejection for a request that a newer request replaced before it started. */
export class Superseded extends Error {
  override name = "Superseded";
  constructor() {
    super("Replaced by a newer request before it started.");
  }
}

/** Rejection for requests ended by `cancel()`. */
export class Cancelled extends Error {
  override name = "Cancelled";
  constructor() {
    super("Stopped.");
  }
}

/** True for the rejections that are the page's own doing, not failures. */
export function isDropped(error: unknown): boolean {
  return error instanceof Superseded || error instanceof Cancelled;
}

/**
 * Latest-wins scheduling with one running and one waiting slot. Pure: it only
 * says what to start and what to drop; the caller does the side effects.
 */
export class LatestQueue<J> {
  running: J | null = null;
  waiting: J | null = null;

  /** A new request: start it now, or make it the one waiting (dropping the old one). */
  submit(job: J): { start: J | null; dropped: J | null } {
    if (this.running === null) {
      this.running = job;
      return { start: job, dropped: null };
    }
    const dropped = this.waiting;
    this.waiting = job;
    return { start: null, dropped };
  }

  /** The running job ended (any way): the waiting one, if any, starts. */
  finish(): { start: J | null } {
    this.running = this.waiting;
    this.waiting = null;
    return { start: this.running };
  }

  /** Forget everything; returns what was running and waiting. */
  clear(): J[] {
    const all = [this.running, this.waiting].filter((job): job is J => job !== null);
    this.running = null;
    this.waiting = null;
    return all;
  }
}

/** What the client needs from a Worker (a real one in the page, a stand-in in tests). */
export interface WorkerLike {
  postMessage(message: ToWorker): void;
  terminate(): void;
  addEventListener(type: "message", listener: (event: MessageEvent<FromWorker>) => void): void;
  addEventListener(type: "error", listener: (event: ErrorEvent) => void): void;
  addEventListener(type: "messageerror", listener: (event: MessageEvent) => void): void;
}

export interface EngineInfo {
  /** The worker's crossOriginIsolated: decides whether its timer has 5 µs or 100 µs steps. */
  isolated: boolean;
}

export type ClientEvent =
  | { type: "ready"; info: EngineInfo }
  /** The worker was replaced; `reason` says why in words a person can act on. */
  | { type: "respawned"; reason: string }
  /** The engine cannot be used at all (the wasm failed to load). */
  | { type: "broken"; message: string };

export interface ClientOptions {
  createWorker: () => WorkerLike;
  /** Longest a single job may run before the worker is replaced. */
  timeoutMs?: number;
  onEvent?: (event: ClientEvent) => void;
  /** Crashes in a row without a `ready` before the client gives up. */
  maxRespawns?: number;
  /**
   * Whether a new request ends the running job at once instead of waiting
   * behind it (default: never). Told the running job's stage and how long it
   * has run.
   */
  preempt?: (running: { stage: Stage; ms: number }) => boolean;
  /**
   * Timed jobs (every stage but `counts`) start only once this resolves: the
   * page gives the moment its loading is over (main.ts), so times are not
   * taken beside it. Until then a timed job waits, and a newer request
   * replaces it. Counts never wait.
   */
  quiet?: Promise<void>;
}

export interface RunResult {
  report: LabReport;
  /** Wall time of the `run` call inside the worker. */
  elapsedMs: number;
}

interface Job {
  id: number;
  /** The canonical fragment of the settings. */
  link: string;
  stage: Stage;
  fault?: Fault;
  /** The link's counts, for a timing stage: only the timed pass runs. */
  counted?: LabReport;
  /** When it was handed to the worker (performance.now()). */
  startedAt?: number;
  resolve: (result: RunResult) => void;
  reject: (error: Error) => void;
}

/**
 * Long enough for the largest experiment the limits allow (a full measurement
 * of 64 MiB read a byte at a time takes about 30 s on a 2-core machine), short
 * enough that a stuck engine is noticed.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

function describeJob(job: Job): string {
  return `${job.stage} run of #${job.link}`;
}

export class EngineClient {
  /** Resolves when the first worker has loaded the wasm; rejects if it never can. */
  readonly ready: Promise<EngineInfo>;

  private readonly options: Required<Omit<ClientOptions, "onEvent" | "quiet">> & Pick<ClientOptions, "onEvent">;
  /** False until the page's `quiet` has come: timed jobs wait for it. */
  private quiet: boolean;
  private readonly queue = new LatestQueue<Job>();
  private worker: WorkerLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private nextId = 1;
  private crashesInARow = 0;
  private brokenMessage: string | null = null;
  private settleReady: { resolve: (info: EngineInfo) => void; reject: (error: Error) => void } | null;

  constructor(options: ClientOptions) {
    this.options = {
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxRespawns: 3,
      preempt: () => false,
      ...options,
    };
    let resolve!: (info: EngineInfo) => void;
    let reject!: (error: Error) => void;
    this.ready = new Promise<EngineInfo>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Nobody may be listening yet; the rejection is still reported through onEvent.
    this.ready.catch(() => undefined);
    this.settleReady = { resolve, reject };
    this.quiet = options.quiet === undefined;
    void options.quiet?.then(() => {
      this.quiet = true;
      const held = this.queue.running;
      if (held && held.startedAt === undefined) this.start(held);
    });
    this.spawn();
  }

  /**
   * Runs an experiment as far as `stage` (`counts`: no timing). Rejects with
   * `Superseded` if a newer request replaces it before it starts, or ends it
   * early (`preempt`). `fault` injects a failure (test builds only).
   * `counted`: the link's counts report, for a timing stage: the engine
   * then times it instead of counting again.
   */
  run(link: string, stage: Stage, fault?: Fault, counted?: LabReport): Promise<RunResult> {
    return new Promise<RunResult>((resolve, reject) => {
      if (this.brokenMessage !== null) {
        reject(new Error(this.brokenMessage));
        return;
      }
      const running = this.queue.running;
      if (running !== null && running.startedAt === undefined) {
        // Still waiting for the page's quiet (or a worker): nothing to end.
        for (const old of this.queue.clear()) old.reject(new Superseded());
      } else if (running?.startedAt !== undefined && this.options.preempt({ stage: running.stage, ms: performance.now() - running.startedAt })) {
        // The running job is for settings the page has left: end it now.
        this.clearTimer();
        for (const old of this.queue.clear()) old.reject(new Superseded());
        this.replaceWorker();
      }
      const job: Job = { id: this.nextId++, link, stage, fault, counted, resolve, reject };
      const { start, dropped } = this.queue.submit(job);
      dropped?.reject(new Superseded());
      if (start) this.start(start);
    });
  }

  /** True while a job runs or waits. */
  get busy(): boolean {
    return this.queue.running !== null;
  }

  /** Stops the running job and drops the waiting one; a fresh worker takes over. */
  cancel(): void {
    const jobs = this.queue.clear();
    if (jobs.length === 0) return;
    this.clearTimer();
    this.replaceWorker();
    for (const job of jobs) job.reject(new Cancelled());
  }

  /** Ends the worker for good (page teardown, tests). */
  dispose(): void {
    this.clearTimer();
    for (const job of this.queue.clear()) job.reject(new Cancelled());
    this.worker?.terminate();
    this.worker = null;
    this.brokenMessage = "The engine was shut down.";
  }

  private spawn(): void {
    let worker: WorkerLike;
    try {
      worker = this.options.createWorker();
    } catch (error) {
      this.breakDown(`Could not start the engine worker: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.worker = worker;
    // Events from a worker that has since been replaced are ignored.
    worker.addEventListener("message", (event) => {
      if (this.worker === worker) this.onMessage(event.data);
    });
    worker.addEventListener("error", (event) => {
      if (this.worker !== worker) return;
      event.preventDefault?.();
      const where = event.filename ? ` (${event.filename}:${event.lineno})` : "";
      this.onCrash(`${event.message || "the worker failed to start or threw"}${where}`);
    });
    worker.addEventListener("messageerror", () => {
      if (this.worker === worker) this.onCrash("a message from the worker could not be read");
    });
  }

  private replaceWorker(): void {
    this.worker?.terminate();
    this.worker = null;
    this.spawn();
  }

  private start(job: Job): void {
    // A timed job before the page's quiet: started when it comes (the constructor).
    if (this.worker === null || (job.stage !== "counts" && !this.quiet)) return;
    this.clearTimer();
    this.timer = setTimeout(() => this.onTimeout(job), this.options.timeoutMs);
    job.startedAt = performance.now();
    const { id, link, stage, fault, counted } = job;
    this.worker.postMessage({ type: "run", id, link, stage, ...(fault && { fault }), ...(counted && { counted }) });
  }

  /** The running job is over: settle it, then start the one waiting. */
  private finishRunning(settle: (job: Job) => void): void {
    const job = this.queue.running;
    this.clearTimer();
    const { start } = this.queue.finish();
    if (job) settle(job);
    if (start) this.start(start);
  }

  private onMessage(message: FromWorker): void {
    switch (message.type) {
      case "ready": {
        this.crashesInARow = 0;
        const info: EngineInfo = { isolated: message.isolated };
        this.settleReady?.resolve(info);
        this.settleReady = null;
        this.options.onEvent?.({ type: "ready", info });
        return;
      }
      case "failed":
        this.breakDown(message.message);
        return;
      case "result":
        if (this.queue.running?.id !== message.id) return;
        this.finishRunning((job) => job.resolve({ report: message.report, elapsedMs: message.elapsedMs }));
        return;
      case "error": {
        if (this.queue.running?.id !== message.id) return;
        if (message.fatal) {
          // The instance trapped: replace it before anything else runs on it.
          this.replaceWorker();
          this.options.onEvent?.({ type: "respawned", reason: message.message });
        }
        const error = new Error(message.message);
        this.finishRunning((job) => job.reject(error));
        return;
      }
    }
  }

  private onCrash(detail: string): void {
    const running = this.queue.running;
    const context = running ? `while doing a ${describeJob(running)}` : "while loading";
    const message = `The engine worker crashed ${context}: ${detail}`;
    this.crashesInARow += 1;
    if (this.crashesInARow > this.options.maxRespawns) {
      this.breakDown(`${message}. Gave up after ${this.options.maxRespawns} restarts; reload the page.`);
      return;
    }
    this.replaceWorker();
    this.options.onEvent?.({ type: "respawned", reason: message });
    if (running) this.finishRunning((job) => job.reject(new Error(message)));
  }

  private onTimeout(job: Job): void {
    if (this.queue.running !== job) return;
    this.timer = null;
    this.replaceWorker();
    const seconds = Math.round(this.options.timeoutMs / 1000);
    const message =
      `The experiment took longer than ${seconds} s and was stopped ` +
      `(${describeJob(job)}). Try a shorter stream, a larger read size, or fewer readers.`;
    this.options.onEvent?.({ type: "respawned", reason: message });
    this.finishRunning((j) => j.reject(new Error(message)));
  }

  /** The engine cannot work at all: fail everything now and later. */
  private breakDown(message: string): void {
    this.brokenMessage = message;
    this.clearTimer();
    this.worker?.terminate();
    this.worker = null;
    for (const job of this.queue.clear()) job.reject(new Error(message));
    this.settleReady?.reject(new Error(message));
    this.settleReady = null;
    this.options.onEvent?.({ type: "broken", message });
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * A client over a real module worker built by Vite, running `build` of the
 * engine (engine/spawn.ts); `name` tells the page's workers apart in devtools.
 */
export function createEngineClient(name: string, build: EngineBuild, options: Omit<ClientOptions, "createWorker"> = {}): EngineClient {
  return new EngineClient({
    ...options,
    createWorker: () => spawnEngineWorker(name, build) as WorkerLike,
  });
}

/** The page's two engine workers. */
export interface Engines {
  /** Exact counts, no timing: answers within milliseconds of a change. */
  counter: EngineClient;
  /** Quick estimates and full measurements (and the counts of a lab the counting build leaves out). */
  timer: EngineClient;
}

/**
 * The client that counts a lab whose counts come from `build`
 * (`Codec.countsBuild`): the counting worker, or for a lab the counting
 * build leaves out, the timing worker with the full build.
 */
export function countsClient(engines: Engines, build: EngineBuild): EngineClient {
  return build === "counts" ? engines.counter : engines.timer;
}
