// For the page's wiring tests (render, status, notices, the toolbar…), run
// in happy-dom (`// @vitest-environment happy-dom` at the top of the test
// file): the page's own markup, web/index.html's body, in the test's
// document, so each module is handed the elements the page hands it.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { byId } from "../shared/dom";

const indexHtml = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../../index.html"), "utf8");
/** The page's <body> and what it holds; <head> (styles, the script) is left out. */
const body = /<body[^>]*>[\s\S]*<\/body>/.exec(indexHtml)![0];

/** Puts a fresh copy of index.html's body in the document. */
export function loadPageMarkup(): void {
  const parsed = new DOMParser().parseFromString(`<!doctype html><html><head></head>${body}</html>`, "text/html");
  document.body.replaceWith(document.adoptNode(parsed.body));
}

export { byId };
