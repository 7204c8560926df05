// The two-axis sweep's heatmap, drawn (the figure is index.ts): one cell
// per pair of values, the first axis down the rows and the second across the
// columns, coloured by one metric of one reader on a log scale and labelled
// with its number, and the knee line through each column's knee: where a
// bigger value of the first axis stops paying, at that value of the second.
// Drawn on a canvas so it exports as an image like the charts; the sweep's
// table is its text equivalent. The grid and the knee rows are pure functions
// of the report, tested on their own.

import type { Knee, Metric, Run, SweepReport } from "../../../../engine/types.gen";
import type { Theme } from "../../../../shared/chart-kit";

/** The metric's value for every cell, rows × columns; `null` where the point is not measured yet. */
export function heatmapGrid(report: SweepReport, readerIndex: number, value: (run: Run) => number): (number | null)[][] {
  return report.values.map((v) =>
    report.across_values.map((a) => {
      const run = report.points.find((p) => p.value === v && p.across === a)?.report.runs[readerIndex];
      return run ? value(run) : null;
    }),
  );
}

/**
 * The reader a heatmap opens on: the first whose cells differ down a column
 * (along the first axis, where the knee line runs), else the first whose
 * cells differ at all, trying the metrics in order (exact counts first: a
 * time differs everywhere by noise); the first reader when every one is
 * flat. A reader flat in every cell (an unbuffered reader on a capacity
 * axis) shows one colour and no knee.
 */
export function varyingReader(report: SweepReport, metrics: ((run: Run) => number)[]): number {
  const readers = report.points[0]?.report.runs.length ?? 0;
  const differ = (cells: (number | null)[]): boolean => {
    const measured = cells.filter((v): v is number => v !== null);
    return measured.some((v) => v !== measured[0]);
  };
  const columns = (grid: (number | null)[][]): (number | null)[][] => report.across_values.map((_, c) => grid.map((row) => row[c] ?? null));
  const tests = [(grid: (number | null)[][]) => columns(grid).some(differ), (grid: (number | null)[][]) => differ(grid.flat())];
  for (const test of tests) {
    for (const value of metrics) {
      for (let i = 0; i < readers; i++) if (test(heatmapGrid(report, i, value))) return i;
    }
  }
  return 0;
}

/**
 * Per column, the row of the reader's knee for the metric (`null`: none yet,
 * or a knee at the first row: nothing fell there, so no line is drawn, as
 * the line charts draw none).
 */
export function kneeRows(report: SweepReport, reader: string, metric: Metric): (number | null)[] {
  return report.across_values.map((a) => {
    const knee: Knee | undefined = report.knees.find((k) => k.reader === reader && k.metric === metric && k.across === a);
    if (!knee || knee.first) return null;
    const row = report.values.indexOf(knee.value);
    return row >= 0 ? row : null;
  });
}

/** Colour stops of viridis (perceptually even, readable in grey and by colour-blind readers). */
const VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"];

/** The colour at `t` in 0..1 along viridis, and the text colour that reads on it. */
export function cellColour(t: number): { fill: string; text: string } {
  const i = Math.max(0, Math.min(VIRIDIS.length - 1, Math.round(t * (VIRIDIS.length - 1))));
  // The light half of viridis takes dark text.
  return { fill: VIRIDIS[i]!, text: i >= 6 ? "#111111" : "#ffffff" };
}

/** Where each value falls on the colour scale: log scale over the grid's range (zero included as log(1)). */
export function scaleOf(grid: (number | null)[][]): (v: number) => number {
  const logs = grid.flat().flatMap((v) => (v === null ? [] : [Math.log1p(Math.max(0, v))]));
  const lo = Math.min(...logs);
  const hi = Math.max(...logs);
  if (!(hi > lo)) return () => 0.5;
  return (v) => (Math.log1p(Math.max(0, v)) - lo) / (hi - lo);
}

export interface HeatmapSpec {
  report: SweepReport;
  readerIndex: number;
  metric: Metric;
  /** The metric of one run, and how a cell prints it (`short` where `format` does not fit). */
  value(run: Run): number;
  format(n: number): string;
  short(n: number): string;
  /** Axis titles and value labels. */
  rowTitle: string;
  columnTitle: string;
  rowLabel(v: number): string;
  columnLabel(v: number): string;
  theme: Theme;
}

/**
 * Draws the heatmap into `canvas` at its CSS width (and the device's pixel
 * density); with `fitHeight` (an embed's frame), its rows shrink to fit it.
 */
export function drawHeatmap(canvas: HTMLCanvasElement, spec: HeatmapSpec, cssWidth: number, fitHeight?: number): void {
  const { report, theme } = spec;
  const reader = report.points[0]?.report.runs[spec.readerIndex]?.reader ?? "";
  const grid = heatmapGrid(report, spec.readerIndex, spec.value);
  const knees = kneeRows(report, reader, spec.metric);
  const scale = scaleOf(grid);
  const rows = report.values.length;
  const columns = report.across_values.length;
  const font = theme.fontPx;
  // The type size drawn, for the presenter check (no text under 16 px), as the chart kit's canvases carry it.
  canvas.dataset["fontPx"] = String(font);
  const family = getComputedStyle(canvas).fontFamily || "system-ui, sans-serif";
  const ctx = canvas.getContext("2d");
  if (!ctx || rows === 0 || columns === 0) return;

  ctx.font = `${font}px ${family}`;
  const rowLabelWidth = Math.max(...report.values.map((v) => ctx.measureText(spec.rowLabel(v)).width));
  const left = Math.ceil(font * 1.6 + rowLabelWidth + 8);
  const top = Math.ceil(font * 3.2);
  const bottom = Math.ceil(font * 0.6);
  const width = Math.max(200, Math.floor(cssWidth));
  const cellWidth = Math.max(8, (width - left - 8) / columns);
  const roomy = Math.max(font * 1.9, Math.min(44, cellWidth * 0.6));
  const cellHeight = fitHeight ? Math.max(font * 1.2, Math.min(roomy, (fitHeight - top - bottom) / rows)) : roomy;
  const height = Math.ceil(top + rows * cellHeight + bottom);

  const ratio = Math.max(1, window.devicePixelRatio || 1);
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.fillStyle = theme.surface;
  ctx.fillRect(0, 0, width, height);
  ctx.font = `${font}px ${family}`;
  ctx.textBaseline = "middle";

  // Column title and labels on top, row title (turned) and labels on the left.
  ctx.fillStyle = theme.text;
  ctx.textAlign = "center";
  ctx.fillText(spec.columnTitle, left + (columns * cellWidth) / 2, font * 0.8);
  ctx.fillStyle = theme.muted;
  report.across_values.forEach((a, c) => ctx.fillText(spec.columnLabel(a), left + (c + 0.5) * cellWidth, top - font * 0.8));
  ctx.textAlign = "right";
  report.values.forEach((v, r) => ctx.fillText(spec.rowLabel(v), left - 6, top + (r + 0.5) * cellHeight));
  ctx.save();
  ctx.translate(font * 0.8, top + (rows * cellHeight) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = "center";
  ctx.fillStyle = theme.text;
  ctx.fillText(spec.rowTitle, 0, 0);
  ctx.restore();

  // The cells, each with its number where it fits.
  ctx.textAlign = "center";
  let drawn = 0;
  grid.forEach((row, r) =>
    row.forEach((value, c) => {
      const x = left + c * cellWidth;
      const y = top + r * cellHeight;
      if (value === null) {
        ctx.strokeStyle = theme.grid;
        ctx.strokeRect(x + 0.5, y + 0.5, cellWidth - 1, cellHeight - 1);
        return;
      }
      drawn++;
      const colour = cellColour(scale(value));
      ctx.fillStyle = colour.fill;
      ctx.fillRect(x, y, cellWidth - 1, cellHeight - 1);
      const text = [spec.format(value), spec.short(value)].find((t) => ctx.measureText(t).width <= cellWidth - 6);
      if (text !== undefined) {
        ctx.fillStyle = colour.text;
        ctx.fillText(text, x + cellWidth / 2, y + cellHeight / 2);
      }
    }),
  );

  // The knee line: a step line along the top edge of each column's knee cell
  // (from there down, a bigger value stops paying), each knee cell outlined.
  const marks = knees.flatMap((r, c) => (r === null ? [] : [{ r, c }]));
  ctx.save();
  const outline = (colour: string, width: number): void => {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    for (const m of marks) ctx.strokeRect(left + m.c * cellWidth + 2.5, top + m.r * cellHeight + 2.5, cellWidth - 6, cellHeight - 6);
  };
  outline("#ffffff", 3);
  outline("#111111", 1);
  const line = (): void => {
    ctx.beginPath();
    marks.forEach((m, i) => {
      const x = left + m.c * cellWidth;
      const y = top + m.r * cellHeight;
      if (i === 0 || marks[i - 1]!.c !== m.c - 1) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
      ctx.lineTo(x + cellWidth, y);
    });
    ctx.stroke();
  };
  // A light halo under a dark line: visible on every colour of the scale.
  ctx.strokeStyle = "#ffffff";
  ctx.lineWidth = 6;
  line();
  ctx.strokeStyle = "#111111";
  ctx.lineWidth = 3;
  ctx.setLineDash([8, 4]);
  line();
  ctx.restore();

  // For tests and scripts: what was drawn.
  canvas.dataset["cells"] = String(drawn);
  canvas.dataset["knees"] = knees.map((r, c) => `${report.across_values[c]}:${r === null ? "" : report.values[r]}`).join(",");
  canvas.dataset["reader"] = reader;
  canvas.dataset["metric"] = spec.metric;
}
