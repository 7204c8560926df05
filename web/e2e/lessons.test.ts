// The lessons in headless Chromium: every lesson loads from its own link
// (a fresh document per link, as when it is opened from a chat), selects
// itself in the list, shows its card (n of 7, its points) with the results,
// and the results table shows the real numbers its claim rests on. One
// lesson loads from the list, the next ones by Next and Previous; an
// unknown lesson name is a notice naming `lesson`. Screenshots of a loaded
// lesson: lesson-1280.png, lesson-360.png (browser.ts `shot`).

import { type Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import lessonData from "../src/engine/lessons.gen.json";
import { settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");

/** Each lesson's link as the page's panel lists it (from the engine's schema). */
const links = new Map<string, string>();

/** A lesson's link opened in a new page: a fresh document, as when it is opened from a chat. */
function openLesson(id: string, width?: number, height?: number): Promise<Page> {
  const link = links.get(id);
  if (!link) throw new Error(`the panel lists no lesson ${id}`);
  return open(`${baseUrl}${link}`, width, height);
}

/** A reader's exact metric from the read lab's results table. */
async function read(page: Page, reader: string, metric: string): Promise<number> {
  const cell = page.locator(`#table table.results tbody tr[data-reader="${reader}"] td[data-metric="${metric}"]`);
  return Number(await cell.getAttribute("data-value"));
}

/** A cursor flavour's metric from the write lab's cursor table. */
async function cursor(page: Page, flavour: string, metric: string): Promise<string> {
  const cell = page.locator(`#write-results .flavour-results tbody tr[data-flavour="${flavour}"] td[data-metric="${metric}"]`);
  return (await cell.getAttribute("data-value")) ?? "";
}

/** The lesson is selected in the list, and its card with the results shows its place on the path and its points. */
async function expectSelected(page: Page, id: string): Promise<void> {
  const item = page.locator(`#lesson-list li[data-lesson="${id}"]`);
  await expect(item.getAttribute("aria-current")).resolves.toBe("true");
  await expect(page.locator("#lesson-list li[aria-current]").count()).resolves.toBe(1);
  const card = page.locator("#lesson-card");
  await expect(card.isVisible()).resolves.toBe(true);
  await expect(card.getAttribute("data-lesson")).resolves.toBe(id);
  const n = [...links.keys()].indexOf(id) + 1;
  await expect(card.locator(".lesson-step").textContent()).resolves.toBe(`Lesson ${n} of ${links.size}`);
  await expect(card.locator(".lesson-points li").count()).resolves.toBeGreaterThanOrEqual(2);
  await expect(card.locator(".lesson-points li").first().isVisible()).resolves.toBe(true);
  await expect(card.locator(".lesson-changed").isVisible()).resolves.toBe(false);
  await expect(page.locator("#notices .notice.link").count()).resolves.toBe(0);
}

const { open } = usePages();

beforeAll(async () => {
  const page = await open(baseUrl);
  await page.locator("#lesson-list li").first().waitFor({ state: "attached" });
  for (const item of await page.locator("#lesson-list li").all()) {
    const id = (await item.getAttribute("data-lesson")) ?? "";
    const url = await item.locator("input.lesson-link").inputValue();
    links.set(id, new URL(url).hash);
  }
  await page.close();
});

describe("lessons", () => {
  it("the list has the eleven lessons with their links, and no lesson is selected by default", async () => {
    // The catalog's lessons in its order (their order itself: web/src/panels/lessons/lessons.test.ts).
    expect([...links.keys()]).toEqual(lessonData.map((l) => l.id));
    expect(links.size).toBe(11);
    for (const [id, link] of links) expect(link, id).toMatch(new RegExp(`^#v=1&.*&lesson=${id}$`));
    const page = await open(baseUrl);
    await settled(page, "read");
    await expect(page.locator("#lesson-card").isVisible()).resolves.toBe(false);
    await expect(page.locator("#lesson-list li[aria-current]").count()).resolves.toBe(0);
    // The path starts from the masthead.
    await expect(page.locator("#lesson-start a").textContent()).resolves.toBe(`Lesson 1 of ${links.size}: One byte at a time`);
    await page.close();
  });

  it("one-byte: unbuffered makes at least 1000× the source reads of std's BufReader", async () => {
    const page = await openLesson("one-byte");
    await settled(page, "read");
    await expectSelected(page, "one-byte");
    const raw = await read(page, "unbuffered", "source_reads");
    const std = await read(page, "std", "source_reads");
    expect(raw).toBeGreaterThanOrEqual(1000 * std);
    expect([raw, std]).toEqual([1_048_577, 129]);
    // The address stays the lesson's link: it is canonical.
    expect(new URL(page.url()).hash).toBe(links.get("one-byte"));
    await page.close();
  });

  it("no-help: large reads make std copy nothing and read as often as unbuffered; buffers cost streams × capacity", async () => {
    const page = await openLesson("no-help");
    await settled(page, "read");
    await expectSelected(page, "no-help");
    expect(await read(page, "std", "bytes_copied")).toBe(0);
    expect(await read(page, "unbuffered", "bytes_copied")).toBe(0);
    expect(await read(page, "std", "source_reads")).toBe(await read(page, "unbuffered", "source_reads"));
    expect(await read(page, "std", "allocations")).toBe(100);
    expect(await read(page, "std", "peak_bytes")).toBe(100 * 8192);
    expect(await read(page, "unbuffered", "allocations")).toBe(0);
    await page.close();
  });

  it("bytes-vs-to-end: bytes() unbuffered makes a source read per byte", async () => {
    const page = await openLesson("bytes-vs-to-end");
    await settled(page, "read");
    await expectSelected(page, "bytes-vs-to-end");
    expect(await read(page, "unbuffered", "source_reads")).toBe(1_048_577);
    expect(await read(page, "std", "source_reads")).toBe(129);
    await page.close();
  });

  it("chained-worst: the chained reader copies nothing and allocates far less than std", async () => {
    const page = await openLesson("chained-worst");
    await settled(page, "read");
    await expectSelected(page, "chained-worst");
    expect(await read(page, "chained", "bytes_copied")).toBe(0);
    const std = await read(page, "std", "allocations");
    const chained = await read(page, "chained", "allocations");
    expect(chained * 100).toBeLessThanOrEqual(std);
    await page.close();
  });

  it("async-bufreader: tokio and futures read and copy as std does; a Pending costs a poll, not a source read", async () => {
    const page = await openLesson("async-bufreader");
    await settled(page, "read");
    await expectSelected(page, "async-bufreader");
    const std = await read(page, "std", "source_reads");
    for (const reader of ["tokio", "futures"]) {
      expect(await read(page, reader, "source_reads"), reader).toBe(std);
      expect(await read(page, reader, "bytes_copied"), reader).toBe(await read(page, "std", "bytes_copied"));
      const polls = await read(page, reader, "polls");
      expect(polls, reader).toBeGreaterThan(await read(page, reader, "app_reads"));
      expect([std, polls], reader).toEqual([3641, 1_050_384]);
    }
    await page.close();
  });

  it("cursors: opens the write lab; growable cursors reallocate from empty, fixed ones allocate once", async () => {
    const page = await openLesson("cursors");
    await settled(page, "write");
    await expectSelected(page, "cursors");
    await expect(page.locator("#lab-tab-write").getAttribute("aria-selected")).resolves.toBe("true");
    for (const f of ["cursor_vec", "cursor_mut_vec", "writer_vec", "bytes_mut"]) {
      expect(Number(await cursor(page, f, "reallocs")), f).toBeGreaterThan(0);
      expect(await cursor(page, f, "check"), f).toBe("identical");
    }
    for (const f of ["cursor_mut_slice", "cursor_box", "mut_slice"]) {
      expect([await cursor(page, f, "allocations"), await cursor(page, f, "reallocs")], f).toEqual(["1", "0"]);
      expect(await cursor(page, f, "check"), f).toBe("identical");
    }
    await page.close();
  });

  it("buffer-size: the lesson's sweep of capacity against arrival rate runs by itself; its knee sits at the largest piece while the program keeps up and at the kernel's 64 KiB behind a faster sender", async () => {
    const page = await openLesson("buffer-size");
    await page.locator("#lesson-card[data-lesson='buffer-size']").waitFor({ timeout: 15_000 });
    await expect(page.locator("#lesson-list li[data-lesson='buffer-size']").getAttribute("aria-current")).resolves.toBe("true");
    // A link with a sweep opens the sweep view.
    await expect(page.locator("#view-tab-sweep").getAttribute("aria-selected")).resolves.toBe("true");
    await page.waitForFunction(
      () => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done",
      undefined,
      { timeout: 240_000 },
    );
    // The claim: 4 KiB, the largest piece, in the columns slower than the program (2–8 MiB/s); 64 KiB in the faster ones.
    const heat = page.locator("#sweep-heatmap");
    await expect(heat.getAttribute("data-metric")).resolves.toBe("source_reads");
    const knees = `${2 << 20}:4096,${4 << 20}:4096,${8 << 20}:4096,${16 << 20}:65536,${32 << 20}:65536`;
    await expect(heat.getAttribute("data-knees")).resolves.toBe(knees);
    await page.locator("#heatmap-reader").selectOption("chained");
    await expect(heat.getAttribute("data-knees")).resolves.toBe(knees);
    await expect(page.locator("#notices .notice.link").count()).resolves.toBe(0);
    await expect(page.locator("#notices .alert").isVisible()).resolves.toBe(false);
    await page.close();
  });

  it("knee-grid: the heatmap's knee line is the diagonal, capacity = chunk size in every column", async () => {
    const page = await openLesson("knee-grid");
    await page.locator("#lesson-card[data-lesson='knee-grid']").waitFor({ timeout: 15_000 });
    await expect(page.locator("#view-tab-sweep").getAttribute("aria-selected")).resolves.toBe("true");
    await page.waitForFunction(() => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done", undefined, {
      timeout: 180_000,
    });
    const heat = page.locator("#sweep-heatmap");
    await expect(heat.isVisible()).resolves.toBe(true);
    await expect(heat.getAttribute("data-reader")).resolves.toBe("std");
    await expect(heat.getAttribute("data-metric")).resolves.toBe("source_reads");
    // The claim: in every column the knee sits where the capacity reaches the chunk.
    await expect(heat.getAttribute("data-knees")).resolves.toBe("64:64,128:128,256:256,512:512,1024:1024");
    // The figures the second point quotes, from the sweep's table.
    const cell = (cap: number, chunk: number) =>
      page.locator(`#sweep table.sweep-table tr[data-value="${cap}"][data-across="${chunk}"] td[data-reader="std"][data-metric="source_reads"]`).textContent();
    await expect(cell(64, 64)).resolves.toMatch(/^4,097/);
    await expect(cell(1024, 1024)).resolves.toMatch(/^257/);
    // Its third point: the chained reader's knees follow the same diagonal.
    await page.locator("#heatmap-reader").selectOption("chained");
    await expect(heat.getAttribute("data-knees")).resolves.toBe("64:64,128:128,256:256,512:512,1024:1024");
    await expect(page.locator("#notices .notice").count()).resolves.toBe(0);
    await page.close();
  });

  it("buffer-timeline: opens the timeline on step 33, where the buffer refills after 32 reads from memory", async () => {
    const page = await openLesson("buffer-timeline");
    await settled(page, "read");
    await expectSelected(page, "buffer-timeline");
    await expect(page.locator("#view-tab-timeline").getAttribute("aria-selected")).resolves.toBe("true");
    await page.locator("#timeline").waitFor({ state: "visible" });
    await expect(page.locator("#timeline-reader").inputValue()).resolves.toBe("std");
    await expect(page.locator(".timeline-position").innerText()).resolves.toBe("33 / 100");
    await expect(page.locator(".timeline-caption").innerText()).resolves.toMatch(/^Step 33: .*the buffer was empty/);
    // The headline says where it filled and where it refills; no notice, no silent change of settings.
    await expect(page.locator("#headline").textContent()).resolves.toMatch(
      /^std BufReader: a source read fills the 256-byte buffer at step 1 with 256 bytes, which serves 32 application reads \(steps 1 to 32\); the next source read refills it at step 33\./,
    );
    await expect(page.locator("#notices .notice").count()).resolves.toBe(0);
    expect(new URL(page.url()).hash).toBe(links.get("buffer-timeline"));
    // Its third point: unbuffered makes a source read on every step.
    await page.locator("#timeline-reader").selectOption("unbuffered");
    await expect(page.locator(".timeline-strip rect.tl-in").count()).resolves.toBe(100);
    await page.close();
  });

  it("following a lesson's own suggestion names it instead of calling the settings changed", async () => {
    const page = await openLesson("one-byte");
    await settled(page, "read");
    // The suggested setting, made as a person makes it: the link with it, opened in this tab.
    const suggested = links.get("one-byte")!.replace("chunk=pipe", "chunk=poor");
    await page.evaluate((hash) => (location.hash = hash), suggested);
    await page.waitForFunction(() => location.hash.includes("chunk=poor"));
    await settled(page, "read");
    await expect(page.locator("#lesson-card .lesson-changed").isVisible()).resolves.toBe(false);
    await expect(page.locator("#lesson-card .lesson-chosen").textContent()).resolves.toBe(
      "You chose the lesson's suggestion: chunking poor (64–512 bytes). The point that suggests it says what these settings show; the others describe the lesson's own settings.",
    );
    // The point's figure, on screen.
    expect(await read(page, "std", "source_reads")).toBe(3641);
    // Anything else is a change of its own.
    await page.getByRole("textbox", { name: "Buffer capacity" }).fill("4K");
    await page.getByRole("textbox", { name: "Buffer capacity" }).press("Enter");
    await page.locator("#lesson-card .lesson-changed").waitFor({ state: "visible" });
    await expect(page.locator("#lesson-card .lesson-chosen").isVisible()).resolves.toBe(false);
    await page.close();
  });

  it("loads a lesson from the list, through the link, walks the path with Next and Previous, and marks a later change", async () => {
    const page = await open(baseUrl);
    await settled(page, "read");
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.locator("#lessons-button").click();
    await page.locator("#lesson-menu").waitFor({ state: "visible" });
    // The list lies over the page: it does not lengthen it.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(height);
    await page.locator('#lesson-list a[data-lesson-load="chained-worst"]').click();
    await page.waitForFunction(() => location.hash.includes("lesson=chained-worst"));
    await expect(page.locator("#lesson-menu").isVisible()).resolves.toBe(false);
    expect(new URL(page.url()).hash).toBe(links.get("chained-worst"));
    await settled(page, "read");
    await expectSelected(page, "chained-worst");
    await expect(page.locator("#controls select").first().isVisible()).resolves.toBe(true);
    expect(await read(page, "chained", "bytes_copied")).toBe(0);
    expect((await read(page, "chained", "allocations")) * 100).toBeLessThanOrEqual(await read(page, "std", "allocations"));

    // The next lesson on the path: the selection moves, the lab switches.
    await page.locator('#lesson-card [data-action="lesson-next"]').click();
    await page.waitForFunction(() => location.hash.includes("lesson=cursors"));
    expect(new URL(page.url()).hash).toBe(links.get("cursors"));
    await settled(page, "write");
    await expectSelected(page, "cursors");
    // And back.
    await page.locator('#lesson-card [data-action="lesson-previous"]').click();
    await page.waitForFunction(() => location.hash.includes("lesson=chained-worst"));
    await settled(page, "read");
    await expectSelected(page, "chained-worst");
    await page.locator('#lesson-card [data-action="lesson-next"]').click();
    await settled(page, "write");

    // A changed setting keeps the lesson selected but says the points describe its own settings.
    await page.locator("#lab-tab-read").click();
    await page.locator("#lesson-card .lesson-changed").waitFor({ state: "visible" });
    await page.locator("#lesson-card .lesson-changed button").click();
    await settled(page, "write");
    await expect(page.locator("#lesson-card .lesson-changed").isVisible()).resolves.toBe(false);
    await page.close();
  });

  it("an unknown lesson is a notice naming `lesson`, and the rest of the link still runs", async () => {
    const page = await open(`${baseUrl}?bad=${Math.random()}#v=1&len=64K&chunk=file&lesson=%3Cb%3Enope%3C%2Fb%3E`);
    await page.locator('.notice[data-key="lesson"]').waitFor({ timeout: 15_000 });
    await settled(page, "read");
    await expect(page.locator('.notice[data-key="lesson"]').textContent()).resolves.toContain("not a lesson");
    await expect(page.locator(".notice b").count()).resolves.toBe(0);
    await expect(page.locator("#lesson-card").isVisible()).resolves.toBe(false);
    expect(new URL(page.url()).hash).not.toContain("lesson");
    expect(await read(page, "std", "source_reads")).toBe(9);
    await page.close();
  });

  it("takes screenshots of a loaded lesson at laptop and phone widths", async () => {
    const wide = await openLesson("one-byte", 1280, 900);
    await settled(wide, "read");
    await wide.screenshot({ path: shot("lesson-1280.png") });
    await wide.close();
    // A phone after loading a lesson from the list: the page moves to the
    // results, where the lesson's card sits above the numbers.
    const phone = await open(baseUrl, 360, 1100);
    await settled(phone, "read");
    await phone.locator("#lessons-button").click();
    await phone.locator('#lesson-list a[data-lesson-load="one-byte"]').click();
    await settled(phone, "read");
    await phone.evaluate(() => document.getElementById("results")?.scrollIntoView({ block: "start" }));
    await phone.screenshot({ path: shot("lesson-360.png") });
    await phone.close();
  });
});
