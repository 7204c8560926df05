// The Compare control: B from the settings on screen with one setting
// changed (or none: A/A), or result files (one: B against the result on
// screen; two: A and B); Close. It owns its
// <form>; what each does is the page's (the options' callbacks).

import type { Schema } from "../../../engine/types.gen";
import { h } from "../../../shared/dom";

export interface ControlOptions {
  schema: Schema;
  /** B is A with `key` set to `value` (null: A/A). */
  onCompare(key: string | null, value: string): void;
  /** One result file (B, against the result on screen) or two (A and B). */
  onFiles(files: readonly File[]): void;
  onClose(): void;
}

export function createControl(options: ControlOptions) {
  const { schema } = options;
  const keys = schema.settings.filter((s) => s.lab === "read" && !schema.display_keys.includes(s.key));
  const key = h(
    "select",
    { id: "compare-key", name: "compare-key", "aria-label": "The setting B changes" },
    ...keys.map((s) => h("option", { value: s.key }, `${s.label} (${s.key})`)),
  );
  const value = h("input", { id: "compare-value", name: "compare-value", type: "text", size: 10, "aria-label": "B's value", autocomplete: "off", spellcheck: "false" });
  const compareB = h("button", { type: "submit", id: "compare-b" }, "Compare");
  const aa = h("button", { type: "button", id: "compare-aa", title: "B the same experiment as A: how large the noise is" }, "A/A");
  const file = h("input", { type: "file", id: "compare-file", accept: "application/json,.json", multiple: true, class: "visually-hidden" });
  const fileLabel = h(
    "label",
    {
      for: "compare-file",
      class: "button-like",
      title: "Exported results (JSON: this page's export or buflab --json): one is B, against the result on screen as A; two are A and B. Files can be dropped on the page too; nothing leaves this browser.",
    },
    "Result files…",
  );
  const close = h("button", { type: "button", id: "compare-close" }, "Close comparison");
  close.hidden = true;
  const form = h(
    "form",
    { class: "compare-control", "aria-label": "Compare" },
    h("span", { class: "compare-lead" }, "Compare: B is these settings with "),
    key,
    h("span", {}, " = "),
    value,
    compareB,
    aa,
    fileLabel,
    file,
    close,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    options.onCompare(key.value, value.value.trim());
  });
  aa.addEventListener("click", () => options.onCompare(null, ""));
  close.addEventListener("click", () => options.onClose());
  file.addEventListener("change", () => {
    const chosen = [...(file.files ?? [])];
    if (chosen.length > 0) options.onFiles(chosen);
    file.value = "";
  });
  return {
    element: form,
    /** The placeholder shows A's value of the chosen key; Close shows while a comparison is on screen. */
    show(valueOf: (key: string) => string | undefined, comparing: boolean): void {
      value.placeholder = valueOf(key.value) ?? "";
      key.onchange = () => (value.placeholder = valueOf(key.value) ?? "");
      close.hidden = !comparing;
    },
  };
}
