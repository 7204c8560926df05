// The paired charts' geometry: for each charted metric, every reader's A and
// B bars on one scale (the largest figure or spread end of either side is
// the full width; source reads, which span orders of magnitude between
// readers, on a log scale as the single run's chart has them), each time
// bar's spread as a whisker with what it is, and the outcome in the
// engine's words. Pure: it reads the engine's
// Comparison and never decides a verdict (the outcome and `says` are the
// engine's, crate/src/engine/compare.rs, from interleaved rounds).

import type { Changed, Compared, Comparison, MetricId, Outcome, Schema } from "../../../engine/types.gen";
import { METRIC } from "../../../shared/metrics";
import { figure, OUTCOME_WORDS, outcomeTone, spreadText } from "./words";

/** The metrics charted, in the single run's chart order (run/charts.ts), each with its scale. */
export const CHARTED: readonly { metric: MetricId; scale: "log" | "linear" }[] = [
  { metric: "source_reads", scale: "log" },
  { metric: "cpu_median_ns", scale: "linear" },
  { metric: "bytes_copied", scale: "linear" },
  { metric: "allocations", scale: "linear" },
];

export interface Bar {
  /** The figure in its unit ("1,025", "12.3 µs"). */
  text: string;
  /** The bar's length as a fraction of the chart's scale, 0–1. */
  length: number;
  /** A time's spread: its ends as fractions of the scale, and what it is ("MAD ± 1.2 µs"). */
  spread: { low: number; high: number; text: string } | null;
}

export interface PairRow {
  reader: string;
  a: Bar | null;
  b: Bar | null;
  outcome: Outcome;
  /** The outcome in words, and its colour (warm more/slower, cool less/faster). */
  words: string;
  tone: "warm" | "cool" | "none";
  /** The engine's sentence behind a time's outcome; empty for exact figures. */
  says: string;
}

export interface PairChart {
  metric: MetricId;
  title: string;
  /** The figure the full width stands for, in its unit. */
  full: string;
  /** Linear, or log (length ∝ log(1 + figure)). */
  scale: "log" | "linear";
  rows: PairRow[];
}

/** The words of A's and B's legend: their differing settings ("cap 8K", "cap 64K"). */
export function sideLabels(changed: readonly Changed[], files: { a: string | null; b: string } | null): { a: string; b: string } {
  if (files !== null) return { a: `A: ${files.a ?? "the result on screen"}`, b: `B: ${files.b}` };
  if (changed.length === 0) return { a: "A", b: "B (the same settings: A/A)" };
  const side = (pick: (c: Changed) => string | null) => changed.map((c) => `${c.key} ${pick(c) ?? "(none)"}`).join(", ");
  return { a: `A: ${side((c) => c.a)}`, b: `B: ${side((c) => c.b)}` };
}

function bar(schema: Schema, m: Compared, side: "a" | "b", full: number, scale: "log" | "linear"): Bar | null {
  const value = m[side];
  if (value === null) return null;
  const s = m[side === "a" ? "a_spread" : "b_spread"];
  const f = scale === "log" ? (v: number) => Math.log1p(Math.max(0, v)) : (v: number) => v;
  const at = (v: number) => (full > 0 ? Math.min(1, Math.max(0, f(v) / f(full))) : 0);
  return {
    text: figure(m.metric, value),
    length: at(value),
    spread: s ? { low: at(s.low), high: at(s.high), text: spreadText(schema, m.metric, s) } : null,
  };
}

/** The largest figure (or spread end) of a metric on either side: the chart's full width. */
function scaleOf(rows: readonly Compared[]): number {
  let full = 0;
  for (const m of rows) {
    for (const v of [m.a, m.b, m.a_spread?.high ?? null, m.b_spread?.high ?? null]) if (v !== null && v > full) full = v;
  }
  return full;
}

/** The paired charts of `comparison`: one per charted metric either side has, A and B per reader on one scale. */
export function pairCharts(schema: Schema, comparison: Comparison, labelOf: (id: string) => string): PairChart[] {
  const charts: PairChart[] = [];
  for (const { metric, scale } of CHARTED) {
    const entries = comparison.readers.flatMap((r) => {
      const m = r.metrics.find((x) => x.metric === metric);
      if (!m || (m.a === null && m.b === null)) return [];
      const reader = r.a && r.b && r.a !== r.b ? `${labelOf(r.a)} → ${labelOf(r.b)}` : labelOf(r.a ?? r.b ?? "");
      return [{ reader, m }];
    });
    if (entries.length === 0) continue;
    const full = scaleOf(entries.map((e) => e.m));
    charts.push({
      metric,
      title: METRIC[metric].label,
      full: figure(metric, full),
      scale,
      rows: entries.map(({ reader, m }) => ({
        reader,
        a: bar(schema, m, "a", full, scale),
        b: bar(schema, m, "b", full, scale),
        outcome: m.outcome,
        words: OUTCOME_WORDS[m.outcome],
        tone: outcomeTone(m.outcome),
        says: m.ratio_spread ? m.says : "",
      })),
    });
  }
  return charts;
}
