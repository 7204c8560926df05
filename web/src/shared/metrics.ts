// Every number the page shows per run, each once: its words (label, short
// form, unit, origin, meaning) come from the engine's schema
// (crate/src/catalog/metrics.rs, generated into schema.gen.json), and this
// module joins them with the one accessor that reads it from a run and the
// formatter its unit calls for. Tables, charts, sweeps, exports and the
// baseline take a metric's label and value from here; metrics.test.ts fails
// when a label is written anywhere else.
//
// Each accessor asks only for the fields it reads, so one serves a read
// lab's Run and a write lab's cursor or sink run alike.

import schemaData from "../engine/schema.gen.json";
import type { BlockCounts, Metric, MetricId, MetricInfo, Run, Schema, Stats, Unit } from "../engine/types.gen";
import { formatBytes, formatCount, formatNs } from "./format";

const schema = schemaData as Schema;

/** Each metric's value in a run: the report's field, or the sum the page shows. */
const ACCESSORS = {
  source_reads: (r: { source_reads: number }) => r.source_reads,
  app_reads: (r: { app_reads: number }) => r.app_reads,
  polls: (r: { polls?: number }) => r.polls,
  bytes: (r: { bytes: number }) => r.bytes,
  bytes_copied: (r: { bytes_copied: number }) => r.bytes_copied,
  allocations: (r: { allocations: number }) => r.allocations,
  reallocs: (r: { reallocs: number }) => r.reallocs,
  peak_bytes: (r: { peak_bytes: number }) => r.peak_bytes,
  pool_blocks: (r: { blocks?: BlockCounts }) => r.blocks?.allocated,
  cpu_median_ns: (r: { cpu_ns: Stats }) => r.cpu_ns.median,
  modelled_io_ns: (r: { modelled_io_ns: number }) => r.modelled_io_ns,
  modelled_total_ns: (r: { cpu_ns: Stats; modelled_io_ns: number }) => r.cpu_ns.median + r.modelled_io_ns,
  digest: (r: { digest: string }) => r.digest,
  app_writes: (r: { app_writes: number }) => r.app_writes,
  sink_writes: (r: { sink_writes: number }) => r.sink_writes,
  sink_flushes: (r: { sink_flushes: number }) => r.sink_flushes,
} satisfies Record<MetricId, (run: never) => number | string | undefined>;

/** How a value of each unit is written: compact, for charts, sentences and comparisons. */
const FORMATS: Record<Unit, (n: number) => string> = {
  count: formatCount,
  bytes: formatBytes,
  ns: formatNs,
  text: String,
};

type Accessors = typeof ACCESSORS;

/** A metric as the page uses it: the schema's words, its accessor and its formatter. */
export type MetricView<K extends MetricId = MetricId> = MetricInfo & {
  id: K;
  value: Accessors[K];
  format(n: number): string;
};

function view<K extends MetricId>(id: K): MetricView<K> {
  const info = schema.metrics.find((m) => m.id === id);
  if (!info) throw new Error(`the schema has no metric ${id}`);
  return { ...info, id, value: ACCESSORS[id], format: FORMATS[info.unit] };
}

/** Every metric by id. */
export const METRIC: { readonly [K in MetricId]: MetricView<K> } = Object.fromEntries(
  (Object.keys(ACCESSORS) as MetricId[]).map((id) => [id, view(id)]),
) as { [K in MetricId]: MetricView<K> };

/** A series' name that says where its numbers come from: the label, with its origin in brackets unless the label has it. */
export function originLabel(metric: MetricInfo): string {
  return metric.label.includes(`(${metric.origin})`) ? metric.label : `${metric.label} (${metric.origin})`;
}

/**
 * The metric a sweep's knee is measured on. Sweeps run the read lab, and
 * every knee is on a count or a time (metrics.test.ts checks each on a real
 * run), so its accessor reads a Run and gives a number.
 */
export function kneeMetric(metric: Metric): MetricView & { value(run: Run): number } {
  const info = schema.metrics.find((m) => m.knee === metric);
  if (!info) throw new Error(`no metric is the sweep's ${metric}`);
  return METRIC[info.id] as MetricView & { value(run: Run): number };
}
