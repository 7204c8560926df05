// When the last write fails (owns its box): who reports the error of a
// sink that refuses the stream's last byte, for each way a BufWriter ends,
// and what a drop without a flush loses.

import type { Codec } from "../../../engine/codec";
import type { FinalFlush } from "../../../engine/types.gen";
import { h, setText } from "../../../shared/dom";
import { formatCount } from "../../../shared/format";
import { table } from "../../../shared/table-kit";
import type { TablePiece } from "./cursors";

export function createFinalFlush(codec: Codec): TablePiece {
  const label = new Map(codec.schema.endings.map((m) => [m.id, m.label]));
  const about = new Map(codec.schema.endings.map((m) => [m.id, m.about]));
  const results = table<FinalFlush>({
    rowHeading: "How it ends",
    rowAttr: "data-ending",
    rowKey: (f) => f.ending,
    rowLabel: (f) => h("span", { title: about.get(f.ending) ?? "" }, label.get(f.ending) ?? f.ending),
    label: "Final flush results",
    columns: [
      {
        metric: "reported_by",
        heading: "Error reported by",
        about: "The call that handed the error to the application.",
        numeric: false,
        cell: (f) => (f.reported_by ? { text: h("code", {}, `${f.reported_by}()`), value: f.reported_by } : { text: h("strong", { class: "lost" }, "nobody: lost"), value: "lost" }),
      },
      { metric: "bytes_at_sink", heading: "Bytes at sink", about: "Bytes the sink accepted.", numeric: true, cell: (f) => ({ text: formatCount(f.bytes_at_sink), value: f.bytes_at_sink }) },
      {
        metric: "bytes_lost",
        heading: "Bytes lost",
        about: "Bytes the application wrote that never reached the sink.",
        numeric: true,
        cell: (f) => ({ text: formatCount(f.bytes_lost), value: f.bytes_lost }),
      },
    ],
  });
  const note = h("p", { class: "field-note" });
  return {
    element: h("div", { class: "final-flush" }, results.element, note),
    update(report) {
      results.update(report.final_flush, "A sink that refuses the write holding the stream's last byte, as a full disk might:");
      const dropped = report.final_flush.find((f) => f.ending === "dropped");
      setText(
        note,
        dropped && dropped.reported_by === null
          ? `Dropped without a flush, the BufWriter's Drop tries to write its last ${formatCount(dropped.bytes_lost)} bytes, gets the error and can only ignore it: the application never learns. Call flush() or into_inner() and the error comes back.`
          : "Here the last write_all was at least as large as the buffer, so it went straight to the sink and returned the error itself.",
      );
    },
  };
}
