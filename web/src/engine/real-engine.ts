// For unit tests: the real engine (web/pkg, built by `npm run wasm`), loaded
// synchronously with initSync where the page loads it asynchronously. Tests
// take params, limits and defaults from it instead of keeping copies. The
// counting build (web/pkg-counts) is loaded the same way, for the tests that
// hold it to the full one.

import { readFileSync } from "node:fs";
import * as counting from "../../pkg-counts/buflab_counts.js";
import * as engine from "../../pkg/buflab.js";
import { codecFrom, type Codec } from "./codec";
import type { LabReport, Notice, SweepPoint, SweepReport } from "./types.gen";

let codec: Codec | null = null;

/** The engine's codec; the first call loads the wasm. */
export function realCodec(): Codec {
  if (codec === null) {
    engine.initSync({ module: readFileSync(new URL("../../pkg/buflab_bg.wasm", import.meta.url)) });
    codec = codecFrom(engine, engine);
  }
  return codec;
}

let countingLoaded = false;

/** The counting build's exports (the codec and `run`, counts only), loaded. */
export function realCountingEngine(): typeof counting {
  if (!countingLoaded) {
    counting.initSync({ module: readFileSync(new URL("../../pkg-counts/buflab_counts_bg.wasm", import.meta.url)) });
    countingLoaded = true;
  }
  return counting;
}

/** The engine's exports (`run` included), loaded. */
export function realEngine(): typeof engine {
  realCodec();
  return engine;
}

/** A quick run of `link`, as the timing worker runs it; throws for a link the codec would correct (`run` takes canonical links only). */
export function realQuickRun(link: string): LabReport {
  return realEngine().run(link.replace(/^#/, ""), false, true) as LabReport;
}

/** The sweep a link carries, run point by point as the sweep worker runs it (quick sampling), up to `upTo` points. */
export function realSweep(fragment: string, upTo?: number): { report: SweepReport; notices: Notice[] } {
  const { params, notices } = realCodec().decodeLink(fragment);
  const count = upTo ?? engine.sweep_total(params);
  const points: SweepPoint[] = [];
  for (let i = 0; i < count; i++) points.push(engine.sweep_point(params, i, { quick: true }) as SweepPoint);
  return { report: engine.sweep_report(params, points) as SweepReport, notices };
}
