// The sweep's headline against a real sweep from the engine (`npm run wasm`'s builds, engine/real-engine.ts): a
// capacity sweep over a poor network (a reader that always waits: no rate) knees at 512 for both readers,
// and the headline says so with the counts there and at the first point.

import { beforeAll, describe, expect, it } from "vitest";
import type { Codec } from "../../../engine/codec";
import { lessons } from "../../../engine/lessons";
import { realCodec, realSweep } from "../../../engine/real-engine";
import type { SweepReport } from "../../../engine/types.gen";
import { bytesLabel, listText } from "../../../shared/format";
import { gridHeadline, kneeRuns, sweepHeadline } from "./headline";
import { axisTitle } from "./heatmap";

let codec: Codec;
beforeAll(() => {
  codec = realCodec();
});

function sweep(fragment: string, upTo?: number): SweepReport {
  const { report, notices } = realSweep(fragment, upTo);
  expect(notices).toEqual([]);
  return report;
}

const labels: Record<string, string> = { unbuffered: "unbuffered Read", std: "std BufReader", chained: "chained zero-copy" };
const labelOf = (id: string): string => labels[id] ?? id;
/** A byte axis's value in words, as the sweep view gives it: "512 B", "64 KiB". */
const words = (v: number): string => bytesLabel(codec.formatSize(v));

describe("the sweep's headline", () => {
  it("reports the knee of a capacity sweep", () => {
    const report = sweep("#v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=std,chained&wl=fixed&sweep=cap&from=16&to=64K");
    const axis = codec.schema.sweep_axes.find((a) => a.id === "cap")!;
    const text = sweepHeadline(report, axis, labelOf, words, false, codec.schema.knee_tolerance);
    expect(text).toBe(
      "Source reads stop falling at buffer capacity 512 B for std BufReader and chained zero-copy: 3,641 from there on, against 65,537 at 16 B. Past the knee a bigger value buys at most 5% fewer reads.",
    );
    // While points are still coming, it says how many are in.
    const partial = { ...report, points: report.points.slice(0, 5), complete: false };
    expect(sweepHeadline(partial, axis, labelOf, words, true, codec.schema.knee_tolerance)).toMatch(/^So far \(5 of 13 points\): /);
  });

  it("on an axis without a knee, says the counts only grow", () => {
    const report = sweep("#v=1&len=64K&chunk=file&rd=std&sweep=len&from=16K&to=64K");
    const axis = codec.schema.sweep_axes.find((a) => a.id === "len")!;
    expect(sweepHeadline(report, axis, labelOf, words, false, codec.schema.knee_tolerance)).toMatch(
      /^Source reads grow with the stream length: no value is a knee, a bigger one only costs more \(std BufReader 3 at stream length 16 KiB, 9 at 64 KiB\)\.$/,
    );
  });

  it("lists names in words", () => {
    expect([[], ["a"], ["a", "b"], ["a", "b", "c"]].map(listText)).toEqual(["", "a", "a and b", "a, b and c"]);
  });

  it("says where the knee line runs on two axes", () => {
    const report = sweep("len=64K&chunk=64-512&rd=std,chained&sweep=cap,rs&from=64,1&to=1K,8");
    const axis = (id: string) => codec.schema.sweep_axes.find((a) => a.id === id)!;
    const text = gridHeadline(report, axis("cap"), axis("rs"), labelOf, (_, v) => words(v), false);
    expect(text).toBe(
      "std BufReader's and chained zero-copy's source reads stop falling at buffer capacity 512 B at every read size (grid of 5 × 4).",
    );
    const partial = { ...report, points: report.points.slice(0, 6), complete: false };
    expect(gridHeadline(partial, axis("cap"), axis("rs"), labelOf, (_, v) => words(v), true)).toBe(
      "So far (6 of 20 points): a grid of buffer capacity by read size (5 × 4); where source reads stop falling is said once every point is in.",
    );
  });

  it("says the knee line once where it is the diagonal (the knee-grid lesson: capacity against chunk size)", () => {
    const lesson = lessons.find((l) => l.id === "knee-grid")!;
    const report = sweep(lesson.link);
    const axis = (id: string) => codec.schema.sweep_axes.find((a) => a.id === id)!;
    expect(gridHeadline(report, axis("cap"), axis("chunk"), labelOf, (_, v) => codec.formatSize(v), false)).toBe(
      "For std BufReader and chained zero-copy, source reads stop falling where the buffer capacity reaches the chunk size, in every column (grid of 8 × 5).",
    );
    // A real sweep of 40 points: more than the default 5 s on a loaded machine.
  }, 60_000);

  it("names each heatmap axis with the unit of its ticks", () => {
    const axis = (id: string) => codec.schema.sweep_axes.find((a) => a.id === id)!;
    expect(["cap", "rate", "streams"].map((id) => axisTitle(axis(id)))).toEqual(["Buffer capacity, bytes", "Arrival rate, bytes/s", "Streams"]);
  });

  it("joins neighbouring columns that knee at the same value, and only neighbours", () => {
    const knee = (across: number, value: number) => ({ across, value });
    expect(kneeRuns([knee(2, 4), knee(4, 4), knee(8, 4), knee(16, 64), knee(32, 64)], [2, 4, 8, 16, 32])).toEqual([
      { value: 4, from: 2, to: 8 },
      { value: 64, from: 16, to: 32 },
    ]);
    // The same knee in columns a different one separates is said twice; a column without a knee breaks a run.
    expect(kneeRuns([knee(1, 4), knee(2, 8), knee(3, 4)], [1, 2, 3])).toEqual([
      { value: 4, from: 1, to: 1 },
      { value: 8, from: 2, to: 2 },
      { value: 4, from: 3, to: 3 },
    ]);
    expect(kneeRuns([knee(1, 4), knee(3, 4)], [1, 2, 3])).toEqual([
      { value: 4, from: 1, to: 1 },
      { value: 4, from: 3, to: 3 },
    ]);
  });

  it("says the buffer-size lesson's knee line as runs of arrival rates (short enough for a phone's six lines)", () => {
    const lesson = lessons.find((l) => l.id === "buffer-size")!;
    const report = sweep(lesson.link);
    const axis = (id: string) => codec.schema.sweep_axes.find((a) => a.id === id)!;
    const text = gridHeadline(report, axis(report.sweep.axis), axis(report.sweep.across!.axis), labelOf, (_, v) => codec.formatSize(v), false);
    expect(text).toBe(
      "std BufReader's and chained zero-copy's source reads stop falling at buffer capacity 4K at arrival rate 2M to 8M and 64K at arrival rate 16M to 32M (grid of 8 × 5).",
    );
  }, 60_000);

  it("states no knee for a reader whose source reads never fall", () => {
    // Unbuffered Read has no buffer: its source reads are the same at every capacity.
    const report = sweep("len=64K&chunk=64-512&rd=unbuffered,std&sweep=cap,rs&from=64,1&to=1K,8");
    const axis = (id: string) => codec.schema.sweep_axes.find((a) => a.id === id)!;
    expect(gridHeadline(report, axis("cap"), axis("rs"), labelOf, (_, v) => words(v), false)).toBe(
      "unbuffered Read's source reads never fall with a bigger buffer capacity in this range, at every read size; std BufReader's source reads stop falling at buffer capacity 512 B at every read size (grid of 5 × 4).",
    );
    const one = sweep("len=64K&chunk=64-512&rd=unbuffered,std&sweep=cap&from=64&to=1K");
    expect(sweepHeadline(one, axis("cap"), labelOf, words, false, codec.schema.knee_tolerance)).toMatch(
      /^For unbuffered Read a bigger buffer capacity never cut source reads in this range \(65,537 from buffer capacity 64 B on\); source reads stop falling at buffer capacity 512 B for std BufReader/,
    );
    // A reader alone whose reads never fell: no knee to be past.
    const alone = sweep("len=64K&chunk=64-512&rd=unbuffered&sweep=cap&from=64&to=1K");
    expect(sweepHeadline(alone, axis("cap"), labelOf, words, false, codec.schema.knee_tolerance)).toBe(
      "For unbuffered Read a bigger buffer capacity never cut source reads in this range (65,537 from buffer capacity 64 B on).",
    );
  });
});
