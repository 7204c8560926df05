// What a buffer would have made of the chosen descriptor's reads (owns its
// element): what its reads show about the source, the replay's sentence,
// each reader's source reads, the capacity sweep's knees, and the nearest
// BufLab link with how near it comes. Every sentence is the engine's.

import type { Descriptor, ReaderKind, Replay } from "../../engine/types.gen";
import { h, replaceChildren } from "../../shared/dom";
import { formatBinaryBytes, formatCount } from "../../shared/format";
import { METRIC } from "../../shared/metrics";

export interface ReplayOptions {
  labelOf(reader: ReaderKind): string;
  /** The page's address of a link fragment. */
  urlOf(fragment: string): string;
}

export interface ReplayPiece {
  draw(descriptor: Descriptor | null, replay: Replay | null, waiting: boolean): void;
}

export function createReplay(element: HTMLElement, { labelOf, urlOf }: ReplayOptions): ReplayPiece {
  let drawn: unknown[] = [];
  return {
    draw(descriptor, replay, waiting) {
      if (drawn[0] === descriptor && drawn[1] === replay && drawn[2] === waiting) return;
      drawn = [descriptor, replay, waiting];
      if (descriptor === null) {
        replaceChildren(element);
        return;
      }
      const head = [h("h4", {}, descriptor.label), h("p", { class: "trace-about" }, descriptor.about)];
      if (replay === null) {
        replaceChildren(element, ...head, waiting ? h("p", { class: "field-note" }, "Replaying its reads through BufLab's readers…") : null);
        return;
      }
      const rows = replay.runs.map((r) =>
        h(
          "tr",
          { "data-reader": r.reader, "data-cap": r.cap ?? "" },
          h("th", { scope: "row" }, labelOf(r.reader)),
          h("td", { class: "num" }, r.cap == null ? "–" : formatBinaryBytes(r.cap)),
          h("td", { class: "num source-reads" }, formatCount(r.source_reads)),
          h("td", { class: "num" }, formatCount(r.app_reads)),
          h("td", { class: "num" }, formatCount(r.bytes_copied)),
        ),
      );
      const knees = (replay.sweep?.series ?? []).map((s) =>
        h(
          "li",
          {},
          `${labelOf(s.reader)}: ${s.knee == null ? "no knee in the sweep" : `source reads stop falling much past ${formatBinaryBytes(s.knee)}`} ` +
            `(${formatCount(Math.min(...s.source_reads))}–${formatCount(Math.max(...s.source_reads))} source reads from ${formatBinaryBytes(replay.sweep!.caps[0]!)} to ${formatBinaryBytes(replay.sweep!.caps.at(-1)!)}).`,
        ),
      );
      const fit = replay.fit;
      replaceChildren(
        element,
        ...head,
        h("p", { class: "headline trace-headline", id: "trace-headline" }, replay.headline),
        h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "results trace-replay", id: "trace-replay" },
            h("caption", {}, "The program's own requests, replayed"),
            h("thead", {}, h("tr", {}, ...["Reader", "Capacity", METRIC.source_reads.label, METRIC.app_reads.label, METRIC.bytes_copied.label].map((c) => h("th", { scope: "col" }, c)))),
            h("tbody", {}, ...rows),
          ),
        ),
        knees.length > 0 ? h("ul", { class: "trace-knees" }, ...knees) : null,
        fit ? h("p", { class: "trace-fit" }, fit.about, " ", h("a", { href: urlOf(fit.link), id: "trace-fit-link" }, "Open the nearest experiment")) : null,
      );
    },
  };
}
