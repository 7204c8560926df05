// The buffer timeline: one reader's first application operations, replayed
// step by step (crate/src/engine/timeline.rs records them in an untimed pass).
//
// Per step: the three places bytes pass through (source → buffer → app) as
// cards, the buffer drawn as bars of its capacity (one per block for the
// chained reader) with what the source put in and what the app took out this
// step, and the Rust-side caption. Below, a strip of every operation's fill
// level, source reads and bypasses; clicking it jumps there. Everything is
// built with DOM APIs; every value is text or an SVG attribute.
//
// Playback: Back / Play / Forward buttons and a step slider (keyboard: Tab to
// them; the slider takes arrow keys, Home and End). Autoplay runs once when the
// timeline first comes into view, never with prefers-reduced-motion.
//
// The first frame teaches: the headline says where the buffer fills, drains
// and refills in the recorded steps; where it never refills (a large buffer
// drained a byte at a time), it says why and offers the timeline's starting
// settings (TIMELINE_START), where a fill, a drain and a refill fit in view.

import type { Op, Report, Run, Timeline } from "../../engine/types.gen";
import { formatCount } from "../../shared/format";
import { append, h, replaceChildren, setText } from "../../shared/dom";

/**
 * The timeline's starting settings: a 256-byte buffer read 8 bytes at a
 * time, so over a network of 64–512-byte chunks a fill, its drain and the
 * refill all happen within the recorded steps.
 */
export const TIMELINE_START = { cap: 256, rs: 8 } as const;

/** Time per step while playing. */
const PLAY_STEP_MS = 700;
/** Block rows drawn for the chained reader; more are summarised in words. */
const MAX_BLOCK_ROWS = 4;
const SVG = "http://www.w3.org/2000/svg";

export interface TimelineView {
  /** Shows the report's timelines (null: nothing to show). */
  update(report: Report | null): void;
  /** One sentence about the trace on screen: where its buffer fills, drains and refills. */
  headline(): string;
}

export interface TimelineOptions {
  labelOf: (readerId: string) => string;
  /** The reader shown changed, so the headline did. */
  onHeadline: () => void;
  /** The person asked for the timeline's starting settings (TIMELINE_START). */
  onStart: () => void;
}

type SvgAttrs = Record<string, string | number>;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: SvgAttrs = {}): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

/** "1 byte", "300 bytes", "8 KiB" (exact: the timeline counts bytes one by one). */
export function bytesText(n: number): string {
  if (n === 1) return "1 byte";
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${formatCount(n)} bytes`;
}

/** A size before a noun: "8 KiB", "256-byte". */
function sizeWord(n: number): string {
  const text = bytesText(n);
  return text.endsWith(" bytes") ? `${text.slice(0, -" bytes".length)}-byte` : text;
}

const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;

/** The reader shown first: std's buffer is the one the timeline explains best. */
export function defaultReader(runs: readonly Run[]): string | null {
  const traced = runs.filter((r) => r.timeline);
  return (traced.find((r) => r.reader === "std") ?? traced[0])?.reader ?? null;
}

/** Totals up to and including step `index`. */
export function totalsAt(ops: readonly Op[], index: number): { calls: number; reads: number; copied: number; bytes: number } {
  let calls = 0;
  let reads = 0;
  let copied = 0;
  let bytes = 0;
  for (const op of ops.slice(0, index + 1)) {
    calls += op.calls;
    reads += op.source_reads;
    copied += op.copied;
    bytes += op.returned;
  }
  return { calls, reads, copied, bytes };
}

/** The operations that made a source read into the buffer (not a bypass): its fills. */
export function fillSteps(ops: readonly Op[]): number[] {
  return ops.flatMap((op, i) => (op.source_reads > 0 && !op.bypass && op.reads.some((r) => r.block !== null) ? [i] : []));
}

/**
 * The trace in one sentence: a reader without a buffer, reads that skip it,
 * or where the buffer fills, how long the application drains it from memory,
 * and where it refills (or that it never does within the recorded steps).
 */
export function describeTrace(t: Timeline, label: string): string {
  const ops = t.ops;
  const n = ops.length;
  if (n === 0) return `${label}: no operations were recorded.`;
  const steps = plural(n, "step");
  if (t.shape === "unbuffered" || t.capacity === 0) {
    const reads = ops.reduce((sum, op) => sum + op.source_reads, 0);
    return `${label} has no buffer: in these ${steps} every application read goes to the source (${plural(reads, "source read")}).`;
  }
  const fills = fillSteps(ops);
  if (fills.length === 0) {
    return ops.some((op) => op.bypass)
      ? `${label}: every read here is at least as large as the ${sizeWord(t.capacity)} buffer, so it goes straight to the source and the buffer is skipped: nothing is copied.`
      : `${label}: no source read in these ${steps}; the application is served from what the buffer already held.`;
  }
  const first = fills[0]!;
  const filled = ops[first]!.reads.reduce((sum, r) => sum + (r.block !== null ? r.returned : 0), 0);
  const fill = `a source read fills the ${sizeWord(t.capacity)} ${t.shape === "blocks" ? "block" : "buffer"} at step ${first + 1} with ${bytesText(filled)}`;
  if (fills.length === 1) {
    const drained = n - first - 1;
    return `${label}: ${fill}; the next ${plural(drained, "step")} are served from memory and it never refills within the ${steps} recorded.`;
  }
  const second = fills[1]!;
  const between = second - first - 1;
  const reads = ops.reduce((sum, op) => sum + op.source_reads, 0);
  return `${label}: ${fill}; ${plural(between, "application read")} drain it from memory; it refills at step ${second + 1}. ${plural(reads, "source read")} in ${steps}.`;
}

/** True when the trace shows the buffer fill, drain and fill again. */
export function refills(t: Timeline): boolean {
  return fillSteps(t.ops).length >= 2;
}

export function createTimeline(root: HTMLElement, { labelOf, onHeadline, onStart }: TimelineOptions): TimelineView {
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  const picker = h("select", { id: "timeline-reader", class: "timeline-reader" });
  const back = h("button", { type: "button", class: "small", "aria-label": "Step back" }, "◀ Back");
  const play = h("button", { type: "button", class: "small timeline-play", "aria-pressed": "false" }, "▶ Play");
  const forward = h("button", { type: "button", class: "small", "aria-label": "Step forward" }, "Forward ▶");
  const slider = h("input", { type: "range", id: "timeline-step", min: 0, max: 0, step: 1, value: 0 });
  const position = h("output", { for: "timeline-step", class: "timeline-position" });
  const intro = h("p", { class: "timeline-intro" });
  const startButton = h(
    "button",
    { type: "button", class: "small", "data-action": "timeline-start" },
    `Watch it refill: ${TIMELINE_START.cap}-byte buffer, ${TIMELINE_START.rs}-byte reads`,
  );
  startButton.addEventListener("click", onStart);
  const offer = h(
    "p",
    { class: "timeline-offer" },
    "This buffer takes more steps to drain than are recorded here. ",
    startButton,
  );
  offer.hidden = true;
  const caption = h("p", { class: "timeline-caption", "aria-live": "polite" });
  const flow = h("div", { class: "timeline-flow" });
  const picture = h("div", { class: "timeline-picture" });
  const strip = svg("svg", { class: "timeline-strip", "aria-hidden": "true", preserveAspectRatio: "none" });
  const stripNote = h("figcaption", { class: "timeline-strip-note" });
  const totals = h("p", { class: "timeline-totals" });

  replaceChildren(
    root,
    h("h3", { class: "visually-hidden", id: "timeline-title" }, "Buffer timeline"),
    offer,
    intro,
    h(
      "div",
      { class: "timeline-controls" },
      h("label", { class: "timeline-field" }, "Reader ", picker),
      h("div", { class: "buttons", role: "group", "aria-label": "Timeline playback" }, back, play, forward),
      h("label", { class: "timeline-field timeline-slider" }, "Step ", slider),
      position,
    ),
    caption,
    flow,
    picture,
    h("figure", { class: "timeline-strip-figure" }, strip, stripNote),
    totals,
  );

  let runs: Run[] = [];
  let link = "";
  let reader: string | null = null;
  let index = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let autoplayDone = false;

  const timeline = (): Timeline | null => runs.find((r) => r.reader === reader)?.timeline ?? null;

  function stop(): void {
    if (timer !== null) clearInterval(timer);
    timer = null;
    setText(play, "▶ Play");
    play.setAttribute("aria-pressed", "false");
    // While playing the caption changes every step; a screen reader hears it again once stopped.
    caption.setAttribute("aria-live", "polite");
  }

  function start(): void {
    const t = timeline();
    if (!t || t.ops.length < 2) return;
    if (index >= t.ops.length - 1) index = 0;
    caption.setAttribute("aria-live", "off");
    setText(play, "❚❚ Pause");
    play.setAttribute("aria-pressed", "true");
    show();
    timer = setInterval(() => {
      const ops = timeline()?.ops.length ?? 0;
      if (index >= ops - 1) {
        stop();
        return;
      }
      index += 1;
      show();
    }, PLAY_STEP_MS);
  }

  function go(to: number): void {
    stop();
    const ops = timeline()?.ops.length ?? 0;
    index = Math.max(0, Math.min(ops - 1, to));
    show();
  }

  back.addEventListener("click", () => go(index - 1));
  forward.addEventListener("click", () => go(index + 1));
  play.addEventListener("click", () => (timer === null ? start() : stop()));
  slider.addEventListener("input", () => go(Number(slider.value)));
  picker.addEventListener("change", () => {
    reader = picker.value;
    go(Math.min(index, (timeline()?.ops.length ?? 1) - 1));
    onHeadline();
  });
  strip.addEventListener("click", (event) => {
    const ops = timeline()?.ops.length ?? 0;
    const box = strip.getBoundingClientRect();
    if (ops === 0 || box.width === 0) return;
    go(Math.floor(((event.clientX - box.left) / box.width) * ops));
  });

  // Autoplay once, when the timeline first comes into view, unless motion is reduced.
  if ("IntersectionObserver" in window) {
    const seen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting) || autoplayDone || timeline() === null) return;
        autoplayDone = true;
        seen.disconnect();
        if (!reduceMotion.matches && index === 0) start();
      },
      { threshold: 0.6 },
    );
    seen.observe(root);
  }

  function showPicker(): void {
    const traced = runs.filter((r) => r.timeline);
    const current = [...picker.options].map((o) => o.value).join(",");
    if (current !== traced.map((r) => r.reader).join(",")) {
      replaceChildren(picker, ...traced.map((r) => h("option", { value: r.reader }, labelOf(r.reader))));
    }
    picker.value = reader ?? "";
  }

  function show(): void {
    const t = timeline();
    root.hidden = t === null;
    if (!t) return;
    const ops = t.ops;
    const op = ops[index];
    slider.max = String(Math.max(0, ops.length - 1));
    slider.value = String(index);
    slider.setAttribute("aria-valuetext", `step ${index + 1} of ${ops.length}`);
    setText(position, `${index + 1} / ${ops.length}`);
    back.disabled = index === 0;
    forward.disabled = index >= ops.length - 1;
    play.disabled = ops.length < 2;
    setText(intro, introText(t));
    offer.hidden = t.shape !== "single" || refills(t) || fillSteps(t.ops).length === 0;
    if (!op) {
      setText(caption, t.error ? `The run stopped before any operation: ${t.error}` : "No operations.");
      replaceChildren(flow);
      replaceChildren(picture);
      return;
    }
    setText(caption, `Step ${index + 1}: ${op.caption}.`);
    const blocks = t.shape === "blocks";
    showFlow(flow, op, t, blocks);
    showPicture(picture, op, t, blocks);
    showStrip(strip, ops, index);
    setText(stripNote, stripText(t));
    const sum = totalsAt(ops, index);
    setText(
      totals,
      `After ${plural(index + 1, "step")}: ${plural(sum.calls, "call")} on the reader, ${plural(sum.reads, "source read")}, ` +
        `${bytesText(sum.bytes)} received, ${bytesText(sum.copied)} copied.` +
        (index === ops.length - 1 && t.truncated ? " The run goes on past the recorded steps." : ""),
    );
  }

  return {
    update(report) {
      if (!report) {
        stop();
        runs = [];
        root.hidden = true;
        return;
      }
      runs = report.runs;
      if (!runs.some((r) => r.reader === reader && r.timeline)) reader = defaultReader(runs);
      if (report.link !== link) {
        // A new experiment starts at its first step; a full measurement of
        // the same link (after the quick estimate) keeps the step.
        link = report.link;
        stop();
        index = 0;
      }
      index = Math.min(index, Math.max(0, (timeline()?.ops.length ?? 1) - 1));
      showPicker();
      show();
      onHeadline();
    },
    headline() {
      const t = timeline();
      return t && reader ? describeTrace(t, labelOf(reader)) : "";
    },
  };
}

function introText(t: Timeline): string {
  const what =
    t.shape === "unbuffered"
      ? "This reader has no buffer: every application read is a source read."
      : t.shape === "blocks"
        ? `Blocks of ${bytesText(t.capacity)}; the source fills them and the application borrows slices of them.`
        : `A buffer of ${bytesText(t.capacity)}; the source fills it and the application's reads are served from it.`;
  const stream = t.streams > 1 ? ` Stream 1 of ${t.streams}, on its own.` : "";
  return `The first ${plural(t.ops.length, "operation")} of this run, one step at a time. ${what}${stream}`;
}

/**
 * The strip's full height in bytes: the most the buffer held in these steps,
 * not its capacity (a few hundred bytes in an 8 KiB buffer would be a flat
 * line); the note says so.
 */
function stripScale(ops: readonly Op[]): number {
  return Math.max(1, ...ops.map((o) => o.buffered));
}

function stripText(t: Timeline): string {
  if (t.capacity === 0) return "Each column is one operation; a green mark on top is a source read (here, every one).";
  const top = stripScale(t.ops);
  if (t.ops.every((o) => o.buffered === 0)) {
    return "Each column is one operation; the buffer stayed empty after every one. A green mark on top is a source read; an orange one, a read that skipped the buffer.";
  }
  return (
    `Each column is one operation: its height is the bytes buffered after it (full height: ${bytesText(top)}, ` +
    `the most in these steps; capacity ${bytesText(t.capacity)}). A green mark on top is a source read; ` +
    "an orange one, a read that skipped the buffer. Click a column to go there."
  );
}

/** The three places bytes pass through this step, as cards. */
function showFlow(flow: HTMLElement, op: Op, t: Timeline, blocks: boolean): void {
  const card = (title: string, cls: string, ...lines: (string | Node)[]): HTMLElement =>
    h("div", { class: `timeline-card ${cls}` }, h("div", { class: "timeline-card-title" }, title), ...lines.map((l) => h("div", {}, l)));
  const where = (block: number | null): string =>
    block === null ? "straight into the app's memory" : blocks ? `into block ${block}` : "into the buffer";

  const source =
    op.source_reads === 0
      ? card("Source", "idle", "no read this step")
      : card(
          "Source",
          op.bypass ? "bypass" : "active",
          `${plural(op.source_reads, "read")}, ${bytesText(op.source_bytes)}`,
          ...op.reads
            .slice(0, 3)
            .map((r) =>
              r.interrupted ? "interrupted (empty chunk)" : `asked ${bytesText(r.requested)}, got ${bytesText(r.returned)} ${where(r.block)}`,
            ),
          ...(op.source_reads > 3 ? [`… and ${plural(op.source_reads - 3, "more read")}`] : []),
        );
  const buffer =
    t.capacity === 0
      ? card("Buffer", "idle", "none")
      : card(
          "Buffer",
          op.bypass ? "skipped" : "active",
          `${bytesText(op.buffered)} unread`,
          op.buffer.length > 1 ? `${op.buffer.length} blocks in the chain` : `of ${bytesText(t.capacity)}`,
          ...(op.bypass ? [h("strong", { class: "timeline-badge" }, "bypassed")] : []),
        );
  const lent = op.pieces.filter((p) => p.block !== null).length > 0 && t.capacity > 0;
  const app = card(
    "App",
    "active",
    op.requested === null ? `asked for ${kindText(op)}` : `asked ${bytesText(op.requested)}`,
    `got ${bytesText(op.returned)}`,
    op.copied > 0
      ? `${bytesText(op.copied)} copied`
      : lent
        ? `${plural(op.piece_count, "slice")} lent, 0 copied`
        : "0 copied",
  );
  const arrow = (): HTMLElement => h("div", { class: "timeline-arrow", "aria-hidden": "true" }, "→");
  replaceChildren(flow, source, arrow(), buffer, arrow(), app);
}

function kindText(op: Op): string {
  switch (op.kind) {
    case "read_to_end":
      return "everything (read_to_end)";
    case "line":
      return "a line";
    case "scan":
      return "what is buffered (scan)";
    default:
      return op.kind;
  }
}

/**
 * The buffer after this step, one bar per block, each the width of its
 * capacity: the unread bytes filled, with a band above for what the source
 * put there this step and a band below for what the app took.
 */
function showPicture(picture: HTMLElement, op: Op, t: Timeline, blocks: boolean): void {
  if (t.capacity === 0) {
    replaceChildren(picture, h("p", { class: "timeline-none" }, "No buffer: the source writes straight into the application's memory."));
    return;
  }
  // Blocks in the chain after the step, then blocks the step touched that went back to the pool.
  const ids: number[] = [];
  const add = (id: number | null): void => {
    if (id !== null && !ids.includes(id)) ids.push(id);
  };
  op.buffer.forEach((s) => add(s.block));
  op.reads.forEach((r) => add(r.block));
  op.pieces.forEach((p) => add(p.block));
  if (ids.length === 0) add(0);
  const cap = t.capacity;
  const rows = ids.slice(0, MAX_BLOCK_ROWS).map((id) => {
    const span = op.buffer.find((s) => s.block === id);
    const W = 1000;
    const x = (n: number): number => (Math.min(n, cap) / cap) * W;
    const bar = svg("svg", { class: "timeline-bar", viewBox: `0 0 ${W} 60`, preserveAspectRatio: "none", "aria-hidden": "true" });
    bar.append(svg("rect", { class: "tl-free", x: 0, y: 16, width: W, height: 28 }));
    if (span && span.end > span.start) {
      bar.append(svg("rect", { class: "tl-unread", x: x(span.start), y: 16, width: Math.max(6, x(span.end) - x(span.start)), height: 28 }));
    }
    for (const r of op.reads) {
      if (r.block === id && r.returned > 0) {
        bar.append(svg("rect", { class: "tl-in", x: x(r.offset), y: 2, width: Math.max(6, x(r.offset + r.returned) - x(r.offset)), height: 10 }));
      }
    }
    const lentHere = op.pieces.filter((p) => p.block === id);
    for (const p of lentHere) {
      bar.append(svg("rect", { class: "tl-lent", x: x(p.offset), y: 48, width: Math.max(6, x(p.offset + p.len) - x(p.offset)), height: 10 }));
    }
    if (lentHere.length === 0 && op.copied > 0 && span && ids.length === 1) {
      // std copies out of the front of the unread bytes: just before where they now start.
      const from = Math.max(0, span.start - op.copied);
      bar.append(svg("rect", { class: "tl-copied", x: x(from), y: 48, width: Math.max(6, x(span.start) - x(from)), height: 10 }));
    }
    bar.append(svg("rect", { class: "tl-outline", x: 0, y: 16, width: W, height: 28, "vector-effect": "non-scaling-stroke" }));
    const name = blocks ? `block ${id}` : "buffer";
    const state: (string | Node)[] =
      span && span.end > span.start
        ? [`${bytesText(span.end - span.start)} unread `, h("span", { class: "nowrap" }, `at ${formatCount(span.start)}–${formatCount(span.end)}`)]
        : blocks
          ? t.pool
            ? ["read through, back in the pool"]
            : ["read through, freed"]
          : ["empty"];
    return h(
      "div",
      { class: "timeline-row" },
      h("div", { class: "timeline-row-label" }, h("strong", {}, name), ` · ${bytesText(cap)} · `, ...state),
      bar,
    );
  });
  const more = ids.length > MAX_BLOCK_ROWS ? h("p", { class: "timeline-none" }, `… and ${plural(ids.length - MAX_BLOCK_ROWS, "more block")}`) : null;
  const key = (cls: string, text: string): HTMLElement => h("span", { class: "timeline-key" }, h("span", { class: `swatch ${cls}` }), text);
  const legend = h(
    "p",
    { class: "timeline-legend" },
    key("tl-unread", "unread"),
    key("tl-in", "filled by the source this step"),
    op.pieces.some((p) => p.block !== null) ? key("tl-lent", "lent to the app (no copy)") : key("tl-copied", "copied to the app"),
    op.bypass ? key("tl-bypass", "this read skipped the buffer") : null,
  );
  replaceChildren(picture, ...rows);
  append(picture, more, legend);
}

/** Every operation as a column: fill level, source reads on top, bypasses marked, the current step outlined. */
function showStrip(strip: SVGSVGElement, ops: readonly Op[], index: number): void {
  const n = Math.max(1, ops.length);
  const scale = stripScale(ops);
  strip.setAttribute("viewBox", `0 0 ${n} 100`);
  strip.replaceChildren();
  ops.forEach((op, i) => {
    const height = (op.buffered / scale) * 78;
    if (height > 0) strip.append(svg("rect", { class: "tl-unread", x: i + 0.1, y: 100 - height, width: 0.8, height }));
    if (op.source_reads > 0) {
      strip.append(svg("rect", { class: op.bypass ? "tl-bypass" : "tl-in", x: i + 0.1, y: 2, width: 0.8, height: 12 }));
    }
  });
  strip.append(svg("rect", { class: "tl-current", x: index, y: 0, width: 1, height: 100, "vector-effect": "non-scaling-stroke" }));
}
