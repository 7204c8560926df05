// Untrusted links in the real page: each malformed link below opens with a
// visible notice naming the key, the page still runs an experiment, the
// address is rewritten to the canonical link of what ran, and nothing from
// the link is ever run as markup or logged as an error.

import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium } from "./browser";

const baseUrl = inject("baseUrl");

/** [link fragment, the key its notice must name]. Short streams keep each run quick. */
const MALFORMED: [string, string][] = [
  ["len=1K&cap=banana", "cap"],
  ["len=-5", "len"],
  ["len=NaN", "len"],
  ["len=Infinity", "len"],
  ["len=1K&cap=", "cap"],
  ["len=1K&rs=0", "rs"],
  ["len=1K&rs=2M", "rs"],
  ["len=1T", "len"],
  ["len=1K&cap=8Q", "cap"],
  ["len=1K&cap=1.5K", "cap"],
  ["len=1K&seed=-1", "seed"],
  ["len=1K&seed=1e3", "seed"],
  ["len=1K&seed=99999999999999999999", "seed"],
  ["len=1K&sys=-3", "sys"],
  ["len=1K&sys=abc", "sys"],
  ["len=1K&chunk=zz", "chunk"],
  ["len=1K&chunk=512-64", "chunk"],
  ["len=1K&chunk=0", "chunk"],
  ["len=1K&chunk=1-2-3", "chunk"],
  ["len=1K&chunk=-", "chunk"],
  ["len=1K&rd=nope", "rd"],
  ["len=1K&rd=", "rd"],
  ["len=1K&rd=std,bogus", "rd"],
  ["len=1K&rd=%2C%2C", "rd"],
  ["len=1K&wl=x", "wl"],
  ["len=1K&v=2", "v"],
  ["len=1K&cap=4K&cap=16K", "cap"],
  ["len=1K&cap=%ZZ", "cap"],
  ["len=1K&cap=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "cap"],
  ["len=%E2%80%8B1M", "len"],
  ["len=0x10", "len"],
  ["len=1K&rs=%00", "rs"],
  ["len=1K&rs=--1", "rs"],
  [`len=1K&pad=${"x".repeat(9000)}`, "link"],
  // Nothing readable at all: no known key.
  ["%%%%&&&===", "link"],
];

let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
});

afterAll(async () => {
  await browser?.close();
});

describe("malformed links", () => {
  it("has at least 30 distinct cases", () => {
    expect(new Set(MALFORMED.map(([link]) => link)).size).toBeGreaterThanOrEqual(30);
  });

  const cases = MALFORMED.map(([link, key]) => [link.length > 60 ? `${link.slice(0, 60)}…` : link, link, key]);
  it.each(cases)("#%s names the key and still runs", async (_label, link, key) => {
    // A fresh document per link (the query changes), like opening it from a chat.
    await page.goto(`${baseUrl}?case=${encodeURIComponent(key)}${Math.random()}#${link}`);
    await page.locator(`.notice[data-key="${key}"]`).waitFor({ timeout: 15_000 });
    await page.locator("table.results tbody tr").first().waitFor({ timeout: 60_000 });
    const shown = await page.locator(`.notice[data-key="${key}"]`).textContent();
    expect(shown).toContain(key);
    // The address holds the canonical link of what ran, never the bad value.
    const fragment = new URL(page.url()).hash;
    expect(fragment).toMatch(/^#v=1&len=/);
    expect(fragment.length).toBeLessThan(300);
    // Link text is shown as text: no element from the link exists.
    await expect(page.locator(".notice script, .notice img").count()).resolves.toBe(0);
    await expect(page.locator("h1").textContent()).resolves.toBe("BufLab");
    expect(problems).toEqual([]);
  });
});
