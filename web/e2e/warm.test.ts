// Warm from the start. The engine's builds are compiled by streaming from
// their own URLs as `application/wasm` (engine/compile.ts): the only way
// Chromium keeps their optimized code for the next visit. Checked on a plain
// static host, on the first visit (through the HTTP cache) and on the next
// (through the service worker's cache, offline/policy.ts `forPage`). And a
// fresh page's timing worker warms up before its first full measurement
// (engine/worker-timing.ts) with short calls of what that measurement times,
// until they stop getting faster, so no reader's first time is the fresh
// engine's: checked on the worker's own timeline (engine/warm-up.ts). What
// that buys, the first full measurement against a Measure again, is a
// figure of `npm run bench` (a ratio of two times on a shared machine is
// no bound a test can hold).

import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { type Called, FULL_MEASURE, WARM_UP_MEASURE, type WarmUpDetail } from "../src/engine/warm-up";
import { LATER_WASM } from "../src/offline/policy";
import { launchChromium, settled, watch } from "./browser";
import { startStaticHost, type StaticHost } from "./static-host";

const baseUrl = inject("baseUrl");
const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const MOUNT = "/warm/";

/** One WebAssembly compilation the page asked for. */
interface Compiled {
  how: "streaming" | "bytes";
  /** The response's URL and Content-Type (streaming only). */
  url: string | null;
  type: string | null;
}

declare global {
  interface Window {
    __compiled: Compiled[];
  }
}

/** Records every compilation on the page (where the engine's builds are compiled, engine/spawn.ts), before the page's own scripts. */
async function recordCompiles(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    window.__compiled = [];
    const streaming = WebAssembly.compileStreaming.bind(WebAssembly);
    WebAssembly.compileStreaming = async (source) => {
      const response = await source;
      window.__compiled.push({ how: "streaming", url: response.url, type: response.headers.get("Content-Type") });
      return streaming(response);
    };
    const compile = WebAssembly.compile.bind(WebAssembly);
    WebAssembly.compile = (bytes) => {
      window.__compiled.push({ how: "bytes", url: null, type: null });
      return compile(bytes);
    };
  });
}

/** What the page compiled so far, in order. */
async function compiledOn(page: Page): Promise<Compiled[]> {
  return page.evaluate(() => window.__compiled);
}

const problems: string[] = [];
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(() => {
  expect(problems.splice(0), "console errors").toEqual([]);
});

describe("the engine's builds are compiled by streaming, as application/wasm, from their own URLs", { retry: 0 }, () => {
  let host: StaticHost;
  let context: BrowserContext;

  beforeAll(async () => {
    host = await startStaticHost(dist, MOUNT);
    context = await browser.newContext();
    await recordCompiles(context);
  });

  afterAll(async () => {
    await context?.close();
    await host?.close();
  });

  /** Checks that the counting build and the default link's timing build were compiled by streaming, and nothing from bytes. */
  function streamedEveryBuild(compiled: Compiled[]): void {
    expect(compiled.filter((c) => c.how === "bytes"), "compiled from bytes").toEqual([]);
    for (const build of [/\/assets\/buflab_counts_bg-[^/?]+\.wasm$/, /\/assets\/buflab_timing_bg-[^/?]+\.wasm$/]) {
      const streamed = compiled.filter((c) => build.test(c.url ?? ""));
      expect(streamed, String(build)).toHaveLength(1);
      expect(streamed[0]!.type, String(build)).toBe("application/wasm");
    }
  }

  it("first visit: each build is compiled once, streamed (the timing build from the HTTP cache its prefetch filled)", async () => {
    const page = watch(await context.newPage(), problems);
    await page.goto(host.url);
    await settled(page);
    streamedEveryBuild(await compiledOn(page));
    // Each build's body came from the host once: its streaming fetch was the HTTP cache's (the service worker's precache too).
    const wasmBodies = host.log.filter((r) => r.path.endsWith(".wasm") && r.bytes > 0).map((r) => r.path);
    expect(wasmBodies.length).toBeGreaterThan(1);
    expect(new Set(wasmBodies).size).toBe(wasmBodies.length);
    // Let the service worker take the rest of the build into its cache, for the next visit.
    await page.waitForFunction(
      async (pattern) => {
        if ((await navigator.serviceWorker.getRegistration())?.active?.state !== "activated") return false;
        for (const name of await caches.keys()) {
          const keys = await (await caches.open(name)).keys();
          if (keys.some((request) => new RegExp(pattern).test(request.url))) return true;
        }
        return false;
      },
      LATER_WASM.source,
      { timeout: 60_000, polling: 200 },
    );
    await page.close();
  });

  it("repeat visit, through the service worker: still streamed, as application/wasm", async () => {
    const page = watch(await context.newPage(), problems);
    await page.goto(host.url);
    await settled(page);
    // A page opened while the worker was still activating is not controlled: its next load is.
    if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
      await page.reload();
      await settled(page);
    }
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    streamedEveryBuild(await compiledOn(page));
    await page.close();
  });
});

/** A performance measure of the timing worker: its span on the worker's clock (ms) and its detail. */
interface Measured<D> {
  start: number;
  end: number;
  detail: D;
}

describe("a fresh engine's first full measurement", () => {
  it("starts after a warm-up of short calls of its own export on its own link", async () => {
    // A context of its own: a fresh renderer, so a fresh engine (no compiled module to share).
    const context = await browser.newContext();
    try {
      const page = watch(await context.newPage(), problems);
      await page.goto(baseUrl);
      await settled(page);
      await page.waitForFunction(() => document.querySelector(".status .activity")?.textContent === "Done", undefined, { timeout: 60_000, polling: 100 });
      // The worker's own timeline: what it warmed up with and when, and when its first full measurement began.
      const timing = page.workers().filter((worker) => /\/worker-timing[^/]*\.js$/.test(new URL(worker.url()).pathname));
      expect(timing.length, "timing workers").toBeGreaterThan(0);
      const timelines = await Promise.all(
        timing.map((worker) =>
          worker.evaluate(
            (names) =>
              names.map((name) =>
                performance.getEntriesByName(name, "measure").map((e) => ({ start: e.startTime, end: e.startTime + e.duration, detail: (e as PerformanceMeasure).detail })),
              ),
            [WARM_UP_MEASURE, FULL_MEASURE],
          ),
        ),
      );
      const measured = timelines.filter(([, fulls]) => fulls!.length > 0);
      expect(measured, "timing workers that made a full measurement").toHaveLength(1);
      const [warmUps, fulls] = measured[0]! as [Measured<WarmUpDetail>[], Measured<Called>[]];
      expect(fulls).toHaveLength(1);
      expect(warmUps, "warm-ups").toHaveLength(1);
      const [warmUp, full] = [warmUps[0]!, fulls[0]!];
      console.log(`warm-up: ${warmUp.detail.calls} calls of ${warmUp.detail.export}, ${(warmUp.end - warmUp.start).toFixed(1)} ms, ended ${warmUp.detail.ended}`);
      // The very functions the measurement times, on its link: quick calls of the same export.
      expect({ export: warmUp.detail.export, link: warmUp.detail.link }).toEqual(full.detail);
      expect(full.detail.link).toContain("v=1");
      // Short calls, more than the first (which compiles), ended before the
      // measurement began. Why it ended is logged, not held: on a quiet
      // machine its rule (faster, then no faster: `optimized`); on a busy
      // one the optimizing compiles wait for a core and the fresh period
      // runs out first (docs/benchmarks.md, "Warm from the start").
      expect(["optimized", "long", "limit"]).toContain(warmUp.detail.ended);
      expect(warmUp.detail.calls).toBeGreaterThanOrEqual(2);
      expect(warmUp.end).toBeLessThanOrEqual(full.start);
      await page.close();
    } finally {
      await context.close();
    }
  });
});
