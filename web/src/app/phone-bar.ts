// On phones the results come first and the form after them. While the
// results are out of view (the person is at the settings), the bottom bar
// shows the newest numbers in a few words and takes the person back to the
// results, so a slider moved there still shows its effect.

import { activityText, isRunning, reportOf, type AppState } from "./state";
import { h, replaceChildren, setText } from "../shared/dom";

export interface Peek {
  update(state: AppState, summary: (string | Node)[]): void;
}

export function createPeek(slot: HTMLElement, results: HTMLElement): Peek {
  const text = h("span", { class: "peek-text" });
  // Named by its visible text (counts, then "Show results"): a name that
  // differs from what is on screen confuses voice control (WCAG 2.5.3).
  const button = h(
    "button",
    { type: "button", class: "peek" },
    text,
    h("span", { class: "peek-go" }, "Show results", h("span", { "aria-hidden": "true" }, " ↑")),
  );
  button.hidden = true;
  button.addEventListener("click", () => {
    results.scrollIntoView({ block: "start" });
    results.focus({ preventScroll: true });
  });
  replaceChildren(slot, button);

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
    update(state, summary) {
      const report = reportOf(state);
      hasContent = report !== null || isRunning(state);
      if (isRunning(state)) setText(text, activityText(state));
      else if (report) replaceChildren(text, ...summary);
      show();
    },
  };
}
