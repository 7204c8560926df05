// A word that opens its glossary entry: a real button (the keyboard reaches
// it), styled as dotted text (styles/base.css `.term`). The page's one
// listener (app/listeners.ts) opens the entry of any `[data-term]` it is
// clicked on; the entries are the catalog's (panels/glossary.ts). An
// embedded page has no controls and no glossary (`<body data-embed>`): there
// the word is plain text, and `plainTerms` turns the words drawn before the
// page knew it was embedded (the chart frames, made at boot) into text.

import type { TermId } from "../engine/types.gen";
import { h } from "./dom";

export function termButton(id: TermId, words: string | Node): HTMLElement {
  if (document.body.dataset["embed"] !== undefined) return h("span", {}, words);
  return h("button", { type: "button", class: "term", "data-term": id, "aria-haspopup": "dialog" }, words);
}

/** Every term button under `root` as plain text (an embedded page's). */
export function plainTerms(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLElement>("button.term")) button.replaceWith(h("span", {}, ...button.childNodes));
}
