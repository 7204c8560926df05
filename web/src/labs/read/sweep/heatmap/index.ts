// The two-axis sweep's heatmap figure (owns it): one metric of one reader
// at a time, chosen beside it ("Colour by", "Reader"), the canvas
// (draw.ts) and a caption that says what the knee line shows. It opens on a
// reader whose cells differ until the person picks one, and redraws at its
// box's size (a phone turned, a projector, an embed's frame).

import type { SweepAxisInfo, SweepReport } from "../../../../engine/types.gen";
import { readTheme } from "../../../../shared/chart-kit";
import { h, replaceChildren, setText } from "../../../../shared/dom";
import type { Axes } from "../axes";
import { NO_TIME_KNEE } from "../headline";
import { METRICS, shortTick } from "../metrics";
import { drawHeatmap, varyingReader, type HeatmapSpec } from "./draw";

/** Allocations are the same at every cell of most sweeps: the heatmap leaves them to the table. */
const HEATMAP_METRICS = METRICS.filter((m) => m.id !== "allocations");

export interface Heatmap {
  element: HTMLElement;
  canvas: HTMLCanvasElement;
  /** Draws `report` (a two-axis sweep's points so far). */
  draw(report: SweepReport): void;
  /** The drawing's title, for its export. */
  title(report: SweepReport): string;
  retheme(): void;
}

/** `fallbackWidth`: the width to draw at while the figure has none of its own (hidden). */
export function createHeatmap(axes: Axes, labelOf: (reader: string) => string, fallbackWidth: () => number): Heatmap {
  let theme = readTheme();
  const metricSelect = h("select", { id: "heatmap-metric" }, ...HEATMAP_METRICS.map((m) => h("option", { value: m.id }, m.title)));
  const readerSelect = h("select", { id: "heatmap-reader" });
  const canvas = h("canvas", { id: "sweep-heatmap", role: "img", "aria-label": "Heatmap of the two-axis sweep; the table below lists every cell" });
  const caption = h("figcaption", { class: "chart-note" });
  const element = h(
    "figure",
    { class: "sweep-heatmap", hidden: true },
    h("div", { class: "heatmap-controls" }, h("label", { for: "heatmap-metric" }, "Colour by"), metricSelect, h("label", { for: "heatmap-reader" }, "Reader"), readerSelect),
    canvas,
    caption,
  );
  const readersOf = (report: SweepReport): string[] => report.points[0]?.report.runs.map((r) => r.reader) ?? [];

  function spec(report: SweepReport): HeatmapSpec & { title: string } {
    const metric = HEATMAP_METRICS.find((m) => m.id === metricSelect.value) ?? HEATMAP_METRICS[0]!;
    const readers = readersOf(report);
    const readerIndex = Math.max(0, readers.indexOf(readerSelect.value));
    const rows = axes.infoOf(report.sweep.axis);
    const columns = axes.infoOf(report.sweep.across?.axis ?? report.sweep.axis);
    return {
      report,
      readerIndex,
      metric: metric.id,
      value: metric.value,
      format: metric.format,
      short: (n: number) => shortTick({ ...metric, log: false }, n),
      // An axis in bytes says so beside its title (a rate: bytes per second); its ticks are K/M sizes.
      rowTitle: axisTitle(rows),
      columnTitle: axisTitle(columns),
      rowLabel: (v: number) => axes.formatValue(rows, v),
      columnLabel: (v: number) => axes.formatValue(columns, v),
      theme,
      title: `${metric.title} of ${labelOf(readers[readerIndex] ?? "")} by ${rows.label.toLowerCase()} and ${columns.label.toLowerCase()}`,
    };
  }

  /** The reader the person picked; until then the heatmap opens on one whose cells differ. */
  let picked: string | null = null;
  let last: SweepReport | null = null;
  function draw(report: SweepReport): void {
    last = report;
    const readers = readersOf(report);
    const keys = readers.join(",");
    if (readerSelect.dataset["readers"] !== keys) {
      replaceChildren(readerSelect, ...readers.map((r) => h("option", { value: r }, labelOf(r))));
      readerSelect.dataset["readers"] = keys;
    }
    const exact = METRICS.filter((m) => m.id !== "time").map((m) => m.value);
    readerSelect.value = picked !== null && readers.includes(picked) ? picked : (readers[varyingReader(report, exact)] ?? "");
    const drawn = spec(report);
    // A box that grows to fill its container (an embed's frame, a projector's screen) sets the height too: what its pickers and caption leave.
    const fits = getComputedStyle(element).flexGrow !== "0";
    drawHeatmap(canvas, drawn, element.clientWidth || fallbackWidth() || 640, fits ? heightLeft(element, canvas) : undefined);
    const knees = report.knees.filter((k) => k.reader === readers[drawn.readerIndex] && k.metric === drawn.metric);
    const rows = drawn.rowTitle.toLowerCase();
    setText(
      caption,
      `${drawn.title}, on a log colour scale (the table below lists every cell). ` +
        (knees.some((k) => !k.first)
          ? `The dashed line along the outlined cells is the knee in each column: from there down, a bigger ${rows} stops paying.`
          : knees.length > 0
            ? `No knee line: in no column does a bigger ${rows} pay${report.complete ? "" : " so far"}.`
            : `No knee line: ${NO_TIME_KNEE}.`),
    );
  }
  readerSelect.addEventListener("change", () => {
    picked = readerSelect.value;
  });
  for (const select of [metricSelect, readerSelect]) select.addEventListener("change", () => last && draw(last));
  // The canvas is drawn at the box's size: redrawn when that changes.
  let drawnSize = "";
  new ResizeObserver(() => {
    const size = `${element.clientWidth}×${element.clientHeight}`;
    if (size === drawnSize || element.hidden || !last?.sweep.across) return;
    drawnSize = size;
    draw(last);
  }).observe(element);

  return {
    element,
    canvas,
    draw,
    title: (report) => spec(report).title,
    retheme() {
      theme = readTheme();
    },
  };
}

/** A heatmap axis's title with the unit of its ticks: its label, then ", bytes" for an axis in bytes (", bytes/s" for a rate). */
export function axisTitle(axis: SweepAxisInfo): string {
  return axis.bytes ? `${axis.label}, bytes${axis.per}` : axis.label;
}

/** The height a box leaves `part`: its own, less its other children's (with their margins). */
function heightLeft(box: HTMLElement, part: HTMLElement): number {
  let room = box.clientHeight;
  for (const child of box.children) {
    if (child === part || !(child instanceof HTMLElement) || child.offsetParent === null) continue;
    const style = getComputedStyle(child);
    room -= child.offsetHeight + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
  }
  return Math.max(0, room);
}
