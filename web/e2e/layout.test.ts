// What matters first, checked by position as a person sees the page:
//
// - at 1280×800 the buffer-capacity control and a chart are on the first screen;
// - after opening the buffer-size lesson's link at 1280×720, its sweep chart,
//   with the knee drawn, is on screen;
// - in presenter mode, for every lesson at 1280×720 and 1920×1080, its points
//   and the chart it names are on screen, its headline takes at most three
//   lines, and no text (charts included) is below 16 px;
// - at 360 px a chart starts within the first screen and a half;
// - nothing overflows sideways from 360 to 1920 px, the results table included;
// - the result view is in the link, the About panel credits the four articles,
//   and an unreadable link says so.
//
// Screenshots of each: layout-*.png (browser.ts `shot`).

import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { inTurns, settled, usePages } from "./browser";
import { chartOn } from "./lesson-charts";
import type { Embed } from "../src/engine/types.gen";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");

const { open } = usePages({ reducedMotion: "reduce" });

type Box = { x: number; y: number; width: number; height: number };

/** The element's box in the viewport (it must be rendered). */
async function boxOf(page: Page, selector: string): Promise<Box> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not rendered`);
  return box;
}

/** True when all of `box` lies inside a viewport of `width`×`height` at the current scroll. */
function onScreen(box: Box, width: number, height: number): boolean {
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
}

/** The lesson link as the page lists it. */
async function lessonLink(page: Page, id: string): Promise<string> {
  const url = await page.locator(`#lesson-list li[data-lesson="${id}"] input.lesson-link`).inputValue();
  return new URL(url).hash;
}

/** Waits until a lesson's results are in: its sweep done, or its lab's full measurement (the timeline view's too). */
async function lessonSettled(page: Page): Promise<void> {
  await page.locator("#lesson-card[data-lesson]:not([data-lesson=''])").waitFor({ timeout: 30_000 });
  const sweep = await page.evaluate(() => location.hash.includes("sweep="));
  if (sweep) {
    await page.waitForFunction(() => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done", undefined, {
      timeout: 180_000,
    });
    return;
  }
  await settled(page, (await page.evaluate(() => location.hash.includes("lab=write"))) ? "write" : "read");
}

/** Every visible element with its own text whose type is below `px`, and every visible canvas drawing text below it. */
async function smallText(page: Page, px: number): Promise<string[]> {
  return page.evaluate((px) => {
    const small: string[] = [];
    const visible = (el: Element): boolean => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
    };
    for (const el of document.body.querySelectorAll("*")) {
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim() !== "");
      if (!ownText || !visible(el) || el.closest(".visually-hidden, [popover]:not(:popover-open)")) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < px) small.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} “${(el.textContent ?? "").trim().slice(0, 30)}” ${size}px`);
    }
    for (const canvas of document.querySelectorAll("canvas")) {
      if (!visible(canvas)) continue;
      const size = Number(canvas.dataset["fontPx"]);
      if (!(size >= px)) small.push(`canvas “${canvas.getAttribute("aria-label")?.slice(0, 30)}” ${size}px`);
    }
    return small;
  }, px);
}

describe("what is on the first screen", () => {
  it("at 1280×800 the capacity control and a chart are on the first screen", async () => {
    const page = await open(baseUrl, 1280, 800);
    await settled(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const capacity = page.getByRole("slider", { name: "Buffer capacity" });
    expect(onScreen((await capacity.boundingBox())!, 1280, 800)).toBe(true);
    expect(onScreen((await page.getByRole("textbox", { name: "Buffer capacity" }).boundingBox())!, 1280, 800)).toBe(true);
    expect(onScreen(await boxOf(page, "#charts figure.chart canvas"), 1280, 800)).toBe(true);
    // Measure, Stop and Copy link stay in view when the page scrolls.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    for (const name of ["Measure again", "Stop", "Copy link"]) {
      expect(onScreen((await page.getByRole("button", { name, exact: true }).boundingBox())!, 1280, 800), name).toBe(true);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shot("layout-1280x800.png") });
    await page.close();
  });

  it("after opening the buffer-size lesson's link at 1280×720, its sweep chart with the knee is on screen", async () => {
    const start = await open(baseUrl, 1280, 720);
    const link = await lessonLink(start, "buffer-size");
    await start.close();
    const page = await open(`${baseUrl}${link}`, 1280, 720);
    await page.waitForFunction(() => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done", undefined, {
      timeout: 240_000,
    });
    const chart = "#sweep-heatmap";
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(onScreen(await boxOf(page, chart), 1280, 720)).toBe(true);
    // The knees the lesson talks about are drawn on that chart: the largest piece, then the kernel's 64 KiB.
    await expect(page.locator(chart).getAttribute("data-knees")).resolves.toMatch(/:4096,.*:65536$/);
    // And the lesson's points beside it.
    expect(onScreen(await boxOf(page, "#lesson-card .lesson-points"), 1280, 720)).toBe(true);
    await page.screenshot({ path: shot("layout-lesson-sweep-1280x720.png") });
    await page.close();
  });

  // Every lesson, as a projector shows it: the chart its point is about (the first of its `charts` in the
  // catalog) and its points on the first screen at 1280×720 and at 1920×1080, the headline within three
  // lines (counted by position: its height over its line height), and no text under 16 px.
  it("in presenter mode every lesson's named chart, points and a headline of at most three lines fit the first screen at 1280×720 and 1920×1080", async () => {
    const start = await open(baseUrl, 1280, 720);
    const links = new Map<string, string>();
    await start.locator("#lesson-list li").first().waitFor({ state: "attached" });
    for (const item of await start.locator("#lesson-list li").all()) {
      const id = (await item.getAttribute("data-lesson")) ?? "";
      links.set(id, await lessonLink(start, id));
    }
    await start.close();
    expect(links.size).toBe(11);
    // Three lessons at a time (browser.ts `inTurns`).
    await inTurns([...links], async ([id, link]) => {
      const page = await open(`${baseUrl}${link}&present=on`, 1280, 720);
      await lessonSettled(page);
      const named = await page.evaluate(() => document.body.dataset["lessonCharts"]?.split(" ")[0] ?? "") as Embed;
      const main = await chartOn(page, named);
      for (const [width, height] of [
        [1280, 720],
        [1920, 1080],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        const at = `${id} at ${width}×${height}`;
        await page.screenshot({ path: shot(`layout-presenter-${id}-${width}x${height}.png`) });
        expect.soft(await page.evaluate(() => window.scrollY), at).toBe(0);
        expect.soft(onScreen(await boxOf(page, main), width, height), `${at}: the ${named} chart`).toBe(true);
        expect.soft(onScreen(await boxOf(page, "#lesson-card .lesson-points"), width, height), `${at}: points`).toBe(true);
        const lines = await page.locator("#headline").evaluate((e) => {
          const box = e.getBoundingClientRect();
          return Math.round(box.height / parseFloat(getComputedStyle(e).lineHeight));
        });
        expect(lines, `${at}: headline lines`).toBeGreaterThan(0);
        expect.soft(lines, `${at}: headline lines`).toBeLessThanOrEqual(3);
        expect.soft(await smallText(page, 16), at).toEqual([]);
      }
      await page.close();
    });
  }, 600_000);

  it("at 360 px the headline and a chart come before the form, the chart within a screen and a half", async () => {
    const page = await open(baseUrl, 360, 780);
    await settled(page);
    const chart = await boxOf(page, "#charts figure.chart canvas");
    expect(chart.y).toBeLessThan(780 * 1.5);
    const headline = await boxOf(page, "#headline");
    const settings = await boxOf(page, "#settings");
    expect(headline.y).toBeLessThan(chart.y);
    expect(chart.y).toBeLessThan(settings.y);
    // The settings are reachable from the bar at the bottom, which stays in view.
    const bar = page.getByRole("button", { name: "Settings" });
    expect(onScreen((await bar.boundingBox())!, 360, 780)).toBe(true);
    await bar.click();
    await page.waitForFunction(() => Math.abs(document.getElementById("settings")!.getBoundingClientRect().top) < 4);
    expect(onScreen((await page.getByRole("slider", { name: "Buffer capacity" }).boundingBox())!, 360, 780)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shot("layout-360.png") });
    await page.close();
  });

  it("on a 390×844 phone the colour scheme shares the name's line, so the headline starts in the top three quarters", async () => {
    const page = await open(baseUrl, 390, 844);
    await settled(page);
    const name = await boxOf(page, ".masthead h1");
    const scheme = await boxOf(page, "#theme");
    const tagline = await boxOf(page, ".tagline");
    // Beside the name, on its line, inside the screen, and above the tagline.
    const nameEnd = await page.locator(".masthead h1").evaluate((e) => {
      const text = document.createRange();
      text.selectNodeContents(e);
      return text.getBoundingClientRect().right;
    });
    expect(scheme.x).toBeGreaterThan(nameEnd);
    expect(scheme.y).toBeLessThan(name.y + name.height);
    expect(scheme.y + scheme.height).toBeLessThanOrEqual(tagline.y + 1);
    expect(onScreen(scheme, 390, 844)).toBe(true);
    // It had a line of its own, and the headline started at 652 px.
    expect((await boxOf(page, "#headline")).y).toBeLessThan(844 * 0.75);
    await page.close();
  });

  it("nothing overflows sideways from 360 to 1920 px, the results tables included", async () => {
    const start = await open(baseUrl, 1280, 900);
    const sweepLesson = await lessonLink(start, "buffer-size");
    await start.close();
    const links = ["", "#v=1&lab=write", sweepLesson.replace("&lesson=", "&view=run&lesson="), "#v=1&len=1M&chunk=worst&rd=unbuffered,std,chained&wl=frames&view=timeline"];
    for (const link of links) {
      const page = await open(`${baseUrl}${link}`, 1280, 900);
      await settled(page, link.includes("lab=write") ? "write" : "read");
      for (const width of [360, 390, 600, 768, 900, 1024, 1280, 1440, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        // Charts resize on a frame after the window does.
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        const found = await page.evaluate(() => {
          const root = document.documentElement;
          const wide = [`page ${root.scrollWidth - root.clientWidth}px`].filter(() => root.scrollWidth > root.clientWidth);
          for (const box of document.querySelectorAll<HTMLElement>(".table-wrap .table-scroll")) {
            if (box.offsetParent !== null && box.scrollWidth > box.clientWidth + 1) wide.push(`table ${box.scrollWidth - box.clientWidth}px`);
          }
          return wide;
        });
        expect(found, `${link || "defaults"} at ${width}px`).toEqual([]);
      }
      await page.close();
    }
  });
});

describe("views, words and links", () => {
  it("the view is part of the link: the tabs write it, a link opens it, links without it keep working", async () => {
    const page = await open(`${baseUrl}#v=1&len=256K&rd=unbuffered,std`, 1280, 900);
    await settled(page);
    await expect(page.locator("#view-tab-run").getAttribute("aria-selected")).resolves.toBe("true");
    expect(new URL(page.url()).hash).not.toContain("view=");
    await page.locator("#view-tab-sweep").click();
    await page.waitForFunction(() => location.hash.endsWith("&view=sweep"));
    await expect(page.locator("#sweep").isVisible()).resolves.toBe(true);
    await expect(page.locator("#charts").isVisible()).resolves.toBe(false);
    // A display key: no new run, the results stay current.
    expect(await page.locator("#results").getAttribute("class")).not.toContain("stale");
    // Keyboard: the arrow moves to the next view and chooses it.
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => location.hash.endsWith("&view=timeline"));
    await page.locator("#timeline").waitFor({ state: "visible" });
    // The link opens the view it names.
    const again = await open(page.url(), 1280, 900);
    await settled(again);
    await expect(again.locator("#view-tab-timeline").getAttribute("aria-selected")).resolves.toBe("true");
    await again.locator("#timeline").waitFor({ state: "visible" });
    await again.close();
    await page.close();
  });

  it("the About panel credits the four articles, and lies over the page", async () => {
    const page = await open(baseUrl, 1280, 900);
    await settled(page);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.getByRole("button", { name: "About" }).click();
    const panel = page.locator("#about-panel");
    await panel.waitFor({ state: "visible" });
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(height);
    const credits = panel.locator(".credits li");
    await expect(credits.count()).resolves.toBe(4);
    const text = (await panel.textContent()) ?? "";
    for (const title of [
      "Rust's BufRead, And When To Use It",
      "Reading files quickly in Rust",
      "BufReader: Zero-Copy Network Reading with Advanced Memory Management",
      "in-memory std::io::Write cursors",
    ]) {
      expect(text).toContain(title);
    }
    expect(await panel.locator("a").evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))).toEqual([
      "https://github.com/brundonsmith/read-demo",
      "https://boyter.org/",
    ]);
    await panel.screenshot({ path: shot("layout-about.png") });
    await page.keyboard.press("Escape");
    await expect(panel.isVisible()).resolves.toBe(false);
    // The page names articles, never "seed NNN".
    expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/seed 00\d/i);
    await page.close();
  });

  it("the status explains the quick estimate, the timer and isolation where they appear, and the note gives the native command", async () => {
    const page = await open(`${baseUrl}#v=1&len=256K&rd=unbuffered,std`, 1280, 900);
    await settled(page);
    await page.getByRole("button", { name: "What the measurement and timer mean" }).click();
    const about = page.locator("#status-about");
    await about.waitFor({ state: "visible" });
    await expect(about.textContent()).resolves.toMatch(/Full measurement: .*median of \d+ samples.*Timer: .*ticks in 5 µs steps\. Isolated: /);
    await page.keyboard.press("Escape");
    await expect(page.locator("#native-command").textContent()).resolves.toBe(
      `cargo run --release -p buflab -- '${new URL(page.url()).hash}'`,
    );
    await expect(page.locator("#native").textContent()).resolves.toMatch(/Measured: CPU time, in this tab\. Modelled: I\/O time, as source reads × 150 ns/);
    await page.close();
  });

  it("a link that cannot be read at all says so in a notice", async () => {
    const page = await open(`${baseUrl}?unreadable#%%%%&&&===`, 1280, 900);
    await settled(page);
    const notice = page.locator('.notice[data-key="link"]');
    await expect(notice.textContent()).resolves.toMatch(/nothing in '%%%%&&&===' is a BufLab setting/);
    await page.close();
  });
});
