// The lesson on a 1280×720 projector in presenter mode, by position: what a
// clicker's PageDown scrolls to lands below the sticky bar; the card keeps
// its column and width through Reveal and from lesson to lesson; where a
// lesson comes from is never cut off; the timeline's Back and Forward are on
// the first screen; the status in the bar is never cut, from the first
// numbers to Done.

import { type Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { listedLessons, settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");
const { open } = usePages();
/** Each lesson's link as the page's list gives it, in the path's order. */
let links = new Map<string, string>();

beforeAll(async () => {
  links = await listedLessons(await open(baseUrl));
});

const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;
const barBottom = async (page: Page) => (await box(page, "#toolbar")).y + (await box(page, "#toolbar")).height;

async function onLesson(page: Page, id: string): Promise<void> {
  await page.waitForFunction((id) => document.getElementById("lesson-card")?.dataset["lesson"] === id && location.hash.includes(`lesson=${id}`), id);
}

describe("a lesson on a 1280×720 projector", () => {
  it("the status in the bar says all it says, whole and on screen, at each stage from the first numbers to Done", async () => {
    const page = await open(`${baseUrl}${links.get("one-byte")}&present=on`, 1280, 720);
    // Every visible piece of the status, each time it changes, until the full measurement is in.
    await page.evaluate(() => {
      const status = document.getElementById("status")!;
      const seen: string[] = ((window as unknown as { __cut: string[] }).__cut = []);
      const check = (): void => {
        // The status clips what does not fit it (overflow: hidden): a piece must lie within it, and within the screen.
        const box = status.getBoundingClientRect();
        for (const el of status.querySelectorAll<HTMLElement>(".activity, .badge, .timer")) {
          if (el.offsetParent === null || el.textContent === "") continue;
          const r = el.getBoundingClientRect();
          const cut = el.scrollWidth > el.clientWidth + 1 || r.right > Math.min(innerWidth, box.right) + 1 || r.left < Math.max(0, box.left) - 1;
          if (cut) seen.push(`${el.className}: "${el.textContent}" ${el.scrollWidth}/${el.clientWidth} at ${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(box.left)}–${Math.round(box.right)}`);
        }
      };
      new MutationObserver(check).observe(status, { subtree: true, childList: true, characterData: true, attributes: true });
      check();
    });
    await settled(page);
    await expect(page.evaluate(() => (window as unknown as { __cut: string[] }).__cut)).resolves.toEqual([]);
    await page.close();
  });

  it("PageDown to the write lab's lesson leaves its card head and the headline below the sticky bar", async () => {
    const page = await open(`${baseUrl}${links.get("chained-worst")}&present=on`, 1280, 720);
    await settled(page);
    await page.keyboard.press("PageDown");
    await onLesson(page, "cursors");
    await settled(page, "write");
    await page.waitForTimeout(500);
    const bar = await barBottom(page);
    for (const selector of ["#lesson-card .lesson-where", "#headline"]) {
      expect((await box(page, selector)).y, `${selector} under the bar ending at ${bar}`).toBeGreaterThanOrEqual(bar);
    }
    await page.screenshot({ path: shot("projector-cursors-after-pagedown-1280x720.png") });
    await page.close();
  });

  it("the card keeps its place and width through Reveal and across lessons; where a lesson is from is whole", async () => {
    const places: { id: string; x: number; width: number }[] = [];
    for (const id of ["one-byte", "cursors", "buffer-timeline"]) {
      const page = await open(`${baseUrl}${links.get(id)}&present=on&predict=on`, 1280, 720);
      await page.waitForFunction(() => document.body.classList.contains("predicting"));
      await page.locator("#lesson-card .lesson-question").waitFor();
      const asking = await box(page, "#lesson-card");
      await page.keyboard.press("PageDown");
      await page.waitForFunction(() => !document.body.classList.contains("predicting"));
      await page.waitForTimeout(500);
      const told = await box(page, "#lesson-card");
      expect(Math.abs(told.x - asking.x), `${id}: the card moved sideways on Reveal`).toBeLessThanOrEqual(1);
      expect(Math.abs(told.width - asking.width), `${id}: the card changed width on Reveal`).toBeLessThanOrEqual(1);
      places.push({ id, x: told.x, width: told.width });
      const cut = await page.locator("#lesson-card .lesson-where").evaluate((e) => e.scrollWidth > e.clientWidth + 1);
      expect(cut, `${id}: "${await page.locator("#lesson-card .lesson-where").textContent()}" cut off`).toBe(false);
      await page.close();
    }
    for (const p of places) expect(Math.abs(p.x - places[0]!.x), `${p.id}'s card at x=${p.x}`).toBeLessThanOrEqual(1);
  });

  it("the timeline's Back and Forward are on the first screen", async () => {
    const page = await open(`${baseUrl}${links.get("buffer-timeline")}&present=on`, 1280, 720);
    await page.locator(".timeline-position").waitFor({ state: "visible" });
    await page.waitForTimeout(500);
    for (const name of ["Step back", "Step forward"]) {
      const b = (await page.getByRole("button", { name }).boundingBox())!;
      expect(b.y + b.height, `${name} at y=${b.y}`).toBeLessThanOrEqual(720);
    }
    await page.screenshot({ path: shot("projector-timeline-1280x720.png") });
    await page.close();
  });
});
