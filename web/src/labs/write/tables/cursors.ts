// The cursors' results (owns its box): every number behind the cursor
// charts, whether each cursor wrote exactly the reference bytes, and what
// to change when fixed buffers were too small.

import type { Codec } from "../../../engine/codec";
import { isTimed } from "../../../engine/report";
import type { FlavourRun, WriteReport } from "../../../engine/types.gen";
import { h, replaceChildren, setText } from "../../../shared/dom";
import { bytesLabel, formatCount, formatNs, formatNsRange, untimedText } from "../../../shared/format";
import { METRIC as M } from "../../../shared/metrics";
import { metricHead, table } from "../../../shared/table-kit";
import { writeZeroMessage } from "./words";

export interface TablePiece {
  readonly element: HTMLElement;
  /** `timing`: whether times not yet in are still coming. */
  update(report: WriteReport, timing: boolean): void;
}

/** Whether every cursor that finished wrote the reference bytes, in words with a mark. */
function showCheck(check: HTMLElement, report: WriteReport, labelOf: (id: string) => string): void {
  const finished = report.flavours.filter((f) => !f.error);
  const wrong = finished.filter((f) => f.digest !== report.reference_digest);
  check.classList.toggle("ok", wrong.length === 0);
  check.classList.toggle("bad", wrong.length > 0);
  if (finished.length === 0) return replaceChildren(check, "No cursor finished, so there are no bytes to compare.");
  if (wrong.length === 0) {
    const who = finished.length === 1 ? "the cursor that finished" : `all ${finished.length} cursors that finished`;
    return replaceChildren(
      check,
      h("span", { class: "mark", "aria-hidden": "true" }, "✓"),
      ` Identical: ${who} wrote the same ${formatCount(report.reference_bytes)} bytes as the records encoded by hand (digest `,
      h("code", {}, report.reference_digest),
      ").",
    );
  }
  replaceChildren(
    check,
    h("span", { class: "mark", "aria-hidden": "true" }, "✗"),
    ` Bytes differ: ${wrong.map((f) => labelOf(f.flavour)).join(", ")} wrote other bytes than the reference (digest `,
    h("code", {}, report.reference_digest),
    "). This is a bug in the engine.",
  );
}

export function createCursorTable(codec: Codec, labelOf: (id: string) => string): TablePiece {
  let timing = true;
  let reference = "";
  const size = (n: number): string => bytesLabel(codec.formatSize(n));
  const results = table<FlavourRun>({
    rowHeading: "Cursor",
    rowAttr: "data-flavour",
    rowKey: (r) => r.flavour,
    rowLabel: (r) => h("code", {}, labelOf(r.flavour)),
    label: "Cursor results",
    columns: [
      {
        ...metricHead(M.cpu_median_ns),
        cell: (r) =>
          isTimed(r.cpu_ns)
            ? { text: formatNs(r.cpu_ns.median), value: r.cpu_ns.median, detail: formatNsRange(r.cpu_ns.min, r.cpu_ns.max) }
            : { text: r.error ? "–" : untimedText(timing), value: "" },
      },
      { ...metricHead(M.bytes), cell: (r) => ({ text: formatCount(M.bytes.value(r)), value: M.bytes.value(r) }) },
      {
        ...metricHead(M.allocations),
        cell: (r) => ({ text: formatCount(M.allocations.value(r)), value: M.allocations.value(r), detail: r.alloc_bytes > 0 ? size(r.alloc_bytes) : undefined }),
      },
      { ...metricHead(M.reallocs), cell: (r) => ({ text: formatCount(M.reallocs.value(r)), value: M.reallocs.value(r) }) },
      {
        metric: "check",
        heading: "Result",
        about: "Whether the cursor wrote exactly the reference bytes (the records encoded by hand).",
        numeric: false,
        cell: (r) => {
          if (r.error) return { text: r.error.kind, value: "error", detail: `after ${formatCount(r.error.bytes_written)} B` };
          return r.digest === reference ? { text: "identical", value: "identical" } : { text: "DIFFERENT", value: "different" };
        },
      },
    ],
  });
  const check = h("p", { class: "write-check", role: "status" });
  const failure = h("p", { class: "write-zero", role: "alert" });
  failure.hidden = true;
  return {
    element: h("div", { class: "flavour-results" }, results.element, check, failure),
    update(report, timingNow) {
      timing = timingNow;
      reference = report.reference_digest;
      const w = report.params.write;
      const caption = `Per cursor: ${formatCount(w.records)} records (${size(report.reference_bytes)}); growable cursors start at ${size(w.init_cap)}, fixed buffers hold ${size(w.buf)}.`;
      results.update(report.flavours, caption);
      showCheck(check, report, labelOf);
      const message = writeZeroMessage(report, codec, labelOf);
      failure.hidden = message === "";
      setText(failure, message);
    },
  };
}
