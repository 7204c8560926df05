// What the sweep's charts draw: one chart per metric (its label, accessor
// and format from shared/metrics, and its scale), and one line style per
// reader, so lines differ without colour too.

import type { PointStyle } from "chart.js";
import type { Metric, Run } from "../../../engine/types.gen";
import { OKABE_ITO } from "../../../shared/chart-kit";
import { formatBytes, formatNs } from "../../../shared/format";
import { kneeMetric } from "../../../shared/metrics";

/** A sweep chart: one metric and how the chart draws it. */
export interface MetricView {
  id: Metric;
  title: string;
  note: string;
  /** Log y where the values span orders of magnitude; linear where zero is the point. */
  log: boolean;
  value(run: Run): number;
  format(n: number): string;
}

/** The chart of sweep metric `id`, with its caption and scale. */
function chartOf(id: Metric, note: string, log: boolean): MetricView {
  const metric = kneeMetric(id);
  return { id, title: metric.label, note, log, value: metric.value, format: metric.format };
}

export const METRICS: MetricView[] = [
  chartOf("source_reads", "Calls that reached the source (log scale): the count a buffer exists to cut.", true),
  chartOf("bytes_copied", "Bytes moved between buffers inside the reader.", false),
  chartOf("allocations", "Heap allocations during one run.", false),
  chartOf("time", "Measured CPU median + modelled I/O (source reads × cost per read + bytes × cost per KiB), log scale.", true),
];

/** One colour, dash and point shape per reader. */
export const READER_STYLE: Record<string, { colour: string; dash: number[]; point: PointStyle }> = {
  unbuffered: { colour: OKABE_ITO.vermillion, dash: [2, 3], point: "triangle" },
  std: { colour: OKABE_ITO.blue, dash: [], point: "circle" },
  chained: { colour: OKABE_ITO.bluishGreen, dash: [7, 4], point: "rect" },
  tokio: { colour: OKABE_ITO.orange, dash: [10, 3, 2, 3], point: "rectRot" },
  futures: { colour: OKABE_ITO.skyBlue, dash: [1, 3], point: "crossRot" },
};
export const FALLBACK_STYLE = { colour: OKABE_ITO.reddishPurple, dash: [4, 2], point: "star" as PointStyle };

/** Axis tick labels: short forms, and nothing at log scale's in-between ticks. */
export function shortTick(metric: Pick<MetricView, "id" | "log">, v: number): string {
  if (metric.log) {
    // Label 1, 2 and 5 times a power of ten; leave the other log ticks bare.
    const mantissa = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
    if (![1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6)) return "";
  }
  if (metric.id === "time") return formatNs(v);
  if (metric.id === "bytes_copied") return formatBytes(v);
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return String(v);
}
