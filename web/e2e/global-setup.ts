// Builds the page (vite build → dist/) and serves it with `vite preview` on a
// free loopback port (a fixed one under `npm run screenshots`, so links in
// the images read the same on every run), with the same cross-origin isolation headers as
// production, and starts the one Chromium every test file connects to
// (browser.ts `launchChromium`), once for the run. The tests get the
// address and the browser's endpoint through vitest's provide/inject.
//
// The engine's builds (web/pkg-counts, web/pkg-program, web/pkg-questions, web/pkg-timing/*, web/pkg-trace)
// must exist: `npm run wasm` (or `npm run build`) first.

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserServer } from "playwright-core";
import { build, preview, type PreviewServer } from "vite";
import type { TestProject } from "vitest/node";
import { CHROMIUM } from "./chromium";
import { freePort } from "./ports";
import { SCREENSHOT_PORT, SCREENSHOTS } from "./screenshots";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The shared Chromium's endpoint (`chromium.connect`). */
    browserEndpoint: string;
  }
}

const root = fileURLToPath(new URL("../..", import.meta.url));
const configFile = fileURLToPath(new URL("../../vite.config.ts", import.meta.url));

let server: PreviewServer | undefined;
let browser: BrowserServer | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  for (const wasm of ["pkg-counts/buflab_counts_bg.wasm", "pkg-program/buflab_program_bg.wasm", "pkg-questions/buflab_questions_bg.wasm", "pkg-timing/fixed/buflab_timing_bg.wasm", "pkg-trace/buflab_trace_bg.wasm"]) {
    if (!existsSync(new URL(`../${wasm}`, import.meta.url))) {
      throw new Error(`web/${wasm} is missing: run \`npm run wasm\` before the end-to-end tests.`);
    }
  }
  // Started beside the build: neither waits for the other.
  const launching = chromium.launchServer(CHROMIUM);
  try {
    if (process.env.BUFLAB_E2E_SKIP_BUILD !== "1") {
      // The tests read only the `.gz` copies (web/build/precompress.ts says why).
      process.env.BUFLAB_PRECOMPRESS = "gzip";
      await build({ root: `${root}/web`, configFile, logLevel: "warn", mode: "production" });
    }
  } catch (error) {
    await (await launching).close();
    throw error;
  }
  browser = await launching;
  const port = SCREENSHOTS ? SCREENSHOT_PORT : await freePort();
  server = await preview({
    root: `${root}/web`,
    configFile,
    logLevel: "warn",
    preview: { port, strictPort: true, host: "127.0.0.1", open: false },
  });
  project.provide("baseUrl", `http://127.0.0.1:${port}/`);
  project.provide("browserEndpoint", browser.wsEndpoint());
  return async () => {
    await server?.close();
    await browser?.close();
  };
}
