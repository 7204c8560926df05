// For the page's wiring tests (render, status, notices, the toolbar…), run
// in happy-dom (`// @vitest-environment happy-dom` at the top of the test
// file): the page's own markup, web/index.html's body, in the test's
// document, so each module is handed the elements the page hands it.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { byId } from "../shared/dom";

const here = dirname(fileURLToPath(import.meta.url));
const indexHtml = readFileSync(join(here, "../../index.html"), "utf8");
/** The page's own stylesheets (web/src/style.css and what it imports). */
const styles = [join(here, "../style.css"), ...readdirSync(join(here, "../styles")).map((name) => join(here, "../styles", name))]
  .map((path) => readFileSync(path, "utf8"))
  .join("\n");
/** The page's <body> and what it holds; <head> (styles, the script) is left out. */
const body = /<body[^>]*>[\s\S]*<\/body>/.exec(indexHtml)![0];

/** Puts a fresh copy of index.html's body in the document. */
export function loadPageMarkup(): void {
  const parsed = new DOMParser().parseFromString(`<!doctype html><html><head></head>${body}</html>`, "text/html");
  document.body.replaceWith(document.adoptNode(parsed.body));
}

export { byId };

/**
 * `run`'s result, with the engine timing on Node's clock: the engine takes
 * this scope's `performance` only if it is a `Performance`, and happy-dom's
 * `Performance` class is not that of Node's clock.
 */
export function onNodeClock<T>(run: () => T): T {
  const Performance = globalThis.Performance;
  globalThis.Performance = performance.constructor as typeof Performance;
  try {
    return run();
  } finally {
    globalThis.Performance = Performance;
  }
}

/**
 * The selectors of `selectors` that the page's stylesheets do not write, or
 * that find no element under `root`: the parts a module draws that the
 * styles select must carry what the styles select them by.
 */
export function unstyled(root: ParentNode, selectors: readonly string[]): string[] {
  return selectors.filter((selector) => !styles.includes(selector) || root.querySelector(selector) === null);
}

/** The buttons under `root` that would submit a form they sat in (every button the page draws is `type="button"`). */
export function submitting(root: ParentNode): HTMLButtonElement[] {
  return [...root.querySelectorAll("button")].filter((b) => b.getAttribute("type") !== "button");
}

/** A key pressed on `target`, as a browser sends it (bubbling, cancelable); the event, to ask whether a handler took it. */
export function press(target: EventTarget, key: string, more: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...more });
  target.dispatchEvent(event);
  return event;
}

/** A promise and its two ends: a worker's answer the test gives when it chooses. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
}

/** Lets promises and dynamic imports settle. */
export const settle = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 0));
