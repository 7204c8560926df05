// The single run's headline: a few sentences comparing the reader with the
// fewest source reads against the one with the most, then memory and the
// async readers' polls where they differ.

import type { Report, Run, Stats } from "../../../engine/types.gen";
import type { Times } from "../../../shared/lab";
import { formatCount, formatNs, formatRatio, formatRatioRange, listText, plural } from "../../../shared/format";

/** A run's total time per run: measured CPU, shifted by its modelled I/O (exact, so it adds no spread). */
export function totalTime(run: Run): Stats {
  const io = run.modelled_io_ns;
  return { ...run.cpu_ns, min: run.cpu_ns.min + io, median: run.cpu_ns.median + io, max: run.cpu_ns.max + io };
}

/**
 * The single run's first sentence. `buffered` says whether a reader keeps
 * a buffer (the schema's reader shapes): equal counts mean "the buffer saves
 * nothing" only when an unbuffered reader is among the readers compared.
 * Times are claimed only from the full measurement, and one is called
 * faster or slower only when the engine's verdict finds their samples
 * apart: the sentence does not change its mind between the quick estimate
 * and the full measurement. The time ratio is the range the samples
 * support ("40–60×"), not the medians' ratio alone.
 */
export function summarize(
  report: Report,
  labelOf: (readerId: string) => string,
  buffered: (readerId: string) => boolean,
  times: Times,
): string {
  const runs = report.runs;
  const total = (i: number): number => (runs[i]?.cpu_ns.median ?? 0) + (runs[i]?.modelled_io_ns ?? 0);
  const timed = report.stage === "full";
  if (runs.length === 0) return "";
  if (runs.length === 1) {
    const r = runs[0]!;
    const time = timed ? `; ${formatNs(total(0))} per run including modelled I/O` : "";
    return `${labelOf(r.reader)} made ${formatCount(r.source_reads)} source reads for ${formatCount(r.app_reads)} application reads${time}.`;
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
    if (runs.some((r) => !buffered(r.reader))) {
      return `All readers made the same number of source reads (${formatCount(b.source_reads)}): at these settings the buffer saves no system calls.`;
    }
    const apps = Math.max(...runs.map((r) => r.app_reads));
    const forApps = apps > b.source_reads ? ` for ${formatCount(apps)} application reads` : "";
    if (runs.length > 2) {
      return `${listText(runs.map((r) => labelOf(r.reader)))} made the same ${formatCount(b.source_reads)} source reads${forApps}: no buffer saves more system calls than another.`;
    }
    return `${listText(runs.map((r) => labelOf(r.reader)))} made the same number of source reads (${formatCount(b.source_reads)}${forApps}): at these settings neither buffer saves more system calls than the other.`;
  }
  const readRatio = w.source_reads / Math.max(1, b.source_reads);
  const reads = `${labelOf(b.reader)} made ${formatRatio(readRatio)} fewer source reads than ${labelOf(w.reader)} (${formatCount(b.source_reads)} vs ${formatCount(w.source_reads)})`;
  if (!timed) return `${reads}.`;
  const both = `(${formatNs(total(best))} vs ${formatNs(total(worst))})`;
  const range = (fast: Stats, slow: Stats): string => {
    const r = times.timeRatio(fast, slow);
    return r ? formatRatioRange(r.low, r.high) : formatRatio(slow.median / Math.max(1e-9, fast.median));
  };
  const time = {
    faster: () => `and took ${range(totalTime(b), totalTime(w))} less time per run with modelled I/O ${both}`,
    slower: () => `but took ${range(totalTime(w), totalTime(b))} more time per run with modelled I/O ${both}`,
    same: () => `in the same time per run with modelled I/O, within the noise of the samples ${both}`,
  }[times.verdict(totalTime(b), totalTime(w))]();
  return `${reads} ${time}.`;
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
  const cost = "each Pending costs a poll, never a source read";
  // Readers that waited alike are named together (the async lesson's two readers poll the same).
  const first = waited[0]!;
  if (waited.length > 1 && waited.every((r) => r.polls === first.polls && r.pendings === first.pendings)) {
    return `The async readers each polled ${formatCount(first.polls ?? 0)} times, ${formatCount(first.pendings ?? 0)} of them Pending: a poll each, never a source read.`;
  }
  const parts = waited.map((r) => `${labelOf(r.reader)} ${formatCount(r.polls ?? 0)} (${formatCount(r.pendings ?? 0)} Pending)`);
  return `Polls of the async readers' futures: ${parts.join(", ")}; ${cost}.`;
}

/** The single run's headline: what the source reads say, then memory when it differs, then the async readers' Pendings. */
export function runHeadline(
  report: Report,
  labelOf: (readerId: string) => string,
  buffered: (readerId: string) => boolean,
  times: Times,
): string {
  return [summarize(report, labelOf, buffered, times), summarizeMemory(report, labelOf), summarizePolls(report, labelOf)]
    .filter(Boolean)
    .join(" ");
}
