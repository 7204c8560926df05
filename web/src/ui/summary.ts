// One sentence that says what the numbers mean: the reader with the fewest
// source reads against the one with the most.

import type { Report } from "../engine/types.gen";
import { formatCount, formatNs, formatRatio } from "../format";
import { setText } from "./dom";

export function summarize(report: Report, labelOf: (readerId: string) => string): string {
  const runs = report.runs;
  const total = (i: number): number => (runs[i]?.cpu_ns.median ?? 0) + (runs[i]?.modelled_io_ns ?? 0);
  if (runs.length === 0) return "";
  if (runs.length === 1) {
    const r = runs[0]!;
    return `${labelOf(r.reader)} made ${formatCount(r.source_reads)} source reads for ${formatCount(r.app_reads)} application reads; ${formatNs(total(0))} per run including modelled I/O.`;
  }
  let best = 0;
  let worst = 0;
  runs.forEach((r, i) => {
    if (r.source_reads < runs[best]!.source_reads) best = i;
    if (r.source_reads > runs[worst]!.source_reads) worst = i;
  });
  const b = runs[best]!;
  const w = runs[worst]!;
  if (b.source_reads === w.source_reads) {
    // Only against an unbuffered reader does "no saving" follow from equal counts.
    const why = runs.some((r) => r.reader === "unbuffered") ? ": at these settings the buffer saves no system calls" : "";
    return `All readers made the same number of source reads (${formatCount(b.source_reads)})${why}.`;
  }
  const readRatio = w.source_reads / Math.max(1, b.source_reads);
  const timeRatio = total(worst) / Math.max(1e-9, total(best));
  const time =
    timeRatio >= 1.05
      ? `and took ${formatRatio(timeRatio)} less time per run with modelled I/O (${formatNs(total(best))} vs ${formatNs(total(worst))})`
      : timeRatio <= 0.95
        ? `but took ${formatRatio(1 / timeRatio)} more time per run with modelled I/O (${formatNs(total(best))} vs ${formatNs(total(worst))})`
        : `in about the same time per run with modelled I/O (${formatNs(total(best))})`;
  return `${labelOf(b.reader)} made ${formatRatio(readRatio)} fewer source reads than ${labelOf(w.reader)} (${formatCount(b.source_reads)} vs ${formatCount(w.source_reads)}) ${time}.`;
}

/**
 * A second sentence about memory, when the readers differ there: the reader
 * with the fewest allocations against the one with the most, and their
 * copies when those differ too. Empty when allocations are about even.
 */
export function summarizeMemory(report: Report, labelOf: (readerId: string) => string): string {
  const runs = report.runs;
  if (runs.length < 2) return "";
  let lo = runs[0]!;
  let hi = runs[0]!;
  for (const r of runs) {
    if (r.allocations < lo.allocations) lo = r;
    if (r.allocations > hi.allocations) hi = r;
  }
  // A buffer per stream is not worth a sentence; an allocation per frame or per block is.
  if (hi.allocations < Math.max(100, 4 * lo.allocations)) return "";
  const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;
  const copies =
    lo.bytes_copied !== hi.bytes_copied
      ? ` and copied ${plural(lo.bytes_copied, "byte")} against ${formatCount(hi.bytes_copied)}`
      : "";
  return `${labelOf(lo.reader)} made ${plural(lo.allocations, "allocation")} per run against ${formatCount(hi.allocations)} for ${labelOf(hi.reader)}${copies}.`;
}

/**
 * A sentence about the async readers' Pendings, when their source was not
 * always ready: each costs a poll, never a source read. Empty otherwise.
 */
export function summarizePolls(report: Report, labelOf: (readerId: string) => string): string {
  const waited = report.runs.filter((r) => (r.pendings ?? 0) > 0);
  if (waited.length === 0) return "";
  const parts = waited.map((r) => `${labelOf(r.reader)} ${formatCount(r.polls ?? 0)} (${formatCount(r.pendings ?? 0)} Pending)`);
  return `Polls of the async readers' futures: ${parts.join(", ")}; each Pending costs a poll, never a source read.`;
}

export function showSummary(el: HTMLElement, report: Report | null, labelOf: (readerId: string) => string): void {
  setText(
    el,
    report
      ? [summarize(report, labelOf), summarizeMemory(report, labelOf), summarizePolls(report, labelOf)].filter(Boolean).join(" ")
      : "",
  );
}
