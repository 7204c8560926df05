// Vite plugin: after `vite build` has written dist/, list every file in it
// (the page, its scripts, the engine worker chunk, the wasm, public files)
// with a content hash, and bundle web/src/offline/sw.ts into dist/sw.js with
// that list and a version built from it. Any changed file changes sw.js, which
// is how browsers notice a new deployment.
//
// Hand-written rather than vite-plugin-pwa: the worker's first job is adding
// COOP/COEP to every response it hands out (cache hits, network answers,
// navigations, the engine worker's script), which is one line at the one
// place this worker answers; Workbox spreads that over plugins on each
// strategy. The plugin would also bring workbox-build (Babel, Rollup, Terser)
// into the install, and its runtime would add ~5× the bytes of this worker to
// a page that is already near its byte budget.

import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin, type ResolvedConfig } from "vite";
import { SERVICE_WORKER_FILE, isLater, type PrecacheEntry } from "../src/offline/policy.js";
import { filesUnder } from "./files.js";
import { PRECOMPRESSED } from "./precompress.js";

const entry = fileURLToPath(new URL("../src/offline/sw.ts", import.meta.url));

function hash(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex").slice(0, 16);
}

/** Every file of the build but the service worker itself, source maps and precompressed copies, sorted. */
export function precacheEntries(outDir: string): PrecacheEntry[] {
  return filesUnder(outDir)
    .map((path) => relative(outDir, path).split(sep).join("/"))
    .filter((url) => url !== SERVICE_WORKER_FILE && !url.endsWith(".map") && !PRECOMPRESSED.test(url))
    .sort()
    .map((url) => ({ url, revision: hash(readFileSync(join(outDir, url))), ...(isLater(url) ? { later: true } : {}) }));
}

export function serviceWorker(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "buflab-service-worker",
    apply: "build",
    config() {
      // Tells the page (offline/register.ts) that there is a sw.js to register.
      return { define: { __BUFLAB_SERVICE_WORKER__: "true" } };
    },
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const entries = precacheEntries(outDir);
      // The page cannot run without these two: fail the build rather than ship a worker that cannot go offline.
      for (const [what, test] of [
        ["the engine's wasm", (url: string) => url.endsWith(".wasm")],
        ["the page", (url: string) => url === "index.html"],
      ] as const) {
        if (!entries.some((e) => test(e.url))) throw new Error(`service worker: ${what} is not in ${outDir}`);
      }
      const version = hash(JSON.stringify(entries));
      const result = await build({
        configFile: false,
        logLevel: "warn",
        mode: "production",
        define: {
          __BUFLAB_PRECACHE__: JSON.stringify(entries),
          __BUFLAB_VERSION__: JSON.stringify(version),
        },
        build: {
          write: false,
          target: config.build.target,
          minify: true,
          // A classic script (not a module worker): every browser with service workers can run it.
          lib: { entry, formats: ["iife"], name: "buflabServiceWorker", fileName: () => SERVICE_WORKER_FILE },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ("output" in r ? r.output : []));
      const chunk = outputs.find((o) => o.type === "chunk");
      if (!chunk || chunk.type !== "chunk") throw new Error("service worker: the bundle produced no script");
      writeFileSync(join(outDir, SERVICE_WORKER_FILE), chunk.code);
      config.logger.info(`service worker: ${entries.length} files precached, version ${version}`);
    },
  };
}
