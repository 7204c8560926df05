// The sweep's progress row (owns it): a bar, and in words how many points
// are in, which one is measured now, or how the sweep ended. A finished
// sweep says "Done" only once its last report is drawn too.

import type { SweepReport } from "../../../engine/types.gen";
import { h, setText } from "../../../shared/dom";
import type { SweepShown } from "../../../shared/lab";
import type { Axes } from "./axes";

export interface SweepProgress {
  element: HTMLElement;
  /** Shows `shown`'s progress; `drawn`: its newest report is on screen. */
  show(shown: SweepShown | null, drawn: boolean): void;
}

/** Point `index` of a sweep in words: "buffer capacity 1 KiB", or "buffer capacity 1 KiB, read size 8 B". */
export function pointText(axes: Axes, report: SweepReport, index: number): string {
  const axis = axes.infoOf(report.sweep.axis);
  const columns = Math.max(1, report.across_values.length);
  const value = report.values[Math.floor(index / columns)];
  if (value === undefined) return "";
  const first = axes.axisWords(axis, value);
  const across = report.sweep.across ? axes.infoOf(report.sweep.across.axis) : null;
  return across ? `${first}, ${axes.axisWords(across, report.across_values[index % columns]!)}` : first;
}

/** The row's words for a sweep in `status`, `done` of `total` points in. */
function progressText(axes: Axes, shown: SweepShown | null, status: string, done: number, total: number): string {
  const report = shown?.report ?? null;
  if (status === "running" || status === "drawing") {
    const next = report && done < total ? pointText(axes, report, done) : "";
    return `${done} of ${total || "…"} points` + (next ? ` · measuring ${next}` : "");
  }
  if (status === "cancelled") return `Cancelled after ${done} of ${total} points; those stay shown. Run sweep starts again.`;
  if (status === "failed") return `Stopped after ${done} of ${total} points: ${shown?.failure ?? ""}`;
  if (status === "done") return `Done: ${done} of ${total} points in ${((shown?.elapsedMs ?? 0) / 1000).toFixed(1)} s.`;
  return "";
}

export function createProgress(axes: Axes): SweepProgress {
  const bar = h("progress", { class: "sweep-progress", max: 1, value: 0, "aria-labelledby": "sweep-progress-text" });
  const text = h("span", { id: "sweep-progress-text", class: "sweep-progress-text", role: "status" });
  const element = h("div", { class: "sweep-progress-row" }, bar, text);
  element.hidden = true;
  return {
    element,
    show(shown, drawn) {
      const status = shown?.status === "done" && !drawn ? "drawing" : (shown?.status ?? "idle");
      element.hidden = shown === null;
      const total = shown?.report?.total ?? 0;
      const done = shown?.report?.points.length ?? 0;
      bar.max = Math.max(1, total);
      bar.value = done;
      setText(text, progressText(axes, shown, status, done, total));
      element.dataset["state"] = status;
      element.dataset["done"] = String(done);
      element.dataset["total"] = String(total);
    },
  };
}
