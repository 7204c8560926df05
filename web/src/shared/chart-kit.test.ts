// The chart kit's axis arithmetic (the drawing itself is checked end to end).

import { describe, expect, it } from "vitest";
import { binaryTicks } from "./chart-kit";

describe("binary ticks for byte axes", () => {
  it("step by a power of two, three to eight ticks past zero", () => {
    expect(binaryTicks(1048576)).toEqual([0, 262144, 524288, 786432, 1048576]);
    expect(binaryTicks(1_200_000)).toEqual([0, 262144, 524288, 786432, 1048576]);
    expect(binaryTicks(3)).toEqual([0, 1, 2, 3]);
    // A narrow axis (large type) gets fewer, so its labels never run together.
    expect(binaryTicks(1048576, 2)).toEqual([0, 524288, 1048576]);
    expect(binaryTicks(1048576, 1)).toEqual([0, 1048576]);
    for (const max of [1, 7, 1000, 65536, 5_000_000, 123_456_789]) {
      const ticks = binaryTicks(max);
      const step = ticks[1]! - ticks[0]!;
      expect(Math.log2(step) % 1, `${max}`).toBe(0);
      expect(ticks.length - 1, `${max}`).toBeGreaterThanOrEqual(Math.min(3, max));
      expect(ticks.length - 1, `${max}`).toBeLessThanOrEqual(8);
      expect(ticks.at(-1)!, `${max}`).toBeLessThanOrEqual(max);
    }
    expect(binaryTicks(0)).toEqual([0]);
  });
});
