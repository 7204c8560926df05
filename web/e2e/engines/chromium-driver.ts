// The smoke set's Chromium: a fresh context of the run's shared Chromium
// (global-setup.ts), through playwright-core, as the full suite drives it.

import { launchChromium, watch } from "../browser";
import { callSource, poll, type Driver, type InPage } from "./driver";

export async function openChromium(): Promise<Driver> {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  const page = watch(await context.newPage(), errors);
  const run = <A, R>(fn: InPage<A, R>, arg: A): Promise<R> => page.evaluate(callSource(fn, arg)) as Promise<R>;
  return {
    engine: "chromium",
    version: browser.version(),
    async goto(url) {
      await page.goto(url);
    },
    async reload() {
      await page.reload();
    },
    evaluate: run,
    // Polled from here: playwright's waitForFunction evals a string in the page, which its CSP forbids.
    waitFor: (fn, arg, timeoutMs = 60_000) => poll(() => run(fn, arg), timeoutMs, `${fn.name || "a condition"} in Chromium`),
    async click(selector) {
      await page.click(selector);
    },
    async press(key) {
      await page.keyboard.press(key);
    },
    async text(selector) {
      return (await page.locator(selector).first().textContent()) ?? "";
    },
    takeErrors: async () => errors.splice(0),
    async close() {
      await context.close();
      await browser.close();
    },
  };
}
