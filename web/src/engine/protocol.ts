// The worker's message envelopes: what the page and its workers say to each
// other. What the messages carry (params, reports) is typed by
// `types.gen.ts`, generated from the Rust types (crate/src/types.rs); nothing
// here restates a Rust type.
//
//   main thread (engine/client.ts)          worker (worker.ts)            wasm
//   ─────────────────────────────           ──────────────────            ────
//   submit(job) ──{type:'job', id, job}──▶ jobs[job.kind](job, progress) ─▶ engine
//   onProgress(p) ◀──{type:'progress', id, progress}── (a sweep: one per point)
//   resolves ◀────{type:'done', id, reply}───────────┘
//   rejects  ◀────{type:'error', id, message, fatal}─┘
//
// Every job kind travels in the same envelope; `Jobs` says, per kind, what
// the page asks, what the worker says along the way, and what it answers:
//
//   run        run(link, counts, quick), or time_counted(link, quick, counts)
//              when the link's counts come along: a LabReport
//   sweep      sweep_point(params, i) → sweep_report(params, points so far),
//              a progress message per point; the answer is the last report
//   compare    compare(link, counts, quick) on a link with `b.` keys: A and
//              B counted, then timed in alternating rounds: a Comparison
//   quiz       quiz(link): the quiz the engine writes for a link (the questions build, every lab's)
//   choices    lesson_choices(link, answer): a lesson question's four choices, each a real run
//              (the questions build; the program build for the write lab's)
//   calibrate  opens a file in the Origin Private File System (async), then
//              calibrate_opfs(params, handle): a Calibration, or what this
//              browser is missing

import type { Answer, Calibration, Comparison, LabReport, LessonChoices, LessonId, Params, Quiz, Stage, SweepReport, Workload } from "./types.gen";

/** A failure injected on purpose to test recovery; only builds made with `npm run build:faults` accept one. */
export type Fault = "panic" | "hang" | "oom";

/**
 * Which wasm build a worker runs (engine/spawn.ts; their features are in
 * crate/Cargo.toml): `counts`, reading links and the read lab's counted
 * pass (the first numbers); `timing-<workload>`, the read lab's timed pass,
 * timelines and sweeps with that workload's loops only; `program`, writing
 * links, the code panel, the write lab and Calibrate; `questions`, the quiz
 * and a read lesson's four choices, from counted runs.
 */
export type EngineBuild = "counts" | "program" | "questions" | TimingBuild;

/** The read lab's timing build of one workload. */
export type TimingBuild = `timing-${Workload}`;

/** The build that times `params` and sweeps them: the read lab's timing build of their workload, or the program build for the write lab. */
export function timingBuildOf(params: Pick<Params, "lab" | "workload">): EngineBuild {
  return params.lab === "read" ? `timing-${params.workload}` : "program";
}

/**
 * The build that writes a lesson's four choices for `params`: the questions
 * build, or the program build for the write lab's lesson. (Every quiz is
 * the questions build's: a write-lab link's is a note that the quiz is the
 * read lab's.)
 */
export function choicesBuildOf(params: Pick<Params, "lab">): EngineBuild {
  return params.lab === "read" ? "questions" : "program";
}

/**
 * The first message every worker gets (engine/spawn.ts): the engine's wasm,
 * compiled once by the page, or why it could not be compiled.
 */
export type ModuleMessage =
  | { type: "module"; build: EngineBuild; module: WebAssembly.Module }
  | { type: "module"; build: EngineBuild; error: string };

/**
 * Where the dev server says whether an engine build is in
 * (web/build/builds-behind.ts): `?of=` a path inside the build, answered
 * with a BuildState. Served by the dev server only.
 */
export const BUILD_STATE_PATH = "/@buflab/build";

/** A build's state on the dev server: in, still being compiled by `npm start`, failed, or not built at all (`message` says). */
export interface BuildState {
  state: "in" | "building" | "failed" | "missing";
  message: string;
}

/** The header with which the dev server answers a request for a file of a build not in (its BuildState's word). */
export const BUILD_HEADER = "x-buflab-build";

/** A sweep point done: the report of the points so far. */
export interface SweepProgress {
  /** Index of the point just done, and how many the sweep has. */
  index: number;
  total: number;
  report: SweepReport;
  /** Wall time of this point in the worker. */
  elapsedMs: number;
}

/** What a calibration found. */
export type CalibrateOutcome =
  | { kind: "measured"; calibration: Calibration }
  /** No synchronous OPFS file in this browser: `reason` says what is missing; `sys` stays as it is. */
  | { kind: "missing"; reason: string };

/** The jobs a worker does, by kind: the request, the progress messages along the way, the answer. */
export interface Jobs {
  /**
   * An experiment as far as `stage` (`counts`: not timed). `link`: the
   * canonical fragment of the settings (the counting build takes links, not
   * params: engine/codec.ts). `counted`: the counts report of this same link
   * (the counting worker's), for a timing stage: the worker then times it
   * (`time_counted`) instead of counting again.
   */
  run: {
    request: { link: string; stage: Stage; fault?: Fault; counted?: LabReport };
    progress: never;
    reply: { report: LabReport; elapsedMs: number };
  };
  /** The sweep `params.sweep`, point by point; `quick`: one sample per point. The timing build of their workload. */
  sweep: {
    request: { params: Params; quick: boolean };
    progress: SweepProgress;
    reply: SweepReport;
  };
  /**
   * A comparison link (`b.` keys): A and B counted, then timed in
   * alternating rounds (`quick`: fewer, shorter rounds). The timing build of
   * A's workload, which must be B's too (the engine says so otherwise).
   */
  compare: {
    request: { link: string; quick: boolean };
    progress: never;
    reply: { comparison: Comparison; elapsedMs: number };
  };
  /** The quiz the engine writes for `link` (a canonical fragment), its answers from real counted runs. The timing build of its workload. */
  quiz: {
    request: { link: string };
    progress: never;
    reply: Quiz;
  };
  /**
   * The four choices of lesson `lesson`'s question (catalog/choices.rs): the
   * real answer and three wrong ones, each a real run of the lesson's
   * experiment with one thing changed. `link`: the lesson's link (a
   * canonical fragment), which says the build: the timing build of its
   * workload, or the program build for the write lab. `answer`: its
   * question's (lessons.gen.json), so the builds carry no lesson texts.
   */
  choices: {
    request: { lesson: LessonId; link: string; answer: Answer };
    progress: never;
    reply: LessonChoices;
  };
  /** The cost of one source read on the browser's file system. The program build only. */
  calibrate: {
    request: { params: Params };
    progress: never;
    reply: CalibrateOutcome;
  };
}

export type JobKind = keyof Jobs;
/** A request of kind `K` (of any kind, by default). */
export type Job<K extends JobKind = JobKind> = { [P in K]: { kind: P } & Jobs[P]["request"] }[K];
export type Progress<K extends JobKind = JobKind> = Jobs[K]["progress"];
export type Reply<K extends JobKind = JobKind> = Jobs[K]["reply"];

/** Messages from the page to the worker (after its ModuleMessage). */
export type ToWorker = { type: "job"; id: number; job: Job };

/** Messages from the worker to the page. */
export type FromWorker =
  /** The wasm is loaded; `isolated` is the worker's crossOriginIsolated. */
  | { type: "ready"; isolated: boolean }
  /** Loading the wasm failed; the worker is useless. */
  | { type: "failed"; message: string }
  | { type: "progress"; id: number; progress: Progress }
  | { type: "done"; id: number; reply: Reply }
  /**
   * The job threw. `fatal` means the wasm instance trapped (a Rust panic) and
   * must not be used again: the client replaces the worker.
   */
  | { type: "error"; id: number; message: string; fatal: boolean };
