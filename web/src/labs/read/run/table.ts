// The single run's results table (owns <div id="table">): every number
// behind the charts, one row per reader, and the correctness check (every
// reader must deliver the stream's exact bytes, so every digest must equal
// the source's).

import type { Codec } from "../../../engine/codec";
import type { Params, Report, Run } from "../../../engine/types.gen";
import { bytesLabel, bytesRangeLabel, formatCount, formatNs, formatNsRange, untimedText, plural } from "../../../shared/format";
import { h, replaceChildren } from "../../../shared/dom";
import { METRIC } from "../../../shared/metrics";
import { metricCell, metricHead, type Cell, type ColumnHead } from "../../../shared/table-kit";

interface Column extends ColumnHead {
  /** `timing`: whether times not yet in are still coming. */
  cell(run: Run, codec: Codec, timing: boolean): Cell;
}

const M = METRIC;

const COLUMNS: Column[] = [
  { ...metricHead(M.source_reads), cell: (r) => ({ text: formatCount(M.source_reads.value(r)), value: M.source_reads.value(r) }) },
  { ...metricHead(M.app_reads), cell: (r) => ({ text: formatCount(M.app_reads.value(r)), value: M.app_reads.value(r) }) },
  {
    ...metricHead(M.polls),
    cell: (r) => {
      const polls = M.polls.value(r);
      return polls !== undefined ? { text: formatCount(polls), value: polls, detail: `${formatCount(r.pendings ?? 0)} Pending` } : { text: "–" };
    },
  },
  { ...metricHead(M.bytes), cell: (r) => ({ text: formatCount(M.bytes.value(r)), value: M.bytes.value(r) }) },
  { ...metricHead(M.bytes_copied), cell: (r) => ({ text: formatCount(M.bytes_copied.value(r)), value: M.bytes_copied.value(r) }) },
  {
    ...metricHead(M.allocations),
    cell: (r, codec) => ({
      text: formatCount(M.allocations.value(r)),
      value: M.allocations.value(r),
      detail: r.alloc_bytes > 0 ? exactBytes(r.alloc_bytes, codec) : undefined,
    }),
  },
  { ...metricHead(M.peak_bytes), cell: (r, codec) => ({ text: exactBytes(M.peak_bytes.value(r), codec), value: M.peak_bytes.value(r) }) },
  {
    ...metricHead(M.pool_blocks),
    cell: (r) =>
      r.blocks
        ? { text: `${formatCount(r.blocks.allocated)} new`, value: M.pool_blocks.value(r), detail: `${formatCount(r.blocks.reused)} reused` }
        : { text: "–" },
  },
  {
    ...metricHead(M.cpu_median_ns),
    cell: (r, _codec, timing) =>
      r.cpu_ns.samples === 0
        ? { text: untimedText(timing) }
        : {
            text: `${formatNs(M.cpu_median_ns.value(r))} ± ${formatNs(r.cpu_ns.mad)}`,
            value: M.cpu_median_ns.value(r),
            detail:
              formatNsRange(r.cpu_ns.min, r.cpu_ns.max) +
              (r.cpu_ns.outliers > 0 ? ` · ${plural(r.cpu_ns.outliers, "outlier")}` : ""),
          },
  },
  { ...metricHead(M.modelled_io_ns), cell: (r) => ({ text: formatNs(M.modelled_io_ns.value(r)), value: M.modelled_io_ns.value(r) }) },
  {
    ...metricHead(M.modelled_total_ns),
    cell: (r, _codec, timing) => {
      if (r.cpu_ns.samples === 0) return { text: untimedText(timing) };
      const total = M.modelled_total_ns.value(r);
      return { text: formatNs(total), value: total };
    },
  },
  { ...metricHead(M.digest), cell: (r) => ({ text: M.digest.value(r) }) },
];

/** An exact byte count: "8 KiB" when a binary unit divides it, else "131,584 B". */
function exactBytes(n: number, codec: Codec): string {
  const size = codec.formatSize(n);
  return /^\d+$/.test(size) ? `${formatCount(n)} B` : bytesLabel(size);
}

/** A short description of an experiment, for the table's caption. */
export function describeParams(params: Params, codec: Codec): string {
  const bytes = (n: number): string => bytesLabel(codec.formatSize(n));
  const size = codec.formatSize;
  const chunk = params.chunk;
  let chunking: string;
  switch (chunk.kind) {
    case "uniform": {
      const preset = codec.schema.presets.find((p) => p.min === chunk.min && p.max === chunk.max);
      chunking = `${preset ? `${preset.id} network, ` : ""}chunks of ${bytesRangeLabel(size(chunk.min), size(chunk.max))}`;
      break;
    }
    case "fixed":
      chunking = `chunks of ${bytes(chunk.size)}`;
      break;
    case "file":
      chunking = "file-like source";
      break;
    case "pipe":
      chunking = "pipe-like source";
      break;
  }
  const parts = [params.streams > 1 ? `${formatCount(params.streams)} streams of ${bytes(params.len)} read round-robin` : `${bytes(params.len)} stream`, chunking];
  const workload = codec.schema.workloads.find((w) => w.id === params.workload);
  const uses = (key: string): boolean => codec.uses(params, key);
  if (params.workload !== "fixed" && workload) parts.splice(1, 0, workload.label);
  if (uses("rs")) parts.push(`reads of ${bytes(params.rs)}`);
  if (uses("line")) parts.push(`lines of ${bytesRangeLabel(size(params.line.min), size(params.line.max))}`);
  if (uses("frame")) parts.push(`payloads of ${bytesRangeLabel(size(params.frame.min), size(params.frame.max))}${params.reuse ? " into one reused buffer" : ""}`);
  if (uses("nul")) parts.push(params.nul < params.len ? `NUL at byte ${formatCount(params.nul)}` : "no NUL");
  parts.push(`${bytes(params.cap)} buffer`);
  if (uses("pool")) parts.push(`block pool ${params.pool ? "on" : "off"}`);
  if (uses("pend") && params.pend > 0) parts.push(`not ready before ${params.pend}% of source reads`);
  return parts.join(", ");
}

export interface ResultsTable {
  update(report: Report, labelOf: (readerId: string) => string, timing: boolean): void;
}

export function createTable(container: HTMLElement, codec: Codec): ResultsTable {
  const caption = h("caption", {});
  // Explicit roles: on phones CSS shows each row as a card, and a table whose
  // display is changed loses its implicit semantics in some browsers.
  const head = h(
    "tr",
    { role: "row" },
    h("th", { scope: "col", role: "columnheader" }, "Reader"),
    ...COLUMNS.map((c) =>
      h("th", { scope: "col", role: "columnheader", title: c.about, class: c.numeric ? "num" : undefined }, c.heading),
    ),
  );
  const body = h("tbody", { role: "rowgroup" });
  const table = h("table", { class: "results", role: "table" }, caption, h("thead", { role: "rowgroup" }, head), body);
  // The scroll box gets focus so keyboard users can scroll a wide table.
  const scroller = h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Results table" }, table);
  const check = h("p", { class: "check-line", role: "status" });
  // Where a reader's algorithm differs from std's for this workload: its own sentence.
  const differences = h("ul", { class: "reader-differences" });
  replaceChildren(container, scroller, check, differences);

  return {
    update(report, labelOf, timing) {
      replaceChildren(caption, `Per reader, for ${report.params.streams > 1 ? "" : "a "}${describeParams(report.params, codec)}.`);
      const rows = report.runs.map((run) =>
        h(
          "tr",
          { "data-reader": run.reader, role: "row" },
          h("th", { scope: "row", role: "rowheader" }, labelOf(run.reader)),
          ...COLUMNS.map((c) => metricCell(c, c.cell(run, codec, timing), "digest")),
        ),
      );
      replaceChildren(body, ...rows);

      const shown = codec.schema.differences.filter(
        (d) => d.workload === report.params.workload && report.runs.some((r) => r.reader === d.reader),
      );
      replaceChildren(
        differences,
        ...shown.map((d) => h("li", { "data-reader": d.reader }, h("strong", {}, `${labelOf(d.reader)}: `), d.text)),
      );
      differences.hidden = shown.length === 0;

      const agree = report.runs.every((r) => r.digest === report.source_digest);
      check.classList.toggle("ok", agree);
      check.classList.toggle("bad", !agree);
      if (agree) {
        replaceChildren(
          check,
          h("span", { class: "mark", "aria-hidden": "true" }, "✓"),
          ` Correct: ${report.runs.length === 1 ? "the reader" : `all ${report.runs.length} readers`} delivered exactly the stream's bytes (digest `,
          h("code", {}, report.source_digest),
          ").",
        );
      } else {
        const wrong = report.runs.filter((r) => r.digest !== report.source_digest).map((r) => labelOf(r.reader));
        replaceChildren(
          check,
          h("span", { class: "mark", "aria-hidden": "true" }, "✗"),
          ` Digests differ: ${wrong.join(", ")} did not deliver the stream's bytes (expected digest `,
          h("code", {}, report.source_digest),
          "). This is a bug in the engine.",
        );
      }
    },
  };
}
