// Presenter mode for workshops (link key `present`): large type, high
// contrast, the secondary panels hidden, and the main chart within a
// 1280×720 screen. It owns the toggle button's element and the `presenting`
// class on <html> (where the colours and the charts' type size are read
// from); the looks are in style.css under `:root.presenting`.
//
// The setting lives in the link like every other, so a presenter can open a
// prepared link straight into presenter mode; it changes no result.

import { Chart } from "chart.js";
import { h, replaceChildren } from "./dom";

export interface PresenterToggle {
  show(on: boolean): void;
}

export function createPresenterToggle(container: HTMLElement, onToggle: (on: boolean) => void): PresenterToggle {
  const button = h(
    "button",
    { type: "button", id: "present-toggle", class: "small", "aria-pressed": "false", title: "Large type and high contrast for a projector (link key present)" },
    "Presenter mode",
  );
  let on = false;
  button.addEventListener("click", () => onToggle(!on));
  replaceChildren(container, button);
  return {
    show(next) {
      on = next;
      button.setAttribute("aria-pressed", String(on));
      const root = document.documentElement;
      root.classList.toggle("presenting", on);
      // chart.js's default type size follows the page's (charts.ts readTheme
      // does the same at start); the caller re-themes the charts after this.
      Chart.defaults.font.size = Math.round((12 * (parseFloat(getComputedStyle(root).fontSize) || 16)) / 16);
    },
  };
}
