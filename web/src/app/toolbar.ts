// The actions, always in reach: Measure again, Stop, Reset and Copy link
// (on wide screens in the sticky bar at the top; on phones in the bar at
// the bottom, with a Settings button that jumps to the form). Copying uses
// the async clipboard where the browser allows it; otherwise (or as well)
// a read-only field shows the link selected, ready for Ctrl+C.

import { copyText } from "../shared/clipboard";
import { h, replaceChildren, setText } from "../shared/dom";

export interface ActionHandlers {
  rerun(): void;
  stop(): void;
  reset(): void;
  /** The link to copy (the current page URL). */
  link(): string;
  /** Phones: take the person to the settings. */
  settings(): void;
}

export interface Actions {
  setRunning(running: boolean): void;
  /** Where the phone bar's line about the results goes (above the buttons). */
  readonly peekSlot: HTMLElement;
}

export function createActions(container: HTMLElement, handlers: ActionHandlers): Actions {
  const settings = h("button", { type: "button", class: "phone-only", "aria-controls": "settings" }, "Settings");
  const rerun = h("button", { type: "button", class: "primary" }, "Measure again");
  const stop = h("button", { type: "button" }, "Stop");
  const reset = h("button", { type: "button" }, "Reset");
  const copy = h("button", { type: "button", id: "copy-link" }, "Copy link");
  const field = h("input", {
    type: "text",
    id: "link-field",
    readonly: true,
    "aria-label": "Link to this experiment",
    spellcheck: "false",
  });
  const note = h("p", { class: "copy-note", role: "status", "aria-live": "polite" });
  const fieldRow = h("div", { class: "link-row" }, field, note);
  fieldRow.hidden = true;
  const peekSlot = h("div", { class: "peek-slot" });

  settings.addEventListener("click", handlers.settings);
  rerun.addEventListener("click", handlers.rerun);
  stop.addEventListener("click", handlers.stop);
  reset.addEventListener("click", handlers.reset);
  copy.addEventListener("click", () => {
    const link = handlers.link();
    field.value = link;
    fieldRow.hidden = false;
    copyText(
      link,
      () => setText(note, "Link copied."),
      () => {
        field.focus();
        field.select();
        setText(note, "Press Ctrl+C (⌘C) to copy the selected link.");
      },
    );
  });
  // The field goes once it has served: focus moved elsewhere after a copy.
  field.addEventListener("blur", () => {
    if (note.textContent === "Link copied.") fieldRow.hidden = true;
  });

  replaceChildren(container, peekSlot, h("div", { class: "buttons" }, settings, rerun, stop, reset, copy), fieldRow);
  stop.disabled = true;
  return {
    peekSlot,
    setRunning(running) {
      stop.disabled = !running;
    },
  };
}

/**
 * Keeps `--toolbar-h` on <html> at the sticky toolbar's height, so whatever
 * the page scrolls to (a lesson's results, the settings, a glossary entry)
 * lands below the bar rather than under it (styles/toolbar.css:
 * scroll-padding-top). The bar's height changes with presenter mode's type
 * and with the width.
 */
export function trackToolbarHeight(toolbar: HTMLElement): void {
  const set = (): void => document.documentElement.style.setProperty("--toolbar-h", `${toolbar.getBoundingClientRect().height}px`);
  new ResizeObserver(set).observe(toolbar);
  set();
}
