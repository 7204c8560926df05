// The sweep's own bridge to an engine worker (the same worker.ts as the
// client's, a second instance, so a sweep and the page's measurement never
// queue behind each other).
//
//   run(params, onPoint) ──{type:'sweep'}──▶ worker: point 0, 1, … (blocking)
//        onPoint(report) ◀── {type:'sweep-point'} per point ◀──┘
//   cancel() ── terminate the worker (the only way to stop wasm mid-point);
//               a fresh one is started by the next run.
//
// Like EngineClient, every way a sweep can end early (cancel, a crash, a point
// over its time budget) ends with the worker terminated; the points already
// delivered stay with the caller.

import { Cancelled, DEFAULT_TIMEOUT_MS } from "./client";
import type { FromWorker, SweepProgress, SweepRequest } from "./protocol";
import { spawnEngineWorker } from "./spawn";
import type { Params, SweepReport } from "./types.gen";

/** What the runner needs from a Worker. */
export interface SweepWorkerLike {
  postMessage(message: SweepRequest): void;
  terminate(): void;
  addEventListener(type: "message", listener: (event: MessageEvent<FromWorker | SweepProgress>) => void): void;
  addEventListener(type: "error", listener: (event: ErrorEvent) => void): void;
}

interface Running {
  id: number;
  onPoint: (report: SweepReport, progress: SweepProgress) => void;
  resolve: (report: SweepReport | null) => void;
  reject: (error: Error) => void;
  last: SweepReport | null;
}

export class SweepRunner {
  private worker: SweepWorkerLike | null = null;
  private running: Running | null = null;
  private nextId = 1;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly createWorker: () => SweepWorkerLike,
    /** Longest one point may take before the sweep is stopped. */
    private readonly pointTimeoutMs = DEFAULT_TIMEOUT_MS,
  ) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /**
   * Runs the sweep `params.sweep`, calling `onPoint` with the report of the
   * points so far after each point. Resolves with the last report; rejects
   * with `Cancelled` after `cancel()`, or with the engine's error.
   */
  run(params: Params, quick: boolean, onPoint: Running["onPoint"]): Promise<SweepReport | null> {
    this.cancel();
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.running = { id, onPoint, resolve, reject, last: null };
      const worker = this.ensureWorker();
      this.arm();
      worker.postMessage({ type: "sweep", id, params, quick });
    });
  }

  /** Stops the sweep now (terminating the worker); its promise rejects with `Cancelled`. */
  cancel(): void {
    const running = this.running;
    if (running === null) return;
    this.stop();
    running.reject(new Cancelled());
  }

  dispose(): void {
    this.cancel();
    this.worker?.terminate();
    this.worker = null;
  }

  private ensureWorker(): SweepWorkerLike {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    this.worker = worker;
    worker.addEventListener("message", (event) => {
      if (this.worker === worker) this.onMessage(event.data);
    });
    worker.addEventListener("error", (event) => {
      if (this.worker !== worker) return;
      event.preventDefault?.();
      this.fail(`The sweep's engine worker crashed: ${event.message || "it failed to start or threw"}`);
    });
    return worker;
  }

  private onMessage(message: FromWorker | SweepProgress): void {
    const running = this.running;
    switch (message.type) {
      case "sweep-point":
        if (running?.id !== message.id) return;
        running.last = message.report;
        this.arm();
        running.onPoint(message.report, message);
        if (message.index + 1 >= message.total) {
          this.clearTimer();
          this.running = null;
          running.resolve(message.report);
        }
        return;
      case "error":
        if (running?.id !== message.id) return;
        if (message.fatal) this.dropWorker();
        this.fail(message.message);
        return;
      case "failed":
        this.dropWorker();
        this.fail(message.message);
        return;
      default:
        return;
    }
  }

  /** Restarts the per-point time budget. */
  private arm(): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      const seconds = Math.round(this.pointTimeoutMs / 1000);
      this.fail(`A sweep point took longer than ${seconds} s and the sweep was stopped. Try a shorter stream or a smaller range.`);
    }, this.pointTimeoutMs);
  }

  private fail(message: string): void {
    const running = this.running;
    this.stop();
    running?.reject(new Error(message));
  }

  /** Ends the running sweep: the worker goes (it may be mid-point). */
  private stop(): void {
    this.clearTimer();
    this.running = null;
    this.dropWorker();
  }

  private dropWorker(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** The page's sweep runner: a real module worker built by Vite. */
export function createSweepRunner(): SweepRunner {
  return new SweepRunner(
    () => spawnEngineWorker("buflab-sweep", "full") as SweepWorkerLike,
  );
}
