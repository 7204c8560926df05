// The trace worker's messages (engine/worker-trace.ts, engine/trace-runner.ts,
// engine/pair.ts): the page hands the worker a log (a File, or the shipped log fetched as a
// Blob); the worker reads it in chunks through the engine's TraceSession and
// says how far it has come after each, so a Cancel between two chunks ends
// the reading with the figures of the part read. Nothing leaves the worker
// but the figures. The same worker pairs two result files a person opened.

import type { Comparison, Replay, TraceProgress, TraceReport } from "./types.gen";

export type ToTraceWorker =
  /** Read `log` from its start (a new reading; any earlier one is dropped). */
  | { kind: "read"; job: number; log: Blob }
  /** Stop reading job `job`: its figures so far come back as its report. */
  | { kind: "cancel"; job: number }
  /** Replay descriptor `id` of job `job`'s log (the engine's default options). */
  | { kind: "replay"; job: number; id: number }
  /** Pair two exported results (JSON text, A's and B's): the engine's `pair_results`. */
  | { kind: "pair"; job: number; a: string; b: string };

export type FromTraceWorker =
  | { kind: "progress"; job: number; progress: TraceProgress }
  /** The log's report: `report.complete` false after a Cancel. */
  | { kind: "read"; job: number; report: TraceReport }
  | { kind: "replayed"; job: number; id: number; replay: Replay }
  | { kind: "failed"; job: number; message: string };

/** The worker's answer to a `pair` (engine/pair.ts: a worker of its own, for one pairing). */
export type FromPairWorker = { kind: "paired"; job: number; comparison: Comparison } | { kind: "failed"; job: number; message: string };
