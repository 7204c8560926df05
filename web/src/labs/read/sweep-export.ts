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

/** One row per point and reader, the points done so far in axis order. */
export function sweepCsv(report: SweepReport, link: string): string {
  const done = report.complete ? "" : ` (${report.points.length} of ${report.values.length} points)`;
  const comments = csvComments(`BufLab sweep of ${report.sweep.axis}${done}`, report.link, link);
  const rows = report.points.flatMap((point) =>
    point.report.runs.map((r): Cell[] => [
      report.sweep.axis,
      point.value,
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
  return csvLines(comments, SWEEP_CSV_HEADER, rows);
}

/** The sweep report as the engine returned it, with the link that reproduces it. */
export function sweepJson(report: SweepReport, link: string, exportedAt: Date): string {
  return JSON.stringify({ link, exported_at: exportedAt.toISOString(), sweep: report }, null, 2) + "\n";
}
