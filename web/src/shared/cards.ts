// The room's printed answer cards (Plickers-style): card n (1 to CARDS) is
// marker n − 1 of the ArUco dictionary ARUCO_MIP_36h12, printed large in
// the middle of a square card whose four edges say A (top), B (right),
// C (bottom) and D (left). A student answers by holding the card with the
// chosen letter on top, the marker facing the teacher's camera; the marker's
// rotation in the camera's picture gives the letter. Pure: the handout draws
// the cards (panels/room/cards-page.ts), the room's worker reads them.

import type { Letter } from "../engine/types.gen";

export type { Letter };

/**
 * Where each choice's letter is printed on a card: quarter turns clockwise
 * from its top edge. The letters are the engine's (`Letter` in
 * crate/src/catalog/choices.rs, which letters a question's choices; its
 * type is generated into types.gen.ts): this record must name each of them
 * once, so tsc fails if the two ever differ.
 */
const EDGE: Record<Letter, 0 | 1 | 2 | 3> = { A: 0, B: 1, C: 2, D: 3 };

/** The choices' letters, in order: the card's top, right, bottom and left edges. */
export const LETTERS: readonly Letter[] = (Object.keys(EDGE) as Letter[]).sort((a, b) => EDGE[a] - EDGE[b]);

/** How many cards the handout prints (markers 0 to CARDS − 1). */
export const CARDS = 40;

/** The marker dictionary the cards are printed from and read with (js-aruco2's name). */
export const DICTIONARY = "ARUCO_MIP_36h12";

/** The card a marker id stands for (1 to CARDS), or null for a marker that is not one of the cards. */
export function cardOf(markerId: number): number | null {
  return Number.isInteger(markerId) && markerId >= 0 && markerId < CARDS ? markerId + 1 : null;
}

export interface Point {
  x: number;
  y: number;
}

/**
 * The letter a card shows on top, from its marker's corners in the picture
 * (y down), clockwise from the marker's own top-left corner, as the
 * detector gives them. The marker's top edge runs from corner 0 to corner
 * 1: pointing right, the card is upright (A on top); pointing up, its right
 * edge is on top (B); left, upside down (C); down, its left edge is on top (D).
 * The nearest of the four wins, so a tilt of up to 45° reads the same.
 */
export function letterOf(corners: readonly Point[]): Letter {
  const [a, b] = corners as [Point, Point];
  const angle = Math.atan2(b.y - a.y, b.x - a.x); // 0: right, −π/2: up (y down)
  const quarter = Math.round(-angle / (Math.PI / 2)); // 0 right, 1 up, ±2 left, −1 down
  return LETTERS[((quarter % 4) + 4) % 4]!;
}

/** The rotation, in degrees clockwise, a card is drawn at to show `letter` on top (the inverse of `letterOf`). */
export function rotationFor(letter: Letter): number {
  // A quarter turn back for each edge the letter lies clockwise from the top, within (−180°, 180°].
  const turned = (360 - 90 * EDGE[letter]) % 360;
  return turned > 180 ? turned - 360 : turned;
}
