// Notices the person must see: link values the engine replaced (from
// decode_link, each naming its key), settings the page chose for the person
// (a view's starting settings), engine restarts, and the engine's error
// for the current experiment. Link and restart notices are polite status
// messages; an error is an alert.

import type { AppState, Notice } from "./state";
import { h, replaceChildren } from "../shared/dom";

export interface Notices {
  update(state: AppState): void;
}

export function createNotices(container: HTMLElement, onDismiss: (id: number) => void): Notices {
  const list = h("ul", { class: "notice-list", role: "status", "aria-live": "polite" });
  const alert = h("div", { class: "alert", role: "alert" });
  alert.hidden = true;
  replaceChildren(container, alert, list);
  let shownNotices: Notice[] | null = null;
  let shownError: string | null = null;

  const item = (notice: Notice): HTMLElement => {
    const dismiss = h("button", { type: "button", class: "dismiss", "aria-label": "Dismiss this notice" }, "×");
    dismiss.addEventListener("click", () => onDismiss(notice.id));
    const lead =
      notice.source === "link"
        ? [h("span", { class: "notice-kind" }, "Link value for "), h("code", {}, notice.key ?? "link"), ": "]
        : notice.source === "settings"
          ? [h("span", { class: "notice-kind" }, "Settings changed: ")]
          : notice.source === "file"
            ? [h("span", { class: "notice-kind" }, "Result file "), h("code", {}, notice.key ?? "file"), ": "]
            : [h("span", { class: "notice-kind" }, "Engine: ")];
    return h(
      "li",
      { class: `notice ${notice.source}`, "data-key": notice.key },
      h("p", {}, ...lead, notice.message),
      dismiss,
    );
  };

  return {
    update(state) {
      if (state.notices !== shownNotices) {
        shownNotices = state.notices;
        replaceChildren(list, ...state.notices.map(item));
        list.hidden = state.notices.length === 0;
      }
      const error = state.engine.kind === "broken" ? state.engine.message : state.error;
      if (error !== shownError) {
        shownError = error;
        alert.hidden = error === null;
        replaceChildren(
          alert,
          error === null ? null : h("p", {}, h("strong", {}, "The experiment could not run. "), error),
        );
      }
    },
  };
}
