// The settings forms' common parts: a field (an element that shows params
// and reports edits as new params), the schema's words for a setting,
// field messages, and fields shown only where they apply. Limits, defaults
// and labels come from the engine's schema through the caller, never from
// here.

import type { Bounds, Lab, Params, Schema } from "../../engine/types.gen";
import { h, setText } from "../dom";

/** A lab's settings form: the strip and More settings, built from the schema. */
export interface SettingsForm {
  /** Shows params (from a link, a reset, or an accepted edit) without reporting a change. */
  show(params: Params): void;
}

/** A field that reads its value from Params and writes edits back. */
export interface Field {
  element: HTMLElement;
  show(params: Params): void;
}

export type Emit = (params: Params, live: boolean) => void;

/** What a field says about its setting: label, hint, and the unit where the setting has one. */
export interface SettingWords {
  label: string;
  hint: string;
  unit?: string;
}

/** The schema's words for `lab`'s setting with link key `key` (crate/src/catalog/settings.rs). */
export function settingWords(schema: Schema, lab: Lab, key: string): SettingWords {
  const found = schema.settings.find((s) => s.lab === lab && s.key === key);
  if (!found) throw new Error(`the schema has no ${lab} setting ${key}`);
  return found.unit === null ? { label: found.label, hint: found.hint } : { label: found.label, hint: found.hint, unit: found.unit };
}

let uniqueId = 0;
/** An id no other control on the page has. */
export function nextId(prefix: string): string {
  uniqueId += 1;
  return `${prefix}-${uniqueId}`;
}

export function clamp(value: number, range: Bounds): number {
  return Math.min(range.max, Math.max(range.min, value));
}

export type MessageKind = "hint" | "warn" | "error";

/** Sets a field's message; an error also marks the input invalid for assistive tech. */
export function setMessage(input: HTMLInputElement, message: HTMLElement, text: string, kind: MessageKind): void {
  setText(message, text);
  message.classList.toggle("error", kind === "error");
  message.classList.toggle("warn", kind === "warn");
  if (kind === "error") input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

/**
 * A field's parts, tied together by ids from `id`: its label, its message
 * (the hint, or what was wrong), its text box, and a slider over stops
 * `min`…`max` (positions; the field says what each stands for).
 */
export function fieldParts(id: string, spec: { label: string; hint: string }, text: { class: string; inputmode: string }) {
  return {
    label: h("label", { for: `${id}-text`, id: `${id}-label` }, spec.label),
    message: h("p", { class: "field-note", id: `${id}-note` }, spec.hint),
    text: h("input", { type: "text", id: `${id}-text`, ...text, autocomplete: "off", spellcheck: "false", "aria-describedby": `${id}-note` }),
    slider: (min: number, max: number) => h("input", { type: "range", id: `${id}-range`, min, max, step: 1, "aria-labelledby": `${id}-label`, "aria-describedby": `${id}-note` }),
  };
}

/** Shows `field` only while `applies` holds for the params. */
export function shownWhen(field: Field, applies: (params: Params) => boolean): Field {
  return {
    element: field.element,
    show(params) {
      field.element.hidden = !applies(params);
      field.show(params);
    },
  };
}

export function group(title: string, ...fields: Field[]): HTMLElement {
  return h("fieldset", { class: "group" }, h("legend", {}, title), ...fields.map((f) => f.element));
}
