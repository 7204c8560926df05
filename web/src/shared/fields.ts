// The settings' field builders, shared by both labs' forms. Each field reads
// its value from Params and reports edits as new Params; limits, defaults
// and labels come from the engine's schema through the caller, never from
// here.
//
// Sizes have a slider in powers of two and a text box that accepts suffixes
// (8K, 1M). A slider that is still moving reports `live: true`, so the page
// can run a quick estimate; releasing it reports `live: false`.

import type { Codec } from "../engine/codec";
import type { Bounds, ChunkModel, Lab, Params, Schema } from "../engine/types.gen";
import { bytesLabel, bytesRangeLabel } from "./format";
import { h, replaceChildren, setText } from "./dom";

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

type MessageKind = "hint" | "warn" | "error";

/** Sets a field's message; an error also marks the input invalid for assistive tech. */
function setMessage(input: HTMLInputElement, message: HTMLElement, text: string, kind: MessageKind): void {
  setText(message, text);
  message.classList.toggle("error", kind === "error");
  message.classList.toggle("warn", kind === "warn");
  if (kind === "error") input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

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
  const label = h("label", { for: `${id}-text`, id: `${id}-label` }, spec.label);
  const message = h("p", { class: "field-note", id: `${id}-note` }, spec.hint);
  const text = h("input", {
    type: "text",
    id: `${id}-text`,
    class: "size-text",
    inputmode: "text",
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": `${id}-note`,
  });
  const slider = h("input", {
    type: "range",
    id: `${id}-range`,
    min: lo,
    max: hi,
    step: 1,
    "aria-labelledby": `${id}-label`,
    "aria-describedby": `${id}-note`,
  });
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
  const label = h("label", { for: `${id}-text`, id: `${id}-label` }, spec.label);
  const message = h("p", { class: "field-note", id: `${id}-note` }, spec.hint);
  const text = h("input", {
    type: "text",
    id: `${id}-text`,
    class: "number-text",
    inputmode: "numeric",
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": `${id}-note`,
  });
  const steps = spec.steps ?? [];
  let slider: HTMLInputElement | null = null;
  if (steps.length > 1) {
    const s = h("input", {
      type: "range",
      id: `${id}-range`,
      min: 0,
      max: steps.length - 1,
      step: 1,
      "aria-labelledby": `${id}-label`,
      "aria-describedby": `${id}-note`,
    });
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

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

type ChunkChoice = `preset:${string}` | "uniform" | "fixed" | "file" | "pipe";

/** Which chunk model a chunk field edits, and how its texts name one call. */
export interface ChunkFieldSpec {
  label: string;
  get(params: Params): ChunkModel;
  set(params: Params, chunk: ChunkModel): Params;
  /** One call on the simulated end, e.g. "source read". */
  call: string;
  /** What one call does with its bytes, e.g. "returns" or "accepts". */
  verb: string;
  /** The note under the field for the file model. */
  fileLike: string;
  /** The note under the field for the pipe model. */
  pipeLike: string;
}

/** The PRNG seed, with a button that draws a new one. */
export function seedField(words: SettingWords, range: Bounds, current: () => Params, emit: Emit): Field {
  return numberField(
    {
      ...words,
      range,
      get: (p) => p.seed,
      set: (p, v) => ({ ...p, seed: v }),
      extra: () => {
        const button = h("button", { type: "button", class: "small" }, "New seed");
        button.addEventListener("click", () => {
          const draw = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
          emit({ ...current(), seed: clamp(draw, range) }, false);
        });
        return button;
      },
    },
    current,
    emit,
  );
}

/**
 * A chunk model: presets, a custom uniform range, fixed, file, pipe. The
 * range's two ends show only for the custom range, the size only for fixed.
 */
export function chunkField(codec: Codec, current: () => Params, emit: Emit, spec: ChunkFieldSpec): Field {
  const { presets, limits } = codec.schema;
  const id = nextId("chunk");
  const range = (min: number, max: number): string => bytesRangeLabel(codec.formatSize(min), codec.formatSize(max));
  const bytes = (n: number): string => bytesLabel(codec.formatSize(n));
  const select = h("select", { id, "aria-describedby": `${id}-note` });
  for (const p of presets) {
    select.appendChild(h("option", { value: `preset:${p.id}` }, `${p.id} network: ${range(p.min, p.max)}`));
  }
  select.appendChild(h("option", { value: "uniform" }, "custom range a–b"));
  select.appendChild(h("option", { value: "fixed" }, "fixed size k"));
  select.appendChild(h("option", { value: "file" }, "file: whole request"));
  select.appendChild(h("option", { value: "pipe" }, "pipe"));
  const note = h("p", { class: "field-note", id: `${id}-note` });

  const fallback = codec.schema.defaults.chunk;
  // Picking "custom range" keeps the preset's numbers; remember the choice so
  // the select does not jump back to the preset those numbers match.
  let customChosen = false;

  const withChunk = spec.set;
  const chunkOf = spec.get;
  const minField = sizeField(
    codec,
    {
      label: "Smallest chunk (a)",
      hint: `Fewest bytes one ${spec.call} ${spec.verb}.`,
      range: limits.chunk,
      get: (p) => { const c = chunkOf(p); return c.kind === "uniform" ? c.min : limits.chunk.min; },
      set: (p, v) => {
        const c = chunkOf(p);
        const max = c.kind === "uniform" ? Math.max(v, c.max) : v;
        return withChunk(p, { kind: "uniform", min: v, max });
      },
    },
    current,
    emit,
  );
  const maxField = sizeField(
    codec,
    {
      label: "Largest chunk (b)",
      hint: `Most bytes one ${spec.call} ${spec.verb}.`,
      range: limits.chunk,
      get: (p) => { const c = chunkOf(p); return c.kind === "uniform" ? c.max : limits.chunk.min; },
      set: (p, v) => {
        const c = chunkOf(p);
        const min = c.kind === "uniform" ? Math.min(v, c.min) : v;
        return withChunk(p, { kind: "uniform", min, max: v });
      },
    },
    current,
    emit,
  );
  const fixedField = sizeField(
    codec,
    {
      label: "Chunk size (k)",
      hint: `Every ${spec.call} ${spec.verb} at most this many bytes.`,
      range: limits.chunk,
      get: (p) => { const c = chunkOf(p); return c.kind === "fixed" ? c.size : limits.chunk.min; },
      set: (p, v) => withChunk(p, { kind: "fixed", size: v }),
    },
    current,
    emit,
  );

  const choiceOf = (chunk: ChunkModel): ChunkChoice => {
    if (chunk.kind === "uniform") {
      const preset = presets.find((p) => p.min === chunk.min && p.max === chunk.max);
      return preset && !customChosen ? `preset:${preset.id}` : "uniform";
    }
    return chunk.kind;
  };

  select.addEventListener("change", () => {
    const choice = select.value as ChunkChoice;
    const p = current();
    const was = chunkOf(p);
    let chunk: ChunkModel;
    customChosen = choice === "uniform";
    if (choice.startsWith("preset:")) {
      const preset = presets.find((x) => `preset:${x.id}` === choice);
      chunk = preset ? { kind: "uniform", min: preset.min, max: preset.max } : was;
    } else if (choice === "uniform") {
      // Start from what is there: the current range, the fixed size, or the engine's default range.
      if (was.kind === "uniform") chunk = was;
      else if (was.kind === "fixed") chunk = { kind: "uniform", min: was.size, max: was.size };
      else chunk = fallback.kind === "uniform" ? fallback : { kind: "uniform", min: limits.chunk.min, max: limits.chunk.min };
    } else if (choice === "fixed") {
      const size =
        was.kind === "uniform" ? was.max
        : was.kind === "fixed" ? was.size
        : fallback.kind === "uniform" ? fallback.max
        : limits.chunk.min;
      chunk = { kind: "fixed", size: clamp(size, limits.chunk) };
    } else {
      chunk = { kind: choice === "file" ? "file" : "pipe" };
    }
    emit(withChunk(p, chunk), false);
  });

  const describe = (chunk: ChunkModel): string => {
    switch (chunk.kind) {
      case "uniform": {
        const preset = presets.find((p) => p.min === chunk.min && p.max === chunk.max);
        return preset
          ? `${capitalize(preset.about)}, sizes drawn with the seed.`
          : `Each ${spec.call} ${spec.verb} ${range(chunk.min, chunk.max)}, sizes drawn with the seed.`;
      }
      case "fixed":
        return `Each ${spec.call} ${spec.verb} at most ${bytes(chunk.size)}.`;
      case "file":
        return spec.fileLike;
      case "pipe":
        return spec.pipeLike;
    }
  };

  const element = h(
    "div",
    { class: "field chunk-field" },
    h("label", { for: id }, spec.label),
    select,
    note,
    h("div", { class: "sub-fields" }, minField.element, maxField.element, fixedField.element),
  );
  return {
    element,
    show(params) {
      const chunk = chunkOf(params);
      if (chunk.kind !== "uniform") customChosen = false;
      select.value = choiceOf(chunk);
      setText(note, describe(chunk));
      const custom = select.value === "uniform";
      minField.element.hidden = !custom;
      maxField.element.hidden = !custom;
      fixedField.element.hidden = chunk.kind !== "fixed";
      minField.show(params);
      maxField.show(params);
      fixedField.show(params);
    },
  };
}

/**
 * Checkboxes choosing a non-empty subset (in the map's order, the schema's):
 * unchecking the last one is refused with a note in `note`.
 */
export function keepOneChecked<Id extends string>(
  boxes: Map<Id, HTMLInputElement>,
  note: HTMLElement,
  noun: string,
  chosen: (ids: Id[]) => void,
): void {
  for (const box of boxes.values()) {
    box.addEventListener("change", () => {
      const ids = [...boxes].filter(([, b]) => b.checked).map(([id]) => id);
      if (ids.length === 0) {
        box.checked = true;
        setText(note, `Keep at least one ${noun}.`);
        note.classList.add("error");
        return;
      }
      note.classList.remove("error");
      setText(note, "");
      chosen(ids);
    });
  }
}

export interface CheckFieldSpec {
  label: string;
  hint: string;
  get(params: Params): boolean;
  set(params: Params, value: boolean): Params;
}

/** An on/off setting: a checkbox with its label and a note. */
export function checkField(spec: CheckFieldSpec, current: () => Params, emit: Emit): Field {
  const id = nextId("check");
  const box = h("input", { type: "checkbox", id, "aria-describedby": `${id}-note` });
  box.addEventListener("change", () => emit(spec.set(current(), box.checked), false));
  const element = h(
    "div",
    { class: "field" },
    h("div", { class: "check" }, box, h("label", { for: id }, spec.label), h("p", { class: "field-note", id: `${id}-note` }, spec.hint)),
  );
  return {
    element,
    show(params) {
      box.checked = spec.get(params);
    },
  };
}

export interface LenRangeSpec {
  /** The pair's title (the setting's label). */
  title: string;
  hint: string;
  minLabel: string;
  maxLabel: string;
  range: Bounds;
  get(params: Params): Bounds;
  set(params: Params, value: Bounds): Params;
}

/** A length range a–b: two size fields under one title (raising a past b moves b, and the other way round). */
export function lenRangeField(codec: Codec, spec: LenRangeSpec, current: () => Params, emit: Emit): Field {
  const id = nextId("range");
  const lo = sizeField(
    codec,
    {
      label: spec.minLabel,
      hint: "",
      range: spec.range,
      get: (p) => spec.get(p).min,
      set: (p, v) => spec.set(p, { min: v, max: Math.max(v, spec.get(p).max) }),
    },
    current,
    emit,
  );
  const hi = sizeField(
    codec,
    {
      label: spec.maxLabel,
      hint: "",
      range: spec.range,
      get: (p) => spec.get(p).max,
      set: (p, v) => spec.set(p, { min: Math.min(v, spec.get(p).min), max: v }),
    },
    current,
    emit,
  );
  const element = h(
    "fieldset",
    { class: "field", "aria-describedby": `${id}-note` },
    h("legend", {}, spec.title),
    h("p", { class: "field-note", id: `${id}-note` }, spec.hint),
    h("div", { class: "sub-fields" }, lo.element, hi.element),
  );
  return {
    element,
    show(params) {
      lo.show(params);
      hi.show(params);
    },
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

export interface SettingsLayout {
  /** What a lesson is about: shown in the strip above the results. */
  strip: Field[];
  /** Everything else, in titled groups, behind "More settings". */
  more: { title: string; fields: Field[]; extra?: HTMLElement }[];
  /** The values behind "More settings", in words, for its summary line. */
  summary(params: Params): string;
}

/**
 * Lays out a lab's form: the strip's fields in one row, then a closed
 * "More settings" whose summary line names the values it holds, so nothing
 * set there is out of sight. The page never scrolls inside the form.
 */
export function settingsForm(form: HTMLFormElement, layout: SettingsLayout): SettingsForm {
  const fields = [...layout.strip, ...layout.more.flatMap((g) => g.fields)];
  const values = h("span", { class: "more-values" });
  const more = h(
    "details",
    { class: "more-settings" },
    h("summary", {}, h("span", { class: "more-title" }, "More settings"), " ", values),
    h(
      "div",
      { class: "more-groups" },
      ...layout.more.map((g) => {
        const fieldset = group(g.title, ...g.fields);
        if (g.extra) fieldset.appendChild(g.extra);
        return fieldset;
      }),
    ),
  );
  replaceChildren(form, h("div", { class: "strip" }, ...layout.strip.map((f) => f.element)), more);
  // Enter in a text box commits it (a change event), never submits the page.
  form.addEventListener("submit", (event) => event.preventDefault());
  return {
    show(params) {
      for (const field of fields) field.show(params);
      setText(values, layout.summary(params));
    },
  };
}

