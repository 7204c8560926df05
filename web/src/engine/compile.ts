// Compiling an engine build while it downloads: the playground's engine
// (spawn.ts) and the bench page both compile on the page's thread and hand
// the module to their workers.
//
// Every build is compiled by WebAssembly.compileStreaming from a fetch of its
// own stable URL, never from bytes: only a module compiled that way (128 KB or
// more, from an `application/wasm` response, beside the HTTP cache's copy or
// the service worker cache's) can have its optimized code kept by Chromium
// for the next visit; one compiled from bytes starts unoptimized every visit.
// Chromium writes it only when V8's delayed caching task fires, some
// seconds after the module's optimized code stops coming, whichever thread
// compiled or optimized it; on this page it fired for the program build in
// every visit measured and almost never for the counting and timing builds
// (docs/benchmarks.md, "Warm from the start").

/**
 * Compiles the wasm at `url` by streaming it. Where streaming cannot be had
 * (a browser without compileStreaming, a host that sends the wasm without
 * `application/wasm`, the network gone after a prefetch), it compiles
 * `bytes`, when the caller has them already, or the bytes of a new fetch.
 */
export async function compileWasm(url: string, bytes?: ArrayBuffer): Promise<WebAssembly.Module> {
  if (typeof WebAssembly.compileStreaming === "function") {
    try {
      return await WebAssembly.compileStreaming(fetch(url));
    } catch (error) {
      // A wrong content type and a failed fetch are TypeErrors; a CompileError is the wasm's own.
      if (!(error instanceof TypeError)) throw error;
    }
  }
  if (bytes !== undefined) return WebAssembly.compile(bytes);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}
