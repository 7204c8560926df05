// The sweep's line charts (owns their figures): one per metric against the
// axis, one line per reader, each knee marked. The x axis ticks at the swept
// powers of two; byte axes tick at binary steps; a reader whose line equals
// an earlier one's is drawn as a wide halo under it, and its legend entry
// and the caption say so.
//
// The charts are built when the first sweep draws, not with the page (four
// chart.js instances would cost every visit's first results); their figures
// come with the view at their final size, so the charts draw into space
// that is already theirs. Each point only swaps data and calls
// `update("none")` (chart.js performance guide).

import type { Chart, ChartDataset, Plugin } from "chart.js";
import type { Knee, Metric, SweepAxisInfo, SweepReport } from "../../../engine/types.gen";
import { binaryTicks, readTheme, themeAxes, type Theme } from "../../../shared/chart-kit";
import { chartLib } from "../../../shared/chart-lib";
import { h, setText } from "../../../shared/dom";
import { formatBinaryBytes } from "../../../shared/format";
import type { Axes } from "./axes";
import { placeLabel, type Box, type Polyline } from "./label-place";
import { FALLBACK_STYLE, METRICS, READER_STYLE, shortTick, type MetricView } from "./metrics";

type XY = { x: number; y: number };

/** chart.js's Chart with the line chart's parts: loaded when the first sweep draws. */
let LineChart: typeof Chart | null = null;

export async function lineChartLoaded(): Promise<void> {
  LineChart ??= await chartLib();
}

/** The knee lines a chart draws (kept beside the chart so the plugin stays generic). */
interface KneeMarks {
  marks: { value: number; text: string }[];
  theme: Theme;
}
const kneesOf = new WeakMap<Chart, KneeMarks>();

/** A dashed vertical line at each knee with its label along the top. */
const kneePlugin: Plugin<"line"> = {
  id: "buflabKnees",
  afterDatasetsDraw(chart) {
    const extras = kneesOf.get(chart);
    const x = chart.scales["x"];
    if (!extras || !x || extras.marks.length === 0) return;
    const { ctx, chartArea } = chart;
    const { theme } = extras;
    ctx.save();
    ctx.lineWidth = 1.5;
    ctx.setLineDash([5, 4]);
    ctx.font = `600 ${theme.fontPx}px ${getComputedStyle(chart.canvas).fontFamily}`;
    ctx.textBaseline = "top";
    ctx.textAlign = "left";
    const lines: Polyline[] = chart.data.datasets.flatMap((_, d) => (chart.isDatasetVisible(d) ? [chart.getDatasetMeta(d).data.map((p) => ({ x: p.x, y: p.y }))] : []));
    const taken: Box[] = [];
    for (const mark of extras.marks) {
      const px = x.getPixelForValue(mark.value);
      if (!Number.isFinite(px)) continue;
      ctx.strokeStyle = theme.text;
      ctx.beginPath();
      ctx.moveTo(px, chartArea.top);
      ctx.lineTo(px, chartArea.bottom);
      ctx.stroke();
      const width = ctx.measureText(mark.text).width;
      // Text right of the line; left of it near the right edge; never past the plot.
      let left = px + 4;
      if (left + width > chartArea.right) left = px - 4 - width;
      left = Math.max(chartArea.left + 2, Math.min(left, chartArea.right - width - 2));
      // The first row down that hides no reader's line and no other label.
      const box = placeLabel(left - 2, width + 4, theme.fontPx + 3, chartArea, lines, taken);
      taken.push(box);
      ctx.globalAlpha = 0.85;
      ctx.fillStyle = theme.surface;
      ctx.fillRect(box.left, box.top, box.right - box.left, box.bottom - box.top);
      ctx.globalAlpha = 1;
      ctx.fillStyle = theme.text;
      ctx.fillText(mark.text, box.left + 2, box.top + 1);
    }
    ctx.restore();
  },
};

/** One metric's line chart, with what its axis and tooltip read. */
function buildChart(canvas: HTMLCanvasElement, metric: MetricView, axes: Axes, theme: Theme) {
  if (!LineChart) throw new Error("The sweep's charts were built before chart.js was loaded.");
  let ticks: number[] = [];
  let axisInfo: SweepAxisInfo = axes.all[0]!;
  const chart = new LineChart<"line", XY[], number>(canvas, {
    type: "line",
    data: { datasets: [] },
    plugins: [kneePlugin],
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: "nearest", intersect: false, axis: "x" },
      plugins: {
        legend: { position: "bottom", labels: { usePointStyle: true, boxWidth: 10, boxHeight: 10 } },
        tooltip: {
          callbacks: {
            title: (items) => (items[0] ? `${axisInfo.label} ${axes.formatValue(axisInfo, (items[0].raw as XY).x)}` : ""),
            label: (item) => `${item.dataset.label ?? ""}: ${metric.format((item.raw as XY).y)}`,
          },
        },
      },
      scales: {
        x: {
          type: "logarithmic",
          title: { display: true, text: "" },
          afterBuildTicks: (scale) => {
            scale.ticks = ticks.map((value) => ({ value }));
          },
          ticks: { callback: (value) => axes.formatValue(axisInfo, Number(value)), maxRotation: 0, autoSkip: true },
        },
        y: metric.log
          ? { type: "logarithmic", ticks: { callback: (v) => shortTick(metric, Number(v)) } }
          : metric.id === "bytes_copied"
            ? {
                type: "linear",
                beginAtZero: true,
                // Byte counts tick at binary steps (256 KiB, 512 KiB, …), never at decimal ones.
                afterBuildTicks: (scale) => {
                  scale.ticks = binaryTicks(scale.max).map((value) => ({ value }));
                },
                ticks: { callback: (v) => formatBinaryBytes(Number(v)) },
              }
            : { type: "linear", beginAtZero: true, ticks: { precision: 0, callback: (v) => shortTick(metric, Number(v)) } },
      },
    },
  });
  themeAxes(chart as unknown as Chart, theme);
  kneesOf.set(chart as unknown as Chart, { marks: [], theme });
  const setAxis = (info: SweepAxisInfo, values: number[]): void => {
    axisInfo = info;
    ticks = values;
    const x = chart.options.scales?.["x"];
    if (!x) return;
    x.min = values[0];
    x.max = values[values.length - 1];
    const title = (x as { title?: { text?: string } }).title;
    if (title) title.text = info.bytes ? `${info.label} (bytes${info.per}, log₂ scale)` : `${info.label} (log₂ scale)`;
  };
  return { chart, setAxis };
}

/** One reader's line: a line equal to an earlier reader's (`twin`) is a wide translucent halo under it with large hollow markers, so both stay visible. */
function dataset(reader: string, label: string, data: XY[], knee: Knee | undefined, twin: string | undefined): ChartDataset<"line", XY[]> {
  const style = READER_STYLE[reader] ?? FALLBACK_STYLE;
  const isKnee = (d: XY): boolean => knee !== undefined && d.x === knee.value;
  return {
    label: twin ? `${label} (= ${twin})` : label,
    data,
    borderColor: twin ? `${style.colour}80` : style.colour,
    backgroundColor: twin ? "transparent" : style.colour,
    borderDash: twin ? [] : style.dash,
    borderWidth: twin ? 10 : 2,
    pointStyle: data.map((d) => (isKnee(d) ? "rectRot" : style.point)),
    pointRadius: data.map((d) => (isKnee(d) ? 8 : 3) + (twin ? 5 : 0)),
    pointBorderColor: style.colour,
    pointBorderWidth: data.map((d) => (isKnee(d) ? 2.5 : twin ? 2 : 1)),
  };
}

/** B's sweep drawn beside A's (a comparison link's two sweeps), and each side's name for the legend. */
export interface SweepPairLines {
  b: SweepReport;
  sides: { a: string; b: string };
}

/** B's line of one reader: A's colour with a longer dash and hollow markers, its knee marked as A's is. */
function bLine(reader: string, label: string, data: XY[], knee: Knee | undefined): ChartDataset<"line", XY[]> {
  return { ...dataset(reader, label, data, knee, undefined), borderDash: [9, 4], backgroundColor: "transparent", pointBackgroundColor: "transparent" };
}

/** B's knee marks: one per value, naming B (and the readers, when not every reader knees there). */
function pairMarks(b: SweepReport, metric: MetricView, readers: readonly string[], format: (v: number) => string): { value: number; text: string }[] {
  const byValue = new Map<number, string[]>();
  for (const reader of readers) {
    const knee = b.knees.find((k) => k.reader === reader && k.metric === metric.id && k.across === undefined);
    if (knee && !knee.first) byValue.set(knee.value, [...(byValue.get(knee.value) ?? []), reader]);
  }
  return [...byValue].map(([value, names]) => ({ value, text: names.length === readers.length ? `knee B ${format(value)}` : `knee B ${format(value)}: ${names.join(", ")}` }));
}

export interface SweepCharts {
  element: HTMLElement;
  /** One step per chart, each drawing `report` into its chart (the charts are built at the first); with `pair`, B's lines beside them. */
  steps(report: SweepReport, readers: readonly string[], kneeOf: (reader: string, metric: Metric) => Knee | undefined, pair?: SweepPairLines | null): (() => void)[];
  /** The canvas of chart `i` (in METRICS' order), built if it is not yet. */
  canvas(i: number): Promise<HTMLCanvasElement>;
  retheme(): void;
}

export function createSweepCharts(axes: Axes, labelOf: (reader: string) => string): SweepCharts {
  let theme = readTheme();
  const figures = METRICS.map((metric) => {
    const canvas = h("canvas", { role: "img", "aria-label": `${metric.title} against the swept axis` });
    const caption = h("p", { class: "chart-note" }, metric.note);
    const block = h("figure", { class: "sweep-chart", "data-metric": metric.id }, h("figcaption", { class: "chart-title" }, metric.title), h("div", { class: "sweep-chart-holder" }, canvas), caption);
    return { canvas, caption, block };
  });
  let built: ReturnType<typeof buildChart>[] | null = null;
  const charts = (): ReturnType<typeof buildChart>[] => (built ??= METRICS.map((metric, i) => buildChart(figures[i]!.canvas, metric, axes, theme)));

  /** Draws `report` into chart `i`: its lines, its caption (naming twin lines) and its knee marks. */
  function draw(i: number, report: SweepReport, readers: readonly string[], kneeOf: (reader: string, metric: Metric) => Knee | undefined, pair: SweepPairLines | null): void {
    const metric = METRICS[i]!;
    const { chart, setAxis } = charts()[i]!;
    const axis = axes.infoOf(report.sweep.axis);
    setAxis(axis, pair ? [...new Set([...report.values, ...pair.b.values])].sort((x, y) => x - y) : report.values);
    const series = readers.map((_, r) => report.points.map((p) => metric.value(p.report.runs[r]!)));
    // A reader whose values equal an earlier reader's at every point.
    const sameAs = series.map((values, r) => series.findIndex((other, j) => j < r && other.every((v, k) => v === values[k])));
    chart.data.datasets = readers.map((reader, r) => {
      // A knee at the first point ("no bigger value pays") is said in the text, not drawn.
      const found = kneeOf(reader, metric.id);
      const twin = sameAs[r]! >= 0 ? labelOf(readers[sameAs[r]!]!) : undefined;
      const data = report.points.map((p, k) => ({ x: p.value, y: series[r]![k]! }));
      return dataset(reader, labelOf(reader), data, found && !found.first ? found : undefined, twin);
    });
    if (pair) pairLines(chart, metric, readers, pair);
    else delete chart.canvas.dataset["sides"];
    const twins = readers.flatMap((reader, r) => (sameAs[r]! >= 0 ? [`${labelOf(reader)} equals ${labelOf(readers[sameAs[r]!]!)} at every point`] : []));
    setText(figures[i]!.caption, [metric.note, twins.length ? `${twins.join("; ")}: the wide pale line is the second of the two.` : ""].filter(Boolean).join(" "));
    // One line per knee value, naming the readers that knee there only when not every reader does (the legend names the lines).
    const byValue = new Map<number, string[]>();
    for (const reader of readers) {
      const knee = kneeOf(reader, metric.id);
      if (knee && !knee.first) byValue.set(knee.value, [...(byValue.get(knee.value) ?? []), labelOf(reader)]);
    }
    const side = pair ? "A " : "";
    const marks = [...byValue].map(([value, names]) => ({
      value,
      text: names.length === readers.length ? `knee ${side}${axes.formatValue(axis, value)}` : `knee ${side}${axes.formatValue(axis, value)}: ${names.join(", ")}`,
    }));
    if (pair) marks.push(...pairMarks(pair.b, metric, readers, (v) => axes.formatValue(axis, v)));
    kneesOf.set(chart as unknown as Chart, { marks, theme });
    // The knees this canvas draws, for tests and scripts (the list below says them in words).
    chart.canvas.dataset["knees"] = marks.map((m) => m.value).join(",");
    chart.update("none");
  }

  /** A's lines named as A's, then B's line of each reader A runs; the canvas says which sides it draws (for tests and scripts). */
  function pairLines(chart: Chart<"line", XY[], number>, metric: MetricView, readers: readonly string[], pair: SweepPairLines): void {
    for (const d of chart.data.datasets) d.label = `${pair.sides.a} · ${d.label ?? ""}`;
    const lines = readers.flatMap((reader) => {
      const data = pair.b.points.flatMap((p) => {
        const run = p.report.runs.find((r) => r.reader === reader);
        return run ? [{ x: p.value, y: metric.value(run) }] : [];
      });
      const knee = pair.b.knees.find((k) => k.reader === reader && k.metric === metric.id && k.across === undefined);
      return data.length ? [bLine(reader, `${pair.sides.b} · ${labelOf(reader)}`, data, knee && !knee.first ? knee : undefined)] : [];
    });
    chart.data.datasets.push(...lines);
    chart.canvas.dataset["sides"] = lines.length ? "A,B" : "A";
  }

  return {
    element: h("div", { class: "sweep-charts" }, ...figures.map((f) => f.block)),
    steps: (report, readers, kneeOf, pair) => METRICS.map((_, i) => () => draw(i, report, readers, kneeOf, pair ?? null)),
    async canvas(i) {
      await lineChartLoaded();
      return charts()[i]!.chart.canvas;
    },
    retheme() {
      theme = readTheme();
      for (const { chart } of built ?? []) {
        themeAxes(chart as unknown as Chart, theme);
        const marks = kneesOf.get(chart as unknown as Chart);
        if (marks) marks.theme = theme;
        chart.update("none");
      }
    },
  };
}
