// Calibrate in headless Chromium: the worker really writes the stream to a
// file in the Origin Private File System and reads it back through a
// FileSystemSyncAccessHandle, one call per source read. The figure itself
// is not asserted (it is this machine's); that it is measured, shown,
// carried in the link (sys=…&syssrc=opfs) and used by the next run is.
// A screenshot of the panel: calibrate-1280.png (browser.ts `shot`).

import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { metric, openMoreSettings, settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");

const pages = usePages();

async function open(fragment: string): Promise<Page> {
  const page = await pages.open(`${baseUrl}${fragment}`);
  await settled(page);
  return page;
}

const sysBox = (page: Page) => page.getByRole("textbox", { name: "Cost per source read" });
const fragment = (page: Page): string => new URL(page.url()).hash;

describe("Calibrate", () => {
  it("measures one OPFS read per source read, offers it as sys, and the link carries it", async () => {
    const page = await open("#v=1&len=64K&chunk=64-512&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed");
    await expect(page.locator("#calibrate .calibrate-now").getAttribute("data-sys-source")).resolves.toBe("manual");

    const started = Date.now();
    await page.getByRole("button", { name: "Calibrate in this browser" }).click();
    const result = page.locator("#calibrate .calibrate-result");
    await page.locator('#calibrate .calibrate-result[data-state="measured"]').waitFor({ timeout: 30_000 });
    const elapsed = Date.now() - started;
    const figure = result.locator(".calibrate-figure");
    const sys = Number(await figure.getAttribute("data-sys"));
    const calls = Number(await figure.getAttribute("data-calls"));
    expect(Number.isSafeInteger(sys) && sys >= 0, `sys ${sys}`).toBe(true);
    // Bounded work: a few thousand real calls at most.
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(5000);
    expect(await figure.innerText()).toMatch(/One 1-byte read from OPFS took .+ here \(measured: median of 5 samples/);
    expect(await result.locator(".calibrate-failed").count()).toBe(0);
    // The figure on this machine, for docs/benchmarks.md's Real I/O table.
    console.log(`calibrate: ${await figure.innerText()} sys ${sys} ns; ${elapsed} ms from click to result`);

    // Taken: the link records it and the next run uses it.
    await page.getByRole("button", { name: /^Use [\d,]+ ns$/ }).click();
    await expect.poll(() => fragment(page)).toContain(`&sys=${sys}&syssrc=opfs&`);
    await settled(page);
    await openMoreSettings(page);
    await expect(sysBox(page).inputValue()).resolves.toBe(String(sys));
    await expect(page.locator("#calibrate .calibrate-now").getAttribute("data-sys-source")).resolves.toBe("opfs");
    await expect(page.locator("#calibrate .calibrate-now").innerText()).resolves.toContain("calibrated in a browser (OPFS)");
    await expect(page.locator("#calibrate-use").innerText()).resolves.toBe("In use");
    // The I/O column stays modelled: source reads × the measured cost.
    const reads = await metric(page, "unbuffered", "source_reads");
    await expect(metric(page, "unbuffered", "modelled_io_ns")).resolves.toBe(reads * sys);
    await expect(page.locator("th", { hasText: "I/O (modelled)" }).count()).resolves.toBe(1);

    await page.locator("#calibrate").scrollIntoViewIfNeeded();
    await page.locator("#calibrate").screenshot({ path: shot("calibrate-1280.png") });
    await page.close();
  });

  it("opens a calibrated link as measured, and a hand-set sys is a model value again", async () => {
    const page = await open("#v=1&len=64K&chunk=poor&seed=42&cap=8K&rs=1&sys=212000&syssrc=opfs&rd=unbuffered,std&wl=fixed");
    await openMoreSettings(page);
    const note = page.locator(`#${(await sysBox(page).getAttribute("aria-describedby")) ?? ""}`);
    await expect(note.innerText()).resolves.toMatch(/^Measured: .*Origin Private File System/);
    await expect(page.locator("#calibrate .calibrate-now").innerText()).resolves.toContain("212,000 ns, calibrated in a browser (OPFS)");

    await sysBox(page).fill("300");
    await sysBox(page).press("Enter");
    await expect.poll(() => fragment(page)).toContain("&sys=300&rd=");
    expect(fragment(page)).not.toContain("syssrc");
    await expect(note.innerText()).resolves.toMatch(/^Modelled, not measured/);
    await expect(page.locator("#calibrate .calibrate-now").getAttribute("data-sys-source")).resolves.toBe("manual");
    await page.close();
  });
});
