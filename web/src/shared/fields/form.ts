// A lab's settings form: the strip's fields in one row, then "More
// settings", built from the schema's settings table (crate/src/catalog/
// settings.rs): each setting's control, where it lives in the params, its
// limits and its group. A lab hands over only what the table cannot say:
// its lists (readers, workload, cursors), the words of its chunk and range
// fields, slider stops and notes that read other settings.

import type { Codec } from "../../engine/codec";
import type { Bounds, Lab, LenRange, Params, SettingInfo } from "../../engine/types.gen";
import { h, replaceChildren, setText } from "../dom";
import { checkField } from "./choice";
import { chunkField, type ChunkFieldSpec } from "./chunk";
import { group, shownWhen, type Emit, type Field, type SettingsForm } from "./kit";
import { numberField, type NumberFieldSpec } from "./number";
import { lenRangeField } from "./range";
import { sizeField, sizeOrOffField } from "./size";

export interface SettingsLayout {
  /** What a lesson is about: shown in the strip above the results. */
  strip: Field[];
  /** Everything else, in titled groups, behind "More settings". */
  more: { title: string; fields: Field[] }[];
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
      ...layout.more.map((g) => group(g.title, ...g.fields)),
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

/** What a lab says of one of its settings that the schema's table cannot (each optional but where its control needs it). */
export interface SettingExtras {
  /** The field of a `pick` setting: the lab's own list (readers, workload, cursors). */
  field?(setting: SettingInfo): Field;
  /** A chunk field's words for one call. */
  chunk?: Omit<ChunkFieldSpec, "label" | "get" | "set">;
  /** A range field's two ends' labels. */
  range?: { minLabel: string; maxLabel: string };
  /** A count's slider stops (none: no slider), its note, and a control beside its box. */
  steps?: number[];
  note?: NumberFieldSpec["note"];
  extra?: NumberFieldSpec["extra"];
  /** The value a size-or-off setting takes when it is turned on (none: its smallest). */
  onValue?: number;
  /** Writes the value where it lives differently (another setting follows it). */
  set?(params: Params, value: number): Params;
}

/** The value at `field` of `params` (`cap`, `write.init_cap`): where a setting lives. */
export function valueAt(params: Params, field: string): unknown {
  return field.split(".").reduce<unknown>((value, part) => (value as Record<string, unknown>)[part], params);
}

/** `params` with `value` at `field`. */
export function withValue(params: Params, field: string, value: unknown): Params {
  const write = (into: Record<string, unknown>, [part, ...rest]: string[]): Record<string, unknown> =>
    ({ ...into, [part!]: rest.length === 0 ? value : write(into[part!] as Record<string, unknown>, rest) });
  return write(params as unknown as Record<string, unknown>, field.split(".")) as unknown as Params;
}

/** The field that edits `setting`, by its control. */
export function fieldFor(codec: Codec, setting: SettingInfo, current: () => Params, emit: Emit, extras: SettingExtras): Field {
  const { label, hint, field } = setting;
  const range = setting.bounds as Bounds;
  const get = <T>(p: Params): T => valueAt(p, field) as T;
  const set = (p: Params, v: unknown): Params => withValue(p, field, v);
  switch (setting.control) {
    case "size":
      return sizeField(codec, { label, hint, range, get, set }, current, emit);
    case "size_or_off": {
      const unit = setting.unit === null ? "" : `, ${setting.unit}`;
      return sizeOrOffField(codec, { label, hint, range, get, set, sizeLabel: `${label}${unit}`, onValue: extras.onValue ?? range.min }, current, emit);
    }
    case "count": {
      const unit = setting.unit === null ? {} : { unit: setting.unit };
      const spec: NumberFieldSpec = { label, hint, ...unit, range, get, set: extras.set ?? set, steps: extras.steps ?? [] };
      return numberField({ ...spec, ...(extras.note ? { note: extras.note } : {}), ...(extras.extra ? { extra: extras.extra } : {}) }, current, emit);
    }
    case "flag":
      return checkField({ label, hint, get, set }, current, emit);
    // The lab hands the words and lists of these (`SettingExtras`).
    case "chunk":
      return chunkField(codec, current, emit, { label, get, set, ...extras.chunk! });
    case "len_range":
      return lenRangeField(codec, { title: label, hint, ...extras.range!, range, get: (p) => get<LenRange>(p), set }, current, emit);
    case "pick":
      return extras.field!(setting);
  }
}

export interface SchemaForm extends SettingsForm {
  /** The field of link key `key`. */
  fieldOf(key: string): Field;
}

/**
 * `lab`'s form, built from the schema's settings table in its order: the
 * strip's settings, then each group's; each field shown only while the
 * experiment uses its setting (`codec.uses`).
 */
export function schemaForm(
  form: HTMLFormElement,
  codec: Codec,
  lab: Lab,
  edits: { current(): Params; emit: Emit },
  extras: Readonly<Record<string, SettingExtras>>,
  summary: (params: Params) => string,
): SchemaForm {
  const settings = codec.schema.settings.filter((s) => s.lab === lab);
  const fields = new Map(settings.map((s) => [s.key, shownWhen(fieldFor(codec, s, edits.current, edits.emit, extras[s.key] ?? {}), (p) => codec.uses(p, s.key))]));
  const fieldOf = (key: string): Field => fields.get(key)!;
  const titles = [...new Set(settings.flatMap((s) => (s.group === null ? [] : [s.group])))];
  const layout = settingsForm(form, {
    strip: settings.filter((s) => s.group === null).map((s) => fieldOf(s.key)),
    more: titles.map((title) => ({ title, fields: settings.filter((s) => s.group === title).map((s) => fieldOf(s.key)) })),
    summary,
  });
  return { ...layout, fieldOf };
}
