// The one place that spells out what crosses the wasm boundary and the worker
// boundary. The Rust side owns these shapes (crate/src/params.rs, report.rs,
// wasm.rs); this file mirrors them for the type checker and must follow them.
//
//   main thread                        worker                      wasm
//   ───────────                        ──────                      ────
//   client.run(params, quick) ──RunRequest──▶ run(params, {quick}) ──▶ engine
//   promise resolves ◀──────RunResult / RunError──────────────── Report / Error

/** How the simulated source cuts a read request into chunks. */
export type ChunkModel =
  | { kind: "uniform"; min: number; max: number }
  | { kind: "fixed"; size: number }
  | { kind: "file" }
  | { kind: "pipe" };

export type ChunkKind = ChunkModel["kind"];

/** A whole experiment. Validated by the engine; a link decodes to one. */
export interface Params {
  /** Stream length in bytes. */
  len: number;
  chunk: ChunkModel;
  /** PRNG seed for the uniform chunk model and the stream content. */
  seed: number;
  /** Buffer capacity (or block length) in bytes. */
  cap: number;
  /** Application read size in bytes. */
  rs: number;
  /** Modelled cost of one source read, in nanoseconds. */
  sys: number;
  /** Reader ids, as listed in `Schema.readers`. */
  readers: string[];
  /** Workload id, as listed in `Schema.workloads`. */
  workload: string;
  /** Independent sources, each with its own reader, read round-robin. */
  streams: number;
  /** The chained reader's block pool is on. */
  pool: boolean;
  /** frames: one reused payload buffer instead of a new Vec per frame (std, unbuffered). */
  reuse: boolean;
  /** lines: line lengths in bytes, newline excluded. */
  line: Range;
  /** frames: payload lengths in bytes. */
  frame: Range;
  /** scan: position of the NUL byte; at or past the end, there is none. */
  nul: number;
}

export interface Range {
  min: number;
  max: number;
}

/** The numeric keys of Params that have limits in the schema. */
export type LimitKey = "len" | "cap" | "rs" | "chunk" | "sys" | "seed" | "streams" | "line" | "frame" | "nul";

export interface Choice {
  id: string;
  label: string;
  about: string;
  /** Params fields (= link keys) this choice reads; the page shows those settings only when it applies. */
  keys: string[];
}

/** A workload: what it models (`about`) and what to look for in the results (`look`). */
export interface WorkloadChoice extends Choice {
  look: string;
}

export interface ChunkPreset {
  id: string;
  min: number;
  max: number;
  about: string;
}

/** Everything the UI may know about limits, defaults and names. */
export interface Schema {
  version: number;
  defaults: Params;
  limits: Record<LimitKey, Range>;
  readers: Choice[];
  workloads: WorkloadChoice[];
  presets: ChunkPreset[];
  /** Longest fragment the codec reads. */
  max_link_bytes: number;
  /** Stream length × streams and buffer capacity × streams are each at most this. */
  max_job_bytes: number;
}

export interface LinkNotice {
  /** The link key the notice is about, e.g. "cap". */
  key: string;
  message: string;
}

export interface DecodedLink {
  params: Params;
  notices: LinkNotice[];
  /** Canonical fragment, without the leading '#'. */
  fragment: string;
}

export interface CpuTime {
  min: number;
  median: number;
  max: number;
  /** Median absolute deviation from the median. */
  mad: number;
  samples: number;
  /** Runs per sample (short runs are repeated so the timer can see them). */
  batch: number;
}

export interface Run {
  reader: string;
  source_reads: number;
  app_reads: number;
  bytes: number;
  bytes_copied: number;
  allocations: number;
  frees: number;
  alloc_bytes: number;
  peak_bytes: number;
  digest: string;
  cpu_ns: CpuTime;
  modelled_io_ns: number;
  /** The chained reader's blocks: allocated, and handed out again by the pool. Absent for other readers. */
  blocks?: BlockCounts;
}

export interface BlockCounts {
  allocated: number;
  reused: number;
}

export interface TimerInfo {
  resolution_ns: number;
  isolated: boolean;
}

export interface Report {
  params: Params;
  runs: Run[];
  timer: TimerInfo;
  /** True for a quick estimate (one short sample while a control moves). */
  quick: boolean;
  /** Digest of the stream itself: every run's digest must equal it. */
  source_digest: string;
  /** The canonical link fragment that reproduces this report. */
  link: string;
}

export interface RunOptions {
  quick: boolean;
}

/** Messages from the page to the worker. */
export type ToWorker = { type: "run"; id: number; params: Params; quick: boolean };

/** Messages from the worker to the page. */
export type FromWorker =
  /** The wasm is loaded; `isolated` is the worker's crossOriginIsolated. */
  | { type: "ready"; isolated: boolean }
  /** Loading the wasm failed; the worker is useless. */
  | { type: "failed"; message: string }
  | { type: "result"; id: number; report: Report; elapsedMs: number }
  /**
   * `run` threw. `fatal` means the wasm instance trapped (a Rust panic) and
   * must not be used again: the client replaces the worker.
   */
  | { type: "error"; id: number; message: string; fatal: boolean };
