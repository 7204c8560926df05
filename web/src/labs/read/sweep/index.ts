// The sweep view (owns #sweep): its controls (controls.ts), then the
// results of the page's newest sweep, point by point: four line charts
// against the axis (charts.ts) or, on two axes, a heatmap (heatmap/),
// how it was timed, the knees in words (knees.ts), a table (table.ts) and
// the exports (export.ts); its progress under them (progress.ts). A
// comparison link's two sweeps add the knee of each, A against B (pair.ts),
// and B's lines on the charts. The sweep's state is the page's model's;
// this view draws what `render` hands it.
//
// Each report is drawn in steps (the text, then one chart each), each its
// own task, so a point never costs this thread one long task; a newer
// report replaces one still being drawn.

import type { Codec } from "../../../engine/codec";
import type { Knee, Metric, Params, Sweep, SweepComparison, SweepReport } from "../../../engine/types.gen";
import { h, replaceChildren, setText } from "../../../shared/dom";
import type { SweepShown } from "../../../shared/lab";
import { createHeatmap } from "./heatmap";
import { axesOf } from "./axes";
import { createSweepCharts, lineChartLoaded } from "./charts";
import { createControls } from "./controls";
import { createSweepExport } from "./export";
import { gridHeadline, sweepHeadline } from "./headline";
import { createKnees } from "./knees";
import { createSweepPair, sweepSides } from "./pair";
import { METRICS } from "./metrics";
import { createProgress } from "./progress";
import { createSweepTable } from "./table";

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

/** How the points were timed, and whether every reader delivered the source's bytes. */
function samplingText(report: SweepReport): string {
  const first = report.points[0]?.report;
  const samples = first?.runs[0]?.cpu_ns.samples ?? 0;
  const timing = first?.quick
    ? "Timing: one quick sample per reader per point (rough). "
    : `Timing: ${samples} samples per reader per point after a short warm-up before the first point, lighter than Measure's full measurement so a sweep stays short; times are rough, counts are exact. `;
  const bytes = report.digests_agree ? "Every reader delivered exactly the source's bytes at every point." : "A reader delivered DIFFERENT bytes than the source at some point.";
  return timing + bytes;
}

export function createSweep(section: HTMLElement, options: SweepOptions): SweepPanel {
  const { codec, labelOf } = options;
  const axes = axesOf(codec);
  const foot = h("div", { class: "sweep-foot" });
  const controls = createControls(codec, axes, { onChange: options.onChange, onRun: options.onRun, onCancel: options.onCancel, foot });
  const progress = createProgress(axes);
  foot.prepend(progress.element);
  const charts = createSweepCharts(axes, labelOf);
  const heatmap = createHeatmap(axes, labelOf, () => section.clientWidth);
  const samplingNote = h("p", { class: "sweep-note" });
  const knees = createKnees(axes, labelOf, codec.schema.knee_tolerance);
  const table = createSweepTable(axes, labelOf);
  // A comparison link's two sweeps: the knee of each, A against B (its A is drawn in place of the page's own sweep).
  const pair = createSweepPair(codec.schema.knee_tolerance, codec.schema.compare.separate_factor);
  let paired: SweepComparison | null = null;
  /** The report drawn last (the heatmap's controls and the exports use it). */
  let last: SweepReport | null = null;
  const exports = createSweepExport({
    report: () => last,
    compared: () => paired,
    urlOf: options.urlOf,
    chart: async (i, r) => ({ canvas: await charts.canvas(i), title: `${METRICS[i]!.title} against ${axes.infoOf(r.sweep.axis).label}` }),
    chartTitles: METRICS.map((m) => m.title),
    heatmap,
  });
  const results = h("div", { class: "sweep-results", hidden: true }, pair.element, charts.element, heatmap.element, samplingNote, ...knees.elements, table.element, exports.element);
  // The controls in one row, the charts right under them; the progress and
  // what the axis does follow the results (the headline says the rest).
  replaceChildren(section, controls.form, controls.rangeNote, results, foot);

  /** The sweep shown: its status, and whether it is of the settings on screen. */
  let shown: SweepShown | null = null;
  /** The newest report waiting to be drawn, and the one whose drawing finished last. */
  let pendingReport: SweepReport | null = null;
  let drawnReport: SweepReport | null = null;
  let drawing: Promise<void> | null = null;

  const setRunning = (running: boolean): void => {
    controls.setRunning(running);
    section.setAttribute("aria-busy", String(running));
  };
  const showProgress = (): void => {
    progress.show(shown, shown?.report == null || drawnReport === (paired?.a ?? shown.report));
    options.onHeadline();
  };

  /** The steps that show one report: the text first, then the heatmap or one step per chart. */
  function drawSteps(report: SweepReport): (() => void)[] {
    const readers = report.points[0]?.report.runs.map((r) => r.reader) ?? [];
    const kneeOf = (reader: string, metric: Metric, across?: number): Knee | undefined =>
      report.knees.find((k) => k.reader === reader && k.metric === metric && k.across === across);
    const grid = report.sweep.across !== undefined;
    charts.element.hidden = grid;
    heatmap.element.hidden = !grid;
    exports.showGrid(grid);
    const text = (): void => {
      last = report;
      results.hidden = false;
      options.onHeadline();
      knees.show(report, readers);
      table.show(report, readers, kneeOf);
      setText(samplingNote, samplingText(report));
      showProgress();
    };
    const lines = paired && paired.a === report ? { b: paired.b, sides: sweepSides(paired) } : null;
    return [text, ...(grid ? [() => heatmap.draw(report)] : charts.steps(report, readers, kneeOf, lines))];
  }

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

  return {
    headline() {
      const axis = controls.axis();
      const running = shown?.status === "running";
      if (running && (last?.points.length ?? 0) === 0) return axis ? `Sweeping ${axis.label.toLowerCase()}: the first point is being measured.` : "";
      if (last) {
        const info = axes.infoOf(last.sweep.axis);
        if (last.sweep.across) return gridHeadline(last, info, axes.infoOf(last.sweep.across.axis), labelOf, axes.valueWords, running);
        return sweepHeadline(last, info, labelOf, (v) => axes.valueWords(info, v), running, codec.schema.knee_tolerance);
      }
      if (!axis) return "Pick an axis to re-run this experiment at every power of two in a range, and see where a bigger value stops paying.";
      return `Run the sweep to re-run these settings at every power of two of the ${axis.label.toLowerCase()} and find where a bigger value stops paying.`;
    },
    show(params) {
      controls.show(params);
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
      pair.show(sweep?.compared);
      // Once the comparison's sweeps are in, its A (measured beside B) is the sweep drawn, B's lines beside it.
      paired = sweep?.compared?.result ?? null;
      const shownReport = paired?.a ?? sweep?.report ?? null;
      if (shownReport && shownReport !== pendingReport && shownReport !== drawnReport) {
        const report = shownReport;
        void draw(report).then(() => {
          if (shown?.status === "done" && (shown.report === report || paired?.a === report)) performance.mark("buflab:sweep-done");
          showProgress();
        });
      }
      showProgress();
    },
    note: controls.note,
    retheme() {
      charts.retheme();
      heatmap.retheme();
    },
  };
}
