// `npm start` serves the page before the engine's builds are all compiled
// (web/build/builds-behind.ts): the dev server, started here as `npm start`
// starts it but with the default link's timing build (web/pkg-timing/fixed)
// and the program build not in yet, and a builder that lands them when the
// test says. The page must
// show the exact counts (the counting build), say in its status that the
// timing-fixed build is still being built (not an error, not a hang), and
// take the build up as it lands, without a reload, to a full measurement.
//
// A build is not in while its stamp (.inputs) is set aside, and lands when
// the builder puts it back: its files stay where they are for the unit and
// end-to-end tests that read them at the same time, and nothing is compiled
// here. A run killed midway leaves a stamp aside; the next run puts it back
// first (and scripts/wasm.sh would only rebuild that build).

import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realCodec, realCountingEngine } from "../src/engine/real-engine";
import type { Report } from "../src/engine/types.gen";
import { metric, settled, usePages } from "./browser";

const root = fileURLToPath(new URL("../..", import.meta.url));
/**
 * The builds not in when the page opens (as on a fresh clone, where none but
 * the counting build is): each build's stamp, which scripts/wasm.sh writes
 * last and the dev server waits for, and where it waits meanwhile.
 */
const BUILDS = [
  { build: join(root, "web/pkg-timing/fixed/.inputs"), aside: join(root, "web/pkg-timing/fixed/.inputs-aside") },
  { build: join(root, "web/pkg-program/.inputs"), aside: join(root, "web/pkg-program/.inputs-aside") },
];
/** The file whose creation tells the builder to land the build. */
const land = join(tmpdir(), `buflab-serve-land-${process.pid}`);

// The builder: waits for `land`, then puts the builds' stamps back, as
// scripts/wasm.sh writes each once its build is done.
const BUILDER = `
const { existsSync, renameSync } = require("node:fs");
const [land, ...dirs] = process.argv.slice(1);
const poll = setInterval(() => {
  if (!existsSync(land)) return;
  clearInterval(poll);
  for (let i = 0; i < dirs.length; i += 2) renameSync(dirs[i], dirs[i + 1]);
}, 50);
`;

/** Puts back a stamp a killed run left aside. */
function restore({ build, aside }: { build: string; aside: string }): void {
  if (!existsSync(aside)) return;
  if (existsSync(build)) rmSync(aside);
  else renameSync(aside, build);
}

// The default link's exact counts, from the engine natively loaded here.
const counted = realCountingEngine().run(realCodec().decodeLink("").links.run, true, false, undefined) as Report;

let server: ViteDevServer | undefined;

let baseUrl = "";

beforeAll(async () => {
  for (const build of BUILDS) {
    restore(build);
    renameSync(build.build, build.aside);
  }
  process.env["BUFLAB_BUILD_BEHIND"] = JSON.stringify(["node", "-e", BUILDER, land, ...BUILDS.flatMap(({ build, aside }) => [aside, build])]);
  try {
    // Its dependencies scanned afresh, as on a fresh clone.
    server = await createServer({
      root: join(root, "web"),
      configFile: join(root, "vite.config.ts"),
      logLevel: "warn",
      server: { port: 0, host: "127.0.0.1" },
      optimizeDeps: { force: true },
    });
    await server.listen();
  } finally {
    delete process.env["BUFLAB_BUILD_BEHIND"];
  }
  const address = server.httpServer?.address();
  if (typeof address !== "object" || address === null) throw new Error("the dev server has no port");
  baseUrl = `http://127.0.0.1:${address.port}/`;
});

afterAll(async () => {
  await server?.close();
  rmSync(land, { force: true });
  for (const build of BUILDS) restore(build);
});

const pages = usePages();

/** The status line's activity text. */
function activity(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelector("#status .activity")?.textContent ?? "");
}

describe("npm start's dev server with the default link's timing build still being built", { retry: 0 }, () => {
  it("answers for the missing build with 503 building, never the page's HTML", async () => {
    const response = await fetch(`${baseUrl}pkg-timing/fixed/buflab_timing_bg.wasm`);
    expect(response.status).toBe(503);
    expect(response.headers.get("x-buflab-build")).toBe("building");
    expect(await response.text()).toContain("web/pkg-timing/fixed is still being built");
  });

  it("shows the exact counts, says the timing build is still being built, and measures in full once it lands, without a reload", async () => {
    const page = await pages.open(baseUrl);
    // The counts, and the status naming the build they wait for.
    await page.waitForFunction(() => document.querySelector("#status .activity")?.textContent?.includes("Building timing-fixed"), undefined, { timeout: 60_000 });
    for (const run of counted.runs) expect(await metric(page, run.reader, "source_reads")).toBe(run.source_reads);
    expect(await activity(page)).toBe("Building timing-fixed…");
    // For a person to look at: the status while the build is compiled, on a laptop and a phone.
    await page.screenshot({ path: "test-results/serve-building-1280.png" });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "test-results/serve-building-390.png" });
    await page.setViewportSize({ width: 1280, height: 900 });
    // Still waiting, not failed, a while later (the page polls each second).
    await page.evaluate(() => Object.assign(window, { beforeLanding: true }));
    await page.waitForTimeout(2500);
    expect(await activity(page)).toBe("Building timing-fixed…");

    writeFileSync(land, "");
    await settled(page);
    expect(await activity(page)).toBe("Done");
    expect(await page.evaluate(() => "beforeLanding" in window), "the page was not reloaded").toBe(true);
    for (const run of counted.runs) expect(await metric(page, run.reader, "source_reads")).toBe(run.source_reads);
  });
});
