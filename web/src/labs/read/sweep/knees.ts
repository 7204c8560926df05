// The sweep's knees in words (owns the heading, the list and the
// definition under the charts): per reader and metric, where a bigger value
// stops paying; on two axes, the knee along the first axis at each value of
// the second, columns that knee alike said together.

import type { Knee, SweepAxisInfo, SweepReport } from "../../../engine/types.gen";
import { h, replaceChildren, setText } from "../../../shared/dom";
import type { Axes } from "./axes";
import { NO_TIME_KNEE } from "./headline";
import { METRICS, type MetricView } from "./metrics";

export interface SweepKnees {
  elements: HTMLElement[];
  show(report: SweepReport, readers: readonly string[]): void;
}

export function createKnees(axes: Axes, labelOf: (reader: string) => string, tolerance: number): SweepKnees {
  const heading = h("h3", { class: "sweep-knees-title" }, "Knees");
  const list = h("ul", { class: "sweep-knees" });
  const pct = `${Math.round(tolerance * 100)}%`;
  const definition = h(
    "p",
    { class: "sweep-note" },
    `Knee: the smallest value whose count is within ${pct} of the best anywhere in the sweep, for that reader; beyond it a bigger value wins at most ${pct} more. For time (measured, so noisy): the smallest value clearly faster than the first point after which no point is clearly faster, that is with all its samples more than ${pct} below this point's; none where the times rise and fall again by more than that.`,
  );

  /** One reader's knee on one metric, as a list item (none: a count always has a knee; a zig-zagging time has none). */
  function item(report: SweepReport, axis: SweepAxisInfo, reader: string, metric: MetricView): HTMLElement | null {
    const knee = report.knees.find((k) => k.reader === reader && k.metric === metric.id);
    const what = `${labelOf(reader)}, ${metric.title.toLowerCase()}: `;
    if (!knee) {
      return metric.id === "time" && report.points.length > 0 ? h("li", { "data-reader": reader, "data-metric": metric.id, "data-value": "" }, `${what}no knee: ${NO_TIME_KNEE}.`) : null;
    }
    const text = knee.first
      ? `${what}no bigger value pays in this range (${metric.format(knee.at_knee)} from ${axes.axisWords(axis, knee.value)} on).`
      : `${what}knee at ${axes.axisWords(axis, knee.value)} (${metric.format(knee.at_knee)}; best ${metric.format(knee.best)}).`;
    return h("li", { "data-reader": reader, "data-metric": metric.id, "data-value": knee.value, "data-first": String(knee.first) }, text);
  }

  function showOne(report: SweepReport, axis: SweepAxisInfo, readers: readonly string[]): void {
    const partial = !report.complete;
    setText(heading, !axis.knee ? "No knee on this axis" : partial ? `Knees among the ${report.points.length} points measured so far` : `Knees: where a bigger ${axis.label.toLowerCase()} stops paying`);
    if (!axis.knee) {
      replaceChildren(list, h("li", {}, `A longer ${axis.id === "len" ? "stream" : "list of streams"} only costs more: the counts grow with it, so there is no point where growing it stops paying.`));
      return;
    }
    replaceChildren(list, ...readers.flatMap((reader) => METRICS.map((metric) => item(report, axis, reader, metric))));
  }

  /** One reader's knees on one metric of a two-axis sweep, column by column, in a sentence. */
  function gridItem(report: SweepReport, axis: SweepAxisInfo, across: SweepAxisInfo, reader: string, metric: MetricView): HTMLElement | null {
    const measured = report.across_values.filter((a) => report.points.some((p) => p.across === a));
    const knees: Knee[] = report.knees.filter((k) => k.reader === reader && k.metric === metric.id && k.across !== undefined);
    // Columns with no knee: a time curve that zig-zags (counts always have one).
    const none = metric.id === "time" ? measured.filter((a) => !knees.some((k) => k.across === a)) : [];
    if (knees.length === 0 && none.length === 0) return null;
    // Columns that knee at the same value, together; those where nothing fell, together.
    const byValue = new Map<number | "first", number[]>();
    for (const k of knees) {
      const key = k.first ? "first" : k.value;
      byValue.set(key, [...(byValue.get(key) ?? []), k.across!]);
    }
    const at = (columns: number[]): string => `at ${across.label.toLowerCase()} ${columns.map((a) => axes.valueWords(across, a)).join(", ")}`;
    const parts = [...byValue].map(([value, columns]) => (value === "first" ? `no bigger ${axis.label.toLowerCase()} pays ${at(columns)}` : `${axes.axisWords(axis, value)} ${at(columns)}`));
    if (none.length > 0) parts.push(`no knee ${at(none)} (${NO_TIME_KNEE})`);
    return h("li", { "data-reader": reader, "data-metric": metric.id }, `${labelOf(reader)}, ${metric.title.toLowerCase()}: ${parts.join("; ")}.`);
  }

  function showGrid(report: SweepReport, axis: SweepAxisInfo, readers: readonly string[]): void {
    const across = axes.infoOf(report.sweep.across!.axis);
    const soFar = report.complete ? "" : ` (${report.points.length} of ${report.total} points so far)`;
    setText(heading, !axis.knee ? "No knee on this axis" : `Knee line: where a bigger ${axis.label.toLowerCase()} stops paying, at each ${across.label.toLowerCase()}${soFar}`);
    if (!axis.knee) {
      replaceChildren(list, h("li", {}, `A bigger ${axis.label.toLowerCase()} only costs more: put an axis with a knee (capacity, read size, chunk size) first.`));
      return;
    }
    replaceChildren(list, ...readers.flatMap((reader) => METRICS.map((metric) => gridItem(report, axis, across, reader, metric))));
  }

  return {
    elements: [heading, list, definition],
    show(report, readers) {
      const axis = axes.infoOf(report.sweep.axis);
      if (report.sweep.across) showGrid(report, axis, readers);
      else showOne(report, axis, readers);
    },
  };
}
