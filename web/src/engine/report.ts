// Small facts about reports that the page asks in many places.

import type { LabReport, WriteReport } from "./types.gen";

export function isWriteReport(report: LabReport): report is WriteReport {
  return report.lab === "write";
}

/** Samples behind the report's times (the first timed run's). */
export function sampleCount(report: LabReport): number {
  if (!isWriteReport(report)) return report.runs[0]?.cpu_ns.samples ?? 0;
  return report.flavours.find((f) => f.cpu_ns !== null)?.cpu_ns?.samples ?? report.sink[0]?.cpu_ns.samples ?? 0;
}
