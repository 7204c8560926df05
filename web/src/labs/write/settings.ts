// The write lab's form (owns <form id="write-controls">), built from the
// engine's schema (its settings table; shared/fields/form.ts). The strip
// holds what the cursor lesson turns on: the cursors compared, the
// records, the growable cursors' starting capacity and the fixed cursors'
// buffer; the BufWriter experiment and the I/O model sit behind "More
// settings". The seed and the modelled cost per call are the same link keys
// as in the read lab (`seed`, `sys`): one I/O model for both directions.

import type { Codec } from "../../engine/codec";
import type { Flavour, Params, SettingInfo, WriteParams } from "../../engine/types.gen";
import { bytesLabel, formatCount } from "../../shared/format";
import { keepOneChecked } from "../../shared/fields/choice";
import { schemaForm, type SettingExtras } from "../../shared/fields/form";
import { nextId, type Emit, type Field, type SettingsForm } from "../../shared/fields/kit";
import { costSteps, newSeedButton } from "../../shared/fields/number";
import { h, setText } from "../../shared/dom";

export interface WriteSettingsOptions {
  form: HTMLFormElement;
  codec: Codec;
  onChange: (params: Params, live: boolean) => void;
}

const withWrite = (p: Params, change: Partial<WriteParams>): Params => ({ ...p, write: { ...p.write, ...change } });

/** Cursor flavours to compare, in the schema's order; at least one stays checked. */
function flavoursField(codec: Codec, setting: SettingInfo, current: () => Params, emit: Emit): Field {
  const note = h("p", { class: "field-note", id: nextId("flavours-note") });
  const boxes = new Map<Flavour, HTMLInputElement>();
  const items = codec.schema.flavours.map((f) => {
    const id = nextId(`flavour-${f.id}`);
    const box = h("input", { type: "checkbox", id, value: f.id, title: f.about });
    boxes.set(f.id, box);
    return h("div", { class: "check compact" }, box, h("label", { for: id }, h("code", {}, f.label)));
  });
  keepOneChecked(boxes, note, "cursor", (chosen) => emit(withWrite(current(), { flavours: chosen }), false));
  return {
    element: h("fieldset", { class: "field flavours" }, h("legend", {}, setting.label), h("div", { class: "check-grid" }, ...items), note),
    show(params) {
      for (const [id, box] of boxes) box.checked = params.write.flavours.includes(id);
    },
  };
}

export function createWriteSettings({ form, codec, onChange }: WriteSettingsOptions): SettingsForm {
  const { limits, defaults, record_bytes: recordBytes } = codec.schema;
  let params: Params = defaults;
  const current = (): Params => params;
  const emit: Emit = (next, live) => {
    params = next;
    onChange(next, live);
  };
  const bytes = (n: number): string => bytesLabel(codec.formatSize(n));
  const extras: Record<string, SettingExtras> = {
    wf: { field: (s) => flavoursField(codec, s, current, emit) },
    sink: {
      chunk: {
        call: "sink write",
        verb: "accepts",
        fileLike: "Like a regular file: every sink write accepts the whole buffer.",
        pipeLike: "Like a pipe: each sink write accepts at most one pipe buffer.",
      },
    },
    seed: { extra: newSeedButton(limits.seed, current, emit) },
    sys: { steps: costSteps(codec.schema) },
  };
  const layout = schemaForm(form, codec, "write", { current, emit }, extras, (p) =>
    [`${bytes(p.write.len)} written ${bytes(p.write.ws)} at a time`, `BufWriter ${bytes(p.write.cap)}`, `seed ${p.seed}`, `${formatCount(p.sys)} ns per sink write (modelled)`].join(" · "),
  );
  // Under the fixed buffer's field: whether it is big enough, as the numbers change.
  const fit = h("p", { class: "field-note", role: "status" });
  layout.fieldOf("buf").element.appendChild(fit);
  return {
    show(next) {
      params = next;
      layout.show(next);
      const need = next.write.records * recordBytes;
      const short = next.write.buf < need;
      setText(
        fit,
        short
          ? `The fixed buffer (${bytes(next.write.buf)}) is smaller than the ${bytes(need)} the records need: the fixed cursors will stop with WriteZero.`
          : `The records need ${bytes(need)}; the fixed buffer holds ${bytes(next.write.buf)}.`,
      );
      fit.classList.toggle("warn", short);
    },
  };
}
