// Starting the engine's workers. The engine comes as two wasm builds of the
// same crate (`npm run wasm`):
//
//   counts  web/pkg-counts   reading links and the read lab's counted pass,
//                            nothing timed (built without the `timed` and
//                            `write-lab` features, for size): links read on
//                            this thread and the counting worker, i.e. the
//                            first numbers
//   full    web/pkg          everything: the timed pass, the buffer timeline,
//                            sweeps, calibration, the write lab (its counts
//                            too: Codec.countsBuild); on this thread, writing
//                            links and the code panel's program
//
// Each is compiled once, on this thread, while it downloads
// (WebAssembly.compileStreaming), and the compiled Module is handed to every
// worker that runs it by postMessage:
//
//   page ── compileStreaming(wasm) ──▶ Module ──postMessage──▶ worker: init({ module_or_path })
//
// The full build waits until the page says the first numbers are on screen
// (`startFullEngine`), so the first numbers download nothing they do not use;
// a link to a lab the counting build leaves out starts it at once (main.ts).
// Every worker waits for that first message before it loads (worker.ts),
// the glue of its build already in its script (worker-counts.ts, worker-full.ts).

import countsUrl from "../../pkg-counts/buflab_counts_bg.wasm?url";
import fullUrl from "../../pkg/buflab_bg.wasm?url";
import type { EngineBuild, ModuleMessage } from "./protocol";

const compiled: Partial<Record<EngineBuild, Promise<WebAssembly.Module>>> = {};

let release: () => void = () => undefined;
const fullReleased = new Promise<void>((resolve) => {
  release = resolve;
});

/** Lets the full engine download and compile (once the first numbers are on screen, or earlier if something needs it). */
export function startFullEngine(): void {
  release();
}

async function compile(url: string): Promise<WebAssembly.Module> {
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch (error) {
    // A host that sends the wasm without `application/wasm` fails streaming compilation only.
    if (!(error instanceof TypeError)) throw error;
    const response = await fetch(url);
    return WebAssembly.compile(await response.arrayBuffer());
  }
}

/** One engine build, compiled once per page (the full one only after `startFullEngine`). */
export function engineModule(build: EngineBuild): Promise<WebAssembly.Module> {
  compiled[build] ??= build === "counts" ? compile(countsUrl) : fullReleased.then(() => compile(fullUrl));
  return compiled[build];
}

/** What the clients use of a Worker (engine/client.ts narrows the message types). */
export interface EngineWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  addEventListener(type: string, listener: EventListener): void;
}

/**
 * A worker of the full build, started once that build is released
 * (`startFullEngine`). Started at boot, it would spend its start-up (a new
 * isolate, its script) beside the counting worker and the page's building,
 * on the first numbers' path, only to wait for a module that comes after
 * them. Messages and listeners given meanwhile are handed on in order.
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

/**
 * A fresh engine worker, sent the compiled build (or why there is none) as
 * its first message; a full-build worker starts once that build is released.
 */
export function spawnEngineWorker(name: string, build: EngineBuild): EngineWorker {
  const make = (): Worker => {
    // Each build's worker script carries its glue (worker-counts.ts, worker-full.ts).
    const worker =
      build === "counts"
        ? new Worker(new URL("./worker-counts.ts", import.meta.url), { type: "module", name })
        : new Worker(new URL("./worker-full.ts", import.meta.url), { type: "module", name });
    const send = (message: ModuleMessage): void => worker.postMessage(message);
    engineModule(build).then(
      (module) => send({ type: "module", build, module }),
      (error: unknown) => send({ type: "module", build, error: error instanceof Error ? error.message : String(error) }),
    );
    return worker;
  };
  return build === "full" ? new LateWorker(fullReleased, make) : make();
}
