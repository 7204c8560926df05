// The heatmap's cells and knee line against a real two-axis sweep from the
// engine (`npm run wasm`'s builds, engine/real-engine.ts): capacity down the rows, read size across the columns.

import { describe, expect, it } from "vitest";
import { realSweep } from "../../../../engine/real-engine";
import type { Run } from "../../../../engine/types.gen";
import { cellColour, heatmapGrid, kneeRows, scaleOf, varyingReader } from "./draw";

const GRID = "len=64K&chunk=64-512&rd=std&sweep=cap,rs&from=64,1&to=1K,8";

describe("the two-axis heatmap", () => {
  it("puts every point in its row and column, and leaves unmeasured cells empty", () => {
    const { report } = realSweep(GRID, 6);
    const grid = heatmapGrid(report, 0, (r) => r.source_reads);
    expect(grid.length).toBe(5);
    expect(grid.every((row) => row.length === 4)).toBe(true);
    // Points run row by row: the first six fill row 64 and half of row 128.
    expect(grid[0]).toEqual(report.points.slice(0, 4).map((p) => p.report.runs[0]!.source_reads));
    expect(grid[1]!.slice(2)).toEqual([null, null]);
    expect(grid[4]).toEqual([null, null, null, null]);
  });

  it("draws the knee line through the row of each column's knee", () => {
    const { report } = realSweep(GRID);
    // A buffer of 512 holds the largest chunk: the knee at every read size.
    expect(kneeRows(report, "std", "source_reads")).toEqual([3, 3, 3, 3]);
    expect(report.values[3]).toBe(512);
    expect(kneeRows(report, "chained", "source_reads")).toEqual([null, null, null, null]);
    // std copies every byte whatever its buffer: its knee is the first row, where nothing fell, so no line.
    expect(report.knees.filter((k) => k.reader === "std" && k.metric === "bytes_copied").every((k) => k.first)).toBe(true);
    expect(kneeRows(report, "std", "bytes_copied")).toEqual([null, null, null, null]);
  });

  it("opens on a reader whose cells differ down a column, not one flat in every cell", () => {
    const exact = [(r: Run) => r.source_reads, (r: Run) => r.bytes_copied, (r: Run) => r.allocations];
    // Unbuffered Read has no buffer: its source reads change with the read
    // size (across) but never with the capacity (down), so std opens.
    const { report } = realSweep("len=64K&chunk=64-512&rd=unbuffered,std,chained&sweep=cap,rs&from=64,1&to=1K,8");
    const unbuffered = heatmapGrid(report, 0, (r) => r.source_reads);
    expect(unbuffered.every((row) => row.every((v, c) => v === unbuffered[0]![c]))).toBe(true);
    expect(varyingReader(report, exact)).toBe(1);
    // No reader differs down a column: the first that differs at all (here
    // unbuffered Read, behind a reader flat in every cell).
    const still = report.points[0]!.report.runs[0]!;
    const across = { ...report, points: report.points.map((p) => ({ ...p, report: { ...p.report, runs: [still, p.report.runs[0]!] } })) };
    expect(varyingReader(across, exact)).toBe(1);
    // One point: every reader flat, the first.
    expect(varyingReader({ ...report, points: report.points.slice(0, 1) }, exact)).toBe(0);
  });

  it("colours on a log scale from the smallest to the largest value", () => {
    const scale = scaleOf([[1, 10], [100, null]]);
    expect(scale(1)).toBe(0);
    expect(scale(100)).toBe(1);
    expect(scale(10)).toBeCloseTo(Math.log(11 / 2) / Math.log(101 / 2));
    expect(scaleOf([[7, 7]])(7)).toBe(0.5);
    expect(cellColour(0).text).toBe("#ffffff");
    expect(cellColour(1).text).toBe("#111111");
  });
});
