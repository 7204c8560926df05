// The read lab: readers over a chunked source. It owns its form
// (<form id="controls">, settings.ts) and its results (<div
// id="read-results">), in three views, each a folder of its own: the single
// run (run/), the sweep (sweep/, with a two-axis sweep's heatmap in
// sweep/heatmap/), and the buffer timeline (timeline/); and it writes the
// headline for each.

import { isWriteReport } from "../../engine/report";
import type { Params, View } from "../../engine/types.gen";
import { byId, h } from "../../shared/dom";
import { formatCount } from "../../shared/format";
import type { LabContext, LabUi } from "../../shared/lab";
import { onFirstUse, type Later } from "../../shared/later";
import { METRIC } from "../../shared/metrics";
import { createRunView } from "./run";
import { createReadSettings } from "./settings";
import { TIMELINE_START, bytesText } from "./timeline/start";

export function createReadLab(context: LabContext): LabUi {
  const { codec } = context;
  const labels = new Map<string, string>(codec.schema.readers.map((r) => [r.id, r.label]));
  const labelOf = (id: string): string => labels.get(id) ?? id;
  const form = byId<HTMLFormElement>("controls");
  const results = byId("read-results");
  const panes: Record<View, HTMLElement> = { run: byId("view-run"), sweep: byId("view-sweep"), timeline: byId("view-timeline") };
  const settings = createReadSettings({ form, codec, onChange: context.edited });
  const run = createRunView(context, codec, labelOf);
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
  /** The timeline's starting settings on top of `params`, in its view. */
  const startTimeline = (params: Params): Params => ({ ...params, ...TIMELINE_START, view: "timeline" });
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
      run.show(params.readers.length);
      sweep((s) => s.show(params));
      timeline.now?.showStep(params.step);
    },
    update(report, timing) {
      if (isWriteReport(report)) return Promise.resolve();
      timeline((t) => t.update(report));
      return run.update(report, timing);
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
      return run.headline();
    },
    fitted(notes) {
      sweep((s) => s.note(notes));
    },
    retheme() {
      run.retheme();
      sweep((s) => s.retheme());
    },
    charts: () => run.charts(),
    labelOf,
    peek(report) {
      if (isWriteReport(report)) return [];
      return [`${METRIC.source_reads.label}: `, ...report.runs.flatMap((r, i) => [i > 0 ? " · " : "", `${labelOf(r.reader)} `, h("strong", {}, formatCount(METRIC.source_reads.value(r)))])];
    },
  };
}
