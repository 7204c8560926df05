// The smoke set, written once over the driver interface (engines/driver.ts)
// and run in each engine (smoke-chromium/-firefox/-webkit.test.ts): the
// default link's first visit on a plain static host and on one that sends
// the isolation headers (Done, the CLI's counts, every file fetched once), a
// lesson in presenter mode with predict (Reveal, the clicker's keys), the
// write lab, a sweep, a bad link's notice, the buffer timeline, and a reload
// with the host gone (the service worker's offline copy). While a first
// visit measures, the status says why that takes longer wherever the
// engine's rule says the timer lengthens its samples. The full suite runs in
// Chromium; this is what must hold in every engine a room brings.
//
// Each file starts one fresh profile of its engine and its own two hosts
// (static-host.ts) serving the built page (dist/, global-setup.ts). Each
// first visit's time to Done is printed and written to
// test-results/engines-<engine>.json.

import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LATER_WASM, ISOLATION_HEADERS } from "../src/offline/policy";
import { openDriver, type Driver, type EngineName } from "./engines/driver";
import { startStaticHost, type Served, type StaticHost } from "./static-host";

const root = fileURLToPath(new URL("../../", import.meta.url));
const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const MOUNT = "/smoke/";

/** The CLI's report of `link` (`buflab --counts --json`): `npm test` names the CLI it built (BUFLAB_CLI); else cargo builds it. */
function cliRuns(link: string): CountedRun[] {
  const args = ["--counts", "--json", link];
  const [command, commandArgs] = process.env.BUFLAB_CLI ? [process.env.BUFLAB_CLI, args] : ["cargo", ["run", "-q", "-p", "buflab", "--", ...args]];
  return (JSON.parse(execFileSync(command, commandArgs, { cwd: root, encoding: "utf8", maxBuffer: 16 << 20 })) as { runs: CountedRun[] }).runs;
}

/** How many wasm files the offline copy fetches after the first numbers (the timing, program and trace builds). */
function laterWasmCount(): number {
  return readdirSync(`${dist}assets`).filter((file) => LATER_WASM.test(`assets/${file}`)).length;
}

interface CountedRun {
  reader: string;
  source_reads: number;
  app_reads: number;
  bytes_copied: number;
}
const COUNTS = ["source_reads", "app_reads", "bytes_copied"] as const;

/** In the page: the activity word, and whether a full measurement of `lab` is on screen with its later parts loaded. */
export function doneIn(lab: string): string | false {
  const activity = document.querySelector(".status .activity")?.textContent ?? "";
  const badge = document.querySelector(".status .badge")?.textContent ?? "";
  const rows = lab === "write" ? "#write-results table.results tbody tr" : "#table table.results tbody tr";
  const done =
    activity === "Done" &&
    document.body.dataset["lab"] === lab &&
    badge.startsWith("full measurement") &&
    document.querySelectorAll(rows).length > 0 &&
    performance.getEntriesByName("buflab:parts").length > 0;
  return done ? location.hash : false;
}

/** In the page: the timer's sentence once it says why measuring takes longer, or "Done" if Done came first. */
function saysWhySlower(): string | false {
  const timer = document.querySelector(".status .timer")?.textContent ?? "";
  if (timer.endsWith("so measuring takes longer")) return timer;
  return document.querySelector(".status .activity")?.textContent === "Done" ? "Done" : false;
}

/** In the page: the status's timer, its text and the engine's word on whether its step lengthened the samples. */
function timerShown(): [string, string | null] {
  const timer = document.querySelector(".status .timer");
  return [timer?.textContent ?? "", timer?.getAttribute("data-samples-lengthened") ?? null];
}

/** In the page: the timeline's caption once it shows step `step` (1-based) of the engine's recorded steps. */
function timelineAt(step: number): string | false {
  const view = document.getElementById("timeline");
  const position = document.querySelector(".timeline-position")?.textContent ?? "";
  return view !== null && !view.hidden && position.startsWith(`${step} / `) ? (document.querySelector(".timeline-caption")?.textContent ?? "") : false;
}

/** In the page: whether the service worker is activated (it controls the page's next load). */
async function serviceWorkerActive(): Promise<boolean> {
  return (await navigator.serviceWorker.getRegistration())?.active?.state === "activated";
}

/** In the page: every counted metric of the read lab's results table, by reader. */
function tableCounts(names: readonly string[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const row of document.querySelectorAll<HTMLElement>("#table table.results tbody tr[data-reader]")) {
    const reader = row.dataset["reader"]!;
    out[reader] = {};
    for (const name of names) {
      const cell = row.querySelector(`td[data-metric="${name}"]`);
      if (cell) out[reader][name] = Number(cell.getAttribute("data-value"));
    }
  }
  return out;
}

/** The paths `log` answered with a body more than `most` times. */
function fetchedMoreThan(log: readonly Served[], most: number): string[] {
  const bodies = new Map<string, number>();
  for (const served of log) if (served.status === 200) bodies.set(served.path, (bodies.get(served.path) ?? 0) + 1);
  return [...bodies].filter(([, n]) => n > most).map(([path]) => path);
}

/** In the page: once the offline copy holds every later wasm (the service worker's last download), true. */
async function offlineCopyComplete([pattern, count]: [string, number]): Promise<boolean> {
  for (const name of await caches.keys()) {
    const keys = await (await caches.open(name)).keys();
    if (keys.filter((request) => new RegExp(pattern).test(request.url)).length >= count) return true;
  }
  return false;
}

/** In the page: the lessons the list offers, [id, link], in the path's order (once the list is there). */
function lessonLinks(): [string, string][] | false {
  const items = [...document.querySelectorAll<HTMLElement>("#lesson-list li[data-lesson]")];
  const links = items.map((item): [string, string] => [item.dataset["lesson"] ?? "", item.querySelector("a.lesson-title")?.getAttribute("href") ?? ""]);
  return links.length > 1 && links.every(([id, href]) => id && href.startsWith("#")) ? links : false;
}

/** In the page: lesson `id` is on the card and in the link. */
function onLesson(id: string): boolean {
  return document.getElementById("lesson-card")?.dataset["lesson"] === id && location.hash.includes(`lesson=${id}`);
}

/** In the page: lesson `id` asks its question (predict on, not revealed). */
function asking(id: string): boolean {
  const question = document.querySelector<HTMLElement>("#lesson-card .lesson-question");
  return document.getElementById("lesson-card")?.dataset["lesson"] === id && document.body.classList.contains("predicting") && question !== null && !question.hidden;
}

/** In the page: lesson `id`'s answer, once revealed and given. */
function answered(id: string): string | false {
  const answer = document.querySelector("#lesson-card .lesson-answer")?.textContent ?? "";
  return document.getElementById("lesson-card")?.dataset["lesson"] === id && !document.body.classList.contains("predicting") && /\d/.test(answer) ? answer : false;
}

export function smokeSuite(engine: EngineName): void {
  let driver: Driver;
  let plain: StaticHost;
  let isolated: StaticHost;
  const times: Record<string, number | string> = {};

  beforeAll(async () => {
    [driver, plain, isolated] = await Promise.all([
      openDriver(engine),
      startStaticHost(dist, MOUNT),
      startStaticHost(dist, MOUNT, { headers: ISOLATION_HEADERS }),
    ]);
    times["version"] = driver.version;
  });
  afterAll(async () => {
    await Promise.all([driver?.close(), plain?.close(), isolated?.close()]);
    mkdirSync(`${root}test-results`, { recursive: true });
    writeFileSync(`${root}test-results/engines-${engine}.json`, `${JSON.stringify(times, null, 2)}\n`);
  });
  afterEach(async () => {
    expect(await driver.takeErrors(), `${engine}: errors the page logged`).toEqual([]);
  });

  describe(`the smoke set in ${engine}`, () => {
    for (const [name, host] of [
      ["plain", () => plain],
      ["isolated", () => isolated],
    ] as const) {
      it(`first visit on the ${name} host: the default link reaches Done with the CLI's counts, and no file is fetched twice`, async () => {
        const started = Date.now();
        await driver.goto(host().url);
        // While it measures, the status says why that takes longer where the engine's rule
        // (clock.rs samples_lengthened) says the timer's step lengthens the samples: every step
        // without isolation, and Firefox's and WebKit's isolated 20 µs; not Chromium's 5 µs.
        const lengthened = name === "plain" || engine !== "chromium";
        const first = await driver.waitFor(saysWhySlower, undefined, 90_000);
        if (!lengthened) expect(first, "nothing said of lengthened samples before Done").toBe("Done");
        else if (name === "plain") expect(first, "the timer's sentence while measuring, before Done").toMatch(/^timer .*, not isolated: samples lengthened, so measuring takes longer$/);
        else expect(first, "the timer's sentence while measuring, before Done").toMatch(/^timer 20 µs, isolated but coarse: samples lengthened, so measuring takes longer$/);
        const link = (await driver.waitFor(doneIn, "read", 90_000)) as string;
        const ms = Date.now() - started;
        const [timer, engineSays] = await driver.evaluate(timerShown, undefined);
        expect(engineSays, "the engine's word on the timer's step").toBe(String(lengthened));
        // Done: the step is still named, the "why" is gone.
        expect(timer).toMatch(lengthened ? /: samples lengthened$/ : /^timer \S+ µs, isolated$/);
        times[`${name}DoneMs`] = ms;
        times[`${name}Timer`] = timer;
        console.log(`${engine} ${driver.version}, ${name} host: Done ${ms} ms after goto; ${timer}`);
        expect(await driver.evaluate(() => crossOriginIsolated, undefined)).toBe(name === "isolated");

        const shown = await driver.evaluate(tableCounts, COUNTS);
        const cli = cliRuns(link.slice(1));
        expect(Object.keys(shown).sort()).toEqual(cli.map((run) => run.reader).sort());
        for (const run of cli) for (const count of COUNTS) expect(shown[run.reader]?.[count], `${run.reader} ${count}`).toBe(run[count]);

        // The offline copy's downloads come after the first full measurement: wait for its last.
        await driver.waitFor(offlineCopyComplete, [LATER_WASM.source, laterWasmCount()] as [string, number], 60_000);
        const log = host().log;
        const swAt = log.findIndex((served) => served.path.endsWith("/sw.js"));
        expect(swAt, "the service worker was registered").toBeGreaterThan(0);
        // Whether the browser has an HTTP cache: WebKitGTK's driven session has none (its two
        // fetch()es of one URL with cache: 'force-cache' both reach the host). The probe is a
        // file the page never fetches itself (Firefox asks for the favicon when it likes), at a
        // URL of this attempt's own (a retry's probe would find the first attempt's in the cache).
        const before = log.length;
        await driver.evaluate(async (url) => {
          for (let i = 0; i < 2; i++) await (await fetch(url, { cache: "force-cache" })).arrayBuffer();
        }, `${host().url}handout.html?cache-probe=${Date.now()}`);
        const httpCache = log.slice(before).filter((served) => served.path.endsWith("/handout.html")).length === 1;
        times[`${name}HttpCache`] = String(httpCache);
        if (engine !== "webkit") expect(httpCache, `${engine} has an HTTP cache`).toBe(true);
        // The page's own downloads (before the service worker): each file once. Without an HTTP
        // cache the timing build comes twice, by design: its prefetch fills the cache its
        // streaming compile then fetches from (engine/compile.ts), and there is no cache to fill.
        const timingByDesign = (path: string): boolean => !httpCache && /\/buflab_timing_bg-[^/]+\.wasm$/.test(path);
        const pageTwice = fetchedMoreThan(log.slice(0, swAt), 1).filter((path) => !timingByDesign(path));
        expect(pageTwice, `${engine}: files the page downloaded more than once on the ${name} host`).toEqual([]);
        // The service worker's precache takes the page's files from the HTTP cache, so over the
        // whole visit each file comes once too, where the browser has one; without, the precache
        // downloads once more what the page fetched (before the worker registered or after it:
        // the later parts load beside it), and never a third time (the timing build's, which the
        // page fetched twice above, never a fourth).
        const twice = fetchedMoreThan(log.slice(0, before), httpCache ? 1 : 2).filter((path) => !timingByDesign(path));
        expect(twice, `${engine}: files downloaded more than ${httpCache ? "once" : "twice"} on the ${name} host`).toEqual([]);
        expect(fetchedMoreThan(log.slice(0, before), 3), `${engine}: files downloaded four times or more`).toEqual([]);
      });
    }

    it("a lesson in presenter mode with predict: Reveal answers it, the clicker's PageDown and PageUp move through the path", async () => {
      await driver.goto(`${isolated.url}?lessons`);
      const listed = (await driver.waitFor(lessonLinks, undefined, 60_000)) as [string, string][];
      // Left once its later parts have loaded: Firefox reports an import cut off by leaving as the page's error.
      await driver.waitFor(doneIn, "read", 90_000);
      const links = new Map(listed);
      const [first, second] = listed.map(([id]) => id);
      await driver.goto(`${isolated.url}?lesson${links.get(first!)}&present=on&predict=on`);
      await driver.waitFor(asking, first!, 60_000);
      expect(await driver.text("#lesson-card .lesson-question-text")).not.toBe("");
      await driver.click('#lesson-card button[data-action="reveal"]');
      const answer = await driver.waitFor(answered, first!, 60_000);
      expect(answer).toMatch(/\d/);
      // The clicker: forward goes to the next lesson (its question asked), forward again reveals it, back returns.
      await driver.press("PageDown");
      await driver.waitFor(asking, second!, 60_000);
      await driver.press("PageDown");
      await driver.waitFor(answered, second!, 60_000);
      await driver.press("PageUp");
      await driver.waitFor(onLesson, first!, 30_000);
      expect(await driver.evaluate(() => [location.hash.includes("present=on"), document.documentElement.classList.contains("presenting")], undefined)).toEqual([true, true]);
    });

    it("the write lab: every cursor writes the same 32 KiB", async () => {
      await driver.goto(`${isolated.url}?write#v=1&lab=write`);
      await driver.waitFor(doneIn, "write", 90_000);
      expect(await driver.text(".flavour-results .write-check")).toMatch(/Identical: all 7 cursors/);
      const bytes = await driver.evaluate(
        () => [...document.querySelectorAll('#write-results tr[data-flavour] td[data-metric="bytes"]')].map((cell) => cell.getAttribute("data-value")),
        undefined,
      );
      expect(bytes).toEqual(Array(7).fill("32768"));
    });

    it("a sweep runs every point to Done", async () => {
      await driver.goto(`${isolated.url}?sweep#v=1&len=16K&chunk=64-512&rd=std&sweep=cap&from=64&to=256`);
      await driver.waitFor(() => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done", undefined, 90_000);
      expect(await driver.text("#sweep .sweep-progress-text")).toMatch(/^Done: 3 of 3 points/);
      expect(await driver.evaluate(() => document.querySelectorAll("#sweep table.sweep-table tbody tr").length, undefined)).toBe(3);
      await driver.waitFor(() => document.querySelector(".status .activity")?.textContent === "Done", undefined, 30_000);
    });

    it("a bad link names the bad value and the mistyped key in notices, and still runs", async () => {
      await driver.goto(`${isolated.url}?bad#v=1&len=16K&cap=banana&cpa=8K`);
      await driver.waitFor(doneIn, "read", 90_000);
      expect(await driver.text('.notice[data-key="cap"]')).toContain("banana");
      expect(await driver.text('.notice[data-key="cpa"]')).toContain("cap");
      expect(await driver.evaluate(() => [location.hash.includes("banana"), document.querySelectorAll(".notice script, .notice img").length], undefined)).toEqual([false, 0]);
    });

    it("the buffer timeline shows the engine's recorded steps, and stepping moves through them and into the link", async () => {
      // A link on step 33, where std's 256-byte buffer, drained 8 bytes at a time, refills (no autoplay off step 1).
      await driver.goto(`${isolated.url}?timeline#v=1&len=1M&chunk=poor&seed=42&cap=256&rs=8&sys=150&rd=unbuffered,std&wl=fixed&step=33&view=timeline`);
      expect(await driver.waitFor(timelineAt, 33, 90_000)).toMatch(/^Step 33: app asked 8 bytes \(read\); the buffer was empty: one source read/);
      expect(await driver.evaluate(() => [document.querySelector(".timeline-position")?.textContent, (document.getElementById("timeline-reader") as HTMLSelectElement | null)?.value], undefined)).toEqual([
        "33 / 100",
        "std",
      ]);
      // The strip draws each recorded source read: more than one fill of the small buffer in 100 steps.
      expect(await driver.evaluate(() => document.querySelectorAll(".timeline-strip rect.tl-in").length, undefined)).toBeGreaterThan(1);
      await driver.click('#timeline button[aria-label="Step forward"]');
      expect(await driver.waitFor(timelineAt, 34, 30_000)).toMatch(/^Step 34: app asked 8 bytes \(read\); served from the buffer, no source read; got 8 bytes, 8 bytes copied/);
      await driver.waitFor(() => location.hash.endsWith("&view=timeline&step=34"), undefined, 10_000);
    });

    it("offline: once the service worker controls the page, a reload with the host gone loads from its copy, isolated, and runs to Done with the CLI's counts", async () => {
      // A host of its own (a fresh origin). It sends the isolation headers so the first visit
      // measures with the fine timer (in Firefox and WebKit a plain host's first visit takes
      // twice as long); with the host gone, the headers, like every byte, can only come from the
      // service worker. The first visit registers it and fills its copy; the reload is a load it
      // controls, which is what a student brings into a room.
      const host = await startStaticHost(dist, MOUNT, { headers: ISOLATION_HEADERS });
      const link = "#v=1&len=256K&chunk=good&seed=7&cap=4K&rs=16&sys=300&rd=unbuffered,std&wl=fixed";
      try {
        await driver.goto(`${host.url}${link}`);
        await driver.waitFor(doneIn, "read", 90_000);
        await driver.waitFor(offlineCopyComplete, [LATER_WASM.source, laterWasmCount()] as [string, number], 60_000);
        await driver.waitFor(serviceWorkerActive, undefined, 30_000);
        await driver.reload();
        await driver.waitFor(doneIn, "read", 90_000);
        expect(await driver.evaluate(() => navigator.serviceWorker.controller !== null, undefined), "the service worker controls the reloaded page").toBe(true);
        // Gone, as a workshop's Wi-Fi goes: every connection to the host is dropped unanswered.
        // One way in all three engines (WebKitGTK's WebDriver has no offline switch).
        const answered = host.log.length;
        host.down = true;
        await driver.reload();
        expect(await driver.waitFor(doneIn, "read", 90_000)).toBe(link);
        expect(await driver.evaluate(() => [navigator.serviceWorker.controller !== null, crossOriginIsolated], undefined)).toEqual([true, true]);
        const shown = await driver.evaluate(tableCounts, COUNTS);
        for (const run of cliRuns(link.slice(1))) for (const count of COUNTS) expect(shown[run.reader]?.[count], `${run.reader} ${count}`).toBe(run[count]);
        expect(host.log.length, "nothing answered by the host").toBe(answered);
        // The browser's failed update check of sw.js with the host gone is not the page's error.
        const errors = (await driver.takeErrors()).filter((error) => !/sw\.js|ServiceWorker|service worker/i.test(error));
        expect(errors, `${engine}: errors the page logged offline`).toEqual([]);
      } finally {
        await host.close();
      }
    });
  });
}
