// Bench builds of the engine against each other, on chosen rows of the
// suite, taking turns in one run:
//   node scripts/bench-ab.mjs [--node] [--rounds=N] [--rows=REGEX] [--native=BIN] PKG...
// Each PKG is a wasm-pack `--target web` build with the `bench` feature, made
// as scripts/bench.sh makes web/pkg-bench but with an `--out-dir` of its own
// (its buflab.js and buflab_bg.wasm). Each round starts a fresh worker per
// build, the builds in turn (the order reversed every other round), and the
// worker times every chosen row (default: the seven write cursors) with
// `bench_one(name, false)`: the suite's own full measurement, bytes checked
// against the reference digest, as `npm run bench` times the suite. Headless
// Chromium by default (a cross-origin isolated page: the 5 µs timer); node's
// worker_threads with `--node`. `--native=BIN` (a `buflab` from `cargo build
// --release -p buflab`) adds the rows natively, a fresh `BIN --bench-one NAME`
// process per row, in turn with the builds.
// Prints ns/byte per row and build: the median of the rounds and the fastest
// round; for each build after the first, the median over the rounds of its
// figure ÷ the first build's in the same round (adjacent, so a load that comes
// and goes on the machine cancels more than in a ratio of medians); the
// builds ÷ native; and every round's figure as one JSON line at the end.
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { chromium } from "playwright-core";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? fallback : arg.slice(name.length + 3);
};
const inNode = args.includes("--node");
const rounds = Number(option("rounds", "5"));
const rowPattern = new RegExp(option("rows", "records$"));
const native = option("native", undefined);
const pkgs = args.filter((a) => !a.startsWith("--")).map((p) => resolve(p));
if (pkgs.length === 0) {
  console.error("usage: node scripts/bench-ab.mjs [--node] [--rounds=N] [--rows=REGEX] [--native=BIN] PKG...");
  process.exit(2);
}
const root = new URL("..", import.meta.url).pathname;
const suiteSource = readFileSync(`${root}crate/src/bench/mod.rs`, "utf8");
const rows = [...suiteSource.matchAll(/Scenario \{\s*name: "([^"]+)"/g)].map((m) => m[1]).filter((n) => rowPattern.test(n));
if (rows.length === 0) throw new Error(`no suite row matches ${rowPattern}`);

// The worker's body, the same in both environments: load the glue, time each row.
const timeRows = async (glueUrl, module, names) => {
  const engine = await import(glueUrl);
  engine.initSync({ module });
  return names.map((name) => engine.bench_one(name, false).ns_per_byte);
};

/** One fresh node worker: ns/byte per row. */
function nodeRound(pkg) {
  const glueUrl = pathToFileURL(`${pkg}/buflab.js`).href;
  const code = `const { parentPort, workerData } = require("node:worker_threads");
    (${timeRows})(workerData.glueUrl, new WebAssembly.Module(workerData.bytes), workerData.rows).then((r) => parentPort.postMessage(r));`;
  const worker = new Worker(code, { eval: true, workerData: { glueUrl, bytes: readFileSync(`${pkg}/buflab_bg.wasm`), rows } });
  return new Promise((ok, fail) => {
    worker.once("message", (r) => { ok(r); void worker.terminate(); });
    worker.once("error", fail);
  });
}

/** A page and its worker, served cross-origin isolated; /pkg/I/ is build I. */
function server() {
  const page = `<!doctype html><script type="module">
    const modules = await Promise.all(${JSON.stringify(pkgs.map((_, i) => i))}.map((i) => WebAssembly.compileStreaming(fetch("/pkg/" + i + "/buflab_bg.wasm"))));
    window.round = (i, names) => new Promise((ok, fail) => {
      const worker = new Worker("/worker.js", { type: "module" });
      worker.onmessage = (e) => { worker.terminate(); ok(e.data); };
      worker.onerror = (e) => fail(e.message);
      worker.postMessage({ glueUrl: location.origin + "/pkg/" + i + "/buflab.js", module: modules[i], names });
    });
    window.ready = true;
  </script>`;
  const worker = `const timeRows = ${timeRows};
    onmessage = async (e) => postMessage(await timeRows(e.data.glueUrl, e.data.module, e.data.names));`;
  const http = createServer((req, res) => {
    const headers = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };
    const m = req.url.match(/^\/pkg\/(\d+)\/(buflab\.js|buflab_bg\.wasm)$/);
    if (req.url === "/") res.writeHead(200, { ...headers, "Content-Type": "text/html" }).end(page);
    else if (req.url === "/worker.js") res.writeHead(200, { ...headers, "Content-Type": "text/javascript" }).end(worker);
    else if (m) {
      const type = m[2].endsWith(".js") ? "text/javascript" : "application/wasm";
      res.writeHead(200, { ...headers, "Content-Type": type }).end(readFileSync(`${pkgs[Number(m[1])]}/${m[2]}`));
    } else res.writeHead(404).end();
  });
  return new Promise((ok) => http.listen(0, "127.0.0.1", () => ok(http)));
}

/** The rows natively, a fresh process each. */
const nativeRound = () => rows.map((name) => JSON.parse(execFileSync(resolve(native), ["--bench-one", name], { encoding: "utf8" })).ns_per_byte);

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const figures = pkgs.map(() => rows.map(() => []));
const nativeFigures = rows.map(() => []);
let browser;
let http;
let page;
if (!inNode) {
  http = await server();
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${http.address().port}/`);
  await page.waitForFunction(() => window.ready === true);
  if (!(await page.evaluate(() => crossOriginIsolated))) throw new Error("the page is not cross-origin isolated");
}
try {
  for (let round = 0; round < rounds; round++) {
    const order = [...pkgs.map((_, i) => i), ...(native ? ["native"] : [])];
    if (round % 2 === 1) order.reverse();
    for (const b of order) {
      if (b === "native") {
        nativeRound().forEach((v, r) => nativeFigures[r].push(v));
        continue;
      }
      const result = inNode ? await nodeRound(pkgs[b]) : await page.evaluate(([i, names]) => window.round(i, names), [b, rows]);
      result.forEach((v, r) => figures[b][r].push(v));
    }
    process.stderr.write(`round ${round + 1}/${rounds} done\n`);
  }
} finally {
  await browser?.close();
  http?.close();
}

console.log(`${inNode ? `node ${process.version}` : `Chromium ${browser.version()}`}, ${rounds} rounds, builds alternating; ns/byte, median of the rounds (fastest round); b ÷ 0: median of the rounds' ratios`);
pkgs.forEach((p, b) => console.log(`build ${b}: ${p}`));
const cell = (xs) => `${median(xs).toFixed(3)} (min ${Math.min(...xs).toFixed(3)})`;
const head = [...pkgs.map((_, b) => `build ${b}`), ...pkgs.slice(1).map((_, b) => `${b + 1} ÷ 0`), ...(native ? ["native", ...pkgs.map((_, b) => `${b} ÷ native`)] : [])];
console.log(`| row | ${head.join(" | ")} |`);
rows.forEach((name, r) => {
  const meds = pkgs.map((_, b) => median(figures[b][r]));
  const paired = (b) => median(figures[b][r].map((v, i) => v / figures[0][r][i]));
  const cells = [...pkgs.map((_, b) => cell(figures[b][r])), ...pkgs.slice(1).map((_, b) => `${paired(b + 1).toFixed(2)}×`)];
  if (native) cells.push(cell(nativeFigures[r]), ...meds.map((m) => `${(m / median(nativeFigures[r])).toFixed(2)}×`));
  console.log(`| ${name} | ${cells.join(" | ")} |`);
});
console.log(JSON.stringify({ rows, pkgs, figures, nativeFigures }));
