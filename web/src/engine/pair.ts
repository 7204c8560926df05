// Two exported results paired by the engine (`pair_results`), in a worker of
// the trace build, the build that reads the files a person opens: a worker
// for the one pairing, ended when it answers.

import type { FromPairWorker, ToTraceWorker } from "./trace-protocol";
import type { Comparison } from "./types.gen";

/**
 * A's and B's results (JSON text; untrusted) paired as a Comparison; rejects
 * with the engine's message, which names the file (`A: …`, `B: …`) and what
 * is wrong with it, or with why the worker could not load.
 */
export function pairResults(a: string, b: string): Promise<Comparison> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./worker-trace.ts", import.meta.url), { type: "module", name: "buflab-pair" });
    const end = (): void => worker.terminate();
    worker.addEventListener("message", (event: MessageEvent<FromPairWorker>) => {
      const message = event.data;
      if (message.kind === "paired") resolve(message.comparison);
      else reject(new Error(message.message));
      end();
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      end();
      reject(new Error(`The result reader did not load: ${event.message || "its worker failed to load"}`));
    });
    const job: ToTraceWorker = { kind: "pair", job: 0, a, b };
    worker.postMessage(job);
  });
}
