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
// Export: the step on screen as a standalone SVG document or a 2× PNG
// (stepScene lays it out from the same cards, bars, strip and totals as the
// page; sceneSvg colours it from the page's CSS), captioned by export-kit
// with the title, the settings and the link.
//
// Playback: Back / Play / Forward buttons and a step slider (keyboard: Tab to
// them; the slider takes arrow keys, Home and End). The step on screen is the
// link's (key `step`, from 1): a link opens on its step, and every step taken
// is written back, so a reload or a shared link shows the same one. Autoplay
// runs once when the timeline first comes into view on its first step, never
// with prefers-reduced-motion nor in presenter mode (the presenter steps).
//
// The first frame teaches: the headline says where the buffer fills, drains
// and refills in the recorded steps; where it never refills (a large buffer
// drained a byte at a time), it says why and offers the timeline's starting
// settings (TIMELINE_START), where a fill, a drain and a refill fit in view.

import type { Op, Params, Report, Run, Timeline } from "../../engine/types.gen";
import { formatCount } from "../../shared/format";
import { append, h, replaceChildren, setText, svgElement, svgText } from "../../shared/dom";
import { captionedSvg, exportName, saveButton, svgBlob, svgPng, type ImageCaption } from "../../shared/export-kit";
import { settingsInWords } from "../../shared/settings-words";

import { TIMELINE_START, bytesText, fillSteps } from "./timeline-start";

export { bytesText, fillSteps };

/** Time per step while playing. */
const PLAY_STEP_MS = 700;
/** Block rows drawn for the chained reader; more are summarised in words. */
const MAX_BLOCK_ROWS = 4;
/** A buffer bar's drawing box (stretched to the width on screen). */
const BAR = { width: 1000, height: 60 } as const;
/** The strip's drawing box per operation. */
const STRIP_HEIGHT = 100;

export interface TimelineView {
  /** Shows the report's timelines (null: nothing to show). */
  update(report: Report | null): void;
  /** Goes to the link's step (from 1; past the trace's end, its last), unless it is on screen. */
  showStep(step: number): void;
  /** One sentence about the trace on screen: where its buffer fills, drains and refills. */
  headline(): string;
}

export interface TimelineOptions {
  labelOf: (readerId: string) => string;
  /** The reader shown changed, so the headline did. */
  onHeadline: () => void;
  /** The person asked for the timeline's starting settings (TIMELINE_START). */
  onStart: () => void;
  /** The full URL of a link fragment, drawn into exported images. */
  urlOf: (fragment: string) => string;
  /** The link's step (from 1): where a new trace opens. */
  step: () => number;
  /** The person moved to `step` (from 1): the page writes it into the link. */
  onStep: (step: number) => void;
  /** The address bar's link now (it carries the step on screen), drawn into exported images. */
  link: () => string;
  /** False where the timeline must not play by itself (presenter mode). */
  autoplay: () => boolean;
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

export function createTimeline(root: HTMLElement, { labelOf, onHeadline, onStart, urlOf, step, onStep, link: linkNow, autoplay }: TimelineOptions): TimelineView {
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
  const strip = svgElement("svg", { class: "timeline-strip", "aria-hidden": "true", preserveAspectRatio: "none" });
  const stripNote = h("figcaption", { class: "timeline-strip-note" });
  const totals = h("p", { class: "timeline-totals" });
  // Export: the step on screen as a standalone SVG or a 2× PNG, captioned with its settings and link.
  const exportStatus = h("span", { class: "copy-note", id: "timeline-export-status", role: "status", "aria-live": "polite" });
  const exportStep = (extension: "svg" | "png", make: (drawing: SVGSVGElement, width: number, height: number, caption: ImageCaption) => Promise<Blob>) => () => {
    const t = timeline();
    if (!t || !reader || !t.ops[index]) return null;
    const scene = stepScene(t, index);
    // The settings the trace was recorded with; the link as it is now, which opens on this step.
    const caption = {
      title: `Buffer timeline: ${labelOf(reader)}, step ${index + 1} of ${t.ops.length}`,
      settings: params ? settingsInWords(params) : "",
      link: urlOf(linkNow()),
    };
    const name = exportName("timeline", extension, new Date(), `${reader}-step-${index + 1}`);
    return make(sceneSvg(scene, root), scene.width, scene.height, caption).then((blob) => ({ blob, name }));
  };
  const exportRow = h(
    "div",
    { class: "share-row timeline-export" },
    h("span", { class: "share-label" }, "Export"),
    saveButton("timeline-export-svg", "This step (SVG)", exportStatus, exportStep("svg", async (drawing, width, height, caption) => svgBlob(captionedSvg(drawing, width, height, caption)))),
    saveButton("timeline-export-png", "This step (PNG)", exportStatus, exportStep("png", svgPng)),
    exportStatus,
  );

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
    exportRow,
  );

  let runs: Run[] = [];
  let link = "";
  /** The settings of the run shown, for the export's settings line. */
  let params: Params | null = null;
  let reader: string | null = null;
  let index = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let autoplayDone = false;

  const timeline = (): Timeline | null => runs.find((r) => r.reader === reader)?.timeline ?? null;
  /** `to` within the trace's steps (0-based). */
  const clamp = (to: number): number => Math.max(0, Math.min((timeline()?.ops.length ?? 1) - 1, to));
  /** Moves to step `to` (0-based) and tells the page, which writes it into the link. */
  function moveTo(to: number): void {
    index = clamp(to);
    show();
    onStep(index + 1);
  }

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
    if (index >= t.ops.length - 1) moveTo(0);
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
      moveTo(index + 1);
    }, PLAY_STEP_MS);
  }

  function go(to: number): void {
    stop();
    moveTo(to);
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
        if (!reduceMotion.matches && index === 0 && autoplay()) start();
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
    showFlow(flow, op, t);
    showPicture(picture, op, t);
    showStrip(strip, ops, index);
    setText(stripNote, stripText(t));
    setText(totals, totalsText(t, index));
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
      params = report.params;
      if (!runs.some((r) => r.reader === reader && r.timeline)) reader = defaultReader(runs);
      if (report.link !== link) {
        // A new experiment opens on the link's step; a full measurement of
        // the same link (after the quick estimate) keeps the step on screen.
        link = report.link;
        stop();
        index = step() - 1;
      }
      // Clamped once a trace is in: the first counts may come without one (the counting build records none).
      if (timeline() !== null) index = clamp(index);
      showPicker();
      show();
      onHeadline();
    },
    showStep(to) {
      if (to - 1 === index || timeline() === null) return;
      stop();
      index = clamp(to - 1);
      show();
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

/** One of the three places bytes pass through in a step. */
export interface FlowCard {
  title: "Source" | "Buffer" | "App";
  /** How it took part: its card's class. */
  state: "idle" | "active" | "bypass" | "skipped";
  lines: string[];
  /** A word to stand out under the lines ("bypassed"). */
  badge: string | null;
}

/** The three places bytes pass through this step: source, buffer, app. */
export function flowCards(op: Op, t: Timeline): FlowCard[] {
  const blocks = t.shape === "blocks";
  const where = (block: number | null): string =>
    block === null ? "straight into the app's memory" : blocks ? `into block ${block}` : "into the buffer";
  const source: FlowCard =
    op.source_reads === 0
      ? { title: "Source", state: "idle", lines: ["no read this step"], badge: null }
      : {
          title: "Source",
          state: op.bypass ? "bypass" : "active",
          lines: [
            `${plural(op.source_reads, "read")}, ${bytesText(op.source_bytes)}`,
            ...op.reads
              .slice(0, 3)
              .map((r) =>
                r.interrupted ? "interrupted (empty chunk)" : `asked ${bytesText(r.requested)}, got ${bytesText(r.returned)} ${where(r.block)}`,
              ),
            ...(op.source_reads > 3 ? [`… and ${plural(op.source_reads - 3, "more read")}`] : []),
          ],
          badge: null,
        };
  const buffer: FlowCard =
    t.capacity === 0
      ? { title: "Buffer", state: "idle", lines: ["none"], badge: null }
      : {
          title: "Buffer",
          state: op.bypass ? "skipped" : "active",
          lines: [`${bytesText(op.buffered)} unread`, op.buffer.length > 1 ? `${op.buffer.length} blocks in the chain` : `of ${bytesText(t.capacity)}`],
          badge: op.bypass ? "bypassed" : null,
        };
  const lent = op.pieces.filter((p) => p.block !== null).length > 0 && t.capacity > 0;
  const app: FlowCard = {
    title: "App",
    state: "active",
    lines: [
      op.requested === null ? `asked for ${kindText(op)}` : `asked ${bytesText(op.requested)}`,
      `got ${bytesText(op.returned)}`,
      op.copied > 0 ? `${bytesText(op.copied)} copied` : lent ? `${plural(op.piece_count, "slice")} lent, 0 copied` : "0 copied",
    ],
    badge: null,
  };
  return [source, buffer, app];
}

/** The three places bytes pass through this step, as cards. */
function showFlow(flow: HTMLElement, op: Op, t: Timeline): void {
  const card = ({ title, state, lines, badge }: FlowCard): HTMLElement =>
    h(
      "div",
      { class: `timeline-card ${state}` },
      h("div", { class: "timeline-card-title" }, title),
      ...lines.map((l) => h("div", {}, l)),
      badge === null ? null : h("div", {}, h("strong", { class: "timeline-badge" }, badge)),
    );
  const arrow = (): HTMLElement => h("div", { class: "timeline-arrow", "aria-hidden": "true" }, "→");
  replaceChildren(flow, ...flowCards(op, t).flatMap((c, i) => (i === 0 ? [card(c)] : [arrow(), card(c)])));
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

/** A rectangle of a drawing, coloured by its class in styles/timeline.css (tl-in, tl-unread, …). */
export interface Mark {
  cls: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One block's bar (or the buffer's): its label and its marks in a `BAR` box. */
export interface BufferRow {
  name: string;
  /** "300 bytes unread", "empty", … */
  state: string;
  /** Where the unread bytes sit ("at 0–300"), when there are any. */
  at: string | null;
  marks: Mark[];
}

const NO_BUFFER = "No buffer: the source writes straight into the application's memory.";

/**
 * The buffer after this step, one bar per block, each the width of its
 * capacity: the unread bytes filled, with a band above for what the source
 * put there this step and a band below for what the app took. `more`: the
 * blocks past `MAX_BLOCK_ROWS`.
 */
export function bufferRows(op: Op, t: Timeline): { rows: BufferRow[]; more: number } {
  if (t.capacity === 0) return { rows: [], more: 0 };
  const blocks = t.shape === "blocks";
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
  const W = BAR.width;
  const x = (n: number): number => (Math.min(n, cap) / cap) * W;
  const band = (cls: string, from: number, to: number, y: number, height: number): Mark => ({ cls, x: x(from), y, width: Math.max(6, x(to) - x(from)), height });
  const rows = ids.slice(0, MAX_BLOCK_ROWS).map((id): BufferRow => {
    const span = op.buffer.find((s) => s.block === id);
    const marks: Mark[] = [{ cls: "tl-free", x: 0, y: 16, width: W, height: 28 }];
    if (span && span.end > span.start) marks.push(band("tl-unread", span.start, span.end, 16, 28));
    for (const r of op.reads) if (r.block === id && r.returned > 0) marks.push(band("tl-in", r.offset, r.offset + r.returned, 2, 10));
    const lentHere = op.pieces.filter((p) => p.block === id);
    for (const p of lentHere) marks.push(band("tl-lent", p.offset, p.offset + p.len, 48, 10));
    if (lentHere.length === 0 && op.copied > 0 && span && ids.length === 1) {
      // std copies out of the front of the unread bytes: just before where they now start.
      marks.push(band("tl-copied", Math.max(0, span.start - op.copied), span.start, 48, 10));
    }
    marks.push({ cls: "tl-outline", x: 0, y: 16, width: W, height: 28 });
    const unread = span !== undefined && span.end > span.start;
    return {
      name: blocks ? `block ${id}` : "buffer",
      state: unread ? `${bytesText(span.end - span.start)} unread` : blocks ? (t.pool ? "read through, back in the pool" : "read through, freed") : "empty",
      at: unread ? `at ${formatCount(span.start)}–${formatCount(span.end)}` : null,
      marks,
    };
  });
  return { rows, more: Math.max(0, ids.length - MAX_BLOCK_ROWS) };
}

/** The legend under the bars: each colour the step shows and what it means. */
export function legendKeys(op: Op): [cls: string, text: string][] {
  return [
    ["tl-unread", "unread"],
    ["tl-in", "filled by the source this step"],
    op.pieces.some((p) => p.block !== null) ? ["tl-lent", "lent to the app (no copy)"] : ["tl-copied", "copied to the app"],
    ...(op.bypass ? [["tl-bypass", "this read skipped the buffer"] as [string, string]] : []),
  ];
}

/** `marks` as SVG rects in `parent`; outlines keep their width however the drawing is stretched. */
function drawMarks(parent: SVGElement, marks: readonly Mark[]): void {
  for (const { cls, ...box } of marks) {
    const outline = cls === "tl-outline" || cls === "tl-current";
    parent.append(svgElement("rect", { class: cls, ...box, ...(outline ? { "vector-effect": "non-scaling-stroke" } : {}) }));
  }
}

function showPicture(picture: HTMLElement, op: Op, t: Timeline): void {
  if (t.capacity === 0) {
    replaceChildren(picture, h("p", { class: "timeline-none" }, NO_BUFFER));
    return;
  }
  const { rows, more } = bufferRows(op, t);
  const bars = rows.map(({ name, state, at, marks }) => {
    const bar = svgElement("svg", { class: "timeline-bar", viewBox: `0 0 ${BAR.width} ${BAR.height}`, preserveAspectRatio: "none", "aria-hidden": "true" });
    drawMarks(bar, marks);
    return h(
      "div",
      { class: "timeline-row" },
      h("div", { class: "timeline-row-label" }, h("strong", {}, name), ` · ${bytesText(t.capacity)} · `, state, at === null ? null : " ", at === null ? null : h("span", { class: "nowrap" }, at)),
      bar,
    );
  });
  const rest = more > 0 ? h("p", { class: "timeline-none" }, `… and ${plural(more, "more block")}`) : null;
  const legend = h(
    "p",
    { class: "timeline-legend" },
    ...legendKeys(op).map(([cls, text]) => h("span", { class: "timeline-key" }, h("span", { class: `swatch ${cls}` }), text)),
  );
  replaceChildren(picture, ...bars);
  append(picture, rest, legend);
}

/** Every operation as a column in an `ops.length` × `STRIP_HEIGHT` box: fill level, source reads on top, bypasses marked, the current step outlined. */
export function stripMarks(ops: readonly Op[], index: number): Mark[] {
  const scale = stripScale(ops);
  const marks: Mark[] = [];
  ops.forEach((op, i) => {
    const height = (op.buffered / scale) * 78;
    if (height > 0) marks.push({ cls: "tl-unread", x: i + 0.1, y: STRIP_HEIGHT - height, width: 0.8, height });
    if (op.source_reads > 0) marks.push({ cls: op.bypass ? "tl-bypass" : "tl-in", x: i + 0.1, y: 2, width: 0.8, height: 12 });
  });
  marks.push({ cls: "tl-current", x: index, y: 0, width: 1, height: STRIP_HEIGHT });
  return marks;
}

function showStrip(strip: SVGSVGElement, ops: readonly Op[], index: number): void {
  strip.setAttribute("viewBox", `0 0 ${Math.max(1, ops.length)} ${STRIP_HEIGHT}`);
  strip.replaceChildren();
  drawMarks(strip, stripMarks(ops, index));
}

/** The running totals under the timeline. */
export function totalsText(t: Timeline, index: number): string {
  const sum = totalsAt(t.ops, index);
  return (
    `After ${plural(index + 1, "step")}: ${plural(sum.calls, "call")} on the reader, ${plural(sum.reads, "source read")}, ` +
    `${bytesText(sum.bytes)} received, ${bytesText(sum.copied)} copied.` +
    (index === t.ops.length - 1 && t.truncated ? " The run goes on past the recorded steps." : "")
  );
}

// ---------------------------------------------------------------- the step as an image

/**
 * Something drawn in an exported step: a rectangle or a line of text (its
 * top at `y`), coloured by a class of the page's CSS, so the image has the
 * page's colours without a copy of them here.
 */
export type Shape =
  | ({ kind: "rect" } & Mark)
  | { kind: "text"; cls: string; text: string; x: number; y: number; size: number; bold: boolean };

/** A step drawn for export: `width` × `height` CSS pixels. */
export interface StepScene {
  width: number;
  height: number;
  shapes: Shape[];
}

/** The exported drawing's width in CSS pixels, and its margin each side (the caption's, in export-kit). */
const SCENE_WIDTH = 720;
const SCENE_MARGIN = 12;
/** Text's average advance per pixel of font size, generous so wrapped lines fit. */
const CHAR_WIDTH = 0.6;

/** `text` in lines of at most `chars` characters, broken between words. */
export function wrapWords(text: string, chars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== "" && line.length + 1 + word.length > chars) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/**
 * Step `index` of `t` as a standalone drawing: the caption, the three cards,
 * the buffer's bars with their legend, the strip of every step and the
 * totals (what the page shows for the step, laid out at `SCENE_WIDTH`).
 */
export function stepScene(t: Timeline, index: number): StepScene {
  // Laid out in a column `W` wide from x = 0, moved in by the margin at the end.
  const W = SCENE_WIDTH - 2 * SCENE_MARGIN;
  const shapes: Shape[] = [];
  const done = (): StepScene => ({ width: SCENE_WIDTH, height: Math.ceil(y), shapes: shapes.map((s) => ({ ...s, x: s.x + SCENE_MARGIN })) });
  let y = 0;
  const lineStep = (size: number): number => Math.round(size * 1.35);
  /** `text` wrapped to `width`, its first line's top at `top`. */
  const lines = (text: string, cls: string, x: number, top: number, width: number, size = 12, bold = false): Shape[] =>
    wrapWords(text, Math.max(8, Math.floor(width / (size * CHAR_WIDTH)))).map((line, i) => ({ kind: "text", cls, text: line, x, y: top + i * lineStep(size), size, bold }));
  /** Draws wrapped text; returns the height it took. */
  const words = (text: string, cls: string, x: number, top: number, width: number, size = 12, bold = false): number => {
    const drawn = lines(text, cls, x, top, width, size, bold);
    shapes.push(...drawn);
    return drawn.length * lineStep(size);
  };
  const rect = (cls: string, x: number, top: number, width: number, height: number): void => {
    shapes.push({ kind: "rect", cls, x, y: top, width, height });
  };
  /** `marks` from a `box`-sized drawing, scaled into `width` × `height` at `top`. */
  const scaled = (marks: readonly Mark[], box: { width: number; height: number }, top: number, width: number, height: number): void => {
    const sx = width / box.width;
    const sy = height / box.height;
    for (const m of marks) rect(m.cls, m.x * sx, top + m.y * sy, m.width * sx, m.height * sy);
  };

  const op = t.ops[index];
  if (!op) {
    y += words(t.error ? `The run stopped before any operation: ${t.error}` : "No operations.", "timeline-caption", 0, y, W, 13);
    return done();
  }

  // The caption, on its panel.
  const caption = lines(`Step ${index + 1}: ${op.caption}.`, "timeline-caption", 10, y + 8, W - 20, 13);
  const captionHeight = caption.length * lineStep(13) + 16;
  rect("timeline-caption", 0, y, W, captionHeight);
  shapes.push(...caption);
  y += captionHeight + 10;

  // Source → buffer → app: each card's words first, so the cards share the tallest one's height.
  const arrow = 24;
  const cardWidth = (W - 2 * arrow) / 3;
  const cards = flowCards(op, t).map((card, i) => {
    const x = i * (cardWidth + arrow);
    const text: Shape[] = [];
    let used = 8;
    const add = (drawn: Shape[], size = 12): void => {
      text.push(...drawn);
      used += drawn.length * lineStep(size);
    };
    add(lines(card.title, "timeline-card-title", x + 8, y + used, cardWidth - 16, 12, true));
    for (const line of card.lines) add(lines(line, `timeline-card ${card.state}`, x + 8, y + used, cardWidth - 16));
    if (card.badge !== null) {
      const badgeWidth = card.badge.length * 12 * CHAR_WIDTH + 8;
      text.push({ kind: "rect", cls: "timeline-badge", x: x + 8, y: y + used + 2, width: badgeWidth, height: 16 });
      add(lines(card.badge, "timeline-badge", x + 12, y + used + 4, badgeWidth, 12, true));
    }
    return { x, state: card.state, text, height: used + 10 };
  });
  const cardHeight = Math.max(...cards.map((c) => c.height));
  for (const card of cards) {
    rect(`timeline-card ${card.state}`, card.x, y, cardWidth, cardHeight);
    shapes.push(...card.text);
    if (card.x > 0) words("→", "timeline-arrow", card.x - arrow + 4, y + cardHeight / 2 - 10, arrow, 16);
  }
  y += cardHeight + 12;

  // The buffer's bars and their legend.
  if (t.capacity === 0) {
    y += words(NO_BUFFER, "timeline-none", 0, y, W) + 8;
  } else {
    const { rows, more } = bufferRows(op, t);
    for (const row of rows) {
      y += words(`${row.name} · ${bytesText(t.capacity)} · ${row.state}${row.at === null ? "" : ` ${row.at}`}`, "timeline-row-label", 0, y, W) + 2;
      scaled(row.marks, BAR, y, W, 42);
      y += 42 + 6;
    }
    if (more > 0) y += words(`… and ${plural(more, "more block")}`, "timeline-none", 0, y, W) + 4;
    let x = 0;
    for (const [cls, text] of legendKeys(op)) {
      const width = 16 + text.length * 12 * CHAR_WIDTH;
      if (x > 0 && x + width > W) {
        x = 0;
        y += 18;
      }
      rect(cls, x, y + 2, 11, 11);
      words(text, "timeline-legend", x + 16, y, width);
      x += width + 14;
    }
    y += 18 + 8;
  }

  // Every step's fill level, this one outlined.
  rect("timeline-strip", 0, y, W, 84);
  scaled(stripMarks(t.ops, index), { width: Math.max(1, t.ops.length), height: STRIP_HEIGHT }, y, W, 84);
  y += 84 + 8;

  y += words(totalsText(t, index), "timeline-totals", 0, y, W);
  return done();
}

/**
 * `scene` as an SVG element that stands on its own: each class's colours
 * read from the page's CSS (a probe element inside `root`, so the
 * timeline's own custom properties apply) and written as attributes.
 */
export function sceneSvg(scene: StepScene, root: HTMLElement): SVGSVGElement {
  const probes = h("div", { hidden: true, "aria-hidden": "true" });
  root.append(probes);
  const painted = new Map<string, Record<string, string>>();
  const paint = (shape: Shape): Record<string, string> => {
    const key = `${shape.kind} ${shape.cls}`;
    const known = painted.get(key);
    if (known) return known;
    let attrs: Record<string, string>;
    if (shape.kind === "text") {
      const probe = h("span", { class: shape.cls });
      probes.append(probe);
      attrs = { fill: getComputedStyle(probe).color };
    } else if (shape.cls.startsWith("tl-")) {
      const probe = svgElement("rect", { class: shape.cls });
      const holder = svgElement("svg");
      holder.append(probe);
      probes.append(holder);
      const style = getComputedStyle(probe);
      attrs = { fill: style.fill, stroke: style.stroke, "stroke-width": style.strokeWidth };
    } else {
      const probe = h("div", { class: shape.cls });
      probes.append(probe);
      const style = getComputedStyle(probe);
      const border = parseFloat(style.borderTopWidth) || 0;
      attrs = {
        fill: style.backgroundColor,
        stroke: border > 0 ? style.borderTopColor : "none",
        "stroke-width": String(border),
        rx: String(parseFloat(style.borderTopLeftRadius) || 0),
        ...(style.borderTopStyle === "dashed" ? { "stroke-dasharray": "4 3" } : {}),
      };
    }
    painted.set(key, attrs);
    return attrs;
  };
  try {
    const drawing = svgElement("svg", { width: scene.width, height: scene.height, viewBox: `0 0 ${scene.width} ${scene.height}` });
    for (const shape of scene.shapes) {
      if (shape.kind === "rect") {
        const { kind: _kind, cls: _cls, ...box } = shape;
        drawing.append(svgElement("rect", { ...box, ...paint(shape) }));
      } else {
        drawing.append(
          svgText(shape.text, {
            x: shape.x,
            y: shape.y,
            "dominant-baseline": "hanging",
            "font-size": shape.size,
            ...(shape.bold ? { "font-weight": 700 } : {}),
            ...paint(shape),
          }),
        );
      }
    }
    return drawing;
  } finally {
    probes.remove();
  }
}
