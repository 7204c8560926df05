// The trace panel's handle on its worker (engine/worker-trace.ts): started
// on the first log, kept for the replays of that log's descriptors, and
// ended and replaced when a log is opened while another is being read.

import type { FromTraceWorker, ToTraceWorker } from "./trace-protocol";

export type { FromTraceWorker } from "./trace-protocol";

export interface TraceRunner {
  read(job: number, log: Blob): void;
  cancel(job: number): void;
  replay(job: number, id: number): void;
}

/** A runner whose worker's answers go to `heard`; a worker that fails to load says so as job `-1`'s failure. */
export function createTraceRunner(heard: (message: FromTraceWorker) => void): TraceRunner {
  let worker: Worker | null = null;
  let reading = false;
  const start = (): Worker => {
    const made = new Worker(new URL("./worker-trace.ts", import.meta.url), { type: "module", name: "buflab-trace" });
    made.addEventListener("message", (event: MessageEvent<FromTraceWorker>) => {
      if (event.data.kind === "read" || event.data.kind === "failed") reading = false;
      heard(event.data);
    });
    made.addEventListener("error", (event) => {
      event.preventDefault();
      reading = false;
      heard({ kind: "failed", job: -1, message: `The log reader stopped: ${event.message || "its worker failed to load"}` });
    });
    return made;
  };
  const send = (message: ToTraceWorker): void => {
    worker ??= start();
    worker.postMessage(message);
  };
  return {
    read(job, log) {
      // A log still being read blocks its worker between chunks only, but a
      // fresh worker starts the new one at once and frees the old one's memory.
      if (reading) {
        worker?.terminate();
        worker = null;
      }
      reading = true;
      send({ kind: "read", job, log });
    },
    cancel: (job) => send({ kind: "cancel", job }),
    replay: (job, id) => send({ kind: "replay", job, id }),
  };
}
