// The page's state, scenario by scenario, in the built page: what a person
// saw go wrong, each pinned (the pure model's invariants are tested by
// property in web/src/app/state.property.test.ts; these check the wiring).
//
//   - Stop before any result, then Measure again: it measures again;
//   - Stop during timing: the bars and table say "not timed", not "timing…";
//   - a finished sweep, then a new chunking: never "Done" over the old sweep,
//     the sweep is redone, and its CSV names the new chunking;
//   - never "Done" while a sweep runs;
//   - after a sweep, the single run's link and native command carry no sweep.

import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { downloaded, settled, usePages } from "./browser";

const baseUrl = inject("baseUrl");

declare global {
  interface Window {
    /** Every (activity, sweep progress state) pair the page showed, in order. */
    __said: { activity: string; sweep: string | null }[];
  }
}

const { open } = usePages({ acceptDownloads: true }, (context) =>
  context.addInitScript(() => {
    window.__said = [];
    new MutationObserver(() => {
      const activity = document.querySelector(".status .activity")?.textContent ?? "";
      const sweep = document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") ?? null;
      const last = window.__said.at(-1);
      if (!last || last.activity !== activity || last.sweep !== sweep) window.__said.push({ activity, sweep });
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }),
);

const activity = (page: Page) => page.locator(".status .activity").textContent();
const said = (page: Page) => page.evaluate(() => window.__said);

/** The frames sweep of the issue: 13 capacities over a normal network. */
const FRAMES_SWEEP = "#v=1&len=256K&chunk=normal&rd=std,chained&wl=frames&sweep=cap&from=16&to=64K";

async function sweepState(page: Page, state: string): Promise<void> {
  await page.waitForFunction((s) => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === s, state, { timeout: 60_000 });
}

describe("the page's state, as a person meets it", () => {
  it("Stop before any result, then Measure again, measures again", async () => {
    const page = await open(`${baseUrl}#v=1&len=32M&chunk=poor&rs=1&rd=unbuffered,std,chained`);
    await page.waitForFunction(() => document.querySelector(".status .activity")?.textContent === "Counting…");
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await expect.poll(() => activity(page)).toBe("Stopped");
    await expect.poll(() => page.locator("#placeholder").textContent()).toMatch(/^Stopped before any result/);
    await page.getByRole("button", { name: "Measure again" }).click();
    await expect.poll(() => activity(page)).toBe("Counting…");
    // The counts of 32 MiB read a byte at a time arrive (seconds), and the timing starts.
    await page.waitForFunction(() => document.querySelector(".status")?.getAttribute("data-stage") === "counts", undefined, { timeout: 60_000 });
    expect(await activity(page)).toBe("Exact counts; timing…");
    await page.getByRole("button", { name: "Stop", exact: true }).click();
  });

  it("Stop during timing: the times say they are not coming, not that they are being measured", async () => {
    const page = await open(`${baseUrl}#v=1&len=8M&chunk=poor&rs=1&rd=unbuffered,std`);
    await page.waitForFunction(() => document.querySelector(".status")?.getAttribute("data-stage") === "counts", undefined, { timeout: 60_000 });
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await expect.poll(() => activity(page)).toBe("Stopped: not timed");
    const cells = page.locator('#table table.results td[data-metric="cpu_median_ns"]');
    await expect.poll(() => cells.allTextContents()).toEqual(["not timed", "not timed"]);
    expect(await page.locator("#results").textContent()).not.toContain("timing…");
  });

  it("a finished sweep is redone for a new chunking, never Done over the old one, and its CSV names the new chunking", async () => {
    const page = await open(`${baseUrl}${FRAMES_SWEEP}`);
    await sweepState(page, "done");
    await expect.poll(() => activity(page)).toBe("Done");
    // Never Done while the sweep ran.
    expect((await said(page)).filter((s) => s.activity === "Done" && s.sweep === "running")).toEqual([]);
    await page.evaluate(() => (window.__said = []));
    // Worst chunking, from the settings strip.
    await page.locator('#controls select:has(option[value="preset:worst"])').selectOption("preset:worst");
    await page.waitForFunction(() => location.hash.includes("chunk=worst"));
    await sweepState(page, "done");
    await expect.poll(() => activity(page)).toBe("Done");
    const log = await said(page);
    expect(log.some((s) => s.sweep === "running"), "the sweep was redone").toBe(true);
    // "drawing": the finished sweep's last report is being painted (a few ms), the sweep itself is done.
    expect(log.filter((s) => s.activity === "Done" && s.sweep !== "done" && s.sweep !== "drawing")).toEqual([]);
    const { bytes } = await downloaded(page, "#sweep-export-csv");
    expect(bytes.toString("utf8")).toContain("chunk=worst");
    expect(bytes.toString("utf8")).not.toContain("chunk=normal");
  });

  it("after a sweep, the single run's link and native command carry no sweep", async () => {
    const page = await open(`${baseUrl}${FRAMES_SWEEP}`);
    await sweepState(page, "done");
    await page.click("#view-tab-run");
    await settled(page);
    expect(new URL(page.url()).hash).not.toMatch(/sweep=|from=|to=/);
    await expect.poll(() => page.locator("#native").textContent()).toMatch(/buflab/);
    expect(await page.locator("#native").textContent()).not.toMatch(/sweep=|from=|to=/);
    // Back to the sweep view: its link carries the sweep again, and the sweep on screen is still of these settings.
    await page.click("#view-tab-sweep");
    await page.waitForFunction(() => location.hash.includes("sweep=cap"));
    await expect.poll(() => activity(page)).toBe("Done");
  });
});
