// Runs the benchmark suite in WebAssembly and posts it back as JSON text:
// the whole suite, or one scenario alone or after every other (the order
// check), as the page's one message asks, which brings the compiled engine.
// `vite build --mode bench` points the program build's glue at
// web/pkg-bench, the engine built with the `bench` feature and every other;
// the page's own builds have neither export.
import init, * as wasm from "../../pkg-program/buflab_program.js";

/**
 * What the benchmark page asks for (main.ts, from its own address). `settleMs`:
 * how long the worker waits, its wasm instantiated, before timing.
 */
export type BenchJob = { kind: "suite" } | { kind: "one"; name: string; afterOthers: boolean; settleMs: number };

const engine = wasm as typeof wasm & {
  bench_suite?: () => unknown;
  bench_one?: (name: string, afterOthers: boolean) => unknown;
};

/** The page's one message: the job, and the engine it compiled. */
export interface BenchMessage {
  job: BenchJob;
  module: WebAssembly.Module;
}

addEventListener("message", (event: MessageEvent<BenchMessage>) => {
  const { job, module } = event.data;
  const settled = init({ module_or_path: module }).then(() => new Promise<void>((resolve) => setTimeout(resolve, job.kind === "one" ? job.settleMs : 0)));
  void settled.then(
    () => {
      try {
        if (!engine.bench_suite || !engine.bench_one) throw new Error("this engine was built without the bench feature (npm run bench builds one)");
        const result = job.kind === "suite" ? engine.bench_suite() : engine.bench_one(job.name, job.afterOthers);
        postMessage({ ok: true, text: JSON.stringify(result) });
      } catch (error) {
        postMessage({ ok: false, text: String(error) });
      }
    },
    (error: unknown) => postMessage({ ok: false, text: `wasm did not load: ${String(error)}` }),
  );
});
