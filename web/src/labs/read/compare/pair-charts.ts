// The paired charts: per metric, each reader's A bar above its B bar on one
// scale, labelled A and B with their differing settings; a time bar carries
// its spread as a whisker and says what it is; each pair ends in the
// engine's outcome, in words beside its colour. Drawn from pairCharts'
// plain geometry (pair-bars.ts) as elements, so it needs no chart library
// and reads at any width.

import { h } from "../../../shared/dom";
import type { Bar, PairChart } from "./pair-bars";

function barRow(side: "a" | "b", name: string, bar: Bar | null): HTMLElement {
  const track = h("span", { class: "pair-track", "aria-hidden": "true" });
  if (bar) {
    // A zero draws no bar at all (a bar's least width is for figures above zero).
    const fill = h("span", { class: `pair-bar side-${side}${bar.length === 0 ? " zero" : ""}` });
    fill.style.width = `${(bar.length * 100).toFixed(2)}%`;
    track.append(fill);
    if (bar.spread) {
      const whisker = h("span", { class: "pair-whisker" });
      whisker.style.left = `${(bar.spread.low * 100).toFixed(2)}%`;
      whisker.style.width = `${(Math.max(0, bar.spread.high - bar.spread.low) * 100).toFixed(2)}%`;
      track.append(whisker);
    }
  }
  return h(
    "div",
    { class: "pair-row", "data-side": side },
    h("span", { class: "pair-side", title: name }, side.toUpperCase()),
    track,
    h("span", { class: "pair-value" }, bar ? bar.text : "—", bar?.spread ? h("span", { class: "spread" }, bar.spread.text) : ""),
  );
}

/** One <figure> per chart, into a block the comparison view owns. */
export function pairChartsBlock(charts: readonly PairChart[], sides: { a: string; b: string }): HTMLElement {
  const legend = h(
    "p",
    { class: "pair-legend" },
    h("span", { class: "pair-key side-a" }, sides.a),
    h("span", { class: "pair-key side-b" }, sides.b),
  );
  const figures = charts.map((chart) =>
    h(
      "figure",
      { class: "pair-chart", "data-metric": chart.metric },
      h("figcaption", {}, h("strong", {}, chart.title), h("span", { class: "pair-scale" }, ` · one ${chart.scale} scale for A and B, full width ${chart.full}`)),
      ...chart.rows.map((row) =>
        h(
          "div",
          {
            class: "pair-group",
            "data-outcome": row.outcome,
            role: "group",
            "aria-label": `${row.reader}: A ${row.a?.text ?? "none"}, B ${row.b?.text ?? "none"}, ${row.words}`,
          },
          h("span", { class: "pair-reader" }, row.reader),
          barRow("a", sides.a, row.a),
          barRow("b", sides.b, row.b),
          h("span", { class: `pair-outcome tone-${row.tone}`, title: row.says }, row.words),
        ),
      ),
    ),
  );
  return h("div", { class: "pair-charts" }, legend, h("div", { class: "pair-grid" }, ...figures));
}
