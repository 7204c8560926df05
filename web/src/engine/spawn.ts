// Starting the engine's workers. The wasm is compiled once, on this thread,
// while it downloads (WebAssembly.compileStreaming), and the compiled Module
// is handed to every worker by postMessage: the codec (this thread), the
// counting and timing workers, and any sweep or calibrate worker each
// instantiate it instead of fetching and compiling the same wasm again.
//
//   page ── compileStreaming(wasm) ──▶ Module ──postMessage──▶ worker: init({ module_or_path })
//
// Every worker waits for that first message before it loads (worker.ts).

import wasmUrl from "../../pkg/buflab_bg.wasm?url";
import type { ModuleMessage } from "./protocol";

let compiled: Promise<WebAssembly.Module> | null = null;

/** The engine's wasm, compiled once per page. */
export function engineModule(): Promise<WebAssembly.Module> {
  compiled ??= WebAssembly.compileStreaming(fetch(wasmUrl)).catch(async (error: unknown) => {
    // A host that sends the wasm without `application/wasm` fails streaming compilation only.
    if (!(error instanceof TypeError)) throw error;
    const response = await fetch(wasmUrl);
    return WebAssembly.compile(await response.arrayBuffer());
  });
  return compiled;
}

/** A fresh engine worker, sent the compiled engine (or why there is none) as its first message. */
export function spawnEngineWorker(name: string): Worker {
  const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module", name });
  const send = (message: ModuleMessage): void => worker.postMessage(message);
  engineModule().then(
    (module) => send({ type: "module", module }),
    (error: unknown) => send({ type: "module", error: error instanceof Error ? error.message : String(error) }),
  );
  return worker;
}
