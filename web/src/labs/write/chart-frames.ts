// The write lab's three chart figures without their charts: titles,
// captions and holders of their final height, made with the lab's results
// (this module does not bring chart.js), so the charts, which load after the
// first numbers (./charts.ts), draw into space that is already theirs.

import type { WriteReport } from "../../engine/types.gen";
import { chartBlock, sizeFor, type ChartBlock } from "../../shared/chart-kit";
import { setText } from "../../shared/dom";
import { formatCount, formatSignificant } from "../../shared/format";
import { METRIC as M } from "../../shared/metrics";

export interface WriteChartFrames {
  /** Time per cursor, beside the qualities table. */
  cursors: ChartBlock;
  /** Sink writes, direct against BufWriter. */
  writes: ChartBlock;
  /** Time per run for the sink. */
  sinkTime: ChartBlock;
}

export function createWriteChartFrames(): WriteChartFrames {
  return {
    cursors: chartBlock(
      `${M.cpu_median_ns.label} per run, per cursor`,
      "CPU time measured in this tab to serialize the records into a fresh buffer (median; whisker shows min–max).",
    ),
    writes: chartBlock(M.sink_writes.label, "Calls that reached the sink (log scale). Each stands for one system call."),
    sinkTime: chartBlock(`${M.modelled_total_ns.label}, sink`, ""),
  };
}

/** Sizes the holders for a report's cursors and sink modes, and writes the captions that depend on it. */
export function showWriteFrames(frames: WriteChartFrames, report: WriteReport, timing: boolean): void {
  sizeFor(frames.cursors.holder, report.flavours.length);
  sizeFor(frames.writes.holder, report.sink.length);
  sizeFor(frames.sinkTime.holder, report.sink.length);
  const samples = report.flavours.find((f) => f.cpu_ns)?.cpu_ns?.samples ?? 0;
  setText(
    frames.cursors.caption,
    `CPU time measured in this tab to serialize ${formatCount(report.params.write.records)} records into a fresh buffer ` +
      (report.stage === "counts"
        ? timing
          ? "(being measured now: the counts come first). "
          : "(not measured for these counts: stopped; Measure again times them). "
        : `(median of ${samples} sample${samples === 1 ? "" : "s"}; whisker shows min–max). `) +
      "Blue: growable; purple: fixed buffer.",
  );
  setText(
    frames.sinkTime.caption,
    `Solid: CPU time measured in this tab (median; whisker shows min–max). ` +
      `Hatched: I/O time modelled as sink writes × ${formatSignificant(report.params.sys)} ns.`,
  );
}
