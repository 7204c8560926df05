// The sweep's CSV and JSON against a real sweep from the engine (`npm run wasm`'s builds, engine/real-engine.ts).

import { describe, expect, it } from "vitest";
import { realSweep, realTimingEngine } from "../../../engine/real-engine";
import type { Comparison, SweepComparison, SweepReport } from "../../../engine/types.gen";
import { GRID_CSV_HEADER, SWEEP_CSV_HEADER, sweepCsv, sweepJson, sweepPairCsv, sweepPairJson } from "./export";


function sweep(fragment: string, upTo?: number): SweepReport {
  const { report, notices } = realSweep(fragment, upTo);
  expect(notices).toEqual([]);
  return report;
}

const FRAGMENT = "len=64K&chunk=poor&rs=1&rd=unbuffered,std&sweep=cap&from=16&to=1K";
const URL_OF = "https://example.org/buflab/#v=1&len=64K";

describe("sweep export", () => {
  it("writes one CSV row per point and reader after the settings and the link", () => {
    const report = sweep(FRAGMENT);
    const lines = sweepCsv(report, URL_OF).trimEnd().split("\r\n");
    expect(lines[0]).toBe("# BufLab sweep of cap");
    expect(lines[1]).toMatch(/^# settings: Read size: 1 byte; Chunking: poor network, .*; Sweep: Buffer capacity from 16 bytes to 1 KiB$/);
    expect(lines[2]).toBe(`# link: ${URL_OF}`);
    expect(lines[3]).toBe(SWEEP_CSV_HEADER.join(","));
    const rows = lines.slice(4).map((l) => l.split(","));
    // cap 16 … 1K: 7 points × 2 readers.
    expect(report.values).toEqual([16, 32, 64, 128, 256, 512, 1024]);
    expect(rows.length).toBe(7 * 2);
    const col = (name: string): number => SWEEP_CSV_HEADER.indexOf(name);
    report.points.forEach((point, p) =>
      point.report.runs.forEach((run, r) => {
        const row = rows[p * 2 + r]!;
        expect(row[col("value")]).toBe(String(point.value));
        expect(row[col("reader")]).toBe(run.reader);
        expect(Number(row[col("source_reads")])).toBe(run.source_reads);
        expect(row[col("cpu_median_ns")]).toMatch(/^\d+(\.\d)?$/);
      }),
    );
    // Unbuffered 1-byte reads: one source read per byte plus the final 0, whatever the capacity.
    expect(rows[0]![col("source_reads")]).toBe(String(64 * 1024 + 1));
  });

  it("says how many points a cancelled sweep had", () => {
    const report = sweep(FRAGMENT, 3);
    expect(sweepCsv(report, URL_OF).split("\r\n")[0]).toBe("# BufLab sweep of cap (3 of 7 points)");
  });

  it("gives the engine's sweep report as JSON, with the link", () => {
    const report = sweep(FRAGMENT);
    const parsed = JSON.parse(sweepJson(report, URL_OF, new Date(0))) as { link: string; exported_at: string; sweep: SweepReport };
    expect(parsed.link).toBe(URL_OF);
    expect(parsed.exported_at).toBe("1970-01-01T00:00:00.000Z");
    expect(parsed.sweep).toEqual(report);
  });

  it("writes a two-axis sweep with the second axis and its value on every row", () => {
    const report = sweep("len=16K&chunk=64-512&rd=std&sweep=cap,rs&from=64,1&to=128,4");
    const lines = sweepCsv(report, URL_OF).trimEnd().split("\r\n");
    expect(lines[0]).toBe("# BufLab sweep of cap by rs");
    expect(lines[3]).toBe(GRID_CSV_HEADER.join(","));
    const rows = lines.slice(4).map((l) => l.split(","));
    const at = (row: string[], name: string): string => row[GRID_CSV_HEADER.indexOf(name)]!;
    expect(rows.map((r) => [at(r, "value"), at(r, "across_axis"), at(r, "across_value")])).toEqual([
      ["64", "rs", "1"], ["64", "rs", "2"], ["64", "rs", "4"], ["128", "rs", "1"], ["128", "rs", "2"], ["128", "rs", "4"],
    ]);
    expect(rows.map((r) => Number(at(r, "source_reads")))).toEqual(report.points.map((p) => p.report.runs[0]!.source_reads));
  });

  it("exports two sweeps compared: A's rows and B's, both links and the comparison's, and the knees in the engine's words", () => {
    // The counts of a b. sweep link, as the timing worker compares it.
    const link = "v=1&len=4K&chunk=512&rs=1&rd=std&sweep=cap&from=16&to=2K&b.chunk=128";
    const c = (realTimingEngine("fixed").compare(link, true, false) as Comparison).sweeps as SweepComparison;
    const urlOf = (fragment: string): string => `https://example.org/buflab/#${fragment}`;
    const lines = sweepPairCsv(c, urlOf).trimEnd().split("\r\n");
    expect(lines[0]).toBe("# BufLab sweeps compared, A against B, of cap");
    expect(lines[2]).toBe(`# A link: ${urlOf(c.a.link)}`);
    expect(lines[4]).toBe(`# B link: ${urlOf(c.b.link)}`);
    expect(lines[5]).toBe(`# comparison link: ${urlOf(c.link)}`);
    expect(c.a.link).not.toContain("b.");
    expect(c.b.link).toContain("chunk=128");
    expect(c.link).toContain("b.chunk=128");
    const knees = lines.filter((l) => l.startsWith("# knee: "));
    expect(knees).toEqual(c.knees.map((k) => `# knee: ${k.says}`));
    expect(knees.some((l) => /std, source reads: A's knee: 512 bytes; B's knee: 128 bytes/.test(l))).toBe(true);
    const header = lines.find((l) => !l.startsWith("#"))!;
    expect(header).toBe(["side", ...SWEEP_CSV_HEADER].join(","));
    const rows = lines.slice(lines.indexOf(header) + 1).map((l) => l.split(","));
    const reads = (side: string): number[] => rows.filter((r) => r[0] === side).map((r) => Number(r[1 + SWEEP_CSV_HEADER.indexOf("source_reads")]));
    expect(reads("A")).toEqual(c.a.points.map((p) => p.report.runs[0]!.source_reads));
    expect(reads("B")).toEqual(c.b.points.map((p) => p.report.runs[0]!.source_reads));
    expect(reads("A")).not.toEqual(reads("B"));
    const parsed = JSON.parse(sweepPairJson(c, urlOf, new Date(0))) as { link: string; a_link: string; b_link: string; comparison: SweepComparison };
    expect([parsed.link, parsed.a_link, parsed.b_link]).toEqual([urlOf(c.link), urlOf(c.a.link), urlOf(c.b.link)]);
    expect(parsed.comparison).toEqual(c);
  });
});
