// On narrow screens the results sit below the whole form. While they are out
// of view, a bar at the bottom shows the newest source-read counts and takes
// the person to the results, so a slider moved near the top still shows its
// effect.

import { isRunning, type AppState } from "../state";
import { isWriteReport } from "../engine/report";
import { formatCount, formatNs } from "../format";
import { h, replaceChildren, setText } from "./dom";

export interface Peek {
  update(state: AppState, labelOf: (readerId: string) => string, flavourLabelOf?: (flavourId: string) => string): void;
}

export function createPeek(results: HTMLElement): Peek {
  const text = h("span", { class: "peek-text" });
  // Named by its visible text (counts, then "Show results"): a name that
  // differs from what is on screen confuses voice control (WCAG 2.5.3).
  const button = h(
    "button",
    { type: "button", class: "peek" },
    text,
    h("span", { class: "peek-go" }, "Show results", h("span", { "aria-hidden": "true" }, " ↓")),
  );
  button.hidden = true;
  button.addEventListener("click", () => {
    results.scrollIntoView({ block: "start" });
    results.focus({ preventScroll: true });
  });
  document.body.appendChild(button);

  let resultsVisible = true;
  let hasContent = false;
  const show = (): void => {
    button.hidden = resultsVisible || !hasContent;
  };
  new IntersectionObserver((entries) => {
    for (const entry of entries) resultsVisible = entry.isIntersecting;
    show();
  }).observe(results);

  return {
    update(state, labelOf, flavourLabelOf = (id) => id) {
      const report = state.report;
      hasContent = report !== null || isRunning(state);
      if (isRunning(state)) {
        setText(text, state.quickPending ? "Estimating…" : "Measuring…");
      } else if (report && isWriteReport(report)) {
        // The write lab: the fastest cursor, and the sink writes per mode.
        const timed = report.flavours.filter((f) => f.cpu_ns !== null);
        const fastest = timed.reduce<(typeof timed)[number] | null>(
          (best, f) => (best === null || (f.cpu_ns?.median ?? 0) < (best.cpu_ns?.median ?? 0) ? f : best),
          null,
        );
        replaceChildren(
          text,
          ...(fastest ? ["Fastest: ", h("strong", {}, flavourLabelOf(fastest.flavour)), ` ${formatNs(fastest.cpu_ns?.median ?? 0)} · `] : []),
          "Sink writes: ",
          ...report.sink.flatMap((s, i) => [i > 0 ? " · " : "", `${s.mode === "direct" ? "direct" : "BufWriter"} `, h("strong", {}, formatCount(s.sink_writes))]),
        );
      } else if (report) {
        replaceChildren(
          text,
          "Source reads: ",
          ...report.runs.flatMap((r, i) => [i > 0 ? " · " : "", `${labelOf(r.reader)} `, h("strong", {}, formatCount(r.source_reads))]),
        );
      }
      show();
    },
  };
}
