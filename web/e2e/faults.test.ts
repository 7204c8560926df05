// Worker faults, injected for real: the recovery-test build (`npm run
// build:faults`: the engine with its `faults` feature, the page in Vite mode
// "faults") lets a run panic, hang or run out of memory inside the wasm. Each
// time the page must say what happened, keep the last good results, replace
// the worker, and run the next experiment normally.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, type Page } from "playwright-core";
import { preview, type PreviewServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, metric, settled } from "./browser";

const root = fileURLToPath(new URL("../..", import.meta.url));
let server: PreviewServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  if (!existsSync(`${root}dist-faults/index.html`)) {
    throw new Error("dist-faults/ is missing: run `npm run build:faults` before this test.");
  }
  server = await preview({
    root: `${root}web`,
    configFile: `${root}vite.config.ts`,
    mode: "faults",
    // preview() does not pass `mode` to the config function, so name the folder.
    build: { outDir: "../dist-faults" },
    logLevel: "warn",
    preview: { port: 0, host: "127.0.0.1", open: false },
  });
  url = server.resolvedUrls?.local[0] ?? "";
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function sourceReads(page: Page, reader: string): Promise<number> {
  return metric(page, reader, "source_reads");
}

/** A short experiment so each recovery run is quick: 64 KiB, 1-byte reads. */
async function openPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${url}#v=1&len=64K&chunk=100&rs=1&cap=8K&rd=unbuffered,std`);
  await settled(page);
  expect(await sourceReads(page, "unbuffered")).toBe(65537);
  return page;
}

/** After a fault: the next experiment (2-byte reads) runs and shows its own counts. */
async function nextRunWorks(page: Page): Promise<void> {
  const readSize = page.getByRole("slider", { name: "Read size" });
  await readSize.focus();
  await readSize.press("ArrowRight");
  await page.waitForFunction(() => location.hash.includes("rs=2&"));
  await settled(page);
  expect(await sourceReads(page, "unbuffered")).toBe(32769);
  await expect(page.locator(".alert").isHidden()).resolves.toBe(true);
}

describe("worker faults", () => {
  it("a panic shows its message, keeps the last results, and the next run works", async () => {
    const page = await openPage();
    await page.evaluate(() => (window as unknown as { buflabFault(f: string): void }).buflabFault("panic"));
    await page.locator(".alert").filter({ hasText: "injected panic" }).waitFor({ timeout: 30_000 });
    expect(await sourceReads(page, "unbuffered")).toBe(65537);
    await nextRunWorks(page);
    await page.close();
  });

  it("running out of memory is reported the same way and recovered from", async () => {
    const page = await openPage();
    await page.evaluate(() => (window as unknown as { buflabFault(f: string): void }).buflabFault("oom"));
    await page.locator(".alert").filter({ hasText: /memory|crashed/ }).waitFor({ timeout: 60_000 });
    expect(await sourceReads(page, "unbuffered")).toBe(65537);
    await nextRunWorks(page);
    await page.close();
  });

  it("a hang is stopped by Stop within a moment, and the next run works", async () => {
    const page = await openPage();
    await page.evaluate(() => (window as unknown as { buflabFault(f: string): void }).buflabFault("hang"));
    await page.waitForFunction(() => document.getElementById("results")?.getAttribute("aria-busy") === "true");
    const stop = page.getByRole("button", { name: "Stop" });
    const pressed = Date.now();
    await stop.click();
    await page.waitForFunction(() => document.getElementById("results")?.getAttribute("aria-busy") === "false");
    // Terminating the worker is immediate; the bound covers a slow CI machine.
    expect(Date.now() - pressed).toBeLessThan(1000);
    expect(await sourceReads(page, "unbuffered")).toBe(65537);
    await nextRunWorks(page);
    await page.close();
  });

  it("only the test build has the fault hook", async () => {
    const page = await openPage();
    await expect(page.evaluate(() => "buflabFault" in window)).resolves.toBe(true);
    await page.close();
    const dist = `${root}dist/assets/`;
    for (const f of readdirSync(dist).filter((name) => name.endsWith(".js"))) {
      expect(readFileSync(dist + f, "utf8"), f).not.toContain("buflabFault");
    }
  });
});
