// The comparison's words: what each outcome is called, what each spread is,
// what differs between A and B. Pure functions of the engine's Comparison
// and schema (its outcomes, spreads and verdict sentences are the engine's:
// crate/src/engine/compare.rs); nothing here decides a verdict.

import type { Changed, Compared, Comparison, MetricId, Outcome, Schema, Spread, SpreadKind } from "../../../engine/types.gen";
import { formatSignificant } from "../../../shared/format";
import { METRIC } from "../../../shared/metrics";

/** An outcome in a word or three, always written out beside its colour. */
export const OUTCOME_WORDS: Record<Outcome, string> = {
  tie: "tie",
  less: "less",
  more: "more",
  faster: "B faster",
  slower: "B slower",
  same: "same within noise",
  not_compared: "not compared",
};

/** The colour an outcome takes: warm for more (or slower), cool for less (or faster), as differential flame graphs use them; none for a tie or noise. */
export function outcomeTone(outcome: Outcome): "warm" | "cool" | "none" {
  if (outcome === "more" || outcome === "slower") return "warm";
  if (outcome === "less" || outcome === "faster") return "cool";
  return "none";
}

/** A figure of `metric` in its unit ("12.3 µs", "4,096"); "—" where there is none. */
export function figure(metric: MetricId, value: number | null): string {
  return value === null ? "—" : METRIC[metric].format(value);
}

/** B − A with its sign ("+1,024", "−3.1 µs", "0"). */
export function difference(metric: MetricId, value: number | null): string {
  if (value === null) return "—";
  if (value === 0) return "0";
  const sign = value > 0 ? "+" : "−";
  return `${sign}${METRIC[metric].format(Math.abs(value))}`;
}

/** A spread with what it is: "MAD ± 1.2 µs", "CI 0.97–1.04×". */
export function spreadText(schema: Schema, metric: MetricId, spread: Spread | null): string {
  if (spread === null) return "";
  const label = spreadLabel(schema, spread.kind);
  if (spread.kind === "ratio_interval" || spread.kind === "ratio_range") return `${label} ${formatSignificant(spread.low)}–${formatSignificant(spread.high)}×`;
  if (spread.kind === "mad") return `${label} ± ${METRIC[metric].format((spread.high - spread.low) / 2)}`;
  return `${label} ${METRIC[metric].format(spread.low)}–${METRIC[metric].format(spread.high)}`;
}

export function spreadLabel(schema: Schema, kind: SpreadKind): string {
  return schema.spreads.find((s) => s.kind === kind)?.label ?? kind;
}

/** The sentence that explains a spread's label (a tooltip and the key under the table). */
export function spreadAbout(schema: Schema, kind: SpreadKind): string {
  return schema.spreads.find((s) => s.kind === kind)?.about ?? "";
}

/** The spread kinds a comparison shows, each once, for the key under its table. */
export function spreadsShown(comparison: Comparison): SpreadKind[] {
  const kinds = new Set<SpreadKind>();
  for (const row of comparison.readers.flatMap((r) => r.metrics)) {
    for (const s of [row.a_spread, row.b_spread, row.ratio_spread]) if (s) kinds.add(s.kind);
  }
  return [...kinds];
}

/** B ÷ A to three figures ("1.02×", "0.125×"); "—" where there is none. */
export function ratioText(row: Compared): string {
  return row.ratio === null ? "—" : `${formatSignificant(row.ratio)}×`;
}

/** What differs, in words: "cap 8K → 64K, rd std → chained"; A/A says so. */
export function changedText(changed: readonly Changed[]): string {
  if (changed.length === 0) return "B is the same experiment as A (an A/A comparison): any difference in time is noise.";
  return `B differs from A in ${changed.map((c) => `${c.key} ${c.a ?? "(none)"} → ${c.b ?? "(none)"}`).join(", ")}.`;
}

/** The times' verdicts of a comparison, one sentence per reader: its name, then the engine's `says` of its time. */
export function verdicts(comparison: Comparison, labelOf: (id: string) => string): string[] {
  return comparison.readers.flatMap((r) => {
    const name = r.a && r.b && r.a !== r.b ? `${labelOf(r.a)} → ${labelOf(r.b)}` : labelOf(r.a ?? r.b ?? "");
    return r.metrics.filter((m) => m.metric === "cpu_median_ns").map((m) => `${name}: ${m.says}`);
  });
}
