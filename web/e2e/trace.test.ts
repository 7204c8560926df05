// Your own program's reads, in headless Chromium: a real strace log (the
// shipped one, recorded by scripts/record-trace.sh) dropped on the page is
// read by the trace worker and replayed through the real readers; its
// nearest link, opened, counts what the replay said. A malformed log gets a
// notice for every bad line, its quoted text as text; a big generated log is
// cancelled mid-way and keeps the figures of the part read.

import { readFileSync } from "node:fs";
import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { metric, settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");
const pages = usePages();
const shippedLog = readFileSync(new URL("../../public/traces/bash-while-read.strace", import.meta.url), "utf8");

async function open(width?: number, height?: number): Promise<Page> {
  const page = await pages.open(`${baseUrl}#v=1&len=4K&rd=unbuffered,std`, width, height);
  await settled(page);
  await page.locator("#trace-drop").waitFor();
  return page;
}

/** Drops a file made in the page from `parts` (each repeated `times`) on the drop zone, as a person's drag would. */
async function drop(page: Page, name: string, parts: string[], times = 1): Promise<void> {
  const data = await page.evaluateHandle(
    ({ name, parts, times }) => {
      // Repeats refer to one Blob, so a big log costs the page its parts once.
      const once = new Blob(parts);
      const transfer = new DataTransfer();
      transfer.items.add(new File(Array.from({ length: times }, () => once), name, { type: "text/plain" }));
      return transfer;
    },
    { name, parts, times },
  );
  await page.locator("#trace-drop").dispatchEvent("drop", { dataTransfer: data });
}

const cell = (page: Page, table: string, row: string, column: number) => page.locator(`${table} tbody tr${row} > :nth-child(${column})`).innerText();
const noticeKinds = (page: Page) => page.locator("#trace-notices li").evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset["kind"]));

describe("an strace log on the page", () => {
  it("reads a real program's dropped log, replays its reads, and its nearest link counts the same", async () => {
    const page = await open();
    await drop(page, "bash-while-read.strace", [shippedLog]);
    await page.locator('#trace[data-state="read"] #trace-replay').waitFor({ timeout: 60_000 });
    // bash's standard input, the pipe: the busiest descriptor, shown first.
    const stdin = ".chosen";
    await expect(page.locator(`#trace-figures tbody tr${stdin} th button`).innerText()).resolves.toMatch(/^fd 0 pipe:\[\d+\] · pid \d+$/);
    await expect(cell(page, "#trace-figures", stdin, 2)).resolves.toBe("1,057");
    await expect(cell(page, "#trace-figures", stdin, 3)).resolves.toBe("1,056");
    await expect(cell(page, "#trace-figures", stdin, 4)).resolves.toBe("1 B");
    await expect(cell(page, "#trace-figures", stdin, 7)).resolves.toBe("1");
    await expect(page.locator("#trace-figures tbody tr").count()).resolves.toBe(7);
    await expect(page.locator("#trace-headline").innerText()).resolves.toContain(
      "1,057 reads asking for 1 byte each would be 2 source reads through an 8 KiB std BufReader",
    );
    await expect(cell(page, "#trace-replay", '[data-reader="unbuffered"]', 3)).resolves.toBe("1,057");
    await expect(cell(page, "#trace-replay", '[data-reader="std"][data-cap="8192"]', 3)).resolves.toBe("2");
    await expect(page.locator(".trace-knees li").first().innerText()).resolves.toContain("past 2 KiB");
    await expect(noticeKinds(page)).resolves.toEqual([]);
    // The calls in order: 1,056 one-byte reads and the end of file, a flat line at 1 byte.
    const pattern = page.locator("#trace-pattern[data-points]");
    await pattern.waitFor();
    expect(Number(await pattern.getAttribute("data-points"))).toBeGreaterThan(1);
    await expect(pattern.getAttribute("aria-label")).resolves.toMatch(/^Read calls in order, 1,057 in all .*: every call that returned data returned 1 B\.$/);
    await page.locator("#trace").screenshot({ path: shot("trace-1280.png") });

    // The nearest experiment, opened from its link, counts what the replay did.
    const link = page.locator("#trace-fit-link");
    await expect(link.getAttribute("href")).resolves.toMatch(/#v=1&len=1056&chunk=file&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed$/);
    await link.click();
    await expect.poll(() => new URL(page.url()).hash).toBe("#v=1&len=1056&chunk=file&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed");
    await settled(page);
    await expect(metric(page, "unbuffered", "source_reads")).resolves.toBe(1057);
    await expect(metric(page, "std", "source_reads")).resolves.toBe(2);
  });

  it("the shipped log opens from its button on a phone; another descriptor's replay from its name", async () => {
    const page = await open(390, 844);
    await page.locator("#trace-shipped").click();
    await page.locator('#trace[data-state="read"] #trace-replay').waitFor({ timeout: 60_000 });
    await expect(cell(page, "#trace-replay", '[data-reader="std"][data-cap="8192"]', 3)).resolves.toBe("2");
    // Nothing wider than the phone's screen but the tables, which scroll in their own box.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("#trace *")]
        .filter((el) => el.getBoundingClientRect().right > 390 && !el.closest(".table-scroll"))
        .map((el) => `${el.tagName} ${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
    );
    expect(wide).toEqual([]);
    await page.locator("#trace").screenshot({ path: shot("trace-390.png") });
    // cat's read of lines.txt: two calls, one of them the end of file.
    const cat = page.locator("#trace-figures tbody tr", { hasText: "lines.txt" });
    await cat.getByRole("button", { name: /lines\.txt/ }).click();
    await expect.poll(() => page.locator("#trace-replay-wrap h4").innerText()).toContain("lines.txt");
    await page.locator("#trace-replay").waitFor();
    await expect(cell(page, "#trace-replay", '[data-reader="unbuffered"]', 3)).resolves.toBe("2");
  });

  it("a malformed log: every bad line a notice, quoted as text, the good ones still read", async () => {
    const page = await open();
    const log = [
      '<img src=x onerror="document.title=1">',
      '12 read(3, "abc", 3) = 3',
      "12 read(3, ",
      '12 <... read resumed>"zz", 9) = 2',
      "not strace at all \u0007\u0000",
      '12 read(3, "", 3) = 0',
      "",
    ].join("\n");
    await page.locator("#trace-file").setInputFiles({ name: "bad.strace", mimeType: "text/plain", buffer: Buffer.from(log) });
    await page.locator('#trace[data-state="read"]').waitFor({ timeout: 60_000 });
    await expect(noticeKinds(page)).resolves.toEqual(["skipped", "skipped-line", "skipped-line", "skipped-line", "skipped-line"]);
    const notices = await page.locator("#trace-notices li").allInnerTexts();
    expect(notices[0]).toBe("4 lines were not read; the first 4 are quoted below.");
    expect(notices[1]).toContain("Line 1: not a line strace prints.");
    expect(notices[1]).toContain('<img src=x onerror="document.title=1">');
    expect(notices[2]).toContain("Line 3: a call cut off before its result.");
    expect(notices[3]).toContain("Line 4: the second half of a split call whose first half never came.");
    expect(notices[4]).toContain("Line 5: not a line strace prints.");
    // Nothing of the log became markup.
    await expect(page.locator("#trace img").count()).resolves.toBe(0);
    await expect(page.title()).resolves.not.toBe("1");
    // The good lines: fd 3's two reads, 3 bytes.
    await expect(cell(page, "#trace-figures", '[data-descriptor="0"]', 2)).resolves.toBe("2");
    await expect(cell(page, "#trace-figures", '[data-descriptor="0"]', 3)).resolves.toBe("3");
  });

  it("a big log is read with progress and cancelled mid-way: the figures of the part read, said so", async () => {
    const page = await open();
    // One-byte reads, 26 bytes a line, 400 MiB in all (15 million lines):
    // far more than the test waits for.
    const block = '1234 read(0, "x", 1) = 1\n'.repeat(2 ** 16);
    const times = Math.ceil((400 * 2 ** 20) / block.length);
    await drop(page, "big.strace", [block], times);
    const bar = page.locator("#trace-progress");
    await expect.poll(async () => Number(await bar.getAttribute("value")), { timeout: 30_000 }).toBeGreaterThan(0);
    const size = block.length * times;
    await page.locator("#trace-cancel").click();
    await expect.poll(() => page.locator("#trace").getAttribute("data-state"), { timeout: 30_000 }).toBe("read");
    await page.locator("#trace-figures").waitFor();
    const notice = await page.locator('#trace-notices li[data-kind="cancelled"]').innerText();
    const [, bytesText] = /the first ([\d,]+) bytes/.exec(notice) ?? [];
    const bytes = Number(bytesText?.replaceAll(",", ""));
    expect(notice).toContain(`of ${size.toLocaleString("en-US")}.`);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(size);
    // Each line read is one call of the part read (a chunk may end mid-line).
    const calls = Number((await cell(page, "#trace-figures", '[data-descriptor="0"]', 2)).replaceAll(",", ""));
    const perLine = block.length / 2 ** 16;
    expect(calls).toBeGreaterThanOrEqual(Math.floor(bytes / perLine) - 1);
    expect(calls).toBeLessThanOrEqual(Math.floor(bytes / perLine));
    await expect(page.locator("#trace-reading, .trace-reading").isHidden()).resolves.toBe(true);
  });
});
