// The comparison of two experiments, A and B: the Compare control, then, for
// a comparison on screen, what differs in words, the verdict of each
// reader's time (the engine's: "faster" or "slower" only where the
// alternating rounds' interval separates, else "same within noise"), the
// charts pairing A's and B's bars per reader and metric, the table of every
// reader and metric, and the notes the comparison rests on.
// It owns <section id="compare"> and is handed plain data (`CompareView`).

import type { Machine, Schema } from "../../../engine/types.gen";
import { h, replaceChildren } from "../../../shared/dom";
import { createControl } from "./control";
import { pairCharts, sideLabels } from "./pair-bars";
import { pairChartsBlock } from "./pair-charts";
import { comparisonTable } from "./table";
import type { CompareView } from "./view";
import { changedText, verdicts } from "./words";
import "./compare.css";

export type { CompareView } from "./view";

export interface CompareOptions {
  schema: Schema;
  labelOf(id: string): string;
  onCompare(key: string | null, value: string): void;
  /** One result file (B, against the result on screen) or two (A and B). */
  onFiles(files: readonly File[]): void;
  onClose(): void;
}

const STATUS: Record<"waiting" | "running" | "failed" | "cancelled", string> = {
  waiting: "A's own measurement first; then A and B in alternating rounds…",
  running: "Measuring A and B in alternating rounds…",
  failed: "The comparison failed: ",
  cancelled: "The comparison was stopped before its rounds were done: Compare again to measure it.",
};

export function createCompare(element: HTMLElement, options: CompareOptions) {
  const { schema, labelOf } = options;
  const control = createControl(options);
  const body = h("div", { class: "compare-body", "aria-live": "polite" });
  replaceChildren(element, control.element, body);
  let drawn: CompareView["run"] | undefined;

  function draw(run: NonNullable<CompareView["run"]>): (Node | string)[] {
    const result = run.result;
    const title = h("h3", { class: "compare-title" }, run.source === "file" ? `A: ${run.fileA ?? "the result on screen"} · B: ${run.file ?? "a result file"}` : "A against B");
    if (run.status !== "done" || result === null) {
      const text = run.status === "failed" ? `${STATUS.failed}${run.failure ?? ""}` : STATUS[run.status === "done" ? "running" : run.status];
      return [title, h("p", { class: "compare-status", role: "status" }, text)];
    }
    const machines =
      run.source === "file"
        ? [h("p", { class: "compare-machines" }, `A measured on ${machineText(result.a.machine)}; B on ${machineText(result.b.machine)}.`)]
        : [];
    return [
      title,
      h("p", { class: "compare-changed" }, changedText(result.changed)),
      ...machines,
      h("ul", { class: "compare-verdicts" }, ...verdicts(result, labelOf).map((v) => h("li", {}, v))),
      pairChartsBlock(pairCharts(schema, result, labelOf), sideLabels(result.changed, run.source === "file" ? { a: run.fileA, b: run.file ?? "a result file" } : null)),
      ...comparisonTable(schema, result, labelOf),
      h("ul", { class: "compare-notes" }, ...result.notes.map((n) => h("li", {}, n))),
      run.source === "link" ? h("p", { class: "compare-link" }, "This comparison's link: ", h("a", { href: run.url }, run.url)) : "",
    ];
  }

  return {
    update(view: CompareView): void {
      control.show(view.valueOf, view.run !== null);
      if (view.run === drawn) return;
      // A comparison opened from a file or the baseline panel, wherever the person was: brought into view once.
      const opened = view.run?.source === "file" && view.run.result !== drawn?.result;
      drawn = view.run;
      element.classList.toggle("comparing", view.run !== null);
      replaceChildren(body, ...(view.run ? draw(view.run) : []));
      if (opened) element.scrollIntoView({ block: "start" });
    },
  };
}

/** Where a result was measured, in words: "Chromium … (4 cores)", "native Linux, Intel …". */
function machineText(machine: Machine | null | undefined): string {
  if (!machine) return "an unnamed machine";
  const where = machine.kind === "browser" ? (machine.user_agent ?? "a browser") : [machine.os, machine.cpu].filter(Boolean).join(", ") || "a native build";
  return machine.cores ? `${where} (${machine.cores} cores)` : where;
}
