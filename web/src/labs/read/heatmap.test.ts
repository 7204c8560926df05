// The heatmap's cells and knee line against a real two-axis sweep from the
// engine (web/pkg): capacity down the rows, read size across the columns.

import { describe, expect, it } from "vitest";
import { realSweep } from "../../engine/real-engine";
import { cellColour, heatmapGrid, kneeRows, scaleOf } from "./heatmap";

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
