// A sweep's exports: CSV with one row per point and reader (after comment
// lines with the settings and the link), JSON that is the engine's sweep
// report as the CLI's `--json` prints it, with the link (both pure
// functions), and the row of buttons that downloads them and each chart as
// an image (owns the row). Two sweeps compared (a `b.` link) export both:
// A's rows and B's, both links and the comparison's, and the knees.

import type { Run, SweepComparison, SweepReport } from "../../../engine/types.gen";
import { h } from "../../../shared/dom";
import { chartPng, csvComments, csvLines, exportName, saveButton, type Cell } from "../../../shared/export-kit";
import { settingsInWords } from "../../../shared/settings-words";
import { METRIC } from "../../../shared/metrics";

const M = METRIC;

/** A run's columns in the sweep CSV: the report's own field names (a metric's id), exact numbers. */
const RUN_COLUMNS: [string, (r: Run) => Cell][] = [
  ["reader", (r) => r.reader],
  [M.source_reads.id, M.source_reads.value],
  [M.app_reads.id, M.app_reads.value],
  [M.bytes_copied.id, M.bytes_copied.value],
  [M.allocations.id, M.allocations.value],
  [M.peak_bytes.id, M.peak_bytes.value],
  [M.cpu_median_ns.id, M.cpu_median_ns.value],
  ["cpu_min_ns", (r) => r.cpu_ns.min],
  ["cpu_max_ns", (r) => r.cpu_ns.max],
  ["samples", (r) => r.cpu_ns.samples],
  [M.modelled_io_ns.id, M.modelled_io_ns.value],
  [M.digest.id, M.digest.value],
];

/** The sweep CSV's columns: the axis and its value, then the run's. */
export const SWEEP_CSV_HEADER = ["axis", "value", ...RUN_COLUMNS.map(([name]) => name)];

/** A two-axis sweep's CSV has the second axis and its value after the first's. */
export const GRID_CSV_HEADER = [...SWEEP_CSV_HEADER.slice(0, 2), "across_axis", "across_value", ...SWEEP_CSV_HEADER.slice(2)];

/** One row per point and reader, the points done so far in the order they ran. */
export function sweepCsv(report: SweepReport, link: string): string {
  const across = report.sweep.across;
  const done = report.complete ? "" : ` (${report.points.length} of ${report.total} points)`;
  const what = across ? `${report.sweep.axis} by ${across.axis}` : report.sweep.axis;
  const comments = csvComments(`BufLab sweep of ${what}${done}`, sweepSettings(report), link);
  return csvLines(comments, across ? GRID_CSV_HEADER : SWEEP_CSV_HEADER, sweepRows(report));
}

/** The rows of one sweep: per point and reader, the points done so far in the order they ran; `lead` cells first. */
function sweepRows(report: SweepReport, lead: Cell[] = []): Cell[][] {
  const across = report.sweep.across;
  return report.points.flatMap((point) =>
    point.report.runs.map((r): Cell[] => [
      ...lead,
      report.sweep.axis,
      point.value,
      ...(across ? [across.axis, point.across ?? ""] : []),
      ...RUN_COLUMNS.map(([, cell]) => cell(r)),
    ]),
  );
}

/** A sweep's settings in words, its sweep included. */
const sweepSettings = (r: SweepReport): string => settingsInWords({ ...r.params, sweep: r.sweep });

/**
 * Two sweeps compared: a `side` column (A or B) before the sweep CSV's
 * columns, A's rows then B's; the comment lines give each side's settings
 * and link, the comparison's link, and each knee pair in the engine's words.
 */
export function sweepPairCsv(c: SweepComparison, urlOf: (fragment: string) => string): string {
  const comments = [
    `BufLab sweeps compared, A against B, of ${c.a.sweep.axis}`,
    `A settings: ${sweepSettings(c.a)}`,
    `A link: ${urlOf(c.a.link)}`,
    `B settings: ${sweepSettings(c.b)}`,
    `B link: ${urlOf(c.b.link)}`,
    `comparison link: ${urlOf(c.link)}`,
    ...c.knees.map((k) => `knee: ${k.says}`),
  ];
  const header = ["side", ...(c.a.sweep.across ? GRID_CSV_HEADER : SWEEP_CSV_HEADER)];
  return csvLines(comments, header, [...sweepRows(c.a, ["A"]), ...sweepRows(c.b, ["B"])]);
}

/** Two sweeps compared as the engine returned them (the CLI's `--json`), with the three links. */
export function sweepPairJson(c: SweepComparison, urlOf: (fragment: string) => string, exportedAt: Date): string {
  const links = { link: urlOf(c.link), a_link: urlOf(c.a.link), b_link: urlOf(c.b.link) };
  return JSON.stringify({ ...links, exported_at: exportedAt.toISOString(), comparison: c }, null, 2) + "\n";
}

/** The sweep report as the engine returned it, with the link that reproduces it. */
export function sweepJson(report: SweepReport, link: string, exportedAt: Date): string {
  return JSON.stringify({ link, exported_at: exportedAt.toISOString(), sweep: report }, null, 2) + "\n";
}

export interface SweepExport {
  element: HTMLElement;
  /** Offers the heatmap's image on a two-axis sweep, the line charts' otherwise. */
  showGrid(grid: boolean): void;
}

export interface ExportSources {
  /** The report drawn last (null before the first). */
  report(): SweepReport | null;
  /** Two sweeps compared, when the report drawn is its A (null otherwise). */
  compared(): SweepComparison | null;
  /** The full URL of a link fragment. */
  urlOf(fragment: string): string;
  /** Line chart `i`'s canvas and title. */
  chart(i: number, report: SweepReport): Promise<{ canvas: HTMLCanvasElement; title: string }>;
  /** The charts' titles, in order. */
  chartTitles: readonly string[];
  heatmap: { canvas: HTMLCanvasElement; title(report: SweepReport): string };
}

export function createSweepExport(sources: ExportSources): SweepExport {
  const status = h("span", { class: "copy-note", id: "sweep-export-status", role: "status", "aria-live": "polite" });
  const button = (id: string, text: string, make: (report: SweepReport) => Promise<Blob> | Blob, extension: string, part?: string) =>
    saveButton(id, text, status, () => {
      const report = sources.report();
      if (!report) return null;
      return Promise.resolve(make(report)).then((blob) => ({ blob, name: exportName(`sweep-${report.sweep.axis}`, extension, new Date(), part) }));
    });
  /** The comparison whose A is `r`, if one is drawn. */
  const pairOf = (r: SweepReport): SweepComparison | null => {
    const c = sources.compared();
    return c !== null && c.a === r ? c : null;
  };
  /** A drawing as a PNG, captioned with its title, the sweep's settings and link (a comparison's: both sides' and its own). */
  const png = (canvas: HTMLCanvasElement, title: string, r: SweepReport): Promise<Blob> => {
    const c = pairOf(r);
    const settings = c ? `A: ${sweepSettings(c.a)} · B: ${sweepSettings(c.b)}` : sweepSettings(r);
    return chartPng(canvas, { title, settings, link: sources.urlOf(c ? c.link : r.link) });
  };
  const csv = (r: SweepReport): string => {
    const c = pairOf(r);
    return c ? sweepPairCsv(c, sources.urlOf) : sweepCsv(r, sources.urlOf(r.link));
  };
  const json = (r: SweepReport): string => {
    const c = pairOf(r);
    return c ? sweepPairJson(c, sources.urlOf, new Date()) : sweepJson(r, sources.urlOf(r.link), new Date());
  };
  const heatmap = button("sweep-export-heatmap", "Heatmap (PNG)", (r) => png(sources.heatmap.canvas, sources.heatmap.title(r), r), "png", "heatmap");
  const charts = sources.chartTitles.map((title, i) =>
    button(`sweep-export-png-${i}`, `${title} (PNG)`, async (r) => {
      const chart = await sources.chart(i, r);
      return png(chart.canvas, chart.title, r);
    }, "png", title),
  );
  const element = h(
    "div",
    { class: "share-row sweep-export" },
    h("span", { class: "share-label" }, "Export"),
    button("sweep-export-csv", "CSV", (r) => new Blob([csv(r)], { type: "text/csv" }), "csv"),
    button("sweep-export-json", "JSON", (r) => new Blob([json(r)], { type: "application/json" }), "json"),
    heatmap,
    ...charts,
    status,
  );
  return {
    element,
    showGrid(grid) {
      for (const b of charts) b.hidden = grid;
      heatmap.hidden = !grid;
    },
  };
}
