// A/B of two builds' first load on a phone: `node scripts/phone-ab.mjs A B [N]`,
// each side a built page's directory (`npx vite build --outDir DIR`) served
// by the e2e tests' static host sending its .gz copies, or `DIR:brotli` its
// .br copies (a build without BUFLAB_PRECOMPRESS=gzip writes both; the same
// DIR on both sides compares the two hosts). It loads them
// alternately N times each (default 5), each in a fresh context under
// Lighthouse's mobile profile (web/e2e/phone.ts). Prints per side the
// median and every value of the page's own marks `buflab:first-results` and
// `buflab:first-full`, and when the timing build's wasm and chart.js's
// module were fetched (the resource timing's start–end, ms after navigation
// start). On a shared machine the figures move by hundreds of ms with its
// load: compare sides run together, never runs apart.

import { chromium } from "playwright-core";
import { runnerImport } from "vite";
import { loadUntilFull, throttledPage } from "./page-wait.mjs";

const root = new URL("..", import.meta.url).pathname;
const [sideA, sideB, count = "5"] = process.argv.slice(2);
if (!sideA || !sideB) {
  console.error("usage: node scripts/phone-ab.mjs DIR_A[:brotli] DIR_B[:brotli] [N]");
  process.exit(2);
}
const { MOBILE, TIMING_WASM } = (await runnerImport(`${root}web/e2e/phone.ts`)).module;
const { startStaticHost } = (await runnerImport(`${root}web/e2e/static-host.ts`)).module;
const CHART = /\/chart-[^/]+\.js$/;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One fresh load of `host`'s page: its marks, two files' fetches, and the bytes the host sent before its first full measurement. */
async function load(browser, host) {
  const { context, page } = await throttledPage(browser, MOBILE);
  try {
    const from = host.log.length;
    await loadUntilFull(page, host.url);
    const seen = await page.evaluate(
      ([timing, chart]) => {
        const mark = (name) => Math.round(performance.getEntriesByName(name)[0].startTime);
        const fetched = (pattern) =>
          (performance.getEntriesByType("resource").filter((e) => new RegExp(pattern).test(e.name)))
            .map((e) => `${Math.round(e.startTime)}–${Math.round(e.responseEnd)}`)
            .join(",");
        return { first: mark("buflab:first-results"), full: mark("buflab:first-full"), origin: performance.timeOrigin, timing: fetched(timing), chart: fetched(chart) };
      },
      [TIMING_WASM.source, CHART.source],
    );
    const sent = host.log.slice(from).filter((r) => r.at <= seen.origin + seen.full).reduce((sum, r) => sum + r.bytes, 0);
    return { ...seen, kib: Math.round(sent / 102.4) / 10 };
  } finally {
    await context.close();
  }
}

const dirs = [sideA, sideB];
const hosts = await Promise.all(
  dirs.map((side) => {
    const [dir, encoding] = side.split(":");
    return startStaticHost(dir.startsWith("/") ? dir : `${root}${dir}`, "/", { compress: encoding === "brotli" ? "brotli" : true });
  }),
);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  // scripts/bench.mjs's flags.
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const seen = dirs.map(() => []);
  for (let i = 0; i < Number(count); i++) {
    for (const [side, host] of hosts.entries()) seen[side].push(await load(browser, host));
  }
  for (const [side, dir] of dirs.entries()) {
    const loads = seen[side];
    const of = (key) => loads.map((l) => l[key]);
    console.log(`${dir}: first numbers ${median(of("first"))} ms (${of("first").join(" ")}); full measurement ${median(of("full"))} ms (${of("full").join(" ")})`);
    for (const l of loads) console.log(`   sent before the full measurement ${l.kib} KiB; timing build fetched ${l.timing}; chart.js ${l.chart}`);
  }
} finally {
  await browser.close();
  for (const host of hosts) await host.close();
}
