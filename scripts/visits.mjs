// Visits to the built page in one browser profile, for the bench scripts
// (ab-first-load.mjs, bench.mjs): the page's own marks per visit and, on
// request, its first full measurement against a Measure again right after it.

import { loadUntilFull, waitIn } from "./page-wait.mjs";

/** Each reader's median time (ns) on screen. */
function medians(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("#table table.results tbody tr[data-reader]")].map((row) => [
        row.getAttribute("data-reader"),
        Number(row.querySelector('td[data-metric="cpu_median_ns"]').getAttribute("data-value")),
      ]),
    ),
  );
}

/** Of ratios, the one farthest from 1 either way (1.2 before 0.85: 0.85 is 1 ÷ 1.18). */
export const farthestFromOne = (ratios) => ratios.reduce((far, r) => (Math.abs(Math.log(r)) > Math.abs(Math.log(far)) ? r : far), 1);

const done = (page) => waitIn(page, () => document.querySelector(".status .activity")?.textContent === "Done");

/**
 * How long a visit that another follows is left open after its figures: the
 * service worker caches the rest of the build, and V8 writes its code cache
 * (after 2 s without compiling).
 */
export const BETWEEN_VISITS_MS = 4000;

/**
 * `visits` loads of `url` in one fresh context of `browser`, one after the
 * other (the same profile: its HTTP, code and service worker caches): per
 * visit `{ first, full }`, the page's marks `buflab:first-results` and
 * `buflab:first-full` in ms after navigation start, and with `again`,
 * `again`: the first full measurement ÷ a Measure again right after it,
 * each reader's median time, the readers' ratio farthest from 1 either way,
 * and `aa`: that Measure again ÷ a second one (the same measurement twice).
 */
export async function visitsInOneProfile(browser, url, visits, again = false) {
  const context = await browser.newContext();
  try {
    const seen = [];
    for (let visit = 0; visit < visits; visit++) {
      const page = await context.newPage();
      await loadUntilFull(page, url);
      const [first, full] = await page.evaluate(() =>
        ["buflab:first-results", "buflab:first-full"].map((name) => Math.round(performance.getEntriesByName(name)[0].startTime)),
      );
      const figures = { first, full };
      if (again) {
        await done(page);
        // The first full measurement, then two Measure agains: the second against the first is the same
        // measurement twice (A/A), what the machine alone moves a ratio by in the same visit.
        const measured = [await medians(page)];
        for (let i = 0; i < 2; i++) {
          await page.getByRole("button", { name: "Measure again" }).click();
          // (a quick Measure again may come and go between two polls)
          await waitIn(page, () => document.querySelector(".status .activity")?.textContent !== "Done", undefined, 5_000).catch(() => undefined);
          await done(page);
          measured.push(await medians(page));
        }
        const ratio = (a, b) => farthestFromOne(Object.keys(a).map((reader) => a[reader] / b[reader]));
        figures.again = ratio(measured[0], measured[1]);
        figures.aa = ratio(measured[1], measured[2]);
      }
      if (visit + 1 < visits) await page.waitForTimeout(BETWEEN_VISITS_MS);
      await page.close();
      seen.push(figures);
    }
    return seen;
  } finally {
    await context.close();
  }
}
