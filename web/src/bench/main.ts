// The benchmark page: runs the wasm suite in a worker (the timer there is the
// one the playground uses) and shows the JSON. `scripts/bench.mjs` reads
// `#out` once `#state` says done.

const state = document.getElementById("state") as HTMLElement;
const out = document.getElementById("out") as HTMLElement;
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
