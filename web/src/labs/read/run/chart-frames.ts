// The single run's four chart figures without their charts: titles,
// captions and holders of their final height. The read lab makes them with
// the page (this module does not bring chart.js), so the charts, which load
// after the first numbers (./charts.ts), draw into space that is already
// theirs and nothing under them moves.

import { chartBlock, sizeFor, type ChartBlock } from "../../../shared/chart-kit";
import type { Report } from "../../../engine/types.gen";
import { replaceChildren, setText } from "../../../shared/dom";
import { formatCount, formatSignificant, plural } from "../../../shared/format";
import { METRIC } from "../../../shared/metrics";

export interface ReadChartFrames {
  reads: ChartBlock;
  time: ChartBlock;
  copies: ChartBlock;
  allocs: ChartBlock;
}

/**
 * The four figures in `container`, each with its title, caption and a holder
 * of its final height, without chart.js: the read lab makes them with the
 * page, so the charts, which come later, draw into space that is already
 * theirs (`sizeReadCharts` sizes the holders for the readers compared).
 */
export function createReadChartFrames(container: HTMLElement): ReadChartFrames {
  const reads = chartBlock(METRIC.source_reads.label, "Calls that reached the source (log scale). Each stands for one system call.", METRIC.source_reads.term);
  const time = chartBlock(
    METRIC.modelled_total_ns.label,
    "Solid: CPU time measured in this tab (median; whisker shows min–max). Hatched: I/O time modelled as source reads × cost per read + bytes × cost per KiB.",
    METRIC.modelled_total_ns.term,
  );
  const copies = chartBlock(
    METRIC.bytes_copied.label,
    "Bytes moved between buffers inside the reader. std copies what it hands out, except reads that bypass its buffer; lending reads (fill_buf, the chained reader's read_range and read_line) copy nothing.",
    METRIC.bytes_copied.term,
  );
  const allocs = chartBlock(METRIC.allocations.label, "Heap allocations during one run, from a counting allocator.", METRIC.allocations.term);
  // The ids the `embed` link key names them by (styles/embed.css).
  reads.block.dataset["embed"] = "reads";
  time.block.dataset["embed"] = "time";
  copies.block.dataset["embed"] = "copied";
  allocs.block.dataset["embed"] = "allocs";
  replaceChildren(container, reads.block, time.block, copies.block, allocs.block);
  return { reads, time, copies, allocs };
}

/**
 * The captions that say what a report's charts show (how the times were
 * taken, the chained reader's blocks): written with the table, before the
 * charts themselves have arrived.
 */
export function showReadCaptions(frames: ReadChartFrames, report: Report, labelOf: (readerId: string) => string, timing: boolean): void {
  const samples = report.runs[0]?.cpu_ns.samples ?? 0;
  setText(
    frames.time.caption,
    (report.stage === "counts"
      ? timing
        ? "Solid: CPU time measured in this tab, being measured now (the counts come first). "
        : "Solid: CPU time measured in this tab: not measured for these counts (stopped; Measure again times them). "
      : `Solid: CPU time measured in this tab (median of ${plural(samples, "sample")}; whisker shows min–max). `) +
      `Hatched: I/O time modelled as source reads × ${formatSignificant(report.params.sys)} ns + bytes × ${formatSignificant(report.params.sys_kib)} ns per KiB.`,
  );
  setText(frames.allocs.caption, allocationsCaption(report, labelOf));
}

function allocationsCaption(report: Report, labelOf: (readerId: string) => string): string {
  const parts = ["Heap allocations during one run, with the bytes they asked for (counting allocator)."];
  for (const run of report.runs) {
    const blocks = run.blocks;
    if (!blocks) continue;
    const taken = blocks.allocated + blocks.reused;
    parts.push(
      report.params.pool
        ? `${labelOf(run.reader)}: ${plural(taken, "block")} taken, ${formatCount(blocks.reused)} of them handed out again by the pool.`
        : `${labelOf(run.reader)}, pool off: each of its ${plural(taken, "block")} was a fresh allocation.`,
    );
  }
  return parts.join(" ");
}

/** Sizes the four holders for `rows` readers. */
export function sizeReadCharts(frames: ReadChartFrames, rows: number): void {
  for (const frame of [frames.reads, frames.time, frames.copies, frames.allocs]) sizeFor(frame.holder, rows);
}
