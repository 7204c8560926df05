// Times the first `npm start` of a clone from the clock (docs/benchmarks.md,
// "The first npm start"): until the page answers, until the default link's
// first numbers show (the page's buflab:first-results mark) and its first
// full measurement (buflab:first-full), and until every build is in. The
// clone needs its npm packages and no wasm built (a fresh clone after `npm ci`).
//
//   node scripts/time-start.mjs CLONE PORT
//
// Prints each time in seconds from the start of `npm start`, then one JSON line.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const [dir, port] = process.argv.slice(2);
if (!dir || !port) throw new Error("usage: node scripts/time-start.mjs CLONE PORT");
const started = Date.now();
const now = () => Number(((Date.now() - started) / 1000).toFixed(1));
const child = spawn("npm", ["start", "--", "--port", port, "--strictPort"], { cwd: dir, detached: true, stdio: ["ignore", "pipe", "pipe"] });
let allIn = null;
const heard = (chunk) => {
  const text = chunk.toString();
  for (const line of text.split("\n")) if (/: built$|all in/.test(line)) process.stderr.write(`[${now()} s] ${line}\n`);
  if (text.includes("the engine's builds are all in")) allIn = now();
};
child.stdout.on("data", heard);
child.stderr.on("data", heard);

const url = `http://127.0.0.1:${port}/`;
let answered = null;
while (answered === null) {
  try {
    if ((await fetch(url)).ok) answered = now();
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
console.log(`page answers: ${answered} s`);
// Debian's Chromium, as the end-to-end tests start it (web/e2e/chromium.ts).
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage();
await page.goto(url);
const mark = async (name) => {
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, name, { timeout: 1_800_000, polling: 100 });
  return now();
};
const first = await mark("buflab:first-results");
console.log(`first numbers: ${first} s`);
const full = await mark("buflab:first-full");
console.log(`first full measurement: ${full} s`);
// With builds behind the page, the builder says when the last is in; without, the page answered only once all were.
const behind = readFileSync(`${dir}/package.json`, "utf8").includes("BUFLAB_BUILD_BEHIND");
while (behind && allIn === null) await new Promise((resolve) => setTimeout(resolve, 500));
console.log(`every build in: ${behind ? allIn : answered} s`);
console.log(JSON.stringify({ dir, answered, first, full, allIn: behind ? allIn : answered }));
await browser.close();
process.kill(-child.pid, "SIGTERM");
