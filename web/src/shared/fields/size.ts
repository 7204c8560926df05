// A size field: a slider over powers of two within the limits, and a text
// box that takes suffixes (8K, 1M). A slider that is still moving reports
// `live: true`, so the page can run a quick estimate; releasing it reports
// `live: false`.

import type { Codec } from "../../engine/codec";
import type { Bounds, Params } from "../../engine/types.gen";
import { h } from "../dom";
import { checkField } from "./choice";
import { clamp, fieldParts, nextId, setMessage, shownWhen, type Emit, type Field } from "./kit";

export interface SizeFieldSpec {
  label: string;
  hint: string;
  range: Bounds;
  get(params: Params): number;
  set(params: Params, value: number): Params;
}

/**
 * A size: a slider over powers of two within the limits, and a text box that takes 8K, 1M, …
 * A range that starts at 0 gets one more slider stop, below 1, for 0.
 */
export function sizeField(codec: Codec, spec: SizeFieldSpec, current: () => Params, emit: Emit): Field {
  const id = nextId("size");
  const zeroStop = spec.range.min === 0;
  const lo = Math.ceil(Math.log2(Math.max(1, spec.range.min))) - (zeroStop ? 1 : 0);
  /** The value a slider position stands for. */
  const valueAt = (position: number): number => (zeroStop && position === lo ? 0 : 2 ** position);
  const hi = Math.floor(Math.log2(spec.range.max));
  const { label, message, text, slider: makeSlider } = fieldParts(id, spec, { class: "size-text", inputmode: "text" });
  const slider = makeSlider(lo, hi);
  const limitsText = `${codec.formatSize(spec.range.min)}–${codec.formatSize(spec.range.max)}`;

  const fromSlider = (live: boolean): void => {
    const value = clamp(valueAt(Number(slider.value)), spec.range);
    text.value = codec.formatSize(value);
    slider.setAttribute("aria-valuetext", `${codec.formatSize(value)} bytes`);
    setMessage(text, message, spec.hint, "hint");
    emit(spec.set(current(), value), live);
  };
  slider.addEventListener("input", () => fromSlider(true));
  slider.addEventListener("change", () => fromSlider(false));

  text.addEventListener("change", () => {
    const raw = text.value;
    const parsed = codec.parseSize(raw);
    if (parsed === undefined) {
      setMessage(text, message, `“${raw.trim().slice(0, 40)}” is not a size. Try 512, 8K or 1M (${limitsText}).`, "error");
      return;
    }
    const value = clamp(parsed, spec.range);
    if (value !== parsed) {
      const which = parsed < spec.range.min ? "Smallest" : "Largest";
      setMessage(text, message, `${which} allowed is ${codec.formatSize(value)}; using ${codec.formatSize(value)}.`, "warn");
    } else {
      setMessage(text, message, spec.hint, "hint");
    }
    emit(spec.set(current(), value), false);
  });

  const element = h(
    "div",
    { class: "field" },
    label,
    h("div", { class: "field-row" }, slider, text),
    message,
  );
  return {
    element,
    show(params) {
      const value = spec.get(params);
      const exponent =
        zeroStop && value === 0 ? lo : Math.min(hi, Math.max(lo + (zeroStop ? 1 : 0), Math.round(Math.log2(Math.max(1, value)))));
      slider.value = String(exponent);
      slider.setAttribute("aria-valuetext", `${codec.formatSize(value)} bytes`);
      const formatted = codec.formatSize(value);
      // Keep what the person typed if it means the same number ("8192" vs "8K").
      if (codec.parseSize(text.value) !== value) {
        text.value = formatted;
        if (text.getAttribute("aria-invalid") === "true") setMessage(text, message, spec.hint, "hint");
      }
    },
  };
}

export interface SizeOrOffFieldSpec extends SizeFieldSpec {
  /** The size's label while on: the setting's label and its unit. */
  sizeLabel: string;
  /** The value turning it on sets. */
  onValue: number;
}

/**
 * A size that may be off (0): a checkbox with the setting's label and hint,
 * and while it is on, the size's slider and box (`sizeField`).
 */
export function sizeOrOffField(codec: Codec, spec: SizeOrOffFieldSpec, current: () => Params, emit: Emit): Field {
  const on = checkField(
    { label: spec.label, hint: spec.hint, get: (p) => spec.get(p) > 0, set: (p, checked) => spec.set(p, checked ? spec.onValue : 0) },
    current,
    emit,
  );
  const size = shownWhen(sizeField(codec, { ...spec, label: spec.sizeLabel, hint: "" }, current, emit), (p) => spec.get(p) > 0);
  return {
    element: h("div", { class: "field-pair" }, on.element, size.element),
    show(params) {
      on.show(params);
      size.show(params);
    },
  };
}
