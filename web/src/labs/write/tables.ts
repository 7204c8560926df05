// The write lab's tables: every number behind its charts, the write-cursor
// article's qualities per flavour, and the final-flush demonstration. They
// are the table kit's tables (table.results: cards on narrow screens, cells
// carrying data-metric and data-value for tests and scripts).

import { isTimed } from "../../engine/report";
import type { Codec } from "../../engine/codec";
import type { FinalFlush, FlavourInfo, FlavourRun, Seekable, SinkRun, WriteReport } from "../../engine/types.gen";
import { bytesLabel, formatCount, formatNs, formatNsRange, untimedText } from "../../shared/format";
import { h, replaceChildren, setText } from "../../shared/dom";
import { METRIC } from "../../shared/metrics";
import { metricHead, table } from "../../shared/table-kit";

const M = METRIC;

export function seekableText(seekable: Seekable): string {
  switch (seekable) {
    case "seek":
      return "io::Seek";
    case "by_index":
      return "by index";
    case "no":
      return "no";
  }
}

const yesNo = (b: boolean): string => (b ? "yes" : "no");

/** What a failed flavour's row and message say. */
export function describeFailure(run: FlavourRun): string {
  const e = run.error;
  if (!e) return "";
  return `${e.kind}: “${e.message}” after ${formatCount(e.bytes_written)} bytes`;
}

/**
 * The message under the cursor table when fixed buffers were too small: which
 * cursors stopped, why, and what to change. Empty when none failed.
 */
export function writeZeroMessage(report: WriteReport, codec: Codec, labelOf: (id: string) => string): string {
  const failed = report.flavours.filter((f) => f.error);
  if (failed.length === 0) return "";
  const names = failed.map((f) => labelOf(f.flavour)).join(", ");
  const first = failed[0]!;
  const buf = report.params.write.buf;
  const need = report.reference_bytes;
  const allWriteZero = failed.every((f) => f.error?.kind === "WriteZero");
  const size = (n: number): string => bytesLabel(codec.formatSize(n));
  const why = allWriteZero
    ? `the fixed buffer (${size(buf)}) is smaller than the ${size(need)} the records need, so a write found no room and write_all stopped with WriteZero (“${first.error?.message}”) after ${formatCount(first.bytes)} bytes`
    : describeFailure(first);
  return `${names} stopped: ${why}. These cursors cannot grow; set the buffer size to at least ${size(need)}, or write fewer records.`;
}

export interface WriteTables {
  readonly flavours: HTMLElement;
  readonly qualities: HTMLElement;
  readonly sink: HTMLElement;
  readonly finalFlush: HTMLElement;
  /** `timing`: whether times not yet in are still coming. */
  update(report: WriteReport, timing: boolean): void;
}

export function createWriteTables(codec: Codec): WriteTables {
  /** Whether times not yet in are still coming (set by each update, read by the time cells). */
  let timing = true;
  const infos = new Map<string, FlavourInfo>(codec.schema.flavours.map((f) => [f.id, f]));
  const labelOf = (id: string): string => infos.get(id)?.label ?? id;
  const modeLabel = new Map(codec.schema.write_modes.map((m) => [m.id, m.label]));
  const endingLabel = new Map(codec.schema.endings.map((m) => [m.id, m.label]));
  const endingAbout = new Map(codec.schema.endings.map((m) => [m.id, m.about]));
  const size = (n: number): string => bytesLabel(codec.formatSize(n));
  let reference = "";

  const flavourTable = table<FlavourRun>({
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
        cell: (r) => ({
          text: formatCount(M.allocations.value(r)),
          value: M.allocations.value(r),
          detail: r.alloc_bytes > 0 ? size(r.alloc_bytes) : undefined,
        }),
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
  const flavours = h("div", { class: "flavour-results" }, flavourTable.element, check, failure);

  const qualityTable = table<FlavourInfo>({
    rowHeading: "Cursor",
    rowAttr: "data-flavour",
    rowKey: (f) => f.id,
    rowLabel: (f) => h("code", { title: f.about }, f.label),
    label: "Cursor qualities",
    compact: true,
    columns: [
      {
        metric: "refcounted",
        heading: "Refcounted",
        about: "Several handles can share one allocation.",
        numeric: false,
        cell: (f) => ({ text: yesNo(f.refcounted), value: String(f.refcounted) }),
      },
      {
        metric: "growable",
        heading: "Growable",
        about: "Writing past the end grows the buffer instead of failing.",
        numeric: false,
        cell: (f) => ({ text: yesNo(f.growable), value: String(f.growable) }),
      },
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
  qualityTable.update(
    codec.schema.flavours,
    "The write-cursor article's qualities, each checked against the real type by the engine's tests; its published times, measured on another machine, for order only.",
  );

  const sinkTable = table<SinkRun>({
    rowHeading: "Writer",
    rowAttr: "data-mode",
    rowKey: (s) => s.mode,
    rowLabel: (s) => modeLabel.get(s.mode) ?? s.mode,
    label: "Sink results",
    columns: [
      { ...metricHead(M.app_writes), cell: (s) => ({ text: formatCount(M.app_writes.value(s)), value: M.app_writes.value(s) }) },
      { ...metricHead(M.sink_writes), cell: (s) => ({ text: formatCount(M.sink_writes.value(s)), value: M.sink_writes.value(s) }) },
      { ...metricHead(M.sink_flushes), cell: (s) => ({ text: formatCount(M.sink_flushes.value(s)), value: M.sink_flushes.value(s) }) },
      { ...metricHead(M.bytes_copied), cell: (s) => ({ text: formatCount(M.bytes_copied.value(s)), value: M.bytes_copied.value(s) }) },
      {
        ...metricHead(M.allocations),
        cell: (s) => ({ text: formatCount(M.allocations.value(s)), value: M.allocations.value(s), detail: s.alloc_bytes > 0 ? size(s.alloc_bytes) : undefined }),
      },
      {
        ...metricHead(M.cpu_median_ns),
        cell: (s) =>
          isTimed(s.cpu_ns)
            ? { text: formatNs(M.cpu_median_ns.value(s)), value: M.cpu_median_ns.value(s), detail: formatNsRange(s.cpu_ns.min, s.cpu_ns.max) }
            : { text: untimedText(timing) },
      },
      { ...metricHead(M.modelled_io_ns), cell: (s) => ({ text: formatNs(M.modelled_io_ns.value(s)), value: M.modelled_io_ns.value(s) }) },
      {
        ...metricHead(M.modelled_total_ns),
        cell: (s) =>
          isTimed(s.cpu_ns)
            ? { text: formatNs(M.modelled_total_ns.value(s)), value: M.modelled_total_ns.value(s) }
            : { text: untimedText(timing) },
      },
    ],
  });
  const sinkCheck = h("p", { class: "write-check", role: "status" });
  const sink = h("div", { class: "sink-results" }, sinkTable.element, sinkCheck);

  const flushTable = table<FinalFlush>({
    rowHeading: "How it ends",
    rowAttr: "data-ending",
    rowKey: (f) => f.ending,
    rowLabel: (f) => h("span", { title: endingAbout.get(f.ending) ?? "" }, endingLabel.get(f.ending) ?? f.ending),
    label: "Final flush results",
    columns: [
      {
        metric: "reported_by",
        heading: "Error reported by",
        about: "The call that handed the error to the application.",
        numeric: false,
        cell: (f) =>
          f.reported_by
            ? { text: h("code", {}, `${f.reported_by}()`), value: f.reported_by }
            : { text: h("strong", { class: "lost" }, "nobody: lost"), value: "lost" },
      },
      {
        metric: "bytes_at_sink",
        heading: "Bytes at sink",
        about: "Bytes the sink accepted.",
        numeric: true,
        cell: (f) => ({ text: formatCount(f.bytes_at_sink), value: f.bytes_at_sink }),
      },
      {
        metric: "bytes_lost",
        heading: "Bytes lost",
        about: "Bytes the application wrote that never reached the sink.",
        numeric: true,
        cell: (f) => ({ text: formatCount(f.bytes_lost), value: f.bytes_lost }),
      },
    ],
  });
  const flushNote = h("p", { class: "field-note" });
  const finalFlush = h("div", { class: "final-flush" }, flushTable.element, flushNote);

  // Beside the article's times: why today's measured order is not theirs.
  const articleOrder = h("p", { class: "field-note article-order" }, codec.schema.article_order);
  const qualities = h("div", {}, qualityTable.element, articleOrder);

  return {
    flavours,
    qualities,
    sink,
    finalFlush,
    update(report, timingNow) {
      timing = timingNow;
      reference = report.reference_digest;
      const w = report.params.write;
      flavourTable.update(
        report.flavours,
        `Per cursor: ${formatCount(w.records)} records (${size(report.reference_bytes)}); growable cursors start at ${size(w.init_cap)}, fixed buffers hold ${size(w.buf)}.`,
      );
      const finished = report.flavours.filter((f) => !f.error);
      const wrong = finished.filter((f) => f.digest !== report.reference_digest);
      check.classList.toggle("ok", wrong.length === 0);
      check.classList.toggle("bad", wrong.length > 0);
      if (finished.length === 0) {
        replaceChildren(check, "No cursor finished, so there are no bytes to compare.");
      } else if (wrong.length === 0) {
        replaceChildren(
          check,
          h("span", { class: "mark", "aria-hidden": "true" }, "✓"),
          ` Identical: ${finished.length === 1 ? "the cursor that finished" : `all ${finished.length} cursors that finished`} wrote the same ${formatCount(report.reference_bytes)} bytes as the records encoded by hand (digest `,
          h("code", {}, report.reference_digest),
          ").",
        );
      } else {
        replaceChildren(
          check,
          h("span", { class: "mark", "aria-hidden": "true" }, "✗"),
          ` Bytes differ: ${wrong.map((f) => labelOf(f.flavour)).join(", ")} wrote other bytes than the reference (digest `,
          h("code", {}, report.reference_digest),
          "). This is a bug in the engine.",
        );
      }
      const message = writeZeroMessage(report, codec, labelOf);
      failure.hidden = message === "";
      setText(failure, message);

      sinkTable.update(
        report.sink,
        `${size(w.len)} written ${size(w.ws)} at a time; BufWriter of ${size(w.cap)}; ${report.params.sys} ns modelled per sink write.`,
      );
      const sinkOk = report.sink.every((s) => s.digest === report.sink_digest);
      sinkCheck.classList.toggle("ok", sinkOk);
      sinkCheck.classList.toggle("bad", !sinkOk);
      replaceChildren(
        sinkCheck,
        h("span", { class: "mark", "aria-hidden": "true" }, sinkOk ? "✓" : "✗"),
        sinkOk ? " Correct: the sink received exactly the data in both runs (digest " : " The sink received other bytes than written (expected digest ",
        h("code", {}, report.sink_digest),
        sinkOk ? ")." : "). This is a bug in the engine.",
      );

      flushTable.update(report.final_flush, "A sink that refuses the write holding the stream's last byte, as a full disk might:");
      const dropped = report.final_flush.find((f) => f.ending === "dropped");
      setText(
        flushNote,
        dropped && dropped.reported_by === null
          ? `Dropped without a flush, the BufWriter's Drop tries to write its last ${formatCount(dropped.bytes_lost)} bytes, gets the error and can only ignore it: the application never learns. Call flush() or into_inner() and the error comes back.`
          : "Here the last write_all was at least as large as the buffer, so it went straight to the sink and returned the error itself.",
      );
    },
  };
}
