// When Chromium writes a wasm module's optimized code to its code cache,
// away from BufLab: `node scripts/code-cache-probe.mjs [runs] [idle-ms]`
// serves a 200 KB module of 40 small hot loops (application/wasm) and, for
// each way of running it, `runs` fresh browsers that compile it by
// streaming, call every function until V8 has optimized them, then wait
// `idle-ms` (default 8000). It prints, per load, when the last optimized
// code was made and when V8 finished a caching chunk
// (`wasm.CompilationChunkFinished`, which Blink answers with
// `v8.wasm.compiledModule` and a cache write), in ms from the trace's start.
// Ways: `page` (compiled and run on the page at load), `page-to-worker`
// (compiled on the page, run in a worker it is posted to), `worker`
// (compiled and run in a worker), `page-late` (as `page`, 3 s after load).
// CHROMIUM_FLAGS adds flags (e.g. `--js-flags=--wasm-caching-timeout-ms=0`).

import { createServer } from "node:http";
import { chromium } from "playwright-core";

const [runs = "3", idle = "8000"] = process.argv.slice(2);

// The module: 40 exported (i32) -> i32 loops, padded to 200 KB by a custom section.
const leb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const section = (id, body) => [id, ...leb(body.length), ...body];
const vec = (items) => [...leb(items.length), ...items.flat()];
const name = (s) => [...leb(s.length), ...Buffer.from(s)];
const FUNCTIONS = 40;
const body = (k) => {
  // acc = ((acc + n * k) ^ 7) % (3k + 1) while --n; k < 8192 fits a 2-byte signed LEB.
  const sleb = [k & 0x7f | 0x80, k >> 7];
  const m = 3 * k + 1;
  const code = [1, 1, 0x7f, 0x03, 0x40, 0x20, 1, 0x20, 0, 0x41, ...sleb, 0x6c, 0x6a, 0x41, 7, 0x73, 0x21, 1, 0x20, 1, 0x41, m & 0x7f | 0x80, (m >> 7) & 0x7f | 0x80, m >> 14, 0x70, 0x21, 1, 0x20, 0, 0x41, 1, 0x6b, 0x22, 0, 0x0d, 0, 0x0b, 0x20, 1, 0x0b];
  return [...leb(code.length), ...code];
};
const wasm = Buffer.from([
  0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  ...section(1, vec([[0x60, 1, 0x7f, 1, 0x7f]])),
  ...section(3, vec(Array.from({ length: FUNCTIONS }, () => [0]))),
  ...section(7, vec(Array.from({ length: FUNCTIONS }, (_, i) => [...name(`f${i}`), 0, ...leb(i)]))),
  ...section(10, vec(Array.from({ length: FUNCTIONS }, (_, i) => body(1000 + 37 * i)))),
  ...section(0, [...name("pad"), ...new Array(200_000).fill(0)]),
]);
new WebAssembly.Module(wasm); // valid, or stop here

const hot = `function hot(instance) { let s = 0; for (let r = 0; r < 300; r++) for (let i = 0; i < ${FUNCTIONS}; i++) s += instance.exports["f" + i](20000); return s; }`;
const files = {
  "/m.wasm": ["application/wasm", wasm],
  "/hot.js": ["text/javascript", hot],
  "/worker.js": ["text/javascript", `importScripts("hot.js"); onmessage = async (e) => { const module = e.data.module ?? await WebAssembly.compileStreaming(fetch("m.wasm")); hot(await WebAssembly.instantiate(module)); postMessage(0); };`],
  "/": [
    "text/html",
    `<script src="hot.js"></script><script>
const way = location.hash.slice(1);
const compile = () => WebAssembly.compileStreaming(fetch("m.wasm"));
const inWorker = (message) => { window.w = new Worker("worker.js"); w.onmessage = () => (window.done = true); w.postMessage(message); };
(async () => {
  if (way === "page-late") await new Promise((r) => setTimeout(r, 3000));
  if (way === "page" || way === "page-late") { window.m = await compile(); hot(await WebAssembly.instantiate(m)); window.done = true; }
  if (way === "page-to-worker") { window.m = await compile(); inWorker({ module: m }); }
  if (way === "worker") inWorker({});
})();
</script>`,
  ],
};
const server = createServer((request, response) => {
  const file = files[new URL(request.url, "http://x").pathname];
  if (!file) return response.writeHead(404).end();
  response.writeHead(200, { "Content-Type": file[0], "Cache-Control": "max-age=3600" }).end(file[1]);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const flags = process.env.CHROMIUM_FLAGS ? process.env.CHROMIUM_FLAGS.split(" ") : [];
for (const way of ["page", "page-to-worker", "worker", "page-late"]) {
  for (let run = 1; run <= Number(runs); run++) {
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: [...flags, "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
    const events = [];
    const cdp = await browser.newBrowserCDPSession();
    cdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
    const finished = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.start", { traceConfig: { includedCategories: ["disabled-by-default-devtools.timeline", "v8.wasm"] }, transferMode: "ReportEvents" });
    const page = await browser.newPage();
    await page.goto(`${url}#${way}`);
    await page.waitForFunction(() => window.done === true, undefined, { timeout: 60_000 });
    await page.waitForTimeout(Number(idle));
    await cdp.send("Tracing.end");
    await finished;
    await browser.close();
    const t0 = Math.min(...events.filter((e) => e.ts > 0).map((e) => e.ts));
    const at = (name) => events.filter((e) => e.name === name).map((e) => Math.round((e.ts - t0) / 1000));
    const optimized = at("wasm.TopTierCompilation");
    const chunks = at("wasm.CompilationChunkFinished");
    console.log(`${way.padEnd(15)} run ${run}: optimized code ${optimized.length ? `${optimized[0]}–${optimized.at(-1)}` : "none"} ms, caching chunk ${chunks.length ? `${chunks.join(", ")} ms` : `none within ${idle} ms`}, compiledModule ×${at("v8.wasm.compiledModule").length}`);
  }
}
server.close();
