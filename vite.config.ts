import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { buildsBehind } from "./web/build/builds-behind.js";
import { arucoExports } from "./web/build/js-aruco2.js";
import { precompress } from "./web/build/precompress.js";
import { preloadFirstNumbers } from "./web/build/preload-first.js";
import { serviceWorker } from "./web/build/service-worker.js";
import { ISOLATION_HEADERS } from "./web/src/offline/policy.js";

// Cross-origin isolation makes performance.now() in the worker tick in 5 µs
// steps instead of 100 µs; the engine reports which one it got. Every file the
// page loads is same-origin, so require-corp costs nothing. On hosts that
// send no headers, the service worker (dist/sw.js) adds the same ones.
const isolationHeaders = ISOLATION_HEADERS;

// `--mode faults` builds the recovery-test page: the engine from web/pkg-faults
// (built with the `faults` feature and every other) in place of the program
// and timing builds, into dist-faults/. `--mode bench` builds the benchmark
// page alone: the engine from web/pkg-bench (the `bench` feature) into
// dist-bench/, so the page's own build carries none of it.
/** The pages a mode builds: the benchmark page alone, or the playground. */
function pages(mode: string): Record<string, string> {
  // Absolute: the dev server's dependency scan resolves these from `root`.
  const page = (file: string): string => fileURLToPath(new URL(`./web/${file}`, import.meta.url));
  return mode === "bench" ? { bench: page("bench.html") } : { main: page("index.html"), handout: page("handout.html") };
}

export default defineConfig(({ mode }) => ({
  root: "web",
  publicDir: "../public",
  // Relative asset URLs: the built page works from any sub-path.
  base: "./",
  build: {
    outDir: mode === "faults" ? "../dist-faults" : mode === "bench" ? "../dist-bench" : "../dist",
    emptyOutDir: true,
    target: "es2022",
    // The wasm must stay a separate file: 'wasm-unsafe-eval' allows compiling
    // it, but an inlined data: URL would be blocked by connect-src 'self'.
    assetsInlineLimit: 0,
    rollupOptions: {
      input: pages(mode),
      // A feature folder's chunk is named after its folder (labs/read/sweep/index.ts → sweep-….js):
      // the offline policy tells the parts that come after the first numbers by name.
      output: {
        chunkFileNames: (chunk) => `assets/${chunk.facadeModuleId?.endsWith("/index.ts") ? basename(dirname(chunk.facadeModuleId)) : "[name]"}-[hash].js`,
      },
    },
  },
  resolve: {
    alias:
      mode === "faults" || mode === "bench"
        ? [{ find: /^(.*)\/pkg-(?:program|timing\/[a-z_]+)\/buflab_(?:program|timing)(\.js|_bg\.wasm\?url)$/, replacement: `$1/pkg-${mode}/buflab$2` }]
        : [],
  },
  worker: {
    format: "es",
    plugins: () => [arucoExports()],
  },
  // The dev server: the engine's builds still being compiled (`npm start`).
  // What the first numbers need, preloaded by the page; dist/sw.js: offline
  // copy of the whole build, and the isolation headers; then .br and .gz copies of the files for
  // hosts that serve them.
  plugins: mode === "bench" ? [] : [buildsBehind(), arucoExports(), preloadFirstNumbers(), serviceWorker(), precompress()],
  server: {
    host: "127.0.0.1",
    headers: isolationHeaders,
  },
  preview: {
    host: "127.0.0.1",
    headers: isolationHeaders,
  },
}));
