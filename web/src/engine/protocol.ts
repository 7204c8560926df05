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
  /** Which lab runs (link key `lab`; absent in a link means "read"). */
  lab: Lab;
  /** The write lab's settings (carried whichever lab is shown). */
  write: WriteParams;
  /** The lesson the link opened (link key `lesson`), as in `Schema.lessons`; null for none. */
  lesson: string | null;
  /** Presenter mode (link key `present`): large type, high contrast; changes no result. */
  present: boolean;
  /** A sweep along one axis (link keys `sweep`, `from`, `to`); null: none. */
  sweep: Sweep | null;
}

/** The two halves of BufLab. */
export type Lab = "read" | "write";

/** The write lab's settings (crate/src/params.rs `WriteParams`). */
export interface WriteParams {
  /** Records serialized per run (`recs`). */
  records: number;
  /** Capacity the growable cursors start with, bytes (`icap`); 0 grows from nothing. */
  init_cap: number;
  /** Length of the fixed cursors' buffer, bytes (`buf`). */
  buf: number;
  /** Flavour ids, as listed in `Schema.flavours` (`wf`). */
  flavours: string[];
  /** Bytes written to the sink (`wlen`). */
  len: number;
  /** Application write size (`ws`). */
  ws: number;
  /** BufWriter capacity (`wcap`). */
  cap: number;
  /** Most bytes the sink accepts per write call (`sink`). */
  sink: ChunkModel;
}

export interface Range {
  min: number;
  max: number;
}

/** The numeric keys of Params that have limits in the schema. */
export type LimitKey =
  | "len" | "cap" | "rs" | "chunk" | "sys" | "seed" | "streams" | "line" | "frame" | "nul" | WriteLimitKey;

/** The write lab's limits. */
export type WriteLimitKey = "records" | "init_cap" | "buf" | "wlen" | "ws" | "wcap";

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
  /** The labs, in the switch's order. */
  labs: LabChoice[];
  /** The write lab's cursor flavours with seed 004's qualities. */
  flavours: FlavourInfo[];
  /** The sink experiment's modes (direct, bufwriter). */
  write_modes: Choice[];
  /** The final-flush demonstration's endings. */
  endings: Choice[];
  /** Encoded size of one record (16). */
  record_bytes: number;
  /** Link keys that never change a result (presenter mode, the lesson a link came from). */
  display_keys: string[];
  /** The lessons panel's list, one guided experiment per seed (crate/src/lessons.rs). */
  lessons: LessonInfo[];
  /** The axes a sweep can run along (crate/src/params.rs SWEEP_AXES). */
  sweep_axes: SweepAxisInfo[];
  /** Most points one sweep may have. */
  max_sweep_points: number;
  /** How close to a sweep's best a point must be to count as its knee (0.05: within 5 %). */
  knee_tolerance: number;
}

/** One lesson: loading it means opening `link`. */
export interface LessonInfo {
  /** The `lesson` link key's value. */
  id: string;
  /** The seed article ("000") or "sweep". */
  seed: string;
  title: string;
  /** The link fragment that loads it, with its leading '#'. */
  link: string;
  explanation: string;
  /** What to notice in the results (2–3 points). */
  notice: string[];
  /** The claim, in words; checked by crate/tests/lessons.rs. */
  claim: string;
}

export interface LabChoice {
  id: Lab;
  label: string;
  about: string;
}

/** How earlier bytes can be reached again: io::Seek, overwrite by index, or not at all. */
export type Seekable = "seek" | "by_index" | "no";

export interface FlavourInfo {
  id: string;
  /** The Rust type, e.g. "Cursor<Vec<u8>>". */
  label: string;
  about: string;
  refcounted: boolean;
  growable: boolean;
  seekable: Seekable;
  /** Seed 004's published time for 2048 records into 32 KiB (another machine), µs. */
  seed_us: number;
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
  /** Samples more than 3 scaled MADs from the median: counted, never dropped. */
  outliers: number;
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
  /** realloc calls (a growing one is also counted in allocations). */
  reallocs: number;
  digest: string;
  cpu_ns: CpuTime;
  modelled_io_ns: number;
  /** The chained reader's blocks: allocated, and handed out again by the pool. Absent for other readers. */
  blocks?: BlockCounts;
  /** The buffer timeline (crate/src/timeline.rs): the first operations of stream 1, untimed. */
  timeline?: Timeline;
}

// ---------------------------------------------------------------------------
// The buffer timeline (crate/src/timeline.rs `Timeline`, `Op`, …)

export interface Timeline {
  /** std: buffer capacity; chained: block length; unbuffered: 0. */
  capacity: number;
  pool: boolean;
  /** The trace follows stream 1 of this many. */
  streams: number;
  ops: TimelineOp[];
  /** The application had more to do after the last recorded operation. */
  truncated: boolean;
  error: string | null;
}

export type TimelineOpKind =
  | "read"
  | "read_exact"
  | "next_byte"
  | "read_to_end"
  | "line"
  | "frame_header"
  | "frame_payload"
  | "scan";

export interface TimelineOp {
  kind: TimelineOpKind;
  /** Bytes asked for; null when the call takes what there is. */
  requested: number | null;
  returned: number;
  /** Stream offset of the first byte received. */
  at: number;
  /** The first bytes received (at most 8). */
  head: number[];
  calls: number;
  source_reads: number;
  source_bytes: number;
  /** The first 16 source reads. */
  reads: TimelineSourceRead[];
  copied: number;
  direct: number;
  bypass: boolean;
  interrupted: boolean;
  /** The first 8 pieces handed to the application. */
  pieces: TimelinePiece[];
  piece_count: number;
  /** The buffer after the operation: unread spans of its blocks. */
  buffer: TimelineSpan[];
  buffered: number;
  /** The operation in plain words (from Rust: one wording for page and CLI). */
  caption: string;
}

export interface TimelineSourceRead {
  requested: number;
  returned: number;
  interrupted: boolean;
  /** The block the bytes landed in; null: the application's memory. */
  block: number | null;
  offset: number;
}

export interface TimelinePiece {
  len: number;
  /** Lent from this block; null: the application's own memory. */
  block: number | null;
  offset: number;
}

export interface TimelineSpan {
  block: number;
  start: number;
  end: number;
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
  lab: "read";
}

/** Heap activity of one run (flattened into the run objects). */
export interface AllocCounts {
  allocations: number;
  frees: number;
  alloc_bytes: number;
  peak_bytes: number;
  reallocs: number;
}

/** Why a cursor run stopped early (a fixed buffer too small: kind "WriteZero"). */
export interface WriteFailure {
  kind: string;
  message: string;
  bytes_written: number;
}

export interface FlavourRun extends AllocCounts {
  flavour: string;
  /** Bytes in the buffer at the end, or when the error came. */
  bytes: number;
  /** Null when the run failed. */
  digest: string | null;
  error: WriteFailure | null;
  /** Null when the run failed (a failed run is not timed). */
  cpu_ns: CpuTime | null;
}

export type WriteModeId = "direct" | "bufwriter";

export interface SinkRun extends AllocCounts {
  mode: WriteModeId;
  app_writes: number;
  sink_writes: number;
  sink_flushes: number;
  bytes: number;
  bytes_copied: number;
  digest: string;
  cpu_ns: CpuTime;
  /** Modelled: sink_writes × params.sys. */
  modelled_io_ns: number;
}

export type EndingId = "direct" | "dropped" | "flush" | "into_inner";

export interface FinalFlush {
  ending: EndingId;
  /** The call that returned the error ("write_all", "flush", "into_inner"); null when it was lost. */
  reported_by: string | null;
  error: string | null;
  bytes_at_sink: number;
  bytes_lost: number;
  sink_writes: number;
}

/** The write lab's report (crate/src/report.rs `WriteReport`). */
export interface WriteReport {
  lab: "write";
  params: Params;
  flavours: FlavourRun[];
  /** Digest of the records encoded by hand: every finished flavour must match it. */
  reference_digest: string;
  reference_bytes: number;
  sink: SinkRun[];
  sink_digest: string;
  final_flush: FinalFlush[];
  timer: TimerInfo;
  quick: boolean;
  link: string;
}

/** What `run` returns: the report of the lab the params select. */
export type AnyReport = Report | WriteReport;

export function isWriteReport(report: AnyReport): report is WriteReport {
  return report.lab === "write";
}

/** Samples behind the report's times (the first timed run's). */
export function sampleCount(report: AnyReport): number {
  if (!isWriteReport(report)) return report.runs[0]?.cpu_ns.samples ?? 0;
  return report.flavours.find((f) => f.cpu_ns !== null)?.cpu_ns?.samples ?? report.sink[0]?.cpu_ns.samples ?? 0;
}

/** A failure injected on purpose to test recovery; only builds made with `npm run build:faults` accept one. */
export type Fault = "panic" | "hang" | "oom";

export interface RunOptions {
  quick: boolean;
  fault?: Fault;
}

/** Messages from the page to the worker. */
export type ToWorker = { type: "run"; id: number; params: Params; quick: boolean; fault?: Fault };

/** Messages from the worker to the page. */
export type FromWorker =
  /** The wasm is loaded; `isolated` is the worker's crossOriginIsolated. */
  | { type: "ready"; isolated: boolean }
  /** Loading the wasm failed; the worker is useless. */
  | { type: "failed"; message: string }
  | { type: "result"; id: number; report: AnyReport; elapsedMs: number }
  /**
   * `run` threw. `fatal` means the wasm instance trapped (a Rust panic) and
   * must not be used again: the client replaces the worker.
   */
  | { type: "error"; id: number; message: string; fatal: boolean };

// ---------------------------------------------------------------------------
// Sweeps (crate/src/params.rs Sweep/SweepAxisInfo, crate/src/sweep.rs)
//
//   SweepRunner.run(params) ──SweepRequest──▶ worker: for each point i
//       sweep_point(params, i) → sweep_report(params, points so far)
//   onPoint(report) ◀──────── SweepProgress (one per point) ◀──┘
//   Cancel terminates the worker; the points already shown stay.

export type SweepAxisId = "cap" | "rs" | "chunk" | "len" | "streams";

export interface Sweep {
  axis: SweepAxisId;
  /** Powers of two, from ≤ to. */
  from: number;
  to: number;
}

export interface SweepAxisInfo {
  id: SweepAxisId;
  label: string;
  about: string;
  /** The powers of two the axis may take. */
  bounds: Range;
  /** The range a sweep of this axis starts with. */
  from: number;
  to: number;
  /** Values are bytes (shown as 8K); otherwise counts. */
  bytes: boolean;
  /** A knee (where a bigger value stops paying) means something on this axis. */
  knee: boolean;
}

export type SweepMetric = "source_reads" | "bytes_copied" | "allocations" | "time";

/** Where a bigger value stops paying: the smallest axis value within 5% of the sweep's best. */
export interface Knee {
  reader: string;
  metric: SweepMetric;
  value: number;
  at_knee: number;
  best: number;
  /** The knee is the first point: no bigger value in the range pays. */
  first: boolean;
}

export interface SweepPoint {
  value: number;
  report: Report;
}

/** crate/src/sweep.rs SweepReport: the points measured so far and their knees. */
export interface SweepReport {
  params: Params;
  sweep: Sweep;
  /** Every axis value of the sweep; the points done are a prefix. */
  values: number[];
  points: SweepPoint[];
  knees: Knee[];
  complete: boolean;
  digests_agree: boolean;
  link: string;
}

export interface SweepRequest {
  type: "sweep";
  id: number;
  params: Params;
  /** One sample per point instead of the sweep's own light sampling. */
  quick: boolean;
}

/** The worker's answer to a SweepRequest: one per point, then an `error` (FromWorker) if one fails. */
export interface SweepProgress {
  type: "sweep-point";
  id: number;
  /** Index of the point just done, and how many the sweep has. */
  index: number;
  total: number;
  report: SweepReport;
  /** Wall time of this point in the worker. */
  elapsedMs: number;
}
