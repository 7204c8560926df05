// The buffer timeline in words: the trace in one sentence (the headline),
// the view's introduction, the strip's note, the three cards of a step
// (source, buffer, app) and the running totals.

import type { Op, Run, Timeline } from "../../../engine/types.gen";
import { plural } from "../../../shared/format";
import { stripScale } from "./marks";
import { fillServes, fillSteps } from "../../../engine/report";
import { bytesText } from "./start";

/** A size before a noun: "8 KiB", "256-byte". */
function sizeWord(n: number): string {
  const text = bytesText(n);
  return text.endsWith(" bytes") ? `${text.slice(0, -" bytes".length)}-byte` : text;
}

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
  const served = fillServes(ops)!;
  const reads = ops.reduce((sum, op) => sum + op.source_reads, 0);
  return `${label}: ${fill}, which serves ${plural(served, "application read")} (steps ${first + 1} to ${second}); the next source read refills it at step ${second + 1}. ${plural(reads, "source read")} in ${steps}.`;
}

/** True when the trace shows the buffer fill, drain and fill again. */
export function refills(t: Timeline): boolean {
  return fillSteps(t.ops).length >= 2;
}

export function introText(t: Timeline): string {
  const what =
    t.shape === "unbuffered"
      ? "This reader has no buffer: every application read is a source read."
      : t.shape === "blocks"
        ? `Blocks of ${bytesText(t.capacity)}; the source fills them and the application borrows slices of them.`
        : `A buffer of ${bytesText(t.capacity)}; the source fills it and the application's reads are served from it.`;
  const stream = t.streams > 1 ? ` Stream 1 of ${t.streams}, on its own.` : "";
  return `The first ${plural(t.ops.length, "operation")} of this run, one step at a time. ${what}${stream}`;
}

export function stripText(t: Timeline): string {
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

/** The running totals under the timeline. */
export function totalsText(t: Timeline, index: number): string {
  const sum = totalsAt(t.ops, index);
  return (
    `After ${plural(index + 1, "step")}: ${plural(sum.calls, "call")} on the reader, ${plural(sum.reads, "source read")}, ` +
    `${bytesText(sum.bytes)} received, ${bytesText(sum.copied)} copied.` +
    (index === t.ops.length - 1 && t.truncated ? " The run goes on past the recorded steps." : "")
  );
}
