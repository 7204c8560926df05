import { describe, expect, it } from "vitest";
import {
  ISOLATION_HEADERS,
  cacheKey,
  cacheName,
  cachesToDelete,
  forPage,
  handles,
  installCacheMode,
  installUrl,
  isLater,
  olderCaches,
  withIsolation,
} from "./policy";

const scope = "https://user.github.io/buflab/";

describe("withIsolation", () => {
  it("adds COOP and COEP and keeps status, type and body", async () => {
    const original = new Response("<!doctype html>", {
      status: 200,
      headers: { "Content-Type": "text/html", "Cross-Origin-Opener-Policy": "unsafe-none" },
    });
    const isolated = withIsolation(original);
    expect(isolated.headers.get("Cross-Origin-Opener-Policy")).toBe("same-origin");
    expect(isolated.headers.get("Cross-Origin-Embedder-Policy")).toBe("require-corp");
    expect(isolated.headers.get("Content-Type")).toBe("text/html");
    expect(isolated.status).toBe(200);
    await expect(isolated.text()).resolves.toBe("<!doctype html>");
  });

  it("adds them to errors too: a 404 page must not load the tab unisolated", () => {
    const isolated = withIsolation(new Response("missing", { status: 404, statusText: "Not Found" }));
    expect(isolated.status).toBe(404);
    expect(isolated.statusText).toBe("Not Found");
    expect(isolated.headers.get("Cross-Origin-Embedder-Policy")).toBe(ISOLATION_HEADERS["Cross-Origin-Embedder-Policy"]);
  });

  it("passes a network error (status 0) through untouched", () => {
    const failed = Response.error();
    expect(withIsolation(failed)).toBe(failed);
  });
});

describe("forPage", () => {
  const wasmUrl = `${scope}assets/buflab_timing_bg-AEPBKKxi.wasm`;

  it("hands a wasm sent as application/wasm out as it is: Chromium keeps compiled code beside that response only", () => {
    const cached = new Response(new Uint8Array([0, 97, 115, 109]), { headers: { "Content-Type": "application/wasm" } });
    expect(forPage(cached, wasmUrl)).toBe(cached);
  });

  it("gives a wasm sent with another type application/wasm, so the page can still compile it while it streams", async () => {
    const mistyped = new Response(new Uint8Array([0, 97, 115, 109]), { headers: { "Content-Type": "application/octet-stream", "Last-Modified": "x" } });
    const fixed = forPage(mistyped, wasmUrl);
    expect(fixed.headers.get("Content-Type")).toBe("application/wasm");
    expect(fixed.headers.get("Last-Modified")).toBe("x");
    expect(new Uint8Array(await fixed.arrayBuffer())).toEqual(new Uint8Array([0, 97, 115, 109]));
  });

  it("gives every other file, and a failed wasm, the isolation headers", () => {
    const page = forPage(new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } }), `${scope}index.html`);
    expect(page.headers.get("Cross-Origin-Embedder-Policy")).toBe("require-corp");
    const missing = forPage(new Response("missing", { status: 404 }), wasmUrl);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("Cross-Origin-Opener-Policy")).toBe("same-origin");
  });
});

describe("which requests the service worker answers", () => {
  it("GET inside its scope only", () => {
    expect(handles({ url: `${scope}assets/x.wasm`, method: "GET", mode: "same-origin" }, scope)).toBe(true);
    expect(handles({ url: scope, method: "GET", mode: "navigate" }, scope)).toBe(true);
    expect(handles({ url: `${scope}x`, method: "POST", mode: "cors" }, scope)).toBe(false);
    // Another deployment on the same origin, and another origin.
    expect(handles({ url: "https://user.github.io/other/", method: "GET", mode: "navigate" }, scope)).toBe(false);
    expect(handles({ url: "https://example.org/buflab/", method: "GET", mode: "cors" }, scope)).toBe(false);
  });

  it("navigations to the page, with any query or fragment, are the cached index.html", () => {
    for (const url of [scope, `${scope}?utm=x`, `${scope}index.html`, `${scope}index.html?x#v=1&len=1M`]) {
      expect(cacheKey({ url, method: "GET", mode: "navigate" }, scope)).toBe(`${scope}index.html`);
    }
  });

  it("other files are their own URL without the query", () => {
    expect(cacheKey({ url: `${scope}assets/a.js?v=2`, method: "GET", mode: "same-origin" }, scope)).toBe(`${scope}assets/a.js`);
    // Only a navigation maps the folder to index.html.
    expect(cacheKey({ url: scope, method: "GET", mode: "cors" }, scope)).toBe(scope);
  });
});

describe("install", () => {
  it("takes hashed assets from the HTTP cache and revalidates the rest", () => {
    expect(installCacheMode({ url: "assets/buflab_bg-Bg8G9UmF.wasm", revision: "a" })).toBe("default");
    expect(installCacheMode({ url: "index.html", revision: "a" })).toBe("no-cache");
    expect(installCacheMode({ url: "favicon.svg", revision: "a" })).toBe("no-cache");
  });

  it("fetches the page as its folder, the URL the browser already loaded", () => {
    expect(installUrl({ url: "index.html", revision: "a" })).toBe("./");
    expect(installUrl({ url: "assets/a.js", revision: "a" })).toBe("assets/a.js");
  });
});

describe("what install leaves for after the first numbers", () => {
  it("the timing, program and questions builds and the charts wait; the counting build, the page and its scripts do not", () => {
    for (const later of [
      "assets/buflab_timing_bg-AEPBKKxi.wasm",
      "assets/buflab_timing_bg-Bx9zKKq2.wasm",
      "assets/buflab_program_bg-C1PBKKxi.wasm",
      "assets/buflab_program-CmbFRZO1.js",
      "assets/buflab_questions_bg-Dq3nW8xk.wasm",
      "assets/worker-questions-Cz1pQ0aL.js",
      "assets/chart-BR13wkzm.js",
      "assets/chart-bars-D6SiBZ7B.js",
      "assets/charts-DRWl7oc8.js",
      "assets/chart-kit-BSpBbkVX.js",
      "assets/sweep-CukFPF7n.js",
      "assets/timeline-D_3Wn7fI.js",
      "assets/trace-Cq1x9Zab.js",
      "assets/trace-DbT2w9Qe.css",
      "assets/worker-trace-B8kQ2mZx.js",
      "assets/buflab_trace_bg-D4nR7Wq1.wasm",
      "traces/bash-while-read.strace",
    ]) {
      expect(isLater(later), later).toBe(true);
    }
    for (const first of [
      "assets/buflab_counts_bg-Bh0yCCER.wasm",
      "assets/buflab_counts-BaX-JxHR.js",
      "assets/page-CY2-9Q6O.js",
      "assets/main-BVSCVW1z.js",
      "assets/worker-E2oJW6Gz.js",
      "assets/format-DQjpisYc.js",
      "index.html",
      "favicon.svg",
    ]) {
      expect(isLater(first), first).toBe(false);
    }
  });
});

describe("cache generations", () => {
  const other = cacheName("https://user.github.io/other/", "v1");
  const keys = [cacheName(scope, "v1"), other, cacheName(scope, "v2"), "someone-else", cacheName(scope, "v3"), cacheName(scope, "v4")];

  it("older caches are this deployment's, newest first", () => {
    expect(olderCaches(keys, scope, cacheName(scope, "v4"))).toEqual([cacheName(scope, "v3"), cacheName(scope, "v2"), cacheName(scope, "v1")]);
  });

  it("activation keeps the current build and the one before, and never touches other deployments", () => {
    expect(cachesToDelete(keys, scope, cacheName(scope, "v4"))).toEqual([cacheName(scope, "v2"), cacheName(scope, "v1")]);
    expect(cachesToDelete([cacheName(scope, "v1")], scope, cacheName(scope, "v1"))).toEqual([]);
  });
});
