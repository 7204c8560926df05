// The write lab: seven write cursors and BufWriter over a chunked sink. It
// owns its form (<form id="write-controls">) and its results
// (<div id="write-results">), which are one view of their own.

import { isWriteReport } from "../../engine/report";
import type { WriteReport } from "../../engine/types.gen";
import { byId, h } from "../../shared/dom";
import { chartsIn } from "../../shared/chart-kit";
import { formatCount, formatNs, listText } from "../../shared/format";
import type { LabContext, LabUi } from "../../shared/lab";
import { METRIC } from "../../shared/metrics";
import { createWriteResults, rankCursors, summarizeWrite } from "./results";
import { createWriteSettings } from "./settings";

export function createWriteLab(context: LabContext): LabUi {
  const { codec } = context;
  const flavourLabels = new Map<string, string>(codec.schema.flavours.map((f) => [f.id, f.label]));
  const labelOf = (id: string): string => flavourLabels.get(id) ?? id;
  const form = byId<HTMLFormElement>("write-controls");
  const element = byId("write-results");
  const settings = createWriteSettings({ form, codec, onChange: context.edited });
  const results = createWriteResults(element, codec, context.chartsChanged);
  let last: WriteReport | null = null;

  return {
    id: "write",
    elements: [form, element],
    views: [],
    show(params) {
      settings.show(params);
    },
    update(report, timing) {
      if (!isWriteReport(report)) return Promise.resolve();
      last = report;
      return results.update(report, timing);
    },
    showView() {},
    enter(view, params) {
      return { params: { ...params, view }, note: null };
    },
    showSweep() {},
    headline() {
      return last ? summarizeWrite(last, labelOf, codec) : "";
    },
    fitted() {},
    retheme() {
      results.retheme();
    },
    charts: () => chartsIn(element),
    labelOf,
    peek(report) {
      if (!isWriteReport(report)) return [];
      // The fastest cursors as the samples allow (all within noise of each
      // other named; none while they do not separate), and the sink writes per mode.
      const { fastest } = rankCursors(report, codec.verdict);
      const names = fastest.map((f) => labelOf(f.flavour));
      return [
        ...(fastest.length > 0
          ? ["Fastest: ", h("strong", {}, listText(names)), fastest.length > 1 ? " (within noise) · " : ` ${formatNs(fastest[0]!.cpu_ns?.median ?? 0)} · `]
          : []),
        `${METRIC.sink_writes.label}: `,
        ...report.sink.flatMap((s, i) => [i > 0 ? " · " : "", `${s.mode === "direct" ? "direct" : "BufWriter"} `, h("strong", {}, formatCount(METRIC.sink_writes.value(s)))]),
      ];
    },
  };
}
