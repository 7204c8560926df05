// The built page in headless Chromium, as a person would use it: the default
// experiment appears without a click, controls change the link and the
// numbers, a copied link reproduces the counts, a broken link is explained,
// and nothing is logged as an error (a CSP violation would be).

import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { enter, metric, openMoreSettings, settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");

/** Exact by the engine's definition: one source read per byte, plus the final read that returns 0. */
const DEFAULT_UNBUFFERED_SOURCE_READS = 1048577;

function fragment(page: Page): string {
  return new URL(page.url()).hash.replace(/^#/, "");
}

const { open } = usePages({ permissions: ["clipboard-read", "clipboard-write"] });

describe("BufLab page", () => {
  it("shows the default experiment's results without a click, cross-origin isolated", async () => {
    const page = await open(baseUrl);
    await settled(page);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await metric(page, "unbuffered", "source_reads")).toBe(DEFAULT_UNBUFFERED_SOURCE_READS);
    const std = await metric(page, "std", "source_reads");
    expect(std).toBeGreaterThan(0);
    expect(std).toBeLessThan(DEFAULT_UNBUFFERED_SOURCE_READS / 50);
    expect(await metric(page, "unbuffered", "app_reads")).toBe(DEFAULT_UNBUFFERED_SOURCE_READS);
    expect(await metric(page, "std", "cpu_median_ns")).toBeGreaterThan(0);
    // The engine measured with the worker's fine timer.
    await expect(page.locator(".status .timer").getAttribute("data-isolated")).resolves.toBe("true");
    await expect(page.locator(".status .timer").textContent()).resolves.toMatch(/isolated/);
    await expect(page.locator(".check-line").textContent()).resolves.toMatch(/Correct/);
    // The link was written in canonical form.
    expect(fragment(page)).toMatch(/^v=1&len=1M&/);
    expect(fragment(page)).toContain("rd=unbuffered,std");
    await page.close();
  });

  it("a slider step and a typed size change the link and the numbers", async () => {
    const page = await open(baseUrl);
    await settled(page);
    const before = fragment(page);

    const readSize = page.getByRole("slider", { name: "Read size" });
    await readSize.focus();
    await readSize.press("ArrowRight");
    await page.waitForFunction(() => location.hash.includes("rs=2&"));
    await settled(page);
    expect(fragment(page)).not.toBe(before);
    // Two bytes per read: half the reads, plus the final one.
    expect(await metric(page, "unbuffered", "source_reads")).toBe(524289);
    await expect(page.getByRole("textbox", { name: "Read size" }).inputValue()).resolves.toBe("2");

    // A 16-byte buffer is smaller than every chunk (64–512 B), so each refill
    // gets exactly 16 bytes: len / 16 source reads plus the final one.
    await enter(page, "Buffer capacity", "16", "cap=16&");
    expect(await metric(page, "std", "source_reads")).toBe((1 << 20) / 16 + 1);
    await page.close();
  });

  it("async readers: the Pending control appears with them, polls show beside source reads, read_to_end's differences are explained", async () => {
    const page = await open(`${baseUrl}#v=1&len=1M&chunk=file&seed=42&cap=8K&rs=1&sys=150&rd=std,tokio,futures&wl=to_end`);
    await settled(page);
    expect([await metric(page, "std", "source_reads"), await metric(page, "tokio", "source_reads"), await metric(page, "futures", "source_reads")]).toEqual([2, 2, 2]);
    expect(await metric(page, "tokio", "polls")).toBe(1);
    await expect(page.locator('td[data-metric="polls"]').first().textContent()).resolves.toBe("–");
    // One sentence per reader that differs from std here, from the engine's schema.
    const differences = page.locator(".reader-differences li");
    await expect(differences.count()).resolves.toBe(2);
    await expect(differences.nth(0).textContent()).resolves.toMatch(/^tokio BufReader: read_to_end: .*17 source reads against std's 20\. From a file both take 2, .*\.$/);
    await expect(differences.nth(1).textContent()).resolves.toMatch(/^futures BufReader: .*reallocation to 2 MiB/);

    // The Pending share sits behind More settings, with the async readers' group.
    await openMoreSettings(page);
    await enter(page, "Not ready (Pending) before", "100", "pend=100");
    // Closed, More settings still names the value in its summary line.
    await expect(page.locator("#controls details.more-settings .more-values").textContent()).resolves.toContain("Pending before 100% of source reads");
    // Every source read waits once: one more poll each, never a source read.
    expect(await metric(page, "tokio", "source_reads")).toBe(2);
    expect(await metric(page, "tokio", "polls")).toBe(3);
    await expect(page.locator('tr[data-reader="tokio"] td[data-metric="polls"] .detail').textContent()).resolves.toBe("2 Pending");

    await page.close();

    // Without an async reader the control and the sentences are not shown.
    const blocking = await open(`${baseUrl}#v=1&len=1M&chunk=file&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=to_end`);
    await settled(blocking);
    await openMoreSettings(blocking);
    await expect(blocking.getByRole("textbox", { name: "Not ready (Pending) before" }).isHidden()).resolves.toBe(true);
    await expect(blocking.locator("#controls details.more-settings .more-values").textContent()).resolves.not.toContain("Pending");
    await expect(blocking.locator(".reader-differences").isHidden()).resolves.toBe(true);
    await blocking.close();
  });

  it("choosing a chunk model from the list changes the link and the counts", async () => {
    const page = await open(baseUrl);
    await settled(page);
    await page.getByRole("combobox", { name: "Chunking" }).selectOption("file");
    await page.waitForFunction(() => location.hash.includes("chunk=file"));
    await settled(page);
    // A file answers whole requests: one source read per 8 KiB buffer fill, plus the final one.
    expect(await metric(page, "std", "source_reads")).toBe((1 << 20) / 8192 + 1);
    await expect(page.getByRole("slider", { name: "Smallest chunk (a)" }).isHidden()).resolves.toBe(true);
    await page.close();
  });

  it("dragging a slider gives quick estimates, then a full measurement once released", async () => {
    const page = await open(baseUrl);
    await settled(page);
    await openMoreSettings(page);
    const slider = page.getByRole("slider", { name: "Stream length" });
    const box = await slider.boundingBox();
    if (!box) throw new Error("slider not visible");
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.62, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.3, y, { steps: 6 });
    // Still held: only quick runs may happen.
    await page.waitForFunction(() => document.querySelector(".status .badge")?.textContent?.startsWith("quick estimate") === true, undefined, {
      timeout: 30_000,
    });
    await page.mouse.move(box.x + 2, y, { steps: 4 });
    await page.mouse.up();
    await settled(page);
    // All the way left is the schema's smallest stream length.
    const length = await page.getByRole("textbox", { name: "Stream length" }).inputValue();
    expect(fragment(page)).toContain(`len=${length}&`);
    const bytes = await metric(page, "unbuffered", "bytes");
    expect(await metric(page, "unbuffered", "source_reads")).toBe(bytes + 1);
    await page.close();
  });

  it("Stop ends a long measurement, and the fresh engine that replaces it works", async () => {
    const page = await open(`${baseUrl}#v=1&len=64M&chunk=worst&rs=1`);
    await page.waitForFunction(() => document.getElementById("results")?.getAttribute("aria-busy") === "true");
    const stop = page.getByRole("button", { name: "Stop" });
    await stop.click();
    await page.waitForFunction(() => document.getElementById("results")?.getAttribute("aria-busy") === "false");
    await expect(stop.isDisabled()).resolves.toBe(true);
    await expect(page.locator(".alert").isHidden()).resolves.toBe(true);
    await expect(page.locator(".status .activity").textContent()).resolves.toBe("Stopped");
    await expect(page.locator("#placeholder").textContent()).resolves.toContain("Stopped");
    await page.getByRole("button", { name: "Reset" }).click();
    await settled(page);
    expect(await metric(page, "unbuffered", "source_reads")).toBe(DEFAULT_UNBUFFERED_SOURCE_READS);
    await page.close();
  });

  it("an unreadable size is refused at the field, with the link untouched", async () => {
    const page = await open(baseUrl);
    await settled(page);
    await openMoreSettings(page);
    const before = fragment(page);
    const length = page.getByRole("textbox", { name: "Stream length" });
    await length.fill("lots");
    await length.press("Enter");
    await expect(length.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(page.locator(".field-note.error").first().textContent()).resolves.toContain("not a size");
    expect(fragment(page)).toBe(before);
    await page.close();
  });

  it("the copied link opens the same experiment with the same counts", async () => {
    const page = await open(`${baseUrl}#v=1&len=256K&chunk=good&seed=7&cap=4K&rs=16&sys=300&rd=unbuffered,std&wl=fixed`);
    await settled(page);
    await page.getByRole("button", { name: "Copy link" }).click();
    const field = page.getByRole("textbox", { name: "Link to this experiment" });
    const copied = await field.inputValue();
    expect(copied).toContain("len=256K");
    expect(copied).toContain("seed=7");
    const counts = {
      unbuffered: await metric(page, "unbuffered", "source_reads"),
      std: await metric(page, "std", "source_reads"),
      copied: await metric(page, "std", "bytes_copied"),
    };
    expect(counts.unbuffered).toBe(256 * 1024 / 16 + 1);

    const again = await open(copied);
    await settled(again);
    expect(again.url()).toBe(copied);
    expect({
      unbuffered: await metric(again, "unbuffered", "source_reads"),
      std: await metric(again, "std", "source_reads"),
      copied: await metric(again, "std", "bytes_copied"),
    }).toEqual(counts);
    await page.close();
    await again.close();
  });

  it("a malformed link shows notices naming the keys and runs the defaults", async () => {
    const page = await open(`${baseUrl}#v=1&cap=banana&len=-5`);
    await settled(page);
    const notices = page.locator(".notice-list .notice");
    await expect(notices.count()).resolves.toBeGreaterThanOrEqual(2);
    await expect(page.locator('.notice[data-key="cap"]').textContent()).resolves.toMatch(/cap.*banana/);
    await expect(page.locator('.notice[data-key="len"]').textContent()).resolves.toContain("len");
    await openMoreSettings(page);
    await expect(page.getByRole("textbox", { name: "Buffer capacity" }).inputValue()).resolves.toBe("8K");
    await expect(page.getByRole("textbox", { name: "Stream length" }).inputValue()).resolves.toBe("1M");
    expect(await metric(page, "unbuffered", "source_reads")).toBe(DEFAULT_UNBUFFERED_SOURCE_READS);
    // The address now holds the canonical link of what actually ran.
    expect(fragment(page)).toContain("cap=8K");
    expect(fragment(page)).not.toContain("banana");
    await page.close();
  });

  it("markup in a link is shown as text, never run", async () => {
    const page = await open(`${baseUrl}#v=1&cap=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E`);
    await settled(page);
    await expect(page.locator('.notice[data-key="cap"]').textContent()).resolves.toContain("<img");
    await expect(page.locator(".notice img").count()).resolves.toBe(0);
    await page.close();
  });

  it("frames through the chained reader copy nothing, and turning its pool off makes every block an allocation", async () => {
    const page = await open(`${baseUrl}#v=1&len=256K&chunk=worst&seed=2&cap=8K&rs=1&sys=150&rd=std,chained&wl=frames`);
    await settled(page);
    expect(await metric(page, "chained", "bytes_copied")).toBe(0);
    expect(await metric(page, "std", "bytes_copied")).toBe(256 * 1024);
    const stdAllocations = await metric(page, "std", "allocations");
    expect(stdAllocations).toBeGreaterThan(100); // a Vec per frame
    expect(await metric(page, "chained", "allocations")).toBeLessThanOrEqual(4);
    await expect(page.locator("figure.chart", { hasText: "Allocations" }).locator("canvas").getAttribute("aria-label")).resolves.toMatch(
      /chained zero-copy [1-4] \(/,
    );
    await expect(page.locator("figure.chart", { hasText: "Allocations" }).locator(".chart-note").textContent()).resolves.toMatch(
      /handed out again by the pool/,
    );

    await openMoreSettings(page);
    await page.getByRole("checkbox", { name: "Block pool" }).uncheck();
    await page.waitForFunction(() => location.hash.includes("pool=off"));
    await settled(page);
    const blocks = await metric(page, "chained", "pool_blocks");
    expect(blocks).toBeGreaterThan(100);
    expect(await metric(page, "chained", "allocations")).toBeGreaterThan(blocks);
    expect(await metric(page, "std", "allocations")).toBe(stdAllocations);
    await expect(page.locator("figure.chart", { hasText: "Allocations" }).locator(".chart-note").textContent()).resolves.toMatch(
      /pool off: each of its [\d,]+ blocks was a fresh allocation/,
    );
    await expect(page.locator(".check-line").textContent()).resolves.toMatch(/Correct/);
    await page.close();
  });

  it("a workload shows only its own settings, and the link carries them", async () => {
    const page = await open(baseUrl);
    await settled(page);
    await openMoreSettings(page);
    const workload = page.getByRole("combobox", { name: "Workload" });
    await workload.selectOption("lines");
    await page.waitForFunction(() => location.hash.includes("wl=lines"));
    await expect(page.getByRole("textbox", { name: "Shortest line" }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("textbox", { name: "Read size" }).isHidden()).resolves.toBe(true);
    await enter(page, "Longest line", "40", "line=8-40");
    await expect(page.locator(".field-note.look").textContent()).resolves.toMatch(/^Look for:/);

    await workload.selectOption("scan");
    await page.waitForFunction(() => location.hash.includes("wl=scan"));
    await expect(page.getByRole("textbox", { name: "Shortest line" }).isHidden()).resolves.toBe(true);
    await enter(page, "NUL position", "1000", "nul=1000");
    // Everyone stops at the NUL: 1000 bytes before it.
    expect(await metric(page, "std", "bytes")).toBe(1000);
    expect(await metric(page, "std", "bytes_copied")).toBe(0);
    await page.close();
  });

  it("a longer stream lowers the stream count to the cap and says why", async () => {
    const page = await open(`${baseUrl}#v=1&len=64K&chunk=good&rs=4K&rd=std&streams=200`);
    await settled(page);
    expect(await metric(page, "std", "allocations")).toBe(200); // one buffer per stream
    await openMoreSettings(page);
    const length = page.getByRole("textbox", { name: "Stream length" });
    await length.fill("1M");
    await length.press("Enter");
    await page.waitForFunction(() => location.hash.includes("len=1M") && location.hash.includes("streams=64"));
    await expect(page.getByRole("textbox", { name: "Streams" }).inputValue()).resolves.toBe("64");
    await expect(page.locator(".field-note.warn", { hasText: "At most 64 streams" }).count()).resolves.toBe(1);
    await settled(page);
    expect(await metric(page, "std", "bytes")).toBe(64 * (1 << 20));
    await page.close();
  });

  it("takes screenshots at laptop and phone widths", async () => {
    const wide = await open(baseUrl, 1280, 900);
    await settled(wide);
    await wide.screenshot({ path: shot("screenshot.png"), fullPage: true });

    const phone = await open(baseUrl, 360, 780);
    await settled(phone);
    // On a phone the results come first; the bar at the bottom takes the
    // person to the settings, and from there (the results out of view) it
    // offers the results again.
    await expect(phone.locator(".peek").isHidden()).resolves.toBe(true);
    await phone.getByRole("button", { name: "Settings" }).click();
    await phone.waitForFunction(() => document.querySelector<HTMLElement>(".peek")?.hidden === false);
    await expect(phone.locator(".peek").textContent()).resolves.toMatch(/Source reads: unbuffered Read 1,048,577 · std BufReader [\d,]+/);
    // Nothing may stick out sideways on a phone.
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // A window as tall as the page: the results are in view, so the bar that
    // points to them (for when they are not) stays out of the picture.
    const tall = await phone.evaluate(() => document.documentElement.scrollHeight);
    await phone.setViewportSize({ width: 360, height: tall });
    // (From the top: the results take at least a window's height, so a window this tall left at the
    // settings' scroll position would still have them above it.)
    await phone.evaluate(() => window.scrollTo(0, 0));
    await phone.waitForFunction(() => document.querySelector<HTMLElement>(".peek")?.hidden === true);
    await phone.screenshot({ path: shot("screenshot-phone.png"), fullPage: true });
    await wide.close();
    await phone.close();

    // The Monibuca article's comparison: frames under the worst chunking, std against chained.
    const frames = await open(`${baseUrl}#v=1&len=1M&chunk=worst&seed=2&cap=8K&rs=1&sys=150&rd=unbuffered,std,chained&wl=frames`, 1280, 900);
    await settled(frames);
    await frames.screenshot({ path: shot("screenshot-frames.png"), fullPage: true });
    await frames.close();
  });
});

// Writing links takes the program build, which loads after the first
// numbers (engine/codec.ts): until it has, the controls that write links are
// inert, and a change a script makes meanwhile waits for it. The program
// build's wasm is held back here until the test lets it through (no service
// worker, which would fetch it out of the test's sight).
describe("before the program build has loaded", () => {
  let letThrough: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (letThrough = resolve));
  const pages = usePages({ serviceWorkers: "block" }, (context) =>
    context.route("**/assets/buflab_program_bg-*.wasm", async (route) => {
      await held;
      await route.continue();
    }),
  );

  it("the first numbers show, the settings are inert, and a change made meanwhile lands once it has loaded", async () => {
    const page = await pages.open(baseUrl);
    await page.waitForFunction(() => performance.getEntriesByName("buflab:first-results").length > 0);
    const inert = () => page.evaluate(() => ["controls", "lab-switch", "view-tabs", "present"].map((id) => document.getElementById(id)!.inert));
    expect(await inert()).toEqual([true, true, true, true]);
    expect(await metric(page, "unbuffered", "source_reads")).toBe(DEFAULT_UNBUFFERED_SOURCE_READS);
    // A script's click reaches the toggle (a person's cannot): the change waits.
    await page.evaluate(() => document.getElementById("present-toggle")!.click());
    await page.waitForTimeout(300);
    expect(fragment(page)).not.toContain("present=on");
    letThrough();
    await page.waitForFunction(() => location.hash.includes("present=on"));
    expect(await inert()).toEqual([false, false, false, false]);
    await settled(page);
    await page.close();
  });
});
