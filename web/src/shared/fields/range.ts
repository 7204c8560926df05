// A length range a–b: two size fields under one title.

import type { Codec } from "../../engine/codec";
import type { Bounds, Params } from "../../engine/types.gen";
import { h } from "../dom";
import { nextId, type Emit, type Field } from "./kit";
import { sizeField } from "./size";

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
  /** One end's size field; raising a past b moves b, and the other way round. */
  const end = (label: string, of: (r: Bounds) => number, to: (r: Bounds, v: number) => Bounds): Field =>
    sizeField(codec, { label, hint: "", range: spec.range, get: (p) => of(spec.get(p)), set: (p, v) => spec.set(p, to(spec.get(p), v)) }, current, emit);
  const lo = end(spec.minLabel, (r) => r.min, (r, v) => ({ min: v, max: Math.max(v, r.max) }));
  const hi = end(spec.maxLabel, (r) => r.max, (r, v) => ({ min: Math.min(v, r.min), max: v }));
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
