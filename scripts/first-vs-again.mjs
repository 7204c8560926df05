// The page's first full measurement against a Measure again:
// `node scripts/first-vs-again.mjs [read|write] [N]` serves the built page
// (`npm run build`'s dist/) as the header-sending server does, and N times
// (default 6) opens the default link of that lab in a fresh context, reads
// each reader's or cursor's median time once the first full measurement is
// on screen, presses Measure again twice and reads them again. Prints per
// load and reader the three times, the first ÷ the next, and the next ÷ the
// last: the same measurement twice (A/A), what the machine alone moves a
// ratio by (docs/benchmarks.md, "The machine's two speeds"). CHROMIUM_FLAGS
// adds flags to the browser's (e.g. `--js-flags=--no-liftoff`: every wasm
// function optimized before it first runs); DIST serves another build's
// output instead of dist/ (two builds alternated by hand: A, B, A, B). A
// fresh engine instance ran its first full measurement slow
// (docs/benchmarks.md, the order check): this is the check of that on the
// page itself.

import { chromium } from "playwright-core";
import { preview } from "vite";
import { loadUntilFull, waitIn } from "./page-wait.mjs";

const root = new URL("..", import.meta.url).pathname;
const [lab = "read", count = "6"] = process.argv.slice(2);
const LABS = {
  read: { fragment: "", rows: "#table table.results tbody tr[data-reader]", id: "data-reader" },
  write: { fragment: "#v=1&lab=write", rows: "#write-results tbody tr[data-flavour]", id: "data-flavour" },
};
const chosen = LABS[lab];
if (!chosen) {
  console.error("usage: node scripts/first-vs-again.mjs [read|write] [N]");
  process.exit(2);
}

/** Each row's median time (ns), by reader or cursor id. */
function medians(page) {
  return page.evaluate(
    ({ rows, id }) =>
      Object.fromEntries(
        [...document.querySelectorAll(rows)].map((row) => [row.getAttribute(id), Number(row.querySelector('td[data-metric="cpu_median_ns"]')?.getAttribute("data-value"))]),
      ),
    chosen,
  );
}

const done = (page) => waitIn(page, () => document.querySelector(".status .activity")?.textContent === "Done");

const server = await preview({
  root: `${root}web`,
  configFile: `${root}vite.config.ts`,
  mode: "production",
  logLevel: "warn",
  ...(process.env.DIST ? { build: { outDir: process.env.DIST } } : {}),
  preview: { port: 0, host: "127.0.0.1", open: false },
});
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", ...(process.env.CHROMIUM_FLAGS ?? "").split(" ").filter(Boolean)] });
try {
  for (let i = 0; i < Number(count); i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await loadUntilFull(page, server.resolvedUrls.local[0] + chosen.fragment);
      await done(page);
      const first = await medians(page);
      const agains = [];
      for (let again = 0; again < 2; again++) {
        await page.getByRole("button", { name: "Measure again" }).click();
        await waitIn(page, () => document.querySelector(".status .activity")?.textContent !== "Done", undefined, 5_000);
        await done(page);
        agains.push(await medians(page));
      }
      const [next, last] = agains;
      const ms = (ns) => (ns / 1e6).toFixed(2);
      console.log(
        Object.keys(first)
          .map((id) => `${id} ${ms(first[id])} ${ms(next[id])} ${ms(last[id])} ms: first ÷ next ${(first[id] / next[id]).toFixed(2)}×, next ÷ last ${(next[id] / last[id]).toFixed(2)}×`)
          .join("  "),
      );
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
