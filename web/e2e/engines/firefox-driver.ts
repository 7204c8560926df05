// The smoke set's Firefox: Debian's Firefox ESR, headless, a fresh profile,
// through puppeteer-core over WebDriver BiDi (playwright-core speaks only
// its own protocol to Firefox, which needs Playwright's patched build).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { callSource, poll, type Driver, type InPage } from "./driver";

export async function openFirefox(): Promise<Driver> {
  const profile = mkdtempSync(join(tmpdir(), "buflab-firefox-"));
  const browser = await puppeteer.launch({
    browser: "firefox",
    protocol: "webDriverBiDi",
    executablePath: "/usr/bin/firefox-esr",
    headless: true,
    userDataDir: profile,
    // Nothing of its own over the network: this closed network refuses it.
    extraPrefsFirefox: {
      "app.update.enabled": false,
      "browser.safebrowsing.malware.enabled": false,
      "browser.safebrowsing.phishing.enabled": false,
      "network.captive-portal-service.enabled": false,
      "network.connectivity-service.enabled": false,
    },
  });
  const errors: string[] = [];
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error instanceof Error ? error.message : String(error)}`));
  const run = <A, R>(fn: InPage<A, R>, arg: A): Promise<R> => page.evaluate(callSource(fn, arg)) as Promise<R>;
  return {
    engine: "firefox",
    version: await browser.version(),
    async goto(url) {
      await page.goto(url, { waitUntil: "load" });
    },
    async reload() {
      await page.reload({ waitUntil: "load" });
    },
    evaluate: run,
    waitFor: (fn, arg, timeoutMs = 60_000) => poll(() => run(fn, arg), timeoutMs, `${fn.name || "a condition"} in Firefox`),
    async click(selector) {
      await page.click(selector);
    },
    async press(key) {
      await page.keyboard.press(key as never);
    },
    async text(selector) {
      return page.$eval(selector, (element) => element.textContent ?? "");
    },
    takeErrors: async () => errors.splice(0),
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
