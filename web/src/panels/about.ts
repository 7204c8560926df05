// The About panel: what BufLab is, what it measures and what it models, and
// the four articles its experiments come from, credited by title, author
// and link as far as our copies of them say (articles.ts). It owns the
// element it is given: a button that opens the panel as a popover, so the
// panel lies over the page and never lengthens it.

import { h, replaceChildren } from "../shared/dom";
import { ARTICLES, type Article } from "./articles";

function credit(article: Article): HTMLElement {
  const title = article.titled ? h("cite", {}, article.title) : h("span", {}, article.title);
  const facts = [article.author ? `by ${article.author}` : null, article.where ? `on ${article.where}` : null, article.date].filter(
    (x): x is string => x !== null,
  );
  return h(
    "li",
    { "data-article": article.id },
    h("p", { class: "credit-title" }, title, facts.length ? ` — ${facts.join(", ")}` : ""),
    h(
      "p",
      { class: "credit-known" },
      article.known,
      ...(article.link ? [" Link: ", h("a", { href: article.link.href, rel: "noreferrer" }, article.link.text), "."] : []),
    ),
    h("p", { class: "credit-used" }, h("strong", {}, "In BufLab: "), article.used),
  );
}

export function createAbout(container: HTMLElement): void {
  const button = h("button", { type: "button", class: "small", id: "about-button", popovertarget: "about-panel" }, "About");
  const close = h("button", { type: "button", class: "small", popovertarget: "about-panel", popovertargetaction: "hide" }, "Close");
  const panel = h(
    "div",
    { id: "about-panel", class: "popover about-panel", popover: "auto", role: "dialog", "aria-labelledby": "about-title" },
    h("div", { class: "popover-head" }, h("h2", { id: "about-title" }, "About BufLab"), close),
    h(
      "p",
      {},
      "BufLab runs real Rust readers and writers, compiled to WebAssembly, in a worker in this tab, against simulated streams cut into chunks the way files, pipes and networks cut them. Every setting is in the link, so a link reproduces a result, here or natively.",
    ),
    h("h3", {}, "Measured or modelled"),
    h(
      "p",
      {},
      "Counts (source reads, copies, allocations) are exact: the engine counts every call. Allocation bytes and peak heap are this tab's wasm32 figures (4-byte pointers; natively they come out slightly higher). CPU time is measured in this tab. I/O time is modelled: source reads (or sink writes) × the cost per call you set, because a simulated read costs nanoseconds where a real system call costs far more. The chunk models are assumptions about the other end: a file answers every read in full (over chunk=file the source reads are the read(2) calls of the program in the Rust code panel), a pipe is kept full by its writer, and the network models describe a reader that keeps up with its writer, one piece per read; a writer that runs ahead hands over more per read, which buflab real measures on a real file, pipe and socket.",
    ),
    h("h3", {}, "The articles"),
    h(
      "p",
      { class: "field-note" },
      "The experiments redo the ones in these four articles. Their facts and figures are used; their text is not copied.",
    ),
    h("ol", { class: "credits" }, ...ARTICLES.map(credit)),
  );
  replaceChildren(container, button, panel);
}
