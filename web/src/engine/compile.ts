// Compiling an engine build while it downloads: the playground's engine
// (spawn.ts) and the bench page both compile on the page's thread and hand
// the module to their workers.

/** Compiles the wasm at `url`, streaming it where the host's content type allows. */
export async function compileWasm(url: string): Promise<WebAssembly.Module> {
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch (error) {
    // A host that sends the wasm without `application/wasm` fails streaming compilation only.
    if (!(error instanceof TypeError)) throw error;
    const response = await fetch(url);
    return WebAssembly.compile(await response.arrayBuffer());
  }
}
