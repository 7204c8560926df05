// A/B of two builds' first load: `node scripts/ab-first-load.mjs DIR_A DIR_B [N] [--again] [--visits K]`
// serves each built page (`vite build --outDir DIR`) as the header-sending
// server does and loads them alternately, N times each (default 8), each in a
// fresh context (as `npm run bench` does); prints per side the median and
// every value of the page's own marks `buflab:first-results` and
// `buflab:first-full` (ms after navigation start). With `--again`, also each
// load's first full measurement ÷ a Measure again right after it (each
// reader's median time; the readers' ratio farthest from 1 either way). With
// `--visits K`, K visits in each context, one after the other (the same
// browser profile: its HTTP, code and service worker caches), each visit's
// figures printed apart. Alternating loads share
// the machine's noise, which on a small shared machine is larger than most
// single changes: compare medians, and rerun before believing a difference
// under ~20 ms.

import { chromium } from "playwright-core";
import { preview } from "vite";
import { visitsInOneProfile } from "./visits.mjs";

const root = new URL("..", import.meta.url).pathname;
const flags = process.argv.slice(2);
const again = flags.includes("--again");
const visitsAt = flags.indexOf("--visits");
const visits = visitsAt >= 0 ? Number(flags[visitsAt + 1]) : 1;
const [dirA, dirB, count = "8"] = flags.filter((arg, i) => !arg.startsWith("--") && (visitsAt < 0 || i !== visitsAt + 1));
if (!dirA || !dirB || !(visits >= 1)) {
  console.error("usage: node scripts/ab-first-load.mjs DIR_A DIR_B [N] [--again] [--visits K]");
  process.exit(2);
}
const dirs = [dirA, dirB];

const serve = (dir) =>
  preview({
    root: `${root}web`,
    configFile: `${root}vite.config.ts`,
    mode: "production",
    logLevel: "warn",
    build: { outDir: dir.startsWith("/") ? dir : `${root}${dir}` },
    preview: { port: 0, host: "127.0.0.1", open: false },
  });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const servers = await Promise.all(dirs.map(serve));
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  // scripts/bench.mjs's flags.
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  // seen[side][visit]: the loads' first numbers, full measurements and (--again) ratios.
  const seen = dirs.map(() => Array.from({ length: visits }, () => ({ first: [], full: [], again: [] })));
  for (let i = 0; i < Number(count); i++) {
    for (const [side, server] of servers.entries()) {
      for (const [visit, { first, full, again: ratio }] of (await visitsInOneProfile(browser, server.resolvedUrls.local[0], visits, again)).entries()) {
        const into = seen[side][visit];
        into.first.push(first);
        into.full.push(full);
        if (ratio !== undefined) into.again.push(ratio);
      }
    }
  }
  for (const [side, dir] of dirs.entries()) {
    for (const [visit, { first, full, again: ratios }] of seen[side].entries()) {
      const which = visits > 1 ? ` visit ${visit + 1}` : "";
      const ratio = ratios.length > 0 ? `; first full ÷ Measure again ${median(ratios).toFixed(2)}× (${ratios.map((r) => r.toFixed(2)).join(" ")})` : "";
      console.log(`${dir}${which}: first numbers ${median(first)} ms (${first.join(" ")}); full measurement ${median(full)} ms (${full.join(" ")})${ratio}`);
    }
  }
} finally {
  await browser.close();
  for (const server of servers) await server.close();
}
