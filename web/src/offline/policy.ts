// What the service worker does with a request, as pure functions (no
// `self`, no caches) so unit tests can pin them and the worker stays thin.
//
// The service worker has two jobs on a static host that sends no headers:
//
//   1. Cross-origin isolation. `performance.now()` in the engine's worker
//      ticks in 100 µs steps unless the page is cross-origin isolated, which
//      needs COOP/COEP response headers. A service worker may add headers to
//      the responses it hands out, so it adds them to every same-origin
//      response that is not wasm: the page, its scripts, the engine worker's
//      script (the wasm is fetched by the page, where they change nothing).
//   2. Offline. Every file of the build is precached, so after one visit the
//      page loads and runs with the network off: at install what the first
//      numbers need, and the rest (the timing and program builds of the
//      engine, chart.js: `later`) when
//      the page asks. The page registers the worker only once its first full
//      measurement has settled (main.ts), so a first visit's numbers and
//      times share the machine with neither.
//
// What must stay true: every response the worker hands out goes through
// `forPage`, which gives every file but the wasm the headers
// (`withIsolation`: a response without them would load the page, or the
// engine worker, without isolation) and hands the wasm out untouched, as
// `application/wasm`, so Chromium keeps its compiled code; and the precache
// lists every file of the build, the wasm and the worker chunk included.

/** Sent by `vite dev`/`vite preview` as real headers, added by the service worker elsewhere. */
export const ISOLATION_HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
} as const;

/** The service worker's file name, next to index.html: its scope is the page's folder. */
export const SERVICE_WORKER_FILE = "sw.js";

/** How many builds' caches to keep (see `cachesToDelete`). */
export const CACHES_KEPT = 2;

/** One file of the build, as the build writes it into sw.js. */
export interface PrecacheEntry {
  /** Relative to the service worker's folder, e.g. "assets/buflab_bg-Bg8G9UmF.wasm". */
  url: string;
  /** Content hash; changes whenever the file does. */
  revision: string;
  /** Not needed for the first numbers (`isLater`): cached after them, when the page asks. */
  later?: boolean;
}

/** The page's message to the service worker once it has registered it: cache the `later` files. */
export const PRECACHE_LATER = "buflab:precache-later";

/**
 * Files the first numbers do not need: the engine's timing builds (one per
 * workload), its program build and its questions build (their wasm, and the
 * program build's JS glue; the counting build is `buflab_counts…`; the
 * questions build's worker, `worker-questions…`), chart.js's chunks, the
 * labs' chart modules (`charts-…`, `chart-kit-…`), the read lab's sweep,
 * timeline and compare views, which the page loads after its first numbers, and the
 * strace log reader (its panel, worker, wasm and the shipped log), and the
 * room's panel, camera, marker detector and answer cards page (the cards'
 * rules, shared/cards.ts, are the model's too, so they come first). Any
 * other file is cached at install.
 */
export function isLater(url: string): boolean {
  return (
    LATER_WASM.test(url) ||
    /^assets\/(buflab_program|charts?|sweep|timeline|compare|trace|worker-trace|worker-questions|room|camera|detect-worker|cards-page|marker|aruco)-[^/]+\.js$/.test(url) ||
    /^assets\/(trace|room)-[^/]+\.css$/.test(url) ||
    /^traces\/[^/]+\.strace$/.test(url)
  );
}

/** The wasm of the builds that come after the first numbers (web/pkg-timing/<workload>, web/pkg-program, web/pkg-questions, web/pkg-trace; hashed), by URL or path. */
export const LATER_WASM = /\/?assets\/buflab_(timing|program|questions|trace)_bg-[^/]+\.wasm$/;

/**
 * The start of every cache name of the deployment at `scope`. Cache storage is
 * per origin, and one origin may host several deployments in sub-paths
 * (user.github.io/buflab/, user.github.io/buflab-next/): the scope keeps
 * them from reading or deleting each other's caches.
 */
export function cachePrefix(scope: string): string {
  return `buflab ${scope} `;
}

/** The cache holding one build's files. */
export function cacheName(scope: string, version: string): string {
  return `${cachePrefix(scope)}${version}`;
}

/**
 * This deployment's caches other than `current`, newest first (`keys` in
 * creation order, as `caches.keys()` gives them).
 */
export function olderCaches(keys: readonly string[], scope: string, current: string): string[] {
  return keys.filter((key) => key.startsWith(cachePrefix(scope)) && key !== current).reverse();
}

/**
 * Caches to delete when a build activates: all of this deployment's but the
 * newest `CACHES_KEPT`. The previous build's files stay one generation: a tab
 * still running the previous build may start a fresh engine worker after the
 * new build activated, and a host that replaced the files would answer the old
 * worker URL with 404.
 */
export function cachesToDelete(keys: readonly string[], scope: string, current: string): string[] {
  return olderCaches(keys, scope, current).slice(CACHES_KEPT - 1);
}

/**
 * A copy of `response` carrying the isolation headers. Responses whose
 * headers cannot be read (opaque, status 0) and errors pass through: they are
 * not the page's own files.
 */
export function withIsolation(response: Response): Response {
  if (response.status === 0 || response.type === "opaque" || response.type === "opaqueredirect") return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The only content type WebAssembly.compileStreaming takes, exactly (no parameters). */
export const WASM_TYPE = "application/wasm";

/**
 * What the service worker hands the page for `response` to a request of
 * `url`. The page's files carry the isolation headers (`withIsolation`). A
 * wasm goes out as the cache (or the network) gave it when its type is
 * `application/wasm`: Chromium keeps a module's optimized code beside that
 * response only, never beside a copy the worker made, and the isolation
 * headers do nothing on a file that is neither a page nor a worker's script.
 * A wasm of another type is copied with the right one, so the page still
 * compiles it while it streams (uncached).
 */
export function forPage(response: Response, url: string): Response {
  if (!new URL(url).pathname.endsWith(".wasm") || !response.ok) return withIsolation(response);
  if (response.headers.get("Content-Type")?.toLowerCase() === WASM_TYPE) return response;
  const headers = new Headers(response.headers);
  headers.set("Content-Type", WASM_TYPE);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The parts of a Request the policy looks at. */
export interface RequestLike {
  url: string;
  method: string;
  mode: string;
}

/**
 * Whether the service worker answers this request at all: GET requests for
 * files inside its scope. Everything else goes to the network untouched
 * (the CSP allows no other origin anyway).
 */
export function handles(request: RequestLike, scope: string): boolean {
  return request.method === "GET" && request.url.startsWith(scope);
}

/**
 * The precache key for a request. A navigation to the page (its folder, or
 * index.html, with any query) is the cached index.html; anything else is its
 * own URL without query or fragment.
 */
export function cacheKey(request: RequestLike, scope: string): string {
  const url = new URL(request.url);
  url.hash = "";
  url.search = "";
  if (request.mode === "navigate" && (url.href === scope || url.href === `${scope}index.html`)) {
    return `${scope}index.html`;
  }
  return url.href;
}

/**
 * How install fetches an entry. Files under assets/ have their content hash
 * in the name, so a copy in the browser's HTTP cache is the right one; other
 * files (index.html, favicon) keep their name across builds and are
 * revalidated with the host.
 */
export function installCacheMode(entry: PrecacheEntry): RequestCache {
  return entry.url.startsWith("assets/") ? "default" : "no-cache";
}

/**
 * Where install fetches an entry from (relative to the service worker). The
 * page is fetched as its folder, the URL the visitor's browser just loaded,
 * so install revalidates that copy (304) instead of downloading it again.
 * It is still cached under index.html (see `cacheKey`).
 */
export function installUrl(entry: PrecacheEntry): string {
  return entry.url === "index.html" ? "./" : entry.url;
}
