// The engine worker's logic, for both wasm builds: worker-counts.ts and
// worker-full.ts are the worker scripts (engine/spawn.ts), each this file
// with its build's JS glue imported statically, so the glue comes bundled in
// the worker's own script instead of as a second download once the
// compiled module has arrived. The worker instantiates the wasm build the
// page compiled (its first message, engine/spawn.ts) once, says `ready`
// (with its own crossOriginIsolated, which decides the timer's resolution),
// then answers each `run` request with a `result` or an `error`. `run`
// blocks this thread for the whole measurement: that is why it lives here
// and why the client cancels by terminating the worker.

import { openOpfsFile } from "./opfs";
import type { CalibrateReply, CalibrateRequest, EngineBuild, FromWorker, ModuleMessage, SweepProgress, SweepRequest, ToWorker } from "./protocol";
import type { Calibration, LabReport, SweepPoint, SweepReport } from "./types.gen";

/** The parts of DedicatedWorkerGlobalScope this file uses (the DOM lib types `self` as Window). */
interface WorkerScope {
  readonly crossOriginIsolated: boolean;
  postMessage(message: FromWorker | SweepProgress | CalibrateReply): void;
  addEventListener(type: "message", listener: (event: MessageEvent<ModuleMessage | ToWorker | SweepRequest | CalibrateRequest>) => void): void;
}

const scope = globalThis as unknown as WorkerScope;

// The engine's panic hook hands over the panic message here before the
// instance traps (see crate/src/wasm.rs), so the page can show it.
let lastPanic: string | null = null;
(globalThis as { __buflabPanic?: (message: string) => void }).__buflabPanic = (message) => {
  lastPanic = message;
};

function post(message: FromWorker): void {
  scope.postMessage(message);
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** A build's glue: the counting one has `run` (counts only) and reads links; the full one has everything. */
export type Engine =
  | { build: "counts"; exports: typeof import("../../pkg-counts/buflab_counts.js") }
  | { build: "full"; exports: typeof import("../../pkg/buflab.js") };

// The compiled engine: the page's first message.
let moduleArrived: (message: ModuleMessage) => void = () => undefined;
const compiled = new Promise<{ build: EngineBuild; module: WebAssembly.Module }>((resolve, reject) => {
  moduleArrived = (message) => ("module" in message ? resolve(message) : reject(new Error(message.error)));
});

let engine: Engine | null = null;

/** Runs this worker on `glue` (its build's, imported by the worker script), once the page's compiled module of that build arrives. */
export function serve(glue: Engine): void {
  // Requests that arrive before the wasm is loaded wait for it.
  const loaded: Promise<boolean> = compiled
    .then(async ({ build, module }) => {
      if (build !== glue.build) throw new Error(`this worker runs the ${glue.build} build, not the ${build} one`);
      await glue.exports.default({ module_or_path: module });
      engine = glue;
    })
    .then(
      () => {
        post({ type: "ready", isolated: scope.crossOriginIsolated === true });
        return true;
      },
      (error: unknown) => {
        post({ type: "failed", message: `Could not load the engine (wasm): ${describe(error)}` });
        return false;
      },
    );
  scope.addEventListener("message", (event) => {
    const request = event.data;
    if (request.type === "module") {
      moduleArrived(request);
      return;
    }
    if (request.type === "sweep") {
      void loaded.then((ok) => sweep(request, ok));
      return;
    }
    if (request.type === "calibrate") {
      void loaded.then((ok) => calibrate(request, ok));
      return;
    }
    if (request.type !== "run") return;
    void loaded.then((ok) => {
      if (!ok || !engine) {
        post({ type: "error", id: request.id, message: "The engine did not load.", fatal: true });
        return;
      }
      const started = performance.now();
      try {
        lastPanic = null;
        const { link, stage, fault, counted } = request;
        // Counts known already (the counting worker's): only the timed pass runs.
        const report = (
          counted !== undefined && stage !== "counts" && engine.build === "full"
            ? engine.exports.time_counted(link, stage === "quick", counted)
            : engine.exports.run(link, stage === "counts", stage === "quick", fault)
        ) as LabReport;
        post({ type: "result", id: request.id, report, elapsedMs: performance.now() - started });
      } catch (error) {
        // A RuntimeError is a trap (a Rust panic): the instance's memory may be
        // half-updated, so the client must replace this worker.
        const fatal = error instanceof WebAssembly.RuntimeError;
        const message = !fatal
          ? describe(error)
          : lastPanic !== null
            ? `The engine panicked: ${lastPanic}`
            : `The engine crashed (${describe(error)}), probably out of memory.`;
        post({ type: "error", id: request.id, message, fatal });
      }
    });
  });
}

/** The full build's exports, or null (after posting why) where this worker has no full build. */
function fullEngine(id: number, ok: boolean): typeof import("../../pkg/buflab.js") | null {
  if (ok && engine?.build === "full") return engine.exports;
  post({ type: "error", id, message: ok ? "This worker runs the counting build, which cannot time." : "The engine did not load.", fatal: true });
  return null;
}

/**
 * Runs a sweep point by point, posting the report of the points so far after
 * each one. Blocking like `run`: Cancel terminates this worker.
 */
function sweep(request: SweepRequest, ok: boolean): void {
  const full = fullEngine(request.id, ok);
  if (!full) return;
  try {
    lastPanic = null;
    const total = full.sweep_total(request.params);
    const points: SweepPoint[] = [];
    for (let index = 0; index < total; index++) {
      const started = performance.now();
      points.push(full.sweep_point(request.params, index, { quick: request.quick }) as SweepPoint);
      const report = full.sweep_report(request.params, points) as SweepReport;
      scope.postMessage({ type: "sweep-point", id: request.id, index, total, report, elapsedMs: performance.now() - started });
    }
  } catch (error) {
    const fatal = error instanceof WebAssembly.RuntimeError;
    const message = fatal && lastPanic !== null ? `The engine panicked: ${lastPanic}` : describe(error);
    post({ type: "error", id: request.id, message, fatal });
  }
}

/**
 * Calibrate: opens a file in the Origin Private File System (the async
 * part), then the engine writes the stream to it and times reading it back
 * through the sync access handle (blocking, about half a second).
 */
async function calibrate(request: CalibrateRequest, ok: boolean): Promise<void> {
  const full = fullEngine(request.id, ok);
  if (!full) return;
  const file = await openOpfsFile();
  if ("missing" in file) {
    scope.postMessage({ type: "opfs-missing", id: request.id, reason: file.missing });
    return;
  }
  try {
    lastPanic = null;
    const calibration = full.calibrate_opfs(request.params, file.handle as never) as Calibration;
    scope.postMessage({ type: "calibrated", id: request.id, calibration });
  } catch (error) {
    const fatal = error instanceof WebAssembly.RuntimeError;
    const message = fatal && lastPanic !== null ? `The engine panicked: ${lastPanic}` : describe(error);
    post({ type: "error", id: request.id, message, fatal });
  } finally {
    await file.release();
  }
}
