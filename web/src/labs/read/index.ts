// The read lab: readers over a chunked source. It owns its form
// (<form id="controls">) and its results (<div id="read-results">), in three
// views: the single run (charts and table), the sweep, and the buffer
// timeline; and it writes the headline for each.

import { isWriteReport } from "../../engine/report";
import type { Params, Report, View } from "../../engine/types.gen";
import { byId, h } from "../../shared/dom";
import { formatCount } from "../../shared/format";
import type { LabContext, LabUi } from "../../shared/lab";
import { onFirstUse, type Later } from "../../shared/later";
import { METRIC } from "../../shared/metrics";
import { createReadChartFrames, showReadCaptions, sizeReadCharts } from "./chart-frames";
import { runHeadline } from "./headline";
import { createReadSettings } from "./settings";
import { createTable } from "./table";
import { TIMELINE_START, bytesText } from "./timeline-start";

export function createReadLab(context: LabContext): LabUi {
  const { codec } = context;
  const labels = new Map<string, string>(codec.schema.readers.map((r) => [r.id, r.label]));
  const labelOf = (id: string): string => labels.get(id) ?? id;
  const buffered = (id: string): boolean => codec.schema.readers.find((r) => r.id === id)?.shape !== "unbuffered";

  const form = byId<HTMLFormElement>("controls");
  const results = byId("read-results");
  const panes: Record<View, HTMLElement> = { run: byId("view-run"), sweep: byId("view-sweep"), timeline: byId("view-timeline") };
  const settings = createReadSettings({ form, codec, onChange: context.edited });
  // The charts' figures come with the page, sized for the readers the
  // settings compare; the charts themselves (their module brings chart.js)
  // come after the first numbers and draw into them.
  const frames = createReadChartFrames(byId("charts"));
  const charts = onFirstUse(() =>
    import("./charts").then((m) => {
      const made = m.createReadCharts(byId("charts"), frames);
      context.chartsChanged();
      return made;
    }),
  );
  const table = createTable(byId("table"), codec);
  // The sweep and timeline views come with their modules after the first
  // numbers (the page's first script carries neither, nor the sweep's
  // runner); until then their headlines are empty, and the page's headline
  // is redrawn when they come.
  const view = <T>(load: () => Promise<T>): Later<T> => {
    const later = onFirstUse(load);
    later(() => context.headlineChanged());
    return later;
  };
  const sweep = view(() =>
    import("./sweep").then((m) =>
      m.createSweep(byId("sweep"), {
        codec,
        labelOf,
        onRun: context.sweepRun,
        onCancel: context.sweepCancel,
        onChange: context.sweepEdited,
        onHeadline: context.headlineChanged,
        urlOf: context.urlOf,
      }),
    ),
  );
  const timeline = view(() =>
    import("./timeline").then((m) =>
      m.createTimeline(byId("timeline"), {
        labelOf,
        onHeadline: context.headlineChanged,
        onStart: () => context.edited(startTimeline(context.params()), false),
        urlOf: context.urlOf,
        step: () => context.params().step,
        onStep: (step) => {
          if (step !== context.params().step) context.displayed({ ...context.params(), step });
        },
        link: context.link,
        autoplay: () => !context.params().present,
      }),
    ),
  );
  let last: Report | null = null;

  /** The timeline's starting settings on top of `params`, in its view. */
  const startTimeline = (params: Params): Params => ({ ...params, ...TIMELINE_START, view: "timeline" });
  /** What opening the timeline on its starting settings changed, in words. */
  const timelineStartNote = (params: Params): string =>
    `The timeline opened on its own starting settings: buffer capacity ${bytesText(params.cap)} → ${bytesText(TIMELINE_START.cap)}, ` +
    `read size ${bytesText(params.rs)} → ${bytesText(TIMELINE_START.rs)} (cap=${TIMELINE_START.cap}, rs=${TIMELINE_START.rs}), ` +
    `so a fill, its drain and a refill fit in the ${codec.schema.limits.step.max} recorded steps. The other views keep these settings.`;

  return {
    id: "read",
    elements: [form, results],
    views: codec.schema.views.map((v) => v.id),
    show(params) {
      settings.show(params);
      sizeReadCharts(frames, params.readers.length);
      sweep((s) => s.show(params));
      timeline.now?.showStep(params.step);
    },
    update(report, timing) {
      if (isWriteReport(report)) return;
      last = report;
      sizeReadCharts(frames, report.runs.length);
      showReadCaptions(frames, report, labelOf, timing);
      charts((c) => c.update(report, labelOf, timing));
      table.update(report, labelOf, timing);
      timeline((t) => t.update(report));
    },
    showView(view) {
      for (const [id, pane] of Object.entries(panes)) pane.hidden = id !== view;
    },
    enter(view, params) {
      // The page's own defaults drain an 8 KiB buffer a byte at a time, which
      // never refills in the recorded steps: the timeline starts from its
      // own settings instead, and says so. Any other experiment is shown as it is.
      const defaults = codec.encodeLink({ ...codec.schema.defaults, present: params.present, predict: params.predict });
      if (view === "timeline" && codec.encodeLink({ ...params, view: "run", lesson: null, step: 1 }) === defaults) {
        return { params: startTimeline(params), note: timelineStartNote(params) };
      }
      return { params: { ...params, view }, note: null };
    },
    showSweep(shown) {
      // The sweep's module comes with its view; a sweep never runs before it is shown.
      if (shown) sweep((s) => s.render(shown));
    },
    headline(view) {
      if (view === "sweep") return sweep.now?.headline() ?? "";
      if (view === "timeline") return timeline.now?.headline() ?? "";
      return last ? runHeadline(last, labelOf, buffered, codec) : "";
    },
    fitted(notes) {
      sweep((s) => s.note(notes));
    },
    retheme() {
      charts((c) => c.retheme());
      sweep((s) => s.retheme());
    },
    charts() {
      return [...document.querySelectorAll<HTMLElement>("#charts figure.chart")].flatMap((figure) => {
        const canvas = figure.querySelector("canvas");
        return canvas ? [{ title: figure.querySelector("figcaption")?.textContent ?? "chart", canvas }] : [];
      });
    },
    labelOf,
    peek(report) {
      if (isWriteReport(report)) return [];
      return [`${METRIC.source_reads.label}: `, ...report.runs.flatMap((r, i) => [i > 0 ? " · " : "", `${labelOf(r.reader)} `, h("strong", {}, formatCount(METRIC.source_reads.value(r)))])];
    },
  };
}
