// The sweep view (owns #sweep): pick an axis and a power-of-two range (built
// from the schema's sweep_axes), optionally a second axis with its own range,
// run it point by point in its own worker with a progress bar and Cancel, and
// show four line charts against the axis (source reads, bytes copied,
// allocations, time), one line per reader, with each knee marked — or, on two
// axes, a heatmap of one metric of one reader with the knee line
// (heatmap.ts) — plus a table and a list of knees as the text equivalent.
// The x axis ticks at the swept powers of two; byte axes tick at binary
// steps; a reader whose line equals an earlier one's is drawn as a wide halo
// under it and its legend entry says so.
//
// Charts are created once; each point only swaps data and calls
// `update("none")` (chart.js performance guide), so the main thread never
// does more than a few milliseconds of work per point.

import type { Chart, ChartDataset, Plugin, PointStyle } from "chart.js";
import type { Codec } from "../../engine/codec";
import type { Across, Knee, Metric, Params, Run, Sweep, SweepAxis, SweepAxisInfo, SweepReport } from "../../engine/types.gen";
import type { SweepShown } from "../../shared/lab";
import { OKABE_ITO, binaryTicks, readTheme, themeAxes, type Theme } from "../../shared/chart-kit";
import { chartLib } from "../../shared/chart-lib";
import { h, replaceChildren, setText } from "../../shared/dom";
import { chartPng, exportName, saveButton } from "../../shared/export-kit";
import { settingsInWords } from "../../shared/settings-words";
import { bytesLabel, formatBinaryBytes, formatBytes, formatCount, formatNs } from "../../shared/format";
import { kneeMetric } from "../../shared/metrics";
import { drawHeatmap, varyingReader } from "./heatmap";
import { NO_TIME_KNEE, gridHeadline, sweepHeadline } from "./headline";
import { sweepCsv, sweepJson } from "./sweep-export";

/** chart.js's Chart with the line chart's parts: loaded when the first sweep draws (lineChartLoaded). */
let LineChart: typeof Chart | null = null;

async function lineChartLoaded(): Promise<void> {
  LineChart ??= await chartLib();
}

type XY = { x: number; y: number };

/** A sweep chart: one metric (its label, accessor and format from shared/metrics) and how the chart draws it. */
interface MetricView {
  id: Metric;
  title: string;
  note: string;
  /** Log y where the values span orders of magnitude; linear where zero is the point. */
  log: boolean;
  value(run: Run): number;
  format(n: number): string;
}

/** The chart of sweep metric `id`, with its caption and scale. */
function chartOf(id: Metric, note: string, log: boolean): MetricView {
  const metric = kneeMetric(id);
  return { id, title: metric.label, note, log, value: metric.value, format: metric.format };
}

const METRICS: MetricView[] = [
  chartOf("source_reads", "Calls that reached the source (log scale): the count a buffer exists to cut.", true),
  chartOf("bytes_copied", "Bytes moved between buffers inside the reader.", false),
  chartOf("allocations", "Heap allocations during one run.", false),
  chartOf("time", "Measured CPU median + modelled I/O (source reads × cost per read + bytes × cost per KiB), log scale.", true),
];

/** One colour, dash and point shape per reader, so lines differ without colour too. */
const READER_STYLE: Record<string, { colour: string; dash: number[]; point: PointStyle }> = {
  unbuffered: { colour: OKABE_ITO.vermillion, dash: [2, 3], point: "triangle" },
  std: { colour: OKABE_ITO.blue, dash: [], point: "circle" },
  chained: { colour: OKABE_ITO.bluishGreen, dash: [7, 4], point: "rect" },
  tokio: { colour: OKABE_ITO.orange, dash: [10, 3, 2, 3], point: "rectRot" },
  futures: { colour: OKABE_ITO.skyBlue, dash: [1, 3], point: "crossRot" },
};
const FALLBACK_STYLE = { colour: OKABE_ITO.reddishPurple, dash: [4, 2], point: "star" as PointStyle };

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
    ctx.save();
    ctx.strokeStyle = extras.theme.text;
    ctx.fillStyle = extras.theme.text;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([5, 4]);
    ctx.font = `600 ${extras.theme.fontPx}px ${getComputedStyle(chart.canvas).fontFamily}`;
    ctx.textBaseline = "top";
    extras.marks.forEach((mark, i) => {
      const px = x.getPixelForValue(mark.value);
      if (!Number.isFinite(px)) return;
      ctx.beginPath();
      ctx.moveTo(px, chartArea.top);
      ctx.lineTo(px, chartArea.bottom);
      ctx.stroke();
      const width = ctx.measureText(mark.text).width;
      // Text right of the line; left of it near the right edge; never past the plot.
      let left = px + 4;
      if (left + width > chartArea.right) left = px - 4 - width;
      left = Math.max(chartArea.left + 2, Math.min(left, chartArea.right - width - 2));
      ctx.textAlign = "left";
      const tx = left;
      const ty = chartArea.top + 2 + i * (extras.theme.fontPx + 4);
      ctx.globalAlpha = 0.85;
      ctx.fillStyle = extras.theme.surface;
      ctx.fillRect(tx - 2, ty - 1, width + 4, extras.theme.fontPx + 3);
      ctx.globalAlpha = 1;
      ctx.fillStyle = extras.theme.text;
      ctx.fillText(mark.text, tx, ty);
    });
    ctx.restore();
  },
};

export interface SweepOptions {
  codec: Codec;
  labelOf: (readerId: string) => string;
  /** Run sweep was pressed: the page starts a sweep of its settings. */
  onRun: () => void;
  /** Cancel was pressed. */
  onCancel: () => void;
  /** The sweep controls changed: the page fits, stores and links the sweep. */
  onChange: (sweep: Sweep | null) => void;
  /** What the headline says about the sweep changed (a point arrived, a run ended). */
  onHeadline: () => void;
  /** The full URL of a link fragment. */
  urlOf: (fragment: string) => string;
}

export interface SweepPanel {
  /** Shows `params.sweep` in the controls. */
  show(params: Params): void;
  /** Shows the page's newest sweep (null: none yet): its points so far, its progress, and whether it is of the settings on screen. */
  render(sweep: SweepShown | null): void;
  /** A note about the range (e.g. it was cut to fit the job-size rule). */
  note(messages: string[]): void;
  retheme(): void;
  /** One sentence about the sweep on screen: its knee, or what it is doing. */
  headline(): string;
}

export function createSweep(section: HTMLElement, options: SweepOptions): SweepPanel {
  const { codec, labelOf } = options;
  const axes = codec.schema.sweep_axes;
  const infoOf = (id: SweepAxis): SweepAxisInfo => axes.find((a) => a.id === id) ?? axes[0]!;
  const formatValue = (axis: SweepAxisInfo, v: number): string => (axis.bytes ? codec.formatSize(v) : String(v));
  /** An axis value in words, for the headline: "512 B", "64 KiB", "8". */
  const valueWords = (axis: SweepAxisInfo, v: number): string => (axis.bytes ? bytesLabel(codec.formatSize(v)) : formatCount(v));
  /** An axis at a value in words: "buffer capacity 512 B". */
  const axisWords = (axis: SweepAxisInfo, v: number): string => `${axis.label.toLowerCase()} ${valueWords(axis, v)}`;
  let theme = readTheme();

  // ---- controls
  const axisSelect = h(
    "select",
    { id: "sweep-axis", name: "sweep" },
    h("option", { value: "off" }, "Off"),
    ...axes.map((a) => h("option", { value: a.id }, a.label)),
  );
  /** Whether `params` use the setting an axis moves (the settings strip's rule, `codec.uses`). */
  const axisUsed = (params: Params, axis: SweepAxisInfo): boolean => codec.uses(params, axis.key);
  /**
   * The axes offered for `params`: those the experiment uses, and `keep` (the
   * sweep the link carries) even when it does not, so the control shows it.
   */
  const axisOptions = (params: Params, keep: SweepAxis | undefined, except?: SweepAxis): HTMLOptionElement[] =>
    axes
      .filter((a) => a.id !== except && (axisUsed(params, a) || a.id === keep))
      .map((a) => h("option", { value: a.id }, axisUsed(params, a) ? a.label : `${a.label} (not used here)`));
  /** Refills a select's options when they change (a select being used keeps its list otherwise). */
  const setOptions = (select: HTMLSelectElement, options: HTMLOptionElement[]): void => {
    const key = options.map((o) => `${o.value}:${o.text}`).join(",");
    if (select.dataset["options"] === key) return;
    replaceChildren(select, ...options);
    select.dataset["options"] = key;
  };
  const fromSelect = h("select", { id: "sweep-from", name: "from" });
  const toSelect = h("select", { id: "sweep-to", name: "to" });
  const runButton = h("button", { type: "button", class: "primary", "data-action": "sweep-run" }, "Run sweep");
  const cancelButton = h("button", { type: "button", "data-action": "sweep-cancel", disabled: true }, "Cancel");
  const about = h("p", { class: "sweep-about field-note" });
  const fromField = h("div", { class: "sweep-field" }, h("label", { for: "sweep-from" }, "From"), fromSelect);
  const toField = h("div", { class: "sweep-field" }, h("label", { for: "sweep-to" }, "To"), toSelect);
  // The second axis of a two-axis sweep: the heatmap's columns.
  const acrossSelect = h("select", { id: "sweep-across" });
  const acrossFromSelect = h("select", { id: "sweep-across-from" });
  const acrossToSelect = h("select", { id: "sweep-across-to" });
  const acrossLabel = h("label", { for: "sweep-across" }, "By");
  const acrossField = h("div", { class: "sweep-field" }, acrossLabel, acrossSelect);
  const acrossFromField = h("div", { class: "sweep-field" }, h("label", { for: "sweep-across-from" }, "From"), acrossFromSelect);
  const acrossToField = h("div", { class: "sweep-field" }, h("label", { for: "sweep-across-to" }, "To"), acrossToSelect);
  const rangeNote = h("p", { class: "field-note warn sweep-range-note", role: "status" });
  const form = h(
    "form",
    { class: "sweep-form", novalidate: true },
    h("div", { class: "sweep-field" }, h("label", { for: "sweep-axis" }, "Axis"), axisSelect),
    fromField,
    toField,
    acrossFromField,
    acrossToField,
    h("div", { class: "buttons sweep-buttons" }, runButton, cancelButton),
  );

  // ---- progress, notes, knees
  const progress = h("progress", { class: "sweep-progress", max: 1, value: 0, "aria-labelledby": "sweep-progress-text" });
  const progressText = h("span", { id: "sweep-progress-text", class: "sweep-progress-text", role: "status" });
  const progressRow = h("div", { class: "sweep-progress-row" }, progress, progressText);
  const samplingNote = h("p", { class: "sweep-note" });
  const kneeHeading = h("h3", { class: "sweep-knees-title" }, "Knees");
  const kneeList = h("ul", { class: "sweep-knees" });
  const pct = `${Math.round(codec.schema.knee_tolerance * 100)}%`;
  const kneeDefinition = h(
    "p",
    { class: "sweep-note" },
    `Knee: the smallest value whose count is within ${pct} of the best anywhere in the sweep, for that reader; beyond it a bigger value wins at most ${pct} more. For time (measured, so noisy): the smallest value clearly faster than the first point after which no point is clearly faster, that is with all its samples more than ${pct} below this point's; none where the times rise and fall again by more than that.`,
  );

  // ---- charts: built when the first sweep draws, not with the page (four
  // chart.js instances cost the first results of every visit ~100 ms
  // otherwise). Their figures come with the view, at their final size, so
  // the charts draw into space that is already theirs.
  const figures = METRICS.map((metric) => {
    const canvas = h("canvas", { role: "img", "aria-label": `${metric.title} against the swept axis` });
    const caption = h("p", { class: "chart-note" }, metric.note);
    const block = h(
      "figure",
      { class: "sweep-chart", "data-metric": metric.id },
      h("figcaption", { class: "chart-title" }, metric.title),
      h("div", { class: "sweep-chart-holder" }, canvas),
      caption,
    );
    return { canvas, caption, block };
  });
  const chartsBox = h("div", { class: "sweep-charts" }, ...figures.map((f) => f.block));
  let built: ReturnType<typeof buildCharts> | null = null;
  const charts = (): ReturnType<typeof buildCharts> => (built ??= buildCharts());
  const buildCharts = () => METRICS.map((metric, i) => {
    const { canvas, caption } = figures[i]!;
    let ticks: number[] = [];
    let axisInfo: SweepAxisInfo = axes[0]!;
    if (!LineChart) throw new Error("The sweep's charts were built before chart.js was loaded.");
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
              title: (items) => (items[0] ? `${axisInfo.label} ${formatValue(axisInfo, (items[0].raw as XY).x)}` : ""),
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
            ticks: { callback: (value) => formatValue(axisInfo, Number(value)), maxRotation: 0, autoSkip: true },
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
    return {
      metric,
      chart,
      caption,
      setAxis(info: SweepAxisInfo, values: number[]) {
        axisInfo = info;
        ticks = values;
        const x = chart.options.scales?.["x"];
        if (x) {
          x.min = values[0];
          x.max = values[values.length - 1];
          const title = (x as { title?: { text?: string } }).title;
          if (title) title.text = info.bytes ? `${info.label} (bytes, log₂ scale)` : `${info.label} (log₂ scale)`;
        }
      },
    };
  });

  // ---- the heatmap of a two-axis sweep: one metric of one reader at a time
  const HEATMAP_METRICS = METRICS.filter((m) => m.id !== "allocations");
  const heatMetric = h(
    "select",
    { id: "heatmap-metric" },
    ...HEATMAP_METRICS.map((m) => h("option", { value: m.id }, m.title)),
  );
  const heatReader = h("select", { id: "heatmap-reader" });
  const heatCanvas = h("canvas", { id: "sweep-heatmap", role: "img", "aria-label": "Heatmap of the two-axis sweep; the table below lists every cell" });
  const heatCaption = h("figcaption", { class: "chart-note" });
  const heatmapBox = h(
    "figure",
    { class: "sweep-heatmap", hidden: true },
    h(
      "div",
      { class: "heatmap-controls" },
      h("label", { for: "heatmap-metric" }, "Colour by"),
      heatMetric,
      h("label", { for: "heatmap-reader" }, "Reader"),
      heatReader,
    ),
    heatCanvas,
    heatCaption,
  );
  const heatSpec = (report: SweepReport) => {
    const metric = HEATMAP_METRICS.find((m) => m.id === heatMetric.value) ?? HEATMAP_METRICS[0]!;
    const readers: string[] = report.points[0]?.report.runs.map((r) => r.reader) ?? [];
    const readerIndex = Math.max(0, readers.indexOf(heatReader.value));
    const rows = infoOf(report.sweep.axis);
    const columns = infoOf(report.sweep.across?.axis ?? report.sweep.axis);
    return {
      report,
      readerIndex,
      metric: metric.id,
      value: metric.value,
      format: metric.format,
      short: (n: number) => shortTick({ ...metric, log: false }, n),
      rowTitle: rows.label,
      columnTitle: columns.label,
      rowLabel: (v: number) => formatValue(rows, v),
      columnLabel: (v: number) => formatValue(columns, v),
      theme,
      title: `${metric.title} of ${labelOf(readers[readerIndex] ?? "")} by ${rows.label.toLowerCase()} and ${columns.label.toLowerCase()}`,
    };
  };
  /** The reader the person picked for the heatmap; until then it opens on one whose cells differ. */
  let heatReaderPicked: string | null = null;
  heatReader.addEventListener("change", () => {
    heatReaderPicked = heatReader.value;
  });
  function drawHeat(report: SweepReport): void {
    const readers: string[] = report.points[0]?.report.runs.map((r) => r.reader) ?? [];
    const keys = readers.join(",");
    if (heatReader.dataset["readers"] !== keys) {
      replaceChildren(heatReader, ...readers.map((r) => h("option", { value: r }, labelOf(r))));
      heatReader.dataset["readers"] = keys;
    }
    const exact = METRICS.filter((m) => m.id !== "time").map((m) => m.value);
    heatReader.value = heatReaderPicked !== null && readers.includes(heatReaderPicked) ? heatReaderPicked : (readers[varyingReader(report, exact)] ?? "");
    const spec = heatSpec(report);
    // A box that grows to fill its container (an embed's frame) sets the height too.
    const fits = getComputedStyle(heatmapBox).flexGrow !== "0";
    drawHeatmap(heatCanvas, spec, heatmapBox.clientWidth || section.clientWidth || 640, fits ? heatmapBox.clientHeight : undefined);
    const knees = report.knees.filter((k) => k.reader === readers[spec.readerIndex] && k.metric === spec.metric);
    setText(
      heatCaption,
      `${spec.title}, on a log colour scale (the table below lists every cell). ` +
        (knees.some((k) => !k.first)
          ? `The dashed line along the outlined cells is the knee in each column: from there down, a bigger ${spec.rowTitle.toLowerCase()} stops paying.`
          : knees.length > 0
            ? `No knee line: in no column does a bigger ${spec.rowTitle.toLowerCase()} pay${report.complete ? "" : " so far"}.`
            : `No knee line: ${NO_TIME_KNEE}.`),
    );
  }
  for (const select of [heatMetric, heatReader]) select.addEventListener("change", () => last && drawHeat(last));
  // The canvas is drawn at the box's size: redrawn when that changes (rotation, projector, a frame).
  let drawnSize = "";
  new ResizeObserver(() => {
    const size = `${heatmapBox.clientWidth}×${heatmapBox.clientHeight}`;
    if (size === drawnSize || heatmapBox.hidden || !last?.sweep.across) return;
    drawnSize = size;
    drawHeat(last);
  }).observe(heatmapBox);

  const tableBox = h("div", { class: "sweep-table-wrap" });

  // ---- export: the points so far as CSV and JSON, each chart as an image
  const exportStatus = h("span", { class: "copy-note", id: "sweep-export-status", role: "status", "aria-live": "polite" });
  const exportButton = (id: string, text: string, make: (report: SweepReport) => Promise<Blob> | Blob, extension: string, part?: string) =>
    saveButton(id, text, exportStatus, () => {
      const report = last;
      if (!report) return null;
      return Promise.resolve(make(report)).then((blob) => ({ blob, name: exportName(`sweep-${report.sweep.axis}`, extension, new Date(), part) }));
    });
  const heatButton = exportButton(
    "sweep-export-heatmap",
    "Heatmap (PNG)",
    (r) => chartPng(heatCanvas, { title: heatSpec(r).title, settings: settingsInWords({ ...r.params, sweep: r.sweep }), link: options.urlOf(r.link) }),
    "png",
    "heatmap",
  );
  const exportRow = h(
    "div",
    { class: "share-row sweep-export" },
    h("span", { class: "share-label" }, "Export"),
    exportButton("sweep-export-csv", "CSV", (r) => new Blob([sweepCsv(r, options.urlOf(r.link))], { type: "text/csv" }), "csv"),
    exportButton("sweep-export-json", "JSON", (r) => new Blob([sweepJson(r, options.urlOf(r.link), new Date())], { type: "application/json" }), "json"),
    heatButton,
    ...METRICS.map((metric, i) =>
      exportButton(
        `sweep-export-png-${i}`,
        `${metric.title} (PNG)`,
        async (r) => {
          await lineChartLoaded();
          const canvas = charts()[i]!.chart.canvas;
          return chartPng(canvas, { title: `${metric.title} against ${infoOf(r.sweep.axis).label}`, settings: settingsInWords({ ...r.params, sweep: r.sweep }), link: options.urlOf(r.link) });
        },
        "png",
        metric.title,
      ),
    ),
    exportStatus,
  );
  const results = h("div", { class: "sweep-results", hidden: true }, chartsBox, heatmapBox, samplingNote, kneeHeading, kneeList, kneeDefinition, tableBox, exportRow);
  // The controls in one row, the charts right under them; the progress and
  // what the axis does follow the charts (the headline says the rest).
  // Without a second axis its control waits under the results (the controls'
  // row stays one row, so the charts keep the first screen); with one it
  // joins the row, before its range.
  const foot = h("div", { class: "sweep-foot" }, progressRow, about, acrossField);
  replaceChildren(section, form, rangeNote, results, foot);
  progressRow.hidden = true;

  // ---- controls → link
  function currentAxis(): SweepAxisInfo | null {
    return axisSelect.value === "off" ? null : infoOf(axisSelect.value as SweepAxis);
  }

  function fillRange(select: HTMLSelectElement, axis: SweepAxisInfo, selected: number): void {
    const values: number[] = [];
    for (let v = axis.bounds.min; v <= axis.bounds.max; v *= 2) values.push(v);
    const key = values.join(",");
    if (select.dataset["values"] !== key) {
      replaceChildren(select, ...values.map((v) => h("option", { value: v }, formatValue(axis, v))));
      select.dataset["values"] = key;
    }
    select.value = String(selected);
  }

  function currentAcross(): SweepAxisInfo | null {
    const id = acrossSelect.value;
    return id === "" || id === axisSelect.value ? null : infoOf(id as SweepAxis);
  }

  /** A range from two selects; the one just changed wins when they cross. */
  function rangeOf(from: HTMLSelectElement, to: HTMLSelectElement, changed: EventTarget | null): [number, number] {
    const a = Number(from.value);
    const b = Number(to.value);
    if (a <= b) return [a, b];
    return changed === from ? [a, a] : [b, b];
  }

  /** The sweep the controls show (`changed`: the select the person just moved). */
  function sweepOfControls(changed: EventTarget | null): Sweep | null {
    const axis = currentAxis();
    if (!axis) return null;
    const [from, to] = changed === axisSelect ? [axis.from, axis.to] : rangeOf(fromSelect, toSelect, changed);
    const second = currentAcross();
    let across: Across | undefined;
    if (second) {
      const fresh = changed === axisSelect || changed === acrossSelect || acrossFromSelect.options.length === 0;
      const [f, t] = fresh ? [second.from, second.to] : rangeOf(acrossFromSelect, acrossToSelect, changed);
      across = { axis: second.id, from: f, to: t };
    }
    return across ? { axis: axis.id, from, to, across } : { axis: axis.id, from, to };
  }
  for (const select of [axisSelect, fromSelect, toSelect, acrossSelect, acrossFromSelect, acrossToSelect]) {
    select.addEventListener("change", (event) => options.onChange(sweepOfControls(event.target)));
  }
  runButton.addEventListener("click", () => options.onRun());
  cancelButton.addEventListener("click", () => options.onCancel());

  // ---- results: drawn from the page's sweep (its state is the page's model)
  /** The report drawn last (the heatmap's controls and the exports use it). */
  let last: SweepReport | null = null;
  /** The sweep shown: its status, and whether it is of the settings on screen. */
  let shown: SweepShown | null = null;

  function setRunning(running: boolean): void {
    runButton.disabled = running || currentAxis() === null;
    cancelButton.disabled = !running;
    section.setAttribute("aria-busy", String(running));
  }

  function showProgress(): void {
    // A finished sweep is "done" once its last report is drawn too.
    const drawn = shown?.report == null || drawnReport === shown.report;
    const status = shown?.status === "done" && !drawn ? "drawing" : (shown?.status ?? "idle");
    progressRow.hidden = shown === null;
    const report = shown?.report ?? null;
    const total = report?.total ?? 0;
    const done = report?.points.length ?? 0;
    progress.max = Math.max(1, total);
    progress.value = done;
    let text: string;
    if (status === "running" || status === "drawing") {
      const next = report && done < total ? pointText(report, done) : "";
      text = `${done} of ${total || "…"} points` + (next ? ` · measuring ${next}` : "");
    } else if (status === "cancelled") {
      text = `Cancelled after ${done} of ${total} points; those stay shown. Run sweep starts again.`;
    } else if (status === "failed") {
      text = `Stopped after ${done} of ${total} points: ${shown?.failure ?? ""}`;
    } else if (status === "done") {
      const seconds = ((shown?.elapsedMs ?? 0) / 1000).toFixed(1);
      text = `Done: ${done} of ${total} points in ${seconds} s.`;
    } else {
      text = "";
    }
    setText(progressText, text);
    progressRow.dataset["state"] = status;
    progressRow.dataset["done"] = String(done);
    progressRow.dataset["total"] = String(total);
    options.onHeadline();
  }

  /** Point `index` of a sweep in words: "buffer capacity 1 KiB", or "buffer capacity 1 KiB, read size 8 B". */
  function pointText(report: SweepReport, index: number): string {
    const axis = infoOf(report.sweep.axis);
    const columns = Math.max(1, report.across_values.length);
    const value = report.values[Math.floor(index / columns)];
    if (value === undefined) return "";
    const first = axisWords(axis, value);
    const across = report.sweep.across ? infoOf(report.sweep.across.axis) : null;
    return across ? `${first}, ${axisWords(across, report.across_values[index % columns]!)}` : first;
  }

  /**
   * The steps that show one report (one per chart, then the text), each run
   * as its own task: a point never costs this thread one long task, and
   * input can be handled between the steps.
   */
  function drawSteps(report: SweepReport): (() => void)[] {
    const axis = infoOf(report.sweep.axis);
    const readers = report.points[0]?.report.runs.map((r) => r.reader) ?? [];
    const kneeOf = (reader: string, metric: Metric, across?: number): Knee | undefined =>
      report.knees.find((k) => k.reader === reader && k.metric === metric && k.across === across);
    const grid = report.sweep.across !== undefined;
    chartsBox.hidden = grid;
    heatmapBox.hidden = !grid;
    for (const b of exportRow.querySelectorAll<HTMLButtonElement>("button[id^=sweep-export-png]")) b.hidden = grid;
    heatButton.hidden = !grid;

    const chartSteps = grid ? [() => drawHeat(report)] : charts().map(({ metric, chart, setAxis, caption }) => () => {
      setAxis(axis, report.values);
      const series = readers.map((_, i) => report.points.map((p) => metric.value(p.report.runs[i]!)));
      // A reader whose values equal an earlier reader's at every point.
      const sameAs = series.map((values, i) => series.findIndex((other, j) => j < i && other.every((v, k) => v === values[k])));
      chart.data.datasets = readers.map((reader, i) => {
        const style = READER_STYLE[reader] ?? FALLBACK_STYLE;
        const label = labelOf(reader);
        const data = report.points.map((p, k) => ({ x: p.value, y: series[i]![k]! }));
        // A knee at the first point ("no bigger value pays") is said in the text, not drawn.
        const found = kneeOf(reader, metric.id);
        const knee = found && !found.first ? found : undefined;
        const twin = sameAs[i]! >= 0 ? readers[sameAs[i]!] : undefined;
        const isKnee = (d: XY): boolean => knee !== undefined && d.x === knee.value;
        // chart.js draws the first dataset on top. A line equal to an earlier
        // one is drawn as a wide translucent halo under it with large hollow
        // markers, so both stay visible where they coincide.
        const dataset: ChartDataset<"line", XY[]> = {
          label: twin ? `${label} (= ${labelOf(twin)})` : label,
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
        return dataset;
      });
      const twins = readers.flatMap((reader, i) => (sameAs[i]! >= 0 ? [`${labelOf(reader)} equals ${labelOf(readers[sameAs[i]!]!)} at every point`] : []));
      setText(caption, [metric.note, twins.length ? `${twins.join("; ")}: the wide pale line is the second of the two.` : ""].filter(Boolean).join(" "));
      // One line per knee value, naming the readers that knee there.
      const byValue = new Map<number, string[]>();
      for (const reader of readers) {
        const knee = kneeOf(reader, metric.id);
        if (knee && !knee.first) byValue.set(knee.value, [...(byValue.get(knee.value) ?? []), labelOf(reader)]);
      }
      // The reader's name only when not every reader knees there (the legend names the lines).
      const marks = [...byValue].map(([value, names]) => ({
        value,
        text: names.length === readers.length ? `knee ${formatValue(axis, value)}` : `knee ${formatValue(axis, value)}: ${names.join(", ")}`,
      }));
      kneesOf.set(chart as unknown as Chart, { marks, theme });
      // The knees this canvas draws, for tests and scripts (the list below says them in words).
      chart.canvas.dataset["knees"] = marks.map((m) => m.value).join(",");
      chart.update("none");
    });

    const textStep = (): void => {
      last = report;
      results.hidden = false;
      options.onHeadline();
      if (grid) showGridKnees(report, axis, readers);
      else showKnees(report, axis, readers);
      showTable(report, axis, readers, kneeOf);
      const first = report.points[0]?.report;
      const samples = first?.runs[0]?.cpu_ns.samples ?? 0;
      setText(
        samplingNote,
        (first?.quick
          ? "Timing: one quick sample per reader per point (rough). "
          : `Timing: ${samples} samples per reader per point after a short warm-up before the first point, lighter than Measure's full measurement so a sweep stays short; times are rough, counts are exact. `) +
          (report.digests_agree
            ? "Every reader delivered exactly the source's bytes at every point."
            : "A reader delivered DIFFERENT bytes than the source at some point."),
      );
      showProgress();
    };
    return [textStep, ...chartSteps];
  }

  /** The newest report waiting to be drawn; a newer one replaces it mid-draw. */
  let pendingReport: SweepReport | null = null;
  /** The report whose drawing finished last. */
  let drawnReport: SweepReport | null = null;
  let drawing: Promise<void> | null = null;

  /** Draws `report` step by step; resolves once the newest report is fully shown. */
  function draw(report: SweepReport): Promise<void> {
    pendingReport = report;
    drawing ??= (async () => {
      await lineChartLoaded();
      while (pendingReport) {
        const next = pendingReport;
        pendingReport = null;
        const started = performance.now();
        for (const step of drawSteps(next)) {
          if (pendingReport) break;
          step();
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        if (!pendingReport) drawnReport = next;
        // Read by the e2e long-task check: what one point costs this thread, in all.
        performance.measure("buflab:sweep-point", { start: started });
      }
      drawing = null;
    })();
    return drawing;
  }

  function showKnees(report: SweepReport, axis: SweepAxisInfo, readers: string[]): void {
    const partial = !report.complete;
    setText(
      kneeHeading,
      !axis.knee
        ? "No knee on this axis"
        : partial
          ? `Knees among the ${report.points.length} points measured so far`
          : `Knees: where a bigger ${axis.label.toLowerCase()} stops paying`,
    );
    if (!axis.knee) {
      replaceChildren(kneeList, h("li", {}, `A longer ${axis.id === "len" ? "stream" : "list of streams"} only costs more: the counts grow with it, so there is no point where growing it stops paying.`));
      return;
    }
    const items = readers.flatMap((reader) =>
      METRICS.map((metric) => {
        const knee = report.knees.find((k) => k.reader === reader && k.metric === metric.id);
        const what = `${labelOf(reader)}, ${metric.title.toLowerCase()}: `;
        if (!knee) {
          // Counts always have a knee; a time curve that zig-zags has none.
          return metric.id === "time" && report.points.length > 0
            ? h("li", { "data-reader": reader, "data-metric": metric.id, "data-value": "" }, `${what}no knee: ${NO_TIME_KNEE}.`)
            : null;
        }
        const text = knee.first
          ? `${what}no bigger value pays in this range (${metric.format(knee.at_knee)} from ${axisWords(axis, knee.value)} on).`
          : `${what}knee at ${axisWords(axis, knee.value)} (${metric.format(knee.at_knee)}; best ${metric.format(knee.best)}).`;
        return h(
          "li",
          { "data-reader": reader, "data-metric": metric.id, "data-value": knee.value, "data-first": String(knee.first) },
          text,
        );
      }),
    );
    replaceChildren(kneeList, ...items);
  }

  /** On two axes: per reader and metric, the knee along the first axis at each value of the second. */
  function showGridKnees(report: SweepReport, axis: SweepAxisInfo, readers: string[]): void {
    const across = infoOf(report.sweep.across!.axis);
    setText(
      kneeHeading,
      !axis.knee
        ? "No knee on this axis"
        : `Knee line: where a bigger ${axis.label.toLowerCase()} stops paying, at each ${across.label.toLowerCase()}${report.complete ? "" : ` (${report.points.length} of ${report.total} points so far)`}`,
    );
    if (!axis.knee) {
      replaceChildren(kneeList, h("li", {}, `A bigger ${axis.label.toLowerCase()} only costs more: put an axis with a knee (capacity, read size, chunk size) first.`));
      return;
    }
    const measured = report.across_values.filter((a) => report.points.some((p) => p.across === a));
    const items = readers.flatMap((reader) =>
      METRICS.flatMap((metric) => {
        const knees = report.knees.filter((k) => k.reader === reader && k.metric === metric.id && k.across !== undefined);
        // Columns with no knee: a time curve that zig-zags (counts always have one).
        const none = metric.id === "time" ? measured.filter((a) => !knees.some((k) => k.across === a)) : [];
        if (knees.length === 0 && none.length === 0) return [];
        // Columns that knee at the same value, together: "buffer capacity 512 B at read size 1 B, 2 B, 4 B";
        // those where nothing fell, together: "no bigger buffer capacity pays at read size 8 B".
        const byValue = new Map<number | "first", number[]>();
        for (const k of knees) {
          const key = k.first ? "first" : k.value;
          byValue.set(key, [...(byValue.get(key) ?? []), k.across!]);
        }
        const at = (columns: number[]): string => `at ${across.label.toLowerCase()} ${columns.map((a) => valueWords(across, a)).join(", ")}`;
        const parts = [...byValue].map(([value, columns]) =>
          value === "first" ? `no bigger ${axis.label.toLowerCase()} pays ${at(columns)}` : `${axisWords(axis, value)} ${at(columns)}`,
        );
        if (none.length > 0) parts.push(`no knee ${at(none)} (${NO_TIME_KNEE})`);
        return [h("li", { "data-reader": reader, "data-metric": metric.id }, `${labelOf(reader)}, ${metric.title.toLowerCase()}: ${parts.join("; ")}.`)];
      }),
    );
    replaceChildren(kneeList, ...items);
  }

  function showTable(
    report: SweepReport,
    axis: SweepAxisInfo,
    readers: string[],
    kneeOf: (reader: string, metric: Metric, across?: number) => Knee | undefined,
  ): void {
    const second = report.sweep.across ? infoOf(report.sweep.across.axis) : null;
    // Two header rows: each reader over its four metrics.
    const groups = h(
      "tr",
      {},
      h("td", {}),
      ...readers.map((reader) => h("th", { scope: "colgroup", colspan: METRICS.length, class: "reader-group" }, labelOf(reader))),
    );
    const head = h(
      "tr",
      {},
      h("th", { scope: "col" }, second ? `${axis.label} × ${second.label.toLowerCase()}` : axis.label),
      ...readers.flatMap(() => METRICS.map((m) => h("th", { scope: "col" }, m.title.replace(" per run", "").toLowerCase()))),
    );
    const rows = report.points.map((p) =>
      h(
        "tr",
        { "data-value": p.value, "data-across": p.across },
        h("th", { scope: "row" }, second && p.across !== undefined ? `${formatValue(axis, p.value)} × ${formatValue(second, p.across)}` : formatValue(axis, p.value)),
        ...readers.flatMap((reader, i) =>
          METRICS.map((m) => {
            const run = p.report.runs[i]!;
            const knee = kneeOf(reader, m.id, p.across);
            const isKnee = knee !== undefined && !knee.first && knee.value === p.value;
            return h(
              "td",
              { class: "num", "data-reader": reader, "data-metric": m.id, "data-knee": String(isKnee) },
              m.format(m.value(run)),
              isKnee ? h("span", { class: "knee-tag" }, " ◆ knee") : null,
            );
          }),
        ),
      ),
    );
    replaceChildren(
      tableBox,
      h(
        "div",
        { class: "table-scroll" },
        h(
          "table",
          { class: "sweep-table" },
          h(
            "caption",
            {},
            `Sweep of ${axis.label.toLowerCase()}${second ? ` by ${second.label.toLowerCase()}` : ""}: one row per point (${report.points.length} of ${report.total}); ◆ marks a knee${second ? ` along the ${axis.label.toLowerCase()} at that ${second.label.toLowerCase()}` : ""}.`,
          ),
          h("thead", {}, groups, head),
          h("tbody", {}, ...rows),
        ),
      ),
    );
  }

  const panel: SweepPanel = {
    headline() {
      const axis = currentAxis();
      const running = shown?.status === "running";
      if (running && (last?.points.length ?? 0) === 0) {
        return axis ? `Sweeping ${axis.label.toLowerCase()}: the first point is being measured.` : "";
      }
      if (last) {
        const info = infoOf(last.sweep.axis);
        if (last.sweep.across) {
          const across = infoOf(last.sweep.across.axis);
          return gridHeadline(last, info, across, labelOf, valueWords, running);
        }
        return sweepHeadline(last, info, labelOf, (v) => valueWords(info, v), running, codec.schema.knee_tolerance);
      }
      if (!axis) return "Pick an axis to re-run this experiment at every power of two in a range, and see where a bigger value stops paying.";
      return `Run the sweep to re-run these settings at every power of two of the ${axis.label.toLowerCase()} and find where a bigger value stops paying.`;
    },
    show(params) {
      const sweep = params.sweep;
      setOptions(axisSelect, [h("option", { value: "off" }, "Off"), ...axisOptions(params, sweep?.axis)]);
      axisSelect.value = sweep ? sweep.axis : "off";
      const axis = currentAxis();
      // No range to pick without an axis.
      fromField.hidden = toField.hidden = acrossField.hidden = axis === null;
      setOptions(acrossSelect, [h("option", { value: "" }, "—"), ...axisOptions(params, sweep?.across?.axis, axis?.id)]);
      acrossSelect.value = sweep?.across?.axis ?? "";
      const across = currentAcross();
      acrossFromField.hidden = acrossToField.hidden = across === null;
      if (across) form.insertBefore(acrossField, acrossFromField);
      else foot.append(acrossField);
      setText(acrossLabel, across ? "By" : "Second axis (heatmap)");
      const ranges: [HTMLSelectElement, SweepAxisInfo | null, number | undefined][] = [
        [fromSelect, axis, sweep?.from],
        [toSelect, axis, sweep?.to],
        [acrossFromSelect, across, sweep?.across?.from],
        [acrossToSelect, across, sweep?.across?.to],
      ];
      for (const [select, info, value] of ranges) {
        if (info && value !== undefined) {
          fillRange(select, info, value);
        } else {
          replaceChildren(select);
          delete select.dataset["values"];
        }
      }
      const unused = [axis, across].filter((a): a is SweepAxisInfo => a !== null && !axisUsed(params, a));
      setText(
        about,
        [
          axis ? axis.about : "",
          ...unused.map((a) => `These settings do not use the ${a.label.toLowerCase()}: every ${a.id} would measure the same experiment.`),
        ].filter(Boolean).join(" "),
      );
      setRunning(shown?.status === "running");
      options.onHeadline();
    },
    render(sweep) {
      const fresh = sweep !== null && sweep.id !== shown?.id;
      shown = sweep;
      if (fresh) {
        // The long-task check in web/e2e/sweep.test.ts measures from here.
        performance.mark("buflab:sweep-start");
        last = null;
        results.hidden = false;
      }
      section.dataset["current"] = String(sweep?.current ?? true);
      setRunning(sweep?.status === "running");
      if (sweep?.report && sweep.report !== pendingReport && sweep.report !== drawnReport) {
        const report = sweep.report;
        void draw(report).then(() => {
          if (shown?.status === "done" && shown.report === report) performance.mark("buflab:sweep-done");
          showProgress();
        });
      }
      showProgress();
    },
    note(messages) {
      setText(rangeNote, messages.join(" "));
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
  return panel;
}

/** Axis tick labels: short forms, and nothing at log scale's in-between ticks. */
function shortTick(metric: MetricView, v: number): string {
  if (metric.log) {
    // Label 1, 2 and 5 times a power of ten; leave the other log ticks bare.
    const mantissa = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
    if (![1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6)) return "";
  }
  if (metric.id === "time") return formatNs(v);
  if (metric.id === "bytes_copied") return formatBytes(v);
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return String(v);
}
