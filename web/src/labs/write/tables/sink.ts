// BufWriter over a chunked sink, in numbers (owns its box): direct writes
// against BufWriter's, and whether the sink received exactly the data.

import type { Codec } from "../../../engine/codec";
import { isTimed } from "../../../engine/report";
import type { SinkRun } from "../../../engine/types.gen";
import { h, replaceChildren } from "../../../shared/dom";
import { bytesLabel, formatCount, formatNs, formatNsRange, untimedText } from "../../../shared/format";
import { METRIC as M, type MetricView } from "../../../shared/metrics";
import { metricHead, table } from "../../../shared/table-kit";
import type { TablePiece } from "./cursors";

export function createSinkTable(codec: Codec): TablePiece {
  let timing = true;
  const size = (n: number): string => bytesLabel(codec.formatSize(n));
  const modeLabel = new Map(codec.schema.write_modes.map((m) => [m.id, m.label]));
  /** A count's column. */
  const count = (metric: MetricView<"app_writes" | "sink_writes" | "sink_flushes" | "bytes_copied">) => ({
    ...metricHead(metric),
    cell: (s: SinkRun) => ({ text: formatCount(metric.value(s)), value: metric.value(s) }),
  });
  const results = table<SinkRun>({
    rowHeading: "Writer",
    rowAttr: "data-mode",
    rowKey: (s) => s.mode,
    rowLabel: (s) => modeLabel.get(s.mode) ?? s.mode,
    label: "Sink results",
    columns: [
      count(M.app_writes),
      count(M.sink_writes),
      count(M.sink_flushes),
      count(M.bytes_copied),
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
        cell: (s) => (isTimed(s.cpu_ns) ? { text: formatNs(M.modelled_total_ns.value(s)), value: M.modelled_total_ns.value(s) } : { text: untimedText(timing) }),
      },
    ],
  });
  const check = h("p", { class: "write-check", role: "status" });
  return {
    element: h("div", { class: "sink-results" }, results.element, check),
    update(report, timingNow) {
      timing = timingNow;
      const w = report.params.write;
      results.update(report.sink, `${size(w.len)} written ${size(w.ws)} at a time; BufWriter of ${size(w.cap)}; ${report.params.sys} ns modelled per sink write.`);
      const ok = report.sink.every((s) => s.digest === report.sink_digest);
      check.classList.toggle("ok", ok);
      check.classList.toggle("bad", !ok);
      replaceChildren(
        check,
        h("span", { class: "mark", "aria-hidden": "true" }, ok ? "✓" : "✗"),
        ok ? " Correct: the sink received exactly the data in both runs (digest " : " The sink received other bytes than written (expected digest ",
        h("code", {}, report.sink_digest),
        ok ? ")." : "). This is a bug in the engine.",
      );
    },
  };
}
