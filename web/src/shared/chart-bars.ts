// The bar charts both labs' single-run views draw (calls on a log scale,
// counts, time per run with modelled I/O hatched): the chart kit's parts that
// need chart.js itself, so only the modules that draw them load it. They are
// loaded on first use (labs/read/run/charts.ts and labs/write/charts.ts come by
// dynamic import): the page's first script carries no chart.js, and the
// first numbers (headline, table) show before it arrives.

import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LogarithmicScale,
  Tooltip,
  type ChartDataset,
  type TooltipItem,
} from "chart.js";
import type { Stats } from "../engine/types.gen";
import { LABEL_PX, OKABE_ITO, annotations, compact, extrasOf, hatch, readTheme, themeAxes, type Theme } from "./chart-kit";
import { formatCount, formatNs, timeUnit, untimedText } from "./format";
import { METRIC, originLabel } from "./metrics";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LogarithmicScale, Legend, Tooltip);

const COLOURS = {
  cpu: OKABE_ITO.blue,
  io: OKABE_ITO.orange,
};

/** Sets chart.js's default type size (charts created or updated after this use it). */
export function applyChartDefaults(theme: Theme): void {
  Chart.defaults.font.size = theme.fontPx;
}

/**
 * A view's bar charts themed as one: each gets its annotations and the
 * theme's axes now; `retheme` re-reads the theme (colour scheme, presenter
 * mode's type), refits the charts' holders (`refit`), redraws every chart,
 * and returns the theme to draw with.
 */
export function themedCharts(charts: readonly Chart<"bar", number[], string | string[]>[], time: TimeChart, theme: Theme): { retheme(refit: () => void): Theme } {
  const apply = (next: Theme): void => {
    for (const chart of charts) themeAxes(chart as unknown as Chart, next);
    time.retheme(next);
  };
  for (const chart of charts) extrasOf.set(chart as unknown as Chart, { endLabels: [], whiskers: null, theme });
  apply(theme);
  return {
    retheme(refit) {
      const next = readTheme();
      applyChartDefaults(next);
      refit();
      apply(next);
      for (const chart of charts) chart.update("none");
      return next;
    },
  };
}

/** A row of a "time per run" chart: measured CPU, modelled I/O. */
type TimedRow = { cpu_ns: Stats; modelled_io_ns: number };

export interface TimeChart {
  readonly chart: Chart<"bar", number[], string>;
  /** Shows one bar per row, in one time unit, with whiskers, totals and a text equivalent. */
  /** `timing`: whether times not yet in are still coming. */
  show(labels: string[], rows: readonly TimedRow[], theme: Theme, timing?: boolean): void;
  retheme(theme: Theme): void;
}

/**
 * A "time per run" chart: measured CPU median per row with modelled I/O
 * stacked on it (hatched, labelled modelled), min–max whiskers and the total
 * after each bar. Both labs use it.
 */
export function createTimeChart(canvas: HTMLCanvasElement, theme: Theme, title: string): TimeChart {
  let rows: readonly TimedRow[] = [];
  const cpu: ChartDataset<"bar", number[]> = {
    label: originLabel(METRIC.cpu_median_ns),
    data: [],
    backgroundColor: COLOURS.cpu,
    stack: "time",
  };
  const io: ChartDataset<"bar", number[]> = {
    label: originLabel(METRIC.modelled_io_ns),
    data: [],
    backgroundColor: hatch(COLOURS.io, theme.surface),
    borderColor: COLOURS.io,
    borderWidth: 1.5,
    stack: "time",
  };
  const chart = new Chart<"bar", number[], string>(canvas, {
    type: "bar",
    data: { labels: [], datasets: [cpu, io] },
    options: {
      ...HBAR,
      plugins: {
        legend: { position: "bottom", labels: { boxWidth: 16, boxHeight: 12 } },
        tooltip: {
          callbacks: {
            label: (item) => {
              const row = rows[item.dataIndex];
              if (!row) return "";
              return item.datasetIndex === 0
                ? `CPU median ${formatNs(row.cpu_ns.median)} (min ${formatNs(row.cpu_ns.min)}, max ${formatNs(row.cpu_ns.max)})`
                : `I/O, modelled: ${formatNs(row.modelled_io_ns)}`;
            },
          },
        },
      },
      scales: {
        x: { stacked: true, beginAtZero: true, title: { display: true, text: METRIC.modelled_total_ns.short }, ticks: { maxRotation: 0 } },
        y: { stacked: true },
      },
    },
    plugins: [annotations],
  });

  return {
    chart,
    show(labels, shown, currentTheme, timing = true) {
      rows = shown;
      const longest = Math.max(1, ...rows.map((r) => Math.max(r.cpu_ns.max, METRIC.modelled_total_ns.value(r))));
      const unit = timeUnit(longest);
      chart.data.labels = labels;
      cpu.data = rows.map((r) => r.cpu_ns.median / unit.scale);
      io.data = rows.map((r) => r.modelled_io_ns / unit.scale);
      const axis = chart.options.scales?.["x"];
      if (axis) {
        // Chart.js rounds up to a tick; the whiskers are outside its data, so say how far they reach.
        axis.suggestedMax = longest / unit.scale;
        (axis as { title: { text: string } }).title.text = `${METRIC.modelled_total_ns.short} (${unit.unit})`;
      }
      // Exact counts come before any timing: until then only the modelled
      // part is drawn, and the labels say the CPU time is still coming.
      const timed = rows.every((r) => r.cpu_ns.samples > 0);
      extrasOf.set(chart, {
        endLabels: rows.map((r) => (timed ? formatNs(METRIC.modelled_total_ns.value(r)) : `${formatNs(r.modelled_io_ns)} I/O · CPU ${untimedText(timing)}`)),
        whiskers: timed ? rows.map((r) => [r.cpu_ns.min / unit.scale, r.cpu_ns.max / unit.scale]) : null,
        theme: currentTheme,
      });
      chart.update("none");
      canvas.setAttribute(
        "aria-label",
        `${title}: ${rows
          .map((r, i) =>
            timed
              ? `${labels[i]} CPU ${formatNs(METRIC.cpu_median_ns.value(r))} measured plus ${formatNs(METRIC.modelled_io_ns.value(r))} ${METRIC.modelled_io_ns.short}`
              : `${labels[i]} ${formatNs(METRIC.modelled_io_ns.value(r))} ${METRIC.modelled_io_ns.short}, ${METRIC.cpu_median_ns.short} still being measured`,
          )
          .join("; ")}.`,
      );
    },
    retheme(next) {
      io.backgroundColor = hatch(COLOURS.io, next.surface);
    },
  };
}
/** What every horizontal bar chart shares: a bar per row, drawn at once, room right of the bars for their value labels. */
const HBAR = {
  indexAxis: "y",
  animation: false,
  responsive: true,
  maintainAspectRatio: false,
  layout: { padding: { right: LABEL_PX } },
} as const;

/** The options of a horizontal bar chart of one series: no legend, `label` in the tooltip. */
export function hBarOptions(label: (item: TooltipItem<"bar">) => string) {
  return { ...HBAR, plugins: { legend: { display: false }, tooltip: { callbacks: { label } } } };
}

/**
 * A horizontal bar chart of calls that reach the system (source reads, sink
 * writes), one bar per row on a log scale with ticks on the decades.
 */
export function createCallsChart(canvas: HTMLCanvasElement, colour: string, noun: string): Chart<"bar", number[], string> {
  return new Chart<"bar", number[], string>(canvas, {
    type: "bar",
    data: { labels: [], datasets: [{ label: noun, data: [], backgroundColor: colour }] },
    options: {
      ...hBarOptions((item) => `${formatCount(Number(item.raw))} ${noun}`),
      scales: {
        x: {
          type: "logarithmic",
          min: 1,
          title: { display: true, text: `${noun} (log scale)` },
          ticks: {
            autoSkip: true,
            maxRotation: 0,
            callback: (value) => {
              const v = Number(value);
              const exponent = Math.log10(v);
              return Math.abs(exponent - Math.round(exponent)) < 1e-9 ? compact(v) : null;
            },
          },
        },
        y: { ticks: {} },
      },
    },
    plugins: [annotations],
  });
}
/** A horizontal bar chart of one count per reader, on a linear axis from 0 to at least `floor`. */
export function countChart(
  canvas: HTMLCanvasElement,
  colour: string,
  axis: string,
  floor: number,
  tooltip: (value: number) => string,
): Chart<"bar", number[], string | string[]> {
  // A label may be lines (an array): the write lab's cursor names on a narrow chart.
  return new Chart<"bar", number[], string | string[]>(canvas, {
    type: "bar",
    data: { labels: [], datasets: [{ label: axis, data: [], backgroundColor: colour }] },
    options: {
      ...hBarOptions((item) => tooltip(Number(item.raw))),
      scales: {
        x: {
          beginAtZero: true,
          // All zeros would otherwise give a 0–1 axis with fractional ticks.
          suggestedMax: floor,
          title: { display: true, text: axis },
          ticks: { maxRotation: 0, precision: 0, callback: (value) => compact(Number(value)) },
        },
        y: { ticks: {} },
      },
    },
    plugins: [annotations],
  });
}
