import { afterEach, describe, expect, it, vi } from "vitest";
import { compileWasm } from "./compile";

/** The smallest valid module: the magic number and version 1. */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
const URL = "https://example.test/assets/buflab_timing_bg-x.wasm";

/** A fetch that answers every request with the empty module, sent as `type`, and counts the requests. */
function serve(type: string): { requests: () => number } {
  let requests = 0;
  vi.stubGlobal("fetch", async () => {
    requests++;
    return new Response(EMPTY_MODULE, { headers: { "Content-Type": type } });
  });
  return { requests: () => requests };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("compileWasm", () => {
  it("compiles by streaming, one fetch, never from bytes, where the host sends application/wasm", async () => {
    const host = serve("application/wasm");
    const streaming = vi.spyOn(WebAssembly, "compileStreaming");
    const module = await compileWasm(URL, EMPTY_MODULE.buffer);
    expect(streaming).toHaveBeenCalledTimes(1);
    expect(module).toBe(await streaming.mock.results[0]!.value);
    expect(host.requests()).toBe(1);
  });

  it("compiles the bytes it was given where the host sends another type, without fetching again", async () => {
    const host = serve("application/octet-stream");
    const compile = vi.spyOn(WebAssembly, "compile");
    expect(await compileWasm(URL, EMPTY_MODULE.buffer)).toBeInstanceOf(WebAssembly.Module);
    expect(compile).toHaveBeenCalledTimes(1);
    expect(host.requests()).toBe(1);
  });

  it("fetches the bytes itself where it was given none", async () => {
    const host = serve("text/plain");
    expect(await compileWasm(URL)).toBeInstanceOf(WebAssembly.Module);
    expect(host.requests()).toBe(2);
  });

  it("compiles from bytes in a browser without compileStreaming", async () => {
    const host = serve("application/wasm");
    const streaming = WebAssembly.compileStreaming;
    (WebAssembly as { compileStreaming?: unknown }).compileStreaming = undefined;
    try {
      expect(await compileWasm(URL, EMPTY_MODULE.buffer)).toBeInstanceOf(WebAssembly.Module);
    } finally {
      WebAssembly.compileStreaming = streaming;
    }
    expect(host.requests()).toBe(0);
  });

  it("passes a compile error on: the wasm itself is broken", async () => {
    vi.stubGlobal("fetch", async () => new Response(new Uint8Array([1, 2, 3, 4]), { headers: { "Content-Type": "application/wasm" } }));
    await expect(compileWasm(URL)).rejects.toBeInstanceOf(WebAssembly.CompileError);
  });
});
