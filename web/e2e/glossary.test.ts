// The glossary, by position and by key: the masthead's Glossary button
// opens every entry of the catalog's glossary on screen (at 1280×720 and on
// a 390 px phone); a term in the headline, the lesson card or a chart's
// title opens its own entry, focused and on screen, by click and by the
// keyboard (Tab to it, Enter); an entry of a metric says what the results
// table heading's tooltip says.

import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import glossaryData from "../src/engine/glossary.gen.json";
import type { Term } from "../src/engine/types.gen";
import { settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");
const { open } = usePages({ reducedMotion: "reduce" });
const TERMS = glossaryData as Term[];

type Box = { x: number; y: number; width: number; height: number };
const onScreen = (box: Box | null, width: number, height: number): boolean =>
  box !== null && box.x >= -1 && box.y >= -1 && box.x + box.width <= width + 1 && box.y + box.height <= height + 1;

/** Waits until the glossary is open on entry `id`, that entry focused. */
async function openOn(page: Page, id: string): Promise<void> {
  await page.waitForFunction((id) => document.getElementById("glossary-panel")?.matches(":popover-open") && document.activeElement?.id === `glossary-${id}`, id);
}

describe("the glossary", () => {
  it("lists the terms the issue asks for, each once", () => {
    const ids = TERMS.map((t) => t.id);
    for (const id of ["source-read", "app-read", "copy", "chunking", "knee", "pending", "digest", "measured", "modelled"]) expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  for (const [width, height] of [
    [1280, 720],
    [390, 844],
  ] as const) {
    it(`opens from the masthead with every entry, on screen at ${width}×${height}`, async () => {
      const page = await open(`${baseUrl}#v=1&len=256K&chunk=poor&rd=unbuffered,std`, width, height);
      await settled(page);
      const button = page.locator("header.masthead #glossary-button");
      expect(onScreen(await button.boundingBox(), width, height)).toBe(true);
      await button.click();
      const panel = page.locator("#glossary-panel");
      await expect(panel.isVisible()).resolves.toBe(true);
      expect(onScreen(await panel.boundingBox(), width, height)).toBe(true);
      await expect(panel.locator("dt").allTextContents()).resolves.toEqual(TERMS.map((t) => t.term));
      await expect(panel.locator("dd").first().textContent()).resolves.toBe(TERMS[0]!.definition);
      await page.screenshot({ path: shot(`glossary-${width}.png`) });
      // Escape closes it, as a popover.
      await page.keyboard.press("Escape");
      await expect(panel.isVisible()).resolves.toBe(false);
      await page.close();
    });
  }

  it("a term in the headline opens its entry on screen, by click and by the keyboard", async () => {
    const page = await open(`${baseUrl}#v=1&len=256K&chunk=poor&rd=unbuffered,std`, 1280, 720);
    await settled(page);
    const term = page.locator('#headline button.term[data-term="source-read"]');
    await term.waitFor();
    await expect(term.textContent()).resolves.toBe("source reads");
    await term.click();
    await openOn(page, "source-read");
    const entry = page.locator("#glossary-source-read");
    expect(onScreen(await entry.boundingBox(), 1280, 720)).toBe(true);
    await expect(page.locator('[data-term-definition="source-read"]').isVisible()).resolves.toBe(true);
    await page.keyboard.press("Escape");
    // By the keyboard: Tab reaches the term (a button) and Enter opens the entry.
    await term.focus();
    await expect(page.evaluate(() => document.activeElement?.getAttribute("data-term"))).resolves.toBe("source-read");
    await page.keyboard.press("Enter");
    await openOn(page, "source-read");
    await page.keyboard.press("Escape");
    await page.close();
  });

  it("a chart's title opens its metric's entry, which begins with the meaning the table's heading gives", async () => {
    const page = await open(`${baseUrl}#v=1&len=256K&chunk=poor&rd=unbuffered,std`, 1280, 900);
    await settled(page);
    const heading = page.locator('#charts [data-embed="copied"] figcaption button.term[data-term="copy"]');
    await expect(heading.textContent()).resolves.toBe("Bytes copied");
    const tooltip = await page.evaluate(() => [...document.querySelectorAll("#table th")].find((th) => th.textContent === "Bytes copied")?.getAttribute("title"));
    expect(tooltip).toBeTruthy();
    await heading.click();
    await openOn(page, "copy");
    const definition = (await page.locator('[data-term-definition="copy"]').textContent())!;
    expect(definition.startsWith(tooltip!)).toBe(true);
    expect(onScreen(await page.locator("#glossary-copy").boundingBox(), 1280, 900)).toBe(true);
    await page.close();
  });

  it("on a phone, a term in the lesson card opens its entry on screen", async () => {
    const link = "#v=1&len=1M&chunk=worst&seed=42&cap=4K&rs=1&sys=150&rd=std,chained&wl=frames&lesson=chained-worst";
    const page = await open(`${baseUrl}${link}`, 390, 844);
    await settled(page);
    await page.locator("#lesson-card .lesson-notice > summary").click();
    // Each term links once per card, at its first use.
    const terms = await page.locator("#lesson-card .lesson-points button.term").evaluateAll((els) => els.map((e) => e.getAttribute("data-term")));
    expect(terms.length).toBeGreaterThan(1);
    expect(new Set(terms).size).toBe(terms.length);
    const term = page.locator('#lesson-card .lesson-points button.term[data-term="allocation"]');
    await term.click();
    await openOn(page, "allocation");
    const panel = (await page.locator("#glossary-panel").boundingBox())!;
    expect(panel.width).toBeLessThanOrEqual(390);
    expect(onScreen(await page.locator("#glossary-allocation").boundingBox(), 390, 844)).toBe(true);
    await page.screenshot({ path: shot("glossary-term-390.png") });
    await page.close();
  });
});
