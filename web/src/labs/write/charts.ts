// The write lab's charts, built with the chart kit like the read lab's: each chart
// is created once and only its data changes; the same whisker and label
// plugin, theme and hatching.
//
// 1. Reallocations per cursor flavour (the counting allocator's exact count):
//    a growable cursor that starts empty reallocates on its way up, a fixed
//    one never. A flavour that stopped with an error has no bar.
// 2. Time per run per cursor flavour: measured CPU median, whisker min–max.
//    A flavour that stopped with an error has no bar, only its error's name.
// 3. Sink write calls, direct vs BufWriter, log scale.
// 4. Time per run for the sink: measured CPU with modelled I/O stacked on top,
//    hatched and labelled modelled (the kit's createTimeChart, as in the read lab).

import { isTimed } from "../../engine/report";
import { Chart, type ChartDataset, type CartesianScaleOptions, type FontSpec, type Scale } from "chart.js";
import { toFont } from "chart.js/helpers";
import type { Codec } from "../../engine/codec";
import type { FlavourRun, SinkRun, WriteReport } from "../../engine/types.gen";
import { formatCount, formatNs, timeUnit, untimedText } from "../../shared/format";
import { countChart, createCallsChart, createTimeChart, hBarOptions, themedCharts } from "../../shared/chart-bars";
import { OKABE_ITO, annotations, extrasOf, readTheme, refitHolders, rowPx, showCalls, showCounts } from "../../shared/chart-kit";
import { createSteps } from "../../shared/steps";
import type { WriteChartFrames } from "./chart-frames";
import { METRIC as M, originLabel } from "../../shared/metrics";

/** The cursor names' type: monospace, at the theme's size (themeAxes sets it). */
const MONOSPACE = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

const COLOURS = {
  growable: OKABE_ITO.blue,
  fixed: OKABE_ITO.reddishPurple,
  sinkWrites: OKABE_ITO.bluishGreen,
};

export interface WriteCharts {
  /** `timing`: whether times not yet in are still coming. */
  update(report: WriteReport, timing: boolean): void;
  retheme(): void;
}

/** "Cursor<&mut Vec<u8>>" → ["Cursor<", "&mut Vec<u8>>"]; short names stay one line. */
export function twoLines(typeName: string): string | string[] {
  const cut = typeName.indexOf("<");
  return typeName.length > 12 && cut > 0 ? [typeName.slice(0, cut + 1), typeName.slice(cut + 1)] : typeName;
}

/**
 * The cursor names as a chart `width` px wide, with rows `rowPx` high, can
 * show them at `fontPx`: on one line while the longest takes at most a third
 * of the width (measured in monospace advances, 0.6 em), else each on two
 * lines (`twoLines`), so the bars keep some width, where a row has room for
 * two lines; where it has not (presenter mode's rows), on one line, which
 * `namesAxis` gives up to half the chart.
 */
export function fitNames(names: string[], width: number, fontPx: number, rowPx: number): (string | string[])[] {
  const longest = Math.max(0, ...names.map((name) => name.length));
  const oneLine = longest * 0.6 * fontPx <= width / 3 || 2 * 1.2 * fontPx > rowPx;
  return oneLine ? names : names.map(twoLines);
}

/**
 * A chart's axis of cursor names: monospace, every name shown (never
 * skipped), and as wide as its longest line up to half the chart (chart.js's
 * own fit leaves it narrower once the value labels' room is taken, and cuts
 * the start of a long name). One per chart: the theme sets its type size.
 */
const namesAxis = () => ({
  ticks: { font: { family: MONOSPACE }, autoSkip: false },
  afterFit(scale: Scale<CartesianScaleOptions>): void {
    const ctx = scale.ctx;
    ctx.save();
    ctx.font = toFont(scale.options.ticks.font as Partial<FontSpec>).string;
    const widest = Math.max(0, ...scale.getLabels().flat().map((line) => ctx.measureText(String(line)).width));
    ctx.restore();
    // The tick marks' length and the labels' padding beside the text.
    const beside = (scale.options.grid.tickLength ?? 8) + scale.options.ticks.padding + 2;
    scale.width = Math.min(Math.max(scale.width, widest + beside), scale.chart.width / 2);
  },
});

/** Draws the three charts into their figures (`createWriteChartFrames`, made with the lab's results). */
export function createWriteCharts(codec: Codec, frames: WriteChartFrames): WriteCharts {
  let theme = readTheme();
  const labelOf = new Map(codec.schema.flavours.map((f) => [f.id, f.label]));
  const growable = new Map(codec.schema.flavours.map((f) => [f.id, f.growable]));
  const modeLabel = new Map(codec.schema.write_modes.map((m) => [m.id, m.label]));

  const { reallocs: reallocBlock, cursors: cursorBlock, writes: writesBlock, sinkTime: sinkTimeBlock } = frames;
  // An axis of at least 0–10, so a cursor that never reallocates shows an empty bar beside one that did.
  const reallocChart = countChart(reallocBlock.canvas, COLOURS.growable, M.reallocs.short, 10, (v) => `${formatCount(v)} ${M.reallocs.short}`);
  if (reallocChart.options.scales) reallocChart.options.scales["y"] = namesAxis();
  let flavourRuns: FlavourRun[] = [];
  const cursorData: ChartDataset<"bar", number[]> = { label: originLabel(M.cpu_median_ns), data: [], backgroundColor: [] };
  const cursorChart = new Chart<"bar", number[], string | string[]>(cursorBlock.canvas, {
    type: "bar",
    data: { labels: [], datasets: [cursorData] },
    options: {
      ...hBarOptions((item) => {
        const run = flavourRuns[item.dataIndex];
        if (!run) return "";
        if (!run.cpu_ns) return `${run.error?.kind ?? "failed"}: ${run.error?.message ?? ""}`;
        return `CPU median ${formatNs(run.cpu_ns.median)} (min ${formatNs(run.cpu_ns.min)}, max ${formatNs(run.cpu_ns.max)})`;
      }),
      scales: {
        x: { beginAtZero: true, title: { display: true, text: "time per run" }, ticks: { maxRotation: 0 } },
        y: namesAxis(),
      },
    },
    plugins: [annotations],
  });

  const writesChart = createCallsChart(writesBlock.canvas, COLOURS.sinkWrites, M.sink_writes.short);

  let sinkRuns: SinkRun[] = [];
  const sinkTimeChart = createTimeChart(sinkTimeBlock.canvas, theme, `${M.modelled_total_ns.label}, sink`);

  const charts = themedCharts([reallocChart, cursorChart, writesChart, sinkTimeChart.chart], sinkTimeChart, theme);
  const steps = createSteps();

  return {
    update(report, timing) {
      // One chart per task (shared/steps.ts): input is handled between them.
      steps.run([
        () => {
          flavourRuns = report.flavours;
          const labels = flavourRuns.map((f) => labelOf.get(f.flavour) ?? f.flavour);
          const reallocs = flavourRuns.map((f) => (f.error ? 0 : M.reallocs.value(f)));
          showCounts(
            reallocChart,
            fitNames(labels, reallocBlock.holder.clientWidth, theme.fontPx, rowPx(reallocBlock.holder)),
            reallocs,
            flavourRuns.map((f, i) => (f.error ? `${f.error.kind}: no buffer` : formatCount(reallocs[i]!))),
            theme,
          );
          reallocChart.data.datasets[0]!.backgroundColor = flavourRuns.map((f) => (growable.get(f.flavour) ? COLOURS.growable : COLOURS.fixed));
          reallocChart.update("none");
          reallocBlock.canvas.setAttribute(
            "aria-label",
            `${M.reallocs.label} per cursor: ${flavourRuns.map((f, i) => `${labels[i]} ${f.error ? `stopped with ${f.error.kind}` : formatCount(reallocs[i]!)}`).join("; ")}.`,
          );
        },
        () => {
          const labels = flavourRuns.map((f) => labelOf.get(f.flavour) ?? f.flavour);
          const timed = (f: (typeof flavourRuns)[number]): boolean => isTimed(f.cpu_ns);
          const longest = Math.max(1, ...flavourRuns.map((f) => f.cpu_ns?.max ?? 0));
          const unit = timeUnit(longest);
          // On a phone the names take two lines, so the bars keep some width (fitNames).
          cursorChart.data.labels = fitNames(labels, cursorBlock.holder.clientWidth, theme.fontPx, rowPx(cursorBlock.holder));
          cursorData.data = flavourRuns.map((f) => (f.cpu_ns ? f.cpu_ns.median / unit.scale : 0));
          // Fixed buffers in one colour, growable ones in another (the qualities table says which).
          cursorData.backgroundColor = flavourRuns.map((f) => (growable.get(f.flavour) ? COLOURS.growable : COLOURS.fixed));
          const x = cursorChart.options.scales?.["x"];
          if (x) {
            x.suggestedMax = longest / unit.scale;
            (x as { title: { text: string } }).title.text = `time per run (${unit.unit})`;
          }
          extrasOf.set(cursorChart, {
            endLabels: flavourRuns.map((f) =>
              f.error ? `${f.error.kind}: not timed` : timed(f) ? formatNs(f.cpu_ns!.median) : untimedText(timing),
            ),
            whiskers: flavourRuns.map((f) => (timed(f) ? [f.cpu_ns!.min / unit.scale, f.cpu_ns!.max / unit.scale] : null)),
            theme,
          });
          cursorChart.update("none");
          cursorBlock.canvas.setAttribute(
            "aria-label",
            `${M.cpu_median_ns.label} per run: ${flavourRuns
              .map((f, i) => `${labels[i]} ${f.error ? `stopped with ${f.error.kind}` : timed(f) ? formatNs(f.cpu_ns!.median) : timing ? "still being timed" : "not timed"}`)
              .join("; ")}.`,
          );
        },
        () => {
          sinkRuns = report.sink;
          const sinkLabels = sinkRuns.map((s) => modeLabel.get(s.mode) ?? s.mode);
          showCalls(writesChart, writesBlock.canvas, M.sink_writes.label, sinkLabels, sinkRuns.map(M.sink_writes.value), theme);

          sinkTimeChart.show(sinkLabels, sinkRuns, theme, timing);
        },
      ]);
    },
    retheme() {
      theme = charts.retheme(() => {
        for (const block of [reallocBlock, cursorBlock, writesBlock, sinkTimeBlock]) refitHolders(block.block);
      });
    },
  };
}
