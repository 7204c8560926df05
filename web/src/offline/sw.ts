// The service worker (built to dist/sw.js by web/build/service-worker.ts,
// which fills in the build's file list and version). Its rules live in
// policy.ts; this file only wires them to the service worker events.
//
//   install   fetch the files the first numbers need into this build's cache
//   message   PRECACHE_LATER (the page's first numbers are on screen): fetch
//             the rest (`later`: the timing and program builds, chart.js)
//   activate  drop caches of builds older than the previous one
//   fetch     same-origin GET inside the scope: cache first, then network;
//             every answer but the wasm carries the cross-origin isolation
//             headers, the wasm goes out as cached (policy.ts, forPage)
//
// It takes over at once (skipWaiting) but does not claim open pages: the
// page that registered it stays as it loaded (register.ts); the next visit
// comes through it, isolated.

import {
  cacheKey,
  cacheName,
  cachesToDelete,
  forPage,
  handles,
  installCacheMode,
  installUrl,
  olderCaches,
  PRECACHE_LATER,
  type PrecacheEntry,
} from "./policy";

// Replaced by the build (`define`): the files of this build and a hash of them all.
declare const __BUFLAB_PRECACHE__: PrecacheEntry[];
declare const __BUFLAB_VERSION__: string;

/** The parts of the service worker global scope used here (the project's lib is DOM, not WebWorker). */
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ServiceWorkerScope {
  readonly registration: { readonly scope: string };
  readonly location: { readonly href: string };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEventLike) => void): void;
  addEventListener(type: "message", listener: (event: ExtendableEventLike & { readonly data: unknown }) => void): void;
}

const sw = self as unknown as ServiceWorkerScope;
const scope = sw.registration.scope;
const current = cacheName(scope, __BUFLAB_VERSION__);

/** A response from this build's cache, else from the previous build's, else undefined. */
async function cached(key: string): Promise<Response | undefined> {
  const hit = await (await caches.open(current)).match(key);
  if (hit) return hit;
  for (const name of olderCaches(await caches.keys(), scope, current)) {
    const cache = await caches.open(name);
    const hit = await cache.match(key);
    if (hit) return hit;
  }
  return undefined;
}

/** This build's files by URL. */
const entries = new Map(__BUFLAB_PRECACHE__.map((entry) => [new URL(entry.url, sw.location.href).href, entry]));

/**
 * Cache writes under way, by URL: a page request for one of them waits for
 * it, and a precache of a file the page already fetched (and cached on the
 * way) skips it, so no file of the build downloads twice.
 */
const caching = new Map<string, Promise<unknown>>();

async function precache(list: PrecacheEntry[]): Promise<void> {
  const cache = await caches.open(current);
  await Promise.all(
    list.map((entry) => {
      const url = new URL(entry.url, sw.location.href).href;
      const earlier = caching.get(url);
      const put = (async () => {
        await earlier;
        if (await cache.match(url)) return;
        // A hashed file the previous build already has needs no download.
        const reused = entry.url.startsWith("assets/") ? await cached(url) : undefined;
        const from = new URL(installUrl(entry), sw.location.href).href;
        const response = reused ?? (await fetch(new Request(from, { cache: installCacheMode(entry) })));
        if (!response.ok) throw new Error(`BufLab could not cache ${entry.url}: HTTP ${response.status}`);
        await cache.put(url, response);
      })();
      caching.set(url, put.catch(() => undefined));
      return put;
    }),
  );
}

sw.addEventListener("install", (event) => {
  event.waitUntil(precache(__BUFLAB_PRECACHE__.filter((entry) => !entry.later)).then(() => sw.skipWaiting()));
});

sw.addEventListener("message", (event) => {
  if (event.data === PRECACHE_LATER) event.waitUntil(precache(__BUFLAB_PRECACHE__.filter((entry) => entry.later)));
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(cachesToDelete(keys, scope, current).map((name) => caches.delete(name)))),
  );
});

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!handles(request, scope)) return;
  const key = cacheKey(request, scope);
  // Being cached right now: wait for that download rather than start another.
  const earlier = caching.get(key);
  // A file of the build not cached yet (a `later` one the page wants before
  // the precache gets to it) is cached on its way to the page; marked at
  // once, so a precache starting meanwhile waits for it.
  let cachedOnTheWay: (done: Promise<unknown>) => void = () => undefined;
  if (!earlier && entries.has(key)) caching.set(key, new Promise((resolve) => (cachedOnTheWay = resolve)));
  event.respondWith(
    (async () => {
      await earlier;
      const hit = await cached(key);
      if (hit) {
        cachedOnTheWay(Promise.resolve());
        return hit;
      }
      const response = await fetch(request).catch((error: unknown) => {
        cachedOnTheWay(Promise.resolve());
        throw error;
      });
      const copy = response.ok ? response.clone() : null;
      cachedOnTheWay(copy ? caches.open(current).then((cache) => cache.put(key, copy)).catch(() => undefined) : Promise.resolve());
      return response;
    })().then((response) => forPage(response, key)),
  );
});
