// The write lab's form (owns <form id="write-controls">). The strip holds
// what the cursor lesson turns on: the cursors compared, the records, the
// growable cursors' starting capacity and the fixed cursors' buffer; the
// BufWriter experiment and the I/O model sit behind "More settings". Every
// field is built from the engine's schema with the shared field builders.
//
// The seed and the modelled cost per call are the same link keys as in the
// read lab (`seed`, `sys`): one I/O model for both directions.

import type { Codec } from "../../engine/codec";
import type { Flavour, Params, WriteParams } from "../../engine/types.gen";
import { bytesLabel, formatCount } from "../../shared/format";
import {
  chunkField,
  keepOneChecked,
  nextId,
  numberField,
  oneTwoFiveSteps,
  seedField,
  settingWords,
  settingsForm,
  sizeField,
  type Emit,
  type Field,
  type SettingsForm,
} from "../../shared/fields";
import { h, setText } from "../../shared/dom";

export interface WriteSettingsOptions {
  form: HTMLFormElement;
  codec: Codec;
  onChange: (params: Params, live: boolean) => void;
}

const withWrite = (p: Params, change: Partial<WriteParams>): Params => ({ ...p, write: { ...p.write, ...change } });

/** Cursor flavours to compare, in the schema's order; at least one stays checked. */
function flavoursField(codec: Codec, current: () => Params, emit: Emit): Field {
  const { flavours } = codec.schema;
  const note = h("p", { class: "field-note", id: nextId("flavours-note") });
  const boxes = new Map<Flavour, HTMLInputElement>();
  const items = flavours.map((f) => {
    const id = nextId(`flavour-${f.id}`);
    const box = h("input", { type: "checkbox", id, value: f.id, title: f.about });
    boxes.set(f.id, box);
    return h("div", { class: "check compact" }, box, h("label", { for: id }, h("code", {}, f.label)));
  });
  keepOneChecked(boxes, note, "cursor", (chosen) => emit(withWrite(current(), { flavours: chosen }), false));
  const element = h(
    "fieldset",
    { class: "field flavours" },
    h("legend", {}, settingWords(codec.schema, "write", "wf").label),
    h("div", { class: "check-grid" }, ...items),
    note,
  );
  return {
    element,
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
  const words = (key: string) => settingWords(codec.schema, "write", key);

  const records = sizeField(
    codec,
    {
      ...words("recs"),
      range: limits.records,
      get: (p) => p.write.records,
      set: (p, v) => withWrite(p, { records: v }),
    },
    current,
    emit,
  );
  const flavours = flavoursField(codec, current, emit);
  const initCap = sizeField(
    codec,
    {
      ...words("icap"),
      range: limits.init_cap,
      get: (p) => p.write.init_cap,
      set: (p, v) => withWrite(p, { init_cap: v }),
    },
    current,
    emit,
  );
  const buf = sizeField(
    codec,
    {
      ...words("buf"),
      range: limits.buf,
      get: (p) => p.write.buf,
      set: (p, v) => withWrite(p, { buf: v }),
    },
    current,
    emit,
  );
  // Says, as the numbers change, whether the fixed buffer is big enough.
  const fit = h("p", { class: "field-note", role: "status" });

  const wlen = sizeField(
    codec,
    {
      ...words("wlen"),
      range: limits.wlen,
      get: (p) => p.write.len,
      set: (p, v) => withWrite(p, { len: v }),
    },
    current,
    emit,
  );
  const ws = sizeField(
    codec,
    {
      ...words("ws"),
      range: limits.ws,
      get: (p) => p.write.ws,
      set: (p, v) => withWrite(p, { ws: v }),
    },
    current,
    emit,
  );
  const sink = chunkField(codec, current, emit, {
    label: words("sink").label,
    get: (p) => p.write.sink,
    set: (p, chunk) => withWrite(p, { sink: chunk }),
    call: "sink write",
    verb: "accepts",
    fileLike: "Like a regular file: every sink write accepts the whole buffer.",
    pipeLike: "Like a pipe: each sink write accepts at most one pipe buffer.",
  });
  const seed = seedField(words("seed"), limits.seed, current, emit);
  const wcap = sizeField(
    codec,
    {
      ...words("wcap"),
      range: limits.wcap,
      get: (p) => p.write.cap,
      set: (p, v) => withWrite(p, { cap: v }),
    },
    current,
    emit,
  );
  const sys = numberField(
    {
      ...words("sys"),
      range: limits.sys,
      steps: [...new Set([...oneTwoFiveSteps(limits.sys), defaults.sys])].sort((a, b) => a - b),
      get: (p) => p.sys,
      set: (p, v) => ({ ...p, sys: v }),
    },
    current,
    emit,
  );

  // The fixed buffer's fit note sits under its field.
  buf.element.appendChild(fit);
  const layout = settingsForm(form, {
    strip: [flavours, records, initCap, buf],
    more: [
      { title: "BufWriter over a sink", fields: [wlen, ws, sink, seed, wcap] },
      { title: "I/O model", fields: [sys] },
    ],
    summary: (p) =>
      [
        `${bytes(p.write.len)} written ${bytes(p.write.ws)} at a time`,
        `BufWriter ${bytes(p.write.cap)}`,
        `seed ${p.seed}`,
        `${formatCount(p.sys)} ns per sink write (modelled)`,
      ].join(" · "),
  });

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
