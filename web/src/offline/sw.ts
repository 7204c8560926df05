// The service worker (built to dist/sw.js by web/build/service-worker.ts,
// which fills in the build's file list and version). Its rules live in
// policy.ts; this file only wires them to the service worker events.
//
//   install   fetch every file of the build into this build's cache
//   activate  drop caches of builds older than the previous one
//   fetch     same-origin GET inside the scope: cache first, then network;
//             every answer carries the cross-origin isolation headers
//
// It takes over at once (skipWaiting) but does not claim open pages: the page
// reloads itself once when it needs the isolation (register.ts).

import {
  cacheKey,
  cacheName,
  cachesToDelete,
  handles,
  installCacheMode,
  installUrl,
  olderCaches,
  withIsolation,
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

async function precache(): Promise<void> {
  const cache = await caches.open(current);
  await Promise.all(
    __BUFLAB_PRECACHE__.map(async (entry) => {
      const url = new URL(entry.url, sw.location.href).href;
      // A hashed file the previous build already has needs no download.
      const reused = entry.url.startsWith("assets/") ? await cached(url) : undefined;
      const from = new URL(installUrl(entry), sw.location.href).href;
      const response = reused ?? (await fetch(new Request(from, { cache: installCacheMode(entry) })));
      if (!response.ok) throw new Error(`BufLab could not cache ${entry.url}: HTTP ${response.status}`);
      await cache.put(url, response);
    }),
  );
}

sw.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(cachesToDelete(keys, scope, current).map((name) => caches.delete(name)))),
  );
});

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!handles(request, scope)) return;
  event.respondWith(
    cached(cacheKey(request, scope)).then((hit) => hit ?? fetch(request)).then(withIsolation),
  );
});
