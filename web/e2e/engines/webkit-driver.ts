// The smoke set's WebKit: WebKitGTK's MiniBrowser, driven by WebKitWebDriver
// (webkit2gtk-driver) over classic WebDriver, plain HTTP from node: the few
// commands the smoke set needs need no client library. WebKitGTK needs an X
// display even when driven: xvfb-run gives the driver a private one (`-a`:
// a free display number). WebKitGTK's driver offers no WebDriver BiDi and
// no console log, so errors are trapped in the page (driver.ts).

import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../ports";
import { callSource, installErrorTrap, MINIBROWSER, poll, takeTrappedErrors, type Driver, type InPage } from "./driver";
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

/** WebDriver's codes for the keys the smoke set presses (the spec's "keys" table). */
const KEYS: Record<string, string> = {
  Enter: "\uE007",
  Escape: "\uE00C",
  PageUp: "\uE00E",
  PageDown: "\uE00F",
  ArrowLeft: "\uE012",
  ArrowUp: "\uE013",
  ArrowRight: "\uE014",
  ArrowDown: "\uE015",
  Tab: "\uE004",
};

export async function openWebKit(): Promise<Driver> {
  const port = await freePort();
  // Its own process group: close() ends xvfb-run, Xvfb, the driver and the browser together.
  const driver: ChildProcess = spawn("xvfb-run", ["-a", "-s", "-screen 0 1280x1024x24 -nolisten tcp", "/usr/bin/WebKitWebDriver", `--port=${port}`], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  driver.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { value: T & { error?: string; message?: string } };
    if (!response.ok) throw new Error(`WebKitWebDriver ${method} ${path}: ${json.value.error}: ${json.value.message}`);
    return json.value;
  };
  const stop = (): void => {
    try {
      if (driver.pid) process.kill(-driver.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  // A test process that ends without close() leaves no display or browser behind.
  process.once("exit", stop);
  let session: string;
  let version: string;
  try {
    await poll(
      () =>
        fetch(`${base}/status`).then(
          (r) => r.ok,
          () => driver.exitCode !== null && Promise.reject(new Error(`WebKitWebDriver ended: ${stderr}`)),
        ),
      20_000,
      "WebKitWebDriver to listen",
    );
    const created = await call<{ sessionId: string; capabilities: { browserVersion: string } }>("POST", "/session", {
      capabilities: { alwaysMatch: { "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] } } },
    });
    session = created.sessionId;
    await call("POST", `/session/${session}/window/rect`, { width: 1280, height: 900 });
    version = created.capabilities.browserVersion;
  } catch (error) {
    stop();
    throw error;
  }
  const at = `/session/${session}`;
  const run = async <A, R>(fn: InPage<A, R>, arg: A): Promise<R> => {
    // Async: the page's function may return a promise; its rejection comes back as an error.
    const script =
      "const done = arguments[arguments.length - 1];" +
      `Promise.resolve().then(() => ${callSource(fn, arg)}).then((value) => done({ value }), (error) => done({ error: String(error && error.stack || error) }));`;
    const answer = await call<{ value?: R; error?: string }>("POST", `${at}/execute/async`, { script, args: [] });
    if (answer.error !== undefined) throw new Error(`in the page: ${answer.error}`);
    return answer.value as R;
  };
  const errors: string[] = [];
  const collect = async (): Promise<void> => {
    errors.push(...(await run(takeTrappedErrors, undefined).catch(() => [] as string[])));
  };
  return {
    engine: "webkit",
    version,
    async goto(url) {
      await collect();
      await call("POST", `${at}/url`, { url });
      await run(installErrorTrap, undefined);
    },
    async reload() {
      await collect();
      await call("POST", `${at}/refresh`, {});
      await run(installErrorTrap, undefined);
    },
    evaluate: run,
    waitFor: (fn, arg, timeoutMs = 60_000) => poll(() => run(fn, arg), timeoutMs, `${fn.name || "a condition"} in WebKit`),
    async click(selector) {
      const element = await call<Record<string, string>>("POST", `${at}/element`, { using: "css selector", value: selector });
      await call("POST", `${at}/element/${element[ELEMENT]}/click`, {});
    },
    async press(key) {
      const value = KEYS[key] ?? key;
      await call("POST", `${at}/actions`, {
        actions: [{ type: "key", id: "keyboard", actions: [{ type: "keyDown", value }, { type: "keyUp", value }] }],
      });
    },
    text: (selector) => run((s) => document.querySelector(s)?.textContent ?? "", selector),
    async takeErrors() {
      await collect();
      return errors.splice(0);
    },
    async close() {
      await call("DELETE", at).catch(() => undefined);
      stop();
      process.off("exit", stop);
    },
  };
}
