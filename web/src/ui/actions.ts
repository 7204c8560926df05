// The buttons under the form: measure again, stop, reset, and copy the link.
// Copying uses the async clipboard where the browser allows it; otherwise (or
// as well) a read-only field shows the link selected, ready for Ctrl+C.

import { h, replaceChildren, setText } from "./dom";

export interface ActionHandlers {
  rerun(): void;
  stop(): void;
  reset(): void;
  /** The link to copy (the current page URL). */
  link(): string;
}

export interface Actions {
  setRunning(running: boolean): void;
}

export function createActions(container: HTMLElement, handlers: ActionHandlers): Actions {
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
  const fieldRow = h("div", { class: "link-row" }, field);
  fieldRow.hidden = true;

  rerun.addEventListener("click", handlers.rerun);
  stop.addEventListener("click", handlers.stop);
  reset.addEventListener("click", handlers.reset);
  copy.addEventListener("click", () => {
    const link = handlers.link();
    field.value = link;
    fieldRow.hidden = false;
    const selectField = (): void => {
      field.focus();
      field.select();
    };
    const fallback = (): void => {
      selectField();
      setText(note, "Press Ctrl+C (⌘C) to copy the selected link.");
    };
    if (navigator.clipboard?.writeText) {
      navigator.clipboard.writeText(link).then(() => setText(note, "Link copied."), fallback);
    } else {
      fallback();
    }
  });

  replaceChildren(container, h("div", { class: "buttons" }, rerun, stop, reset, copy), fieldRow, note);
  stop.disabled = true;
  return {
    setRunning(running) {
      stop.disabled = !running;
    },
  };
}
