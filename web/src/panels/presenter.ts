// Presenter mode for workshops (link key `present`): large type, high
// contrast, the secondary panels hidden, and the main chart with the
// lesson's points beside it within a 1280×720 screen. It owns the toggle
// button's element and the `presenting` class on <html>, where the colours,
// the type size and the charts' smallest type size (--chart-font-min) are
// read from; the looks are in styles/presenter.css.
//
// The setting lives in the link like every other, so a presenter can open a
// prepared link straight into presenter mode; it changes no result.

import { h, replaceChildren } from "../shared/dom";

export interface PresenterToggle {
  /** Applies presenter mode on or off; the caller re-themes the charts after this. */
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
      document.documentElement.classList.toggle("presenting", on);
    },
  };
}
