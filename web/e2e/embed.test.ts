// Embedding, as a slide or a blog post does it: the README's <iframe>
// example loaded into a host page at 640×360 and 320×180 shows its charts
// inside the frame, a headline and "Open in BufLab" (the same settings
// without `embed`), and no form control; a lesson's sweep embeds the same
// way; "Copy embed code" on the full page gives the <iframe>.
// Screenshots (browser.ts `shot`): embed-640x360.png, embed-320x180.png.

import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The fragment of the README's <iframe> example, the one a reader copies. */
const README_EMBED = /<iframe src="https:\/\/USER\.github\.io\/buflab\/#([^"]+)"/.exec(readme)?.[1] ?? "";

const pages = usePages({ permissions: ["clipboard-read", "clipboard-write"] });

// The blog: another origin (its own port on loopback; Chromium refuses a
// loopback frame in a page it cannot place on the local network) serving a
// page with the iframe; `?frag=…&w=…&h=…` say what it embeds.
let blog: Server;
let blogUrl = "";
beforeAll(async () => {
  blog = createServer((request, response) => {
    const query = new URL(request.url ?? "/", "http://blog").searchParams;
    const src = `${baseUrl}#${query.get("frag") ?? ""}`.replace(/"/g, "&quot;");
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><title>A post</title><body style="margin:20px"><iframe src="${src}" width="${query.get("w")}" height="${query.get("h")}" style="border:0" title="BufLab"></iframe></body>`,
    );
  });
  await new Promise<void>((resolve) => blog.listen(0, "127.0.0.1", resolve));
  const address = blog.address();
  blogUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/post.html`;
});
afterAll(() => new Promise<void>((resolve) => blog.close(() => resolve())));

/** A blog post holding `fragment` in an iframe of `width`×`height`; the frame once its results are drawn. */
async function host(fragment: string, width: number, height: number): Promise<{ page: Page; frame: Frame }> {
  const query = new URLSearchParams({ frag: fragment, w: String(width), h: String(height) });
  const page = await pages.open(`${blogUrl}?${query}`, width + 40, height + 40);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  if (!frame) throw new Error("no iframe");
  await frame.waitForFunction(
    () =>
      document.body.dataset["embed"] !== undefined &&
      (document.getElementById("headline")?.textContent ?? "") !== "" &&
      document.querySelector<HTMLElement>(".status")?.dataset["stage"] === "full",
    undefined,
    { timeout: 60_000 },
  );
  return { page, frame };
}

/** Boxes (in frame pixels) of what a person sees in the frame. */
async function seen(frame: Frame, chartSelector: string) {
  return frame.evaluate((selector) => {
    const box = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, w: r.width, h: r.height };
    };
    const visible = (e: Element) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
    };
    return {
      viewport: { w: innerWidth, h: innerHeight },
      charts: [...document.querySelectorAll(selector)].filter(visible).map(box),
      controls: [...document.querySelectorAll("input, select, textarea, button")].filter(visible).map((e) => e.outerHTML.slice(0, 80)),
      open: [...document.querySelectorAll("a.embed-open")].filter(visible).map((a) => ({ ...box(a), href: (a as HTMLAnchorElement).href, target: (a as HTMLAnchorElement).target })),
      headline: document.getElementById("headline")?.textContent ?? "",
      scroll: { w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight },
    };
  }, chartSelector);
}

function inside(box: { x: number; y: number; w: number; h: number }, viewport: { w: number; h: number }): boolean {
  return box.x >= 0 && box.y >= 0 && box.x + box.w <= viewport.w + 0.5 && box.y + box.h <= viewport.h + 0.5;
}

describe("embed", () => {
  it("the README has an embed example with embed= in its link", () => {
    expect(README_EMBED).toMatch(/&embed=reads,time$/);
  });

  for (const [width, height] of [
    [640, 360],
    [320, 180],
  ] as const) {
    it(`the README's example at ${width}×${height}: its charts in the frame, a headline, Open in BufLab, no form controls`, async () => {
      const { page, frame } = await host(README_EMBED, width, height);
      // chart.js follows its box a frame later (ResizeObserver): let the layout settle.
      await expect
        .poll(async () => {
          const v = await seen(frame, "#charts figure.chart canvas");
          return v.charts.length === 2 && v.charts.every((c) => inside(c, v.viewport));
        }, { timeout: 5_000 })
        .toBe(true);
      const view = await seen(frame, "#charts figure.chart canvas");
      await page.screenshot({ path: shot(`embed-${width}x${height}.png`), clip: { x: 20, y: 20, width, height } });
      expect(view.viewport).toEqual({ w: width, h: height });
      // reads and time: two charts, each whole inside the frame and big enough to read.
      expect(view.charts.length).toBe(2);
      for (const chart of view.charts) {
        expect(inside(chart, view.viewport), JSON.stringify(chart)).toBe(true);
        expect(chart.h).toBeGreaterThanOrEqual(40);
      }
      expect(view.controls).toEqual([]);
      expect(view.headline.length).toBeGreaterThan(10);
      expect(view.open.length).toBe(1);
      expect(inside(view.open[0]!, view.viewport)).toBe(true);
      // The full page with the same settings, without embed, in a new tab.
      expect(view.open[0]!.href).toBe(`${baseUrl}#${README_EMBED.replace(/&embed=[^&]*/, "")}`);
      expect(view.open[0]!.target).toBe("_blank");
      // Nothing to scroll sideways.
      expect(view.scroll.w).toBeLessThanOrEqual(width);
      await page.close();
    });
  }

  it("a lesson's sweep embeds: its charts, no sweep controls", async () => {
    const lesson = "v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=1&sys=150&rd=std,chained&wl=fixed&sweep=cap&from=16&to=64K&lesson=buffer-size&embed=sweep";
    const { page, frame } = await host(lesson, 640, 360);
    await frame.waitForFunction(() => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done", undefined, {
      timeout: 90_000,
    });
    await expect
      .poll(async () => {
        const v = await seen(frame, "#sweep figure.sweep-chart canvas");
        return v.charts.length === 4 && v.charts.every((c) => inside(c, v.viewport));
      }, { timeout: 5_000 })
      .toBe(true);
    const view = await seen(frame, "#sweep figure.sweep-chart canvas");
    expect(view.charts.length).toBe(4);
    for (const chart of view.charts) expect(inside(chart, view.viewport), JSON.stringify(chart)).toBe(true);
    expect(view.controls).toEqual([]);
    expect(view.open[0]!.href).toContain("&lesson=buffer-size");
    expect(view.open[0]!.href).not.toContain("embed=");
    await page.close();
  });

  for (const [width, height] of [[640, 360], [320, 180]] as const) {
    it(`a two-axis sweep embeds as its heatmap at ${width}×${height}`, async () => {
      const grid = "v=1&len=64K&chunk=64-512&rd=std,chained&sweep=cap,rs&from=64,1&to=1K,8&embed=sweep";
      const { page, frame } = await host(grid, width, height);
      await frame.waitForFunction(() => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done", undefined, {
        timeout: 90_000,
      });
      await expect.poll(async () => (await seen(frame, "#sweep-heatmap")).charts.length, { timeout: 5_000 }).toBe(1);
      const view = await seen(frame, "#sweep-heatmap");
      expect(inside(view.charts[0]!, view.viewport), JSON.stringify(view)).toBe(true);
      await expect(frame.locator("#sweep-heatmap").getAttribute("data-cells")).resolves.toBe("20");
      expect(view.controls).toEqual([]);
      expect(view.open[0]!.href).not.toContain("embed=");
      await page.screenshot({ path: shot(`embed-grid-${width}x${height}.png`) });
      await page.close();
    });
  }

  it("Copy embed code on the full page gives the iframe for the charts on screen", async () => {
    const page = await pages.open(`${baseUrl}#v=1&len=256K&chunk=poor&rd=unbuffered,std`, 1280, 900);
    await settled(page);
    await page.click("#embed-copy");
    await expect.poll(() => page.locator("#embed-status").textContent()).toMatch(/Copied|Selected/);
    const code = await page.locator("#embed-code").inputValue();
    expect(code).toMatch(/^<iframe src="[^"]+#v=1&amp;len=256K&amp;chunk=poor&amp;.*&amp;embed=reads,time" width="640" height="360" /);
    expect(code).toContain('title="BufLab: reads, time"');
    await page.close();
  });
});
