// The one typed bridge between the page and an engine worker, for every job
// kind (protocol.ts, `Jobs`): the page's runs, a sweep, a calibration.
//
//   submit(job) ─▶ LatestQueue ─▶ worker.postMessage({type:'job', id, job}) ─▶ wasm
//     onProgress(p) ◀──────────────────────────── progress (a sweep's points) ◀──┤
//     resolve(reply) / reject(error) ◀──────────────────────── done / error ◀───┘
//
// At most one job runs and at most one waits: a job still waiting when a
// newer one arrives is dropped (its promise rejects with `Superseded`). Each
// job kind says whether a new job waits behind the running one (a run, a
// calibration) or ends it at once (a sweep), and the page's `preempt` may end
// a running job too. wasm cannot be interrupted, so every early end (cancel,
// a preempted job, a job over its time budget, a crash) is the same:
// terminate the worker, and start a fresh one (a resident worker at once, a
// per-job worker with the next job).
//
// A job runs on the engine build it needs (`ClientOptions.build`: the
// timing build of its link's workload, engine/spawn.ts): a job for another
// build than the worker's starts on a fresh worker of that build.
//
// The page keeps one bridge per worker, so none waits behind another:
// counting (counts at once) and timing (main.ts, `Engines`), the sweep
// (sweep-runner.ts) and Calibrate (calibrate-runner.ts).

import { messageOf } from "./errors";
import type { EngineBuild, Fault, FromWorker, Job, JobKind, Progress, Reply, ToWorker } from "./protocol";
import { engineArrived, spawnEngineWorker } from "./spawn";
import type { LabReport, Stage } from "./types.gen";

/** Rejection for a request that a newer request replaced before it started, or ended early. */
export class Superseded extends Error {
  override name = "Superseded";
  constructor() {
    super("Replaced by a newer request.");
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

/** How the bridge treats each kind of job. */
interface KindRules<K extends JobKind> {
  /** Whether a new job of this kind ends the running job at once instead of waiting behind it. */
  replaces: boolean;
  /** Longest the worker may stay silent on such a job: from its start, and again from each progress message. */
  budgetMs: number;
  /** Whether it takes times, and so waits for the page's quiet (`ClientOptions.quiet`). */
  timed(job: Job<K>): boolean;
  /** The job in words, for crash and time-out messages. */
  describe(job: Job<K>): string;
  /** What took too long, in a time-out message, and what to try instead. */
  slow: string;
  advice: string;
}

/** Each job kind's rules: one place for its queueing, time budget and words. */
export const JOB_KINDS: { readonly [K in JobKind]: KindRules<K> } = {
  run: {
    replaces: false,
    // Long enough for the largest experiment the limits allow (a full
    // measurement of 64 MiB read a byte at a time), short enough that a
    // stuck engine is noticed.
    budgetMs: 60_000,
    timed: (job) => job.stage !== "counts",
    describe: (job) => `a ${job.stage} run of #${job.link}`,
    slow: "The experiment",
    advice: "Try a shorter stream, a larger read size, or fewer readers.",
  },
  sweep: {
    replaces: true,
    // Per point: a point is one run of the experiment.
    budgetMs: 60_000,
    timed: () => true,
    describe: ({ params }) => `a sweep of ${[params.sweep?.axis, params.sweep?.across?.axis].filter(Boolean).join(" by ")}`,
    slow: "A sweep point",
    advice: "Try a shorter stream or a smaller range.",
  },
  compare: {
    replaces: true,
    // Two experiments, each run once per alternating round.
    budgetMs: 120_000,
    timed: () => true,
    describe: (job) => `a comparison of #${job.link}`,
    slow: "The comparison",
    advice: "Try a shorter stream or a larger read size.",
  },
  quiz: {
    // Waits behind a running quiz: the state takes only its newest link's.
    replaces: false,
    // A quiz runs the link's counted pass a few times (and a sweep's points).
    budgetMs: 60_000,
    timed: () => false,
    describe: (job) => `the quiz of #${job.link}`,
    slow: "Writing the quiz",
    advice: "Try a shorter stream or a smaller sweep.",
  },
  choices: {
    replaces: false,
    // Counted runs of the lesson's experiment with one thing changed (a sweep's points for a knee).
    budgetMs: 60_000,
    timed: () => false,
    describe: (job) => `the choices of lesson ${job.lesson}`,
    slow: "Working out the choices",
    advice: "Reload the page and try again.",
  },
  calibrate: {
    replaces: false,
    // Worker start included; the engine bounds its own work to about half a
    // second, so anything near this is a stuck worker.
    budgetMs: 20_000,
    timed: () => true,
    describe: () => "a calibration",
    slow: "Calibrate",
    advice: "Reload the page and try again.",
  },
};

/** The rules of `job`'s kind, for code that handles jobs of any kind. */
function rulesOf(job: Job): KindRules<JobKind> {
  return JOB_KINDS[job.kind] as unknown as KindRules<JobKind>;
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
  | { type: "broken"; message: string }
  /** The builds the page waits for that its dev server is still compiling (engine/spawn.ts `watchBuilding`, relayed by main.ts). */
  | { type: "building"; builds: EngineBuild[] };

export interface ClientOptions {
  /** A fresh worker of `build`. */
  createWorker: (build: EngineBuild) => WorkerLike;
  /**
   * The engine build the worker runs (the counting build by default), or
   * the build each job needs: then the worker starts with the first job,
   * and a job for another build replaces it.
   */
  build?: EngineBuild | ((job: Job) => EngineBuild);
  /**
   * `resident` (the default): a worker from the start, replaced at once when
   * it ends, so answers come sooner. `per-job`: a worker started for work and
   * ended once there is none, its memory with it.
   */
  worker?: "resident" | "per-job";
  /** Replaces every job kind's time budget (`JOB_KINDS`). */
  timeoutMs?: number;
  onEvent?: (event: ClientEvent) => void;
  /** Crashes in a row without a `ready` before the client gives up. */
  maxRespawns?: number;
  /**
   * Whether a new request ends the running job at once instead of waiting
   * behind it (default: only as its kind says, `JOB_KINDS`). Told the
   * running job and how long it has run.
   */
  preempt?: (running: { job: Job; ms: number }) => boolean;
  /**
   * Timed jobs (a run of any stage but `counts`, a sweep, a calibration)
   * start only once this resolves: the page gives the moment its loading is
   * over (main.ts), so times are not taken beside it. Until then a timed job
   * waits, and a newer request replaces it. Counts never wait.
   */
  quiet?: Promise<void>;
  /**
   * Resolves once `build`'s wasm has arrived (or failed to): a job's time
   * budget runs from then, not while its build downloads or is still being
   * compiled. Without it, from the job's start.
   */
  arrived?: (build: EngineBuild) => Promise<void>;
}

/** A run's answer: the report, and the wall time of the run inside the worker. */
export type RunResult = Reply<"run">;

interface Pending {
  id: number;
  job: Job;
  onProgress: ((progress: Progress) => void) | undefined;
  /** When it was handed to the worker (performance.now()). */
  startedAt?: number;
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

export class EngineClient {
  /** Resolves when the first worker has loaded the wasm; rejects if it never can. */
  readonly ready: Promise<EngineInfo>;

  private readonly options: Required<Omit<ClientOptions, "onEvent" | "quiet" | "timeoutMs" | "arrived">> & Pick<ClientOptions, "onEvent" | "timeoutMs" | "arrived">;
  /** The build of the worker there is (or of the one to start next). */
  private build: EngineBuild | null;
  /** False until the page's `quiet` has come: timed jobs wait for it. */
  private quiet: boolean;
  private readonly queue = new LatestQueue<Pending>();
  private worker: WorkerLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private nextId = 1;
  private crashesInARow = 0;
  private brokenMessage: string | null = null;
  private settleReady: { resolve: (info: EngineInfo) => void; reject: (error: Error) => void } | null;

  constructor(options: ClientOptions) {
    this.options = { worker: "resident", maxRespawns: 3, preempt: () => false, build: "counts", ...options };
    this.build = typeof this.options.build === "string" ? this.options.build : null;
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
    if (this.options.worker === "resident" && this.build !== null) this.spawn();
  }

  /**
   * Does `job` (protocol.ts, `Jobs`), calling `onProgress` with each progress
   * message. Rejects with `Superseded` if a newer request replaces it before
   * it starts or ends it early, with `Cancelled` after `cancel()`, or with
   * what went wrong (the engine's error, a crash, the time budget).
   */
  submit<K extends JobKind>(request: Job<K>, onProgress?: (progress: Progress<K>) => void): Promise<Reply<K>> {
    const job = request as Job;
    return new Promise<Reply<K>>((resolve, reject) => {
      if (this.brokenMessage !== null) {
        reject(new Error(this.brokenMessage));
        return;
      }
      const running = this.queue.running;
      if (running !== null && running.startedAt === undefined) {
        // Still waiting for the page's quiet: nothing to end.
        for (const old of this.queue.clear()) old.reject(new Superseded());
      } else if (running?.startedAt !== undefined && (rulesOf(job).replaces || this.options.preempt({ job: running.job, ms: performance.now() - running.startedAt }))) {
        this.clearTimer();
        for (const old of this.queue.clear()) old.reject(new Superseded());
        this.replaceWorker();
      }
      const pending: Pending = {
        id: this.nextId++,
        job,
        onProgress: onProgress as Pending["onProgress"],
        resolve: resolve as Pending["resolve"],
        reject,
      };
      const { start, dropped } = this.queue.submit(pending);
      dropped?.reject(new Superseded());
      if (start) this.start(start);
    });
  }

  /**
   * Runs an experiment as far as `stage` (`counts`: no timing). `fault`
   * injects a failure (test builds only). `counted`: the link's counts
   * report, for a timing stage: the engine then times it instead of
   * counting again.
   */
  run(link: string, stage: Stage, fault?: Fault, counted?: LabReport): Promise<RunResult> {
    return this.submit({ kind: "run", link, stage, ...(fault && { fault }), ...(counted && { counted }) });
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
    this.endWorker();
    this.brokenMessage = "The engine was shut down.";
  }

  private spawn(): WorkerLike | null {
    if (this.build === null) return null;
    let worker: WorkerLike;
    try {
      worker = this.options.createWorker(this.build);
    } catch (error) {
      this.breakDown(`Could not start the engine worker: ${messageOf(error)}`);
      return null;
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
    return worker;
  }

  private endWorker(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  /** The worker goes (it may be mid-job); a resident one is replaced at once, a per-job one by the next job. */
  private replaceWorker(): void {
    this.endWorker();
    if (this.options.worker === "resident") this.spawn();
  }

  private start(job: Pending): void {
    // A job for another build than the worker's: a worker of that build
    // (nothing runs on the old one: this job is the one starting).
    const build = typeof this.options.build === "string" ? this.options.build : this.options.build(job.job);
    if (build !== this.build) {
      this.endWorker();
      this.build = build;
    }
    // Started at once, so its build loads while the job waits.
    const worker = this.worker ?? this.spawn();
    if (worker === null) return;
    // A timed job before the page's quiet: started when it comes (the constructor).
    if (!this.quiet && rulesOf(job.job).timed(job.job)) return;
    job.startedAt = performance.now();
    if (this.options.arrived === undefined) this.arm(job);
    else void this.options.arrived(build).then(() => {
      if (this.queue.running === job) this.arm(job);
    });
    worker.postMessage({ type: "job", id: job.id, job: job.job });
  }

  /** (Re)starts the running job's time budget. */
  private arm(job: Pending): void {
    this.clearTimer();
    this.timer = setTimeout(() => this.onTimeout(job), this.options.timeoutMs ?? rulesOf(job.job).budgetMs);
  }

  /** The running job is over: settle it, then start the one waiting (a per-job worker with none goes). */
  private finishRunning(settle: (job: Pending) => void): void {
    const job = this.queue.running;
    this.clearTimer();
    const { start } = this.queue.finish();
    if (job) settle(job);
    if (start) this.start(start);
    else if (this.options.worker === "per-job") this.endWorker();
  }

  private onMessage(message: FromWorker): void {
    const running = this.queue.running;
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
      case "progress":
        if (running?.id !== message.id) return;
        this.arm(running);
        running.onProgress?.(message.progress);
        return;
      case "done":
        if (running?.id !== message.id) return;
        this.finishRunning((job) => job.resolve(message.reply));
        return;
      case "error": {
        if (running?.id !== message.id) return;
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
    const context = running ? `while doing ${rulesOf(running.job).describe(running.job)}` : "while loading";
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

  private onTimeout(job: Pending): void {
    if (this.queue.running !== job) return;
    this.timer = null;
    this.replaceWorker();
    const rules = rulesOf(job.job);
    const seconds = Math.round((this.options.timeoutMs ?? rules.budgetMs) / 1000);
    const message = `${rules.slow} took longer than ${seconds} s and was stopped (${rules.describe(job.job)}). ${rules.advice}`;
    this.options.onEvent?.({ type: "respawned", reason: message });
    this.finishRunning((j) => j.reject(new Error(message)));
  }

  /** The engine cannot work at all: fail everything now and later. */
  private breakDown(message: string): void {
    this.brokenMessage = message;
    this.clearTimer();
    this.endWorker();
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
 * A client over real module workers built by Vite, running `build` of the
 * engine, or the build each job needs (engine/spawn.ts); `name` tells the
 * page's workers apart in devtools.
 */
export function createEngineClient(name: string, build: NonNullable<ClientOptions["build"]>, options: Omit<ClientOptions, "createWorker" | "build"> = {}): EngineClient {
  return new EngineClient({
    ...options,
    build,
    arrived: engineArrived,
    createWorker: (build) => spawnEngineWorker(name, build) as WorkerLike,
  });
}

/** The page's two engine workers for its runs. */
export interface Engines {
  /** Exact counts, no timing: answers within milliseconds of a change. */
  counter: EngineClient;
  /** Quick estimates and full measurements (and the counts of a lab the counting build leaves out). */
  timer: EngineClient;
}

/**
 * The client that counts a lab whose counts come from `build`
 * (`Codec.countsBuild`): the counting worker, or for a lab the counting
 * build leaves out, the timing worker with the program build.
 */
export function countsClient(engines: Engines, build: EngineBuild): EngineClient {
  return build === "counts" ? engines.counter : engines.timer;
}
