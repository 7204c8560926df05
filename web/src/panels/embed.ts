// Embedding: the `embed` link key shows only the charts it names, with the
// headline and an "Open in BufLab" link, for a slide or a blog post's
// <iframe>. Two small pieces, each owning its element: the bar an embedded
// page shows above its charts, and "Copy embed code" among the exports. What
// is hidden in an embed is the stylesheet's job (styles/embed.css, keyed on
// <body data-embed="reads time">).

import { messageOf } from "../engine/errors";
import type { Embed, Params, View } from "../engine/types.gen";
import { copyText } from "../shared/clipboard";
import { h, replaceChildren, setText } from "../shared/dom";

/** The frame size the copied code asks for: a 16:9 slide's half, a blog column. */
export const EMBED_FRAME = { width: 640, height: 360 } as const;

/** The charts an embed of what is on screen shows. */
export function embedFor(params: Params, view: View): Embed[] {
  if (params.lab === "write") return ["write"];
  if (view === "sweep" && params.sweep) return ["sweep"];
  return ["reads", "time"];
}

/** Escapes text for an HTML attribute value in quotes. */
export function attribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The <iframe> that embeds `url` (a full link carrying `embed`). */
export function embedCode(url: string, title: string): string {
  const { width, height } = EMBED_FRAME;
  return `<iframe src="${attribute(url)}" width="${width}" height="${height}" style="border:0;max-width:100%" loading="lazy" title="${attribute(title)}"></iframe>`;
}

export interface EmbedBar {
  update(params: Params): void;
}

/**
 * The bar of an embedded page: "Open in BufLab" (the same settings on the
 * full page, in a new tab) and, without cross-origin isolation (an iframe
 * in a page that is not isolated), that times are coarse. `fullPageUrl` is
 * null while links cannot be written yet (engine/codec.ts: `ready`); the
 * page updates the bar again once they can.
 */
export function createEmbedBar(element: HTMLElement, fullPageUrl: (params: Params) => string | null, isolated: () => boolean): EmbedBar {
  const open = h("a", { class: "embed-open", target: "_blank", rel: "noopener" }, "Open in BufLab ↗");
  const note = h("span", { class: "embed-note" });
  replaceChildren(element, open, note);
  return {
    update(params) {
      element.hidden = params.embed.length === 0;
      if (element.hidden) return;
      const url = fullPageUrl(params);
      if (url === null) open.removeAttribute("href");
      else open.href = url;
      setText(note, isolated() ? "" : "Counts exact; times rough (coarse timer in an embed).");
    },
  };
}

export interface EmbedCode {
  update(params: Params, view: View): void;
}

/** "Copy embed code": the <iframe> for the charts on screen, with these settings. */
export function createEmbedCode(element: HTMLElement, embedUrl: (params: Params) => string): EmbedCode {
  const status = h("span", { class: "copy-note", id: "embed-status", role: "status", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "small", id: "embed-copy" }, "Copy embed code");
  const code = h("textarea", { id: "embed-code", class: "embed-code", readonly: true, rows: 3, hidden: true, "aria-label": "Embed code" });
  replaceChildren(element, h("div", { class: "share-row" }, h("span", { class: "share-label" }, "Embed"), button, status), code);
  /** What is on screen; the code is written when asked for (links come with the program build). */
  let wanted: { params: Params; embed: Embed[] } | null = null;
  const text = (): string => (wanted ? embedCode(embedUrl({ ...wanted.params, embed: wanted.embed }), `BufLab: ${wanted.embed.join(", ")}`) : "");
  button.addEventListener("click", () => {
    let written: string;
    try {
      written = text();
    } catch (error) {
      setText(status, messageOf(error));
      return;
    }
    code.value = written;
    copyText(
      written,
      () => setText(status, "Copied: paste it into a slide or a page."),
      () => {
        code.hidden = false;
        code.select();
        setText(status, "Selected: press Ctrl+C (⌘C) to copy.");
      },
    );
  });
  return {
    update(params, view) {
      wanted = { params, embed: embedFor(params, view) };
      button.dataset["embed"] = wanted.embed.join(",");
      // Shown only after a click wrote it, so the engine can write links.
      if (!code.hidden) code.value = text();
    },
  };
}
