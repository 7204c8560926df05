// A comparison's exports: CSV and Markdown that carry both links (A's, B's
// and, for a `b.` link, the comparison's own) and the paired table, one row
// per reader and metric. Pure functions of the engine's Comparison; the
// export panel calls them (through app/panels.ts) while a comparison is on
// screen, and loads this module only then.

import type { Compared, Comparison, PairedRun, Spread } from "../../../engine/types.gen";
import { csvComments, csvLines, type Cell } from "../../../shared/export-kit";
import { METRIC } from "../../../shared/metrics";
import { settingsInWords } from "../../../shared/settings-words";
import { changedText, difference, figure, OUTCOME_WORDS, ratioText, verdicts } from "./words";

/** The full links of a comparison: A's, B's, and the one link holding both (null for a result file, which has none). */
export interface ComparedLinks {
  a: string;
  b: string;
  both: string | null;
}

/** The comment lines naming both experiments and their links. */
function comments(comparison: Comparison, links: ComparedLinks): string[] {
  const what = `BufLab comparison: A against B (${changedText(comparison.changed)})`;
  return [
    ...csvComments(what, settingsInWords(comparison.a.params), links.both ?? links.a),
    `link A: ${links.a}`,
    `link B: ${links.b}`,
    `B's settings: ${settingsInWords(comparison.b.params)}`,
  ];
}

const spreadCells = (s: Spread | null): Cell[] => [s?.kind, s?.low, s?.high];

/** The CSV columns of one row: the readers, the metric, A, B, B − A, B ÷ A, the outcome, the spreads and × copy. */
export const COMPARISON_CSV_HEADER = [
  "reader_a",
  "reader_b",
  "metric",
  "a",
  "b",
  "difference",
  "ratio",
  "outcome",
  "a_spread",
  "a_low",
  "a_high",
  "b_spread",
  "b_low",
  "b_high",
  "ratio_spread",
  "ratio_low",
  "ratio_high",
  "a_x_copy",
  "b_x_copy",
  "x_copy_outcome",
];

function csvRow(run: PairedRun, m: Compared): Cell[] {
  return [
    run.a,
    run.b,
    m.metric,
    m.a,
    m.b,
    m.difference,
    m.ratio === null ? null : Math.round(m.ratio * 10_000) / 10_000,
    m.outcome,
    ...spreadCells(m.a_spread),
    ...spreadCells(m.b_spread),
    ...spreadCells(m.ratio_spread),
    m.a_x_copy,
    m.b_x_copy,
    m.x_copy_outcome,
  ];
}

/** The comparison as CSV: comment lines with both experiments' settings and links, then one row per reader and metric (exact numbers). */
export function comparisonCsv(comparison: Comparison, links: ComparedLinks): string {
  const rows = comparison.readers.flatMap((run) => run.metrics.map((m) => csvRow(run, m)));
  return csvLines(comments(comparison, links), COMPARISON_CSV_HEADER, rows);
}

/** A Markdown table cell: pipes escaped, line breaks flattened. */
function mdCell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function readerName(run: PairedRun, labelOf: (id: string) => string): string {
  if (run.a && run.b && run.a !== run.b) return `${labelOf(run.a)} → ${labelOf(run.b)}`;
  return labelOf(run.a ?? run.b ?? "");
}

/** The comparison as Markdown: both links, what differs, the verdicts, the table, the notes it rests on. */
export function comparisonMarkdown(comparison: Comparison, links: ComparedLinks, labelOf: (id: string) => string): string {
  const line = (cells: string[]): string => `| ${cells.map(mdCell).join(" | ")} |`;
  const rows = comparison.readers.flatMap((run) =>
    run.metrics.map((m) =>
      line([readerName(run, labelOf), METRIC[m.metric].label, figure(m.metric, m.a), figure(m.metric, m.b), difference(m.metric, m.difference), ratioText(m), OUTCOME_WORDS[m.outcome]]),
    ),
  );
  return [
    `BufLab comparison${links.both ? `: <${links.both}>` : ""}`,
    "",
    `- A: <${links.a}>`,
    `- B: <${links.b}>`,
    "",
    changedText(comparison.changed),
    "",
    ...verdicts(comparison, labelOf).map((v) => `- ${v}`),
    "",
    line(["Reader", "Metric", "A", "B", "B − A", "B ÷ A", "Says"]),
    "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ...rows,
    "",
    ...comparison.notes.map((n) => `- ${n}`),
    "",
  ].join("\n");
}
