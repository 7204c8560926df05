// A whole-number field (ns, a percentage, the seed), with a slider over
// given stops where it has them, and the seed's "New seed" button.

import type { Bounds, Params, Schema } from "../../engine/types.gen";
import { h } from "../dom";
import { clamp, fieldParts, nextId, setMessage, type Emit, type Field, type MessageKind } from "./kit";

/** 0, 1, 2, 5, 10, 20, 50, … within the range: the modelled cost slider's stops. */
export function oneTwoFiveSteps(range: Bounds): number[] {
  const steps: number[] = [];
  if (range.min <= 0) steps.push(0);
  for (let decade = 1; decade <= range.max; decade *= 10) {
    for (const m of [1, 2, 5]) {
      const v = m * decade;
      if (v >= range.min && v <= range.max) steps.push(v);
    }
  }
  return steps;
}

/** The modelled cost per call's slider stops: 1-2-5, and the engine's default, so the slider sits exactly on it. */
export function costSteps(schema: Pick<Schema, "limits" | "defaults">): number[] {
  return [...new Set([...oneTwoFiveSteps(schema.limits.sys), schema.defaults.sys])].sort((a, b) => a - b);
}

/** Index of the step nearest to value. */
function nearestStep(steps: number[], value: number): number {
  let best = 0;
  for (let i = 1; i < steps.length; i++) {
    if (Math.abs((steps[i] ?? 0) - value) < Math.abs((steps[best] ?? 0) - value)) best = i;
  }
  return best;
}

export interface NumberFieldSpec {
  label: string;
  hint: string;
  unit?: string;
  range: Bounds;
  get(params: Params): number;
  set(params: Params, value: number): Params;
  /** Slider stops; none means no slider. */
  steps?: number[];
  /** An extra control next to the text box. */
  extra?: (text: HTMLInputElement) => HTMLElement;
  /** A note that depends on the params (replaces the hint when shown). */
  note?: (params: Params) => { text: string; kind: MessageKind };
}

/** A whole number (ns, seed), optionally with a slider over given stops. */
export function numberField(spec: NumberFieldSpec, current: () => Params, emit: Emit): Field {
  const id = nextId("num");
  const { label, message, text, slider: makeSlider } = fieldParts(id, spec, { class: "number-text", inputmode: "numeric" });
  const steps = spec.steps ?? [];
  let slider: HTMLInputElement | null = null;
  if (steps.length > 1) {
    const s = makeSlider(0, steps.length - 1);
    const fromSlider = (live: boolean): void => {
      const value = steps[Number(s.value)] ?? spec.range.min;
      text.value = String(value);
      s.setAttribute("aria-valuetext", `${value}${spec.unit ? ` ${spec.unit}` : ""}`);
      setMessage(text, message, spec.hint, "hint");
      emit(spec.set(current(), value), live);
    };
    s.addEventListener("input", () => fromSlider(true));
    s.addEventListener("change", () => fromSlider(false));
    slider = s;
  }
  text.addEventListener("change", () => {
    const raw = text.value.trim().replace(/[\s,_]/g, "");
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
      setMessage(text, message, `“${text.value.trim().slice(0, 40)}” is not a whole number (${spec.range.min}–${spec.range.max}).`, "error");
      return;
    }
    const parsed = Number(raw);
    const value = clamp(parsed, spec.range);
    if (value !== parsed) {
      const which = parsed < spec.range.min ? "Smallest" : "Largest";
      setMessage(text, message, `${which} allowed is ${value}; using ${value}.`, "warn");
    } else {
      setMessage(text, message, spec.hint, "hint");
    }
    emit(spec.set(current(), value), false);
  });
  const row = h("div", { class: "field-row" }, slider, text, spec.unit ? h("span", { class: "unit" }, spec.unit) : null);
  if (spec.extra) row.appendChild(spec.extra(text));
  const element = h("div", { class: "field" }, label, row, message);
  return {
    element,
    show(params) {
      const value = spec.get(params);
      if (slider) {
        slider.value = String(nearestStep(steps, value));
        slider.setAttribute("aria-valuetext", `${value}${spec.unit ? ` ${spec.unit}` : ""}`);
      }
      if (text.value.trim() !== String(value)) {
        text.value = String(value);
        if (text.getAttribute("aria-invalid") === "true") setMessage(text, message, spec.hint, "hint");
      }
      if (spec.note && text.getAttribute("aria-invalid") !== "true") {
        const note = spec.note(params);
        setMessage(text, message, note.text, note.kind);
      }
    },
  };
}

/** The seed's "New seed" button, beside its box: draws a seed within `range`. */
export function newSeedButton(range: Bounds, current: () => Params, emit: Emit): () => HTMLElement {
  return () => {
    const button = h("button", { type: "button", class: "small" }, "New seed");
    button.addEventListener("click", () => {
      const draw = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
      emit({ ...current(), seed: clamp(draw, range) }, false);
    });
    return button;
  };
}
