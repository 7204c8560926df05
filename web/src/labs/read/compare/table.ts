// The comparison's table: per reader and metric, A, B, B − A, B ÷ A and what
// that means, every spread labelled with what it is, colours warm (more,
// slower) and cool (less, faster) always with the words.

import type { Comparison, Compared, PairedRun, Schema } from "../../../engine/types.gen";
import { h } from "../../../shared/dom";
import { METRIC } from "../../../shared/metrics";
import { difference, figure, OUTCOME_WORDS, outcomeTone, ratioText, spreadAbout, spreadLabel, spreadsShown, spreadText } from "./words";

/** The table's columns; a phone's stacked rows name each cell by its column (`data-label`). */
const COLUMNS = ["Reader, metric", "A", "B", "B − A", "B ÷ A", "Says"] as const;

function readerName(run: PairedRun, labelOf: (id: string) => string): string {
  if (run.a && run.b && run.a !== run.b) return `${labelOf(run.a)} → ${labelOf(run.b)}`;
  return labelOf(run.a ?? run.b ?? "");
}

function row(schema: Schema, reader: string, m: Compared): HTMLElement {
  const spread = (s: Compared["a_spread"]) => (s ? h("span", { class: "spread", title: spreadAbout(schema, s.kind) }, spreadText(schema, m.metric, s)) : "");
  const xCopy = m.a_x_copy !== null && m.b_x_copy !== null ? h("span", { class: "x-copy" }, `${m.a_x_copy.toFixed(1)} → ${m.b_x_copy.toFixed(1)} × copy`) : "";
  return h(
    "tr",
    { "data-metric": m.metric, "data-outcome": m.outcome },
    h("th", { scope: "row" }, reader, h("span", { class: "metric" }, METRIC[m.metric].label)),
    h("td", { class: "num a", "data-label": COLUMNS[1] }, figure(m.metric, m.a), spread(m.a_spread)),
    h("td", { class: "num b", "data-label": COLUMNS[2] }, figure(m.metric, m.b), spread(m.b_spread)),
    h("td", { class: "num", "data-label": COLUMNS[3] }, difference(m.metric, m.difference)),
    h("td", { class: "num", "data-label": COLUMNS[4] }, ratioText(m), spread(m.ratio_spread), xCopy),
    h("td", { class: `outcome tone-${outcomeTone(m.outcome)}`, "data-label": COLUMNS[5] }, OUTCOME_WORDS[m.outcome]),
  );
}

/** The table of `comparison`, and the key to its spreads. */
export function comparisonTable(schema: Schema, comparison: Comparison, labelOf: (id: string) => string): HTMLElement[] {
  const body = h("tbody", {});
  for (const run of comparison.readers) {
    const name = readerName(run, labelOf);
    for (const m of run.metrics) body.append(row(schema, name, m));
  }
  const head = h(
    "thead",
    {},
    h("tr", {}, ...COLUMNS.map((t) => h("th", { scope: "col" }, t))),
  );
  const table = h("table", { class: "compare-table" }, head, body);
  const key = h(
    "ul",
    { class: "spread-key" },
    ...spreadsShown(comparison).map((kind) => h("li", {}, h("strong", {}, spreadLabel(schema, kind)), `: ${spreadAbout(schema, kind)}`)),
  );
  return [h("div", { class: "table-wrap" }, table), key];
}
