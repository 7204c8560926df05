// The log's descriptors, one row each (owns its element): read calls, bytes,
// sizes asked and returned, short reads, end-of-file probes and failed
// calls, as the engine counted them; a descriptor's name, a button, shows
// its replay.

import type { Descriptor, Sizes, TraceReport } from "../../engine/types.gen";
import { h, replaceChildren } from "../../shared/dom";
import { formatBinaryBytes, formatCount } from "../../shared/format";
import { METRIC } from "../../shared/metrics";

/** Most rows drawn; the rest are said in a line under the table. */
export const ROWS_SHOWN = 50;

/** "1 B", "1 B–8 KiB (most often 4 KiB)", "–" for no calls. */
export function sizesText(s: Sizes): string {
  if (s.calls === 0) return "–";
  const range = s.min === s.max ? formatBinaryBytes(s.min) : `${formatBinaryBytes(s.min)}–${formatBinaryBytes(s.max)}`;
  const most = s.min !== s.max && s.exact[0] && s.exact[0].count > 1 ? ` (most often ${formatBinaryBytes(s.exact[0].size)})` : "";
  return range + most;
}

const COLUMNS: [string, (d: Descriptor) => string][] = [
  ["Read calls", (d) => formatCount(d.calls)],
  [METRIC.bytes.label, (d) => formatCount(d.bytes)],
  ["Asked for", (d) => sizesText(d.asked)],
  ["Returned", (d) => sizesText(d.returned)],
  ["Short reads", (d) => formatCount(d.short_reads)],
  ["End-of-file probes", (d) => formatCount(d.eof)],
  ["Failed", (d) => formatCount(d.failed)],
];

export interface FiguresPiece {
  draw(report: TraceReport | null, chosen: number | null): void;
}

export function createFigures(element: HTMLElement, choose: (id: number) => void): FiguresPiece {
  let drawn: { report: TraceReport | null; chosen: number | null } = { report: null, chosen: null };
  return {
    draw(report, chosen) {
      if (report === drawn.report && chosen === drawn.chosen) return;
      drawn = { report, chosen };
      if (report === null || report.descriptors.length === 0) {
        replaceChildren(element);
        return;
      }
      const rows = report.descriptors.slice(0, ROWS_SHOWN).map((d) => {
        // The descriptor's name is the button that shows its replay: the
        // first column stays in view when the table scrolls on a phone.
        const pick = h("button", { type: "button", class: "trace-pick", "aria-pressed": d.id === chosen ? "true" : "false", title: "Show its replay" }, d.label);
        pick.addEventListener("click", () => choose(d.id));
        return h(
          "tr",
          { "data-descriptor": d.id, class: d.id === chosen ? "chosen" : null },
          h("th", { scope: "row" }, pick),
          ...COLUMNS.map(([, value]) => h("td", { class: "num" }, value(d))),
        );
      });
      const more = report.descriptors.length - ROWS_SHOWN;
      replaceChildren(
        element,
        h(
          "table",
          { class: "results trace-figures", id: "trace-figures" },
          h("caption", {}, `Read calls per descriptor: ${formatCount(report.read_calls)} in ${formatCount(report.lines)} lines`),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Descriptor (its replay)"), ...COLUMNS.map(([name]) => h("th", { scope: "col" }, name)))),
          h("tbody", {}, ...rows),
        ),
        more > 0 ? h("p", { class: "field-note" }, `${formatCount(more)} more descriptors are in the report but not drawn here.`) : null,
      );
    },
  };
}
