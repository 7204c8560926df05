// One small interface over the three engines the smoke set runs in, so a
// smoke test is written once (smoke.ts) and run in each:
//
//   chromium  Debian's Chromium through playwright-core (the run's shared
//             browser, global-setup.ts), as the full suite drives it
//   firefox   Debian's Firefox ESR through puppeteer-core over WebDriver BiDi
//             (playwright-core's own Firefox protocol needs its patched build)
//   webkit    WebKitGTK's MiniBrowser through WebKitWebDriver (classic
//             WebDriver over HTTP), under Xvfb: it needs a display even for tests
//
// An engine that is not installed fails its test with what to run: never a
// silent skip (scripts/setup.sh --browser installs all three).

import { existsSync } from "node:fs";

export type EngineName = "chromium" | "firefox" | "webkit";

/** A function run in the page: it gets `arg` (JSON) and returns JSON, or a promise of it. */
export type InPage<A, R> = (arg: A) => R | Promise<R>;

/** One fresh browser profile (nothing cached, no service worker) with one tab. */
export interface Driver {
  readonly engine: EngineName;
  /** The browser's version, as it reports it. */
  readonly version: string;
  /** Loads `url` in the tab and waits for its load event. */
  goto(url: string): Promise<void>;
  /** Reloads the tab's page (as the browser's Reload does) and waits for its load event. */
  reload(): Promise<void>;
  /** Runs `fn(arg)` in the page and returns its result. */
  evaluate<A, R>(fn: InPage<A, R>, arg: A): Promise<R>;
  /** Polls `fn(arg)` in the page (every 100 ms) until it returns a truthy value, which it returns. */
  waitFor<A, R>(fn: InPage<A, R>, arg: A, timeoutMs?: number): Promise<R>;
  /** Clicks the first element `selector` matches, as a person would (the driver's pointer). */
  click(selector: string): Promise<void>;
  /** Presses one key (a KeyboardEvent `key` name: "PageDown", "ArrowRight", "Enter") on the focused element. */
  press(key: string): Promise<void>;
  /** The text of the first element `selector` matches (its textContent). */
  text(selector: string): Promise<string>;
  /**
   * Errors the page and its workers logged or threw since the last call,
   * emptied by the call. WebKit's classic WebDriver has no console: there
   * only the page's own uncaught errors, rejections and console.error calls
   * after the load event are seen (installed by `goto`).
   */
  takeErrors(): Promise<string[]>;
  close(): Promise<void>;
}

export const ENGINES: readonly EngineName[] = ["chromium", "firefox", "webkit"];

/** The browser WebKitWebDriver starts (from libwebkit2gtk-4.1, which webkit2gtk-driver brings). */
export const MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/** The programs each engine needs, installed by `scripts/setup.sh --browser`. */
export const PROGRAMS: Record<EngineName, readonly string[]> = {
  chromium: ["/usr/bin/chromium"],
  firefox: ["/usr/bin/firefox-esr"],
  webkit: ["/usr/bin/WebKitWebDriver", MINIBROWSER, "/usr/bin/xvfb-run", "/usr/bin/Xvfb"],
};

/** Throws, naming what to install, when `engine`'s programs are missing. */
export function requireInstalled(engine: EngineName): void {
  const missing = PROGRAMS[engine].filter((program) => !existsSync(program));
  if (missing.length > 0) {
    throw new Error(`${engine}: ${missing.join(", ")} not installed: run \`bash scripts/setup.sh --browser\` (npm test does)`);
  }
}

/** The source of `fn` applied to `arg`, as an expression a driver runs in the page. */
export function callSource<A, R>(fn: InPage<A, R>, arg: A): string {
  return `(${fn.toString()})(${JSON.stringify(arg) ?? "undefined"})`;
}

/** Polls `probe` every 100 ms until it gives a truthy value, or throws after `timeoutMs`, naming `what`. */
export async function poll<R>(probe: () => Promise<R>, timeoutMs: number, what: string): Promise<R> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * In the page, after its load: records the page's uncaught errors, rejected
 * promises and console.error calls into `window.__buflabErrors`, for an
 * engine whose driver has no console (WebKit over classic WebDriver).
 */
export function installErrorTrap(): void {
  const w = window as unknown as { __buflabErrors?: string[] };
  if (w.__buflabErrors) return;
  const errors: string[] = [];
  w.__buflabErrors = errors;
  addEventListener("error", (event) => errors.push(`page error: ${event.message}`));
  addEventListener("unhandledrejection", (event) => errors.push(`unhandled rejection: ${String(event.reason)}`));
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    errors.push(`console: ${args.map(String).join(" ")}`);
    original(...args);
  };
}

/** In the page: what `installErrorTrap` recorded since the last call, emptied. */
export function takeTrappedErrors(): string[] {
  const w = window as unknown as { __buflabErrors?: string[] };
  return w.__buflabErrors?.splice(0) ?? [];
}

/** A driver for `engine`: a fresh profile of it (Chromium's: a new context of the run's shared browser). */
export async function openDriver(engine: EngineName): Promise<Driver> {
  requireInstalled(engine);
  if (engine === "chromium") return (await import("./chromium-driver")).openChromium();
  if (engine === "firefox") return (await import("./firefox-driver")).openFirefox();
  return (await import("./webkit-driver")).openWebKit();
}
