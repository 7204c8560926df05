// The page's side of the service worker, registered once the first full
// measurement has settled (main.ts), so its install never competes with the
// first numbers or the first timed runs:
//
//   first visit:  page ─▶ first numbers (exact counts, no fine timer needed)
//                      ─▶ first full measurement ─▶ register ─▶ install (the first numbers' files)
//                      ─▶ PRECACHE_LATER (the rest: the timing and program builds, chart.js)
//   later visits: served by the worker, with COOP/COEP ─▶ isolated ─▶ fine timer
//
// On a host that sends no isolation headers the first visit stays not
// isolated: it never reloads for the fine timer (that reload cost the first
// numbers a quarter of a second on a plain static host). Its times are taken
// with the coarse timer, samples lengthened to match (the engine's rule), and
// the status says so and that the next visit times finely. A worker that
// cannot be registered never stops the page: it keeps the coarse timer and
// has no offline copy.

import { PRECACHE_LATER, SERVICE_WORKER_FILE } from "./policy";

// True in `vite build` output only (web/build/service-worker.ts defines it):
// `vite dev` has no sw.js, and sends the headers itself. Not
// import.meta.env.PROD, which follows NODE_ENV and is false in builds made
// under vitest.
declare const __BUFLAB_SERVICE_WORKER__: boolean | undefined;

/**
 * Registers the service worker (offline copy; isolation from the next visit
 * on a plain host), then asks it to cache the rest of the build, which its
 * install leaves out. Does nothing where there is none: a dev server, an
 * insecure origin, a browser without service workers, or a failed register.
 */
export async function registerServiceWorker(): Promise<void> {
  // Insecure origins (plain http to a LAN address) have no service workers.
  const built = typeof __BUFLAB_SERVICE_WORKER__ !== "undefined" && __BUFLAB_SERVICE_WORKER__;
  if (!built || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  try {
    const registration = await navigator.serviceWorker.register(new URL(SERVICE_WORKER_FILE, document.baseURI));
    const worker = registration.active ?? registration.waiting ?? registration.installing;
    worker?.postMessage(PRECACHE_LATER);
  } catch (error) {
    console.warn("BufLab works without offline use: the service worker could not be registered.", error);
  }
}
