// The worker's message envelopes: what the page and its workers say to each
// other. What the messages carry (params, reports) is typed by
// `types.gen.ts`, generated from the Rust types (crate/src/types.rs); nothing
// here restates a Rust type.
//
//   main thread                          worker                          wasm
//   ───────────                          ──────                          ────
//   client.run(link, stage) ──ToWorker──▶ run(link, counts, quick) ───▶ engine
//     (a timing stage with the link's counts: time_counted(link, quick, counts))
//   promise resolves ◀──────FromWorker (result / error)────────────── LabReport / Error
//
// The page keeps two such workers: one answers `counts` requests (exact
// counts at once), the other the timing stages (`quick`, then `full`), so
// counts never wait behind a measurement.
//
//   SweepRunner.run(params) ──SweepRequest──▶ worker: for each point i
//       sweep_point(params, i) → sweep_report(params, points so far)
//   onPoint(report) ◀──────── SweepProgress (one per point) ◀──┘
//   Cancel terminates the worker; the points already shown stay.
//
//   calibrate(params) ──CalibrateRequest──▶ worker (an instance of its own):
//       opens a file in the Origin Private File System (async), then
//       calibrate_opfs(params, handle) ──▶ engine::real::calibrate
//   resolves ◀── CalibrateReply (calibrated / opfs-missing) or error ◀──┘

import type { Calibration, LabReport, Params, Stage, SweepReport } from "./types.gen";

/** A failure injected on purpose to test recovery; only builds made with `npm run build:faults` accept one. */
export type Fault = "panic" | "hang" | "oom";

/**
 * Which wasm build a worker runs (engine/spawn.ts): `counts`, the codec and
 * the counted pass only (the first numbers); `full`, everything.
 */
export type EngineBuild = "counts" | "full";

/**
 * The first message every worker gets (engine/spawn.ts): the engine's wasm,
 * compiled once by the page, or why it could not be compiled.
 */
export type ModuleMessage =
  | { type: "module"; build: EngineBuild; module: WebAssembly.Module }
  | { type: "module"; build: EngineBuild; error: string };

/**
 * Messages from the page to the worker: how far to time (`counts`: not at
 * all). `link`: the canonical fragment of the settings to run (the counting
 * build takes links, not params: engine/codec.ts). `counted`: the counts
 * report of this same link (the counting worker's), for a timing stage: the
 * worker then times it (`time_counted`) instead of counting again.
 */
export type ToWorker = { type: "run"; id: number; link: string; stage: Stage; fault?: Fault; counted?: LabReport };

/** Messages from the worker to the page. */
export type FromWorker =
  /** The wasm is loaded; `isolated` is the worker's crossOriginIsolated. */
  | { type: "ready"; isolated: boolean }
  /** Loading the wasm failed; the worker is useless. */
  | { type: "failed"; message: string }
  | { type: "result"; id: number; report: LabReport; elapsedMs: number }
  /**
   * `run` threw. `fatal` means the wasm instance trapped (a Rust panic) and
   * must not be used again: the client replaces the worker.
   */
  | { type: "error"; id: number; message: string; fatal: boolean };

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

/** Calibrate: measure the cost of one source read on the browser's file system. */
export interface CalibrateRequest {
  type: "calibrate";
  id: number;
  params: Params;
}

/** The worker's answer to a CalibrateRequest (a failure is an `error`, FromWorker). */
export type CalibrateReply =
  | { type: "calibrated"; id: number; calibration: Calibration }
  /** This browser offers no synchronous file in the Origin Private File System; `reason` says what is missing. */
  | { type: "opfs-missing"; id: number; reason: string };
