// The buffer drawn as marks: a bar per block (what is unread, what the
// source put in and the app took out this step) and the strip of every
// operation's fill level; pure, so the page (step.ts) and the exported
// image (scene.ts) draw the same marks.

import type { Op, Timeline } from "../../../engine/types.gen";
import { formatCount } from "../../../shared/format";
import { bytesText } from "./start";

/** Block rows drawn for the chained reader; more are summarised in words. */
const MAX_BLOCK_ROWS = 4;
/** A buffer bar's drawing box (stretched to the width on screen). */
export const BAR = { width: 1000, height: 60 } as const;
/** The strip's drawing box per operation. */
export const STRIP_HEIGHT = 100;

export const NO_BUFFER = "No buffer: the source writes straight into the application's memory.";

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
  /** Where the unread bytes sit ("at bytes 0–300" of the buffer), when there are any. */
  at: string | null;
  marks: Mark[];
}

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
      at: unread ? `at bytes ${formatCount(span.start)}–${formatCount(span.end)}` : null,
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

/**
 * The strip's full height in bytes: the most the buffer held in these steps,
 * not its capacity (a few hundred bytes in an 8 KiB buffer would be a flat
 * line); the note says so.
 */
export function stripScale(ops: readonly Op[]): number {
  return Math.max(1, ...ops.map((o) => o.buffered));
}

