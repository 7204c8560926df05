// The read lab's headlines: a few sentences about the view on screen.
// A single run compares the reader with the fewest source reads against the
// one with the most; a sweep reports its knee (where a bigger value stops
// paying). The timeline's headline is the timeline's own (timeline.ts).

import type { Knee, Report, Run, Stats, SweepAxisInfo, SweepReport } from "../../engine/types.gen";
import type { Times } from "../../shared/lab";
import { formatCount, formatNs, formatRatio, formatRatioRange, listText } from "../../shared/format";

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

/** Why a measured time curve has no knee (`time_knee` in crate/src/engine/sweep.rs returns none). */
export const NO_TIME_KNEE = "the times rise and fall again by more than their samples' spread (the load on the machine changed between points), so they support no knee";

/**
 * The sweep's headline: where source reads stop falling (the knee), per
 * group of readers that knee at the same value, with the count there and
 * at the first point; on an axis without a knee, how the counts grow.
 * The axis is named by its label and each value in words (`valueText`:
 * "512 B"), never by its link key. `running`: more points are still coming.
 */
export function sweepHeadline(
  report: SweepReport,
  axis: SweepAxisInfo,
  labelOf: (readerId: string) => string,
  valueText: (value: number) => string,
  running: boolean,
  /** The schema's knee tolerance (0.05: within 5 % of the best). */
  tolerance: number,
): string {
  const points = report.points;
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return "";
  const prefix = running || !report.complete ? `So far (${points.length} of ${report.values.length} points): ` : "";
  const readers = first.report.runs.map((r) => r.reader);
  const reads = (point: typeof first, i: number): number => point.report.runs[i]?.source_reads ?? 0;
  const name = axis.label.toLowerCase();
  if (!axis.knee) {
    const parts = readers.map((r, i) => `${labelOf(r)} ${formatCount(reads(first, i))} at ${name} ${valueText(first.value)}, ${formatCount(reads(last, i))} at ${valueText(last.value)}`);
    return `${prefix}Source reads grow with the ${name}: no value is a knee, a bigger one only costs more (${parts.join("; ")}).`;
  }
  const knees: Knee[] = readers.flatMap((r) => report.knees.filter((k) => k.reader === r && k.metric === "source_reads"));
  const groups = new Map<string, { knee: Knee; names: string[]; before: number[] }>();
  for (const knee of knees) {
    const i = readers.indexOf(knee.reader);
    const key = knee.first ? "first" : `${knee.value}:${knee.at_knee}`;
    const group = groups.get(key) ?? { knee, names: [], before: [] };
    group.names.push(labelOf(knee.reader));
    group.before.push(reads(first, i));
    groups.set(key, group);
  }
  const sentences = [...groups.values()].map(({ knee, names, before }) => {
    const who = listText(names);
    if (knee.first) {
      return `for ${who} a bigger ${name} never cut source reads in this range (${formatCount(knee.at_knee)} from ${name} ${valueText(knee.value)} on)`;
    }
    const from = [...new Set(before)].map(formatCount).join(" and ");
    return `source reads stop falling at ${name} ${valueText(knee.value)} for ${who}: ${formatCount(knee.at_knee)} from there on, against ${from} at ${valueText(first.value)}`;
  });
  if (sentences.length === 0) return `${prefix}No knee yet.`;
  const text = sentences.join("; ");
  // Said only where some reader has a knee: one whose reads never fell has none to be past.
  const past = knees.some((k) => !k.first) ? ` Past the knee a bigger value buys at most ${Math.round(tolerance * 100)}% fewer reads.` : "";
  return `${prefix}${text.charAt(0).toUpperCase()}${text.slice(1)}.${past}`;
}

/**
 * A two-axis sweep's headline: per reader, where source reads stop falling
 * along the first axis, said once when every column knees at the same value
 * and column by column otherwise (the heatmap's knee line in words). Axes by
 * their labels, values in words (`valueText`), as in `sweepHeadline`.
 */
export function gridHeadline(
  report: SweepReport,
  axis: SweepAxisInfo,
  across: SweepAxisInfo,
  labelOf: (readerId: string) => string,
  valueText: (axis: SweepAxisInfo, value: number) => string,
  running: boolean,
): string {
  const first = report.points[0];
  if (!first) return "";
  const prefix = running || !report.complete ? `So far (${report.points.length} of ${report.total} points): ` : "";
  const size = `${report.values.length} × ${report.across_values.length}`;
  const along = axis.label.toLowerCase();
  const by = across.label.toLowerCase();
  if (!axis.knee) {
    return `${prefix}A grid of ${along} by ${by} (${size}): a bigger ${along} only costs more, so there is no knee line.`;
  }
  // Column by column the knees of a grid still being measured would be a long list that changes with
  // every point (and pushes what follows the headline about): the knee line is said once it is whole.
  if (running || !report.complete) {
    return `${prefix}a grid of ${along} by ${by} (${size}); where source reads stop falling is said once every point is in.`;
  }
  // Readers whose knees sit where the first axis reaches the second's value, in every column (a chunk-size
  // column knees at the capacity of that chunk): the diagonal, said once for them all.
  const readers = first.report.runs.map((r) => r.reader);
  const diagonal = (reader: string): boolean =>
    report.across_values.length > 1 &&
    report.across_values.every((a) => report.knees.some((k) => k.reader === reader && k.metric === "source_reads" && k.across === a && !k.first && k.value === a));
  const onDiagonal = readers.filter(diagonal);
  const said = onDiagonal.length > 0 ? [`For ${listText(onDiagonal.map(labelOf))}, source reads stop falling where the ${along} reaches the ${by}, in every column`] : [];
  // Each other reader's knees as a sentence about "whose" source reads; readers with the same knees share one.
  const whose = new Map<string, string[]>();
  for (const reader of readers.filter((r) => !onDiagonal.includes(r))) {
    const knees = report.knees.filter((k) => k.reader === reader && k.metric === "source_reads" && k.across !== undefined);
    // A knee at the first point is no knee: nothing fell there.
    const fell = knees.filter((k) => !k.first);
    const flat = knees.filter((k) => k.first).map((k) => valueText(across, k.across!));
    const values = [...new Set(fell.map((k) => k.value))];
    const never = flat.length > 0 ? `, and never fall at ${by} ${listText(flat)}` : "";
    const parts = fell.map((k) => `${valueText(axis, k.value)} at ${by} ${valueText(across, k.across!)}`);
    // The grid is whole here, and counts knee in every column (at its first point where nothing fell).
    const rest =
      fell.length === 0
        ? `source reads never fall with a bigger ${along} in this range, at every ${by}`
        : values.length === 1 && flat.length === 0
          ? `source reads stop falling at ${along} ${valueText(axis, values[0]!)} at every ${by}`
          : `source reads stop falling at ${along} ${listText(parts)}${never}`;
    whose.set(rest, [...(whose.get(rest) ?? []), labelOf(reader)]);
  }
  const sentences = [...said, ...[...whose].map(([rest, names]) => `${listText(names.map((n) => `${n}'s`))} ${rest}`)];
  return `${prefix}${sentences.join("; ")} (grid of ${size}).`;
}
