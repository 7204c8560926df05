// The benchmark page: runs the wasm suite in a worker (the timer there is the
// one the playground uses) and shows the JSON. `scripts/bench.mjs` reads
// `#out` once `#state` says done. `?one=NAME` times that scenario alone in a
// fresh worker, `&after=1` after every other scenario (the order check),
// `&settle=MS` once the worker has been idle that long after instantiating.
// As on the playground (engine/spawn.ts), the engine is compiled here, on
// the page's thread, while it downloads, and the worker is handed the
// compiled module: a fresh worker then starts from the state the page's do.

import wasmUrl from "../../pkg-program/buflab_program_bg.wasm?url";
import { compileWasm } from "../engine/compile";
import type { BenchJob, BenchMessage } from "./worker";

const state = document.getElementById("state") as HTMLElement;
const out = document.getElementById("out") as HTMLElement;
const query = new URLSearchParams(location.search);
const one = query.get("one");
const job: BenchJob =
  one === null ? { kind: "suite" } : { kind: "one", name: one, afterOthers: query.get("after") === "1", settleMs: Number(query.get("settle") ?? 0) };
const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
worker.addEventListener("message", (event: MessageEvent<{ ok: boolean; text: string }>) => {
  out.textContent = event.data.text;
  state.textContent = event.data.ok ? "done" : "failed";
  worker.terminate();
});
worker.addEventListener("error", (event) => {
  out.textContent = event.message;
  state.textContent = "failed";
});
compileWasm(wasmUrl).then(
  (module) => worker.postMessage({ job, module } satisfies BenchMessage),
  (error: unknown) => {
    out.textContent = `wasm did not compile: ${String(error)}`;
    state.textContent = "failed";
  },
);
