// The experiment form. It owns the <form id="controls"> element: builds every
// field from the engine's schema (limits, defaults, labels; nothing is written
// here twice), reports each edit as new Params, and shows Params it is given.
//
// Sizes have a slider in powers of two and a text box that accepts suffixes
// (8K, 1M). A slider that is still moving reports `live: true`, so the page
// can run a quick estimate; releasing it reports `live: false`.

import type { Codec } from "../engine/codec";
import type { Bounds, ChunkModel, Params, ReaderKind } from "../engine/types.gen";
import { bytesLabel, bytesRangeLabel } from "../format";
import { h, replaceChildren, setText } from "./dom";

export interface ControlsOptions {
  form: HTMLFormElement;
  codec: Codec;
  /** An edit produced new params; `live` while a slider is still moving. */
  onChange: (params: Params, live: boolean) => void;
}

export interface Controls {
  /** Shows params (from a link, a reset, or an accepted edit) without reporting a change. */
  show(params: Params): void;
}

/** A field that reads its value from Params and writes edits back. */
export interface Field {
  element: HTMLElement;
  show(params: Params): void;
}

export type Emit = (params: Params, live: boolean) => void;

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

/** The read lab's chunking: how the source answers a read. */
const SOURCE_CHUNKS: ChunkFieldSpec = {
  label: "Chunking",
  get: (p) => p.chunk,
  set: (p, chunk) => ({ ...p, chunk }),
  call: "source read",
  verb: "returns",
  fileLike: "Like a regular file: every source read returns the whole request.",
  pipeLike: "Like a pipe: each source read returns at most one pipe buffer.",
};

/** The chunk model: presets, a custom uniform range, fixed, file, pipe. */
/** The PRNG seed, with a button that draws a new one. */
export function seedField(hint: string, range: Bounds, current: () => Params, emit: Emit): Field {
  return numberField(
    {
      label: "Seed",
      hint,
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

export function chunkField(codec: Codec, current: () => Params, emit: Emit, spec: ChunkFieldSpec = SOURCE_CHUNKS): Field {
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
          ? `${capitalize(preset.about)}, sizes drawn with the seed below.`
          : `Each ${spec.call} ${spec.verb} ${range(chunk.min, chunk.max)}, sizes drawn with the seed below.`;
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
      const uniform = chunk.kind === "uniform";
      minField.element.hidden = !uniform;
      maxField.element.hidden = !uniform;
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

/** Readers to compare, in the schema's order; at least one stays checked. */
function readersField(codec: Codec, current: () => Params, emit: Emit): Field {
  const { readers } = codec.schema;
  const note = h("p", { class: "field-note", id: nextId("readers-note") });
  const boxes = new Map<ReaderKind, HTMLInputElement>();
  const items = readers.map((r) => {
    const id = nextId("reader");
    const box = h("input", { type: "checkbox", id, value: r.id, "aria-describedby": `${id}-about` });
    boxes.set(r.id, box);
    return h(
      "div",
      { class: "check" },
      box,
      h("label", { for: id }, r.label),
      h("p", { class: "field-note", id: `${id}-about` }, r.about),
    );
  });
  keepOneChecked(boxes, note, "reader", (chosen) => emit({ ...current(), readers: chosen }, false));
  // The enclosing "Readers" fieldset labels this group of checkboxes.
  const element = h("div", { class: "field readers" }, ...items, note);
  return {
    element,
    show(params) {
      for (const [id, box] of boxes) box.checked = params.readers.includes(id);
    },
  };
}

/** The application's read pattern. */
function workloadField(codec: Codec, current: () => Params, emit: Emit): Field {
  const { workloads } = codec.schema;
  const id = nextId("workload");
  const select = h("select", { id, "aria-describedby": `${id}-note` });
  for (const w of workloads) select.appendChild(h("option", { value: w.id }, w.label));
  const note = h("p", { class: "field-note", id: `${id}-note` });
  const look = h("p", { class: "field-note look", id: `${id}-look` });
  select.setAttribute("aria-describedby", `${id}-note ${id}-look`);
  select.addEventListener("change", () => {
    const chosen = workloads.find((w) => w.id === select.value);
    if (chosen) emit({ ...current(), workload: chosen.id }, false);
  });
  // With a single workload the select only informs; keep it focusable but say so.
  if (workloads.length < 2) select.setAttribute("aria-readonly", "true");
  const element = h("div", { class: "field" }, h("label", { for: id }, "Workload"), select, note, look);
  return {
    element,
    show(params) {
      select.value = params.workload;
      const chosen = workloads.find((w) => w.id === params.workload);
      setText(note, chosen?.about ?? "");
      if (chosen?.look) replaceChildren(look, h("strong", {}, "Look for: "), chosen.look);
      else replaceChildren(look);
    },
  };
}

interface CheckFieldSpec {
  label: string;
  hint: string;
  get(params: Params): boolean;
  set(params: Params, value: boolean): Params;
}

/** An on/off setting: a checkbox with its label and a note. */
function checkField(spec: CheckFieldSpec, current: () => Params, emit: Emit): Field {
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

interface LenRangeSpec {
  /** The pair's title, e.g. "Line lengths". */
  title: string;
  hint: string;
  minLabel: string;
  maxLabel: string;
  range: Bounds;
  get(params: Params): Bounds;
  set(params: Params, value: Bounds): Params;
}

/** A length range a–b: two size fields under one title (raising a past b moves b, and the other way round). */
function lenRangeField(codec: Codec, spec: LenRangeSpec, current: () => Params, emit: Emit): Field {
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
function shownWhen(field: Field, applies: (params: Params) => boolean): Field {
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

export function createControls({ form, codec, onChange }: ControlsOptions): Controls {
  const { limits } = codec.schema;
  let params: Params = codec.schema.defaults;
  const current = (): Params => params;
  /** The last edit lowered the stream count to the engine's cap. */
  let streamsCapped = false;
  const emit: Emit = (next, live) => {
    // Keep to the engine's cap on streams (stream length × streams and
    // buffer capacity × streams), so a longer stream or a larger buffer
    // lowers the count instead of producing params the engine refuses.
    const most = codec.maxStreams(next.len, next.cap);
    streamsCapped = next.streams > most;
    if (streamsCapped) next = { ...next, streams: most };
    params = next;
    onChange(next, live);
  };
  const workloadUses = (key: string) => (p: Params): boolean =>
    codec.schema.workloads.find((w) => w.id === p.workload)?.keys.includes(key) ?? false;
  const readersUse = (key: string) => (p: Params): boolean =>
    p.readers.some((id) => codec.schema.readers.find((r) => r.id === id)?.keys.includes(key));

  const len = sizeField(
    codec,
    {
      label: "Stream length",
      hint: "Bytes the application reads in total.",
      range: limits.len,
      get: (p) => p.len,
      set: (p, v) => ({ ...p, len: v }),
    },
    current,
    emit,
  );
  const chunk = chunkField(codec, current, emit);
  const seed = seedField("Same seed, same chunk sizes, in every browser.", limits.seed, current, emit);
  const rs = sizeField(
    codec,
    {
      label: "Read size",
      hint: "Bytes the application asks for in each read call.",
      range: limits.rs,
      get: (p) => p.rs,
      set: (p, v) => ({ ...p, rs: v }),
    },
    current,
    emit,
  );
  const workload = workloadField(codec, current, emit);
  const readers = readersField(codec, current, emit);
  const cap = sizeField(
    codec,
    {
      label: "Buffer capacity",
      hint: "Size of the BufReaders' buffer (std, tokio, futures), and of each block of the chained reader's chain.",
      range: limits.cap,
      get: (p) => p.cap,
      set: (p, v) => ({ ...p, cap: v }),
    },
    current,
    emit,
  );
  const sys = numberField(
    {
      label: "Cost per source read",
      hint: "Modelled, not measured: a real system call costs about 100 ns to a few µs.",
      unit: "ns",
      range: limits.sys,
      // The engine's default is a stop too, so the slider sits exactly on it.
      steps: [...new Set([...oneTwoFiveSteps(limits.sys), codec.schema.defaults.sys])].sort((a, b) => a - b),
      get: (p) => p.sys,
      set: (p, v) => ({ ...p, sys: v }),
    },
    current,
    emit,
  );

  const pend = numberField(
    {
      label: "Not ready (Pending) before",
      hint: "Async readers: the share of source reads the socket is not yet readable for, drawn with the seed. The first poll then gets Pending and the next the chunk; it costs a poll, never a source read.",
      unit: "% of reads",
      range: limits.pend,
      steps: [0, 1, 2, 5, 10, 20, 50, 80, 100].filter((v) => v >= limits.pend.min && v <= limits.pend.max),
      get: (p) => p.pend,
      set: (p, v) => ({ ...p, pend: v }),
    },
    current,
    emit,
  );

  const jobBytes = bytesLabel(codec.formatSize(codec.schema.max_job_bytes));
  const streamsHint = "Independent sources, each with its own reader, read in turn (round-robin) as a server serves connections.";
  const streams = numberField(
    {
      label: "Streams",
      hint: streamsHint,
      range: limits.streams,
      steps: oneTwoFiveSteps(limits.streams),
      get: (p) => p.streams,
      set: (p, v) => ({ ...p, streams: v }),
      note: (p) => {
        const most = codec.maxStreams(p.len, p.cap);
        if (most >= limits.streams.max || (p.streams < most && !streamsCapped)) return { text: streamsHint, kind: "hint" };
        return {
          text: `At most ${most} streams at this stream length and buffer capacity: each of length × streams and capacity × streams is capped at ${jobBytes}, so one run's memory and time stay bounded.`,
          kind: streamsCapped ? "warn" : "hint",
        };
      },
    },
    current,
    emit,
  );
  const pool = checkField(
    {
      label: "Block pool",
      hint: "Chained reader: blocks read through go back to a pool and are handed out again. Off, every block is a fresh allocation.",
      get: (p) => p.pool,
      set: (p, v) => ({ ...p, pool: v }),
    },
    current,
    emit,
  );
  const reuse = checkField(
    {
      label: "Reuse one payload buffer",
      hint: "std and unbuffered readers read every payload into one buffer instead of a new Vec per frame.",
      get: (p) => p.reuse,
      set: (p, v) => ({ ...p, reuse: v }),
    },
    current,
    emit,
  );
  const line = lenRangeField(
    codec,
    {
      title: "Line lengths",
      hint: "Bytes per line before the newline, drawn with the seed.",
      minLabel: "Shortest line",
      maxLabel: "Longest line",
      range: limits.line,
      get: (p) => p.line,
      set: (p, v) => ({ ...p, line: v }),
    },
    current,
    emit,
  );
  const frame = lenRangeField(
    codec,
    {
      title: "Payload lengths",
      hint: "Bytes after each frame's 4-byte length, drawn with the seed.",
      minLabel: "Smallest payload",
      maxLabel: "Largest payload",
      range: limits.frame,
      get: (p) => p.frame,
      set: (p, v) => ({ ...p, frame: v }),
    },
    current,
    emit,
  );
  const nul = sizeField(
    codec,
    {
      label: "NUL position",
      hint: "Offset of the one NUL byte. At or past the stream's end there is none, and the whole stream is scanned.",
      range: limits.nul,
      get: (p) => p.nul,
      set: (p, v) => ({ ...p, nul: v }),
    },
    current,
    emit,
  );

  const rsShown = shownWhen(rs, workloadUses("rs"));
  const lineShown = shownWhen(line, workloadUses("line"));
  const frameShown = shownWhen(frame, workloadUses("frame"));
  const reuseShown = shownWhen(reuse, workloadUses("reuse"));
  const nulShown = shownWhen(nul, workloadUses("nul"));
  const capShown = shownWhen(cap, readersUse("cap"));
  const poolShown = shownWhen(pool, readersUse("pool"));
  const pendShown = shownWhen(pend, readersUse("pend"));
  const fields = [len, chunk, seed, streams, workload, rsShown, lineShown, frameShown, reuseShown, nulShown, readers, capShown, poolShown, pendShown, sys];
  replaceChildren(
    form,
    group("Stream", len, chunk, seed, streams),
    group("Application", workload, rsShown, lineShown, frameShown, reuseShown, nulShown),
    group("Readers", readers, capShown, poolShown, pendShown),
    group("I/O model", sys),
  );
  // Enter in a text box commits it (a change event), never submits the page.
  form.addEventListener("submit", (event) => event.preventDefault());

  return {
    show(next) {
      params = next;
      for (const field of fields) field.show(next);
    },
  };
}
