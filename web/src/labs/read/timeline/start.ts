// The timeline's small pieces the page needs before the view's own module
// (index.ts) loads after the first numbers: its starting settings (the
// read lab opens the view with them) and how it writes a byte count.

import { formatCount } from "../../../shared/format";

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
