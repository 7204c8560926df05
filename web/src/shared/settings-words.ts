// An experiment's settings in words, for what leaves the page (the settings
// line of an exported PNG, SVG or CSV, beside its link): each setting the
// experiment uses, by its label in the schema's settings table
// (crate/src/catalog/settings.rs), with its value in words and units rather
// than its link key (a read size of 1 byte, not rs=1; the readers by their
// names, the cost per source read in ns, marked modelled). The link beside
// it stays the exact, machine-readable form. The same words say how a
// setting changed between two runs (`settingChange`, the baseline panel's
// "buffer capacity 8 KiB → 16 KiB").

import { usesKey } from "../engine/codec";
import schemaData from "../engine/schema.gen.json";
import type { ChunkModel, Lab, Params, Schema, Sweep } from "../engine/types.gen";
import { formatBinaryBytes, formatCount, listText } from "./format";

/** A size in bytes: "1 byte", "512 bytes", "8 KiB". */
function size(n: number): string {
  if (n === 1) return "1 byte";
  return n < 1024 ? `${formatCount(n)} bytes` : formatBinaryBytes(n);
}

/** A chunk model in words: "poor network, 64–512 bytes per read". `per`: "read" or "write". */
export function chunkWords(schema: Schema, chunk: ChunkModel, per: string): string {
  switch (chunk.kind) {
    case "uniform": {
      const preset = schema.presets.find((p) => p.min === chunk.min && p.max === chunk.max);
      const range = `${formatCount(chunk.min)}–${size(chunk.max)} per ${per}`;
      return preset ? `${preset.id} network, ${range}` : `${range}, drawn with the seed`;
    }
    case "fixed":
      return `at most ${size(chunk.size)} per ${per}`;
    case "file":
      return `a regular file (every ${per} in full)`;
    case "pipe":
      return "a pipe";
  }
}

const onOff = (on: boolean): string => (on ? "on" : "off");

/** Each setting's value in words, by lab and link key. */
const VALUES: Record<Lab, Record<string, (p: Params, schema: Schema) => string>> = {
  read: {
    len: (p) => size(p.len),
    chunk: (p, s) => chunkWords(s, p.chunk, "read"),
    cap: (p) => size(p.cap),
    rs: (p) => size(p.rs),
    rd: (p, s) => listText(p.readers.map((r) => s.readers.find((x) => x.id === r)?.label ?? r)),
    wl: (p, s) => s.workloads.find((w) => w.id === p.workload)?.label ?? p.workload,
    streams: (p) => formatCount(p.streams),
    line: (p) => `${formatCount(p.line.min)}–${size(p.line.max)}`,
    frame: (p) => `${formatCount(p.frame.min)}–${size(p.frame.max)}`,
    reuse: (p) => onOff(p.reuse),
    nul: (p) => (p.nul >= p.len ? "none (the whole stream is scanned)" : `at byte ${formatCount(p.nul)}`),
    pool: (p) => onOff(p.pool),
    pend: (p) => `${p.pend}% of source reads`,
    seed: (p) => String(p.seed),
    sys: (p) => `${formatCount(p.sys)} ns (modelled)`,
    syskib: (p) => `${formatCount(p.sys_kib)} ns (modelled)`,
    rate: (p) => (p.rate === 0 ? "off (each read gets one fresh piece)" : `${size(p.rate)} per second`),
    work: (p) => `${formatCount(p.work)} ns`,
  },
  write: {
    wf: (p, s) => listText(p.write.flavours.map((f) => s.flavours.find((x) => x.id === f)?.label ?? f)),
    recs: (p) => formatCount(p.write.records),
    icap: (p) => size(p.write.init_cap),
    buf: (p) => size(p.write.buf),
    wlen: (p) => size(p.write.len),
    ws: (p) => size(p.write.ws),
    sink: (p, s) => chunkWords(s, p.write.sink, "write"),
    seed: (p) => String(p.seed),
    wcap: (p) => size(p.write.cap),
    sys: (p) => `${formatCount(p.sys)} ns (modelled)`,
  },
};

/**
 * The read lab's I/O-model settings that change nothing at 0 (no cost per
 * KiB, no arrival rate, no work): the settings line leaves them out there,
 * as the link does; a change to or from 0 is still said.
 */
const UNSAID_AT_ZERO: Partial<Record<string, (p: Params) => number>> = { syskib: (p) => p.sys_kib, rate: (p) => p.rate, work: (p) => p.work };

/** A sweep's range: its axis by the axis's label (`label` shapes it), from where to where, and the second axis's likewise. */
function sweepRange(schema: Schema, sweep: Sweep, label: (text: string) => string = (text) => text): string {
  const along = (axis: Sweep["axis"], from: number, to: number): string => {
    const info = schema.sweep_axes.find((a) => a.id === axis);
    const value = (v: number): string => (info?.bytes ? size(v) : formatCount(v)) + (info?.per ? ` ${info.per === "/s" ? "per second" : info.per}` : "");
    return `${label(info?.label ?? axis)} from ${value(from)} to ${value(to)}`;
  };
  const across = sweep.across ? `, by ${along(sweep.across.axis, sweep.across.from, sweep.across.to)}` : "";
  return `${along(sweep.axis, sweep.from, sweep.to)}${across}`;
}

/** A sweep in words: "Sweep: " and its range. */
function sweepWords(schema: Schema, sweep: Sweep): string {
  return `Sweep: ${sweepRange(schema, sweep)}`;
}

/**
 * A label inside a sentence: its first letter lower-cased, unless its first
 * word has capitals of its own (an acronym, a type's name), which it keeps.
 */
function inSentence(label: string): string {
  const first = label.split(" ", 1)[0] ?? "";
  return /[A-Z]/.test(first.slice(1)) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}

/**
 * How the setting of link key `key` changed from `before` to `after`, in
 * words for the middle of a sentence: its label in the schema's settings
 * table (its first letter lower-cased) and its value on each side, as
 * `settingsInWords` says them: "buffer capacity 8 KiB → 16 KiB", "readers
 * unbuffered Read and std BufReader → std BufReader and chained zero-copy".
 * A sweep key (the schema's `sweep_keys`) says the sweep's change: "sweep
 * none → buffer capacity from 16 bytes to 64 KiB". Both params are the
 * codec's (a link decoded: every field there and checked).
 *
 * Null where there are no such words: a key with no label or words in the
 * runs' lab (a display key, the link's version, an unknown key), runs of
 * two labs, or the same words on both sides. The caller then says the
 * change as the links have it.
 */
export function settingChange(key: string, before: Params, after: Params, schema: Schema = schemaData as Schema): string | null {
  if (before.lab !== after.lab) return null;
  let label: string;
  let words: (p: Params) => string;
  if (schema.sweep_keys.includes(key)) {
    label = "sweep";
    words = (p) => (p.sweep === null ? "none" : sweepRange(schema, p.sweep, inSentence));
  } else {
    const setting = schema.settings.find((s) => s.lab === before.lab && s.key === key);
    const value = Object.hasOwn(VALUES[before.lab], key) ? VALUES[before.lab][key] : undefined;
    if (!setting || !value) return null;
    label = inSentence(setting.label);
    words = (p) => value(p, schema);
  }
  const from = words(before);
  const to = words(after);
  return from === to ? null : `${label} ${from} → ${to}`;
}

/**
 * The settings `params` runs with, in words, on one line: the settings of
 * its lab the experiment uses (the form's rule, `usesKey`), in the form's
 * order, then its sweep, if it has one (in place of the settings it moves).
 */
export function settingsInWords(params: Params, schema: Schema = schemaData as Schema): string {
  // A swept setting is said by the sweep's range, not by its base value.
  const swept = [params.sweep?.axis, params.sweep?.across?.axis].map((axis) => schema.sweep_axes.find((a) => a.id === axis)?.key);
  const parts = schema.settings
    .filter((s) => s.lab === params.lab && usesKey(schema, params, s.key) && !swept.includes(s.key))
    .filter((s) => s.lab !== "read" || UNSAID_AT_ZERO[s.key]?.(params) !== 0)
    .map((s) => {
      const value = VALUES[params.lab][s.key];
      if (!value) throw new Error(`no words for the ${params.lab} setting ${s.key}`);
      return `${s.label}: ${value(params, schema)}`;
    });
  if (params.sweep) parts.push(sweepWords(schema, params.sweep));
  return parts.join("; ");
}
