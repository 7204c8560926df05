// Which engine builds V8 keeps compiled code for, visit by visit:
// `IDLE=12000 node scripts/code-cache-visits.mjs URL [visits] [persistent]`
// loads URL (a served dist/, e.g. `python3 -m http.server -d dist`) `visits`
// times in one browser context (with `persistent`, a profile on disk), each
// visit left IDLE ms (default 5000) after its first full measurement, and
// prints per visit the page's marks and the V8 wasm code-cache events of
// Chromium's trace: streamFromResponseCallback (a build compiled by
// streaming), compiledModule and cachedModule (its optimized code written
// to the cache), moduleCacheHit (a later visit started from it), and the
// timing worker's warm-up (its calls, time and why it ended).
// CHROMIUM_FLAGS adds flags to the browser's, e.g.
// `--js-flags=--wasm-caching-timeout-ms=0` (V8 writes each chunk of
// optimized code at once rather than after 2 s without new optimized code:
// docs/benchmarks.md, "Warm from the start").

import { chromium } from "playwright-core";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
const [url, visits = "3", persistent] = process.argv.slice(2);
const args = [...(process.env.CHROMIUM_FLAGS ? process.env.CHROMIUM_FLAGS.split(" ") : []), "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
let browser, context;
if (persistent) {
  context = await chromium.launchPersistentContext(mkdtempSync(`${tmpdir()}/buflab-profile-`), { executablePath: "/usr/bin/chromium", args });
  browser = context.browser();
} else {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args });
  context = await browser.newContext();
}
const page0 = await context.newPage();
const cdp = await context.newCDPSession(page0);
for (let v = 0; v < Number(visits); v++) {
  const events = [];
  const bcdp = browser ? await browser.newBrowserCDPSession() : cdp;
  bcdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
  const finished = new Promise((resolve) => bcdp.once("Tracing.tracingComplete", resolve));
  await bcdp.send("Tracing.start", { traceConfig: { includedCategories: ["disabled-by-default-devtools.timeline", "v8.wasm", "disabled-by-default-v8.wasm.detailed"] }, transferMode: "ReportEvents" });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName("buflab:first-full").length > 0, undefined, { polling: 100, timeout: 60000 });
  const marks = await page.evaluate(() => ["buflab:first-results", "buflab:first-full"].map((n) => Math.round(performance.getEntriesByName(n)[0].startTime)));
  await page.waitForTimeout(Number(process.env.IDLE ?? 5000));
  await bcdp.send("Tracing.end");
  await finished;
  const wasm = events.filter((e) => /^v8\.wasm\.(moduleCacheHit|cachedModule|compiledModule|moduleCacheInvalid|streamFromResponseCallback)/.test(e.name));
  const summary = {};
  for (const e of wasm) {
    const key = `${e.name}${e.args?.url ? " " + e.args.url.replace(/^.*\//, "") : ""}`;
    summary[key] = (summary[key] ?? 0) + 1;
  }
  // The timing worker's warm-up before its first full measurement (engine/warm-up.ts).
  const warmUps = [];
  for (const worker of page.workers().filter((w) => /\/worker-timing[^/]*\.js$/.test(new URL(w.url()).pathname))) {
    warmUps.push(...(await worker.evaluate(() => performance.getEntriesByName("buflab:warm-up", "measure").map((e) => `${e.detail.calls} calls, ${Math.round(e.duration)} ms, ${e.detail.ended}`))));
  }
  console.log(`visit ${v + 1}: first numbers ${marks[0]} ms, full ${marks[1]} ms, controlled ${await page.evaluate(() => navigator.serviceWorker.controller !== null)}, warm-up ${warmUps.join("; ") || "none"}`);
  for (const [k, n] of Object.entries(summary)) console.log(`   ${k} ×${n}`);
  await page.close();
}
await context.close();
if (browser && !persistent) await browser.close();
