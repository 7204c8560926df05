// Warm from the start. The engine's builds are compiled by streaming from
// their own URLs as `application/wasm` (engine/compile.ts): the only way
// Chromium keeps their optimized code for the next visit. Checked on a plain
// static host, on the first visit (through the HTTP cache) and on the next
// (through the service worker's cache, offline/policy.ts `forPage`). And the
// first full measurement of a fresh page reads what the Measure agains right
// after it read: the timing worker warms its instance up before it
// (engine/worker-timing.ts), so no reader's first time is the fresh
// engine's.

import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
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

/** Each reader's median time (ns) in the results table. */
function medians(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("#table table.results tbody tr[data-reader]")].map((row) => [
        row.getAttribute("data-reader")!,
        Number(row.querySelector('td[data-metric="cpu_median_ns"]')?.getAttribute("data-value")),
      ]),
    ),
  );
}

/** How far the first full measurement may read from a Measure again right after it, either way (issue 51's honesty rule). */
const FIRST_AGAINST_AGAIN = 1.1;
/** Measure again this many times: the range they span is what a warm engine reads on this machine now. */
const AGAINS = 3;
/**
 * More runnable work than cores (the last minute's load average): every
 * time then measures the other work too, by up to 4× either way between
 * one measurement and the next (seen on a shared 2-core machine at load 8),
 * and no bound on a ratio of two of them holds.
 */
const busy = loadavg()[0]! > cpus().length;

describe("a fresh engine's first full measurement", () => {
  it.skipIf(busy)("reads within 1.1× of the Measure agains right after it, for every reader of the default link", async () => {
    // A context of its own: a fresh renderer, so a fresh engine (no compiled module to share).
    const context = await browser.newContext();
    const done = (page: Page): Promise<unknown> =>
      page.waitForFunction(() => document.querySelector(".status .activity")?.textContent === "Done", undefined, { timeout: 60_000, polling: 100 });
    try {
      const page = watch(await context.newPage(), problems);
      await page.goto(baseUrl);
      await settled(page);
      await done(page);
      const first = await medians(page);
      const agains: Record<string, number>[] = [];
      for (let i = 0; i < AGAINS; i++) {
        await page.getByRole("button", { name: "Measure again" }).click();
        await page.waitForFunction(() => document.querySelector(".status .activity")?.textContent !== "Done", undefined, { polling: 50 });
        await done(page);
        agains.push(await medians(page));
      }
      const readers = Object.keys(first);
      expect(readers.length).toBeGreaterThan(0);
      // A shared machine's other work moves every measurement, the first's
      // and the agains' alike: the first must sit within 1.1× of the range
      // the agains span (on a quiet machine, of a Measure again). A fresh
      // engine's first measurement read up to 1.52× slower.
      for (const reader of readers) {
        const times = agains.map((again) => again[reader]!);
        const ratios = times.map((time) => Number((first[reader]! / time).toFixed(3)));
        console.log(`${reader}: first full measurement ÷ each Measure again: ${ratios.join(" ")}`);
        expect(first[reader]!, reader).toBeLessThanOrEqual(Math.max(...times) * FIRST_AGAINST_AGAIN);
        expect(first[reader]!, reader).toBeGreaterThanOrEqual(Math.min(...times) / FIRST_AGAINST_AGAIN);
      }
      await page.close();
    } finally {
      await context.close();
    }
  });
});
