// A chunk model field (the read lab's chunking, the write lab's sink):
// presets, a custom range a–b, fixed, file, pipe. The range's two ends show
// only for the custom range, the size only for fixed.

import type { Codec } from "../../engine/codec";
import type { ChunkModel, Params, Schema } from "../../engine/types.gen";
import { h, setText } from "../dom";
import { bytesLabel, bytesRangeLabel } from "../format";
import { clamp, nextId, type Emit, type Field } from "./kit";
import { sizeField } from "./size";

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

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The chunk model a choice of the select makes from the one there (`was`):
 * a preset's range; the custom range starting from what is there (the
 * range, the fixed size, or the engine's default range); a fixed size from
 * the range's top; file; pipe.
 */
export function chunkOfChoice(choice: ChunkChoice, was: ChunkModel, schema: Pick<Schema, "presets" | "limits" | "defaults">): ChunkModel {
  const { presets, limits } = schema;
  const fallback = schema.defaults.chunk;
  if (choice.startsWith("preset:")) {
    const preset = presets.find((x) => `preset:${x.id}` === choice);
    return preset ? { kind: "uniform", min: preset.min, max: preset.max } : was;
  }
  if (choice === "uniform") {
    if (was.kind === "uniform") return was;
    if (was.kind === "fixed") return { kind: "uniform", min: was.size, max: was.size };
    return fallback.kind === "uniform" ? fallback : { kind: "uniform", min: limits.chunk.min, max: limits.chunk.min };
  }
  if (choice === "fixed") {
    const size = was.kind === "uniform" ? was.max : was.kind === "fixed" ? was.size : fallback.kind === "uniform" ? fallback.max : limits.chunk.min;
    return { kind: "fixed", size: clamp(size, limits.chunk) };
  }
  return { kind: choice === "file" ? "file" : "pipe" };
}

/** The custom range's two ends and the fixed size, each a size field over the chunk's limits. */
function sizeFields(codec: Codec, spec: ChunkFieldSpec, current: () => Params, emit: Emit) {
  const bounds = codec.schema.limits.chunk;
  const { get: chunkOf, set: withChunk } = spec;
  const sub = (label: string, hint: string, get: (c: ChunkModel) => number | null, set: (p: Params, v: number) => Params): Field =>
    sizeField(codec, { label, hint, range: bounds, get: (p) => get(chunkOf(p)) ?? bounds.min, set }, current, emit);
  return {
    min: sub("Smallest chunk (a)", `Fewest bytes one ${spec.call} ${spec.verb}.`, (c) => (c.kind === "uniform" ? c.min : null), (p, v) => {
      const c = chunkOf(p);
      return withChunk(p, { kind: "uniform", min: v, max: c.kind === "uniform" ? Math.max(v, c.max) : v });
    }),
    max: sub("Largest chunk (b)", `Most bytes one ${spec.call} ${spec.verb}.`, (c) => (c.kind === "uniform" ? c.max : null), (p, v) => {
      const c = chunkOf(p);
      return withChunk(p, { kind: "uniform", min: c.kind === "uniform" ? Math.min(v, c.min) : v, max: v });
    }),
    fixed: sub("Chunk size (k)", `Every ${spec.call} ${spec.verb} at most this many bytes.`, (c) => (c.kind === "fixed" ? c.size : null), (p, v) => withChunk(p, { kind: "fixed", size: v })),
  };
}

/** A chunk model: presets, a custom uniform range, fixed, file, pipe. */
export function chunkField(codec: Codec, current: () => Params, emit: Emit, spec: ChunkFieldSpec): Field {
  const { presets } = codec.schema;
  const id = nextId("chunk");
  const range = (min: number, max: number): string => bytesRangeLabel(codec.formatSize(min), codec.formatSize(max));
  const bytes = (n: number): string => bytesLabel(codec.formatSize(n));
  const select = h(
    "select",
    { id, "aria-describedby": `${id}-note` },
    ...presets.map((p) => h("option", { value: `preset:${p.id}` }, `${p.id} network: ${range(p.min, p.max)}`)),
    h("option", { value: "uniform" }, "custom range a–b"),
    h("option", { value: "fixed" }, "fixed size k"),
    h("option", { value: "file" }, "file: whole request"),
    h("option", { value: "pipe" }, "pipe"),
  );
  const note = h("p", { class: "field-note", id: `${id}-note` });
  const sizes = sizeFields(codec, spec, current, emit);
  // Picking "custom range" keeps the preset's numbers; remember the choice so
  // the select does not jump back to the preset those numbers match.
  let customChosen = false;
  const presetOf = (chunk: ChunkModel) => (chunk.kind === "uniform" ? presets.find((p) => p.min === chunk.min && p.max === chunk.max) : undefined);
  const choiceOf = (chunk: ChunkModel): ChunkChoice => {
    if (chunk.kind !== "uniform") return chunk.kind;
    const preset = presetOf(chunk);
    return preset && !customChosen ? `preset:${preset.id}` : "uniform";
  };
  select.addEventListener("change", () => {
    const choice = select.value as ChunkChoice;
    customChosen = choice === "uniform";
    const p = current();
    emit(spec.set(p, chunkOfChoice(choice, spec.get(p), codec.schema)), false);
  });
  const describe = (chunk: ChunkModel): string => {
    switch (chunk.kind) {
      case "uniform": {
        const preset = presetOf(chunk);
        return preset ? `${capitalize(preset.about)}, sizes drawn with the seed.` : `Each ${spec.call} ${spec.verb} ${range(chunk.min, chunk.max)}, sizes drawn with the seed.`;
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
    h("div", { class: "sub-fields" }, sizes.min.element, sizes.max.element, sizes.fixed.element),
  );
  return {
    element,
    show(params) {
      const chunk = spec.get(params);
      if (chunk.kind !== "uniform") customChosen = false;
      select.value = choiceOf(chunk);
      setText(note, describe(chunk));
      const custom = select.value === "uniform";
      sizes.min.element.hidden = !custom;
      sizes.max.element.hidden = !custom;
      sizes.fixed.element.hidden = chunk.kind !== "fixed";
      for (const field of [sizes.min, sizes.max, sizes.fixed]) field.show(params);
    },
  };
}
