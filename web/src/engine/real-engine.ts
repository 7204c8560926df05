// For unit tests: the real engine, the builds the page loads (`npm run
// wasm`: web/pkg-counts, web/pkg-program, web/pkg-questions,
// web/pkg-timing/<workload>, web/pkg-trace),
// loaded synchronously with initSync where the page loads them
// asynchronously. Tests take params, limits and defaults from them instead
// of keeping copies, and hold the builds to each other (builds.test.ts).

import { readFileSync } from "node:fs";
import * as counting from "../../pkg-counts/buflab_counts.js";
import * as program from "../../pkg-program/buflab_program.js";
import * as questions from "../../pkg-questions/buflab_questions.js";
import * as bytes from "../../pkg-timing/bytes/buflab_timing.js";
import * as exact from "../../pkg-timing/exact/buflab_timing.js";
import * as fixed from "../../pkg-timing/fixed/buflab_timing.js";
import * as frames from "../../pkg-timing/frames/buflab_timing.js";
import * as lines from "../../pkg-timing/lines/buflab_timing.js";
import * as scan from "../../pkg-timing/scan/buflab_timing.js";
import * as toEnd from "../../pkg-timing/to_end/buflab_timing.js";
import * as trace from "../../pkg-trace/buflab_trace.js";
import { codecFrom, type Codec } from "./codec";
import { choicesBuildOf, timingBuildOf } from "./protocol";
import type { Comparison, LabReport, Notice, Params, SweepPoint, SweepReport, Workload } from "./types.gen";

/** A timing build's exports (every workload's has the same). */
export type TimingEngine = typeof fixed;

/** Each workload's timing build, as its package (web/pkg-timing/<workload>). */
const TIMING: Record<Workload, TimingEngine> = { fixed, exact, bytes, to_end: toEnd, lines, frames, scan };

const loaded = new Set<unknown>();

/** `engine`, its wasm (`path`, next to this package's glue) loaded on first use. */
function load<T extends { initSync(options: { module: Buffer }): unknown }>(engine: T, path: string): T {
  if (!loaded.has(engine)) {
    engine.initSync({ module: readFileSync(new URL(path, import.meta.url)) });
    loaded.add(engine);
  }
  return engine;
}

/** The counting build's exports (the codec, the comparisons and `run`, counts only), loaded. */
export function realCountingEngine(): typeof counting {
  return load(counting, "../../pkg-counts/buflab_counts_bg.wasm");
}

/** The program build's exports (writing links, the code panel, the write lab, Calibrate), loaded. */
export function realProgramEngine(): typeof program {
  return load(program, "../../pkg-program/buflab_program_bg.wasm");
}

/** The questions build's exports (the quiz, a read lesson's choices), loaded. */
export function realQuestionsEngine(): typeof questions {
  return load(questions, "../../pkg-questions/buflab_questions_bg.wasm");
}

/** The build that writes a lesson's choices for `params`, as the page's side worker picks it (protocol.ts `choicesBuildOf`), loaded. */
export function realChoicesEngineFor(params: Pick<Params, "lab">): typeof questions | typeof program {
  return choicesBuildOf(params) === "program" ? realProgramEngine() : realQuestionsEngine();
}

/** The timing build of `workload` (the read lab's timed pass and sweeps of that workload), loaded. */
export function realTimingEngine(workload: Workload): TimingEngine {
  return load(TIMING[workload], `../../pkg-timing/${workload}/buflab_timing_bg.wasm`);
}

/** The trace build's exports (a program's strace log, two result files paired), loaded. */
export function realTraceEngine(): typeof trace {
  return load(trace, "../../pkg-trace/buflab_trace_bg.wasm");
}

/** Two exported results (JSON text) paired, as the page's engine/pair.ts has the trace build's worker pair them. */
export function realPairResults(a: string, b: string): Comparison {
  return realTraceEngine().pair_results(a, b) as Comparison;
}

let codec: Codec | null = null;

/** The engine's codec, as the page has it once the program build has loaded. */
export function realCodec(): Codec {
  codec ??= codecFrom(realCountingEngine(), realProgramEngine());
  return codec;
}

/** The build that times `params`, as the page's timing worker picks it (protocol.ts `timingBuildOf`), loaded. */
export function realEngineFor(params: Pick<Params, "lab" | "workload">): TimingEngine | typeof program {
  return timingBuildOf(params) === "program" ? realProgramEngine() : realTimingEngine(params.workload);
}

/** A quick run of `link`, as the timing worker runs it; throws for a link the codec would correct (`run` takes canonical links only). */
export function realQuickRun(link: string): LabReport {
  const fragment = link.replace(/^#/, "");
  return realEngineFor(realCodec().decodeLink(fragment).params).run(fragment, false, true) as LabReport;
}

/** The sweep a link carries, run point by point as the sweep worker runs it (quick sampling), up to `upTo` points. */
export function realSweep(fragment: string, upTo?: number): { report: SweepReport; notices: Notice[] } {
  const { params, notices } = realCodec().decodeLink(fragment);
  const engine = realTimingEngine(params.workload);
  const count = upTo ?? engine.sweep_total(params);
  const points: SweepPoint[] = [];
  for (let i = 0; i < count; i++) points.push(engine.sweep_point(params, i, { quick: true }) as SweepPoint);
  return { report: engine.sweep_report(params, points) as SweepReport, notices };
}
