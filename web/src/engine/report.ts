// Small facts about reports that the page asks in many places.

import type { LabReport, Op, Stats, WriteReport } from "./types.gen";

export function isWriteReport(report: LabReport): report is WriteReport {
  return report.lab === "write";
}

/** True when `stats` holds measured samples: a failed cursor run has none, and exact counts come before any timing. */
export function isTimed(stats: Stats | null | undefined): stats is Stats {
  return stats !== null && stats !== undefined && stats.samples > 0;
}

/** Samples behind the report's times (the first timed run's). */
export function sampleCount(report: LabReport): number {
  if (!isWriteReport(report)) return report.runs[0]?.cpu_ns.samples ?? 0;
  return report.flavours.find((f) => f.cpu_ns !== null)?.cpu_ns?.samples ?? report.sink[0]?.cpu_ns.samples ?? 0;
}

/**
 * The operations (0-based) of a buffer timeline that made a source read
 * into the buffer, not past it: its fills (a lesson's answer is read off them) (the model's `Timeline::fills` says the same in Rust).
 */
export function fillSteps(ops: readonly Op[]): number[] {
  return ops.flatMap((op, i) => (op.source_reads > 0 && !op.bypass && op.reads.some((r) => r.block !== null) ? [i] : []));
}

/**
 * How many application reads one fill of the buffer serves: from the step
 * of the first fill up to the step before the next (null without two fills
 * in view). The timeline's sentence and the lesson's answer both say this.
 */
export function fillServes(ops: readonly Op[]): number | null {
  const fills = fillSteps(ops);
  return fills.length >= 2 ? fills[1]! - fills[0]! : null;
}
