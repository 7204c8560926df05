// Small facts about reports that the page asks in many places.

import type { LabReport, Stats, WriteReport } from "./types.gen";

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
