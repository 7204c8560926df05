// Runs the benchmark suite in WebAssembly and posts it back as JSON text.
import init, { bench_suite } from "../../pkg/buflab.js";

void init().then(
  () => {
    try {
      postMessage({ ok: true, text: JSON.stringify(bench_suite()) });
    } catch (error) {
      postMessage({ ok: false, text: String(error) });
    }
  },
  (error: unknown) => postMessage({ ok: false, text: `wasm did not load: ${String(error)}` }),
);
