// A/B of two builds' first load: `node scripts/ab-first-load.mjs DIR_A DIR_B [N]`
// serves each built page (`vite build --outDir DIR`) as the header-sending
// server does and loads them alternately, N times each (default 8), each in a
// fresh context (as `npm run bench` does); prints per side the median and
// every value of the page's own marks `buflab:first-results` and
// `buflab:first-full` (ms after navigation start). Alternating loads share
// the machine's noise, which on a small shared machine is larger than most
// single changes: compare medians, and rerun before believing a difference
// under ~20 ms.

import { chromium } from "playwright-core";
import { preview } from "vite";
import { loadUntilFull } from "./page-wait.mjs";

const root = new URL("..", import.meta.url).pathname;
const [dirA, dirB, count = "8"] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error("usage: node scripts/ab-first-load.mjs DIR_A DIR_B [N]");
  process.exit(2);
}
const dirs = [dirA, dirB];

const serve = (dir) =>
  preview({
    root: `${root}web`,
    configFile: `${root}vite.config.ts`,
    mode: "production",
    logLevel: "warn",
    build: { outDir: dir.startsWith("/") ? dir : `${root}${dir}` },
    preview: { port: 0, host: "127.0.0.1", open: false },
  });

/** One fresh-context load: [first numbers, full measurement] in ms after navigation start. */
async function load(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await loadUntilFull(page, url);
    return await page.evaluate(() =>
      ["buflab:first-results", "buflab:first-full"].map((name) => Math.round(performance.getEntriesByName(name)[0].startTime)),
    );
  } finally {
    await context.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const servers = await Promise.all(dirs.map(serve));
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  // scripts/bench.mjs's flags.
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const seen = dirs.map(() => ({ first: [], full: [] }));
  for (let i = 0; i < Number(count); i++) {
    for (const [side, server] of servers.entries()) {
      const [first, full] = await load(browser, server.resolvedUrls.local[0]);
      seen[side].first.push(first);
      seen[side].full.push(full);
    }
  }
  for (const [side, dir] of dirs.entries()) {
    const { first, full } = seen[side];
    console.log(`${dir}: first numbers ${median(first)} ms (${first.join(" ")}); full measurement ${median(full)} ms (${full.join(" ")})`);
  }
} finally {
  await browser.close();
  for (const server of servers) await server.close();
}
