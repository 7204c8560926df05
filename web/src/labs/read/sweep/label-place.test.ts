import { describe, expect, it } from "vitest";
import { crosses, placeLabel, type Polyline } from "./label-place";

const area = { left: 0, top: 0, right: 400, bottom: 200 };

describe("a knee label's place", () => {
  it("sits in the top row when no line passes there", () => {
    const low: Polyline = [{ x: 0, y: 150 }, { x: 400, y: 180 }];
    expect(placeLabel(100, 80, 14, area, [low], [])).toEqual({ left: 100, top: 2, right: 180, bottom: 16 });
  });

  it("moves down past another reader's line that crosses the top row at the label", () => {
    // A line through the top row at x = 100–180 (y 5–9), then falling.
    const falling: Polyline = [{ x: 0, y: 0 }, { x: 200, y: 10 }, { x: 400, y: 190 }];
    expect(crosses(falling, { left: 100, top: 2, right: 180, bottom: 16 })).toBe(true);
    const box = placeLabel(100, 80, 14, area, [falling], []);
    expect(crosses(falling, box)).toBe(false);
    expect(box.top).toBe(20);
    expect(box.left).toBe(100);
  });

  it("never takes another label's place", () => {
    const first = placeLabel(100, 80, 14, area, [], []);
    const second = placeLabel(120, 80, 14, area, [], [first]);
    expect(second.top).toBeGreaterThanOrEqual(first.bottom);
  });

  it("sees a steep segment that enters and leaves between its samples", () => {
    const spike: Polyline = [{ x: 0, y: 190 }, { x: 140, y: 190 }, { x: 141, y: 5 }, { x: 142, y: 190 }, { x: 400, y: 190 }];
    expect(crosses(spike, { left: 100, top: 2, right: 180, bottom: 16 })).toBe(true);
  });

  it("takes the row crossing fewest lines when every row crosses one", () => {
    const lines: Polyline[] = [0, 1, 2].map((i) => [{ x: 0, y: 10 + i * 70 }, { x: 400, y: 10 + i * 70 }]);
    const box = placeLabel(100, 80, 14, { ...area, bottom: 60 }, lines, []);
    expect(lines.filter((l) => crosses(l, box)).length).toBe(0);
    const crowded = placeLabel(100, 80, 14, { ...area, bottom: 30 }, [[{ x: 0, y: 9 }, { x: 400, y: 9 }]], []);
    expect(crowded.top).toBe(2);
  });
});
