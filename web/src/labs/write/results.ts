// The write lab's results. It owns the <div id="write-results"> element and
// lays out the pieces: the cursor chart beside the qualities table, the
// cursor table with its bytes check, then the sink's charts and table, and
// last the final-flush demonstration. It also writes the lab's headline.

import type { Codec } from "../../engine/codec";
import { isTimed } from "../../engine/report";
import type { Stats, WriteReport } from "../../engine/types.gen";
import type { Compare } from "../../shared/lab";
import { formatCount, formatNs, formatRatio } from "../../shared/format";
import { h, replaceChildren } from "../../shared/dom";
import { onFirstUse } from "../../shared/later";
import type { WriteCharts } from "./charts";
import { createWriteTables } from "./tables";

/**
 * One or two sentences: fastest against slowest cursor, and what BufWriter
 * saved. Times are claimed only from the full measurement, and a cursor is
 * called faster only when `compare` finds their samples apart.
 */
export function summarizeWrite(report: WriteReport, labelOf: (id: string) => string, compare: Compare): string {
  const parts: string[] = [];
  const full = report.stage === "full";
  const finished = report.flavours.filter((f) => f.error === null);
  const timed = full ? finished.filter((f) => isTimed(f.cpu_ns)) : [];
  const stats = (i: number): Stats => timed[i]!.cpu_ns!;
  const median = (i: number): number => timed[i]?.cpu_ns?.median ?? 0;
  if (timed.length >= 2) {
    let fast = 0;
    let slow = 0;
    timed.forEach((_, i) => {
      if (median(i) < median(fast)) fast = i;
      if (median(i) > median(slow)) slow = i;
    });
    parts.push(
      compare(stats(fast), stats(slow)) === "faster"
        ? `${labelOf(timed[fast]!.flavour)} serialized the records fastest (${formatNs(median(fast))}), ` +
            `${formatRatio(median(slow) / Math.max(1e-9, median(fast)))} faster than ${labelOf(timed[slow]!.flavour)} (${formatNs(median(slow))}).`
        : `The cursors serialized the records in the same time within the noise of the samples (${formatNs(median(fast))} to ${formatNs(median(slow))}).`,
    );
  } else if (timed.length === 1) {
    parts.push(`${labelOf(timed[0]!.flavour)} serialized the records in ${formatNs(median(0))}.`);
  }
  const failed = report.flavours.length - finished.length;
  if (failed > 0) {
    parts.push(`${failed === 1 ? "One fixed cursor" : `${failed} fixed cursors`} stopped with ${report.flavours.find((f) => f.error)?.error?.kind ?? "an error"}.`);
  }
  const direct = report.sink.find((s) => s.mode === "direct");
  const buffered = report.sink.find((s) => s.mode === "bufwriter");
  if (direct && buffered) {
    const total = (s: typeof direct): number => s.cpu_ns.median + s.modelled_io_ns;
    const ratio = direct.sink_writes / Math.max(1, buffered.sink_writes);
    const times = full ? `: ${formatNs(total(buffered))} against ${formatNs(total(direct))} per run with modelled I/O` : "";
    parts.push(
      ratio > 1
        ? `BufWriter made ${formatRatio(ratio)} fewer sink writes than direct writes (${formatCount(buffered.sink_writes)} vs ${formatCount(direct.sink_writes)})${times}.`
        : `BufWriter made as many sink writes as direct writes (${formatCount(buffered.sink_writes)}): at these settings its buffer saves no system calls.`,
    );
  }
  return parts.join(" ");
}

export interface WriteResults {
  update(report: WriteReport, timing: boolean): void;
  retheme(): void;
}

export function createWriteResults(container: HTMLElement, codec: Codec, chartsChanged: () => void): WriteResults {
  // Built on the first write report, not with the page: the read lab (the
  // default) should not pay for charts it keeps hidden before its first
  // numbers. The charts' module (it brings chart.js) comes after the tables.
  let parts: { charts: (use: (charts: WriteCharts) => void) => void; tables: ReturnType<typeof createWriteTables> } | null = null;
  const build = (): NonNullable<typeof parts> => {
    const tables = createWriteTables(codec);
    const cursorSlot = h("div", {});
    const sinkCharts = h("div", { class: "charts" });
    replaceChildren(
      container,
      h("h3", { class: "section-title" }, "The write-cursor article's cursors: serializing records with serde + bincode"),
      h("div", { class: "side-by-side" }, cursorSlot, h("div", { class: "qualities" }, tables.qualities)),
      tables.flavours,
      h("h3", { class: "section-title" }, "BufWriter over a chunked sink"),
      sinkCharts,
      tables.sink,
      h("h3", { class: "section-title" }, "When the last write fails"),
      tables.finalFlush,
    );
    const charts = onFirstUse(() =>
      import("./charts").then((m) => {
        const made = m.createWriteCharts(codec);
        cursorSlot.replaceWith(made.cursors);
        sinkCharts.append(...made.sink);
        chartsChanged();
        return made;
      }),
    );
    return { charts, tables };
  };
  return {
    update(report, timing) {
      parts ??= build();
      parts.charts((c) => c.update(report, timing));
      parts.tables.update(report, timing);
    },
    retheme() {
      parts?.charts((c) => c.retheme());
    },
  };
}
