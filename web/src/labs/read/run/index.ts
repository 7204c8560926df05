// The single run's view (owns <div id="view-run">'s charts and table): four
// charts (charts.ts) drawn into figures the page has from the start
// (chart-frames.ts: the charts' module, which brings chart.js, comes after
// the first numbers), the full table (table.ts), and the headline
// (headline.ts).

import type { Codec } from "../../../engine/codec";
import type { Report } from "../../../engine/types.gen";
import { byId } from "../../../shared/dom";
import { chartsIn } from "../../../shared/chart-kit";
import type { ExportedChart, LabContext } from "../../../shared/lab";
import { onFirstUse } from "../../../shared/later";
import { createReadChartFrames, showReadCaptions, sizeReadCharts } from "./chart-frames";
import { runHeadline } from "./headline";
import { createTable } from "./table";

export interface RunView {
  /** Sizes the charts for the readers `params` compare. */
  show(readers: number): void;
  /** Shows `report`; resolves once its charts are drawn (or could not be). */
  update(report: Report, timing: boolean): Promise<void>;
  headline(): string;
  retheme(): void;
  charts(): ExportedChart[];
}

export function createRunView(context: LabContext, codec: Codec, labelOf: (id: string) => string): RunView {
  const buffered = (id: string): boolean => codec.schema.readers.find((r) => r.id === id)?.shape !== "unbuffered";
  const container = byId("charts");
  const frames = createReadChartFrames(container);
  const charts = onFirstUse(() =>
    import("./charts").then((m) => {
      const made = m.createReadCharts(container, frames);
      context.chartsChanged();
      return made;
    }),
  );
  const table = createTable(byId("table"), codec);
  let last: Report | null = null;
  return {
    show: (readers) => sizeReadCharts(frames, readers),
    update(report, timing) {
      last = report;
      sizeReadCharts(frames, report.runs.length);
      showReadCaptions(frames, report, labelOf, timing);
      table.update(report, labelOf, timing);
      return new Promise<void>((drawn) =>
        charts(
          (c) => {
            c.update(report, labelOf, timing);
            drawn();
          },
          () => drawn(),
        ),
      );
    },
    headline: () => (last ? runHeadline(last, labelOf, buffered, codec) : ""),
    retheme: () => charts((c) => c.retheme()),
    charts: () => chartsIn(container),
  };
}
