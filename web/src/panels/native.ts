// "Measured or modelled", under the results: what in the numbers is counted,
// what is measured in this tab and what is modelled, and the command that
// runs this very link natively (the CLI takes the same link). It owns the
// element it is given; the command is text in a <code>, never markup.

import type { ChunkModel, Params } from "../engine/types.gen";
import { copyText } from "../shared/clipboard";
import { h, replaceChildren, setText } from "../shared/dom";
import { formatCount } from "../shared/format";
import { METRIC } from "../shared/metrics";

/** The shell command that runs `fragment` natively, quoted for a POSIX shell. */
export function nativeCommand(fragment: string): string {
  const quoted = `'#${fragment.replace(/'/g, `'\\''`)}'`;
  return `cargo run --release -p buflab -- ${quoted}`;
}

/**
 * What the link's chunk model assumes about the writer on the other end, in
 * one sentence (the figures are `buflab real`'s on a loopback socket, poor
 * network, 1 MiB read through std's 8 KiB buffer).
 */
export function chunkAssumption(chunk: ChunkModel): string {
  switch (chunk.kind) {
    case "file":
      return "A regular file: each read gets all it asks for, and read_to_end is std's File's (the file's size, one read, then one that finds the end); over chunk=file the source reads are the read(2) calls the Rust code panel's program makes (buflab stream saves the bytes).";
    case "pipe":
      return "A pipe whose writer keeps it full: each read gets what it asks for, up to 64 KiB. A slower writer means shorter reads and more of them; buflab real measures a real pipe.";
    case "uniform":
    case "fixed":
      return "A network read by a reader that keeps up with the writer: each read finds one piece. A writer that runs ahead lets a read take more (on loopback, std's 8 KiB reads of a poor network came back full: 136 calls against the model's 3,641); buflab real LINK measures a real socket and a real pipe.";
  }
}

export interface NativeNote {
  show(params: Params, fragment: string): void;
}

export function createNativeNote(container: HTMLElement): NativeNote {
  const modelled = h("span", {});
  const assumption = h("span", {});
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
      "source reads, app reads, copies, the number of allocations and the digest are exact, the same on every run and natively. Allocation bytes and peak heap are exact too, but for this tab's wasm32, whose pointers are 4 bytes: natively (8-byte pointers) the readers' own structures are larger, so these two figures come out slightly higher in the command line; and natively allocating costs page faults, which a wasm heap never shows (the command line and buflab real report them). ",
      h("strong", {}, "Measured: "),
      `${Object.values(METRIC).filter((m) => m.origin === "measured").map((m) => m.label).join(", ")}, in this tab. `,
      h("strong", {}, "Modelled: "),
      modelled,
    ),
    h("p", {}, h("strong", {}, "Chunks: "), assumption),
    h("p", { class: "native-run" }, "The same link runs natively, from a clone of BufLab: ", h("span", { class: "native-line" }, command, " ", copy, " ", status)),
  );
  return {
    show(params, fragment) {
      setText(
        modelled,
        params.lab === "write"
          ? `I/O time, as sink writes × ${formatCount(params.sys)} ns (the cost per call set in More settings).`
          : `I/O time, as source reads × ${formatCount(params.sys)} ns + bytes read × ${formatCount(params.sys_kib)} ns per KiB (the costs set in More settings).`,
      );
      setText(assumption, chunkAssumption(params.chunk));
      setText(command, nativeCommand(fragment));
    },
  };
}
