// The single run's four charts (owns <div id="charts">):
//
// 1. Source reads per reader, log scale: the count the buffer exists to cut.
// 2. Time per run per reader: measured CPU median (whisker = min–max) with the
//    modelled I/O time (source reads × cost per read) stacked on top, hatched
//    and labelled "modelled" so nobody takes it for a measurement.
// 3. Bytes copied inside each reader (linear: zero is the point).
// 4. Heap allocations per run (linear), with the chained reader's pool
//    blocks in the caption, so turning the pool off shows what it saves.

import type { Report } from "../../engine/types.gen";
import { applyChartDefaults, countChart, createCallsChart, createTimeChart } from "../../shared/chart-bars";
import {
  OKABE_ITO,
  binaryTicks,
  chartBlock,
  extrasOf,
  readTheme,
  showCalls,
  showCounts,
  refitHolders,
  sizeFor,
  themeAxes,
} from "../../shared/chart-kit";
import { replaceChildren, setText } from "../../shared/dom";
import { METRIC } from "../../shared/metrics";
import { formatBinaryBytes, formatBytes, formatCount, formatSignificant } from "../../shared/format";

const COLOURS = {
  sourceReads: OKABE_ITO.bluishGreen,
  copied: OKABE_ITO.vermillion,
  allocations: OKABE_ITO.reddishPurple,
};

export interface ReadCharts {
  update(report: Report, labelOf: (readerId: string) => string, timing: boolean): void;
  /** Re-reads colours and type size after a scheme or presenter switch. */
  retheme(): void;
}

export function createReadCharts(container: HTMLElement): ReadCharts {
  let theme = readTheme();
  applyChartDefaults(theme);
  const reads = chartBlock(METRIC.source_reads.label, "Calls that reached the source (log scale). Each stands for one system call.", METRIC.source_reads.term);
  const time = chartBlock(
    METRIC.modelled_total_ns.label,
    "Solid: CPU time measured in this tab (median; whisker shows min–max). Hatched: I/O time modelled as source reads × cost per read.",
    METRIC.modelled_total_ns.term,
  );
  const copies = chartBlock(METRIC.bytes_copied.label, "Bytes moved between buffers inside the reader.", METRIC.bytes_copied.term);
  const allocs = chartBlock(METRIC.allocations.label, "Heap allocations during one run, from a counting allocator.", METRIC.allocations.term);
  // The ids the `embed` link key names them by (styles/embed.css).
  reads.block.dataset["embed"] = "reads";
  time.block.dataset["embed"] = "time";
  copies.block.dataset["embed"] = "copied";
  allocs.block.dataset["embed"] = "allocs";
  replaceChildren(container, reads.block, time.block, copies.block, allocs.block);

  const readsChart = createCallsChart(reads.canvas, COLOURS.sourceReads, METRIC.source_reads.short);
  const timeChart = createTimeChart(time.canvas, theme, METRIC.modelled_total_ns.label);
  const copiesChart = countChart(copies.canvas, COLOURS.copied, METRIC.bytes_copied.short, 1, (v) => `${formatCount(v)} ${METRIC.bytes_copied.short}`);
  // Byte counts tick at binary steps (256 KiB, 512 KiB, …), never at decimal ones.
  const copiesAxis = copiesChart.options.scales?.["x"];
  if (copiesAxis) {
    copiesAxis.afterBuildTicks = (scale) => {
      scale.ticks = binaryTicks(scale.max).map((value) => ({ value }));
    };
    if (copiesAxis.ticks) copiesAxis.ticks.callback = (value) => formatBinaryBytes(Number(value));
  }
  // An axis of at least 0–10, so one buffer's single allocation looks small.
  const allocsChart = countChart(allocs.canvas, COLOURS.allocations, METRIC.allocations.short, 10, (v) => `${formatCount(v)} ${METRIC.allocations.short}`);
  const allCharts = [readsChart, timeChart.chart, copiesChart, allocsChart];

  const applyTheme = (): void => {
    for (const chart of allCharts) themeAxes(chart, theme);
    timeChart.retheme(theme);
  };
  for (const chart of allCharts) extrasOf.set(chart, { endLabels: [], whiskers: null, theme });
  applyTheme();

  return {
    update(report, labelOf, timing) {
      const runs = report.runs;
      const labels = runs.map((r) => labelOf(r.reader));
      sizeFor(reads.holder, runs.length);
      sizeFor(time.holder, runs.length);

      showCalls(readsChart, reads.canvas, METRIC.source_reads.label, labels, runs.map(METRIC.source_reads.value), theme);

      timeChart.show(labels, runs, theme, timing);
      const samples = runs[0]?.cpu_ns.samples ?? 0;
      setText(
        time.caption,
        (report.stage === "counts"
          ? timing
            ? "Solid: CPU time measured in this tab, being measured now (the counts come first). "
            : "Solid: CPU time measured in this tab: not measured for these counts (stopped; Measure again times them). "
          : `Solid: CPU time measured in this tab (median of ${samples} sample${samples === 1 ? "" : "s"}; whisker shows min–max). `) +
          `Hatched: I/O time modelled as source reads × ${formatSignificant(report.params.sys)} ns.`,
      );

      sizeFor(copies.holder, runs.length);
      showCounts(copiesChart, labels, runs.map(METRIC.bytes_copied.value), runs.map((r) => METRIC.bytes_copied.format(METRIC.bytes_copied.value(r))), theme);
      copies.canvas.setAttribute(
        "aria-label",
        `${METRIC.bytes_copied.label}: ${runs.map((r, i) => `${labels[i]} ${formatCount(METRIC.bytes_copied.value(r))}`).join("; ")}.`,
      );
      setText(
        copies.caption,
        "Bytes moved between buffers inside the reader. std copies what it hands out, except reads that bypass its buffer; lending reads (fill_buf, the chained reader's read_range and read_line) copy nothing.",
      );

      sizeFor(allocs.holder, runs.length);
      showCounts(
        allocsChart,
        labels,
        runs.map(METRIC.allocations.value),
        // The count only: a byte total too would not fit beside a long bar on a phone (the table has it).
        runs.map((r) => METRIC.allocations.format(METRIC.allocations.value(r))),
        theme,
      );
      allocs.canvas.setAttribute(
        "aria-label",
        `${METRIC.allocations.label}: ${runs.map((r, i) => `${labels[i]} ${formatCount(METRIC.allocations.value(r))} (${formatBytes(r.alloc_bytes)}, peak ${formatBytes(METRIC.peak_bytes.value(r))})`).join("; ")}.`,
      );
      setText(allocs.caption, allocationsCaption(report, labelOf));
    },
    retheme() {
      theme = readTheme();
      applyChartDefaults(theme);
      refitHolders(container);
      applyTheme();
      for (const chart of allCharts) chart.update("none");
    },
  };
}

function allocationsCaption(report: Report, labelOf: (readerId: string) => string): string {
  const parts = ["Heap allocations during one run, with the bytes they asked for (counting allocator)."];
  for (const run of report.runs) {
    const blocks = run.blocks;
    if (!blocks) continue;
    const taken = blocks.allocated + blocks.reused;
    parts.push(
      report.params.pool
        ? `${labelOf(run.reader)}: ${formatCount(taken)} block${taken === 1 ? "" : "s"} taken, ${formatCount(blocks.reused)} of them handed out again by the pool.`
        : `${labelOf(run.reader)}, pool off: each of its ${formatCount(taken)} block${taken === 1 ? "" : "s"} was a fresh allocation.`,
    );
  }
  return parts.join(" ");
}
