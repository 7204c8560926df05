// On/off and several-of-a-list fields.

import type { Params } from "../../engine/types.gen";
import { h, setText } from "../dom";
import { nextId, type Emit, type Field } from "./kit";

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
