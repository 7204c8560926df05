// "Measured or modelled", under the results: what in the numbers is counted,
// what is measured in this tab and what is modelled, and the command that
// runs this very link natively (the CLI takes the same link). It owns the
// element it is given; the command is text in a <code>, never markup.

import type { Params } from "../engine/types.gen";
import { copyText } from "../shared/clipboard";
import { h, replaceChildren, setText } from "../shared/dom";
import { formatCount } from "../shared/format";
import { METRIC } from "../shared/metrics";

/** The shell command that runs `fragment` natively, quoted for a POSIX shell. */
export function nativeCommand(fragment: string): string {
  const quoted = `'#${fragment.replace(/'/g, `'\\''`)}'`;
  return `cargo run --release -p buflab -- ${quoted}`;
}

export interface NativeNote {
  show(params: Params, fragment: string): void;
}

export function createNativeNote(container: HTMLElement): NativeNote {
  const modelled = h("span", {});
  const command = h("code", { id: "native-command" });
  const copy = h("button", { type: "button", class: "small", id: "copy-native" }, "Copy command");
  const status = h("span", { class: "copy-note", role: "status", "aria-live": "polite" });
  copy.addEventListener("click", () =>
    copyText(
      command.textContent ?? "",
      () => setText(status, "Copied."),
      () => {
        const range = document.createRange();
        range.selectNodeContents(command);
        const selection = window.getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
        setText(status, "Selected: press Ctrl+C (⌘C) to copy.");
      },
    ),
  );
  replaceChildren(
    container,
    h("h3", { class: "native-title" }, "Measured or modelled"),
    h(
      "p",
      {},
      h("strong", {}, "Counted: "),
      "source reads, copies, allocations and the digest are exact, the same on every run and natively. ",
      h("strong", {}, "Measured: "),
      `${Object.values(METRIC).filter((m) => m.origin === "measured").map((m) => m.label).join(", ")}, in this tab. `,
      h("strong", {}, "Modelled: "),
      modelled,
    ),
    h("p", { class: "native-run" }, "The same link runs natively, from a clone of BufLab: ", h("span", { class: "native-line" }, command, " ", copy, " ", status)),
  );
  return {
    show(params, fragment) {
      setText(
        modelled,
        params.lab === "write"
          ? `I/O time, as sink writes × ${formatCount(params.sys)} ns (the cost per call set in More settings).`
          : `I/O time, as source reads × ${formatCount(params.sys)} ns (the cost per call set in More settings).`,
      );
      setText(command, nativeCommand(fragment));
    },
  };
}
