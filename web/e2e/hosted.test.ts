// The page as it is deployed (CONTRIBUTING.md, "Deploy"): `npm run build`, then dist/
// published under a sub-path of a plain static host that sends no special
// headers (static-host.ts). One browser context plays one person's browser
// through a workshop: first visit, repeat visit, Wi-Fi gone, keyboard only,
// both colour schemes, phone to projector.
//
// Budgets (measured here, printed, and written to test-results/budgets.json):
//   - bytes: what the first visit fetches before its first numbers, gzipped
//     as a host would send it, under a bloat guard (BYTES_BUDGET below; the
//     150 KB target is a benchmark's); and everything it fetches, the full
//     engine and the offline copy after the first numbers included
//     (ALL_BYTES_BUDGET);
//   - first results: the bound asserted is generous (5 s, a loaded CI
//     machine); the target is 300 ms on localhost (`npm run bench` sets the
//     measured figure beside it), and the figure is reported.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PRECOMPRESSED } from "../build/precompress";
import { LATER_WASM } from "../src/offline/policy";
import { launchChromium, metric, settled, watch } from "./browser";
import { MOBILE, TIMING_WASM } from "./phone";
import { SCREENSHOT_PORT, SCREENSHOTS, shot } from "./screenshots";
import { startStaticHost, type StaticHost } from "./static-host";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
const axeSource = (createRequire(import.meta.url)("axe-core") as { source: string }).source;

/** Any sub-path works (relative base); this one is deliberately deep. */
const MOUNT = "/some/sub/path/";
/**
 * Guards against accidental bloat (a duplicated bundle, an inlined wasm, the
 * timing builds back on the first numbers' path), not the product's size
 * targets: those live in benchmarks, so the 150 KB first-load target and its
 * measured figure are in `npm run bench` (docs/benchmarks.md, each figure
 * beside its target). The figures are printed here too. Before the first
 * numbers: 146.5 KiB gzipped (150.0 KB; the service worker, the write
 * lab and the panels around the results come after them), the counting
 * build of the engine (84.0 KiB: the read lab only, sources that arrive in
 * time, comparing times, and the links a decoded link carries; a link with
 * keys other than A's is read by the program build, `Decoded.deferred`)
 * and the page's code (the page chunk, with the state model, 27.2 KiB, the
 * room's, the comparison's and the quiz's sections of the model included;
 * their panels, camera and detector come later). For the default link's
 * full measurement, besides those (385.4 KiB with them): the timing build
 * of its workload (fixed, 233.7 KiB: every reader's loops of that one
 * workload, over a chunked source and over one that arrives in time, A/B
 * comparison rounds, two sweeps compared) and the timing worker's script.
 * In all (2653.8 KiB): the seven timing builds, the program build (226.1
 * KiB: writing links, the code panel and its Playground program, the write
 * lab and its lesson's choices, Calibrate), the questions build (130.9 KiB:
 * the quiz and a read lesson's four choices, each a real counted run) and
 * the trace build (296.5 KiB: a program's strace log, two result files
 * paired), which the
 * offline copy fetches after the first full measurement so any link, log
 * and result file open offline, the worker scripts (each with its build's
 * glue), chart.js, the sweep and timeline views, the handout's QR codes,
 * the room's panel, marker detector worker and answer cards page, the
 * trace panel's calls-in-order chart, and the later parts' own chunks.
 * Each guard sits just above its figure, so a doubled chunk or a few KiB
 * of new bloat trips it.
 */
const BYTES_BUDGET = 147 * 1024;
const LINK_BYTES_BUDGET = 387 * 1024;
const ALL_BYTES_BUDGET = 2656 * 1024;
/** Generous: a loaded 2-core CI machine. The target on localhost is 300 ms (docs/benchmarks.md). */
const FIRST_RESULTS_BOUND_MS = 5_000;
/** Exact by the engine's definition: one source read per byte, plus the final read that returns 0. */
const DEFAULT_UNBUFFERED_SOURCE_READS = 1048577;

let host: StaticHost;
let browser: Browser;
let context: BrowserContext;
/** Every URL the browser requested: pages, the engine worker, the service worker. */
const requested: string[] = [];
/** Requests the browser refused to send (the CSP test provokes one). */
const blocked = new Set<string>();
const problems: string[] = [];
const budgets: Record<string, number> = {};


async function open(url: string, width = 1280, height = 900): Promise<Page> {
  const page = watch(await context.newPage(), problems);
  await page.setViewportSize({ width, height });
  await page.goto(url);
  return page;
}

/**
 * In the page: ms from navigation start to the first numbers on screen (the
 * mark page.ts sets when it first shows a report), or 0 while there are none.
 */
function firstResultsMark(): number {
  const mark = performance.getEntriesByName("buflab:first-results")[0];
  return mark && document.querySelector("table.results tbody tr") ? Math.max(1, mark.startTime) : 0;
}

/** Where the time to first results went: main.ts's marks, ms after navigation start. */
async function timeline(page: Page): Promise<string> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const marks = performance.getEntriesByType("mark").filter((m) => m.name.startsWith("buflab:"));
    return [`page script done ${Math.round(nav?.domContentLoadedEventEnd ?? 0)}`, ...marks.map((m) => `${m.name.slice(7)} ${Math.round(m.startTime)}`)].join(", ");
  });
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function distFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  return walk(dist).map((path) => relative(dist, path).split(sep).join("/"));
}

/** What the keyboard focus looks like on the focused element (or the label drawn for a hidden radio). */
async function focusRing(page: Page): Promise<{ name: string; width: number; style: string; visible: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "(body)", width: 0, style: "none", visible: false };
    const drawn = el.matches(".theme-option input") ? (el.closest("label") as HTMLElement) : el;
    const css = getComputedStyle(drawn);
    const box = drawn.getBoundingClientRect();
    const labelledBy = el
      .getAttribute("aria-labelledby")
      ?.split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" ");
    const label =
      el.getAttribute("aria-label") ??
      labelledBy ??
      (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
      el.closest("label")?.textContent ??
      el.textContent ??
      "";
    return {
      name: `${el.tagName.toLowerCase()}${el.getAttribute("type") ? `[${el.getAttribute("type")}]` : ""} ${label.trim()}`,
      width: parseFloat(css.outlineWidth),
      style: css.outlineStyle,
      visible: box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0,
    };
  });
}

/** Presses Tab until `test` holds for the focused element; fails after `limit` presses. */
async function tabTo(page: Page, test: (name: string) => boolean, limit = 60): Promise<string> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const ring = await focusRing(page);
    if (test(ring.name)) return ring.name;
  }
  throw new Error("Tab never reached the control");
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page (evaluated through the debugger protocol: the page's CSP allows no inline script). */
async function axe(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const run = (window as unknown as { axe: { run(context: Document): Promise<{ violations: AxeViolation[] }> } }).axe.run;
    return (await run(document)).violations;
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

beforeAll(async () => {
  host = await startStaticHost(dist, MOUNT, { port: SCREENSHOTS ? SCREENSHOT_PORT + 1 : 0 });
  browser = await launchChromium();
  context = await browser.newContext();
  context.on("request", (request) => requested.push(request.url()));
  context.on("requestfailed", (request) => {
    if (/BLOCKED_BY_CSP/.test(request.failure()?.errorText ?? "")) blocked.add(request.url());
  });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (Object.keys(budgets).length > 0) {
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, "budgets.json"), `${JSON.stringify(budgets, null, 2)}\n`);
  }
});

afterEach(() => {
  const seen = problems.splice(0);
  expect(seen, "console errors").toEqual([]);
});

// One person's visits in order, each test on the state the one before left
// (a retry would start a "first visit" on a warm browser): no retry here.
describe("BufLab deployed under a sub-path of a plain static host", { retry: 0 }, () => {
  it("first visit: the experiment runs at once, not isolated and without a reload; the service worker comes after the first numbers; within budget", async () => {
    const started = Date.now();
    const page = watch(await context.newPage(), problems);
    await page.setViewportSize({ width: 1280, height: 900 });
    let navigations = 0;
    page.on("domcontentloaded", () => (navigations += 1));
    await page.goto(host.url);
    const inPage = await page.waitForFunction(firstResultsMark, undefined, { timeout: 30_000 });
    const firstResultsWallMs = Date.now() - started;
    const firstResultsMs = Number(await inPage.jsonValue());
    await settled(page);

    expect(new URL(page.url()).pathname).toBe(MOUNT);
    // No reload for isolation: the host sends no headers, and the first visit
    // keeps the coarse timer (the repeat visit below is isolated).
    expect(navigations).toBe(1);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    // The full measurement ran with the coarse timer and says so.
    const timer = page.locator(".status .timer");
    await expect(timer.getAttribute("data-isolated")).resolves.toBe("false");
    await expect(timer.textContent()).resolves.toMatch(/not isolated/);
    expect(await metric(page, "unbuffered", "source_reads")).toBe(DEFAULT_UNBUFFERED_SOURCE_READS);
    await expect(page.locator(".check-line").textContent()).resolves.toMatch(/Correct/);

    // The requests that arrived before the first numbers were on screen (both clocks as wall time).
    const firstAt = await page.evaluate(() => performance.timeOrigin + performance.getEntriesByName("buflab:first-results")[0]!.startTime);
    const beforeFirst = host.log.filter((r) => r.at <= firstAt);
    // The timing build of the link's workload downloads beside the count (TIMING_WASM).
    const isTimingWasm = (path: string): boolean => TIMING_WASM.test(path);
    const firstFiles = beforeFirst.filter((r) => !isTimingWasm(r.path));
    const firstGzipBytes = firstFiles.reduce((sum, r) => sum + r.gzipBytes, 0);
    // Before the first full measurement: what the first numbers need, the
    // timing build of the link's workload (the default's: fixed) and no other
    // (the program build may follow it, for writing links). What the link
    // needs for its full measurement: the first numbers' files, that timing
    // build and the timing worker's script.
    const fullAt = await page.evaluate(() => performance.timeOrigin + performance.getEntriesByName("buflab:first-full")[0]!.startTime);
    const laterWasm = distFiles().filter((file) => LATER_WASM.test(file) && !PRECOMPRESSED.test(file));
    const fixedWasm = readFileSync(new URL("../pkg-timing/fixed/buflab_timing_bg.wasm", import.meta.url));
    const fixed = laterWasm.filter((file) => readFileSync(join(dist, file)).equals(fixedWasm));
    expect(fixed).toHaveLength(1);
    // Its body came once: the compiling fetch after the prefetch is the HTTP cache's (at most a 304).
    const timingWasm = host.log.filter((r) => r.at <= fullAt && isTimingWasm(r.path) && r.bytes > 0);
    expect(timingWasm.map((r) => r.path)).toEqual([`${MOUNT}${fixed[0]}`]);
    expect(new Set(host.log.filter((r) => r.at <= fullAt && isTimingWasm(r.path)).map((r) => r.path))).toEqual(new Set([`${MOUNT}${fixed[0]}`]));
    // ... asked for once the counting build had arrived (the page's resource
    // timing: the timing build's prefetch, then its compiling fetch from the cache).
    const [countsArrived, timingAsked] = await page.evaluate((timingWasm) => {
      const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      const of = (pattern: RegExp): PerformanceResourceTiming[] => entries.filter((e) => pattern.test(e.name));
      return [Math.min(...of(/\/buflab_counts_bg-[^/]+\.wasm$/).map((e) => e.responseEnd)), of(new RegExp(timingWasm)).map((e) => e.startTime)] as [number, number[]];
    }, TIMING_WASM.source);
    expect(timingAsked.length).toBeGreaterThanOrEqual(1);
    for (const asked of timingAsked) expect(asked).toBeGreaterThanOrEqual(countsArrived);
    // (before it: the service worker's precache may revalidate the script afterwards, a 304 without a body)
    const timingScript = host.log.filter((r) => r.at <= fullAt && /\/worker-timing-[^/]+\.js$/.test(r.path));
    expect(timingScript).toHaveLength(1);
    const linkGzipBytes = firstGzipBytes + [...timingWasm, ...timingScript].reduce((sum, r) => sum + r.gzipBytes, 0);
    // Let the offline copy of the rest (asked for after the first numbers) finish
    // (the pattern crosses into the page as its source: the page has no imports).
    await page.waitForFunction(
      async ([pattern, count]) => {
        for (const name of await caches.keys()) {
          const keys = await (await caches.open(name)).keys();
          if (keys.filter((request) => new RegExp(pattern).test(request.url)).length === count) return true;
        }
        return false;
      },
      [LATER_WASM.source, laterWasm.length] as const,
      { timeout: 30_000 },
    );
    // ... and the service worker to be active, so the next visit comes through it.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const bytes = host.log.reduce((sum, r) => sum + r.bytes, 0);
    const gzipBytes = host.log.reduce((sum, r) => sum + r.gzipBytes, 0);
    Object.assign(budgets, {
      firstVisitRequests: host.log.length,
      firstVisitBytes: bytes,
      firstVisitGzipBytes: gzipBytes,
      firstVisitBeforeFirstNumbersGzipBytes: firstGzipBytes,
      firstVisitBeforeFullMeasurementGzipBytes: linkGzipBytes,
      firstVisitFirstResultsWallMs: firstResultsWallMs,
      firstVisitFirstResultsMs: Math.round(firstResultsMs),
    });
    console.log(
      `first visit: ${host.log.length} requests, ${kib(bytes)} (${kib(gzipBytes)} gzipped), ${kib(firstGzipBytes)} gzipped before the first numbers, ` +
        `${kib(linkGzipBytes)} before the full measurement; ` +
        `first results ${firstResultsWallMs} ms after goto (${Math.round(firstResultsMs)} ms after navigation start)\n` +
        `  ms: ${await timeline(page)}\n` +
        host.log.map((r) => `  ${firstFiles.includes(r) ? "first" : "later"} ${r.status} ${r.path} ${r.bytes} B (${r.gzipBytes} B gzipped)`).join("\n"),
    );
    // Nothing was fetched twice with a body: the service worker's precache came from the HTTP cache.
    const bodies = host.log.filter((r) => r.bytes > 0).map((r) => r.path);
    expect(new Set(bodies).size).toBe(bodies.length);
    expect(firstGzipBytes).toBeLessThanOrEqual(BYTES_BUDGET);
    expect(linkGzipBytes).toBeLessThanOrEqual(LINK_BYTES_BUDGET);
    expect(gzipBytes).toBeLessThanOrEqual(ALL_BYTES_BUDGET);
    // The program build, other timing builds and the service worker are not on the first numbers' path,
    // and the service worker's install does not run beside the first timed runs.
    expect(firstFiles.map((r) => r.path).filter((path) => LATER_WASM.test(path) || path.endsWith("/sw.js"))).toEqual([]);
    const serviceWorkerAt = host.log.filter((r) => r.path.endsWith("/sw.js")).map((r) => r.at);
    expect(serviceWorkerAt.length).toBeGreaterThan(0);
    expect(Math.min(...serviceWorkerAt)).toBeGreaterThanOrEqual(fullAt);
    expect(firstResultsWallMs).toBeLessThanOrEqual(FIRST_RESULTS_BOUND_MS);
    await page.close();
  });

  it("on a phone's network the timing build downloads once the first numbers' files have arrived, beside the count", async () => {
    // A fresh context (no service worker, nothing cached), Lighthouse's
    // mobile network: on localhost every file arrives at once, so only a slow
    // network shows what shares it.
    const phone = await browser.newContext();
    try {
      const page = watch(await phone.newPage(), problems);
      const cdp = await phone.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", MOBILE.network);
      await page.goto(host.url);
      // (a resource's timing entry is listed once it has arrived)
      await page.waitForFunction(() => performance.getEntriesByName("buflab:first-full").length > 0, null, { polling: 100, timeout: 60_000 });
      const { first, timing } = await page.evaluate((timingWasm) => {
        const at = performance.getEntriesByName("buflab:first-results")[0]!.startTime;
        const entries = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((e) => e.startTime <= at);
        const isTiming = (e: PerformanceResourceTiming): boolean => new RegExp(timingWasm).test(e.name);
        return {
          // (the browser's own request for the tab's icon aside)
          first: entries.filter((e) => !isTiming(e) && !e.name.endsWith("/favicon.svg")).map((e) => ({ name: e.name, end: e.responseEnd })),
          timing: entries.filter(isTiming).map((e) => e.startTime),
        };
      }, TIMING_WASM.source);
      // It is asked for before the first numbers are on screen (the count runs meanwhile) ...
      expect(timing).toHaveLength(1);
      // ... once the counting build and the page's code have arrived.
      expect(first.map((e) => e.name).filter((name) => /\/(buflab_counts_bg|page)-[^/]+\.(wasm|js)$/.test(name))).toHaveLength(2);
      for (const file of first) expect(timing[0]!, file.name).toBeGreaterThanOrEqual(file.end);
      await page.close();
    } finally {
      await phone.close();
    }
  });

  it("the precache holds every file of the build (not the precompressed copies), the wasm and the engine worker chunk included", async () => {
    const page = await open(host.url);
    await settled(page);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      }
      return urls;
    });
    const expected = distFiles()
      .filter((file) => file !== "sw.js" && !PRECOMPRESSED.test(file))
      .map((file) => `${host.url}${file}`);
    expect(expected.some((url) => url.endsWith(".wasm"))).toBe(true);
    expect(expected.some((url) => /\/assets\/worker-[^/]+\.js$/.test(url))).toBe(true);
    expect(cached.sort()).toEqual(expected.sort());
    await page.close();
  });

  it("repeat visit: the page comes from the precache and shows results quickly", async () => {
    const before = host.log.length;
    const started = Date.now();
    const page = await open(host.url);
    const inPage = await page.waitForFunction(firstResultsMark, undefined, { timeout: 30_000 });
    const wallMs = Date.now() - started;
    const firstResultsMs = Math.round(Number(await inPage.jsonValue()));
    await settled(page);
    // Served by the service worker, with the isolation headers: the fine timer from the second visit on.
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await expect(page.locator(".status .timer").getAttribute("data-isolated")).resolves.toBe("true");
    // Only the browser's update check of sw.js may reach the host.
    const fetched = host.log.slice(before).filter((r) => r.bytes > 0 || r.status !== 304);
    expect(fetched.map((r) => r.path).filter((path) => path !== `${MOUNT}sw.js`)).toEqual([]);
    Object.assign(budgets, { repeatVisitFirstResultsMs: firstResultsMs, repeatVisitFirstResultsWallMs: wallMs });
    console.log(`repeat visit: first results ${firstResultsMs} ms after navigation start (${wallMs} ms after goto); ms: ${await timeline(page)}`);
    expect(firstResultsMs).toBeLessThanOrEqual(FIRST_RESULTS_BOUND_MS);
    await page.close();
  });

  it("offline after one visit: with the host gone and the browser offline, a reload loads and runs", async () => {
    const page = await open(`${host.url}#v=1&len=256K&chunk=good&seed=7&cap=4K&rs=16&sys=300&rd=unbuffered,std&wl=fixed`);
    await settled(page);
    const online = await metric(page, "std", "source_reads");
    host.down = true;
    await context.setOffline(true);
    try {
      const before = host.log.length;
      await page.reload();
      await settled(page);
      expect(await page.evaluate(() => navigator.onLine)).toBe(false);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      expect(await metric(page, "std", "source_reads")).toBe(online);
      expect(await metric(page, "unbuffered", "source_reads")).toBe((256 * 1024) / 16 + 1);
      // The reloaded page started a fresh engine worker, from the cache; it takes new experiments.
      const readSize = page.getByRole("slider", { name: "Read size" });
      await readSize.focus();
      await readSize.press("ArrowRight");
      await page.waitForFunction(() => location.hash.includes("rs=32&"));
      await settled(page);
      expect(await metric(page, "unbuffered", "source_reads")).toBe((256 * 1024) / 32 + 1);
      expect(host.log.length).toBe(before);
      // The browser's failed update check of sw.js while offline is not the page's error.
      const kept = problems.filter((p) => !/sw\.js|ServiceWorker/i.test(p));
      problems.splice(0, problems.length, ...kept);
    } finally {
      await context.setOffline(false);
      host.down = false;
    }
    await page.close();
  });

  it("keyboard only: every stop shows its focus, and the main controls work from the keyboard", async () => {
    const page = await open(host.url);
    await settled(page);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    // Walk the whole page once: each stop must draw a visible focus ring.
    const stops: string[] = [];
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press("Tab");
      const ring = await focusRing(page);
      if (ring.name === "(body)" || stops.includes(ring.name)) break;
      stops.push(ring.name);
      expect(ring.visible, `${ring.name} is on screen when focused`).toBe(true);
      expect(ring.style, `${ring.name} shows focus`).not.toBe("none");
      expect(ring.width, `${ring.name} focus ring width`).toBeGreaterThanOrEqual(2);
    }
    const has = (part: RegExp): boolean => stops.some((name) => part.test(name));
    for (const control of [
      /^a .*Skip to results/,
      /radio.*System/,
      /button.*Lessons/,
      /button.*About/,
      /range.*Buffer capacity/,
      /^select.*Chunking/,
      /range.*Read size/,
      /^summary.*More settings/,
      /button.*Measure again/,
      /button.*Copy link/,
      /button.*Single run/,
    ]) {
      expect(has(control), `Tab reaches ${control} (stops: ${stops.join(" | ")})`).toBe(true);
    }

    // A slider: Tab to it, one arrow step, new link and new counts.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, (name) => /range.*Read size/.test(name));
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => location.hash.includes("rs=2&"));
    await settled(page);
    expect(await metric(page, "unbuffered", "source_reads")).toBe(524289);

    // A list: arrow keys on the closed select pick another chunk model.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, (name) => /^select.*Chunking/.test(name));
    const chunkBefore = await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("chunk"));
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction((before) => new URLSearchParams(location.hash.slice(1)).get("chunk") !== before, chunkBefore);
    await settled(page);

    // A button: Enter runs the measurement again.
    await tabTo(page, (name) => /button.*Measure again/.test(name));
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.getElementById("results")?.getAttribute("aria-busy") === "true", undefined, { timeout: 10_000 });
    await settled(page);

    // The colour scheme switch: arrow keys move through System, Light, Dark.
    await tabTo(page, (name) => /radio.*System/.test(name));
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => document.documentElement.dataset["theme"])).toBe("light");
    await page.keyboard.press("ArrowLeft");
    expect(await page.evaluate(() => document.documentElement.dataset["theme"])).toBeUndefined();
    await page.close();

    // On a fresh page the first Tab reaches the skip link, and Enter takes focus to the results.
    const fresh = await open(host.url);
    await settled(fresh);
    await fresh.keyboard.press("Tab");
    expect((await focusRing(fresh)).name).toMatch(/Skip to results/);
    await fresh.keyboard.press("Enter");
    expect(await fresh.evaluate(() => document.activeElement?.id)).toBe("results");
    await fresh.close();
  });

  it("the colour scheme follows the system, and the switch's choice persists", async () => {
    const page = await open(host.url);
    await settled(page);
    const background = (): Promise<string> => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await page.emulateMedia({ colorScheme: "light" });
    const light = await background();
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await background();
    expect(dark).not.toBe(light);
    await expect(page.getByRole("radio", { name: "System" }).isChecked()).resolves.toBe(true);

    // The switch's Dark gives the same palette as the system's dark.
    const palette = (): Promise<string[]> =>
      page.evaluate(() => {
        const css = getComputedStyle(document.documentElement);
        return ["--bg", "--surface", "--fg", "--muted", "--border", "--accent", "--focus", "--ok", "--bad", "--warn-bg", "--alert-bg"].map((v) =>
          css.getPropertyValue(v).trim(),
        );
      });
    const systemDark = await palette();
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByRole("radio", { name: "Dark" }).check();
    expect(await background()).toBe(dark);
    expect(await palette()).toEqual(systemDark);

    // Kept across a reload, and the system's setting no longer matters.
    await page.reload();
    await settled(page);
    await expect(page.getByRole("radio", { name: "Dark" }).isChecked()).resolves.toBe(true);
    expect(await background()).toBe(dark);
    await page.getByRole("radio", { name: "Light" }).check();
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await background()).toBe(light);

    // Back to System: follows the system again, after a reload too.
    await page.getByRole("radio", { name: "System" }).check();
    await page.reload();
    await settled(page);
    expect(await background()).toBe(dark);
    expect(await page.evaluate(() => localStorage.getItem("buflab:theme"))).toBeNull();
    await page.close();
  });

  it("axe-core finds no serious or critical problems, phone and laptop, light and dark", async () => {
    const found: string[] = [];
    for (const colorScheme of ["light", "dark"] as const) {
      for (const width of [360, 1280]) {
        const page = await open(host.url, width, 900);
        await page.emulateMedia({ colorScheme });
        await settled(page);
        for (const v of await axe(page)) {
          found.push(`${colorScheme} ${width}px: ${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        }
        await page.close();
      }
    }
    expect(found).toEqual([]);
  });

  it("the Content-Security-Policy refuses inline scripts and other origins", async () => {
    const page = await open(host.url);
    await settled(page);
    const outcome = await page.evaluate(async () => {
      const violations: string[] = [];
      document.addEventListener("securitypolicyviolation", (e) => violations.push(e.effectiveDirective));
      const script = document.createElement("script");
      script.textContent = "window.__inlineRan = true";
      document.head.append(script);
      let fetched = "allowed";
      try {
        await fetch("http://127.0.0.2:9/");
      } catch {
        fetched = "refused";
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { inlineRan: "__inlineRan" in window, fetched, violations };
    });
    expect(outcome.inlineRan).toBe(false);
    expect(outcome.fetched).toBe("refused");
    expect(outcome.violations).toEqual(expect.arrayContaining(["script-src-elem", "connect-src"]));
    // Those two refusals are logged as errors by the browser: expected here.
    const kept = problems.filter((p) => !/Content Security Policy/i.test(p) && !/127\.0\.0\.2/.test(p));
    problems.splice(0, problems.length, ...kept);
    await page.close();
  });

  it("takes screenshots from a 360 px phone to a 1920 px projector, light and dark", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      for (const width of [360, 1280, 1920]) {
        const page = await open(host.url, width, width === 360 ? 780 : 1080);
        await page.emulateMedia({ colorScheme });
        await settled(page);
        // Nothing may stick out sideways.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${width}px ${colorScheme}: sideways overflow`).toBeLessThanOrEqual(0);
        // A window as tall as the page: the phone's results bar shows as it would in a full view.
        const tall = await page.evaluate(() => Math.ceil(document.documentElement.scrollHeight));
        await page.setViewportSize({ width, height: Math.max(tall, width === 360 ? 780 : 1080) });
        if (width === 360) await page.waitForFunction(() => document.querySelector<HTMLElement>(".peek")?.hidden === true);
        await page.screenshot({ path: shot(`screenshot-${width}-${colorScheme}.png`), fullPage: true });
        await page.close();
      }
    }
  });

  it("no request left the page's origin", () => {
    expect(requested.length).toBeGreaterThan(0);
    // The CSP test's fetch to another origin was refused by the browser before it was sent.
    const elsewhere = requested.filter((url) => !url.startsWith(`${host.origin}/`) && !/^(data|blob):/.test(url) && !blocked.has(url));
    expect(elsewhere).toEqual([]);
  });
});
