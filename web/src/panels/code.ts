// The code panel: the Rust program the current settings correspond to, as the
// engine writes it (crate/src/catalog/snippet.rs; the page never assembles code
// itself), with a Copy button. It owns the element it is given.
//
// The program is text in a <pre>, never markup. Copying uses the async
// clipboard where the browser allows it; otherwise the program is selected,
// ready for Ctrl+C, and the status line says so.

import type { Codec } from "../engine/codec";
import { messageOf } from "../engine/errors";
import type { Params } from "../engine/types.gen";
import { h, replaceChildren, setText } from "../shared/dom";

export interface CodePanel {
  /** Shows the program for `params` (recomputed only when `fragment` changed). */
  show(params: Params, fragment: string): void;
}

export function createCodePanel(container: HTMLElement, codec: Codec): CodePanel {
  const code = h("code", { id: "code-text" });
  const pre = h("pre", { class: "code-block", tabindex: 0, "aria-labelledby": "code-title" }, code);
  const copy = h("button", { type: "button", id: "copy-code", class: "small" }, "Copy code");
  const status = h("span", { class: "copy-note", id: "code-status", role: "status", "aria-live": "polite" });
  const note = h(
    "p",
    { class: "field-note" },
    "The same experiment written with std types on a real file or socket. The values from the link are the constants at the top; the chained reader is BufLab's own type, so it is only described. To run it on the very bytes BufLab read, save them with the command in its header (buflab stream --out data.bin LINK) and run the program beside the file: for a file, its read(2) calls are the source reads above.",
  );
  replaceChildren(
    container,
    h("div", { class: "code-head" }, h("h2", { id: "code-title" }, "Rust code"), h("div", { class: "code-actions" }, copy, status)),
    note,
    pre,
  );

  let shownFragment: string | null = null;
  let clearStatus: ReturnType<typeof setTimeout> | null = null;
  const say = (text: string): void => {
    setText(status, text);
    if (clearStatus !== null) clearTimeout(clearStatus);
    clearStatus = setTimeout(() => setText(status, ""), 4000);
  };
  const selectProgram = (): void => {
    const selection = window.getSelection();
    if (!selection) return;
    const range = document.createRange();
    range.selectNodeContents(code);
    selection.removeAllRanges();
    selection.addRange(range);
  };

  copy.addEventListener("click", () => {
    const text = code.textContent ?? "";
    const fallback = (): void => {
      selectProgram();
      say("Selected: press Ctrl+C (⌘C) to copy.");
    };
    if (navigator.clipboard?.writeText) {
      navigator.clipboard.writeText(text).then(() => say("Copied."), fallback);
    } else {
      fallback();
    }
  });

  /** The settings whose program the panel is to show. */
  let wanted: { params: Params; fragment: string } | null = null;
  const render = (): void => {
    if (!wanted) return;
    // Written by the program build, which loads after the first numbers: until
    // then a note, and the program once it has come (`programLoaded`).
    if (!codec.ready) {
      setText(code, "// The program arrives with the rest of the engine, in a moment…");
      shownFragment = null;
      return;
    }
    try {
      setText(code, codec.code(wanted.params));
      shownFragment = wanted.fragment;
    } catch (error) {
      setText(code, `// No program: ${messageOf(error)}`);
      shownFragment = wanted.fragment;
    }
  };
  codec.programLoaded.then(render, () => {
    if (wanted) setText(code, "// No program: the engine's program build did not load.");
  });

  return {
    show(params, fragment) {
      if (fragment === shownFragment) return;
      wanted = { params, fragment };
      render();
    },
  };
}
