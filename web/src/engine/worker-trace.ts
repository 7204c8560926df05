// The trace build's worker script (`npm run wasm:trace`, web/pkg-trace):
// reads a program's strace log in the chunks its Blob streams (a line may
// span two), one `TraceSession.feed` per chunk, posting progress at most
// every 100 ms (and giving the message queue a turn then), and stops
// between chunks on Cancel. Memory stays within the
// engine's bound whatever the log (engine::trace::memory_bound): a chunk is
// fed and dropped, never gathered. It also pairs two result files
// (`pair_results`, engine/pair.ts).

import init, { pair_results, TraceSession } from "../../pkg-trace/buflab_trace.js";
import wasmUrl from "../../pkg-trace/buflab_trace_bg.wasm?url";
import { messageOf } from "./errors";
import type { FromPairWorker, FromTraceWorker, ToTraceWorker } from "./trace-protocol";
import type { Comparison, Replay, TraceProgress, TraceReport } from "./types.gen";

const ready = init({ module_or_path: wasmUrl });
/** The newest job, its session and whether Cancel was asked. */
let current: { job: number; session: TraceSession; cancelled: boolean } | null = null;

const post = (message: FromTraceWorker | FromPairWorker): void => postMessage(message);

async function read(job: number, log: Blob): Promise<void> {
  await ready;
  current?.session.free();
  const session = new TraceSession();
  const mine = { job, session, cancelled: false };
  current = mine;
  const reader = log.stream().getReader();
  let posted = 0;
  let complete = true;
  for (;;) {
    const { done, value } = await reader.read();
    if (current !== mine) {
      void reader.cancel().catch(() => undefined);
      return;
    }
    if (mine.cancelled) {
      complete = false;
      void reader.cancel().catch(() => undefined);
      break;
    }
    if (done) break;
    const progress = session.feed(value) as TraceProgress;
    const now = performance.now();
    if (now - posted > 100) {
      posted = now;
      post({ kind: "progress", job, progress });
      // A stream whose chunks are already queued answers read() in
      // microtasks, which would keep Cancel's message waiting to the end:
      // a task's turn lets it in.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  post({ kind: "read", job, report: session.finish(complete) as TraceReport });
}

addEventListener("message", (event: MessageEvent<ToTraceWorker>) => {
  const message = event.data;
  const fail = (error: unknown): void => post({ kind: "failed", job: message.job, message: messageOf(error) });
  if (message.kind === "read") read(message.job, message.log).catch(fail);
  else if (message.kind === "pair") {
    const { job, a, b } = message;
    ready.then(() => post({ kind: "paired", job, comparison: pair_results(a, b) as Comparison })).catch(fail);
  }
  else if (message.kind === "cancel") {
    if (current?.job === message.job) current.cancelled = true;
  } else if (current?.job === message.job) {
    try {
      post({ kind: "replayed", job: message.job, id: message.id, replay: current.session.replay(message.id, undefined) as Replay });
    } catch (error) {
      fail(error);
    }
  }
});
