// The paired charts' geometry: A and B of a metric share one scale, a time
// bar carries its spread and says what it is, the words are the engine's
// outcome (never a verdict read from the bars), and the legend names each
// side by its differing settings.

import { beforeAll, describe, expect, it } from "vitest";
import { realCodec, realPairResults, realQuickRun } from "../../../engine/real-engine";
import type { Compared, Comparison, Schema } from "../../../engine/types.gen";
import { pairCharts, sideLabels } from "./pair-bars";

let schema: Schema;
let comparison: Comparison;
const A = "v=1&len=64K&chunk=file&rs=1&cap=1K&rd=unbuffered,std";
const B = "v=1&len=64K&chunk=file&rs=1&cap=64K&rd=unbuffered,std";
const labelOf = (id: string) => id;

beforeAll(() => {
  schema = realCodec().schema;
  const file = (link: string): string => JSON.stringify({ link, exported_at: "2026-11-29T00:00:00Z", report: realQuickRun(link) });
  comparison = realPairResults(file(A), file(B));
});

/** A comparison of one reader with one time row: A 100 µs, B 50 µs, and the outcome given. */
function timeOnly(row: Partial<Compared>): Comparison {
  const m: Compared = {
    metric: "cpu_median_ns",
    a: 100_000,
    b: 50_000,
    difference: -50_000,
    ratio: 0.5,
    outcome: "same",
    a_spread: { kind: "mad", low: 60_000, high: 140_000 },
    b_spread: { kind: "mad", low: 20_000, high: 80_000 },
    ratio_spread: { kind: "ratio_interval", low: 0.2, high: 1.6 },
    a_x_copy: null,
    b_x_copy: null,
    x_copy_outcome: null,
    says: "the engine's sentence",
    ...row,
  };
  return { ...comparison, readers: [{ a: "std", b: "std", metrics: [m] }] };
}

describe("paired charts", () => {
  it("draws A and B of each reader on one scale: the larger figure of either side is the full width (source reads on a log scale)", () => {
    const charts = pairCharts(schema, comparison, labelOf);
    expect(charts.map((c) => c.metric)).toEqual(["source_reads", "cpu_median_ns", "bytes_copied", "allocations"]);
    const reads = charts.find((c) => c.metric === "source_reads")!;
    const std = comparison.readers.find((r) => r.a === "std")!.metrics.find((m) => m.metric === "source_reads")!;
    const unbuffered = comparison.readers.find((r) => r.a === "unbuffered")!.metrics.find((m) => m.metric === "source_reads")!;
    const full = Math.max(std.a!, std.b!, unbuffered.a!, unbuffered.b!);
    const row = reads.rows.find((r) => r.reader === "std")!;
    expect(reads.scale).toBe("log");
    expect(row.a!.length).toBeCloseTo(Math.log1p(std.a!) / Math.log1p(full), 9);
    expect(row.b!.length).toBeCloseTo(Math.log1p(std.b!) / Math.log1p(full), 9);
    // Bytes copied on a linear one: std copies every byte, the unbuffered reader none.
    const copied = charts.find((c) => c.metric === "bytes_copied")!;
    expect(copied.scale).toBe("linear");
    expect(copied.rows.find((r) => r.reader === "std")!.a!.length).toBe(1);
    expect(copied.rows.find((r) => r.reader === "unbuffered")!.a!.length).toBe(0);
    // A 64 KiB buffer makes fewer source reads than a 1 KiB one: B's bar is the shorter.
    expect(row.b!.length).toBeLessThan(row.a!.length);
    expect(row.words).toBe("less");
    expect(row.tone).toBe("cool");
    for (const r of reads.rows) expect([r.a!.length, r.b!.length].every((l) => l >= 0 && l <= 1)).toBe(true);
    expect(Math.max(...reads.rows.flatMap((r) => [r.a!.length, r.b!.length]))).toBe(1);
  });

  it("a time bar carries its spread as a whisker and says what it is; the scale takes in the spread", () => {
    const [chart] = pairCharts(schema, timeOnly({}), labelOf);
    const row = chart!.rows[0]!;
    // The widest thing drawn is A's spread's end, 140 µs: the full width.
    expect(chart!.full).toBe("140 µs");
    expect(chart!.scale).toBe("linear");
    expect(row.a!.spread).toEqual({ low: 60 / 140, high: 1, text: "MAD ± 40.0 µs" });
    expect(row.b!.spread!.text).toMatch(/^MAD ± /);
    expect(row.a!.length).toBeCloseTo(100 / 140, 9);
  });

  it("the words are the engine's outcome, never read from the bars: B half as long still says same within noise", () => {
    const [same] = pairCharts(schema, timeOnly({ outcome: "same" }), labelOf);
    expect(same!.rows[0]!.b!.length).toBeLessThan(same!.rows[0]!.a!.length);
    expect(same!.rows[0]!.words).toBe("same within noise");
    expect(same!.rows[0]!.tone).toBe("none");
    expect(same!.rows[0]!.says).toBe("the engine's sentence");
    const [faster] = pairCharts(schema, timeOnly({ outcome: "faster" }), labelOf);
    expect(faster!.rows[0]!.words).toBe("B faster");
    expect(faster!.rows[0]!.tone).toBe("cool");
  });

  it("names A and B by the settings that differ; an A/A comparison and a result file say so", () => {
    expect(sideLabels([{ key: "cap", a: "1K", b: "64K" }, { key: "rs", a: "1", b: null }], null)).toEqual({ a: "A: cap 1K, rs 1", b: "B: cap 64K, rs (none)" });
    expect(sideLabels([], null).b).toContain("A/A");
    expect(sideLabels([{ key: "cap", a: "1K", b: "64K" }], { a: null, b: "colleague.json" })).toEqual({ a: "A: the result on screen", b: "B: colleague.json" });
    expect(sideLabels([], { a: "mine.json", b: "colleague.json" })).toEqual({ a: "A: mine.json", b: "B: colleague.json" });
  });
});
