// The chart kit both labs draw with: the palette, the theme read from the
// page's CSS, filling the bar charts and the plugin that writes values after
// bars and min–max whiskers. Charts are created once and then only their data
// changes (chart.js performance guide): animation off, only the parts used
// registered. Nothing here loads chart.js (its types only): the bar charts
// themselves are made in chart-bars.ts, loaded with the first chart drawn.
//
// Colours are from the Okabe–Ito palette, which stays distinct for the common
// kinds of colour blindness.

import type { Chart, Plugin } from "chart.js";
import type { TermId } from "../engine/types.gen";
import { h } from "./dom";
import { formatCount } from "./format";
import type { ExportedChart } from "./lab";
import { termButton } from "./term";

/** The charts drawn in `container` (each `figure.chart` with a canvas), titled by their captions: what a lab offers for PNG export. */
export function chartsIn(container: ParentNode): ExportedChart[] {
  return [...container.querySelectorAll<HTMLElement>("figure.chart")].flatMap((figure) => {
    const canvas = figure.querySelector("canvas");
    return canvas ? [{ title: figure.querySelector("figcaption")?.textContent ?? "chart", canvas }] : [];
  });
}

export const OKABE_ITO = {
  orange: "#E69F00",
  skyBlue: "#56B4E9",
  bluishGreen: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
  reddishPurple: "#CC79A7",
} as const;


export interface Theme {
  text: string;
  muted: string;
  grid: string;
  surface: string;
  /**
   * Chart text size: chart.js's 12 px at the page's 16 px, larger where the
   * page's type is, and never below the page's `--chart-font-min` (presenter
   * mode sets it, so a projector's labels stay readable).
   */
  fontPx: number;
}

export function readTheme(): Theme {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  const scaled = Math.round((12 * (parseFloat(css.fontSize) || 16)) / 16);
  return {
    text: v("--fg", "#1b1f24"),
    muted: v("--muted", "#57606a"),
    grid: v("--grid", "rgba(0,0,0,0.1)"),
    surface: v("--surface", "#ffffff"),
    fontPx: Math.max(scaled, parseFloat(v("--chart-font-min", "0")) || 0),
  };
}


/** Diagonal stripes: the fill that marks a modelled (not measured) quantity. */
export function hatch(colour: string, background: string): CanvasPattern | string {
  const tile = document.createElement("canvas");
  const ratio = Math.max(1, Math.round(window.devicePixelRatio || 1));
  const size = 8 * ratio;
  tile.width = size;
  tile.height = size;
  const ctx = tile.getContext("2d");
  if (!ctx) return colour;
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, size, size);
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2.5 * ratio;
  ctx.beginPath();
  for (const offset of [-size, 0, size]) {
    ctx.moveTo(offset, size);
    ctx.lineTo(offset + size, 0);
  }
  ctx.stroke();
  const pattern = ctx.createPattern(tile, "repeat");
  return pattern ?? colour;
}

/** Per-chart extras the plugins draw; kept on the chart so the plugins stay generic. */
export interface Extras {
  /** Text after each bar's end. */
  endLabels: string[];
  /** Whiskers on the CPU dataset: [min, max] per bar, in the axis's unit; null for a bar without one. */
  whiskers: ([number, number] | null)[] | null;
  theme: Theme;
}

export const extrasOf = new WeakMap<Chart, Extras>();

/** Draws min–max whiskers across the measured bars and a value label after each bar. */
export const annotations: Plugin<"bar"> = {
  id: "buflabAnnotations",
  afterDatasetsDraw(chart) {
    const extras = extrasOf.get(chart);
    if (!extras) return;
    const { ctx } = chart;
    const xScale = chart.scales["x"];
    if (!xScale) return;
    ctx.save();
    if (extras.whiskers) {
      const meta = chart.getDatasetMeta(0);
      ctx.strokeStyle = extras.theme.text;
      ctx.lineWidth = 1.5;
      meta.data.forEach((bar, i) => {
        const range = extras.whiskers?.[i];
        if (!range) return;
        const { y, height } = bar.getProps(["y", "height"], true) as { y: number; height: number };
        const x0 = xScale.getPixelForValue(range[0]);
        const x1 = xScale.getPixelForValue(range[1]);
        const cap = Math.min(8, height / 3);
        ctx.beginPath();
        ctx.moveTo(x0, y);
        ctx.lineTo(x1, y);
        ctx.moveTo(x0, y - cap);
        ctx.lineTo(x0, y + cap);
        ctx.moveTo(x1, y - cap);
        ctx.lineTo(x1, y + cap);
        ctx.stroke();
      });
    }
    // The label goes after the longest part of each row (last visible dataset).
    ctx.fillStyle = extras.theme.text;
    ctx.font = `600 ${extras.theme.fontPx}px ${getComputedStyle(chart.canvas).fontFamily}`;
    ctx.textBaseline = "middle";
    const last = chart.getDatasetMeta(chart.data.datasets.length - 1);
    const first = chart.getDatasetMeta(0);
    extras.endLabels.forEach((text, i) => {
      const bars = [first.data[i], last.data[i]].filter((b) => b !== undefined);
      if (bars.length === 0) return;
      let end = 0;
      let y = 0;
      for (const bar of bars) {
        const p = bar.getProps(["x", "y"], true) as { x: number; y: number };
        end = Math.max(end, p.x);
        y = p.y;
      }
      const whisker = extras.whiskers?.[i];
      if (whisker) end = Math.max(end, xScale.getPixelForValue(whisker[1]));
      const width = ctx.measureText(text).width;
      // Layout padding leaves LABEL_PX past the plot area for these labels.
      const room = chart.width - end - 8;
      if (room >= width) {
        ctx.textAlign = "left";
        ctx.fillText(text, end + 6, y);
      } else {
        // No room after the bar: write inside its end, on a backing for contrast.
        ctx.textAlign = "right";
        const x = Math.min(end, chart.chartArea.right) - 6;
        ctx.fillStyle = extras.theme.surface;
        ctx.globalAlpha = 0.85;
        ctx.fillRect(x - width - 3, y - 9, width + 6, 18);
        ctx.globalAlpha = 1;
        ctx.fillStyle = extras.theme.text;
        ctx.fillText(text, x, y);
      }
    });
    ctx.restore();
  },
};

/** Space right of the plot area for the value after the longest bar. */
export const LABEL_PX = 76;

/** Room for one horizontal bar and its label, in CSS pixels, unless the page's `--chart-row-px` says otherwise (presenter mode). */
const ROW_PX = 46;
const AXES_PX = 92;

/** The height of one bar's row in a bar chart's holder, in CSS pixels. */
export function rowPx(holder: HTMLElement): number {
  return parseFloat(getComputedStyle(holder).getPropertyValue("--chart-row-px")) || ROW_PX;
}

/** Gives a bar chart's holder the height its rows need (remembered, for `refitHolders`). */
export function sizeFor(holder: HTMLElement, rows: number): void {
  holder.dataset["rows"] = String(rows);
  const height = `${AXES_PX + rowPx(holder) * Math.max(1, rows)}px`;
  if (holder.style.height !== height) holder.style.height = height;
}

/** Sizes every bar chart holder in `container` again (after the row height changed: presenter mode). */
export function refitHolders(container: ParentNode): void {
  for (const holder of container.querySelectorAll<HTMLElement>(".chart-holder[data-rows]")) sizeFor(holder, Number(holder.dataset["rows"]));
}

/**
 * Applies a colour scheme and type size to a chart's text, axes and
 * annotation plugin. The canvas carries the size as `data-font-px`, so a
 * test can read what the canvas draws with.
 */
export function themeAxes(chart: Chart, theme: Theme): void {
  chart.options.color = theme.text;
  chart.options.font = { ...chart.options.font, size: theme.fontPx };
  chart.canvas.dataset["fontPx"] = String(theme.fontPx);
  for (const axis of Object.values(chart.options.scales ?? {})) {
    if (!axis) continue;
    // Set in place: these are chart.js's option proxies, and spreading one
    // into a new object made chart.js recurse ("Recursion detected") on a
    // colour scheme switch.
    if (axis.grid) axis.grid.color = theme.grid;
    else axis.grid = { color: theme.grid };
    if (axis.ticks) {
      axis.ticks.color = theme.text;
      axis.ticks.font = { ...axis.ticks.font, size: theme.fontPx };
    } else {
      axis.ticks = { color: theme.text, font: { size: theme.fontPx } };
    }
    const title = (axis as { title?: { color?: string; font?: { size?: number } } }).title;
    if (title) {
      title.color = theme.muted;
      title.font = { ...title.font, size: theme.fontPx };
    }
  }
  const legend = chart.options.plugins?.legend;
  if (legend?.labels) legend.labels.font = { ...legend.labels.font, size: theme.fontPx };
  const extras = extrasOf.get(chart);
  if (extras) extras.theme = theme;
}


/** A chart's figure: its title (a term opening the glossary, where `term` names its entry), the holder its canvas fills, and its caption. */
export interface ChartBlock {
  block: HTMLElement;
  holder: HTMLElement;
  canvas: HTMLCanvasElement;
  caption: HTMLElement;
}

export function chartBlock(title: string, note: string, term: TermId | null = null): ChartBlock {
  // Named from the start (its title); the drawn chart replaces the name with its text equivalent.
  const canvas = h("canvas", { role: "img", "aria-label": title });
  const holder = h("div", { class: "chart-holder" }, canvas);
  const caption = h("p", { class: "chart-note" }, note);
  const block = h("figure", { class: "chart" }, h("figcaption", { class: "chart-title" }, term ? termButton(term, title) : title), holder, caption);
  return { block, holder, canvas, caption };
}


/**
 * Fills a calls chart: the bars (0 drawn as 1, the log axis' floor), exact
 * counts at their ends, the axis up to the decade at or above the longest
 * bar, and the canvas's text equivalent.
 */
export function showCalls(
  chart: Chart<"bar", number[], string>,
  canvas: HTMLCanvasElement,
  title: string,
  labels: string[],
  values: number[],
  theme: Theme,
): void {
  chart.data.labels = labels;
  const set = chart.data.datasets[0];
  if (set) set.data = values.map((v) => Math.max(1, v));
  const scale = chart.options.scales?.["x"];
  const most = Math.max(10, ...values);
  if (scale) scale.max = 10 ** Math.ceil(Math.log10(most) - 1e-9);
  extrasOf.set(chart, { endLabels: values.map((v) => formatCount(v)), whiskers: null, theme });
  chart.update("none");
  canvas.setAttribute("aria-label", `${title}: ${labels.map((l, i) => `${l} ${formatCount(values[i] ?? 0)}`).join("; ")}.`);
}


export function showCounts(chart: Chart<"bar", number[], string | string[]>, labels: (string | string[])[], values: number[], endLabels: string[], theme: Theme): void {
  chart.data.labels = labels;
  const set = chart.data.datasets[0];
  if (set) set.data = values;
  extrasOf.set(chart, { endLabels, whiskers: null, theme });
  chart.update("none");
}

/**
 * Ticks for a linear axis of bytes from 0 to `max`: multiples of a power of
 * two (0, 256 KiB, 512 KiB, … rather than 0, 200,000, 400,000, …), between
 * three and eight of them past zero, and at most `most` past zero (what the
 * axis has room for at its type size: labels never run together).
 */
export function binaryTicks(max: number, most = 8): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0];
  let step = 2 ** Math.floor(Math.log2(max));
  while (max / step < 3 && step > 1 && max / (step / 2) <= Math.max(most, 1)) step /= 2;
  const ticks: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) ticks.push(v);
  return ticks;
}

/** 1, 10, 100, 1k, 10k, 100k, 1M, … */
export function compact(v: number): string {
  if (v >= 1e9) return `${v / 1e9}G`;
  if (v >= 1e6) return `${v / 1e6}M`;
  if (v >= 1e3) return `${v / 1e3}k`;
  return String(v);
}
