// The calls-in-order chart's points and sentence (pattern.ts), from slices written by hand.

import { describe, expect, it } from "vitest";
import type { Descriptor, Slice } from "../../engine/types.gen";
import { patternPoints, patternText } from "./pattern";

const slice = (first_call: number, calls: number, bytes: number, min: number, max: number, more: Partial<Slice> = {}): Slice => ({
  first_call,
  calls,
  bytes,
  short_reads: 0,
  eof: 0,
  failed: 0,
  min_returned: min,
  max_returned: max,
  ...more,
});

const descriptor = (over_time: Slice[], more: Partial<Descriptor> = {}): Descriptor =>
  ({ calls: over_time.reduce((n, s) => n + s.calls, 0), slice_calls: over_time[0]?.calls ?? 1, over_time, short_reads: 0, short_at_end: 0, ...more }) as Descriptor;

describe("a descriptor's calls in order", () => {
  it("gives each slice's mean bytes per answered call, numbered from 1, and leaves out slices of failed calls only", () => {
    const slices = [slice(0, 4, 4096, 1024, 1024), slice(4, 4, 1000, 100, 500, { failed: 2 }), slice(8, 2, 0, 0, 0, { failed: 2 })];
    expect(patternPoints(slices)).toEqual([
      { call: 1, mean: 1024, min: 1024, max: 1024 },
      { call: 5, mean: 500, min: 100, max: 500 },
    ]);
  });

  it("says a flat pattern as one size, and a scattered one as its range with the short reads that are not the last", () => {
    const flat = descriptor([slice(0, 512, 512, 1, 1), slice(512, 512, 511, 1, 1, { eof: 1 })]);
    expect(patternText(flat)).toBe("Read calls in order, 1,024 in all (each point: 512 calls): every call that returned data returned 1 B.");
    expect(patternText(descriptor([slice(0, 2, 0, 0, 0, { eof: 2 })]))).toBe("Read calls in order, 2 in all: every one returned 0 bytes (the end of the data).");
    const socket = descriptor([slice(0, 3, 3000, 500, 1500)], { short_reads: 3, short_at_end: 1, slice_calls: 1 });
    expect(patternText(socket)).toBe(
      "Read calls in order, 3 in all: calls returned from 500 B to 1.46 KiB; 2 short reads (less than asked, not at the end) say the data arrived in pieces.",
    );
  });
});
