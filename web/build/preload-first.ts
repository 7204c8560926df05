// Vite plugin: modulepreloads in the page's head for what the first numbers
// need beyond the entry script, so they download beside it instead of one
// after another: the page's own code (app/page.ts) with the shared chunks it
// imports, and the counting build's JS glue, dynamic imports of main.ts that
// the browser would otherwise discover only once main.ts has run. Added from
// the bundle rather than written in index.html: only the bundle knows the
// hashed names.
//
// The counting build's wasm is not preloaded: main.ts asks for it
// (engine/spawn.ts, compileStreaming) as soon as it runs. WebKit never
// hands a `<link rel=preload as=fetch>` to a later fetch(), whatever its
// crossorigin and type: it downloaded the wasm twice (web/e2e/smoke.ts
// counts each file's downloads in every engine). The timing and program
// builds are not preloaded either: they wait for the first numbers.

import type { HtmlTagDescriptor, Plugin } from "vite";

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
        // The entry's static imports Vite preloads itself; the workers' bundles are not in this one.
        const first = Object.values(bundle).flatMap((item) =>
          item.type === "chunk" && item.isDynamicEntry && FIRST_CHUNKS.includes(item.name) ? [item] : [],
        );
        const entry = new Set(Object.values(bundle).flatMap((item) => (item.type === "chunk" && item.isEntry ? [item.fileName] : [])));
        // With their own static imports (shared modules split out of them), which would otherwise wait for them.
        const chunks = [...new Set(first.flatMap((chunk) => [...chunk.imports, chunk.fileName]))].filter((file) => !entry.has(file));
        const missing = FIRST_CHUNKS.filter((name) => !chunks.some((file) => file.includes(`${name}-`)));
        if (missing.length > 0) throw new Error(`preload: no chunk named ${missing.join(", ")} in the bundle`);
        return chunks.map((file): HtmlTagDescriptor => ({ tag: "link", attrs: { rel: "modulepreload", href: `./${file}` }, injectTo: "head" }));
      },
    },
  };
}
