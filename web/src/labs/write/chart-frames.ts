// The write lab's four chart figures without their charts: titles,
// captions and holders of their final height, made with the lab's results
// (this module does not bring chart.js), so the charts, which load after the
// first numbers (./charts.ts), draw into space that is already theirs.

import type { WriteReport } from "../../engine/types.gen";
import { chartBlock, sizeFor, type ChartBlock } from "../../shared/chart-kit";
import { setText } from "../../shared/dom";
import { formatCount, formatSignificant, plural } from "../../shared/format";
import { METRIC as M } from "../../shared/metrics";

export interface WriteChartFrames {
  /** Reallocations per cursor, first beside the qualities table. */
  reallocs: ChartBlock;
  /** Time per cursor, under the reallocations. */
  cursors: ChartBlock;
  /** Sink writes, direct against BufWriter. */
  writes: ChartBlock;
  /** Time per run for the sink. */
  sinkTime: ChartBlock;
}

export function createWriteChartFrames(): WriteChartFrames {
  const reallocs = chartBlock(
    `${M.reallocs.label} per cursor`,
    "Times each cursor's buffer was reallocated while it grew (exact, from the counting allocator).",
  );
  // The id the `embed` link key and a lesson's `charts` name it by.
  reallocs.block.dataset["embed"] = "reallocs";
  return {
    reallocs,
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
  sizeFor(frames.reallocs.holder, report.flavours.length);
  sizeFor(frames.cursors.holder, report.flavours.length);
  const start = report.params.write.init_cap;
  setText(
    frames.reallocs.caption,
    `Times each cursor's buffer was reallocated while it grew, counted exactly. The growable cursors start at ${start === 0 ? "no capacity" : formatCount(start) + " bytes"}; ` +
      `the fixed ones write into one buffer of ${formatCount(report.params.write.buf)} bytes. Blue: growable; purple: fixed buffer.`,
  );
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
        : `(median of ${plural(samples, "sample")}; whisker shows min–max). `) +
      "Blue: growable; purple: fixed buffer.",
  );
  setText(
    frames.sinkTime.caption,
    `Solid: CPU time measured in this tab (median; whisker shows min–max). ` +
      `Hatched: I/O time modelled as sink writes × ${formatSignificant(report.params.sys)} ns.`,
  );
}
