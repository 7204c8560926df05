// Card orientation → letter, through the real detector (js-aruco2) on
// pictures of the cards' markers drawn here turned to each letter, tilted,
// and among a marker that is no card.

import { describe, expect, it } from "vitest";
import { CARDS, cardOf, LETTERS, letterOf, rotationFor, type Letter } from "../../shared/cards";
import { cardsSeen, createCardReader, markerCells } from "./marker";

/** A white picture `size` px square with marker `id` in the middle, `cell` px a cell, turned `degrees` clockwise about the centre. */
function picture(id: number, degrees: number, size = 320, cell = 20): { width: number; height: number; data: Uint8ClampedArray } {
  const cells = markerCells(id);
  const n = cells.length;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  const t = (-degrees * Math.PI) / 180;
  const c = size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Where this pixel came from in the upright marker.
      const u = Math.cos(t) * (x - c) - Math.sin(t) * (y - c);
      const v = Math.sin(t) * (x - c) + Math.cos(t) * (y - c);
      const i = Math.floor(u / cell + n / 2);
      const j = Math.floor(v / cell + n / 2);
      if (i < 0 || j < 0 || i >= n || j >= n) continue;
      const value = cells[j]![i] ? 255 : 0;
      data.fill(value, (y * size + x) * 4, (y * size + x) * 4 + 3);
    }
  }
  return { width: size, height: size, data };
}

describe("the room's cards", () => {
  const read = createCardReader();

  it.each([...LETTERS])("a card held with %s on top reads as that letter", (letter: Letter) => {
    for (const id of [0, 17, CARDS - 1]) {
      expect(read(picture(id, rotationFor(letter))), `card ${id + 1}`).toEqual([{ card: id + 1, letter }]);
    }
  });

  it("reads a tilted card as the letter nearest on top", () => {
    expect(read(picture(5, 20))).toEqual([{ card: 6, letter: "A" }]);
    expect(read(picture(5, -90 - 25))).toEqual([{ card: 6, letter: "B" }]);
    expect(read(picture(5, 180 + 15))).toEqual([{ card: 6, letter: "C" }]);
  });

  it("ignores markers that are no card", () => {
    expect(read(picture(CARDS + 3, 0))).toEqual([]);
    expect(cardOf(CARDS)).toBeNull();
    expect(cardOf(-1)).toBeNull();
    expect(cardOf(0)).toBe(1);
    const corners = [
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 1, y: 1 },
      { x: 0, y: 1 },
    ];
    expect(cardsSeen([{ id: 999, corners }, { id: 2, corners }])).toEqual([{ card: 3, letter: "A" }]);
  });

  it("turns corners into letters by the marker's top edge", () => {
    const at = (dx: number, dy: number) => letterOf([{ x: 10, y: 10 }, { x: 10 + dx, y: 10 + dy }]);
    expect([at(5, 0), at(0, -5), at(-5, 0), at(0, 5)]).toEqual(["A", "B", "C", "D"]);
    expect(at(5, 4)).toBe("A");
    expect(at(5, 6)).toBe("D");
  });
});
