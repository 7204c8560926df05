// The engine worker's logic, for every wasm build: worker-counts.ts,
// worker-timing.ts and worker-program.ts are the worker scripts
// (engine/spawn.ts), each calling
// `serve` with its build's JS glue imported statically (so the glue comes
// bundled in the worker's own script instead of as a second download once
// the compiled module has arrived) and the job kinds that build does. The
// worker instantiates the wasm build the page compiled (its first message,
// engine/spawn.ts) once, says `ready` (with its own crossOriginIsolated,
// which decides the timer's resolution), then answers each job with a
// `done` or an `error`, after any `progress` (protocol.ts). A job blocks
// this thread for the whole measurement: that is why it lives here and why
// the client cancels by terminating the worker.

import type { EngineBuild, FromWorker, Job, JobKind, ModuleMessage, Progress, Reply, ToWorker } from "./protocol";
import type { LabReport } from "./types.gen";

/** The parts of DedicatedWorkerGlobalScope this file uses (the DOM lib types `self` as Window). */
interface WorkerScope {
  readonly crossOriginIsolated: boolean;
  postMessage(message: FromWorker): void;
  addEventListener(type: "message", listener: (event: MessageEvent<ModuleMessage | ToWorker>) => void): void;
}

const scope = globalThis as unknown as WorkerScope;

// The engine's panic hook hands over the panic message here before the
// instance traps (see crate/src/wasm.rs), so the page can show it.
let lastPanic: string | null = null;
(globalThis as { __buflabPanic?: (message: string) => void }).__buflabPanic = (message) => {
  lastPanic = message;
};

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** A build's glue: which build it is (`timing`: every workload's timing build), and its wasm-bindgen init. */
export interface Glue {
  build: EngineBuild | "timing";
  init(options: { module_or_path: WebAssembly.Module }): Promise<unknown>;
}

/** Whether `glue` loads `build`. */
function loads(glue: Glue, build: EngineBuild): boolean {
  return glue.build === build || (glue.build === "timing" && build.startsWith("timing-"));
}

/** How a worker script does one kind of job: its answer, after any progress. */
export type JobHandler<K extends JobKind> = (job: Job<K>, progress: (progress: Progress<K>) => void) => Reply<K> | Promise<Reply<K>>;

/** The job kinds a worker script does (the counting build: runs only). */
export type JobHandlers = { [K in JobKind]?: JobHandler<K> };

/** A `run` job's answer: the report of `run()`, and its wall time here. */
export function timedRun(run: () => unknown): Reply<"run"> {
  const started = performance.now();
  const report = run() as LabReport;
  return { report, elapsedMs: performance.now() - started };
}

// The compiled engine: the page's first message.
let moduleArrived: (message: ModuleMessage) => void = () => undefined;
const compiled = new Promise<{ build: EngineBuild; module: WebAssembly.Module }>((resolve, reject) => {
  moduleArrived = (message) => ("module" in message ? resolve(message) : reject(new Error(message.error)));
});

/** Runs this worker on `glue` once the page's compiled module of that build arrives, doing the jobs in `jobs`. */
export function serve(glue: Glue, jobs: JobHandlers): void {
  // Jobs that arrive before the wasm is loaded wait for it.
  const loaded: Promise<boolean> = compiled
    .then(async ({ build, module }) => {
      if (!loads(glue, build)) throw new Error(`this worker runs the ${glue.build} build, not the ${build} one`);
      await glue.init({ module_or_path: module });
    })
    .then(
      () => {
        scope.postMessage({ type: "ready", isolated: scope.crossOriginIsolated === true });
        return true;
      },
      (error: unknown) => {
        scope.postMessage({ type: "failed", message: `Could not load the engine (wasm): ${describe(error)}` });
        return false;
      },
    );
  scope.addEventListener("message", (event) => {
    const message = event.data;
    if (message.type === "module") moduleArrived(message);
    else if (message.type === "job") void loaded.then((ok) => perform(message.id, message.job, ok ? jobs : null, glue.build));
  });
}

/** Does one job and posts its answer or its error; `jobs` is null where the engine did not load. */
async function perform(id: number, job: Job, jobs: JobHandlers | null, build: Glue["build"]): Promise<void> {
  if (jobs === null) {
    scope.postMessage({ type: "error", id, message: "The engine did not load.", fatal: true });
    return;
  }
  const handler = jobs[job.kind] as JobHandler<JobKind> | undefined;
  if (handler === undefined) {
    scope.postMessage({ type: "error", id, message: `This worker runs the ${build} build, which does no ${job.kind} jobs.`, fatal: false });
    return;
  }
  try {
    lastPanic = null;
    const reply = await handler(job, (progress) => scope.postMessage({ type: "progress", id, progress }));
    scope.postMessage({ type: "done", id, reply });
  } catch (error) {
    // A RuntimeError is a trap (a Rust panic): the instance's memory may be
    // half-updated, so the client must replace this worker.
    const fatal = error instanceof WebAssembly.RuntimeError;
    const message = !fatal
      ? describe(error)
      : lastPanic !== null
        ? `The engine panicked: ${lastPanic}`
        : `The engine crashed (${describe(error)}), probably out of memory.`;
    scope.postMessage({ type: "error", id, message, fatal });
  }
}
