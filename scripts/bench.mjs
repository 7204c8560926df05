// Native vs WebAssembly on the same scenario suite, same machine, same run,
// and the cross-check of BufLab's timed pass against plain programs.
//
//   native:    target/release/buflab --bench-one NAME  (Instant clock; each row
//              in a process of its own; --bench for the cross-check rows)
//   wasm:      dist-bench/bench.html in headless Chromium (performance.now()
//              in a worker, cross-origin isolated by vite preview's headers)
//   criterion: cargo bench --bench crosscheck           (the referee, natively)
//
// The suite's two sides use crate/src/engine/clock.rs's sampling, so their
// ratio compares the code, not two harnesses. Writes docs/benchmarks.md
// unless --no-write.
//
// `node scripts/bench.mjs --first-load` measures only the page's first load
// (sizes, first results, full measurement, on a header-sending server and on
// a plain static host) from the dist/ of `vite build`, prints it and writes
// nothing: about two minutes, for checking a change to what the page loads.
// `node scripts/bench.mjs --page` measures only the page's responsiveness
// (every control's interaction to next paint, and counts after a control
// change) from the same dist/, prints it and writes nothing.
// `node scripts/bench.mjs --throttled` measures only the first load under
// Lighthouse's mobile profile on a host that sends the build's .gz copies and
// on one that sends its .br copies, against the floor page (about three
// minutes; prints, writes nothing; dist/ must have its .br copies: a build
// without BUFLAB_PRECOMPRESS=gzip).
// `node scripts/bench.mjs --criterion` runs only Criterion's cross-check
// (about five minutes) and prints each scenario's rounds and ratio.
// `node scripts/bench.mjs --order` runs only the order check (one scenario
// timed alone and after every other, natively and in WebAssembly; about two
// minutes) and prints it; it needs `npm run bench`'s release and bench builds.
// `node scripts/bench.mjs --visits` measures only two visits in one profile
// on a plain static host against the floor page, each with its first full
// measurement against a Measure again (about three minutes; prints, writes
// nothing).
// `node scripts/bench.mjs --suite` runs only the suite, natively and in
// WebAssembly in alternating rounds, and prints its table (needs `npm run
// bench`'s release and bench builds; about two minutes; writes nothing).
//
// The full run prints, first, each of issue 51's targets beside its figure
// from this run (`targetLines`), and the load average of the machine before
// and after it: on a shared machine every time here measures the other work
// too.

import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { preview, runnerImport } from "vite";
import { loadUntilFull, throttledPage, waitIn } from "./page-wait.mjs";
import { interactionFigures, interactionLines } from "./page-interactions.mjs";
import { machinePhases, phaseLines } from "./machine-phases.mjs";
import { visitsInOneProfile } from "./visits.mjs";

const firstLoadOnly = process.argv.includes("--first-load");
const pageOnly = process.argv.includes("--page");
const throttledOnly = process.argv.includes("--throttled");
const criterionOnly = process.argv.includes("--criterion");
const orderOnly = process.argv.includes("--order");
const visitsOnly = process.argv.includes("--visits");
const suiteOnly = process.argv.includes("--suite");
const write = !process.argv.includes("--no-write") && !firstLoadOnly && !pageOnly && !throttledOnly && !orderOnly && !visitsOnly && !suiteOnly;
const root = new URL("..", import.meta.url).pathname;
/**
 * The mobile profile, and which wasm downloads beside the first count (not
 * one of the first numbers' files): TypeScript, shared with the hosted e2e
 * test (web/e2e/phone.ts).
 */
const { MOBILE, TIMING_WASM: BESIDE_COUNT } = (await runnerImport(`${root}web/e2e/phone.ts`)).module;

/** `target/release/buflab ARGS`' JSON. */
const buflab = (args) => JSON.parse(execFileSync(`${root}target/release/buflab`, args, { encoding: "utf8" }));

/**
 * The suite's rows natively, each in a process of its own (`buflab
 * --bench-one NAME`), as the row's own program would run. In one process
 * a row's buffers land wherever the rows before it left the heap, and
 * glibc's memcpy on the AMD CPU docs/benchmarks.md was measured on is about
 * 10× slower where a destination lies 1–31 bytes past its source's offset
 * in a page: the NUL scan's 64 KiB refills fell there in `buflab --bench`
 * and read 5× their own time ("A memcpy cliff").
 */
const nativeRows = (names) => ({ results: names.map((name) => buflab(["--bench-one", name])) });

/** The order check's scenario: the cross-check row whose full Criterion runs read 1.5–3.4× (issue 35). */
const ORDER_SCENARIO = "64-byte reads, std 8K";
/** Pairs of samples (alone, after the others), alternating which comes first. */
const ORDER_ROUNDS = 7;

/**
 * The order check (issue 35): ORDER_SCENARIO's full measurement alone and
 * after every other scenario of the suite has run in the same process or
 * worker (`bench::bench_one`), each sample in a fresh one, in adjacent pairs
 * that alternate which goes first (the machine's speed drifts). `one(after)`
 * gives one sample's ns/byte. The ratio is the median of the pairs' ratios.
 */
async function orderRounds(one) {
  const alone = [];
  const after = [];
  for (let i = 0; i < ORDER_ROUNDS; i++) {
    for (const afterOthers of i % 2 ? [true, false] : [false, true]) (afterOthers ? after : alone).push(await one(afterOthers));
  }
  const ratios = after.map((x, i) => x / alone[i]);
  return { alone: median(alone), after: median(after), ratio: median(ratios), ratioMin: Math.min(...ratios), ratioMax: Math.max(...ratios) };
}

/** The order check natively: a fresh `buflab --bench-one` process per sample. */
function nativeOrder() {
  return orderRounds(async (afterOthers) => {
    const args = ["--bench-one", ORDER_SCENARIO, ...(afterOthers ? ["--after-others"] : [])];
    return buflab(args).ns_per_byte;
  });
}

/**
 * How long a fresh worker waits, its wasm instantiated, before timing, in
 * the order check's second WebAssembly row: right after instantiating, a
 * fresh worker's samples ran slower and scattered wider. The engine's own
 * rule for that (a first full measurement warms up until the instance is
 * `FRESH_NS` old, crate/src/engine/clock.rs) is what should make the
 * first WebAssembly row read as this one.
 */
const ORDER_SETTLE_MS = 3000;

/** The order check in WebAssembly: the benchmark page (a fresh worker) per sample; each worker idle `settleMs` before timing. */
async function wasmOrder(settleMs = 0) {
  const server = await serve("bench");
  const browser = await launch();
  try {
    const url = server.resolvedUrls.local[0];
    return await orderRounds(async (afterOthers) => {
      const page = await browser.newPage();
      try {
        await page.goto(`${url}bench.html?one=${encodeURIComponent(ORDER_SCENARIO)}&after=${afterOthers ? 1 : 0}&settle=${settleMs}`);
        await waitIn(page, () => document.getElementById("state")?.textContent !== "running…", undefined, 600_000);
        const text = await page.textContent("#out");
        if ((await page.textContent("#state")) !== "done") throw new Error(`wasm order check failed: ${text}`);
        return JSON.parse(text).ns_per_byte;
      } finally {
        await page.close();
      }
    });
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The order check's table, each ratio beside its target. */
function orderLines(native, wasm, settled) {
  const row = (where, o) =>
    `| ${where} | ${f(o.alone)} | ${f(o.after)} | ${f(o.ratio, 2)}× [${f(o.ratioMin, 2)}–${f(o.ratioMax, 2)}] | within 1.1× either way |`;
  return [
    `| the order check: "${ORDER_SCENARIO}" timed alone (a fresh process or worker) and after every other scenario of the suite in the same one; ${ORDER_ROUNDS} adjacent pairs, alternating which goes first | ns/byte alone | ns/byte after the others | after ÷ alone, median [min–max] of the pairs | target |`,
    "| --- | ---: | ---: | ---: | ---: |",
    row("native", native),
    row("WebAssembly (a Chromium worker)", wasm),
    row(`WebAssembly, each worker idle ${ORDER_SETTLE_MS / 1000} s after instantiating before it times`, settled),
  ];
}

/**
 * Criterion's cross-check (crate/benches/crosscheck.rs): per scenario, each
 * round's median ns per run of each side (`rounds[i] = { buflab, plain }`),
 * the rounds alternating which side Criterion times first.
 */
function criterion() {
  const out = execFileSync("cargo", ["bench", "-p", "buflab", "--bench", "crosscheck", "--", "--output-format", "bencher"], {
    encoding: "utf8",
    cwd: root,
    maxBuffer: 1 << 26,
  });
  const scenarios = new Map();
  for (const line of out.split("\n")) {
    const m = /^test (.+)\/round (\d+)\/(buflab|plain) \.\.\. bench:\s+([\d,]+) ns\/iter/.exec(line);
    if (!m) continue;
    const rounds = scenarios.get(m[1]) ?? [];
    scenarios.set(m[1], rounds);
    rounds[Number(m[2])] = { ...rounds[Number(m[2])], [m[3]]: Number(m[4].replaceAll(",", "")) };
  }
  return scenarios;
}

/** One scenario's Criterion rounds in sum: each side's median time, and the median [min–max] of the rounds' ratios. */
function roundsSummary(rounds) {
  const whole = rounds.filter((r) => r.buflab && r.plain);
  const ratios = whole.map((r) => r.buflab / r.plain);
  return {
    ours: median(whole.map((r) => r.buflab)),
    theirs: median(whole.map((r) => r.plain)),
    ratio: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
    ratios,
  };
}

async function serve(mode) {
  return preview({
    root: `${root}web`,
    configFile: `${root}vite.config.ts`,
    mode,
    logLevel: "warn",
    preview: { port: 0, host: "127.0.0.1", open: false },
  });
}

/** dist/ served as a plain static host does: no COOP/COEP (the service worker adds them after one reload). */
async function servePlain() {
  return preview({
    root,
    configFile: false,
    logLevel: "warn",
    build: { outDir: "dist" },
    preview: { port: 0, host: "127.0.0.1", open: false },
  });
}

function launch() {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    // The e2e tests' flags (web/e2e/chromium.ts), written out: this is plain JS.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}

/** Rounds of the suite on each side, alternating which side goes first (`suiteRounds`). */
const SUITE_ROUNDS = 5;

/** One run of the suite in WebAssembly: a fresh load of the benchmark page in `page`, its report. */
async function wasmSuiteOnce(page, url) {
  await page.goto(`${url}bench.html`);
  await waitIn(page, () => document.getElementById("state")?.textContent !== "running…", undefined, 600_000);
  const state = await page.textContent("#state");
  const text = await page.textContent("#out");
  if (state !== "done") throw new Error(`wasm suite failed: ${text}`);
  return JSON.parse(text);
}

/** Of one row's rounds, the round with the median ns/byte (the lower middle one of an even count). */
const medianRound = (rounds) => [...rounds].sort((a, b) => a.ns_per_byte - b.ns_per_byte)[(rounds.length - 1) >> 1];

/**
 * The suite natively (`nativeRows`) and in WebAssembly (`wasmSuiteOnce`)
 * in SUITE_ROUNDS rounds each, alternating which side goes first: this
 * machine's speed for the same code changes by 1.5–1.9× from one second to
 * the next (docs/benchmarks.md, "The machine's two speeds"), so one run of
 * each, a minute apart, compared whichever phases each fell in. Per side,
 * the rows' median rounds and `rounds`, every round's report; the
 * cross-check rows (their own alternating rounds inside one run) and the
 * timer come from one `buflab --bench` natively and the first round in
 * WebAssembly.
 */
async function suiteRounds() {
  const server = await serve("bench");
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const url = server.resolvedUrls.local[0];
    const whole = buflab(["--bench"]);
    const names = whole.results.map((row) => row.name);
    const rounds = { native: [], wasm: [] };
    for (let i = 0; i < SUITE_ROUNDS; i++) {
      for (const side of i % 2 ? ["wasm", "native"] : ["native", "wasm"]) {
        rounds[side].push(side === "native" ? nativeRows(names) : await wasmSuiteOnce(page, url));
      }
    }
    const merged = (first, all) => ({ ...first, results: all[0].results.map((_, row) => medianRound(all.map((r) => r.results[row]))), rounds: all });
    return { native: merged(whole, rounds.native), wasm: merged(rounds.wasm[0], rounds.wasm), chromium: browser.version() };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The page's responsiveness on the production build: counts after a control change, and every control's interaction to next paint. */
async function pageFigures() {
  const site = await serve("production");
  const browser = await launch();
  try {
    const url = site.resolvedUrls.local[0];
    return { countsLatency: await countsLatencyMs(browser, url), interactions: await interactionFigures(browser, url) };
  } finally {
    await browser.close();
    await site.close();
  }
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};

/**
 * One first load of `url` in a fresh context (no HTTP or code cache, no
 * service worker yet): navigation start to the default experiment's first
 * numbers on the page (the page's `buflab:first-results` mark) and to its
 * first full measurement (`buflab:first-full`). On a plain static host that
 * is a first visit, not isolated (no reload: the full measurement uses the
 * coarse timer). The times count from the first navigation's start (kept in
 * sessionStorage by an init script, which the CSP does not govern, so a
 * reload would be counted too). The wall clock around page.goto would add
 * the browser's own context and navigation set-up, which no visitor waits
 * for twice.
 * With `record`, also returns the paths the load requested, service worker
 * included (`paths`), and those it requested before its first numbers were
 * on screen (`beforeFirst`: asked for before the `buflab:first-results`
 * mark, both clocks read as wall time).
 */
async function oneFirstLoad(browser, url, record = false) {
  const context = await browser.newContext();
  /** The load's requests: path, and when (wall clock). */
  const asked = [];
  if (record) context.on("request", (request) => asked.push({ path: new URL(request.url()).pathname, at: Date.now() }));
  await context.addInitScript(() => {
    if (!sessionStorage.getItem("bench:t0")) sessionStorage.setItem("bench:t0", String(performance.timeOrigin));
  });
  const page = await context.newPage();
  await loadUntilFull(page, url);
  const [first, full, firstAt] = await page.evaluate(() => {
    const since = performance.timeOrigin - Number(sessionStorage.getItem("bench:t0"));
    const at = (name) => Math.round(since + performance.getEntriesByName(name)[0].startTime);
    return [at("buflab:first-results"), at("buflab:first-full"), performance.timeOrigin + performance.getEntriesByName("buflab:first-results")[0].startTime];
  });
  let paths = new Set();
  let beforeFirst = new Set();
  if (record) {
    // Let the service worker's fetches (install, then the rest) finish before the context goes.
    await page.waitForTimeout(1000);
    paths = new Set(asked.map((r) => r.path));
    beforeFirst = new Set(asked.filter((r) => r.at <= firstAt && !BESIDE_COUNT.test(r.path)).map((r) => r.path));
  }
  await context.close();
  return { first, full, paths, beforeFirst };
}

/**
 * The first-load figures of each site (`urls`: name → address), median of
 * 5 loads each, the sites' loads alternating (so they share the machine's
 * state; run one after the other, the first site's loads came right after
 * the browser's start), after one load that is not counted (the browser's
 * own first start-up: fonts, its network service, which a visitor's running
 * browser has behind it). The first counted load of each site records what
 * it requested.
 */
async function firstLoads(browser, urls) {
  const names = Object.keys(urls);
  await oneFirstLoad(browser, urls[names[0]]);
  const loads = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < 5; i++) {
    for (const name of names) loads[name].push(await oneFirstLoad(browser, urls[name], i === 0));
  }
  return Object.fromEntries(
    names.map((name) => {
      const all = loads[name];
      return [name, { first: median(all.map((l) => l.first)), full: median(all.map((l) => l.full)), paths: all[0].paths, beforeFirst: all[0].beforeFirst }];
    }),
  );
}

/** The buffer-size lesson's capacity sweep: 13 points of a 1 MiB stream, std and chained. */
const SWEEP_LINK = "#v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=1&sys=150&rd=std,chained&wl=fixed&sweep=cap&from=16&to=64K";

/**
 * Run sweep → the sweep's last point drawn (the page's own marks
 * `buflab:sweep-start` and `buflab:sweep-done`), once the page has settled
 * and its own first sweep (a sweep link runs by itself) is done; median of 3.
 */
async function sweepMs(browser, url) {
  const page = await browser.newPage();
  await page.goto(url + SWEEP_LINK);
  const done = (n) => waitIn(page, (n) => performance.getEntriesByName("buflab:sweep-done").length >= n, n, 120_000);
  await done(1);
  const times = [];
  for (let i = 0; i < 3; i++) {
    await page.getByRole("button", { name: "Run sweep" }).click();
    await done(i + 2);
    times.push(
      await page.evaluate(() => performance.getEntriesByName("buflab:sweep-done").at(-1).startTime - performance.getEntriesByName("buflab:sweep-start").at(-1).startTime),
    );
  }
  await page.close();
  return Math.round(median(times));
}

/**
 * Two pages for scale, served as the plain host serves dist/, which show
 * what this machine's browser takes before any page can have numbers:
 * `floor` (index.html), one script that starts a module worker, which
 * answers at once; `engine` (?engine), the same worker with the counting
 * build (its glue and wasm from dist/; the wasm compiled while it downloads
 * and handed over, as the page does) counting the default link, and nothing
 * else: no stylesheet, no frame, no page code. Same marks as the page's.
 * Writes them into a temporary directory and returns it.
 */
function floorPages() {
  const dir = mkdtempSync(`${os.tmpdir()}/buflab-floor-`);
  const assets = readdirSync(`${root}dist/assets`);
  const glue = assets.find((f) => /^buflab_counts-[^.]+\.js$/.test(f));
  const wasm = assets.find((f) => /^buflab_counts_bg-[^.]+\.wasm$/.test(f));
  mkdirSync(`${dir}/assets`);
  for (const file of [glue, wasm]) copyFileSync(`${root}dist/assets/${file}`, `${dir}/assets/${file}`);
  const files = {
    "index.html": `<!doctype html><meta charset="utf-8"><title>floor</title><script type="module" src="./floor.js"></script><p>floor</p>`,
    "floor.js": `const engine = location.search === "?engine";
const worker = new Worker(new URL(engine ? "./engine.js" : "./echo.js", import.meta.url), { type: "module" });
if (engine) WebAssembly.compileStreaming(fetch("./assets/${wasm}")).then((module) => worker.postMessage(module));
worker.onmessage = ({ data }) => {
  for (const mark of ["buflab:first-results", "buflab:first-full"]) performance.mark(mark);
  document.body.append(String(data));
};`,
    "echo.js": `postMessage("ready");`,
    "engine.js": `import init, { run } from "./assets/${glue}";
onmessage = async ({ data }) => {
  await init({ module_or_path: data });
  run("", true, false);
  postMessage("counted");
};`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(`${dir}/${name}`, text);
  return dir;
}

/** The pages for scale (`floorPages`) served as the plain host serves dist/: the server and the directory. */
async function serveFloors() {
  const dir = floorPages();
  const server = await preview({ root: os.tmpdir(), configFile: false, logLevel: "warn", build: { outDir: dir }, preview: { port: 0, host: "127.0.0.1", open: false } });
  return { server, dir };
}

/**
 * First-load figures on a header-sending server (vite preview) and on a
 * plain static host, the two pages for scale (`serveFloors`), and a sweep's time.
 */
async function firstLoad() {
  const site = await serve("production");
  const plain = await servePlain();
  const floors = await serveFloors();
  const browser = await launch();
  try {
    const floorUrl = floors.server.resolvedUrls.local[0];
    const { headers, hosted, floor, engine } = await firstLoads(browser, {
      headers: site.resolvedUrls.local[0],
      hosted: plain.resolvedUrls.local[0],
      floor: floorUrl,
      engine: `${floorUrl}?engine`,
    });
    const sweep = await sweepMs(browser, site.resolvedUrls.local[0]);
    return { headers, hosted, floor, engine, sweep, chromium: browser.version() };
  } finally {
    await browser.close();
    await site.close();
    await plain.close();
    await floors.server.close();
    rmSync(floors.dir, { recursive: true, force: true });
  }
}

/** What countsLatencyMs types into each box: values the page has not counted before, one per change. */
const COUNTS_CHANGES = {
  capacity: { box: "Buffer capacity", values: ["9K", "10K", "11K", "12K", "13K", "14K", "15K"] },
  readSize: { box: "Read size", values: ["2", "3", "4", "5", "6", "7", "8"] },
};

/**
 * A control change → that experiment's exact counts on screen: the page's
 * own marks `buflab:edited` and `buflab:counts-shown`, for the default 1 MiB
 * experiment with its buffer capacity typed in, then its read size, each
 * time a value the page has not counted (COUNTS_CHANGES: the engine keeps
 * each reader's counts and reuses them for a change that reader ignores, so
 * a value typed before, or the capacity for the unbuffered reader, costs
 * no count), after the page has settled each time. Median of 7 changes each.
 */
async function countsLatencyMs(browser, url) {
  const page = await browser.newPage();
  const settledFull = () =>
    waitIn(page, () => document.querySelector(".status")?.dataset.stage === "full" && !document.getElementById("results")?.classList.contains("stale"));
  await page.goto(url);
  await settledFull();
  const medians = {};
  for (const [control, { box, values }] of Object.entries(COUNTS_CHANGES)) {
    const times = [];
    const input = page.getByRole("textbox", { name: box });
    for (const value of values) {
      await page.evaluate(() => performance.clearMarks());
      await input.fill(value);
      await input.press("Enter");
      await waitIn(page, () => performance.getEntriesByName("buflab:counts-shown").length > 0);
      times.push(
        await page.evaluate(() => performance.getEntriesByName("buflab:counts-shown")[0].startTime - performance.getEntriesByName("buflab:edited")[0].startTime),
      );
      await settledFull();
    }
    times.sort((a, b) => a - b);
    medians[control] = times[times.length >> 1];
  }
  await page.close();
  return medians;
}

/** The counts-latency lines, beside the target. */
function countsLatencyLines(counts) {
  const span = ({ values }) => `${values[0]} … ${values.at(-1)}`;
  return [
    "Exact counts on screen after a control change (the default 1 MiB experiment; a value typed in that the page has not counted before; median of 7 each; target ≤ 50 ms):",
    `- buffer capacity (${span(COUNTS_CHANGES.capacity)}: std counts again, the unbuffered reader's counts are reused): ${f(counts.capacity, 1)} ms;`,
    `- read size (${span(COUNTS_CHANGES.readSize)}: both readers count again): ${f(counts.readSize, 1)} ms.`,
  ];
}

/**
 * The two wasm builds' sizes, and what the first visit to a plain static
 * host fetched: before its first numbers (`load.hosted.beforeFirst`) and in
 * all (`load.hosted.paths`: the full engine, chart.js and the service
 * worker's offline copy too); each file
 * gzipped at level 9 as a host would send it, or its .br copy.
 */
function sizes(load) {
  const dist = `${root}dist/`;
  const files = readdirSync(`${dist}assets`).map((f) => `assets/${f}`);
  const gz = (f) => gzipSync(readFileSync(dist + f), { level: 9 }).length;
  // The build's .br copies (web/build/precompress.ts), for hosts that serve them.
  const br = (f) => (existsSync(`${dist + f}.br`) ? statSync(`${dist + f}.br`).size : gz(f));
  const wasm = (test) => {
    const file = files.find((f) => f.endsWith(".wasm") && test(f));
    return { raw: readFileSync(dist + file).length, gzip: gz(file) };
  };
  const fetchedOf = (paths) => {
    const asked = (f) => [...paths].some((p) => p.endsWith(`/${f}`) || (f === "index.html" && p.endsWith("/")));
    const fetched = ["index.html", "sw.js", "favicon.svg", ...files].filter(asked);
    return { gzip: fetched.reduce((sum, f) => sum + gz(f), 0), brotli: fetched.reduce((sum, f) => sum + br(f), 0), files: fetched.map((f) => `${f} ${gz(f)}`) };
  };
  const packaged = (path) => readFileSync(`${root}web/${path}`);
  const timings = files.filter((f) => f.includes("buflab_timing_bg") && f.endsWith(".wasm"));
  return {
    counts: wasm((f) => f.includes("buflab_counts_bg")),
    program: wasm((f) => f.includes("buflab_program_bg")),
    questions: wasm((f) => f.includes("buflab_questions_bg")),
    timing: wasm((f) => readFileSync(dist + f).equals(packaged("pkg-timing/fixed/buflab_timing_bg.wasm"))),
    timings: { gzip: timings.reduce((sum, f) => sum + gz(f), 0) },
    beforeFirst: fetchedOf(load.hosted.beforeFirst),
    beforeFirstHeaders: fetchedOf(load.headers.beforeFirst),
    all: fetchedOf(load.hosted.paths),
  };
}

/** The e2e tests' plain static host (web/e2e/static-host.ts), loaded through Vite: TypeScript. */
async function staticHost(dir, options) {
  const { module } = await runnerImport(`${root}web/e2e/static-host.ts`);
  return module.startStaticHost(dir, "/", options);
}

/**
 * One first load of `url` under the mobile profile, in a fresh context:
 * navigation start to the first numbers and to the first full measurement
 * (the page's own marks), and the bytes the host sent before each.
 */
async function oneThrottledLoad(browser, url, host) {
  const { context, page } = await throttledPage(browser, MOBILE);
  try {
    const from = host.log.length;
    await loadUntilFull(page, url);
    const [first, full, origin] = await page.evaluate(() => [
      ...["buflab:first-results", "buflab:first-full"].map((name) => Math.round(performance.getEntriesByName(name)[0].startTime)),
      performance.timeOrigin,
    ]);
    const sent = (until, counted = () => true) =>
      host.log.slice(from).filter((r) => r.at <= origin + until && counted(r)).reduce((sum, r) => sum + r.bytes, 0);
    return { first, full, firstBytes: sent(first, (r) => !BESIDE_COUNT.test(r.path)), fullBytes: sent(full) };
  } finally {
    await context.close();
  }
}

/**
 * First loads under the mobile profile on a host that sends the build's
 * .gz copies (as GitHub Pages compresses), on one that sends its .br copies
 * (as Netlify does), and of the floor page (served with its .gz copies),
 * alternating, after one uncounted load; median of 5 each.
 */
async function throttledLoads() {
  // Without them the brotli host would send the .gz copies, and its row would say nothing.
  if (!readdirSync(`${root}dist/assets`).some((file) => file.endsWith(".wasm.br"))) {
    throw new Error("dist/ has no .br copies: build it without BUFLAB_PRECOMPRESS=gzip (npm run build)");
  }
  const floorDir = floorPages();
  const site = await staticHost(`${root}dist`, { compress: true });
  const brotli = await staticHost(`${root}dist`, { compress: "brotli" });
  const floor = await staticHost(floorDir, { compress: true });
  const browser = await launch();
  try {
    const sides = { page: site, brotli, floor };
    await oneThrottledLoad(browser, site.url, site);
    const loads = { page: [], brotli: [], floor: [] };
    for (let i = 0; i < 5; i++) {
      for (const [name, host] of Object.entries(sides)) loads[name].push(await oneThrottledLoad(browser, host.url, host));
    }
    const med = (name, key) => median(loads[name].map((l) => l[key]));
    const figures = (name) => ({ first: med(name, "first"), full: med(name, "full"), firstBytes: med(name, "firstBytes"), fullBytes: med(name, "fullBytes") });
    return { ...figures("page"), brotli: figures("brotli"), floor: med("floor", "first"), all: loads };
  } finally {
    await browser.close();
    await site.close();
    await brotli.close();
    await floor.close();
    rmSync(floorDir, { recursive: true, force: true });
  }
}

/** The throttled first-load figures, each beside its target (issue 35). */
function throttledLines(t) {
  return [
    "| first load under Lighthouse's mobile profile (150 ms round trips, 1.6 Mbit/s down, CPU 4× slower; a host sending the .gz copies, unless a row says .br; fresh context, median of 5, the two hosts and the floor page alternating) | measured | target |",
    "| --- | ---: | ---: |",
    `| first exact numbers after navigation start | ${t.first} ms | ≤ 1000 ms |`,
    `| full measurement on screen | ${t.full} ms | ≤ 2500 ms |`,
    `| first exact numbers / full measurement above the floor page (the targets restated against this machine: what the page adds to a page that does nothing) | ${t.first - t.floor} / ${t.full - t.floor} ms | ≤ 1000 / ≤ 2500 ms |`,
    `| for scale, the floor page under the same profile | ${t.floor} ms | |`,
    `| bytes the host sent for the first numbers (the timing build, downloading beside the count, aside) / before the full measurement | ${kib(t.firstBytes)} / ${kib(t.fullBytes)} | |`,
    `| the same page from a host sending the .br copies: first exact numbers / full measurement above the floor page | ${t.brotli.first - t.floor} / ${t.brotli.full - t.floor} ms | |`,
    `| that host's bytes for the first numbers / before the full measurement | ${kib(t.brotli.firstBytes)} / ${kib(t.brotli.fullBytes)} | |`,
  ];
}

/**
 * The suite's table (`lines`): per row each side's median round and
 * their ratio, with the range of the ratios of the rounds taken side by
 * side (round r natively against round r in WebAssembly); and
 * `medianRatio`, the median of the rows' ratios.
 */
function suiteTable(native, wasm) {
  const rows = native.results.map((n, i) => {
    const w = wasm.results[i];
    const paired = native.rounds.map((round, r) => wasm.rounds[r].results[i].ns_per_byte / round.results[i].ns_per_byte);
    return { name: n.name, link: n.link, native: n.ns_per_byte, wasm: w.ns_per_byte, ratio: w.ns_per_byte / n.ns_per_byte,
      ratioMin: Math.min(...paired), ratioMax: Math.max(...paired),
      copyBound: n.copy_bound, nativeMad: n.cpu_ns.mad / n.cpu_ns.median, wasmMad: w.cpu_ns.mad / w.cpu_ns.median };
  });
  const medianRatio = median(rows.map((r) => r.ratio));
  const lines = [
    `| scenario (each side's median of ${SUITE_ROUNDS} rounds, alternating which side goes first) | ns/byte native | ns/byte WASM | WASM / native [min–max of the rounds side by side] |`,
    "| --- | ---: | ---: | ---: |",
    ...rows.map(
      (r) =>
        `| ${r.name}${r.copyBound ? " (copy-bound)" : ""} | ${f(r.native)} ±${f(r.nativeMad * 100, 0)}% | ${f(r.wasm)} ±${f(r.wasmMad * 100, 0)}% | ${f(r.ratio, 2)}× [${f(r.ratioMin, 2)}–${f(r.ratioMax, 2)}] |`,
    ),
    "",
    `Median WASM/native ratio: **${f(medianRatio, 2)}×**.`,
  ];
  return { medianRatio, lines };
}

/** How long the machine's own speed is watched before and after the run (`machinePhases`). */
const PHASES_MS = 3000;

/** Rounds of `visitLoads`. */
const VISIT_ROUNDS = 5;

/**
 * A first and a repeat visit (`visitsInOneProfile`: one fresh profile, the
 * second visit after the first has left the service worker and V8's code
 * cache their time), each with its first full measurement against a Measure
 * again right after it, on a plain static host serving dist/, alternating
 * with the floor page (served the same way), after one uncounted load;
 * median of VISIT_ROUNDS each.
 */
async function visitLoads() {
  const plain = await servePlain();
  const floors = await serveFloors();
  const browser = await launch();
  try {
    const url = plain.resolvedUrls.local[0];
    const floorUrl = floors.server.resolvedUrls.local[0];
    await oneFirstLoad(browser, floorUrl);
    const floor = [];
    const visits = [[], []];
    for (let i = 0; i < VISIT_ROUNDS; i++) {
      floor.push((await oneFirstLoad(browser, floorUrl)).first);
      for (const [visit, figures] of (await visitsInOneProfile(browser, url, 2, true)).entries()) visits[visit].push(figures);
    }
    const sum = (all) => ({ full: median(all.map((v) => v.full)), again: median(all.map((v) => v.again)), aa: median(all.map((v) => v.aa)), all });
    return { floor: median(floor), floors: floor, first: sum(visits[0]), repeat: sum(visits[1]) };
  } finally {
    await browser.close();
    await plain.close();
    await floors.server.close();
    rmSync(floors.dir, { recursive: true, force: true });
  }
}

/** The visits' figures, each load's values too. */
function visitLines(v) {
  const each = (key, digits) => (visit) => visit.all.map((x) => f(x[key], digits)).join(" ");
  return [
    `| a first and a repeat visit in one profile, plain static host (median of ${VISIT_ROUNDS}, alternating with the floor page; each load's values in brackets) | first visit | repeat visit |`,
    "| --- | ---: | ---: |",
    `| full measurement on screen after navigation start | ${v.first.full} ms (${each("full", 0)(v.first)}) | ${v.repeat.full} ms (${each("full", 0)(v.repeat)}) |`,
    `| first full measurement ÷ a Measure again right after it, the reader farthest from 1 | ${f(v.first.again, 2)}× (${each("again", 2)(v.first)}) | ${f(v.repeat.again, 2)}× (${each("again", 2)(v.repeat)}) |`,
    `| for scale, that Measure again ÷ a second one (A/A: the same measurement twice), the reader farthest from 1 | ${f(v.first.aa, 2)}× (${each("aa", 2)(v.first)}) | ${f(v.repeat.aa, 2)}× (${each("aa", 2)(v.repeat)}) |`,
    `| for scale, the floor page | ${v.floor} ms (${v.floors.join(" ")}) | |`,
  ];
}

/** One row of the targets table: what, its target, this run's figure, and whether the figure meets it. */
const targetRow = (what, target, figure, met) => `| ${what} | ${target} | ${figure} | ${met ? "met" : "**not met**"} |`;

/** Within 1.1× either way: neither more than 1.1 times the other nor less than its 1/1.1. */
const withinTenth = (ratio) => ratio <= 1.1 && ratio >= 1 / 1.1;

/**
 * Issue 51's targets, each beside its figure from this run: the first and
 * repeat visits' full measurements above the floor page (`visits`), the
 * first full measurement against a Measure again, the phone's figures above
 * its floor (`throttled`), WebAssembly against native (`medianRatio`) and
 * each cross-check row (`crossRows`, Criterion's ratio); and issue 51's
 * first-numbers and counts targets (`load`, `counts`).
 */
function targetLines({ load, visits, throttled, counts, medianRatio, crossRows }) {
  const above = (ms, floor) => ms - floor;
  const firstAbove = above(load.hosted.first, load.floor.first);
  const firstFull = above(visits.first.full, visits.floor);
  const repeatFull = above(visits.repeat.full, visits.floor);
  const phoneFirst = above(throttled.first, throttled.floor);
  const phoneFull = above(throttled.full, throttled.floor);
  const phoneBrotliFirst = above(throttled.brotli.first, throttled.floor);
  const phoneBrotliFull = above(throttled.brotli.full, throttled.floor);
  return [
    "| target (issue 51), this run | target | figure | |",
    "| --- | ---: | ---: | --- |",
    targetRow("first exact numbers above the floor page, first visit, plain static host", "≤ 100 ms", `${firstAbove} ms`, firstAbove <= 100),
    targetRow("exact counts on screen after a control change: buffer capacity / read size", "≤ 50 ms", `${f(counts.capacity, 1)} / ${f(counts.readSize, 1)} ms`, Math.max(counts.capacity, counts.readSize) <= 50),
    targetRow("full measurement above the floor page, first visit, plain static host", "≤ 500 ms", `${firstFull} ms`, firstFull <= 500),
    targetRow("full measurement above the floor page, repeat visit in the same profile", "≤ 250 ms", `${repeatFull} ms`, repeatFull <= 250),
    targetRow(
      "first full measurement ÷ a Measure again right after it, first visit / repeat visit (the reader farthest from 1; in brackets a Measure again ÷ the next, the same measurement twice)",
      "within 1.1× either way",
      `${f(visits.first.again, 2)}× / ${f(visits.repeat.again, 2)}× (A/A ${f(visits.first.aa, 2)}× / ${f(visits.repeat.aa, 2)}×)`,
      withinTenth(visits.first.again) && withinTenth(visits.repeat.again),
    ),
    targetRow("a phone (Lighthouse's mobile profile, gzip host): first exact numbers above its floor page", "≤ 500 ms", `${phoneFirst} ms`, phoneFirst <= 500),
    targetRow("a phone: full measurement above its floor page", "≤ 1500 ms", `${phoneFull} ms`, phoneFull <= 1500),
    targetRow("a phone, from a host sending the .br copies: first exact numbers / full measurement above its floor page", "≤ 500 / ≤ 1500 ms", `${phoneBrotliFirst} / ${phoneBrotliFull} ms`, phoneBrotliFirst <= 500 && phoneBrotliFull <= 1500),
    targetRow("WebAssembly ÷ native, median of the suite's rows", "≤ 1.3×", `${f(medianRatio, 2)}×`, medianRatio <= 1.3),
    ...crossRows.map((r) => targetRow(`cross-check: ${r.name}, BufLab ÷ plain (Criterion)`, "within 1.1× either way", `${f(r.ratio, 2)}×`, withinTenth(r.ratio))),
  ];
}

/** The 1-minute, 5-minute and 15-minute load averages, for the printout. */
const loadAverage = () => os.loadavg().map((x) => x.toFixed(1)).join(", ");

function machine() {
  const rustc = execFileSync("rustc", ["--version"], { encoding: "utf8" }).trim();
  return `${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    `${os.type()} ${os.release()}; ${rustc}; Node ${process.version}`;
}

const f = (x, digits = 3) => x.toFixed(digits);
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
/** Beside a target in KB (1000 bytes): both units. */
const kibKb = (bytes) => `${kib(bytes)} (${(bytes / 1000).toFixed(1)} KB)`;

/** The first-load figures, each beside its target (issue 17). */
function firstLoadLines(load, size) {
  return [
    "| first load (localhost, fresh context, median of 5, the two hosts and the two pages for scale alternating) | measured | target |",
    "| --- | ---: | ---: |",
    `| first exact numbers after navigation start, header-sending server | ${load.headers.first} ms | ≤ 300 ms |`,
    `| full measurement on screen, header-sending server | ${load.headers.full} ms | ≤ 800 ms |`,
    `| first exact numbers, plain static host (first visit: no reload, not isolated) | ${load.hosted.first} ms | ≤ 300 ms |`,
    `| full measurement, plain static host (first visit: the coarse timer) | ${load.hosted.full} ms | ≤ 800 ms |`,
    `| first exact numbers above the floor page, header-sending server / plain static host | ${load.headers.first - load.floor.first} / ${load.hosted.first - load.floor.first} ms | ≤ 100 ms |`,
    `| full measurement above the floor page, header-sending server / plain static host | ${load.headers.full - load.floor.first} / ${load.hosted.full - load.floor.first} ms | ≤ 500 ms |`,
    `| for scale, this machine's floor: a page whose one script starts a worker that answers at once (no engine, no frame) | ${load.floor.first} ms | |`,
    `| for scale, the engine alone: that worker counting the default link with the counting build, no stylesheet, frame or page code | ${load.engine.first} ms | |`,
    `| what the first visit fetches for its first numbers (the timing build, downloading beside the count, aside), gzipped, plain static host | ${kibKb(size.beforeFirst.gzip)} | ≤ 150 KB |`,
    `| the same, header-sending server | ${kibKb(size.beforeFirstHeaders.gzip)} | ≤ 150 KB |`,
    `| the same, brotli (the build's .br copies, on hosts that serve them), plain static host | ${kib(size.beforeFirst.brotli)} | |`,
    `| the wasm the first numbers need (the counting build), gzipped (${kib(size.counts.raw)} raw) | ${kibKb(size.counts.gzip)} | ≤ 80 KB |`,
    `| the timing build of the default link's workload (fixed), gzipped (${kib(size.timing.raw)} raw); the program build (writing links, the code panel, the write lab, Calibrate) ${kib(size.program.gzip)}; the questions build (the quiz, a read lesson's choices) ${kib(size.questions.gzip)} | ${kib(size.timing.gzip)} | |`,
    `| everything the first visit fetches, after its first numbers too (the seven timing builds ${kib(size.timings.gzip)}, the program build, chart.js, offline copy), gzipped | ${kib(size.all.gzip)} | |`,
    `| a 13-point sweep (the buffer-size lesson's), Run sweep to the last point drawn, median of 3 | ${load.sweep} ms | ≤ 1000 ms |`,
  ];
}

if (orderOnly) {
  console.log(orderLines(await nativeOrder(), await wasmOrder(), await wasmOrder(ORDER_SETTLE_MS)).join("\n"));
  process.exit(0);
}

if (criterionOnly) {
  for (const [name, rounds] of criterion()) {
    const { ratio, ratios } = roundsSummary(rounds);
    console.log(`${name}: BufLab ÷ plain ${f(ratio, 2)}× [${ratios.map((x) => f(x, 2)).join(", ")}]; plain ${rounds.map((r) => r.plain).join(", ")} ns, BufLab ${rounds.map((r) => r.buflab).join(", ")} ns`);
  }
  process.exit(0);
}

if (throttledOnly) {
  const t = await throttledLoads();
  console.log(throttledLines(t).join("\n"));
  console.log(JSON.stringify(t.all));
  process.exit(0);
}

if (pageOnly) {
  const page = await pageFigures();
  console.log(interactionLines(page.interactions).join("\n"));
  console.log(["", ...countsLatencyLines(page.countsLatency)].join("\n"));
  process.exit(0);
}

if (suiteOnly) {
  console.log(`load average before: ${loadAverage()}`);
  const { native, wasm } = await suiteRounds();
  const { lines } = suiteTable(native, wasm);
  console.log(lines.join("\n"));
  console.log(`load average after: ${loadAverage()}`);
  process.exit(0);
}

if (visitsOnly) {
  console.log(`load average before: ${loadAverage()}`);
  console.log(phaseLines(machinePhases(PHASES_MS)).join("\n"));
  const visits = await visitLoads();
  console.log(visitLines(visits).join("\n"));
  console.log(`load average after: ${loadAverage()}`);
  console.log(phaseLines(machinePhases(PHASES_MS)).join("\n"));
  process.exit(0);
}

if (firstLoadOnly) {
  const load = await firstLoad();
  const size = sizes(load);
  console.log(firstLoadLines(load, size).join("\n"));
  console.log(`\nfetched before the first numbers, plain host (gzipped bytes): ${size.beforeFirst.files.join(", ")}`);
  console.log(`fetched before the first numbers, headers (gzipped bytes): ${size.beforeFirstHeaders.files.join(", ")}`);
  console.log(`fetched in all (gzipped bytes): ${size.all.files.join(", ")}`);
  process.exit(0);
}

// Each part prints its figures as it ends (a long run on a shared machine
// may be stopped before the last), then the whole printout comes at the end.
const loadBefore = loadAverage();
console.log(`load average before: ${loadBefore}`);
const phasesBefore = machinePhases(PHASES_MS);
console.log(phaseLines(phasesBefore).join("\n"));
const visits = await visitLoads();
console.log(visitLines(visits).join("\n"));
const load = await firstLoad();
const size = sizes(load);
console.log(firstLoadLines(load, size).join("\n"));
const throttled = await throttledLoads();
console.log(throttledLines(throttled).join("\n"));
const { native, wasm: wasmSuite, chromium: chromiumVersion } = await suiteRounds();
const wasm = { suite: wasmSuite, chromium: chromiumVersion, ...(await pageFigures()) };
const suite = suiteTable(native, wasm.suite);
console.log(`the suite's WASM ÷ native, median of its rows: ${f(suite.medianRatio, 2)}×`);
const crit = criterion();
for (const [name, rounds] of crit) console.log(`${name}: BufLab ÷ plain (Criterion) ${f(roundsSummary(rounds).ratio, 2)}×`);
const order = { native: await nativeOrder(), wasm: await wasmOrder(), settled: await wasmOrder(ORDER_SETTLE_MS) };
const loadAfter = loadAverage();
console.log(`load average after: ${loadAfter}\n`);
const phasesAfter = machinePhases(PHASES_MS);
console.log(phaseLines(phasesAfter).join("\n"));

const ms = (ns) => (ns >= 1e6 ? `${f(ns / 1e6, 2)} ms` : `${f(ns / 1e3, 1)} µs`);
const crossRows = native.crosscheck.map((n, i) => {
  return { name: n.name, ...roundsSummary(crit.get(n.name) ?? []), native: n, wasm: wasm.suite.crosscheck[i] };
});
const alt = (c) => `${f(c.ratio, 2)}× [${f(c.ratio_min, 2)}–${f(c.ratio_max, 2)}]`;
const crossLines = [
  "| scenario | plain (Criterion) | BufLab timed pass (Criterion) | BufLab ÷ plain (Criterion) | native, alternating rounds | WASM, alternating rounds |",
  "| --- | ---: | ---: | ---: | ---: | ---: |",
  ...crossRows.map(
    (r) =>
      `| ${r.name} | ${ms(r.theirs)} | ${ms(r.ours)} | **${f(r.ratio, 2)}×** [${f(r.ratioMin, 2)}–${f(r.ratioMax, 2)}] | ${alt(r.native)} | ${alt(r.wasm)} |`,
  ),
];
// Within 1.1× either way: BufLab's figure is neither more than 1.1 times
// the plain program's nor less than its 1/1.1.
const within = (xs) => xs.filter((x) => x <= 1.1 && x >= 1 / 1.1).length;
const crossSummary =
  `Within 1.1× either way (from 0.91× to 1.10×): ${within(crossRows.map((r) => r.ratio))} of ${crossRows.length} (Criterion), ` +
  `${within(crossRows.map((r) => r.native.ratio))} natively and ${within(crossRows.map((r) => r.wasm.ratio))} in WASM (alternating rounds).`;

const medianRatio = suite.medianRatio;

const lines = [
  ...suite.lines,
  "",
  ...firstLoadLines(load, size),
  "",
  ...throttledLines(throttled),
  "",
  ...orderLines(order.native, order.wasm, order.settled),
  "",
  ...countsLatencyLines(wasm.countsLatency),
  "",
  ...interactionLines(wasm.interactions),
  `WASM timer: ${f(wasm.suite.resolution_ns / 1000, 1)} µs resolution, ${wasm.suite.isolated ? "cross-origin isolated" : "NOT isolated"}.`,
];
const table = lines.join("\n");
const crossTable = [...crossLines, "", crossSummary].join("\n");
const targets = [
  ...targetLines({ load, visits, throttled, counts: wasm.countsLatency, medianRatio, crossRows }),
  "",
  `Load average (1, 5, 15 minutes) on ${os.cpus().length} cores: ${loadBefore} before the run, ${loadAfter} after it.`,
  "",
  `The machine's own speed (\`node scripts/machine-phases.mjs\`, ${PHASES_MS / 1000} s before and after the run): a load/store loop's slowest quarter seconds ÷ its fastest ${f(phasesBefore["load/store"].ratio, 2)}× before, ${f(phasesAfter["load/store"].ratio, 2)}× after; a register-only multiply chain's ${f(phasesBefore.chain.ratio, 2)}× / ${f(phasesAfter.chain.ratio, 2)}×. Where the first is well above 1.1×, two times taken seconds apart differ by that much with nothing else changed (docs/benchmarks.md, "The machine's two speeds").`,
  "",
  ...visitLines(visits),
].join("\n");
console.log(targets);
console.log();
console.log(crossTable);
console.log();
console.log(table);

if (write) {
  const doc = `# Benchmarks

Written by \`npm run bench\` (scripts/bench.mjs); rerun it to refresh this page.
The suite is \`crate/src/bench/mod.rs\`: each scenario is a BufLab link with one
reader, timed natively (release build, \`Instant\`) and as WebAssembly in
headless Chromium (a worker, \`performance.now()\`, cross-origin isolated),
the whole suite ${SUITE_ROUNDS} times on each side in rounds that alternate
which side goes first (natively each row in a process of its own), with the same warm-up, batching and statistics (median ± MAD of at least 5
samples, each at least 1000× the timer resolution). Times are measured CPU time
of the reader loop over an in-memory source; nothing here is modelled.

Machine: ${machine()}; Chromium ${wasm.chromium}. Run on ${new Date().toISOString().slice(0, 10)}.

## Targets, from this run

Each figure is this run's, beside its target; the times are above a page for
scale measured in the same run, alternating with the page (the first load's,
the visits' and the phone's floor pages, below).

${targets}

## Cross-check: BufLab's timed pass against plain programs

Every time BufLab shows is its *timed pass*: the reader, the workload's loop
and a running sum, over a source cut exactly as the counted pass's, with no
counter (\`crate/src/engine/timed.rs\`). Here it runs beside a plain program
doing the same with std (\`crate/src/bench/plain.rs\`: the code panel's loop,
its own chunked source, every size given at run time), each side returning the
same sum. Criterion times both natively outside BufLab's harness
(\`cargo bench -p buflab --bench crosscheck\`), in 10 rounds that alternate
which side it times first (a time is each round's median; the ratio is the
median [min–max] of the rounds' ratios); the suite then times both in
alternating rounds natively and as WebAssembly (median [min–max] of 5 rounds'
ratios). Target: every ratio within 1.1× either way.

${crossTable}

## WebAssembly against native

${table}
`;
  // From the marker on, the file is kept as it is: the topics written by hand
  // (targets, notes and their history, the mutation scores of `npm run mutants`).
  const marker = "\n<!-- npm run bench rewrites the page above this line; what follows is kept by hand. -->";
  const previous = existsSync(`${root}docs/benchmarks.md`) ? readFileSync(`${root}docs/benchmarks.md`, "utf8") : "";
  const kept = previous.indexOf(marker);
  writeFileSync(`${root}docs/benchmarks.md`, kept < 0 ? doc : doc + previous.slice(kept));
  console.log("\nwrote docs/benchmarks.md");
}
