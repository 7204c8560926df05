// Layout shift in headless Chromium: the page does not jump as its parts
// arrive. Results, charts and the parts loaded later arrive into space that
// is already theirs (styles/reserved.css, the chart figures made with the
// page), so the cumulative layout shift stays within Core Web Vitals' "good"
// bound of 0.1:
//
// - from navigation until the page is whole (the full measurement, a sweep
//   link's sweep, the later parts), on the default page and every lesson's
//   link (lessons.gen.json, the engine's list), at 360, 1280 and 1920 px;
// - after each Next and each Previous along the lessons, at the same widths.
//
// Pages load a few at a time in the one browser (browser.ts `inTurns`, `describe.concurrent`).
//
// The figure is the page's own: a PerformanceObserver for `layout-shift`
// (buffered, registered before the page's first script), summing the
// entries without recent input, as Core Web Vitals does. A failure lists
// the elements that moved, with their boxes before and after.

import { readFileSync } from "node:fs";
import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { inTurns, settled, usePages } from "./browser";

const baseUrl = inject("baseUrl");

/** Core Web Vitals' bound for a good cumulative layout shift. */
const GOOD_CLS = 0.1;

const WIDTHS: [number, number][] = [
  [360, 780],
  [1280, 800],
  [1920, 1080],
];

/** The lessons in their path's order, from the engine's generated list. */
const LESSONS: { id: string; link: string }[] = JSON.parse(readFileSync(new URL("../src/engine/lessons.gen.json", import.meta.url), "utf8"));

/** One layout-shift entry as the page recorded it. */
interface Shift {
  at: number;
  value: number;
  input: boolean;
  sources: string[];
}

declare global {
  interface Window {
    buflabShifts?: Shift[];
  }
}

// Runs in every page before its own scripts: records every layout shift with
// the elements that moved (a short path to each, and its boxes).
const { open } = usePages({ reducedMotion: "reduce" }, (context) =>
  context.addInitScript(() => {
    const shifts: Shift[] = [];
    window.buflabShifts = shifts;
    const name = (node: Node | null): string => {
      const parts: string[] = [];
      for (let e = node instanceof Element ? node : (node?.parentElement ?? null); e && parts.length < 3; e = e.parentElement) {
        parts.unshift(e.tagName.toLowerCase() + (e.id ? `#${e.id}` : "") + [...e.classList].slice(0, 2).map((c) => `.${c}`).join(""));
      }
      return parts.join(">");
    };
    const box = (r: DOMRectReadOnly): string => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
    type Entry = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Entry[]) {
        shifts.push({
          at: Math.round(e.startTime),
          value: e.value,
          input: e.hadRecentInput,
          sources: (e.sources ?? []).map((s) => `${name(s.node)} ${box(s.previousRect)} → ${box(s.currentRect)}`),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
  }),
);

/** Waits until the page is whole: its full measurement (or a sweep link's sweep) and the later parts on screen, and then a moment. */
async function whole(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName("buflab:parts").length > 0, undefined, { timeout: 60_000 });
  const [lab, view] = await page.evaluate(() => [document.body.dataset["lab"], document.body.dataset["view"]]);
  if (view === "sweep") {
    await page.waitForFunction(() => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done", undefined, { timeout: 90_000 });
  } else {
    await settled(page, lab === "write" ? "write" : "read");
  }
  // What follows the last result by a frame or two (a caption, a chart drawn).
  await page.waitForTimeout(500);
}

/** The layout shifts recorded since `since` (ms on the page's clock), without those that followed input. */
async function shiftsSince(page: Page, since: number): Promise<{ total: number; shifts: Shift[] }> {
  const shifts = (await page.evaluate((since) => (window.buflabShifts ?? []).filter((s) => s.at >= since && !s.input), since)) ?? [];
  return { total: shifts.reduce((sum, s) => sum + s.value, 0), shifts };
}

/** What moved, for a failure's message. */
function described(shifts: Shift[]): string {
  return shifts.map((s) => `at ${s.at} ms, ${s.value.toFixed(4)}:\n    ${s.sources.join("\n    ")}`).join("\n  ");
}

const LINKS: [string, string][] = [["the default page", ""], ...LESSONS.map((l): [string, string] => [l.id, l.link])];

/** The layout shift of a page opened on `url` until it is whole: a failure's line, or null within the bound. */
async function shiftOnLoad(name: string, url: string, width: number, height: number): Promise<string | null> {
  const page = await open(url, width, height);
  await whole(page);
  const { total, shifts } = await shiftsSince(page, 0);
  await page.close();
  return total > GOOD_CLS ? `${name}: ${total.toFixed(3)}\n  ${described(shifts)}` : null;
}

describe("layout shift on load", () => {
  for (const [width, height] of WIDTHS) {
    it(`is at most ${GOOD_CLS} on the default page and every lesson at ${width} px`, { timeout: 300_000 }, async () => {
      const found = (await inTurns(LINKS, ([name, link]) => shiftOnLoad(name, `${baseUrl}${link}`, width, height))).filter((f) => f !== null);
      expect(found, `layout shift above ${GOOD_CLS} at ${width} px`).toEqual([]);
    });
  }
});

describe("layout shift in presenter mode", () => {
  // A workshop's projector: every lesson opened in presenter mode, as a teacher's prepared link opens it.
  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    it(`is at most ${GOOD_CLS} on load of every lesson at ${width}×${height}`, { timeout: 300_000 }, async () => {
      const found = (await inTurns(LESSONS, (lesson) => shiftOnLoad(lesson.id, `${baseUrl}${lesson.link}&present=on`, width, height))).filter(
        (f) => f !== null,
      );
      expect(found, `layout shift above ${GOOD_CLS} in presenter mode at ${width}×${height}`).toEqual([]);
    });
  }
});

// The three widths walk at once, each in its own page (as `inTurns` loads pages, for its reason).
describe.concurrent("layout shift across lessons", () => {
  for (const [width, height] of WIDTHS) {
    it(`is at most ${GOOD_CLS} after each Next and each Previous at ${width} px`, { timeout: 300_000 }, async ({ expect }) => {
      const page = await open(`${baseUrl}${LESSONS[0]!.link}`, width, height);
      await whole(page);
      const found: string[] = [];
      const step = async (action: "lesson-next" | "lesson-previous", to: string): Promise<void> => {
        const since = await page.evaluate(() => performance.now());
        await page.locator(`#lesson-card [data-action="${action}"]`).click();
        await page.waitForFunction((id) => document.getElementById("lesson-card")?.dataset["lesson"] === id && location.hash.includes(`lesson=${id}`), to);
        await whole(page);
        const { total, shifts } = await shiftsSince(page, since);
        if (total > GOOD_CLS) found.push(`${action} to ${to}: ${total.toFixed(3)}\n  ${described(shifts)}`);
      };
      for (const lesson of LESSONS.slice(1)) await step("lesson-next", lesson.id);
      for (const lesson of LESSONS.slice(0, -1).reverse()) await step("lesson-previous", lesson.id);
      expect(found, `layout shift above ${GOOD_CLS} across lessons at ${width} px`).toEqual([]);
      await page.close();
    });
  }
});
