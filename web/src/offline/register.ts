// The page's side of the service worker: register it (offline copy), and on a
// host that sends no COOP/COEP headers reload once, so the page comes back
// through the service worker, which adds them (the coi-serviceworker idea).
//
//   first visit:   not isolated, no worker ─▶ register ─▶ wait until active ─▶ reload
//   after reload:  page served by the worker with the headers ─▶ isolated ─▶ run
//
// What must stay true: the page reloads at most once per tab session while it
// is not isolated (a browser that never isolates, or a blocked worker, would
// otherwise reload forever), and a worker that cannot be registered or
// installed never stops the page from starting: it runs with the coarse timer.

import { PRECACHE_LATER, SERVICE_WORKER_FILE } from "./policy";

// True in `vite build` output only (web/build/service-worker.ts defines it):
// `vite dev` has no sw.js, and sends the headers itself. Not
// import.meta.env.PROD, which follows NODE_ENV and is false in builds made
// under vitest.
declare const __BUFLAB_SERVICE_WORKER__: boolean | undefined;

/** sessionStorage key: set just before the isolation reload. */
export const RELOADED_KEY = "buflab:isolation-reload";

/** How long the first visit waits for the worker to install before starting without it. */
export const INSTALL_WAIT_MS = 10_000;

export type Isolation = "isolated" | "reloading" | "not isolated";

/** What `decide` needs to know, so the rule is testable without a browser. */
export interface IsolationFacts {
  isolated: boolean;
  /** The service worker is active for this page's scope. */
  workerActive: boolean;
  /** This tab already reloaded once for isolation. */
  reloadedBefore: boolean;
  /** sessionStorage works (without it the once-only guard cannot be kept). */
  canRemember: boolean;
}

/** Reload only when it can help, and only once. */
export function decide(facts: IsolationFacts): Isolation {
  if (facts.isolated) return "isolated";
  if (facts.workerActive && !facts.reloadedBefore && facts.canRemember) return "reloading";
  return "not isolated";
}

function sessionFlag(): { get(): boolean; set(): boolean; clear(): void } {
  return {
    get: () => {
      try {
        return sessionStorage.getItem(RELOADED_KEY) !== null;
      } catch {
        return false;
      }
    },
    set: () => {
      try {
        sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
        return sessionStorage.getItem(RELOADED_KEY) !== null;
      } catch {
        return false;
      }
    },
    clear: () => {
      try {
        sessionStorage.removeItem(RELOADED_KEY);
      } catch {
        // Nothing to clear where storage is off.
      }
    },
  };
}

/** Old browsers have no `crossOriginIsolated` at all. */
function isIsolated(): boolean {
  return (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
}

/** Resolves true once the registration has an active worker, false if installing failed or took too long. */
function activated(registration: ServiceWorkerRegistration, timeoutMs: number): Promise<boolean> {
  if (registration.active) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      resolve(ok);
    };
    const follow = (worker: ServiceWorker | null): void => {
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (worker.state === "activated" || worker.state === "activating") done(true);
        else if (worker.state === "redundant" && !registration.installing && !registration.waiting) done(false);
      });
    };
    follow(registration.installing ?? registration.waiting);
    registration.addEventListener("updatefound", () => follow(registration.installing));
  });
}

/**
 * Registers the service worker and makes sure the page is cross-origin
 * isolated where a reload can achieve it. "reloading" means the page is
 * about to be replaced: start nothing.
 */
export async function registerServiceWorker(): Promise<Isolation> {
  const flag = sessionFlag();
  // Insecure origins (plain http to a LAN address) have no service workers.
  const built = typeof __BUFLAB_SERVICE_WORKER__ !== "undefined" && __BUFLAB_SERVICE_WORKER__;
  if (!built || !("serviceWorker" in navigator) || !window.isSecureContext) {
    return isIsolated() ? "isolated" : "not isolated";
  }
  const registering = navigator.serviceWorker.register(new URL(SERVICE_WORKER_FILE, document.baseURI)).catch((error: unknown) => {
    console.warn("BufLab works without offline use: the service worker could not be registered.", error);
    return null;
  });
  if (isIsolated()) {
    // The usual visit. Registering again queues behind the browser's own
    // update check of sw.js (seconds on a slow host): nothing here waits for it.
    flag.clear();
    return "isolated";
  }
  const registration = await registering;
  if (!registration) return "not isolated";
  const reloadedBefore = flag.get();
  // After the one reload there is nothing left to wait for.
  const workerActive = !reloadedBefore && (await activated(registration, INSTALL_WAIT_MS));
  // The flag is written only when a reload is about to happen.
  const verdict = decide({ isolated: false, workerActive, reloadedBefore, canRemember: workerActive && flag.set() });
  if (verdict === "reloading") location.reload();
  return verdict;
}

/**
 * Once the first numbers are on screen: asks the service worker to cache the
 * rest of the build (the full engine, chart.js), which its install left out
 * so the first visit's first numbers download nothing else. Does nothing
 * where there is no service worker.
 */
export function precacheLater(): void {
  if (!("serviceWorker" in navigator)) return;
  void navigator.serviceWorker.getRegistration().then((registration) => {
    const worker = registration?.active ?? registration?.waiting ?? registration?.installing;
    worker?.postMessage(PRECACHE_LATER);
  });
}
