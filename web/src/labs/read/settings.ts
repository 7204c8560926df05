// The read lab's form (owns <form id="controls">), built from the engine's
// schema (its settings table: each setting's control, limits, group and
// words; shared/fields/form.ts). The strip holds what the lessons turn on:
// buffer capacity, read size, chunking and the readers compared; stream,
// workload, pool, the async readers' Pending share and the I/O model (the
// costs per read and per KiB, the arrival rate, the work per piece) sit
// behind "More settings". Here: what only this lab says of its settings.

import type { Codec } from "../../engine/codec";
import type { Params, ReaderKind, SettingInfo } from "../../engine/types.gen";
import { keepOneChecked } from "../../shared/fields/choice";
import { schemaForm, type SettingExtras } from "../../shared/fields/form";
import { nextId, type Emit, type Field, type SettingsForm } from "../../shared/fields/kit";
import { costSteps, newSeedButton, oneTwoFiveSteps } from "../../shared/fields/number";
import { bytesLabel, formatCount } from "../../shared/format";
import { h, replaceChildren, setText } from "../../shared/dom";

export interface ReadSettingsOptions {
  form: HTMLFormElement;
  codec: Codec;
  /** An edit produced new params; `live` while a slider is still moving. */
  onChange: (params: Params, live: boolean) => void;
}

/** Readers to compare, in the schema's order; at least one stays checked. */
function readersField(codec: Codec, setting: SettingInfo, current: () => Params, emit: Emit): Field {
  const note = h("p", { class: "field-note", id: nextId("readers-note") });
  const boxes = new Map<ReaderKind, HTMLInputElement>();
  const items = codec.schema.readers.map((r) => {
    const id = nextId("reader");
    const box = h("input", { type: "checkbox", id, value: r.id, "aria-describedby": `${id}-about` });
    boxes.set(r.id, box);
    // The strip keeps to the short names the link uses (rd=std,tokio,…), so
    // five readers take two lines of the strip: the results give the full
    // labels, and each reader's is here for screen readers and as a tooltip.
    const about = `${r.label}: ${r.about}`;
    return h("div", { class: "check compact", title: about }, box, h("label", { for: id }, r.id), h("span", { class: "visually-hidden", id: `${id}-about` }, about));
  });
  keepOneChecked(boxes, note, "reader", (chosen) => emit({ ...current(), readers: chosen }, false));
  return {
    element: h("fieldset", { class: "field readers" }, h("legend", {}, setting.label), h("div", { class: "check-row" }, ...items), note),
    show(params) {
      for (const [id, box] of boxes) box.checked = params.readers.includes(id);
    },
  };
}

/** The application's read pattern, with what to look for in the results. */
function workloadField(codec: Codec, setting: SettingInfo, current: () => Params, emit: Emit): Field {
  const { workloads } = codec.schema;
  const id = nextId("workload");
  const select = h("select", { id, "aria-describedby": `${id}-note ${id}-look` }, ...workloads.map((w) => h("option", { value: w.id }, w.label)));
  const note = h("p", { class: "field-note", id: `${id}-note` });
  const look = h("p", { class: "field-note look", id: `${id}-look` });
  select.addEventListener("change", () => {
    const chosen = workloads.find((w) => w.id === select.value);
    if (chosen) emit({ ...current(), workload: chosen.id }, false);
  });
  return {
    element: h("div", { class: "field" }, h("label", { for: id }, setting.label), select, note, look),
    show(params) {
      select.value = params.workload;
      const chosen = workloads.find((w) => w.id === params.workload);
      setText(note, chosen?.about ?? "");
      if (chosen?.look) replaceChildren(look, h("strong", {}, "Look for: "), chosen.look);
      else replaceChildren(look);
    },
  };
}

export function createReadSettings({ form, codec, onChange }: ReadSettingsOptions): SettingsForm {
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
  const bytes = (n: number): string => bytesLabel(codec.formatSize(n));
  const hintOf = (key: string): string => codec.schema.settings.find((s) => s.lab === "read" && s.key === key)?.hint ?? "";
  const jobBytes = bytes(codec.schema.max_job_bytes);
  const extras: Record<string, SettingExtras> = {
    chunk: {
      chunk: {
        call: "source read",
        verb: "returns",
        fileLike: "Like a regular file: every source read returns the whole request.",
        pipeLike: "Like a pipe: each source read returns at most one pipe buffer.",
      },
    },
    rd: { field: (s) => readersField(codec, s, current, emit) },
    wl: { field: (s) => workloadField(codec, s, current, emit) },
    seed: { extra: newSeedButton(limits.seed, current, emit) },
    streams: {
      steps: oneTwoFiveSteps(limits.streams),
      note: (p) => {
        const most = codec.maxStreams(p.len, p.cap);
        if (most >= limits.streams.max || (p.streams < most && !streamsCapped)) return { text: hintOf("streams"), kind: "hint" };
        return {
          text: `At most ${most} streams at this stream length and buffer capacity: each of length × streams and capacity × streams is capped at ${jobBytes}, so one run's memory and time stay bounded.`,
          kind: streamsCapped ? "warn" : "hint",
        };
      },
    },
    line: { range: { minLabel: "Shortest line", maxLabel: "Longest line" } },
    frame: { range: { minLabel: "Smallest payload", maxLabel: "Largest payload" } },
    pend: { steps: [0, 1, 2, 5, 10, 20, 50, 80, 100].filter((v) => v >= limits.pend.min && v <= limits.pend.max) },
    sys: {
      steps: costSteps(codec.schema),
      // A value set here is a model value again, whatever measured the last one.
      set: (p, v) => ({ ...p, sys: v, sys_source: "manual" }),
      // A calibrated value says where it was measured (link key syssrc).
      note: (p) => {
        const origin = codec.schema.sys_sources.find((s) => s.id === p.sys_source);
        if (p.sys_source === "manual" || !origin) return { text: hintOf("sys"), kind: "hint" };
        return { text: `Measured: ${origin.about} The I/O time stays modelled: source reads × this cost, plus the cost per KiB.`, kind: "hint" };
      },
    },
    syskib: {
      steps: oneTwoFiveSteps(limits.sys_kib),
      // Measured with the cost per read or typed here: a model value again, as `sys`.
      set: (p, v) => ({ ...p, sys_kib: v, sys_source: "manual" }),
    },
    // Turned on, arrival starts at the rate sweep's first value.
    rate: { onValue: codec.schema.sweep_axes.find((a) => a.id === "rate")?.from ?? limits.rate.min },
    work: { steps: oneTwoFiveSteps(limits.work) },
  };
  const layout = schemaForm(form, codec, "read", { current, emit }, extras, (p) => {
    const label = codec.schema.workloads.find((w) => w.id === p.workload)?.label ?? p.workload;
    const parts = [p.streams > 1 ? `${formatCount(p.streams)} streams of ${bytes(p.len)}` : `${bytes(p.len)} stream`, label, `seed ${p.seed}`, `${formatCount(p.sys)} ns per source read (modelled)`];
    if (p.sys_kib > 0) parts.push(`${formatCount(p.sys_kib)} ns per KiB read (modelled)`);
    if (p.rate > 0) parts.push(`pieces arrive at ${bytes(p.rate)}/s`);
    if (p.work > 0) parts.push(`${formatCount(p.work)} ns of work per piece`);
    if (codec.uses(p, "pool")) parts.push(`block pool ${p.pool ? "on" : "off"}`);
    if (codec.uses(p, "pend")) parts.push(p.pend > 0 ? `Pending before ${p.pend}% of source reads` : "source always ready");
    return parts.join(" · ");
  });
  return {
    show(next) {
      params = next;
      layout.show(next);
    },
  };
}
