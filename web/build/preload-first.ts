// Vite plugin: preloads in the page's head for what the first numbers need
// beyond the entry script, so they download beside it instead of one after
// another: the engine's counting build (a `preload` of its wasm, which
// engine/spawn.ts compiles from that same response; its JS glue), and the
// page's own code (app/page.ts) with the shared chunks it imports, dynamic
// imports of main.ts that the browser would otherwise discover only once
// main.ts has run. The timing and program builds
// are not preloaded: they wait for the first numbers. Added from the bundle
// rather than written in index.html: only the bundle knows the hashed names.

import type { HtmlTagDescriptor, Plugin } from "vite";

/** The counting build's wasm in the bundle (web/pkg-counts/buflab_counts_bg.wasm, hashed). */
export const COUNTS_WASM = /(^|\/)buflab_counts_bg-[^/]*\.wasm$/;

/** The dynamic chunks main.ts needs before the first numbers, by chunk name. */
const FIRST_CHUNKS = ["page", "buflab_counts"];

export function preloadFirstNumbers(): Plugin {
  return {
    name: "buflab-preload-first",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, context) {
        // Only the playground's page shows numbers; the handout (handout.html) has none to hurry.
        if (!context.filename.endsWith("index.html")) return [];
        const bundle = context.bundle ?? {};
        const all = Object.keys(bundle).filter((file) => file.endsWith(".wasm"));
        const wasm = all.filter((file) => COUNTS_WASM.test(file));
        if (wasm.length !== 1) throw new Error(`preload: the build has ${wasm.length} counting builds, not 1: ${all.join(", ")}`);
        // The entry's static imports Vite preloads itself; the workers' bundles are not in this one.
        const first = Object.values(bundle).flatMap((item) =>
          item.type === "chunk" && item.isDynamicEntry && FIRST_CHUNKS.includes(item.name) ? [item] : [],
        );
        const entry = new Set(Object.values(bundle).flatMap((item) => (item.type === "chunk" && item.isEntry ? [item.fileName] : [])));
        // With their own static imports (shared modules split out of them), which would otherwise wait for them.
        const chunks = [...new Set(first.flatMap((chunk) => [...chunk.imports, chunk.fileName]))].filter((file) => !entry.has(file));
        const missing = FIRST_CHUNKS.filter((name) => !chunks.some((file) => file.includes(`${name}-`)));
        if (missing.length > 0) throw new Error(`preload: no chunk named ${missing.join(", ")} in the bundle`);
        return [
          // crossorigin: fetch()'s own mode, or the browser would download it twice.
          { tag: "link", attrs: { rel: "preload", href: `./${wasm[0]}`, as: "fetch", type: "application/wasm", crossorigin: "" }, injectTo: "head" },
          ...chunks.map((file): HtmlTagDescriptor => ({ tag: "link", attrs: { rel: "modulepreload", href: `./${file}` }, injectTo: "head" })),
        ];
      },
    },
  };
}
