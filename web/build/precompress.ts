// Vite plugin: after the build (the service worker's sw.js included, so this
// plugin comes after serviceWorker() in vite.config.ts), write `name.br` and
// `name.gz` next to every text file and the wasm in dist/, for static hosts
// that serve a precompressed copy when the browser accepts it (nginx's
// gzip_static/brotli_static, Caddy's `precompressed`, Netlify). Hosts that
// compress on the fly, or not at all, ignore them; the service worker never
// precaches them (web/build/service-worker.ts).
//
// BUFLAB_PRECOMPRESS=gzip writes the `.gz` copies only: the test builds'
// (web/e2e/global-setup.ts, `npm test`'s fault build). The tests' static
// host serves `.gz` (web/e2e/static-host.ts) and nothing reads `.br`, whose
// quality-11 brotli of the wasm is most of a build's time.

import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin, ResolvedConfig } from "vite";
import { filesUnder } from "./files.js";

/** The files worth compressing: text and the wasm (images are compressed already). */
const COMPRESSIBLE = /\.(html|js|css|wasm|svg|json|webmanifest)$/;

/** The endings of the precompressed copies this plugin writes. */
export const PRECOMPRESSED = /\.(br|gz)$/;

export function precompress(): Plugin {
  const gzipOnly = process.env.BUFLAB_PRECOMPRESS === "gzip";
  let config: ResolvedConfig;
  return {
    name: "buflab-precompress",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      // After the service worker plugin has written sw.js, not beside it.
      order: "post",
      sequential: true,
      handler() {
        const outDir = resolve(config.root, config.build.outDir);
        let written = 0;
        for (const path of filesUnder(outDir).filter((p) => COMPRESSIBLE.test(p))) {
          const data = readFileSync(path);
          const copies = {
            ...(gzipOnly
              ? {}
              : { br: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }) }),
            gz: gzipSync(data, { level: 9 }),
          };
          for (const [ending, copy] of Object.entries(copies)) {
            // A copy no smaller than the file would only cost the host's disk.
            if (copy.length >= data.length) continue;
            writeFileSync(`${path}.${ending}`, copy);
            written += 1;
          }
        }
        config.logger.info(`precompressed: ${written} ${gzipOnly ? ".gz" : ".br and .gz"} copies`);
      },
    },
  };
}
