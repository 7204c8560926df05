// How the bench scripts (bench.mjs, ab-first-load.mjs, phone-ab.mjs) open and wait on a page
// without disturbing what it measures. Playwright's waitForFunction polls on
// every animation frame by default, which keeps the page rendering at the
// display's rate, and its first call injects Playwright's own script (30 ms
// of the page's main thread). In a trace of a first load on a 2-core
// machine both fell inside the first numbers' window, beside the counting
// worker; three alternating A/Bs of the two ways of waiting (12–16 loads
// each) moved first numbers by −120, −100 and −5 ms: a direction, not a
// measurement.
// The figures are the page's own performance marks, read afterwards, so
// waiting longer never changes them.

/** How long a first load is left alone before the harness looks at it. */
export const HANDS_OFF_MS = 2000;

/** How often a wait asks the page (ms): a timer, not every frame. */
const POLL_MS = 100;

/** `page.waitForFunction`, asking every POLL_MS instead of every frame. */
export function waitIn(page, predicate, arg, timeout = 60_000) {
  return page.waitForFunction(predicate, arg, { polling: POLL_MS, timeout });
}

/** Opens `url`, leaves the page alone for HANDS_OFF_MS, then waits for its first full measurement. */
export async function loadUntilFull(page, url) {
  await page.goto(url);
  await page.waitForTimeout(HANDS_OFF_MS);
  await waitIn(page, () => performance.getEntriesByName("buflab:first-full").length > 0);
}

/**
 * A page in a fresh context of `browser` under `mobile` (web/e2e/phone.ts's
 * MOBILE: its viewport, network and CPU slowdown, through the DevTools
 * protocol before anything loads): the context, for the caller to close.
 */
export async function throttledPage(browser, mobile) {
  const context = await browser.newContext({ viewport: mobile.viewport });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", mobile.network);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: mobile.cpuSlowdown });
  return { context, page };
}
