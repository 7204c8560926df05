// For unit tests: the real engine (web/pkg, built by `npm run wasm`), loaded
// synchronously with initSync where the page loads it asynchronously. Tests
// take params, limits and defaults from it instead of keeping copies.

import { readFileSync } from "node:fs";
import * as engine from "../../pkg/buflab.js";
import { codecFrom, type Codec } from "./codec";
import type { Notice, SweepPoint, SweepReport } from "./types.gen";

let codec: Codec | null = null;

/** The engine's codec; the first call loads the wasm. */
export function realCodec(): Codec {
  if (codec === null) {
    engine.initSync({ module: readFileSync(new URL("../../pkg/buflab_bg.wasm", import.meta.url)) });
    codec = codecFrom(engine);
  }
  return codec;
}

/** The engine's exports (`run` included), loaded. */
export function realEngine(): typeof engine {
  realCodec();
  return engine;
}

/** The sweep a link carries, run point by point as the sweep worker runs it (quick sampling), up to `upTo` points. */
export function realSweep(fragment: string, upTo?: number): { report: SweepReport; notices: Notice[] } {
  const { params, notices } = realCodec().decodeLink(fragment);
  const count = upTo ?? engine.sweep_total(params);
  const points: SweepPoint[] = [];
  for (let i = 0; i < count; i++) points.push(engine.sweep_point(params, i, { quick: true }) as SweepPoint);
  return { report: engine.sweep_report(params, points) as SweepReport, notices };
}
