// The write lab's results. It owns the <div id="write-results"> element and
// lays out the pieces: the cursor charts (reallocations, then time) beside the qualities table, the
// cursor table with its bytes check, then the sink's charts and table, and
// last the final-flush demonstration. It also writes the lab's headline.

import type { Codec } from "../../engine/codec";
import { isTimed } from "../../engine/report";
import type { FlavourRun, Stats, WriteReport } from "../../engine/types.gen";
import type { Compare, Times } from "../../shared/lab";
import { formatCount, formatNs, formatRatio, formatRatioRange, listText, plural } from "../../shared/format";
import { h, replaceChildren } from "../../shared/dom";
import { onFirstUse } from "../../shared/later";
import type { WriteCharts } from "./charts";
import { createWriteChartFrames, showWriteFrames, type WriteChartFrames } from "./chart-frames";
import { createWriteTables } from "./tables";

/**
 * The cursors the samples call fastest and slowest. The fastest are those
 * within noise of the cursor with the smallest median and clearly faster
 * than the one with the largest; the slowest likewise from the other end.
 * Both lists keep the report's order, so a tie reads the same whichever of
 * its cursors had the smaller median this time. Empty lists when the
 * samples do not separate the two ends (or fewer than two cursors were
 * timed, or only a quick estimate).
 */
export function rankCursors(report: WriteReport, compare: Compare): { timed: FlavourRun[]; fastest: FlavourRun[]; slowest: FlavourRun[] } {
  const timed = report.flavours.filter((f) => f.error === null && isTimed(f.cpu_ns));
  const stats = (f: FlavourRun): Stats => f.cpu_ns!;
  const fast = timed.reduce<FlavourRun | null>((a, f) => (a === null || stats(f).median < stats(a).median ? f : a), null);
  const slow = timed.reduce<FlavourRun | null>((a, f) => (a === null || stats(f).median > stats(a).median ? f : a), null);
  if (!fast || !slow || compare(stats(fast), stats(slow)) !== "faster") return { timed, fastest: [], slowest: [] };
  return {
    timed,
    fastest: timed.filter((f) => compare(stats(f), stats(fast)) === "same" && compare(stats(f), stats(slow)) === "faster"),
    slowest: timed.filter((f) => compare(stats(f), stats(slow)) === "same" && compare(stats(f), stats(fast)) === "slower"),
  };
}

/**
 * A few sentences: how often the cursors reallocated when any did, the
 * fastest against the slowest cursors, and what BufWriter saved. Times are claimed only from the full measurement; a
 * cursor is called fastest or slowest only as the engine's verdict allows
 * (`rankCursors`), cursors within noise of each other are named together,
 * and the ratio is the range the samples support.
 */
export function summarizeWrite(report: WriteReport, labelOf: (id: string) => string, times: Times): string {
  const parts: string[] = [];
  const full = report.stage === "full";
  const finished = report.flavours.filter((f) => f.error === null);
  const { timed, fastest, slowest } = rankCursors(report, times.verdict);
  const median = (f: FlavourRun): number => f.cpu_ns?.median ?? 0;
  // Reallocations first when a cursor grew by them (the cursors lesson's point; exact counts, so said from the first report).
  const grew = finished.filter((f) => f.reallocs > 0);
  if (grew.length > 0) {
    const counts = [...new Set(grew.map((f) => f.reallocs))].sort((a, b) => a - b);
    const often = counts.length === 1 ? plural(counts[0]!, "time") : `${formatCount(counts[0]!)} to ${formatCount(counts.at(-1)!)} times`;
    const each = grew.length > 1 && counts.length === 1 ? " each" : "";
    const who = grew.length === 1 ? labelOf(grew[0]!.flavour) : `${grew.length} cursors`;
    const rest = finished.length - grew.length;
    const others = rest === 0 ? "" : `; the other ${rest === 1 ? "one" : rest} never did`;
    parts.push(`${who} reallocated ${often}${each} while ${grew.length === 1 ? "it" : "they"} grew${others}.`);
  }
  if (full && fastest.length > 0 && slowest.length > 0) {
    const names = (group: FlavourRun[]): string => listText(group.map((f) => labelOf(f.flavour)));
    const tie = (group: FlavourRun[]): string => (group.length > 1 ? ", within noise of each other" : "");
    // A group of more than two is named without its medians (the chart has them): the sentence stays short.
    const medians = (group: FlavourRun[]): string => (group.length > 2 ? "" : ` (${listText(group.map((f) => formatNs(median(f))))})`);
    // The ratio the samples support between the quickest and the slowest cursor (the pair the verdict
    // separated); a group's other members are only said to be within noise of these.
    const quickest = fastest.reduce((a, b) => (median(b) < median(a) ? b : a));
    const slowestOne = slowest.reduce((a, b) => (median(b) > median(a) ? b : a));
    const ratio = times.timeRatio(quickest.cpu_ns!, slowestOne.cpu_ns!);
    const by = ratio && ratio.low > 1 ? formatRatioRange(ratio.low, ratio.high) : formatRatio(median(slowestOne) / Math.max(1e-9, median(quickest)));
    const pair = fastest.length > 1 || slowest.length > 1 ? " (the quickest against the slowest)" : "";
    // After the reallocations, the times in short: the headline stays within three lines on a projector.
    if (grew.length > 0) {
      const than = slowest.length === 1 ? names(slowest) : `the ${slowest.length} slowest`;
      parts.push(`${names(fastest)} serialized the records fastest${tie(fastest)}, ${by} faster${pair} than ${than}.`);
    } else parts.push(
      `${names(fastest)} serialized the records fastest${tie(fastest)}${medians(fastest)}, ` +
        `${by} faster${pair} than ${names(slowest)}${tie(slowest)}${medians(slowest)}.`,
    );
  } else if (full && timed.length >= 2) {
    const all = timed.map(median);
    parts.push(
      `The cursors serialized the records in the same time within the noise of the samples (${formatNs(Math.min(...all))} to ${formatNs(Math.max(...all))}).`,
    );
  } else if (full && timed.length === 1) {
    parts.push(`${labelOf(timed[0]!.flavour)} serialized the records in ${formatNs(median(timed[0]!))}.`);
  }
  const failed = report.flavours.length - finished.length;
  if (failed > 0) {
    parts.push(`${failed === 1 ? "One fixed cursor" : `${failed} fixed cursors`} stopped with ${report.flavours.find((f) => f.error)?.error?.kind ?? "an error"}.`);
  }
  const direct = report.sink.find((s) => s.mode === "direct");
  const buffered = report.sink.find((s) => s.mode === "bufwriter");
  // When the cursors grew by reallocating, that and their times are the headline (three lines on a
  // projector); the sink's own charts and table below say what BufWriter saved.
  if (direct && buffered && grew.length === 0) {
    const total = (s: typeof direct): number => s.cpu_ns.median + s.modelled_io_ns;
    const ratio = direct.sink_writes / Math.max(1, buffered.sink_writes);
    const timing = full ? `: ${formatNs(total(buffered))} against ${formatNs(total(direct))} per run with modelled I/O` : "";
    parts.push(
      ratio > 1
        ? `BufWriter made ${formatRatio(ratio)} fewer sink writes than direct writes (${formatCount(buffered.sink_writes)} vs ${formatCount(direct.sink_writes)})${timing}.`
        : `BufWriter made as many sink writes as direct writes (${formatCount(buffered.sink_writes)}): at these settings its buffer saves no system calls.`,
    );
  }
  return parts.join(" ");
}

export interface WriteResults {
  /** Shows `report`; resolves once its charts are drawn (or could not be). */
  update(report: WriteReport, timing: boolean): Promise<void>;
  retheme(): void;
}

export function createWriteResults(container: HTMLElement, codec: Codec, chartsChanged: () => void): WriteResults {
  // Built on the first write report, not with the page: the read lab (the
  // default) should not pay for charts it keeps hidden before its first
  // numbers. The charts' module (it brings chart.js) comes after the tables.
  let parts: { charts: (use: (charts: WriteCharts) => void, failed?: (error: unknown) => void) => void; tables: ReturnType<typeof createWriteTables>; frames: WriteChartFrames } | null = null;
  const build = (): NonNullable<typeof parts> => {
    const tables = createWriteTables(codec);
    // The charts' figures come with the tables, at their final size; the
    // charts (their module brings chart.js) draw into them later.
    const frames = createWriteChartFrames();
    const sinkCharts = h("div", { class: "charts" }, frames.writes.block, frames.sinkTime.block);
    replaceChildren(
      container,
      h("h3", { class: "section-title" }, "The write-cursor article's cursors: serializing records with serde + bincode"),
      h(
        "div",
        { class: "side-by-side" },
        h("div", { class: "write-cursor-charts" }, frames.reallocs.block, frames.cursors.block),
        h("div", { class: "qualities" }, tables.qualities),
      ),
      tables.flavours,
      h("h3", { class: "section-title" }, "BufWriter over a chunked sink"),
      sinkCharts,
      tables.sink,
      h("h3", { class: "section-title" }, "When the last write fails"),
      tables.finalFlush,
    );
    const charts = onFirstUse(() =>
      import("./charts").then((m) => {
        const made = m.createWriteCharts(codec, frames);
        chartsChanged();
        return made;
      }),
    );
    return { charts, tables, frames };
  };
  return {
    update(report, timing) {
      const built = (parts ??= build());
      showWriteFrames(built.frames, report, timing);
      built.tables.update(report, timing);
      return new Promise<void>((drawn) =>
        built.charts(
          (c) => {
            c.update(report, timing);
            drawn();
          },
          () => drawn(),
        ),
      );
    },
    retheme() {
      parts?.charts((c) => c.retheme());
    },
  };
}
