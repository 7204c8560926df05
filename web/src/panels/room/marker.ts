// The cards' markers, from js-aruco2's ARUCO_MIP_36h12 dictionary: their
// cells for drawing (the handout's cards page), and the detector that finds
// them in a picture (the room's worker) with each card's letter.

import aruco from "js-aruco2";
import { cardOf, DICTIONARY, letterOf, type Letter } from "../../shared/cards";

const { AR } = aruco;

let dictionary: InstanceType<typeof AR.Dictionary> | null = null;

/**
 * Marker `id`'s cells, row by row, true where white: a black border one cell
 * wide around the code's bits (8 × 8 cells for ARUCO_MIP_36h12). The card
 * adds the white quiet zone around it.
 */
export function markerCells(id: number): boolean[][] {
  dictionary ??= new AR.Dictionary(DICTIONARY);
  const code = dictionary.codeList[id];
  if (code === undefined) throw new Error(`no marker ${id} in ${DICTIONARY}`);
  const size = dictionary.markSize;
  const inner = size - 2;
  return Array.from({ length: size }, (_, y) =>
    Array.from({ length: size }, (_, x) => x > 0 && y > 0 && x < size - 1 && y < size - 1 && code[(y - 1) * inner + (x - 1)] === "1"),
  );
}

/** A card seen in a picture: its number and the letter on its top edge. */
export interface SeenCard {
  card: number;
  letter: Letter;
}

/** The cards among the markers found, with their letters; markers that are no card are left out. */
export function cardsSeen(markers: readonly { id: number; corners: readonly { x: number; y: number }[] }[]): SeenCard[] {
  const seen: SeenCard[] = [];
  for (const m of markers) {
    const card = cardOf(m.id);
    if (card !== null && m.corners.length === 4) seen.push({ card, letter: letterOf(m.corners) });
  }
  return seen;
}

/** A marker found in a picture: its id, and the letter on top were it a card (the page's model keeps only the cards). */
export interface SeenMarker {
  id: number;
  letter: Letter;
}

type Picture = { width: number; height: number; data: Uint8ClampedArray };

/** A detector of the dictionary's markers: RGBA pixels in, every marker found out, each with its letter. */
export function createMarkerReader(): (image: Picture) => SeenMarker[] {
  const detector = new AR.Detector({ dictionaryName: DICTIONARY });
  return (image) => detector.detect(image).filter((m) => m.corners.length === 4).map((m) => ({ id: m.id, letter: letterOf(m.corners) }));
}

/** A detector of the cards: RGBA pixels in, the cards seen out. */
export function createCardReader(): (image: Picture) => SeenCard[] {
  const detector = new AR.Detector({ dictionaryName: DICTIONARY });
  return (image) => cardsSeen(detector.detect(image));
}
