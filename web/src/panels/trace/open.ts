// Where a log comes in (owns its element): a drop zone that is also a file
// picker, and the shipped log of a real program. A dropped or picked file
// never leaves the browser: the trace worker reads it where it is.

import { h, replaceChildren } from "../../shared/dom";

export interface OpenOptions {
  open(file: File): void;
  shipped(): void;
  /** The shipped log's button text. */
  shippedLabel: string;
}

export function createOpen(element: HTMLElement, { open, shipped, shippedLabel }: OpenOptions): void {
  const input = h("input", { type: "file", id: "trace-file", class: "trace-file", accept: ".strace,.txt,.log,.json,text/plain" });
  const zone = h(
    "label",
    { for: "trace-file", class: "trace-drop", id: "trace-drop" },
    h("strong", {}, "Drop an strace log here"),
    " or pick one (it stays in this browser).",
  );
  const ship = h("button", { type: "button", class: "small", id: "trace-shipped" }, shippedLabel);
  replaceChildren(element, input, zone, ship);
  input.addEventListener("change", () => {
    const file = input.files?.[0];
    if (file) open(file);
    input.value = "";
  });
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const file = event.dataTransfer?.files[0];
    if (file) open(file);
  });
  ship.addEventListener("click", shipped);
}
