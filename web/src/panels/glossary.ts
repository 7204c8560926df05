// The Glossary: what the page's words mean (source read, app read, copy,
// chunking, knee, Pending and polls, digest, measured and modelled, …), each
// entry from the engine's catalog (crate/src/catalog/glossary.rs, as
// generated data); nothing here defines a term.
//
// It owns the element it is given: a button that opens the glossary as a
// popover (so it lies over the page, full width on a phone). Terms in the
// page's running text link to their entry: `termNodes` turns a sentence into
// text and term buttons (`button.term[data-term]`); the page's one listener
// (app/listeners.ts) opens the entry of any such button, wherever it sits (the
// headline, the lesson card, a chart's title), loading the glossary first
// if it has not arrived. A term button is a real button, so the keyboard
// reaches it and Enter opens its entry.

import glossaryData from "../engine/glossary.gen.json";
import type { Term, TermId } from "../engine/types.gen";
import { h, replaceChildren } from "../shared/dom";
import { termButton } from "../shared/term";

export const TERMS = glossaryData as Term[];

export interface Glossary {
  /** Opens the glossary on one entry, moving focus to it. */
  open(id: TermId): void;
  /** Shows `text` in `element` with its terms linked here (`fillWithTerms`). */
  fill(element: HTMLElement, text: string): void;
}

/** Where a phrase of a term occurs in `text`: whole words, any case. */
interface Found {
  term: Term;
  index: number;
  length: number;
}

const escape = (phrase: string): string => phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Each term's phrases as one pattern, longest first ("source reads" before "source read"). */
const PATTERNS = new Map(
  TERMS.map((t) => {
    const phrases = [...t.phrases].sort((a, b) => b.length - a.length).map(escape);
    return [t.id, new RegExp(`(?<![\\w-])(?:${phrases.join("|")})(?![\\w-])`, "i")];
  }),
);

/**
 * `text` as text nodes and term buttons: the first mention of each term
 * links to its entry (later mentions stay text, so a sentence is not a row
 * of links). `linked`: terms already linked nearby (earlier points of the
 * same card), left as text; the terms linked here are added to it.
 */
export function termNodes(text: string, linked: Set<TermId> = new Set()): (string | HTMLElement)[] {
  const found: Found[] = [];
  for (const term of TERMS) {
    if (linked.has(term.id)) continue;
    const match = PATTERNS.get(term.id)!.exec(text);
    if (match) found.push({ term, index: match.index, length: match[0].length });
  }
  // Earliest first; an occurrence inside an earlier one ("copied" in "bytes copied") is dropped.
  found.sort((a, b) => a.index - b.index || b.length - a.length);
  const nodes: (string | HTMLElement)[] = [];
  let at = 0;
  for (const f of found) {
    if (f.index < at) continue;
    if (f.index > at) nodes.push(text.slice(at, f.index));
    nodes.push(termButton(f.term.id, text.slice(f.index, f.index + f.length)));
    linked.add(f.term.id);
    at = f.index + f.length;
  }
  if (at < text.length) nodes.push(text.slice(at));
  return nodes;
}

/** Replaces `element`'s content with `text`, its terms linked to the glossary (as `termNodes`). */
export function fillWithTerms(element: HTMLElement, text: string, linked: Set<TermId> = new Set()): void {
  if (element.dataset["termsOf"] === text) return;
  replaceChildren(element, ...termNodes(text, linked));
  element.dataset["termsOf"] = text;
}

export function createGlossary(container: HTMLElement): Glossary {
  const button = h("button", { type: "button", class: "small", id: "glossary-button", popovertarget: "glossary-panel" }, "Glossary");
  const close = h("button", { type: "button", class: "small", popovertarget: "glossary-panel", popovertargetaction: "hide" }, "Close");
  const entries = new Map<TermId, HTMLElement>();
  const list = h(
    "dl",
    { class: "glossary-list" },
    ...TERMS.flatMap((term) => {
      const dt = h("dt", { id: `glossary-${term.id}`, tabindex: -1 }, term.term);
      entries.set(term.id, dt);
      return [dt, h("dd", { "data-term-definition": term.id }, term.definition)];
    }),
  );
  const panel = h(
    "div",
    { id: "glossary-panel", class: "popover glossary-panel", popover: "auto", role: "dialog", "aria-labelledby": "glossary-title" },
    h("div", { class: "popover-head" }, h("h2", { id: "glossary-title" }, "Glossary"), close),
    h("p", { class: "field-note" }, "What the page's words mean. A dotted word on the page opens its entry here."),
    list,
  );
  replaceChildren(container, button, panel);

  const open = (id: TermId): void => {
    const entry = entries.get(id);
    if (!entry) return;
    if (!panel.matches(":popover-open")) panel.showPopover();
    for (const [other, dt] of entries) dt.classList.toggle("current", other === id);
    entry.scrollIntoView({ block: "start" });
    entry.focus({ preventScroll: true });
  };
  return { open, fill: fillWithTerms };
}
