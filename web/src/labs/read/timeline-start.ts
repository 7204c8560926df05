// The timeline's small pieces the page needs before the view's own module
// (timeline.ts) loads after the first numbers: its starting settings (the
// read lab opens the view with them), how it writes a byte count, and where
// a trace's buffer fills (a lesson's answer is read off the trace).

import type { Op } from "../../engine/types.gen";
import { formatCount } from "../../shared/format";

/**
 * The timeline's starting settings: a 256-byte buffer read 8 bytes at a
 * time, so over a network of 64–512-byte chunks a fill, its drain and the
 * refill all happen within the recorded steps.
 */
export const TIMELINE_START = { cap: 256, rs: 8 } as const;

/** "1 byte", "300 bytes", "8 KiB" (exact: the timeline counts bytes one by one). */
export function bytesText(n: number): string {
  if (n === 1) return "1 byte";
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${formatCount(n)} bytes`;
}

/**
 * The operations (0-based) that made a source read into the buffer, not
 * past it: its fills (the model's `Timeline::fills` says the same in Rust).
 */
export function fillSteps(ops: readonly Op[]): number[] {
  return ops.flatMap((op, i) => (op.source_reads > 0 && !op.bypass && op.reads.some((r) => r.block !== null) ? [i] : []));
}
