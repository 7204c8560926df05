// The write lab's tables in words: a flavour's seekability, a failure, and
// what to change when fixed buffers were too small.

import type { Codec } from "../../../engine/codec";
import type { FlavourRun, Seekable, WriteReport } from "../../../engine/types.gen";
import { bytesLabel, formatCount } from "../../../shared/format";

export function seekableText(seekable: Seekable): string {
  switch (seekable) {
    case "seek":
      return "io::Seek";
    case "by_index":
      return "by index";
    case "no":
      return "no";
  }
}

/** What a failed flavour's row and message say. */
export function describeFailure(run: FlavourRun): string {
  const e = run.error;
  if (!e) return "";
  return `${e.kind}: “${e.message}” after ${formatCount(e.bytes_written)} bytes`;
}

/**
 * The message under the cursor table when fixed buffers were too small: which
 * cursors stopped, why, and what to change. Empty when none failed.
 */
export function writeZeroMessage(report: WriteReport, codec: Codec, labelOf: (id: string) => string): string {
  const failed = report.flavours.filter((f) => f.error);
  if (failed.length === 0) return "";
  const names = failed.map((f) => labelOf(f.flavour)).join(", ");
  const first = failed[0]!;
  const buf = report.params.write.buf;
  const need = report.reference_bytes;
  const allWriteZero = failed.every((f) => f.error?.kind === "WriteZero");
  const size = (n: number): string => bytesLabel(codec.formatSize(n));
  const why = allWriteZero
    ? `the fixed buffer (${size(buf)}) is smaller than the ${size(need)} the records need, so a write found no room and write_all stopped with WriteZero (“${first.error?.message}”) after ${formatCount(first.bytes)} bytes`
    : describeFailure(first);
  return `${names} stopped: ${why}. These cursors cannot grow; set the buffer size to at least ${size(need)}, or write fewer records.`;
}
