// The handout's page of answer cards (handout.html?cards): CARDS numbered
// cards, six to an A4 page, each a large ARUCO_MIP_36h12 marker with A, B,
// C and D on its edges, each letter upright when its edge is on top
// (shared/cards.ts). Loaded only for that page: the marker dictionary
// (js-aruco2) comes with it.

import { CARDS, LETTERS, rotationFor } from "../../shared/cards";
import { h, replaceChildren, svgElement, svgText } from "../../shared/dom";
import { markerCells } from "./marker";

/** The card's side in its own units: the marker's 8 cells, a quiet zone of 1, and the letters' band. */
const SIDE = 13;
const MARKER_AT = 2.5;

/** Card `n` (1 to CARDS) as an SVG: the marker in the middle, a letter on each edge, its number in a corner. */
export function cardSvg(n: number): SVGSVGElement {
  const svg = svgElement("svg", { viewBox: `0 0 ${SIDE} ${SIDE}`, class: "room-card", role: "img", "aria-label": `Answer card ${n}`, "data-card": n });
  svg.append(svgElement("rect", { width: SIDE, height: SIDE, fill: "#fff", stroke: "#999", "stroke-width": 0.03 }));
  const cells = markerCells(n - 1);
  const black: string[] = [];
  cells.forEach((row, y) => row.forEach((white, x) => white || black.push(`M${MARKER_AT + x} ${MARKER_AT + y}h1v1h-1z`)));
  svg.append(svgElement("path", { d: black.join(""), fill: "#000", "shape-rendering": "crispEdges" }));
  const c = SIDE / 2;
  for (const letter of LETTERS) {
    // Drawn at the top, then turned with the card's edge: upright when that edge is on top.
    const turn = -rotationFor(letter);
    svg.append(svgText(letter, { x: c, y: 0.85, "font-size": 1.2, "font-weight": 700, "text-anchor": "middle", "dominant-baseline": "central", transform: `rotate(${turn} ${c} ${c})` }));
  }
  svg.append(svgText(String(n), { x: SIDE - 0.5, y: SIDE - 0.45, "font-size": 0.7, "text-anchor": "end", "dominant-baseline": "central", class: "room-card-number" }));
  return svg;
}

/** Fills `list` with the cards, and says how to use them. */
export function showCards(list: HTMLElement, intro: HTMLElement): void {
  replaceChildren(
    intro,
    h(
      "p",
      {},
      "One card for each student, its number theirs for the session. To answer, hold the card up with the letter you choose on top, the big square facing the teacher. ",
      "The teacher's page reads the cards with the camera on that computer: pictures are read there and never stored or sent.",
    ),
  );
  list.classList.add("room-cards");
  replaceChildren(list, ...Array.from({ length: CARDS }, (_, i) => h("li", { class: "room-card-item", "data-card": i + 1 }, cardSvg(i + 1))));
}
