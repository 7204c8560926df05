// Vite plugin: a <link rel="preload"> for the build's wasm in the page's
// head, so the engine downloads beside the page's script instead of after it
// has run (engine/spawn.ts compiles that same response). Added from the bundle
// rather than written in index.html: each build mode has its own wasm (the
// `faults` build's comes from web/pkg-faults), which only the bundle knows.

import type { Plugin } from "vite";

export function preloadWasm(): Plugin {
  return {
    name: "buflab-preload-wasm",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, context) {
        const wasm = Object.keys(context.bundle ?? {}).filter((file) => file.endsWith(".wasm"));
        if (wasm.length !== 1) throw new Error(`preload: the build has ${wasm.length} wasm files, not 1: ${wasm.join(", ")}`);
        // crossorigin: fetch()'s own mode, or the browser would download it twice.
        return [{ tag: "link", attrs: { rel: "preload", href: `./${wasm[0]}`, as: "fetch", type: "application/wasm", crossorigin: "" }, injectTo: "head" }];
      },
    },
  };
}
