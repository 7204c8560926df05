// Runs the benchmark suite in WebAssembly and posts it back as JSON text.
// `vite build --mode bench` points the program build's glue at web/pkg-bench,
// the engine built with the `bench` feature and every other; the page's own
// builds have no bench_suite.
import init, * as wasm from "../../pkg-program/buflab_program.js";

const engine = wasm as typeof wasm & { bench_suite?: () => unknown };

void init().then(
  () => {
    try {
      if (!engine.bench_suite) throw new Error("this engine was built without the bench feature (npm run bench builds one)");
      postMessage({ ok: true, text: JSON.stringify(engine.bench_suite()) });
    } catch (error) {
      postMessage({ ok: false, text: String(error) });
    }
  },
  (error: unknown) => postMessage({ ok: false, text: `wasm did not load: ${String(error)}` }),
);
