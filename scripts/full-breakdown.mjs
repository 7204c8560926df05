// Where a first visit's time to its full measurement goes:
// `node scripts/full-breakdown.mjs [N] [--visits K]` serves dist/ as a plain
// static host does and N times (default 5) opens the default link in a fresh
// profile (K visits each, default 2), printing per visit, in ms after
// navigation start on the page's clock: the first numbers
// (`buflab:first-results`), the timing worker's warm-up (start, end, calls,
// why it ended) and its first full measurement (start, end), both from the
// worker's own timeline (engine/warm-up.ts, put on the page's clock through
// the two time origins), and the full measurement on screen
// (`buflab:first-full`).

import { chromium } from "playwright-core";
import { preview } from "vite";
import { loadUntilFull } from "./page-wait.mjs";
import { BETWEEN_VISITS_MS } from "./visits.mjs";

const root = new URL("..", import.meta.url).pathname;
const flags = process.argv.slice(2);
const visitsAt = flags.indexOf("--visits");
const visits = visitsAt >= 0 ? Number(flags[visitsAt + 1]) : 2;
const [count = "5"] = flags.filter((arg, i) => !arg.startsWith("--") && (visitsAt < 0 || i !== visitsAt + 1));

const server = await preview({ root, configFile: false, logLevel: "warn", build: { outDir: "dist" }, preview: { port: 0, host: "127.0.0.1", open: false } });
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const url = server.resolvedUrls.local[0];
try {
  for (let i = 0; i < Number(count); i++) {
    const context = await browser.newContext();
    try {
      for (let visit = 1; visit <= visits; visit++) {
        const page = await context.newPage();
        await loadUntilFull(page, url);
        const [origin, first, full] = await page.evaluate(() => [
          performance.timeOrigin,
          ...["buflab:first-results", "buflab:first-full"].map((name) => performance.getEntriesByName(name)[0].startTime),
        ]);
        const timelines = await Promise.all(
          page
            .workers()
            .filter((worker) => /\/worker-timing[^/]*\.js$/.test(new URL(worker.url()).pathname))
            .map((worker) =>
              worker
                .evaluate(() => {
                  const plain = (e) => e && { startTime: e.startTime, duration: e.duration, detail: e.detail };
                  return {
                    origin: performance.timeOrigin,
                    warm: plain(performance.getEntriesByName("buflab:warm-up", "measure")[0]),
                    full: plain(performance.getEntriesByName("buflab:first-full-measurement", "measure")[0]),
                  };
                })
                .then((t) => (t.full ? t : null)),
            ),
        );
        const t = timelines.find((x) => x !== null);
        const onPage = (ms) => Math.round(t.origin + ms - origin);
        const r = Math.round;
        console.log(
          `${i + 1}.${visit}: first numbers ${r(first)}; timing worker started ${onPage(0)}; ` +
            (t.warm ? `warm-up ${onPage(t.warm.startTime)}–${onPage(t.warm.startTime + t.warm.duration)} (${t.warm.detail.calls} calls, ${t.warm.detail.ended}); ` : "no warm-up; ") +
            `full measurement ${onPage(t.full.startTime)}–${onPage(t.full.startTime + t.full.duration)}; on screen ${r(full)}`,
        );
        if (visit < visits) await page.waitForTimeout(BETWEEN_VISITS_MS);
        await page.close();
      }
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
