// The write lab in headless Chromium: the switch between labs is a visible
// control and part of the link, the write-cursor article's experiment runs with identical
// bytes in every cursor, a too-small fixed buffer shows a WriteZero message
// (not a crash), BufWriter cuts the sink writes, the lost final-flush error
// is shown, and the screenshots (browser.ts `shot`).

import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { enter, settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");

function cell(page: Page, row: string, metric: string) {
  return page.locator(`#write-results tbody tr${row} td[data-metric="${metric}"]`);
}

async function value(page: Page, row: string, metric: string): Promise<string> {
  return (await cell(page, row, metric).first().getAttribute("data-value")) ?? "";
}

function fragment(page: Page): string {
  return new URL(page.url()).hash.replace(/^#/, "");
}

const FIXED = ["cursor_mut_slice", "cursor_box", "mut_slice"];
const GROWABLE = ["cursor_vec", "cursor_mut_vec", "writer_vec", "bytes_mut"];

const { open } = usePages();

describe("the write lab", () => {
  it("the lab switch is a visible tab that changes the link and shows the write lab's results", async () => {
    const page = await open(baseUrl);
    await settled(page, "read");
    const writeTab = page.getByRole("tab", { name: /Write lab/ });
    await expect(writeTab.isVisible()).resolves.toBe(true);
    await expect(writeTab.getAttribute("aria-selected")).resolves.toBe("false");
    await writeTab.click();
    await page.waitForFunction(() => location.hash.includes("lab=write"));
    await settled(page, "write");
    await expect(writeTab.getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.locator("#controls").isHidden()).resolves.toBe(true);
    await expect(page.locator("#charts").isHidden()).resolves.toBe(true);
    await expect(page.getByRole("slider", { name: "Records" }).isVisible()).resolves.toBe(true);

    // The write-cursor article's experiment: 2048 records into 32 KiB, every cursor identical.
    for (const f of [...GROWABLE, ...FIXED]) {
      expect(await value(page, `[data-flavour="${f}"]`, "bytes")).toBe("32768");
      expect(await value(page, `[data-flavour="${f}"]`, "check")).toBe("identical");
      expect(Number(await value(page, `[data-flavour="${f}"]`, "cpu_median_ns"))).toBeGreaterThan(0);
    }
    await expect(page.locator(".flavour-results .write-check").textContent()).resolves.toMatch(/Identical: all 7 cursors/);
    // The qualities table, from the engine's schema.
    const bytesMut = page.locator('.qualities tr[data-flavour="bytes_mut"]');
    await expect(bytesMut.locator('td[data-metric="refcounted"]').getAttribute("data-value")).resolves.toBe("true");
    await expect(page.locator('.qualities tr[data-flavour="mut_slice"] td[data-metric="growable"]').textContent()).resolves.toBe("no");
    // Beside the article's times, why today's order is not theirs (the engine's sentence).
    await expect(page.locator(".qualities .article-order").textContent()).resolves.toMatch(/^Why today's order differs.*memcpy/);
    // BufWriter over a file-like sink: one write per 8 KiB buffer instead of one per 16 bytes.
    expect(await value(page, '[data-mode="direct"]', "sink_writes")).toBe(String((1 << 20) / 16));
    expect(await value(page, '[data-mode="bufwriter"]', "sink_writes")).toBe(String((1 << 20) / 8192));
    // The dropped BufWriter loses the final error; flush() and into_inner() report it.
    expect(await value(page, '[data-ending="dropped"]', "reported_by")).toBe("lost");
    expect(await value(page, '[data-ending="flush"]', "reported_by")).toBe("flush");
    expect(await value(page, '[data-ending="into_inner"]', "reported_by")).toBe("into_inner");

    // Back to the read lab by keyboard: the link loses lab=write, the read results return.
    await writeTab.focus();
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => !location.hash.includes("lab="));
    await settled(page, "read");
    await expect(page.locator("#write-controls").isHidden()).resolves.toBe(true);
    await page.close();
  });

  it("a fixed buffer that is too small ends in a clear WriteZero message, not a crash", async () => {
    const page = await open(`${baseUrl}#v=1&lab=write&recs=2K&buf=32K`);
    await settled(page, "write");
    await enter(page, "Buffer size (fixed)", "1K", "&buf=1K&", "write");
    for (const f of FIXED) {
      expect(await value(page, `[data-flavour="${f}"]`, "check")).toBe("error");
      expect(await value(page, `[data-flavour="${f}"]`, "bytes")).toBe("1024");
    }
    for (const f of GROWABLE) expect(await value(page, `[data-flavour="${f}"]`, "check")).toBe("identical");
    const message = await page.locator(".write-zero").textContent();
    expect(message).toContain("WriteZero");
    expect(message).toContain("failed to write whole buffer");
    expect(message).toContain("at least 32 KiB");
    // The engine did not crash: no error alert, no restart notice.
    await expect(page.locator(".alert").isHidden()).resolves.toBe(true);
    await expect(page.locator(".notice.engine").count()).resolves.toBe(0);
    await page.close();
  });

  it("no initial capacity makes the growable cursors reallocate", async () => {
    const page = await open(`${baseUrl}#v=1&lab=write&icap=0&wf=cursor_vec,writer_vec,bytes_mut,mut_slice`);
    await settled(page, "write");
    for (const f of ["cursor_vec", "writer_vec", "bytes_mut"]) {
      expect(Number(await value(page, `[data-flavour="${f}"]`, "reallocs"))).toBeGreaterThan(0);
    }
    expect(await value(page, '[data-flavour="mut_slice"]', "reallocs")).toBe("0");
    await expect(page.locator("#write-results tbody tr[data-flavour]").count()).resolves.toBe(4 + 7);
    // The slider has a stop for 0, and shows it.
    await expect(page.getByRole("textbox", { name: "Initial capacity (growable)" }).inputValue()).resolves.toBe("0");
    expect(fragment(page)).toContain("icap=0&");
    await page.close();
  });

  it("a bad write value in a link is named in a notice and replaced", async () => {
    const page = await open(`${baseUrl}#v=1&lab=write&recs=lots&wf=nope`);
    await settled(page, "write");
    await expect(page.locator('.notice[data-key="recs"]').textContent()).resolves.toContain("lots");
    await expect(page.locator('.notice[data-key="wf"]').textContent()).resolves.toContain("nope");
    expect(fragment(page)).toContain("recs=2K");
    await page.close();
  });

  it("takes screenshots of the write lab at laptop and phone widths", async () => {
    const wide = await open(`${baseUrl}#v=1&lab=write`, 1280, 900);
    await settled(wide, "write");
    await wide.screenshot({ path: shot("screenshot-write.png"), fullPage: true });

    const phone = await open(`${baseUrl}#v=1&lab=write&buf=1K`, 360, 780);
    await settled(phone, "write");
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const tall = await phone.evaluate(() => document.documentElement.scrollHeight);
    await phone.setViewportSize({ width: 360, height: tall });
    await phone.waitForFunction(() => document.querySelector<HTMLElement>(".peek")?.hidden === true);
    await phone.screenshot({ path: shot("screenshot-write-phone.png"), fullPage: true });
    await wide.close();
    await phone.close();
  });
});
