// The buffer timeline on the built page (its view, link key view=timeline):
// the default settings show it for std, stepping changes the caption, a read
// larger than the buffer shows a bypass, the chained reader lends slices,
// autoplay stays off with reduced motion, the Timeline tab opens on the
// timeline's starting settings where the buffer fills, drains and refills
// (and a notice says what changed), the step is in the link (key `step`),
// the step on screen saves as a standalone SVG and a 2× PNG, and
// screenshots at laptop and phone widths.

import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { downloaded, inkOf, pngSize, settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");

// Reduced motion: no autoplay, so what a test sees is what it stepped to.
const pages = usePages({ reducedMotion: "reduce", acceptDownloads: true });

/** Opens `fragment` in the timeline view. */
async function open(fragment: string, width = 1280, height = 900): Promise<Page> {
  const page = await pages.open(`${baseUrl}${fragment || "#v=1"}&view=timeline`, width, height);
  await settled(page);
  await page.locator("#timeline").waitFor({ state: "visible" });
  return page;
}

const caption = (page: Page): Promise<string> => page.locator(".timeline-caption").innerText();

describe("buffer timeline", () => {
  it("shows std's first operations for the default settings, says it never refills in view, and stepping changes the caption", async () => {
    const page = await open("");
    await expect(page.locator("#timeline-reader").inputValue()).resolves.toBe("std");
    await expect(page.locator(".timeline-position").innerText()).resolves.toBe("1 / 100");
    const first = await caption(page);
    // Op 0 fills the empty 8 KiB buffer with one source read.
    expect(first).toMatch(/^Step 1: app asked 1 byte \(read\); the buffer was empty: one source read asked 8 KiB/);
    await expect(page.locator(".timeline-strip rect.tl-in").count()).resolves.toBe(1);
    // Said in the first frame, with the way to settings that refill in view.
    await expect(page.locator("#headline").textContent()).resolves.toMatch(/never refills within the 100 steps recorded/);
    await expect(page.locator(".timeline-offer").isVisible()).resolves.toBe(true);

    await page.getByRole("button", { name: "Step forward" }).click();
    const second = await caption(page);
    expect(second).not.toBe(first);
    expect(second).toMatch(/^Step 2: app asked 1 byte \(read\); served from the buffer, no source read; got 1 byte, 1 byte copied/);
    await expect(page.locator(".timeline-position").innerText()).resolves.toBe("2 / 100");

    // Keyboard: the step slider takes arrow keys and End.
    const slider = page.getByRole("slider", { name: "Step" });
    await slider.focus();
    await slider.press("End");
    await expect(page.locator(".timeline-position").innerText()).resolves.toBe("100 / 100");
    await slider.press("ArrowLeft");
    await expect(page.locator(".timeline-position").innerText()).resolves.toBe("99 / 100");
    await page.getByRole("button", { name: "Step back" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.locator(".timeline-position").innerText()).resolves.toBe("98 / 100");

    // The unbuffered reader: a source read on every step.
    await page.locator("#timeline-reader").selectOption("unbuffered");
    await expect(caption(page)).resolves.toMatch(/one source read returned 1 byte straight into the app's memory/);
    await expect(page.locator(".timeline-strip rect.tl-in").count()).resolves.toBe(100);
    await page.close();
  });

  it("from the page's defaults, the Timeline tab opens on settings where the buffer fills, drains and refills", async () => {
    const page = await pages.open(baseUrl, 1280, 900);
    await settled(page);
    await page.locator("#view-tab-timeline").click();
    await page.waitForFunction(() => location.hash.includes("cap=256&rs=8&") && location.hash.endsWith("&view=timeline"));
    await settled(page);
    // Never silently: a notice names what changed.
    const notice = page.locator("#notices .notice.settings");
    await expect(notice.textContent()).resolves.toMatch(/buffer capacity 8 KiB → 256 bytes, read size 1 byte → 8 bytes \(cap=256, rs=8\)/);
    await page.locator("#timeline").waitFor({ state: "visible" });
    await expect(page.locator("#timeline-reader").inputValue()).resolves.toBe("std");
    // The first frame teaches: the headline names the fill, the drain and the refill.
    await expect(page.locator("#headline").textContent()).resolves.toMatch(
      /^std BufReader: a source read fills the 256-byte buffer at step 1 with 256 bytes, which serves \d+ application reads \(steps 1 to \d+\); the next source read refills it at step \d+\./,
    );
    // The strip shows more than one fill within the recorded steps, and no offer to change settings.
    expect(await page.locator(".timeline-strip rect.tl-in").count()).toBeGreaterThan(1);
    await expect(page.locator(".timeline-offer").isVisible()).resolves.toBe(false);
    // The single run keeps these settings; the view is only how they are shown.
    await page.locator("#view-tab-run").click();
    await page.waitForFunction(() => !location.hash.includes("view="));
    expect(new URL(page.url()).hash).toContain("cap=256&rs=8&");
    // The note was about opening the timeline: it goes with that view (the settings strip shows the values).
    await expect(notice.count()).resolves.toBe(0);
    await page.close();
  });

  it("the step is in the link: a link opens on its step, stepping writes it, a reload keeps it, and past the trace it shows the last", async () => {
    const page = await open("#v=1&len=1M&chunk=poor&seed=42&cap=256&rs=8&sys=150&rd=unbuffered,std&wl=fixed&step=33");
    await expect(page.locator(".timeline-position").innerText()).resolves.toBe("33 / 100");
    // Step 33 is where the 256-byte buffer, drained 8 bytes at a time, refills.
    await expect(caption(page)).resolves.toMatch(/^Step 33: .*the buffer was empty/);
    await page.getByRole("button", { name: "Step forward" }).click();
    await page.waitForFunction(() => location.hash.endsWith("&view=timeline&step=34"));
    await expect(page.locator(".timeline-position").innerText()).resolves.toBe("34 / 100");
    // A display key: no new measurement, the results stay current.
    expect(await page.locator("#results").getAttribute("class")).not.toContain("stale");
    await page.reload();
    await settled(page);
    await page.locator("#timeline").waitFor({ state: "visible" });
    await expect(page.locator(".timeline-position").innerText()).resolves.toBe("34 / 100");
    // Back to the first step: the link no longer carries one.
    const slider = page.getByRole("slider", { name: "Step" });
    await slider.focus();
    await slider.press("Home");
    await page.waitForFunction(() => location.hash.endsWith("&view=timeline"));
    await page.close();

    // A step past the trace's end (an application that stops early): its last step.
    const short = await open("#v=1&len=1K&chunk=file&seed=42&cap=8K&rs=256&sys=150&rd=std&wl=fixed&step=90");
    const steps = Number((await short.locator(".timeline-position").innerText()).split(" / ")[1]);
    expect(steps).toBeLessThan(90);
    await expect(short.locator(".timeline-position").innerText()).resolves.toBe(`${steps} / ${steps}`);
    await short.close();
  });

  it("marks a read larger than the buffer as a bypass that copies nothing", async () => {
    const page = await open("#v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=16K&sys=150&rd=unbuffered,std&wl=fixed");
    await expect(page.locator("#timeline-reader").inputValue()).resolves.toBe("std");
    await expect(caption(page)).resolves.toMatch(/the buffer is skipped: one source read wrote \d+ bytes straight into the app's memory; got \d+ bytes, nothing copied/);
    await expect(page.locator(".timeline-card.bypass").count()).resolves.toBe(1);
    await expect(page.locator(".timeline-badge").innerText()).resolves.toBe("bypassed");
    await expect(page.locator(".timeline-strip rect.tl-bypass").count()).resolves.toBe(100);
    await page.close();
  });

  it("shows the chained reader lending slices of its blocks", async () => {
    const page = await open("#v=1&len=1M&chunk=poor&seed=42&cap=256&rs=1&sys=150&rd=std,chained&wl=frames");
    await page.locator("#timeline-reader").selectOption("chained");
    await page.getByRole("button", { name: "Step forward" }).click();
    // Step 2 is the first payload: a slice of block 0, nothing copied.
    await expect(caption(page)).resolves.toMatch(/^Step 2: app asked \d+ bytes \(a frame payload\); .*as 1 slice of block 0, nothing copied/);
    await expect(page.locator(".timeline-picture rect.tl-lent").count()).resolves.toBeGreaterThan(0);
    await page.close();
  });

  it("plays and pauses from the Play button", async () => {
    const page = await open("");
    const play = page.locator(".timeline-play");
    await play.click();
    await expect(play.getAttribute("aria-pressed")).resolves.toBe("true");
    await page.waitForFunction(() => document.querySelector(".timeline-position")?.textContent !== "1 / 100");
    await play.click();
    await expect(play.getAttribute("aria-pressed")).resolves.toBe("false");
    const paused = await page.locator(".timeline-position").innerText();
    await page.waitForTimeout(1000);
    await expect(page.locator(".timeline-position").innerText()).resolves.toBe(paused);
    await page.close();
  });

  it("saves the step on screen as a standalone SVG and a 2× PNG, with its title, settings and link drawn in", async () => {
    const page = await open("#v=1&len=1M&chunk=64-512&seed=42&cap=256&rs=8&sys=150&rd=unbuffered,std,chained&wl=fixed");
    const forward = page.getByRole("button", { name: "Step forward" });
    await forward.click();
    await forward.click();
    const link = page.url();
    const svg = await downloaded(page, "#timeline-export-svg");
    expect(svg.download.suggestedFilename()).toMatch(/^buflab-timeline-std-step-3-\d{4}-.*\.svg$/);
    const source = svg.bytes.toString("utf8");
    expect(source).toMatch(/^<\?xml [^>]*\?>\n<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // Standalone: colours are attributes, not the page's classes or custom properties.
    expect(source).not.toMatch(/var\(|class=/);
    // The link's "&"s are escaped by the serializer, so the file parses as XML.
    expect(source).toContain(link.replace(/&/g, "&amp;"));
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const root = doc.documentElement;
      return {
        error: doc.querySelector("parsererror")?.textContent ?? null,
        namespace: root.namespaceURI,
        width: Number(root.getAttribute("width")),
        height: Number(root.getAttribute("height")),
        texts: [...doc.querySelectorAll("text")].map((t) => t.textContent ?? ""),
      };
    }, source);
    expect(parsed.error).toBeNull();
    expect(parsed.namespace).toBe("http://www.w3.org/2000/svg");
    expect(parsed.texts[0]).toBe("Buffer timeline: std BufReader, step 3 of 100");
    // The settings in words (wrapped over lines), the link beside them.
    expect(parsed.texts.join(" ")).toContain("Buffer capacity: 256 bytes; Read size: 8 bytes;");
    expect(parsed.texts.at(-1)).toBe(link);
    // The step itself: its caption (wrapped over lines), the three cards and the totals.
    const words = parsed.texts.join(" ");
    expect(words).toContain((await caption(page)).replace(/\s+/g, " ").slice(0, 40));
    for (const card of ["Source", "Buffer", "App"]) expect(parsed.texts).toContain(card);
    expect(words).toContain("After 3 steps:");

    const png = await downloaded(page, "#timeline-export-png");
    expect(png.download.suggestedFilename()).toMatch(/^buflab-timeline-std-step-3-.*\.png$/);
    // Twice the SVG's size, on the surface colour, with the title above and the settings and link below.
    expect(pngSize(png.bytes)).toEqual({ width: 2 * parsed.width, height: 2 * parsed.height });
    const image = await inkOf(page, png.bytes);
    expect(image.corner[3]).toBe(255);
    expect(image.title).toBeGreaterThan(50);
    expect(image.footer).toBeGreaterThan(50);
    await expect.poll(() => page.locator("#timeline-export-status").textContent()).toBe("This step (PNG) downloaded.");
    await page.close();
  });

  it("takes screenshots at 1280 and 360 px", async () => {
    // A small buffer, so the strip shows it draining and being refilled within the 100 steps.
    const link = "#v=1&len=1M&chunk=64-512&seed=42&cap=256&rs=8&sys=150&rd=unbuffered,std,chained&wl=fixed";
    for (const width of [1280, 360]) {
      const page = await open(link, width, 900);
      // Step to the first refill after the first fill: the moment the buffer earns its keep.
      const forward = page.getByRole("button", { name: "Step forward" });
      do await forward.click();
      while (!/^Step \d+: .*the buffer was empty/.test(await caption(page)));
      await page.locator("#timeline").screenshot({ path: shot(`timeline-${width}.png`) });
      await page.close();
    }
  });
});
