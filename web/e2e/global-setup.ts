// Builds the page (vite build → dist/) and serves it with `vite preview` on a
// free loopback port (a fixed one under `npm run screenshots`, so links in
// the images read the same on every run), with the same cross-origin isolation headers as
// production. The tests get the address through vitest's provide/inject.
//
// The engine's builds (web/pkg-counts, web/pkg-program, web/pkg-timing/*, web/pkg-trace)
// must exist: `npm run wasm` (or `npm run build`) first.

import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { build, preview, type PreviewServer } from "vite";
import type { TestProject } from "vitest/node";
import { SCREENSHOT_PORT, SCREENSHOTS } from "./screenshots";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const root = fileURLToPath(new URL("../..", import.meta.url));
const configFile = fileURLToPath(new URL("../../vite.config.ts", import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

let server: PreviewServer | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  for (const wasm of ["pkg-counts/buflab_counts_bg.wasm", "pkg-program/buflab_program_bg.wasm", "pkg-timing/fixed/buflab_timing_bg.wasm", "pkg-trace/buflab_trace_bg.wasm"]) {
    if (!existsSync(new URL(`../${wasm}`, import.meta.url))) {
      throw new Error(`web/${wasm} is missing: run \`npm run wasm\` before the end-to-end tests.`);
    }
  }
  if (process.env.BUFLAB_E2E_SKIP_BUILD !== "1") {
    await build({ root: `${root}/web`, configFile, logLevel: "warn", mode: "production" });
  }
  const port = SCREENSHOTS ? SCREENSHOT_PORT : await freePort();
  server = await preview({
    root: `${root}/web`,
    configFile,
    logLevel: "warn",
    preview: { port, strictPort: true, host: "127.0.0.1", open: false },
  });
  project.provide("baseUrl", `http://127.0.0.1:${port}/`);
  return async () => {
    await server?.close();
  };
}
