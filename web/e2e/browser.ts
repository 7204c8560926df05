// What every end-to-end test file shares: its connection to the run's one
// Chromium, collecting a page's errors, and reading results.

import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Download, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";

/**
 * A connection to the run's one Chromium (global-setup.ts starts it): a
 * file's contexts and pages are its own, and `close()` closes them and the
 * connection, not the browser.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.connect(inject("browserEndpoint"));
}

/** Records the page's and its workers' errors into `problems`; a test expects none. */
export function watch(page: Page, problems: string[]): Page {
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("worker", (worker) => {
    worker.on("console", (message) => {
      if (message.type() === "error") problems.push(`worker console: ${message.text()}`);
    });
  });
  return page;
}

/**
 * One test file's browser: Chromium and a context with `options` (then
 * `setup`) before the file's tests, closed after them; every page `open`
 * gives is watched, and each test fails on any error a page or worker logged.
 */
export function usePages(
  options: BrowserContextOptions = {},
  setup?: (context: BrowserContext) => Promise<unknown>,
): { open(url: string, width?: number, height?: number): Promise<Page> } {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const problems: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext(options);
    await setup?.(context);
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(() => {
    expect(problems.splice(0), "console errors").toEqual([]);
  });
  return {
    async open(url, width = 1280, height = 900) {
      if (!context) throw new Error("usePages: open() before the browser started");
      const page = watch(await context.newPage(), problems);
      await page.setViewportSize({ width, height });
      await page.goto(url);
      return page;
    },
  };
}

/**
 * `load(item)` for every item, three at a time; the answers in the items'
 * order. A page's load mostly waits (the engine's time-budgeted samples, the
 * parts loaded later), so three pages in the one browser take little longer
 * than one; what a test reads of a page is that page's own.
 */
export async function inTurns<T, R>(items: readonly T[], load: (item: T) => Promise<R>, atOnce = 3): Promise<R[]> {
  const answers: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      answers[i] = await load(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  return answers;
}

/** Each lesson's link as the page's lesson list gives it, in the path's order (a page of `baseUrl`, closed after). */
export async function listedLessons(page: Page): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  await page.locator("#lesson-list li").first().waitFor({ state: "attached" });
  for (const item of await page.locator("#lesson-list li").all()) {
    links.set((await item.getAttribute("data-lesson")) ?? "", (await item.locator("a.lesson-title").getAttribute("href")) ?? "");
  }
  await page.close();
  return links;
}

/**
 * Waits until a full (not quick) measurement of `lab` for the current
 * controls is on screen, and the page's later parts (charts, panels, which
 * load after the first full measurement) have arrived.
 */
export async function settled(page: Page, lab: "read" | "write" = "read"): Promise<void> {
  await page.waitForFunction(
    (lab) => {
      const results = document.getElementById("results");
      const badge = document.querySelector(".status .badge");
      const rows = lab === "write" ? "#write-results table.results tbody tr" : "#table table.results tbody tr";
      return (
        document.body.dataset["lab"] === lab &&
        results?.getAttribute("aria-busy") === "false" &&
        !results.classList.contains("stale") &&
        results.classList.contains("has-report") &&
        badge?.textContent?.startsWith("full measurement") === true &&
        document.querySelectorAll(rows).length > 0 &&
        performance.getEntriesByName("buflab:parts").length > 0
      );
    },
    lab,
    { timeout: 60_000 },
  );
}

/**
 * Types `value` into the text field labelled `name` and presses Enter, as a
 * person would, then waits for the link to carry `inLink` and for the full
 * measurement of the new settings (`settled`).
 */
export async function enter(page: Page, name: string, value: string, inLink: string, lab: "read" | "write" = "read"): Promise<void> {
  const field = page.getByRole("textbox", { name });
  await field.fill(value);
  await field.press("Enter");
  await page.waitForFunction((part) => location.hash.includes(part), inLink);
  await settled(page, lab);
}

/** Opens the form's "More settings" (stream, workload, pool, I/O model), as a person would. */
export async function openMoreSettings(page: Page, form = "#controls"): Promise<void> {
  const more = page.locator(`${form} details.more-settings`);
  if (!(await more.evaluate((d) => (d as HTMLDetailsElement).open))) await more.locator("summary").click();
}

/** A reader's metric from the results table (its exact value, not the formatted text). */
export async function metric(page: Page, reader: string, name: string): Promise<number> {
  const cell = page.locator(`table.results tbody tr[data-reader="${reader}"] td[data-metric="${name}"]`);
  return Number(await cell.getAttribute("data-value"));
}

/**
 * Clicks `selector` and returns the file it downloads (the context needs
 * `acceptDownloads`). Read as a stream: `download.path()` throws on a
 * connected browser.
 */
export async function downloaded(page: Page, selector: string): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return { download, bytes: Buffer.concat(chunks) };
}

/** A PNG's size from its header (IHDR: width at bytes 16–19, height at 20–23). */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * An exported PNG decoded in the page: its first pixel, its size, and how
 * many pixels differ from the corner's in the title band (the top 50 rows)
 * and the footer band (the bottom 70: the settings and the link).
 */
export function inkOf(page: Page, png: Buffer): Promise<{ corner: number[]; width: number; height: number; title: number; footer: number }> {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext("2d")!;
    ctx.drawImage(img, 0, 0);
    // Pixels unlike the corner's in a band: text or lines drawn there.
    const inked = (y0: number, y1: number): number => {
      const band = ctx.getImageData(0, y0, img.width, y1 - y0).data;
      let n = 0;
      for (let i = 0; i < band.length; i += 4) if (Math.abs(band[i]! - band[0]!) > 60) n++;
      return n;
    };
    return {
      corner: [...ctx.getImageData(0, 0, 1, 1).data],
      width: img.width,
      height: img.height,
      title: inked(0, 50),
      footer: inked(img.height - 70, img.height),
    };
  }, png.toString("base64"));
}
