// Sweeps in the built page: the lesson's capacity sweep link runs by itself,
// points arrive one by one, the knee is marked at 512 in the text
// equivalent, Cancel keeps the finished points and the next run works, and
// the main thread stays responsive (no long task over 200 ms) while points
// arrive. Screenshots (browser.ts `shot`): sweep-1280.png, sweep-360.png.

import { execFileSync } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { downloaded, settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");

/** The `buffer-size` lesson's link (issue 6 contract). */
const SWEEP_LINK = "#v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=1&sys=150&rd=std,chained&wl=fixed&sweep=cap&from=16&to=64K";
const POINTS = 13;

/** A two-axis sweep (the README's example): capacity 64 … 1K down the rows, read size 1 … 8 across. */
const GRID_LINK = "#v=1&len=64K&chunk=64-512&rd=std,chained&sweep=cap,rs&from=64,1&to=1K,8";
const GRID_POINTS = 5 * 4;

// Long tasks on the page's main thread, from the first paint on; and every
// value the sweep's progress row takes (`data-done`), with when it took it:
// an observer sees each change, where polling could miss a short sweep's.
const pages = usePages({ acceptDownloads: true }, (context) =>
  context.addInitScript(() => {
    const seen: { start: number; duration: number }[] = [];
    const progress: { done: number; at: number }[] = [];
    Object.assign(window, { __longTasks: seen, __sweepProgress: progress });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) seen.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
    // A record's old value is the value the change replaced: together they
    // are every value the row took, where the element's value when the
    // observer runs is only the latest.
    new MutationObserver((records) => {
      const at = performance.now();
      for (const r of records) progress.push({ done: Number(r.oldValue), at });
      const last = records.at(-1)?.target as Element | undefined;
      if (last) progress.push({ done: Number(last.getAttribute("data-done")), at });
    }).observe(document, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["data-done"] });
  }),
);

function open(hash: string, width: number, height = 900): Promise<Page> {
  return pages.open(baseUrl + hash, width, height);
}

const row = (page: Page) => page.locator("#sweep .sweep-progress-row");

async function sweepDone(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done",
    undefined,
    { timeout: 90_000 },
  );
}

async function expectKneeAt512(page: Page): Promise<void> {
  for (const reader of ["std", "chained"]) {
    const item = page.locator(`#sweep .sweep-knees li[data-reader="${reader}"][data-metric="source_reads"]`);
    await expect(item.getAttribute("data-value")).resolves.toBe("512");
    await expect(item.textContent()).resolves.toMatch(/knee at buffer capacity 512 B /);
  }
  // The table marks the same point.
  const cell = page.locator('#sweep table.sweep-table tr[data-value="512"] td[data-reader="std"][data-metric="source_reads"]');
  await expect(cell.getAttribute("data-knee")).resolves.toBe("true");
  await expect(cell.textContent()).resolves.toContain("knee");
}

describe("sweeps", () => {
  it("a sweep link runs by itself, point by point, and marks the knee at 512", async () => {
    const page = await open(SWEEP_LINK, 1280);
    await sweepDone(page);
    await expect(row(page).getAttribute("data-done")).resolves.toBe(String(POINTS));
    await expect(page.locator("#sweep progress").evaluate((p: HTMLProgressElement) => [p.value, p.max])).resolves.toEqual([POINTS, POINTS]);
    await expect(page.locator("#sweep table.sweep-table tbody tr").count()).resolves.toBe(POINTS);
    await expectKneeAt512(page);
    await expect(page.locator("#sweep .sweep-note:not(.sweep-pair-note)").first().textContent()).resolves.toMatch(/exactly the source's bytes at every point/);
    // The settings are in the link, in canonical form.
    expect(new URL(page.url()).hash).toMatch(/&sweep=cap&from=16&to=64K$/);

    await page.locator("#sweep").screenshot({ path: shot("sweep-1280.png") });

    // The sweep exports: CSV (settings and link first, one row per point and
    // reader), JSON (the engine's sweep report) and an image per chart.
    const csv = await downloaded(page, "#sweep-export-csv");
    expect(csv.download.suggestedFilename()).toMatch(/^buflab-sweep-cap-.*\.csv$/);
    const lines = csv.bytes.toString("utf8").trimEnd().split("\r\n");
    expect(lines[0]).toBe("# BufLab sweep of cap");
    expect(lines[1]).toMatch(/^# settings: .*Stream length: 1 MiB; .*; Sweep: Buffer capacity from 16 bytes to 64 KiB$/);
    expect(lines[2]).toBe(`# link: ${page.url()}`);
    expect(lines[3]).toMatch(/^axis,value,reader,source_reads,/);
    expect(lines.length).toBe(4 + POINTS * 2);
    // At cap 512 std reads the source 3,641 times: the knee's count.
    expect(lines.find((l) => l.startsWith("cap,512,std,"))?.split(",")[3]).toBe("3641");
    const json = await downloaded(page, "#sweep-export-json");
    const parsed = JSON.parse(json.bytes.toString("utf8")) as { link: string; sweep: { complete: boolean; points: unknown[] } };
    expect(parsed.link).toBe(page.url());
    expect(parsed.sweep.complete).toBe(true);
    expect(parsed.sweep.points.length).toBe(POINTS);
    // The status speaks of the sweep's points, with the samples a point's times really took (fewer than a
    // single run's), not of the single run's measurement.
    const points = parsed.sweep.points as { report: { runs: { cpu_ns: { samples: number } }[] } }[];
    const samples = points[0]!.report.runs[0]!.cpu_ns.samples;
    await expect(page.locator(".status .sweep-badge").textContent()).resolves.toBe(`sweep, ${POINTS} points, ${samples} samples each`);
    await expect(page.locator(".status .badge").first().isHidden()).resolves.toBe(true);
    const png = await downloaded(page, "#sweep-export-png-0");
    expect(png.download.suggestedFilename()).toMatch(/^buflab-sweep-cap-source-reads-.*\.png$/);
    expect([...png.bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);

    // The main thread stays responsive while points arrive: once the page's
    // own measurement is on screen, a second sweep runs with no long task
    // over 200 ms (long tasks are wall time: a loaded machine stretches them).
    await settled(page);
    await page.getByRole("button", { name: "Run sweep" }).click();
    await page.waitForFunction(() => performance.getEntriesByName("buflab:sweep-done").length === 2, undefined, { timeout: 90_000 });
    const seen = await page.evaluate(() => {
      const start = performance.getEntriesByName("buflab:sweep-start").at(-1)?.startTime ?? 0;
      const end = performance.getEntriesByName("buflab:sweep-done").at(-1)?.startTime ?? Infinity;
      const { __longTasks: all, __sweepProgress: progress } = window as unknown as {
        __longTasks: { start: number; duration: number }[];
        __sweepProgress: { done: number; at: number }[];
      };
      const draws = performance.getEntriesByName("buflab:sweep-point").filter((m) => m.startTime >= start);
      return {
        tasks: all.filter((t) => t.start >= start && t.start <= end).map((t) => Math.round(t.duration)),
        draws: draws.map((m) => Math.round(m.duration)),
        sweepMs: Math.round(end - start),
        progress: progress.filter((p) => p.at >= start),
      };
    });
    // Points arrive one by one: the bar took intermediate values, shown at
    // different moments, not all at once as the sweep ended. (On a fresh
    // load the page has shown the first eleven points in one task, busy
    // with loading while they arrived; so this is the second run.)
    const between = seen.progress.filter((p) => p.done >= 1 && p.done < POINTS);
    expect(new Set(between.map((p) => p.done)).size, JSON.stringify(seen.progress)).toBeGreaterThan(1);
    expect(new Set(between.map((p) => p.at)).size, JSON.stringify(seen.progress)).toBeGreaterThan(1);
    const longest = Math.max(0, ...seen.tasks);
    console.info(
      `sweep: ${POINTS} points in ${seen.sweepMs} ms; long tasks during it: [${seen.tasks.join(", ")}] ms, longest ${longest} ms; ` +
        `from arrival to fully drawn, per point (drawing yields between charts): [${seen.draws.join(", ")}] ms`,
    );
    // Long tasks are wall time: on a machine running more than two jobs per
    // core (other builds), a 20 ms task can take ten times that. There the
    // bound is loosened and the test says so; the figures are logged either way.
    const load = loadavg()[0] ?? 0;
    const overloaded = load > 2 * availableParallelism();
    if (overloaded) console.info(`sweep: load average ${load.toFixed(1)} on ${availableParallelism()} cores: long-task bound 1000 ms instead of 200 ms`);
    expect(longest).toBeLessThanOrEqual(overloaded ? 1000 : 200);
    await page.close();
  });

  it("Cancel keeps the finished points, and the next run works", async () => {
    // A longer stream, so the sweep is still running when Cancel is pressed on a quiet machine.
    const page = await open(SWEEP_LINK.replace("len=1M", "len=8M"), 1280);
    await page.waitForFunction(
      () => Number(document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-done")) >= 2,
      undefined,
      { timeout: 60_000 },
    );
    await page.getByRole("button", { name: "Cancel" }).click();
    // The state turns "cancelled" once the point still drawing has finished.
    await expect.poll(() => row(page).getAttribute("data-state"), { timeout: 10_000 }).toBe("cancelled");
    const kept = Number(await row(page).getAttribute("data-done"));
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(kept).toBeLessThan(POINTS);
    await expect(page.locator("#sweep table.sweep-table tbody tr").count()).resolves.toBe(kept);
    await expect(page.locator("#sweep .sweep-progress-text").textContent()).resolves.toMatch(/Cancelled after \d+ of 13 points/);
    // The worker is gone: nothing more arrives.
    await page.waitForTimeout(1000);
    await expect(page.locator("#sweep table.sweep-table tbody tr").count()).resolves.toBe(kept);
    await expect(page.getByRole("button", { name: "Cancel" }).isDisabled()).resolves.toBe(true);

    await page.getByRole("button", { name: "Run sweep" }).click();
    await sweepDone(page);
    await expect(page.locator("#sweep table.sweep-table tbody tr").count()).resolves.toBe(POINTS);
    await expectKneeAt512(page);
    await page.close();
  });

  it("offers only the axes the settings use", async () => {
    // Frames never read with the read size (the settings strip hides it), so it is no axis.
    const page = await open("#v=1&len=64K&rd=unbuffered,std&wl=frames", 1280);
    await settled(page);
    await page.locator("#view-tab-sweep").click();
    await page.locator("#sweep-axis option").nth(1).waitFor({ state: "attached" });
    await expect(page.locator("#sweep-axis option").allTextContents()).resolves.toEqual(["Off", "Buffer capacity", "Chunk size", "Stream length", "Streams", "Arrival rate"]);
    await page.close();
  });

  it("the axis and range controls come from the schema and write the link", async () => {
    // The sweep view without an axis yet: the tab opens it and the link says so.
    const page = await open("#v=1&len=64K&rd=std", 360, 800);
    await settled(page);
    await page.locator("#view-tab-sweep").click();
    await page.waitForFunction(() => location.hash.endsWith("&view=sweep"));
    const axis = page.locator("#sweep-axis");
    await page.locator("#sweep-axis option").first().waitFor({ state: "attached" });
    await expect(axis.locator("option").allTextContents()).resolves.toEqual([
      "Off", "Buffer capacity", "Read size", "Chunk size", "Stream length", "Streams", "Arrival rate",
    ]);
    await expect(page.getByRole("button", { name: "Run sweep" }).isDisabled()).resolves.toBe(true);
    await axis.selectOption("rs");
    await page.waitForFunction(() => location.hash.endsWith("&sweep=rs&from=1&to=64K"));
    await page.locator("#sweep-to").selectOption({ label: "1K" });
    await page.waitForFunction(() => location.hash.endsWith("&sweep=rs&from=1&to=1K"));
    await page.getByRole("button", { name: "Run sweep" }).click();
    await sweepDone(page);
    await expect(page.locator("#sweep table.sweep-table tbody tr").count()).resolves.toBe(11);
    await page.close();
  });

  it("looks right on a phone", async () => {
    const page = await open(SWEEP_LINK, 360, 800);
    await sweepDone(page);
    await expectKneeAt512(page);
    await page.locator("#sweep").screenshot({ path: shot("sweep-360.png") });
    await page.close();
  });

  it("a two-axis sweep link draws its heatmap with the knee line, and agrees with the CLI", async () => {
    const page = await open(GRID_LINK, 1280);
    await sweepDone(page);
    await expect(row(page).getAttribute("data-total")).resolves.toBe(String(GRID_POINTS));
    await expect(page.locator("#sweep .sweep-progress-text").textContent()).resolves.toMatch(/^Done: 20 of 20 points/);
    expect(new URL(page.url()).hash).toMatch(/&sweep=cap,rs&from=64,1&to=1K,8$/);
    // The controls show both axes and both ranges.
    await expect(page.locator("#sweep-across").inputValue()).resolves.toBe("rs");
    await expect(page.locator("#sweep-across-to option:checked").textContent()).resolves.toBe("8");
    // The heatmap instead of the line charts, every cell drawn, the knee line at 512 in every column.
    const heat = page.locator("#sweep-heatmap");
    await expect(heat.isVisible()).resolves.toBe(true);
    await expect(page.locator("#sweep .sweep-charts").isVisible()).resolves.toBe(false);
    await expect(heat.getAttribute("data-cells")).resolves.toBe(String(GRID_POINTS));
    await expect(heat.getAttribute("data-knees")).resolves.toBe("1:512,2:512,4:512,8:512");
    await expect(heat.getAttribute("data-reader")).resolves.toBe("std");
    const box = (await heat.boundingBox())!;
    expect(box.width).toBeGreaterThan(600);
    // Another metric redraws it: bytes copied never falls with a bigger buffer for std, so no knee line.
    await page.locator("#heatmap-metric").selectOption("bytes_copied");
    await expect(heat.getAttribute("data-metric")).resolves.toBe("bytes_copied");
    await expect(heat.getAttribute("data-knees")).resolves.toBe("1:,2:,4:,8:");
    await page.locator("#heatmap-metric").selectOption("source_reads");
    // The knees in words and in the table.
    await expect(page.locator('#sweep .sweep-knees li[data-reader="std"][data-metric="source_reads"]').textContent()).resolves.toBe(
      "std BufReader, source reads: buffer capacity 512 B at read size 1 B, 2 B, 4 B, 8 B.",
    );
    await expect(page.locator("#sweep table.sweep-table tbody tr").count()).resolves.toBe(GRID_POINTS);
    const cell = page.locator('#sweep table.sweep-table tr[data-value="512"][data-across="8"] td[data-reader="std"][data-metric="source_reads"]');
    await expect(cell.getAttribute("data-knee")).resolves.toBe("true");
    await page.locator("#sweep").screenshot({ path: shot("sweep-grid-1280.png") });

    // The page's counts are the CLI's: `buflab --counts --json` of the same link.
    const json = await downloaded(page, "#sweep-export-json");
    type Point = { value: number; across: number; report: { runs: { reader: string; source_reads: number; bytes_copied: number }[] } };
    const pageSweep = (JSON.parse(json.bytes.toString("utf8")) as { sweep: { points: Point[] } }).sweep;
    const root = fileURLToPath(new URL("../../", import.meta.url));
    // `npm test` names the CLI it has built (BUFLAB_CLI): a `cargo run` would wait for the engine tests' hold on target/debug.
    const args = ["--counts", "--json", GRID_LINK];
    const [command, commandArgs] = process.env.BUFLAB_CLI ? [process.env.BUFLAB_CLI, args] : ["cargo", ["run", "-q", "-p", "buflab", "--", ...args]];
    const cli = JSON.parse(execFileSync(command, commandArgs, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 })) as { points: Point[]; link: string };
    expect(cli.link).toBe(new URL(page.url()).hash.slice(1));
    const counts = (points: Point[]) => points.map((p) => [p.value, p.across, ...p.report.runs.map((r) => [r.reader, r.source_reads, r.bytes_copied])]);
    expect(counts(pageSweep.points)).toEqual(counts(cli.points));
    expect(cli.points.length).toBe(GRID_POINTS);

    // CSV with both axes on every row; the heatmap as an image at twice its size.
    const csv = await downloaded(page, "#sweep-export-csv");
    const lines = csv.bytes.toString("utf8").trimEnd().split("\r\n");
    expect(lines[0]).toBe("# BufLab sweep of cap by rs");
    expect(lines[3]).toMatch(/^axis,value,across_axis,across_value,reader,source_reads,/);
    expect(lines.length).toBe(4 + GRID_POINTS * 2);
    await expect(page.locator("#sweep-export-png-0").isVisible()).resolves.toBe(false);
    const png = await downloaded(page, "#sweep-export-heatmap");
    expect(png.download.suggestedFilename()).toMatch(/^buflab-sweep-cap-heatmap-.*\.png$/);
    expect(png.bytes.readUInt32BE(16)).toBe(2 * Math.round(box.width));
    await page.close();
  });

  it("a two-axis sweep is picked with the By control and runs from the link it writes", async () => {
    const page = await open("#v=1&len=16K&chunk=64-512&rd=std&sweep=cap&from=64&to=256", 360, 800);
    await sweepDone(page);
    await page.locator("#sweep-across").selectOption("rs");
    await page.waitForFunction(() => /&sweep=cap,rs&from=64,1&to=256,\d+K?$/.test(location.hash));
    await page.locator("#sweep-across-to").selectOption({ label: "4" });
    await page.waitForFunction(() => location.hash.endsWith("&sweep=cap,rs&from=64,1&to=256,4"));
    await page.getByRole("button", { name: "Run sweep" }).click();
    await sweepDone(page);
    await expect(page.locator("#sweep-heatmap").getAttribute("data-cells")).resolves.toBe(String(3 * 3));
    // On a phone the heatmap fits the screen's width.
    const box = (await page.locator("#sweep-heatmap").boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    await page.locator("#sweep").screenshot({ path: shot("sweep-grid-360.png") });
    await page.close();
  });
});
