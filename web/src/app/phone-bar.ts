// On phones the results come first and the form after them. Whenever the
// numbers are out of view (the headline, and the view's charts and tables:
// the person is at the settings, the code, the export tools or the lesson
// list's explanation), the bottom bar shows the newest numbers in a few
// words and takes the person back to the results, so a slider moved there
// still shows its effect.

import { activityText, isRunning, reportOf, type AppState } from "./state";
import { h, replaceChildren, setText } from "../shared/dom";

export interface Peek {
  update(state: AppState, summary: (string | Node)[]): void;
}

/**
 * The bar in `slot`. `numbers`: the elements that hold the numbers (one in
 * view is enough; a hidden one is never in view); `results`: where the bar
 * takes the person.
 */
export function createPeek(slot: HTMLElement, results: HTMLElement, numbers: readonly HTMLElement[]): Peek {
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

  /** The number elements in view now (on screen, not under the bar itself). */
  const inView = new Set<Element>(numbers);
  let hasContent = false;
  const show = (): void => {
    button.hidden = inView.size > 0 || !hasContent;
  };
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) inView.add(entry.target);
      else inView.delete(entry.target);
    }
    show();
  });
  for (const element of numbers) observer.observe(element);

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
