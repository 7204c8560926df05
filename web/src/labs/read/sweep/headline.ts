// The sweep's headline: where a bigger value stops paying (the knee), on
// one axis or, on two, the knee line along the first axis.

import type { Knee, SweepAxisInfo, SweepReport } from "../../../engine/types.gen";
import { formatCount, listText } from "../../../shared/format";

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
    const parts = kneeRuns(fell, report.across_values).map(
      ({ value, from, to }) => `${valueText(axis, value)} at ${by} ${valueText(across, from)}${to === from ? "" : ` to ${valueText(across, to)}`}`,
    );
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

/**
 * A reader's knees, column by column, as runs of neighbouring columns (in the
 * grid's order) whose knee sits at the same value: "4 KiB at 2 to 8 MiB/s"
 * instead of a clause per column.
 */
export function kneeRuns(knees: readonly { value: number; across?: number }[], columns: readonly number[]): { value: number; from: number; to: number }[] {
  const runs: { value: number; from: number; to: number; last: number }[] = [];
  const byColumn = new Map(knees.map((k) => [k.across!, k.value]));
  columns.forEach((column, index) => {
    const value = byColumn.get(column);
    if (value === undefined) return;
    const run = runs.at(-1);
    if (run && run.value === value && run.last === index - 1) {
      run.to = column;
      run.last = index;
    } else runs.push({ value, from: column, to: column, last: index });
  });
  return runs.map(({ value, from, to }) => ({ value, from, to }));
}
