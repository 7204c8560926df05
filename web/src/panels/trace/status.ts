// How far a log's reading has come and what the person must know about it
// (owns its element): a progress bar with Cancel while it is read, then the
// model's notices, each a line of text (a quoted log line is a text node in
// <code>, never markup).

import { h, replaceChildren, setText } from "../../shared/dom";
import { formatCount } from "../../shared/format";
import { notices, type TraceModel } from "./model";

export interface TraceStatusPiece {
  draw(model: TraceModel): void;
}

const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;

export function createStatus(element: HTMLElement, cancel: () => void): TraceStatusPiece {
  const bar = h("progress", { id: "trace-progress", max: 1, value: 0, "aria-label": "Reading the log" });
  const words = h("span", { class: "trace-progress-words", id: "trace-progress-words" });
  const stop = h("button", { type: "button", class: "small", id: "trace-cancel" }, "Cancel");
  const reading = h("div", { class: "trace-reading", role: "status" }, bar, words, stop);
  const list = h("ul", { class: "trace-notices", id: "trace-notices", "aria-live": "polite" });
  replaceChildren(element, reading, list);
  stop.addEventListener("click", cancel);
  let drawn: string | null = null;
  return {
    draw(model) {
      const busy = model.status === "reading" || model.status === "fetching";
      reading.hidden = !busy;
      stop.disabled = model.cancelling;
      const p = model.progress;
      if (model.status === "fetching") setText(words, `Fetching ${model.name ?? "the log"}…`);
      else if (busy) {
        bar.max = Math.max(1, model.size);
        bar.value = p?.bytes ?? 0;
        setText(
          words,
          model.cancelling
            ? "Cancelling…"
            : `${mib(p?.bytes ?? 0)} of ${mib(model.size)} · ${formatCount(p?.lines ?? 0)} lines · ${formatCount(p?.read_calls ?? 0)} read calls · ${formatCount(p?.skipped ?? 0)} skipped`,
        );
      }
      const shown = notices(model);
      const key = JSON.stringify(shown);
      if (key === drawn) return;
      drawn = key;
      replaceChildren(
        list,
        ...shown.map((n) => h("li", { class: `trace-notice ${n.kind}`, "data-kind": n.kind }, n.message, n.quote === undefined ? null : h("code", {}, n.quote))),
      );
    },
  };
}
