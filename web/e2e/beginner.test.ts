// Someone who has never heard of BufReader opens the page cold: the first
// screen says what a buffered reader is and what to try first, the
// glossary explains the words the page uses, and the status says "Done"
// only once the charts are drawn.

import { describe, expect, inject, it } from "vitest";
import { settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");
const { open } = usePages();

describe("a beginner's first screen", () => {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    it(`at ${width}×${height} says what a buffered reader is and what to try first, on the first screen`, async () => {
      const page = await open(baseUrl, width, height);
      await settled(page);
      const intro = page.locator("#intro");
      await expect(intro.textContent()).resolves.toMatch(/buffered reader.*BufReader.*Try first/s);
      const box = (await intro.boundingBox())!;
      expect(box.y + box.height, `the sentence ends at ${box.y + box.height}`).toBeLessThanOrEqual(height);
      await page.screenshot({ path: shot(`beginner-cold-${width}x${height}.png`) });
      await page.close();
    });
  }

  it("the glossary explains BufReader, buffer capacity, read size, bypass, the chained zero-copy reader, seed and outlier", async () => {
    const page = await open(baseUrl, 1280, 800);
    await settled(page);
    await page.click("#glossary-button");
    const terms = (await page.locator("#glossary-panel dt").allTextContents()).join("\n");
    for (const term of [/BufReader/, /Buffer capacity/i, /Read size/i, /Bypass/, /Chained reader \(zero-copy\)/, /Seed/, /Outlier/]) expect(terms).toMatch(term);
    await page.close();
  });

  it('says "Done" only once the charts are drawn', async () => {
    const page = await open("about:blank", 1280, 800);
    // At the moment the status first reads Done: how many of the run's charts have any ink.
    await page.addInitScript(() => {
      const seen = (): void => {
        const activity = document.querySelector(".status .activity");
        if (!activity) return void requestAnimationFrame(seen);
        new MutationObserver(() => {
          if (activity.textContent !== "Done" || (window as { inkAtDone?: number[] }).inkAtDone) return;
          (window as { inkAtDone?: number[] }).inkAtDone = [...document.querySelectorAll<HTMLCanvasElement>("#charts canvas")].map((c) => {
            const data = c.getContext("2d")?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
            let ink = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) ink++;
            return ink;
          });
        }).observe(activity, { childList: true, characterData: true, subtree: true });
      };
      seen();
    });
    await page.goto(baseUrl);
    await page.waitForFunction(() => (window as { inkAtDone?: number[] }).inkAtDone !== undefined, undefined, { timeout: 60_000 });
    const ink = await page.evaluate(() => (window as { inkAtDone?: number[] }).inkAtDone!);
    expect(ink.length).toBeGreaterThanOrEqual(4);
    for (const [i, n] of ink.entries()) expect(n, `chart ${i + 1} blank when the status said Done`).toBeGreaterThan(0);
    await page.close();
  });
});
