// The sweep's table (owns its box): one row per point, each reader's four
// metrics, a knee marked ◆; the charts' and the heatmap's text equivalent.

import type { Knee, Metric, SweepReport } from "../../../engine/types.gen";
import { h, replaceChildren } from "../../../shared/dom";
import type { Axes } from "./axes";
import { METRICS } from "./metrics";

export interface SweepTable {
  element: HTMLElement;
  show(report: SweepReport, readers: readonly string[], kneeOf: (reader: string, metric: Metric, across?: number) => Knee | undefined): void;
}

export function createSweepTable(axes: Axes, labelOf: (reader: string) => string): SweepTable {
  const element = h("div", { class: "sweep-table-wrap" });
  // The scroll box gets focus so keyboard users can scroll a wide table (as the single run's table does).
  return {
    element,
    show(report, readers, kneeOf) {
      const axis = axes.infoOf(report.sweep.axis);
      const second = report.sweep.across ? axes.infoOf(report.sweep.across.axis) : null;
      // Two header rows: each reader over its four metrics.
      const groups = h("tr", {}, h("td", {}), ...readers.map((reader) => h("th", { scope: "colgroup", colspan: METRICS.length, class: "reader-group" }, labelOf(reader))));
      const head = h(
        "tr",
        {},
        h("th", { scope: "col" }, second ? `${axis.label} × ${second.label.toLowerCase()}` : axis.label),
        ...readers.flatMap(() => METRICS.map((m) => h("th", { scope: "col" }, m.title.replace(" per run", "").toLowerCase()))),
      );
      const cell = (reader: string, i: number, point: SweepReport["points"][number], metric: (typeof METRICS)[number]): HTMLElement => {
        const knee = kneeOf(reader, metric.id, point.across);
        const isKnee = knee !== undefined && !knee.first && knee.value === point.value;
        const tag = isKnee ? h("span", { class: "knee-tag" }, " ◆ knee") : null;
        return h("td", { class: "num", "data-reader": reader, "data-metric": metric.id, "data-knee": String(isKnee) }, metric.format(metric.value(point.report.runs[i]!)), tag);
      };
      const rows = report.points.map((p) => {
        const label = second && p.across !== undefined ? `${axes.formatValue(axis, p.value)} × ${axes.formatValue(second, p.across)}` : axes.formatValue(axis, p.value);
        return h("tr", { "data-value": p.value, "data-across": p.across }, h("th", { scope: "row" }, label), ...readers.flatMap((reader, i) => METRICS.map((m) => cell(reader, i, p, m))));
      });
      const along = axis.label.toLowerCase();
      const by = second ? second.label.toLowerCase() : "";
      const caption = `Sweep of ${along}${second ? ` by ${by}` : ""}: one row per point (${report.points.length} of ${report.total}); ◆ marks a knee${second ? ` along the ${along} at that ${by}` : ""}.`;
      replaceChildren(element, h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Sweep table" }, h("table", { class: "sweep-table" }, h("caption", {}, caption), h("thead", {}, groups, head), h("tbody", {}, ...rows))));
    },
  };
}
