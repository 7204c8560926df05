// A sweep as data: CSV with one row per point and reader (after comment
// lines with the settings and the link), and JSON that is the engine's
// sweep report as the CLI's `--json` prints it, with the link. Pure
// functions; the sweep view (sweep.ts) offers them as downloads.

import type { Run, SweepReport } from "../../engine/types.gen";
import { csvComments, csvLines, type Cell } from "../../shared/export-kit";
import { settingsInWords } from "../../shared/settings-words";
import { METRIC } from "../../shared/metrics";

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
  const comments = csvComments(`BufLab sweep of ${what}${done}`, settingsInWords({ ...report.params, sweep: report.sweep }), link);
  const rows = report.points.flatMap((point) =>
    point.report.runs.map((r): Cell[] => [
      report.sweep.axis,
      point.value,
      ...(across ? [across.axis, point.across ?? ""] : []),
      ...RUN_COLUMNS.map(([, cell]) => cell(r)),
    ]),
  );
  return csvLines(comments, across ? GRID_CSV_HEADER : SWEEP_CSV_HEADER, rows);
}

/** The sweep report as the engine returned it, with the link that reproduces it. */
export function sweepJson(report: SweepReport, link: string, exportedAt: Date): string {
  return JSON.stringify({ link, exported_at: exportedAt.toISOString(), sweep: report }, null, 2) + "\n";
}
