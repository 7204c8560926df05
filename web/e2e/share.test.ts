// The sharing pieces in headless Chromium: the code panel follows the
// link and the controls; CSV, JSON, Markdown and PNG exports really download
// (their contents checked); a baseline survives a reload and shows ratios;
// presenter mode fits the main chart into 1280×720. Screenshots: browser.ts `shot`.

import { writeFileSync } from "node:fs";
import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { downloaded, inkOf, pngSize, settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");

const pages = usePages({ acceptDownloads: true, permissions: ["clipboard-read", "clipboard-write"] });

async function open(fragment: string, width = 1280, height = 900): Promise<Page> {
  const page = await pages.open(`${baseUrl}#${fragment}`, width, height);
  await settled(page);
  return page;
}

const LINK = "v=1&len=256K&chunk=poor&seed=42&cap=4K&rs=2&sys=150&rd=unbuffered,std,chained&wl=fixed";

describe("the code panel", () => {
  it("shows the link's cap and read size, follows the controls, and copies", async () => {
    const page = await open(LINK);
    const code = page.locator("#code-text");
    await expect.poll(() => code.textContent()).toContain("const CAP: usize = 4096; // 4K, link key `cap`");
    expect(await code.textContent()).toContain("const RS: usize = 2; // link key `rs`");
    expect(await code.textContent()).toContain("BufReader::with_capacity(CAP, open()?)");
    expect(await code.textContent()).toContain(`// Link: #${LINK}`);

    // Change the read size through its text field: the program follows.
    const rs = page.getByRole("textbox", { name: "Read size" });
    await rs.fill("64");
    await rs.press("Enter");
    await expect.poll(() => code.textContent()).toContain("const RS: usize = 64; // link key `rs`");

    await page.click("#copy-code");
    await expect.poll(() => page.locator("#code-status").textContent()).toMatch(/Copied\.|Selected/);
    if ((await page.locator("#code-status").textContent()) === "Copied.") {
      expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("const RS: usize = 64;");
    }
    await page.close();
  });

  it("fits a phone and is captured at 360 px", async () => {
    const page = await open(LINK.replace("wl=fixed", "wl=frames"), 360, 800);
    const panel = page.locator("#code");
    await panel.scrollIntoViewIfNeeded();
    const box = await panel.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(360);
    // The page itself does not scroll sideways; the program scrolls inside its box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await panel.screenshot({ path: shot("code-360.png") });
    await page.close();
  });
});

describe("export", () => {
  it("downloads CSV, JSON, Markdown and a PNG per chart with the right contents", async () => {
    const page = await open(LINK);
    const csv = await downloaded(page, "#export-csv");
    expect(csv.download.suggestedFilename()).toMatch(/^buflab-read-.*\.csv$/);
    const all = csv.bytes.toString("utf8").trim().split("\r\n");
    // The settings (in words, by the form's labels) and the link lead, as comment lines.
    expect(all[0]).toMatch(/^# BufLab read lab/);
    expect(all[1]).toMatch(/^# settings: .*Stream length: 256 KiB; /);
    expect(all[1]).not.toMatch(/\b(len|cap|rs|rd)=/);
    expect(all[2]).toBe(`# link: ${baseUrl}#${LINK}`);
    const lines = all.slice(3);
    expect(lines[0]).toMatch(/^reader,source_reads,app_reads,bytes,bytes_copied,allocations,/);
    // No float noise in any field.
    for (const line of lines.slice(1)) for (const field of line.split(",")) expect(field).not.toMatch(/\.\d{2,}/);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["unbuffered", "std", "chained"]);
    // 256 KiB read 2 bytes at a time, unbuffered: one source read per call, plus the final 0.
    expect(lines[1]!.split(",")[1]).toBe(String(128 * 1024 + 1));

    const json = await downloaded(page, "#export-json");
    const parsed = JSON.parse(json.bytes.toString("utf8")) as { link: string; report: { runs: { reader: string }[]; link: string } };
    expect(parsed.report.runs.map((r) => r.reader)).toEqual(["unbuffered", "std", "chained"]);
    expect(parsed.link).toBe(`${baseUrl}#${parsed.report.link}`);
    expect(parsed.report.link).toBe(LINK);

    const md = await downloaded(page, "#export-md");
    const text = md.bytes.toString("utf8");
    expect(text).toContain("| Reader | Source reads |");
    expect(text).toContain("| unbuffered Read | 131,073 |");

    // One per chart, once the charts have come (after the first full measurement).
    const pngButtons = page.locator(".export-pngs button");
    await pngButtons.nth(3).waitFor({ state: "attached" });
    expect(await pngButtons.count()).toBe(4);
    expect(await pngButtons.first().textContent()).toBe("Source reads (PNG)");
    const png = await downloaded(page, "#export-png-0");
    expect(png.download.suggestedFilename()).toMatch(/^buflab-read-source-reads-.*\.png$/);
    // Not a transparent image: the first pixel row is the page's surface colour.
    const image = await inkOf(page, png.bytes);
    expect(pngSize(png.bytes)).toEqual({ width: image.width, height: image.height });
    expect(image.corner[3]).toBe(255);
    // Twice the chart's size on screen, with the title above and the settings and link below.
    const shown = await page.locator("#charts figure.chart canvas").first().evaluate((c) => ({ w: c.clientWidth, h: c.clientHeight }));
    expect(image.width).toBe(2 * shown.w);
    expect(image.height).toBeGreaterThan(2 * shown.h + 100);
    expect(image.title).toBeGreaterThan(50);
    expect(image.footer).toBeGreaterThan(50);
    writeFileSync(shot("export-chart.png"), png.bytes);
    await expect.poll(() => page.locator("#export-status").textContent()).toContain("downloaded");
    await page.close();
  });
});

describe("baselines", () => {
  it("saves a run, survives a reload, opens it in the comparison view as A against the run on screen, and says when the settings differ", async () => {
    const page = await open(LINK);
    await page.evaluate(() => localStorage.removeItem("buflab:baselines"));
    await page.reload();
    await settled(page);
    expect(await page.locator("#baseline-compare").count()).toBe(0);
    await page.click("#baseline-save");
    await page.reload();
    await settled(page);
    expect(await page.locator("#baseline-differs").count()).toBe(0);
    /** "Compare with this", then the comparison view's rows as {reader, metric, outcome, a, b}. */
    const compareWithBaseline = async () => {
      await page.click("#baseline-compare");
      await page.locator("#compare .compare-table tbody tr").first().waitFor({ timeout: 30_000 });
      return page.$$eval("#compare .compare-table tbody tr", (rows) =>
        rows.map((tr) => ({
          reader: tr.querySelector("th")?.firstChild?.textContent ?? "",
          metric: tr.getAttribute("data-metric") ?? "",
          outcome: tr.getAttribute("data-outcome") ?? "",
          a: Number(tr.querySelector("td.a")?.firstChild?.textContent?.replace(/\D/g, "")),
          b: Number(tr.querySelector("td.b")?.firstChild?.textContent?.replace(/\D/g, "")),
        })),
      );
    };
    // Same settings: the comparison view, the baseline as A; exact counts tie; no time is called faster or slower between two runs of one experiment.
    let rows = await compareWithBaseline();
    expect(await page.locator("#compare .compare-title").textContent()).toMatch(/^A: the baseline saved .* · B: the run on screen$/);
    expect(rows.filter((r) => r.metric === "source_reads").map((r) => r.outcome)).toEqual(["tie", "tie", "tie"]);
    expect(rows.filter((r) => r.metric === "cpu_median_ns").map((r) => r.outcome)).not.toContain("faster");
    expect(rows.filter((r) => r.metric === "cpu_median_ns").map((r) => r.outcome)).not.toContain("slower");
    // Measured at two times, the verdict says so and is read only beyond the wider factor.
    await expect.poll(() => page.locator("#compare .compare-verdicts").textContent()).toContain("measured at different times");
    await page.click("#compare-close");

    // A smaller buffer: std's source reads rise against the baseline (B more than A), and the panel names the change in words.
    await page.goto(`${baseUrl}#${LINK.replace("cap=4K", "cap=64")}`);
    await settled(page);
    await expect
      .poll(() => page.locator("#baseline-differs").textContent())
      .toBe("The settings differ (buffer capacity 4 KiB → 64 bytes): a comparison sets two different experiments side by side.");
    rows = await compareWithBaseline();
    const reads = rows.find((r) => r.metric === "source_reads" && r.reader === "std BufReader")!;
    expect(reads.outcome).toBe("more");
    expect(reads.b).toBeGreaterThan(reads.a);
    await expect.poll(() => page.locator("#compare .compare-changed").textContent()).toContain("cap 4K → 64");
    expect(await page.locator(".baseline-link").getAttribute("href")).toBe(`${baseUrl}#${LINK}`);
    await page.click("#compare-close");

    // Corrupt storage: a notice, no crash; Clear empties it.
    await page.evaluate(() => localStorage.setItem("buflab:baselines", "{oops"));
    await page.reload();
    await settled(page);
    await expect.poll(() => page.locator("#baseline-notice").textContent()).toContain("not valid JSON");
    await page.click("#baseline-save");
    await page.click("#baseline-clear");
    expect(await page.evaluate(() => localStorage.getItem("buflab:baselines"))).toBeNull();
    expect(await page.locator("#baseline-compare").count()).toBe(0);
    await page.close();
  });
});

describe("presenter mode", () => {
  it("fits the main chart into 1280×720 without scrolling, from the link and from the toggle", async () => {
    const page = await open(`${LINK}&present=on`, 1280, 720);
    expect(await page.evaluate(() => document.documentElement.classList.contains("presenting"))).toBe(true);
    expect(await page.locator("#present-toggle").getAttribute("aria-pressed")).toBe("true");
    const chart = page.locator("#charts figure.chart").first();
    const box = (await chart.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    expect(box.y + box.height).toBeLessThanOrEqual(720);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // Large type; secondary panels hidden.
    expect(await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize))).toBeGreaterThanOrEqual(20);
    expect(await page.locator("#code").isVisible()).toBe(false);
    expect(await page.locator(".foot").isVisible()).toBe(false);
    await page.screenshot({ path: shot("presenter-1280x720.png") });

    // The toggle turns it off without a new run: the link changes, the results stay current.
    await page.click("#present-toggle");
    expect(new URL(page.url()).hash).toBe(`#${LINK}`);
    expect(await page.evaluate(() => document.documentElement.classList.contains("presenting"))).toBe(false);
    expect(await page.locator("#results").getAttribute("class")).not.toContain("stale");
    await page.close();
  });

  it("a lesson on the projector: its points sit beside the chart, both on screen, and presenter mode is not a changed setting", async () => {
    const lesson = "v=1&len=1M&chunk=pipe&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&present=on&lesson=one-byte";
    const page = await open(lesson, 1280, 720);
    const box = (await page.locator("#charts figure.chart").first().boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(720);
    const card = page.locator("#lesson-card");
    expect(await card.getAttribute("data-lesson")).toBe("one-byte");
    const points = (await card.locator(".lesson-points").boundingBox())!;
    expect(points.y).toBeGreaterThanOrEqual(0);
    expect(points.y + points.height).toBeLessThanOrEqual(720);
    // Beside the chart, not below it.
    expect(points.x).toBeGreaterThanOrEqual(box.x + box.width);
    expect(points.y).toBeLessThan(box.y + box.height);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.locator(".lesson-changed").isVisible()).toBe(false);
    await page.close();
  });

  it("a bad value gives a notice naming the key", async () => {
    const page = await open(`${LINK}&present=loud`);
    await expect.poll(() => page.locator("#notices").textContent()).toContain("present");
    expect(await page.evaluate(() => document.documentElement.classList.contains("presenting"))).toBe(false);
    await page.close();
  });
});
