// A sweep as data: CSV with one row per point and reader (after comment
// lines with the settings and the link), and JSON that is the engine's
// sweep report as the CLI's `--json` prints it, with the link. Pure
// functions; the sweep view (sweep.ts) offers them as downloads.

import type { SweepReport } from "../../engine/types.gen";
import { csvComments, csvLines, type Cell } from "../../shared/export-kit";

/** The sweep CSV's columns: the report's own field names. */
export const SWEEP_CSV_HEADER = [
  "axis",
  "value",
  "reader",
  "source_reads",
  "app_reads",
  "bytes_copied",
  "allocations",
  "peak_bytes",
  "cpu_median_ns",
  "cpu_min_ns",
  "cpu_max_ns",
  "samples",
  "modelled_io_ns",
  "digest",
];

/** A two-axis sweep's CSV has the second axis and its value after the first's. */
export const GRID_CSV_HEADER = [...SWEEP_CSV_HEADER.slice(0, 2), "across_axis", "across_value", ...SWEEP_CSV_HEADER.slice(2)];

/** One row per point and reader, the points done so far in the order they ran. */
export function sweepCsv(report: SweepReport, link: string): string {
  const across = report.sweep.across;
  const done = report.complete ? "" : ` (${report.points.length} of ${report.total} points)`;
  const what = across ? `${report.sweep.axis} by ${across.axis}` : report.sweep.axis;
  const comments = csvComments(`BufLab sweep of ${what}${done}`, report.link, link);
  const rows = report.points.flatMap((point) =>
    point.report.runs.map((r): Cell[] => [
      report.sweep.axis,
      point.value,
      ...(across ? [across.axis, point.across ?? ""] : []),
      r.reader,
      r.source_reads,
      r.app_reads,
      r.bytes_copied,
      r.allocations,
      r.peak_bytes,
      r.cpu_ns.median,
      r.cpu_ns.min,
      r.cpu_ns.max,
      r.cpu_ns.samples,
      r.modelled_io_ns,
      r.digest,
    ]),
  );
  return csvLines(comments, across ? GRID_CSV_HEADER : SWEEP_CSV_HEADER, rows);
}

/** The sweep report as the engine returned it, with the link that reproduces it. */
export function sweepJson(report: SweepReport, link: string, exportedAt: Date): string {
  return JSON.stringify({ link, exported_at: exportedAt.toISOString(), sweep: report }, null, 2) + "\n";
}
