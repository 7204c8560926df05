// Phones in a workshop, measured by position at 390×844: a lesson link
// opens on the lesson's card with the chart it talks about on the same
// first screen; every button, link, select, text box, disclosure and check
// row of the masthead, the toolbar, the lesson card and the forms is at
// least 44 × 44 px (a glossary term inside a sentence is exempt, as WCAG
// 2.5.8's inline exception allows); and the "Show results" bar shows
// whenever the numbers are out of view, wherever the person has scrolled,
// and takes them back.

import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import lessonData from "../src/engine/lessons.gen.json";
import type { Lesson } from "../src/engine/types.gen";
import { inTurns, openMoreSettings, settled, usePages } from "./browser";
import { CHART, chartOn } from "./lesson-charts";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");
const { open } = usePages({ reducedMotion: "reduce" });
const lessons = lessonData as Lesson[];

const W = 390;
const H = 844;

type Box = { x: number; y: number; width: number; height: number };

/** The top of the bottom bar (Settings, Measure again, …): what lies under it is not in view. */
async function barTop(page: Page): Promise<number> {
  return (await page.locator("#actions").boundingBox())!.y;
}

/** Whether `box` lies wholly on the first screen, above the bottom bar. */
function inView(box: Box | null, bottom: number): boolean {
  return box !== null && box.y >= -1 && box.y + box.height <= bottom + 1 && box.x >= -1 && box.x + box.width <= W + 1;
}

/**
 * Whether a chart is seen on the first screen: wholly, or, for one taller
 * than a third of the screen (the write lab's seven cursors), its top with
 * at least 200 px of it above the bottom bar.
 */
function chartSeen(box: Box | null, bottom: number): boolean {
  if (box === null) return false;
  if (inView(box, bottom)) return true;
  return box.height > H / 3 && box.y >= -1 && Math.min(bottom, box.y + box.height) - box.y >= 200;
}


/** Waits until the lesson's results are in: a sweep's last point, or a full measurement. */
async function lessonSettled(page: Page, lesson: Lesson): Promise<void> {
  if (lesson.charts.includes("sweep")) {
    await page.waitForFunction(() => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done", undefined, { timeout: 90_000 });
  } else {
    await settled(page, lesson.link.includes("lab=write") ? "write" : "read");
  }
  // The parts that come after the first numbers (charts, the masthead's panels) have arrived and laid out.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

describe("a lesson link on a phone", () => {
  it("opens on the lesson's card with a chart it names on the same screen", async () => {
    // A named chart without a selector here fails the test, so a new kind of chart is measured too.
    expect(lessons.flatMap((l) => l.charts).filter((c) => !(c in CHART))).toEqual([]);
    // Three lessons at a time (browser.ts `inTurns`).
    await inTurns(lessons, async (lesson) => {
      const page = await open(`${baseUrl}${lesson.link}`, W, H);
      await lessonSettled(page, lesson);
      const bottom = await barTop(page);
      const card = await page.locator("#lesson-card").boundingBox();
      const head = await page.locator("#lesson-card .lesson-card-title").boundingBox();
      // The charts the lesson is about (the catalog's `charts`; the page shows them first): one is on screen.
      const drawn = await Promise.all(lesson.charts.map(async (chart) => page.locator(await chartOn(page, chart)).first().boundingBox()));
      expect(inView(head, bottom), `${lesson.id}: the card's title at ${JSON.stringify(head)}`).toBe(true);
      // The card starts at the top of the screen (its first line, the lesson's place in the path, shows).
      expect(card!.y, `${lesson.id}: card top`).toBeGreaterThanOrEqual(-2);
      expect(card!.y, `${lesson.id}: card top`).toBeLessThan(40);
      // A named chart is seen on the first screen (wholly, or a tall one's top 200 px): a sweep's charts and
      // the timeline's picture come before their controls in a lesson on a phone (styles/lessons.css).
      const where = `${lesson.id}: ${lesson.charts.join(", ")} at ${JSON.stringify(drawn)}, bar at ${bottom}`;
      expect(drawn.some((box) => chartSeen(box, bottom)), where).toBe(true);
      // What to notice is a tap away, and opens in place.
      await page.locator("#lesson-card .lesson-notice > summary").click();
      await expect(page.locator("#lesson-card .lesson-points li").first().isVisible()).resolves.toBe(true);
      if (lesson.id === lessons[4]?.id) await page.screenshot({ path: shot(`phone-lesson-${lesson.id}-390.png`) });
      await page.close();
    });
  });
});

/**
 * Every touch target in `scope` that is on the page (visible): its id or
 * text and its box. Glossary terms in running text (`button.term`) are left
 * out: they are words in a sentence.
 */
async function targets(page: Page, scope: string): Promise<{ name: string; box: Box }[]> {
  return page.evaluate((scope) => {
    const found: { name: string; box: Box }[] = [];
    const selector = 'button:not(.term), a[href], select, input[type="text"], input[type="range"], summary, .check > label, .theme-option';
    for (const root of document.querySelectorAll(scope)) {
      for (const el of root.querySelectorAll<HTMLElement>(selector)) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || el.closest("[hidden], [popover]:not(:popover-open)")) continue;
        // A link inside a sentence is inline text, like a term.
        if (el.tagName === "A" && el.closest("p")) continue;
        const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} “${(el.textContent ?? "").trim().slice(0, 24) || el.getAttribute("aria-label")}”`;
        found.push({ name, box: { x: r.x, y: r.y, width: r.width, height: r.height } });
      }
    }
    return found;
  }, scope);
}

const small = (list: { name: string; box: Box }[]): string[] =>
  list.filter(({ box }) => box.height < 43.5 || box.width < 43.5).map(({ name, box }) => `${name} ${Math.round(box.width)}×${Math.round(box.height)}`);

describe("touch targets on a phone", () => {
  it("every button, link, select, text box, disclosure and check row of the masthead, toolbar, lesson card and forms is at least 44 × 44 px", async () => {
    const lesson = lessons.find((l) => l.charts.includes("reads")) ?? lessons[0]!;
    const page = await open(`${baseUrl}${lesson.link}&predict=on`, W, H);
    await page.locator("#lesson-card .lesson-guess").waitFor();
    await page.locator("#glossary-button").waitFor();
    const checked = ["header.masthead", "#toolbar", "#lesson-card"];
    // Asking: the guess box and Reveal.
    let found = await targets(page, checked.join(", "));
    expect(found.map((t) => t.name).join(" | ")).toMatch(/Reveal/);
    expect(small(found)).toEqual([]);
    // Answered: the card's own buttons and folds.
    await page.locator("#lesson-card button.reveal").click();
    await settled(page);
    found = await targets(page, checked.join(", "));
    expect(found.map((t) => t.name).join(" | ")).toMatch(/Next ▶.*What to notice.*Why this experiment/);
    expect(small(found)).toEqual([]);
    // The read lab's form, More settings open, and the view tabs.
    await openMoreSettings(page);
    found = await targets(page, "#controls, #view-tabs");
    expect(found.length).toBeGreaterThan(15);
    expect(small(found)).toEqual([]);
    // The write lab's form.
    await page.getByRole("tab", { name: /Write lab/ }).click();
    await settled(page, "write");
    await openMoreSettings(page, "#write-controls");
    found = await targets(page, "#write-controls");
    expect(found.length).toBeGreaterThan(10);
    expect(small(found)).toEqual([]);
    await page.close();
  });
});

describe("a presenter's link opened on a phone", () => {
  it("shows the phone's page: every button's text whole and on screen, the page no wider than the phone", async () => {
    const lesson = lessons[0]!;
    for (const present of ["", "&present=on"]) {
      const page = await open(`${baseUrl}${lesson.link}${present}`, W, H);
      await lessonSettled(page, lesson);
      expect(await page.evaluate(() => document.documentElement.classList.contains("presenting"))).toBe(present !== "");
      // Presenter mode changes nothing on a phone, so its button is not there to press.
      expect(await page.locator("#present-toggle").isVisible()).toBe(false);
      // The masthead, the lesson card and the bottom bar (Settings, Measure again, …).
      const cut = await page.evaluate((width) => {
        const buttons = [...document.querySelectorAll<HTMLElement>("header.masthead button, #lesson-card button, #actions button")];
        return buttons
          .filter((b) => b.offsetParent !== null)
          .filter((b) => {
            const box = b.getBoundingClientRect();
            return b.scrollWidth > b.clientWidth + 1 || box.left < -1 || box.right > width + 1;
          })
          .map((b) => b.textContent?.trim());
      }, W);
      expect(cut, `buttons cut off${present}`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width${present}`).toBeLessThanOrEqual(W);
      if (present) await page.screenshot({ path: shot("phone-presenter-link-390.png") });
      await page.close();
    }
  });

  it("with predict on, Reveal keeps the card the phone's width and the room's answers under it (one column)", async () => {
    const lesson = lessons[0]!;
    const page = await open(`${baseUrl}${lesson.link}&present=on&predict=on`, W, H);
    await lessonSettled(page, lesson);
    await page.getByRole("button", { name: /Reveal/ }).first().click();
    await page.locator("#room .room-choices").waitFor();
    const [card, room] = await Promise.all([page.locator("#lesson-card").boundingBox(), page.locator("#room").boundingBox()]);
    // (Placed in the projector's second column, the room squeezed the card to 29 px.)
    expect(card!.width).toBeGreaterThan(W * 0.8);
    expect(room!.width).toBeGreaterThan(W * 0.8);
    expect(room!.y).toBeGreaterThanOrEqual(card!.y + card!.height - 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(W);
    await page.close();
  });
});

describe('the "Show results" bar', () => {
  it("shows whenever the numbers are out of view, above the bottom buttons, and takes the person back to them", async () => {
    const page = await open(`${baseUrl}#v=1&len=256K&chunk=poor&rd=unbuffered,std`, W, H);
    await settled(page);
    const peek = page.locator(".peek");
    const headline = page.locator("#headline");
    // Numbers in view: no bar.
    await headline.evaluate((e) => e.scrollIntoView({ block: "start" }));
    await page.waitForFunction(() => document.querySelector<HTMLElement>(".peek")?.hidden === true);
    // Scrolled past them to the export tools, the code, the settings, and back up to the masthead: the bar each time.
    for (const where of ["#share-tools", "#code", "#settings", "top"]) {
      await page.evaluate((where) => {
        if (where === "top") window.scrollTo(0, 0);
        else document.querySelector(where)!.scrollIntoView({ block: "start" });
      }, where);
      const numbersOnScreen = await page.evaluate(() =>
        ["headline", "read-results"].some((id) => {
          const r = document.getElementById(id)!.getBoundingClientRect();
          return r.height > 0 && r.bottom > 0 && r.top < innerHeight;
        }),
      );
      if (numbersOnScreen) continue;
      await page.waitForFunction(() => document.querySelector<HTMLElement>(".peek")?.hidden === false, undefined, { timeout: 5_000 });
      const box = (await peek.boundingBox())!;
      const buttons = (await page.locator("#actions .buttons").boundingBox())!;
      // On screen, at the bottom, right above the buttons, big enough for a thumb.
      expect(box.y + box.height, where).toBeLessThanOrEqual(buttons.y + 1);
      expect(box.y, where).toBeGreaterThan(H / 2);
      expect(box.height, where).toBeGreaterThanOrEqual(44);
      expect(box.width, where).toBeGreaterThan(W * 0.8);
      await expect(peek.textContent()).resolves.toMatch(/Source reads: unbuffered Read 262,145/);
    }
    // From the code panel the bar takes the person back: the headline is on screen, and the bar goes.
    await page.locator("#code").evaluate((e) => e.scrollIntoView({ block: "start" }));
    await page.waitForFunction(() => document.querySelector<HTMLElement>(".peek")?.hidden === false);
    await peek.click();
    await page.waitForFunction(() => document.querySelector<HTMLElement>(".peek")?.hidden === true);
    const shown = (await headline.boundingBox())!;
    expect(shown.y).toBeGreaterThanOrEqual(-1);
    expect(shown.y).toBeLessThan(await barTop(page));
    await page.close();
  });
});
