// A word that opens its glossary entry: a real button (the keyboard reaches
// it), styled as dotted text (styles/base.css `.term`). The page's one
// listener (app/page.ts) opens the entry of any `[data-term]` it is
// clicked on; the entries are the catalog's (panels/glossary.ts).

import type { TermId } from "../engine/types.gen";
import { h } from "./dom";

export function termButton(id: TermId, words: string | Node): HTMLButtonElement {
  return h("button", { type: "button", class: "term", "data-term": id, "aria-haspopup": "dialog" }, words);
}
