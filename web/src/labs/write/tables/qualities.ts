// The write-cursor article's qualities per flavour (owns its box), each
// checked against the real type by the engine's tests, beside the article's
// published times and why today's measured order is not theirs.

import type { Codec } from "../../../engine/codec";
import type { FlavourInfo } from "../../../engine/types.gen";
import { h } from "../../../shared/dom";
import { table } from "../../../shared/table-kit";
import { seekableText } from "./words";

const yesNo = (b: boolean): string => (b ? "yes" : "no");

export function createQualities(codec: Codec): HTMLElement {
  const qualities = table<FlavourInfo>({
    rowHeading: "Cursor",
    rowAttr: "data-flavour",
    rowKey: (f) => f.id,
    rowLabel: (f) => h("code", { title: f.about }, f.label),
    label: "Cursor qualities",
    compact: true,
    columns: [
      { metric: "refcounted", heading: "Refcounted", about: "Several handles can share one allocation.", numeric: false, cell: (f) => ({ text: yesNo(f.refcounted), value: String(f.refcounted) }) },
      { metric: "growable", heading: "Growable", about: "Writing past the end grows the buffer instead of failing.", numeric: false, cell: (f) => ({ text: yesNo(f.growable), value: String(f.growable) }) },
      {
        metric: "seekable",
        heading: "Seekable",
        about: "Seekable / overwritable: earlier bytes can be reached again, with io::Seek, by index, or not at all.",
        numeric: false,
        cell: (f) => ({ text: seekableText(f.seekable), value: f.seekable }),
      },
      {
        metric: "seed_us",
        heading: "Article's time",
        about: "The write-cursor article's published time for 2048 records into 32 KiB (Criterion, the author's laptop).",
        numeric: true,
        cell: (f) => ({ text: `${f.seed_us} µs`, value: f.seed_us }),
      },
    ],
  });
  qualities.update(
    codec.schema.flavours,
    "The write-cursor article's qualities, each checked against the real type by the engine's tests; its published times, measured on another machine, for order only.",
  );
  return h("div", {}, qualities.element, h("p", { class: "field-note article-order" }, codec.schema.article_order));
}
