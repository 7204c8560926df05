// A step of the timeline as an image: laid out from the same cards, bars,
// strip and totals as the page (at `SCENE_WIDTH`), each shape coloured by a
// class of the page's CSS (scene-svg.ts paints them), so the image has the
// page's colours without a copy of them here.

import type { Timeline } from "../../../engine/types.gen";
import { BAR, NO_BUFFER, STRIP_HEIGHT, bufferRows, legendKeys, stripMarks, type Mark } from "./marks";
import { bytesText } from "./start";
import { plural } from "../../../shared/format";
import { flowCards, totalsText } from "./words";

/**
 * Something drawn in an exported step: a rectangle or a line of text (its
 * top at `y`), coloured by a class of the page's CSS, so the image has the
 * page's colours without a copy of them here.
 */
export type Shape =
  | ({ kind: "rect" } & Mark)
  | { kind: "text"; cls: string; text: string; x: number; y: number; size: number; bold: boolean };

/** A step drawn for export: `width` × `height` CSS pixels. */
export interface StepScene {
  width: number;
  height: number;
  shapes: Shape[];
}

/** The exported drawing's width in CSS pixels, and its margin each side (the caption's, in export-kit). */
const SCENE_WIDTH = 720;
const SCENE_MARGIN = 12;
/** Text's average advance per pixel of font size, generous so wrapped lines fit. */
const CHAR_WIDTH = 0.6;

/** `text` in lines of at most `chars` characters, broken between words. */
export function wrapWords(text: string, chars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== "" && line.length + 1 + word.length > chars) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/**
 * Step `index` of `t` as a standalone drawing: the caption, the three cards,
 * the buffer's bars with their legend, the strip of every step and the
 * totals (what the page shows for the step, laid out at `SCENE_WIDTH`).
 */
export function stepScene(t: Timeline, index: number): StepScene {
  // Laid out in a column `W` wide from x = 0, moved in by the margin at the end.
  const W = SCENE_WIDTH - 2 * SCENE_MARGIN;
  const shapes: Shape[] = [];
  const done = (): StepScene => ({ width: SCENE_WIDTH, height: Math.ceil(y), shapes: shapes.map((s) => ({ ...s, x: s.x + SCENE_MARGIN })) });
  let y = 0;
  const lineStep = (size: number): number => Math.round(size * 1.35);
  /** `text` wrapped to `width`, its first line's top at `top`. */
  const lines = (text: string, cls: string, x: number, top: number, width: number, size = 12, bold = false): Shape[] =>
    wrapWords(text, Math.max(8, Math.floor(width / (size * CHAR_WIDTH)))).map((line, i) => ({ kind: "text", cls, text: line, x, y: top + i * lineStep(size), size, bold }));
  /** Draws wrapped text; returns the height it took. */
  const words = (text: string, cls: string, x: number, top: number, width: number, size = 12, bold = false): number => {
    const drawn = lines(text, cls, x, top, width, size, bold);
    shapes.push(...drawn);
    return drawn.length * lineStep(size);
  };
  const rect = (cls: string, x: number, top: number, width: number, height: number): void => {
    shapes.push({ kind: "rect", cls, x, y: top, width, height });
  };
  /** `marks` from a `box`-sized drawing, scaled into `width` × `height` at `top`. */
  const scaled = (marks: readonly Mark[], box: { width: number; height: number }, top: number, width: number, height: number): void => {
    const sx = width / box.width;
    const sy = height / box.height;
    for (const m of marks) rect(m.cls, m.x * sx, top + m.y * sy, m.width * sx, m.height * sy);
  };

  const op = t.ops[index];
  if (!op) {
    y += words(t.error ? `The run stopped before any operation: ${t.error}` : "No operations.", "timeline-caption", 0, y, W, 13);
    return done();
  }

  // The caption, on its panel.
  const caption = lines(`Step ${index + 1}: ${op.caption}.`, "timeline-caption", 10, y + 8, W - 20, 13);
  const captionHeight = caption.length * lineStep(13) + 16;
  rect("timeline-caption", 0, y, W, captionHeight);
  shapes.push(...caption);
  y += captionHeight + 10;

  // Source → buffer → app: each card's words first, so the cards share the tallest one's height.
  const arrow = 24;
  const cardWidth = (W - 2 * arrow) / 3;
  const cards = flowCards(op, t).map((card, i) => {
    const x = i * (cardWidth + arrow);
    const text: Shape[] = [];
    let used = 8;
    const add = (drawn: Shape[], size = 12): void => {
      text.push(...drawn);
      used += drawn.length * lineStep(size);
    };
    add(lines(card.title, "timeline-card-title", x + 8, y + used, cardWidth - 16, 12, true));
    for (const line of card.lines) add(lines(line, `timeline-card ${card.state}`, x + 8, y + used, cardWidth - 16));
    if (card.badge !== null) {
      const badgeWidth = card.badge.length * 12 * CHAR_WIDTH + 8;
      text.push({ kind: "rect", cls: "timeline-badge", x: x + 8, y: y + used + 2, width: badgeWidth, height: 16 });
      add(lines(card.badge, "timeline-badge", x + 12, y + used + 4, badgeWidth, 12, true));
    }
    return { x, state: card.state, text, height: used + 10 };
  });
  const cardHeight = Math.max(...cards.map((c) => c.height));
  for (const card of cards) {
    rect(`timeline-card ${card.state}`, card.x, y, cardWidth, cardHeight);
    shapes.push(...card.text);
    if (card.x > 0) words("→", "timeline-arrow", card.x - arrow + 4, y + cardHeight / 2 - 10, arrow, 16);
  }
  y += cardHeight + 12;

  // The buffer's bars and their legend.
  if (t.capacity === 0) {
    y += words(NO_BUFFER, "timeline-none", 0, y, W) + 8;
  } else {
    const { rows, more } = bufferRows(op, t);
    for (const row of rows) {
      y += words(`${row.name} · ${bytesText(t.capacity)} · ${row.state}${row.at === null ? "" : ` ${row.at}`}`, "timeline-row-label", 0, y, W) + 2;
      scaled(row.marks, BAR, y, W, 42);
      y += 42 + 6;
    }
    if (more > 0) y += words(`… and ${plural(more, "more block")}`, "timeline-none", 0, y, W) + 4;
    let x = 0;
    for (const [cls, text] of legendKeys(op)) {
      const width = 16 + text.length * 12 * CHAR_WIDTH;
      if (x > 0 && x + width > W) {
        x = 0;
        y += 18;
      }
      rect(cls, x, y + 2, 11, 11);
      words(text, "timeline-legend", x + 16, y, width);
      x += width + 14;
    }
    y += 18 + 8;
  }

  // Every step's fill level, this one outlined.
  rect("timeline-strip", 0, y, W, 84);
  scaled(stripMarks(t.ops, index), { width: Math.max(1, t.ops.length), height: STRIP_HEIGHT }, y, W, 84);
  y += 84 + 8;

  y += words(totalsText(t, index), "timeline-totals", 0, y, W);
  return done();
}
