// Workshop mode in headless Chromium: presenter mode stays on through Next,
// the arrow keys and PageDown (a presentation clicker) and the lesson list;
// the arrow keys do nothing while typing in a field; with predict=on a lesson's
// answer is nowhere in the page's text until Reveal, and after it the card
// gives the answer, how far the guess was and why. The type grows with the
// screen (at least 22 px at 1280×720, 28 px at 1920×1080).

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

const hash = (page: Page): Promise<string> => page.evaluate(() => location.hash);
const lessonOf = (page: Page): Promise<string | undefined> => page.evaluate(() => document.getElementById("lesson-card")?.dataset["lesson"]);
const ids = (): string[] => [...links.keys()];

/** Waits until the card shows lesson `id` and the link carries it. */
async function onLesson(page: Page, id: string): Promise<void> {
  await page.waitForFunction((id) => document.getElementById("lesson-card")?.dataset["lesson"] === id && location.hash.includes(`lesson=${id}`), id);
}

describe("presenter mode that stays", () => {
  it("Next, → and PageDown keep present=on and go to the next lesson; ← and PageUp go back; the list keeps it too", async () => {
    const [first, second, third] = ids();
    const page = await open(`${baseUrl}${links.get(first!)}&present=on`, 1280, 720);
    await settled(page);
    await expect(page.locator("#lesson-card .lesson-keys").isVisible()).resolves.toBe(true);
    await expect(page.locator("#lesson-card .lesson-keys").textContent()).resolves.toContain("PageDown");

    await page.click('#lesson-card [data-action="lesson-next"]');
    await onLesson(page, second!);
    expect(await hash(page)).toContain("present=on");
    expect(await page.evaluate(() => document.documentElement.classList.contains("presenting"))).toBe(true);

    await page.keyboard.press("ArrowRight");
    await onLesson(page, third!);
    expect(await hash(page)).toContain("present=on");
    await page.keyboard.press("PageUp");
    await onLesson(page, second!);
    await page.keyboard.press("ArrowLeft");
    await onLesson(page, first!);
    await page.keyboard.press("PageDown");
    await onLesson(page, second!);
    expect(await hash(page)).toContain("present=on");

    // The lesson list.
    await page.click("#lessons-button");
    await page.click(`#lesson-list li[data-lesson="${ids().at(-1)}"] a.lesson-title`);
    await onLesson(page, ids().at(-1)!);
    expect(await hash(page)).toContain("present=on");
    await page.close();
  });

  it("the arrow keys do nothing while typing in a field (PageDown does: classroom.test.ts), nor outside presenter mode", async () => {
    const [first] = ids();
    const page = await open(`${baseUrl}${links.get(first!)}&present=on`, 1280, 720);
    await settled(page);
    const field = page.locator("#controls input[type=text]").first();
    await field.focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(300);
    expect(await lessonOf(page)).toBe(first);
    await page.close();

    const plain = await open(`${baseUrl}${links.get(first!)}`, 1280, 720);
    await settled(plain);
    await plain.keyboard.press("ArrowRight");
    await plain.waitForTimeout(300);
    expect(await lessonOf(plain)).toBe(first);
    await plain.close();
  });

  for (const [width, height, least] of [
    [1280, 720, 22],
    [1920, 1080, 28],
  ] as const) {
    it(`at ${width}×${height} the lesson's text is at least ${least} px`, async () => {
      const id = "chained-worst";
      const page = await open(`${baseUrl}${links.get(id)}&present=on`, width, height);
      await settled(page);
      const sizes = await page.evaluate(() =>
        [...document.querySelectorAll("#lesson-card .lesson-points li, #lesson-card .lesson-card-title")].map((e) => parseFloat(getComputedStyle(e).fontSize)),
      );
      expect(sizes.length).toBeGreaterThan(0);
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(least);
      await page.screenshot({ path: shot(`workshop-presenter-${id}-${width}x${height}.png`) });
      await page.close();
    });
  }
});

describe("the timeline in presenter mode", () => {
  it("never plays by itself in presenter mode; the presenter steps", async () => {
    const link = "#v=1&len=1M&chunk=poor&seed=42&cap=256&rs=8&sys=150&rd=unbuffered,std&wl=fixed&view=timeline";
    const page = await open(`${baseUrl}${link}&present=on`, 1280, 720);
    await settled(page);
    await page.locator("#timeline").waitFor({ state: "visible" });
    await page.waitForTimeout(2_000);
    await expect(page.locator(".timeline-position").textContent()).resolves.toBe("1 / 100");
    await expect(page.locator(".timeline-play").getAttribute("aria-pressed")).resolves.toBe("false");
    await page.close();
  });
});

describe("predict, then reveal", () => {
  it("with predict=on the answer is nowhere in the page's text until Reveal; then the card gives it, the guess's distance and why", async () => {
    const id = "async-bufreader";
    const page = await open(`${baseUrl}${links.get(id)}&predict=on`, 1280, 900);
    // The counts are in (the status line says so), yet hidden.
    await page.waitForFunction(() => document.getElementById("results")?.classList.contains("has-report") === true, undefined, { timeout: 60_000 });
    await page.waitForTimeout(500);
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toContain("How many source reads");
    expect(text).not.toContain("3,641");
    expect(text).not.toContain("3641");
    await expect(page.locator("#headline").isVisible()).resolves.toBe(false);

    await page.fill("#lesson-guess", "2,000");
    await page.click('#lesson-card [data-action="reveal"]');
    await expect.poll(() => page.locator("#lesson-card .lesson-answer").textContent()).toBe("Answer: 3,641 source reads.");
    await expect(page.locator("#lesson-card .lesson-feedback").textContent()).resolves.toBe("Your guess, 2,000, is 1,641 off: 45% too low.");
    await expect(page.locator("#lesson-card .lesson-answer-why").textContent()).resolves.toContain("288");
    await expect(page.locator("#headline").isVisible()).resolves.toBe(true);
    expect(await page.evaluate(() => document.body.innerText)).toContain("3,641");
    // predict is a display key: the results are of the settings on screen, and the lesson is not "changed".
    await expect(page.locator("#lesson-card .lesson-changed").isVisible()).resolves.toBe(false);
    await page.screenshot({ path: shot("workshop-revealed-1280.png") });
    await page.close();
  });

  it("in presenter mode the first → reveals, the next goes on, and predict stays on", async () => {
    const [first, second] = ids();
    const page = await open(`${baseUrl}${links.get(first!)}&present=on&predict=on`, 1280, 720);
    await page.waitForFunction(() => document.body.classList.contains("predicting"));
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => !document.body.classList.contains("predicting"));
    expect(await lessonOf(page)).toBe(first);
    await page.keyboard.press("ArrowRight");
    await onLesson(page, second!);
    expect(await hash(page)).toContain("predict=on");
    expect(await hash(page)).toContain("present=on");
    await page.waitForFunction(() => document.body.classList.contains("predicting"));
    await page.close();
  });
});

describe("the handout", () => {
  it("lists every lesson with its question, its link and a QR code that decodes to that link, on two A4 pages", async () => {
    const jsQR = (await import("jsqr")).default;
    const page = await open(`${baseUrl}handout.html`, 1280, 900);
    await page.locator("#handout-lessons li").first().waitFor();
    const items = await page.locator("#handout-lessons li").all();
    expect(items.map(() => 1).length).toBe(links.size);
    const pageUrl = new URL("./", `${baseUrl}handout.html`).href;
    for (const [i, [id, link]] of [...links].entries()) {
      const item = items[i]!;
      expect(await item.getAttribute("data-lesson")).toBe(id);
      const href = await item.locator(".handout-link a").getAttribute("href");
      // The students' link asks first: predict=on.
      expect(href).toBe(`${pageUrl}${link}&predict=on`);
      expect(await item.locator(".handout-question").textContent()).toContain("?");
      // The QR code, drawn into a canvas at 6 px a module, read back by jsQR.
      const image = await item.locator("svg.qr").evaluate(async (svg: SVGSVGElement) => {
        const size = svg.viewBox.baseVal.width * 6;
        const img = new Image(size, size);
        img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = canvas.height = size;
        const context = canvas.getContext("2d")!;
        context.imageSmoothingEnabled = false;
        context.drawImage(img, 0, 0, size, size);
        // One character a pixel (dark or light): a small string crosses to Node quickly.
        const rgba = context.getImageData(0, 0, size, size).data;
        let dark = "";
        for (let i = 0; i < rgba.length; i += 4) dark += rgba[i]! < 128 ? "1" : "0";
        return { size, dark };
      });
      const rgba = new Uint8ClampedArray(image.size * image.size * 4);
      for (let i = 0; i < image.dark.length; i++) rgba.fill(image.dark[i] === "1" ? 0 : 255, i * 4, i * 4 + 3), (rgba[i * 4 + 3] = 255);
      const decoded = jsQR(rgba, image.size, image.size);
      expect(decoded?.data, id).toBe(href);
    }
    await page.emulateMedia({ media: "print" });
    await page.screenshot({ path: shot("workshop-handout-print.png"), fullPage: true });
    const pdf = await page.pdf({ format: "A4", printBackground: true });
    const pages = pdf.toString("latin1").match(/\/Type\s*\/Page(?!s)/g)?.length ?? 0;
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThanOrEqual(2);
    await page.close();
  });

  it("the Lessons menu links to it, and in presenter mode the QR code of the students' link is there on demand", async () => {
    const id = "one-byte";
    const page = await open(`${baseUrl}${links.get(id)}&present=on&predict=on`, 1280, 720);
    await page.locator("#handout-link").waitFor({ state: "attached" });
    expect(await page.locator("#handout-link").getAttribute("href")).toBe("./handout.html");
    await page.click("#qr-button");
    const svg = page.locator("#qr-panel svg.qr");
    await svg.waitFor();
    const box = (await svg.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(0.6 * 720);
    const carried = await svg.getAttribute("data-qr");
    expect(carried).toContain(`lesson=${id}`);
    expect(carried).toContain("predict=on");
    expect(carried).not.toContain("present=on");
    await page.screenshot({ path: shot("workshop-qr-1280x720.png") });
    await page.close();
  });
});
