// The single run's four charts, drawn into the figures the lab made with
// the page (chart-frames.ts, in <div id="charts">):
//
// 1. Source reads per reader, log scale: the count the buffer exists to cut.
// 2. Time per run per reader: measured CPU median (whisker = min–max) with the
//    modelled I/O time (source reads × cost per read) stacked on top, hatched
//    and labelled "modelled" so nobody takes it for a measurement.
// 3. Bytes copied inside each reader (linear: zero is the point).
// 4. Heap allocations per run (linear), with the chained reader's pool
//    blocks in the caption, so turning the pool off shows what it saves.

import type { Report } from "../../../engine/types.gen";
import { applyChartDefaults, countChart, createCallsChart, createTimeChart, themedCharts } from "../../../shared/chart-bars";
import { OKABE_ITO, binaryTicks, readTheme, refitHolders, showCalls, showCounts } from "../../../shared/chart-kit";
import { createSteps } from "../../../shared/steps";
import type { ReadChartFrames } from "./chart-frames";
import { METRIC } from "../../../shared/metrics";
import { formatBinaryBytes, formatBytes, formatCount } from "../../../shared/format";

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

/**
 * Draws the four charts into their figures (`createReadChartFrames`, made
 * with the page before this module and chart.js arrive).
 */
export function createReadCharts(container: HTMLElement, frames: ReadChartFrames): ReadCharts {
  // The lab sizes the holders and writes the captions (chart-frames.ts); the charts draw.
  let theme = readTheme();
  applyChartDefaults(theme);
  const { reads, time, copies, allocs } = frames;

  const readsChart = createCallsChart(reads.canvas, COLOURS.sourceReads, METRIC.source_reads.short);
  const timeChart = createTimeChart(time.canvas, theme, METRIC.modelled_total_ns.label);
  const copiesChart = countChart(copies.canvas, COLOURS.copied, METRIC.bytes_copied.short, 1, (v) => `${formatCount(v)} ${METRIC.bytes_copied.short}`);
  // Byte counts tick at binary steps (256 KiB, 512 KiB, …), never at decimal ones.
  const copiesAxis = copiesChart.options.scales?.["x"];
  if (copiesAxis) {
    copiesAxis.afterBuildTicks = (scale) => {
      // A label such as "768 KiB" is about 4 ems wide: as many as the axis has room for, with a gap.
      const em = (scale.options as { ticks?: { font?: { size?: number } } }).ticks?.font?.size ?? 12;
      const room = scale.width > 0 ? Math.floor(scale.width / (em * 5.5)) : 8;
      scale.ticks = binaryTicks(scale.max, room).map((value) => ({ value }));
    };
    if (copiesAxis.ticks) copiesAxis.ticks.callback = (value) => formatBinaryBytes(Number(value));
  }
  // An axis of at least 0–10, so one buffer's single allocation looks small.
  const allocsChart = countChart(allocs.canvas, COLOURS.allocations, METRIC.allocations.short, 10, (v) => `${formatCount(v)} ${METRIC.allocations.short}`);
  const charts = themedCharts([readsChart, timeChart.chart, copiesChart, allocsChart], timeChart, theme);
  const steps = createSteps();

  return {
    update(report, labelOf, timing) {
      const runs = report.runs;
      const labels = runs.map((r) => labelOf(r.reader));
      // One chart per task (shared/steps.ts): input is handled between them.
      steps.run([
        () => showCalls(readsChart, reads.canvas, METRIC.source_reads.label, labels, runs.map(METRIC.source_reads.value), theme),
        () => timeChart.show(labels, runs, theme, timing),
        () => {
          showCounts(copiesChart, labels, runs.map(METRIC.bytes_copied.value), runs.map((r) => METRIC.bytes_copied.format(METRIC.bytes_copied.value(r))), theme);
          copies.canvas.setAttribute(
            "aria-label",
            `${METRIC.bytes_copied.label}: ${runs.map((r, i) => `${labels[i]} ${formatCount(METRIC.bytes_copied.value(r))}`).join("; ")}.`,
          );
        },
        () => {
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
        },
      ]);
    },
    retheme() {
      theme = charts.retheme(() => refitHolders(container));
    },
  };
}
