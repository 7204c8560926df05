// A comparison link's two sweeps (its `b.` keys beside a sweep): the engine
// runs A's and B's points in alternating order and pairs the knee of each
// side (engine/sweep.rs `compare_knees`; its sentences are
// catalog/compare.rs `knee_says`, shown here as they are). This block says
// what differs, how far the comparison has come, and the knees, A against
// B; the charts draw B's lines beside A's (charts.ts), and the legend names
// each side by its settings, so the sides never rest on colour alone.

import type { KneePair, SweepComparison } from "../../../engine/types.gen";
import { h, replaceChildren, setText } from "../../../shared/dom";
import type { SweepCompared } from "../../../shared/lab";
import { sideLabels } from "../compare/pair-bars";
import { changedText } from "../compare/words";

const STATUS: Record<Exclude<SweepCompared["status"], "done">, string> = {
  waiting: "Comparing A and B: A's own sweep first; then A's and B's sweeps, point by point in alternating order…",
  running: "Sweeping A and B, point by point in alternating order…",
  failed: "The comparison failed: ",
  cancelled: "The comparison was stopped before its sweeps were done: open the link again to measure it.",
};

/** The sides' names in the charts' legends: "A: chunk 512", "B: chunk 128". */
export function sweepSides(c: SweepComparison): { a: string; b: string } {
  return sideLabels(c.changed, null);
}

/** Warm where B's knee lies further along (a bigger value still pays), cool where it comes earlier; the sentence says it in words. */
function tone(k: KneePair): string {
  return k.outcome === "more" ? "warm" : k.outcome === "less" ? "cool" : "none";
}

export function createSweepPair(tolerance: number, factor: number) {
  const pct = `${Math.round(tolerance * 100)}%`;
  const title = h("h3", { class: "sweep-pair-title" }, "A against B: the knee of each sweep");
  const status = h("p", { class: "sweep-pair-status", role: "status" });
  const changed = h("p", { class: "sweep-pair-changed" });
  const list = h("ul", { class: "sweep-pair-knees" });
  const note = h(
    "p",
    { class: "sweep-note sweep-pair-note" },
    `Counts are exact, so knees of a count at different values differ for real. Two time knees differ only where the side whose knee comes later clearly gains between the two knees (all samples more than ${pct} apart) and its time relative to the other side's falls there beyond ${factor}× (a sweep's points are timed one after another, so they are held to the factor of separate measurements); otherwise they are the same within noise.`,
  );
  const element = h("section", { class: "sweep-pair", "aria-label": "A against B: two sweeps", "aria-live": "polite", hidden: true }, title, status, changed, list, note);

  return {
    element,
    show(compared: SweepCompared | null | undefined): void {
      element.hidden = !compared;
      if (!compared) return;
      const result = compared.result;
      status.hidden = compared.status === "done" && result !== null;
      if (compared.status !== "done") setText(status, compared.status === "failed" ? `${STATUS.failed}${compared.failure ?? ""}` : STATUS[compared.status]);
      else if (result === null) setText(status, "B has no sweep (b.sweep=off): A and B are compared as single runs, in the Run view.");
      setText(changed, result ? changedText(result.changed) : "");
      replaceChildren(
        list,
        ...(result?.knees ?? []).map((k) =>
          h(
            "li",
            {
              class: `tone-${tone(k)}`,
              "data-reader": k.reader,
              "data-metric": k.metric,
              "data-a": k.a ?? "",
              "data-b": k.b ?? "",
              "data-outcome": k.outcome,
            },
            k.says,
          ),
        ),
      );
      note.hidden = !result || result.knees.length === 0;
    },
  };
}
