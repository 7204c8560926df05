// Every chart's words, by position: no two pieces of text a chart draws on
// its canvas (tick labels, axis titles, legends, the values beside bars,
// knee marks) overlap, on the default page at a phone's, a projector's and
// a desk's width, and on every lesson on a phone and in presenter mode at
// 1280×720 (where a narrow bytes axis once read "256 KiB512 KiB768 KiB").
// The page draws
// on canvases, so an init script records where each fillText lands (the
// canvas's transform applied, the text measured as drawn) and the test
// compares the boxes of each canvas's last drawing; the timeline is SVG, and
// its texts' boxes are compared as the browser lays them out.

import { type Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { inTurns, listedLessons, usePages } from "./browser";

const baseUrl = inject("baseUrl");

/** A piece of text as drawn: its box in the canvas's pixels. */
interface Drawn {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const { open } = usePages({}, (context) =>
  context.addInitScript(() => {
    type Box = { text: string; left: number; right: number; top: number; bottom: number };
    const drawn = new WeakMap<HTMLCanvasElement, Box[]>();
    (window as unknown as { __drawnText: (c: HTMLCanvasElement) => Box[] }).__drawnText = (c) => drawn.get(c) ?? [];
    const proto = CanvasRenderingContext2D.prototype;
    const clearRect = proto.clearRect;
    // A clear of the whole canvas starts a new drawing (chart.js clears it
    // with no transform).
    proto.clearRect = function (x, y, w, h) {
      const t = this.getTransform();
      if (t.a * x + t.e <= 0 && t.d * y + t.f <= 0 && t.a * w >= this.canvas.width && t.d * h >= this.canvas.height) drawn.set(this.canvas, []);
      clearRect.call(this, x, y, w, h);
    };
    // So does a new size (setting a canvas's width or height clears it).
    for (const side of ["width", "height"] as const) {
      const own = Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, side)!;
      Object.defineProperty(HTMLCanvasElement.prototype, side, {
        ...own,
        set(this: HTMLCanvasElement, value: number) {
          drawn.set(this, []);
          own.set!.call(this, value);
        },
      });
    }
    const fillText = proto.fillText;
    proto.fillText = function (text, x, y, maxWidth) {
      fillText.call(this, text, x, y, maxWidth);
      const t = this.getTransform();
      const m = this.measureText(text);
      const width = Math.min(m.width, maxWidth ?? Infinity);
      // Where the text starts, by its alignment, in the drawing's own units.
      const align = this.textAlign;
      const start = align === "center" ? x - width / 2 : align === "right" || align === "end" ? x - width : x;
      if (String(text).trim() === "" || Math.abs(t.b) > 1e-6 || Math.abs(t.c) > 1e-6) return; // (rotated text is not compared)
      const box = {
        text: String(text),
        left: t.a * start + t.e,
        right: t.a * (start + width) + t.e,
        top: t.d * (y - m.actualBoundingBoxAscent) + t.f,
        bottom: t.d * (y + m.actualBoundingBoxDescent) + t.f,
      };
      const list = drawn.get(this.canvas) ?? [];
      list.push(box);
      drawn.set(this.canvas, list);
    };
  }),
);

let lessons = new Map<string, string>();
beforeAll(async () => {
  lessons = await listedLessons(await open(baseUrl));
});

/** Done, with the page's later parts in, and a moment for the last chart's frame. */
async function done(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector(".status .activity")?.textContent === "Done" && performance.getEntriesByName("buflab:parts").length > 0,
    null,
    { timeout: 90_000 },
  );
  await page.waitForTimeout(400);
}

/** Each visible canvas's pairs of overlapping texts (by more than a pixel each way), named by the canvas's chart. */
async function overlaps(page: Page): Promise<{ drawn: number; overlapping: string[] }> {
  return await page.evaluate(() => {
    const textOf = (window as unknown as { __drawnText: (c: HTMLCanvasElement) => Drawn[] }).__drawnText;
    const overlapping: string[] = [];
    let count = 0;
    // A picture the page draws as SVG (the timeline) is compared the same way, by its texts' boxes on screen.
    const svgBoxes = (svg: SVGSVGElement): Drawn[] =>
      [...svg.querySelectorAll("text")]
        .filter((t) => (t.textContent ?? "").trim() !== "" && getComputedStyle(t).visibility !== "hidden")
        .map((t) => {
          const r = t.getBoundingClientRect();
          return { text: t.textContent ?? "", left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        })
        .filter((b) => b.right > b.left);
    const pictures: [Element, Drawn[]][] = [
      ...[...document.querySelectorAll("canvas")].filter((c) => c.offsetParent !== null).map((c): [Element, Drawn[]] => [c, textOf(c)]),
      ...[...document.querySelectorAll("svg")].filter((s) => s.getBoundingClientRect().width > 100).map((s): [Element, Drawn[]] => [s, svgBoxes(s)]),
    ];
    for (const [picture, boxes] of pictures) {
      count += boxes.length;
      const name = picture.closest("figure")?.getAttribute("data-embed") ?? picture.closest("[id]")?.id ?? picture.tagName;
      for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) {
          const a = boxes[i]!;
          const b = boxes[j]!;
          const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (across > 1 && down > 1) overlapping.push(`${name}: "${a.text}" and "${b.text}" share ${Math.round(across)}×${Math.round(down)} px`);
        }
      }
    }
    // A heatmap drawn to fit its box leaves its pickers inside the box (drawn at the whole box's height, they spilled over the note under it).
    for (const figure of document.querySelectorAll<HTMLElement>(".sweep-heatmap:not([hidden])")) {
      const bottom = figure.getBoundingClientRect().bottom;
      for (const part of figure.children) {
        const r = part.getBoundingClientRect();
        if (r.height > 0 && r.bottom > bottom + 1) overlapping.push(`heatmap: ${part.className || part.tagName} ends ${Math.round(r.bottom - bottom)} px below its box`);
      }
    }
    return { drawn: count, overlapping };
  });
}

describe("no two words a chart draws overlap", () => {
  for (const [width, height] of [
    [390, 844],
    [1280, 720],
    [1920, 1080],
  ] as const) {
    it(`on the default page at ${width}×${height}`, async () => {
      const page = await open(baseUrl, width, height);
      await done(page);
      const seen = await overlaps(page);
      // The record is real: the page's charts drew their words through it.
      expect(seen.drawn).toBeGreaterThan(20);
      expect(seen.overlapping).toEqual([]);
      await page.close();
    });
  }

  for (const [mode, suffix, width, height] of [
    ["in presenter mode", "&present=on", 1280, 720],
    ["on a phone", "", 390, 844],
  ] as const) {
    it(`on every lesson ${mode} at ${width}×${height}`, { timeout: 400_000 }, async () => {
      expect(lessons.size).toBeGreaterThan(5);
      const found = await inTurns([...lessons], async ([id, link]) => {
        const page = await open(`${baseUrl}${link}${suffix}`, width, height);
        await done(page);
        const seen = await overlaps(page);
        await page.close();
        return { id, ...seen };
      });
      // (The timeline's lesson draws no words in its picture: its labels are the page's text.)
      expect(found.filter(({ drawn }) => drawn > 0).length).toBeGreaterThanOrEqual(lessons.size - 1);
      expect(found.flatMap(({ id, overlapping }) => overlapping.map((o) => `${id}: ${o}`))).toEqual([]);
    });
  }
});
