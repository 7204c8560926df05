// The read lab's form (owns <form id="controls">). The strip holds what the
// lessons turn on: buffer capacity, read size, chunking and the readers
// compared; stream, workload, pool, the async readers' Pending share and
// the I/O model sit behind "More settings". Every field is built from the
// engine's schema (limits, defaults, labels); nothing is written here twice.

import type { Codec } from "../../engine/codec";
import type { Params, ReaderKind } from "../../engine/types.gen";
import {
  checkField,
  chunkField,
  keepOneChecked,
  lenRangeField,
  nextId,
  numberField,
  oneTwoFiveSteps,
  seedField,
  settingWords,
  settingsForm,
  shownWhen,
  sizeField,
  type Emit,
  type Field,
  type SettingsForm,
} from "../../shared/fields";
import { bytesLabel, formatCount } from "../../shared/format";
import { h, replaceChildren, setText } from "../../shared/dom";

export interface ReadSettingsOptions {
  form: HTMLFormElement;
  codec: Codec;
  /** An edit produced new params; `live` while a slider is still moving. */
  onChange: (params: Params, live: boolean) => void;
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
    // What each reader is, for screen readers and as a tooltip. The strip
    // keeps to the short names the link uses (rd=std,tokio,…), so five
    // readers take two lines of the strip, not five: the results table and
    // the charts give the full labels.
    const about = `${r.label}: ${r.about}`;
    return h(
      "div",
      { class: "check compact", title: about },
      box,
      h("label", { for: id }, r.id),
      h("span", { class: "visually-hidden", id: `${id}-about` }, about),
    );
  });
  keepOneChecked(boxes, note, "reader", (chosen) => emit({ ...current(), readers: chosen }, false));
  const element = h("fieldset", { class: "field readers" }, h("legend", {}, settingWords(codec.schema, "read", "rd").label), h("div", { class: "check-row" }, ...items), note);
  return {
    element,
    show(params) {
      for (const [id, box] of boxes) box.checked = params.readers.includes(id);
    },
  };
}

/** The application's read pattern, with what to look for in the results. */
function workloadField(codec: Codec, current: () => Params, emit: Emit): Field {
  const { workloads } = codec.schema;
  const id = nextId("workload");
  const select = h("select", { id, "aria-describedby": `${id}-note ${id}-look` });
  for (const w of workloads) select.appendChild(h("option", { value: w.id }, w.label));
  const note = h("p", { class: "field-note", id: `${id}-note` });
  const look = h("p", { class: "field-note look", id: `${id}-look` });
  select.addEventListener("change", () => {
    const chosen = workloads.find((w) => w.id === select.value);
    if (chosen) emit({ ...current(), workload: chosen.id }, false);
  });
  const element = h("div", { class: "field" }, h("label", { for: id }, settingWords(codec.schema, "read", "wl").label), select, note, look);
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
  const uses = (key: string) => (p: Params): boolean => codec.uses(p, key);
  const bytes = (n: number): string => bytesLabel(codec.formatSize(n));
  const words = (key: string) => settingWords(codec.schema, "read", key);

  const cap = sizeField(
    codec,
    {
      ...words("cap"),
      range: limits.cap,
      get: (p) => p.cap,
      set: (p, v) => ({ ...p, cap: v }),
    },
    current,
    emit,
  );
  const rs = sizeField(
    codec,
    {
      ...words("rs"),
      range: limits.rs,
      get: (p) => p.rs,
      set: (p, v) => ({ ...p, rs: v }),
    },
    current,
    emit,
  );
  const chunk = chunkField(codec, current, emit, {
    label: words("chunk").label,
    get: (p) => p.chunk,
    set: (p, chunk) => ({ ...p, chunk }),
    call: "source read",
    verb: "returns",
    fileLike: "Like a regular file: every source read returns the whole request.",
    pipeLike: "Like a pipe: each source read returns at most one pipe buffer.",
  });
  const readers = readersField(codec, current, emit);

  const len = sizeField(
    codec,
    {
      ...words("len"),
      range: limits.len,
      get: (p) => p.len,
      set: (p, v) => ({ ...p, len: v }),
    },
    current,
    emit,
  );
  const seed = seedField(words("seed"), limits.seed, current, emit);
  const jobBytes = bytes(codec.schema.max_job_bytes);
  const streamsHint = words("streams").hint;
  const streams = numberField(
    {
      ...words("streams"),
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
  const workload = workloadField(codec, current, emit);
  const line = lenRangeField(
    codec,
    {
      title: words("line").label,
      hint: words("line").hint,
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
      title: words("frame").label,
      hint: words("frame").hint,
      minLabel: "Smallest payload",
      maxLabel: "Largest payload",
      range: limits.frame,
      get: (p) => p.frame,
      set: (p, v) => ({ ...p, frame: v }),
    },
    current,
    emit,
  );
  const reuse = checkField(
    {
      ...words("reuse"),
      get: (p) => p.reuse,
      set: (p, v) => ({ ...p, reuse: v }),
    },
    current,
    emit,
  );
  const nul = sizeField(
    codec,
    {
      ...words("nul"),
      range: limits.nul,
      get: (p) => p.nul,
      set: (p, v) => ({ ...p, nul: v }),
    },
    current,
    emit,
  );
  const pool = checkField(
    {
      ...words("pool"),
      get: (p) => p.pool,
      set: (p, v) => ({ ...p, pool: v }),
    },
    current,
    emit,
  );
  const pend = numberField(
    {
      ...words("pend"),
      range: limits.pend,
      steps: [0, 1, 2, 5, 10, 20, 50, 80, 100].filter((v) => v >= limits.pend.min && v <= limits.pend.max),
      get: (p) => p.pend,
      set: (p, v) => ({ ...p, pend: v }),
    },
    current,
    emit,
  );
  const sysHint = words("sys").hint;
  const sys = numberField(
    {
      ...words("sys"),
      range: limits.sys,
      // The engine's default is a stop too, so the slider sits exactly on it.
      steps: [...new Set([...oneTwoFiveSteps(limits.sys), codec.schema.defaults.sys])].sort((a, b) => a - b),
      get: (p) => p.sys,
      // A value set here is a model value again, whatever measured the last one.
      set: (p, v) => ({ ...p, sys: v, sys_source: "manual" }),
      // A calibrated value says where it was measured (link key syssrc).
      note: (p) => {
        const origin = codec.schema.sys_sources.find((s) => s.id === p.sys_source);
        if (p.sys_source === "manual" || !origin) return { text: sysHint, kind: "hint" };
        return { text: `Measured: ${origin.about} The I/O time stays modelled: source reads × this cost, plus the cost per KiB.`, kind: "hint" };
      },
    },
    current,
    emit,
  );

  const sysKib = numberField(
    {
      ...words("syskib"),
      range: limits.sys_kib,
      steps: oneTwoFiveSteps(limits.sys_kib),
      get: (p) => p.sys_kib,
      set: (p, v) => ({ ...p, sys_kib: v, sys_source: "manual" }),
    },
    current,
    emit,
  );
  // Arrival in time: off (0, each read gets one fresh piece) or a rate. On,
  // it starts at the rate sweep's first value.
  const rateWords = words("rate");
  const firstRate = codec.schema.sweep_axes.find((a) => a.id === "rate")?.from ?? limits.rate.min;
  const arrival = checkField(
    {
      ...rateWords,
      get: (p) => p.rate > 0,
      set: (p, on) => ({ ...p, rate: on ? firstRate : 0 }),
    },
    current,
    emit,
  );
  const rate = sizeField(
    codec,
    {
      label: `${rateWords.label}, bytes per second`,
      hint: "",
      range: limits.rate,
      get: (p) => p.rate,
      set: (p, v) => ({ ...p, rate: v }),
    },
    current,
    emit,
  );
  const work = numberField(
    {
      ...words("work"),
      range: limits.work,
      steps: oneTwoFiveSteps(limits.work),
      get: (p) => p.work,
      set: (p, v) => ({ ...p, work: v }),
    },
    current,
    emit,
  );

  const form_ = settingsForm(form, {
    strip: [shownWhen(cap, uses("cap")), shownWhen(rs, uses("rs")), chunk, readers],
    more: [
      { title: "Stream", fields: [len, seed, streams] },
      {
        title: "Application",
        fields: [
          workload,
          shownWhen(line, uses("line")),
          shownWhen(frame, uses("frame")),
          shownWhen(reuse, uses("reuse")),
          shownWhen(nul, uses("nul")),
        ],
      },
      { title: "Chained reader", fields: [shownWhen(pool, uses("pool"))] },
      { title: "Async readers", fields: [shownWhen(pend, uses("pend"))] },
      { title: "I/O model", fields: [sys, sysKib, arrival, shownWhen(rate, (p) => p.rate > 0), work] },
    ],
    summary: (p) => {
      const label = codec.schema.workloads.find((w) => w.id === p.workload)?.label ?? p.workload;
      const parts = [
        p.streams > 1 ? `${formatCount(p.streams)} streams of ${bytes(p.len)}` : `${bytes(p.len)} stream`,
        label,
        `seed ${p.seed}`,
        `${formatCount(p.sys)} ns per source read (modelled)`,
      ];
      if (p.sys_kib > 0) parts.push(`${formatCount(p.sys_kib)} ns per KiB read (modelled)`);
      if (p.rate > 0) parts.push(`pieces arrive at ${bytes(p.rate)}/s`);
      if (p.work > 0) parts.push(`${formatCount(p.work)} ns of work per piece`);
      if (uses("pool")(p)) parts.push(`block pool ${p.pool ? "on" : "off"}`);
      if (uses("pend")(p)) parts.push(p.pend > 0 ? `Pending before ${p.pend}% of source reads` : "source always ready");
      return parts.join(" · ");
    },
  });
  return {
    show(next) {
      params = next;
      form_.show(next);
    },
  };
}
