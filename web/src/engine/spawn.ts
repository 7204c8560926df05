// Starting the engine's workers. The engine comes as several wasm builds of
// the same crate (`npm run wasm`; their features are in crate/Cargo.toml),
// so a link downloads the code it runs and no more:
//
//   counts          web/pkg-counts        reading links and the read lab's
//                                         counted pass, nothing timed: links
//                                         read on this thread and the counting
//                                         worker, i.e. the first numbers
//   timing-<wl>     web/pkg-timing/<wl>   the read lab's timed pass, buffer
//                                         timelines and sweeps, with the loops
//                                         of one workload: the timing and
//                                         sweep workers of a link with that `wl`
//   program         web/pkg-program       on this thread, writing links and
//                                         the code panel's program; the write
//                                         lab (its counts too: Codec.countsBuild)
//                                         and Calibrate
//   questions       web/pkg-questions     the quiz and a read lesson's four
//                                         choices, from counted runs: the side
//                                         worker's, when a room, a quiz link or
//                                         a lesson first asks
//
// Each is compiled once, on this thread, by streaming it from its URL
// (WebAssembly.compileStreaming, compile.ts: the way Chromium keeps its
// optimized code for the next visit), a prefetched build from the HTTP
// cache, and the compiled Module is handed to every worker that runs it by
// postMessage; the workers share its compiled code:
//
//   page ── compileStreaming(fetch(wasm)) ──▶ Module ──postMessage──▶ worker: init({ module_or_path })
//
// The timing, program and questions builds wait until the page says the
// first numbers are on screen (`startFullEngine`), so the first numbers
// download nothing they do not use; a link to a lab the counting build leaves out starts them
// at once (main.ts). The program and questions builds then wait for the
// first timing build asked for to arrive, so they do not share the network
// with it on the way to the first full measurement. Every worker waits for
// that first message before it loads (worker.ts), the glue of its build
// already in its script (worker-counts.ts, worker-timing.ts,
// worker-program.ts, worker-questions.ts).

import countsUrl from "../../pkg-counts/buflab_counts_bg.wasm?url";
import programUrl from "../../pkg-program/buflab_program_bg.wasm?url";
import questionsUrl from "../../pkg-questions/buflab_questions_bg.wasm?url";
import bytesUrl from "../../pkg-timing/bytes/buflab_timing_bg.wasm?url";
import exactUrl from "../../pkg-timing/exact/buflab_timing_bg.wasm?url";
import fixedUrl from "../../pkg-timing/fixed/buflab_timing_bg.wasm?url";
import framesUrl from "../../pkg-timing/frames/buflab_timing_bg.wasm?url";
import linesUrl from "../../pkg-timing/lines/buflab_timing_bg.wasm?url";
import scanUrl from "../../pkg-timing/scan/buflab_timing_bg.wasm?url";
import toEndUrl from "../../pkg-timing/to_end/buflab_timing_bg.wasm?url";
import { compileWasm } from "./compile";
import { messageOf } from "./errors";
import { BUILD_STATE_PATH, type BuildState, type EngineBuild, type ModuleMessage, type TimingBuild } from "./protocol";

// True from the dev server only (web/build/builds-behind.ts defines it): it
// may serve the page before the engine's builds are all compiled.
const devServer = import.meta.env["BUFLAB_DEV_SERVER"] === true;

/** Every build's wasm, by build (a timing build per workload: the type asks for all of them). */
const WASM: Record<EngineBuild, string> & Record<TimingBuild, string> = {
  counts: countsUrl,
  program: programUrl,
  questions: questionsUrl,
  "timing-fixed": fixedUrl,
  "timing-exact": exactUrl,
  "timing-bytes": bytesUrl,
  "timing-to_end": toEndUrl,
  "timing-lines": linesUrl,
  "timing-frames": framesUrl,
  "timing-scan": scanUrl,
};

const compiled: Partial<Record<EngineBuild, Promise<WebAssembly.Module>>> = {};

let release: () => void = () => undefined;
const fullReleased = new Promise<void>((resolve) => {
  release = resolve;
});

/** The first timing build asked for, once it has arrived (or failed): the program and questions builds wait for it. */
let firstTiming: Promise<unknown> | null = null;

/** Lets the timing and program builds download and compile (once the first numbers are on screen, or earlier if something needs them). */
export function startFullEngine(): void {
  release();
}

/**
 * Wasm downloaded ahead of `startFullEngine` (`prefetchEngine`), by build:
 * its bytes, and whether the browser's HTTP cache may keep them (a host
 * that says `no-store` would have them downloaded twice).
 */
const fetched: Partial<Record<EngineBuild, Promise<{ bytes: ArrayBuffer; cached: boolean }>>> = {};

/**
 * Starts downloading `build`'s wasm now, into the browser's HTTP cache,
 * without compiling it: called once the counting build has arrived and the
 * opening link is read, when the first numbers need nothing more from the
 * network but the page's own code is still running. Compiling still waits
 * for `startFullEngine`, so it takes no CPU from the first numbers, and then
 * streams the wasm from the cache (`compileBuild`). On a phone's network the
 * timing build is most of the wait for the first full measurement.
 */
export function prefetchEngine(build: EngineBuild): void {
  // The dev server is this machine: nothing to hurry, and a build it is still compiling is not there.
  if (devServer || build === "counts" || compiled[build] !== undefined || fetched[build] !== undefined) return;
  const prefetch = fetch(WASM[build]).then(async (response) => {
    if (!response.ok) throw new Error(response.statusText);
    return { bytes: await response.arrayBuffer(), cached: !/\bno-store\b/i.test(response.headers.get("Cache-Control") ?? "") };
  });
  prefetch.catch(() => undefined);
  fetched[build] = prefetch;
}

/**
 * Resolves once what `prefetchEngine` started has arrived (or failed), at
 * once if nothing was: on a phone's network the timing build takes a second
 * or more after the first numbers, and the later parts wait for it (main.ts).
 */
export function prefetchesSettled(): Promise<void> {
  return Promise.allSettled(Object.values(fetched)).then(() => undefined);
}

/** How long the page waits before asking the dev server again for a build it is still compiling. */
const BUILDING_POLL_MS = 1000;

/** The builds the page has asked for that its dev server is still compiling. */
const building = new Set<EngineBuild>();
const buildingListeners: ((builds: EngineBuild[]) => void)[] = [];

/** Calls `listener` with the builds the page waits for that its dev server is still compiling: now, and at every change. */
export function watchBuilding(listener: (builds: EngineBuild[]) => void): void {
  buildingListeners.push(listener);
  listener([...building]);
}

function setBuilding(build: EngineBuild, still: boolean): void {
  if (building.has(build) === still) return;
  if (still) building.add(build);
  else building.delete(build);
  for (const listener of buildingListeners) listener([...building]);
}

/**
 * `build`'s module from the dev server, once it is in: the server says
 * `building` while `npm start` still compiles it (web/build/builds-behind.ts),
 * and is asked again every BUILDING_POLL_MS, the page told meanwhile
 * (`watchBuilding`). A build that failed or was never built is an error.
 */
async function fromDevServer(build: EngineBuild): Promise<WebAssembly.Module> {
  const of = new URL(WASM[build], location.href).pathname;
  for (;;) {
    const { state, message } = (await (await fetch(`${BUILD_STATE_PATH}?of=${encodeURIComponent(of)}`)).json()) as BuildState;
    setBuilding(build, state === "building");
    if (state === "in") return compileWasm(WASM[build]);
    if (state !== "building") throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, BUILDING_POLL_MS));
  }
}

/**
 * `build`'s module, streamed from the HTTP cache its prefetch filled (or
 * from the network if it was not prefetched, or that failed); compiled
 * from the prefetched bytes only where streaming cannot be had or the host
 * forbids caching (`compileWasm`). The bytes are let go here: the module is
 * what the page keeps (`compiled`), and a timing build's bytes are a
 * megabyte.
 */
async function compileBuild(build: EngineBuild): Promise<WebAssembly.Module> {
  const prefetched = await fetched[build]?.catch(() => undefined);
  delete fetched[build];
  if (prefetched !== undefined && !prefetched.cached) return WebAssembly.compile(prefetched.bytes);
  if (prefetched !== undefined) return compileWasm(WASM[build], prefetched.bytes);
  return devServer ? fromDevServer(build) : compileWasm(WASM[build]);
}

/** One engine build, compiled once per page (all but the counting build only after `startFullEngine`). */
export function engineModule(build: EngineBuild): Promise<WebAssembly.Module> {
  if (build === "counts") {
    compiled.counts ??= compileWasm(countsUrl);
    return compiled.counts;
  }
  if (build === "program" || build === "questions") {
    compiled[build] ??= fullReleased.then(() => firstTiming?.catch(() => undefined)).then(() => compileBuild(build));
    return compiled[build];
  }
  let module = compiled[build];
  if (module === undefined) {
    module = fullReleased.then(() => compileBuild(build));
    compiled[build] = module;
    firstTiming ??= module;
  }
  return module;
}

/**
 * Resolves once `build`'s module is compiled, or has failed to: from then
 * on a job's time budget runs (engine/client.ts), not while its build
 * downloads or is still being compiled by the dev server.
 */
export function engineArrived(build: EngineBuild): Promise<void> {
  return engineModule(build).then(
    () => undefined,
    () => undefined,
  );
}

/** What the clients use of a Worker (engine/client.ts narrows the message types). */
export interface EngineWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  addEventListener(type: string, listener: EventListener): void;
}

/**
 * A worker of a build that waits for `startFullEngine`, started once it is
 * released. Started at boot, it would spend its start-up (a new isolate,
 * its script) beside the counting worker and the page's building, on the
 * first numbers' path, only to wait for a module that comes after them.
 * Messages and listeners given meanwhile are handed on in order.
 */
class LateWorker implements EngineWorker {
  private worker: Worker | null = null;
  private readonly queued: unknown[] = [];
  private readonly listeners: [string, EventListener][] = [];
  private ended = false;

  constructor(start: Promise<void>, make: () => Worker) {
    void start.then(() => {
      if (this.ended) return;
      const worker = make();
      this.worker = worker;
      for (const [type, listener] of this.listeners) worker.addEventListener(type, listener);
      for (const message of this.queued.splice(0)) worker.postMessage(message);
    });
  }

  postMessage(message: unknown): void {
    if (this.worker) this.worker.postMessage(message);
    else this.queued.push(message);
  }

  addEventListener(type: string, listener: EventListener): void {
    this.listeners.push([type, listener]);
    this.worker?.addEventListener(type, listener);
  }

  terminate(): void {
    this.ended = true;
    this.worker?.terminate();
  }
}

/** A new worker of the script that carries `build`'s glue. */
function workerScript(name: string, build: EngineBuild): Worker {
  // Each build's worker script carries its glue (worker-counts.ts, worker-timing.ts, worker-program.ts, worker-questions.ts).
  if (build === "counts") return new Worker(new URL("./worker-counts.ts", import.meta.url), { type: "module", name });
  if (build === "program") return new Worker(new URL("./worker-program.ts", import.meta.url), { type: "module", name });
  if (build === "questions") return new Worker(new URL("./worker-questions.ts", import.meta.url), { type: "module", name });
  return new Worker(new URL("./worker-timing.ts", import.meta.url), { type: "module", name });
}

/**
 * A fresh engine worker, sent the compiled build (or why there is none) as
 * its first message; a worker of any other build but the counting build
 * starts once those are released.
 */
export function spawnEngineWorker(name: string, build: EngineBuild): EngineWorker {
  // Asked for now, though it waits for its release: the program build then
  // knows a timing build comes first.
  const module = engineModule(build);
  const make = (): Worker => {
    const worker = workerScript(name, build);
    const send = (message: ModuleMessage): void => worker.postMessage(message);
    module.then(
      (module) => send({ type: "module", build, module }),
      (error: unknown) => send({ type: "module", build, error: messageOf(error) }),
    );
    return worker;
  };
  if (build === "counts") return make();
  // From the dev server, the worker's script imports its build's glue from
  // web/pkg-*, which a build still being compiled does not have yet: the
  // worker starts once the module is there.
  const settled = module.then(
    () => undefined,
    () => undefined,
  );
  return new LateWorker(devServer ? fullReleased.then(() => settled) : fullReleased, make);
}
