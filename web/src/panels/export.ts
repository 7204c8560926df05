// Export: the current results as CSV (the settings and the link in leading
// comment lines), as JSON (the report exactly as the engine returned it,
// with the link that reproduces it), the results table as Markdown, and each
// chart as a PNG at twice its size with its title, settings and link drawn
// in. It owns the element it is given.
//
// The formatting is in pure functions (csvOf, markdownOf, jsonOf; unit tests
// in export.test.ts run them on real engine reports). Downloads go through a
// Blob, an object URL and a temporary <a download>; nothing is uploaded.

import { messageOf } from "../engine/errors";
import { isWriteReport } from "../engine/report";
import type { Comparison, FlavourRun, LabReport, MetricInfo, Report, Run, SinkRun, WriteReport } from "../engine/types.gen";
import { formatCount, formatNs } from "../shared/format";
import { METRIC } from "../shared/metrics";
import { h, replaceChildren, setText } from "../shared/dom";
import { chartPng, csvComments, csvLines, download, exportName, type Cell } from "../shared/export-kit";
import { settingsInWords } from "../shared/settings-words";

// ---------------------------------------------------------------- pure formatting

const M = METRIC;

/** The read lab's CSV columns: the report's own field names (a metric's id), exact numbers. */
const READ_CSV: [string, (r: Run) => Cell][] = [
  ["reader", (r) => r.reader],
  [M.source_reads.id, M.source_reads.value],
  [M.app_reads.id, M.app_reads.value],
  [M.bytes.id, M.bytes.value],
  [M.bytes_copied.id, M.bytes_copied.value],
  [M.allocations.id, M.allocations.value],
  ["frees", (r) => r.frees],
  ["alloc_bytes", (r) => r.alloc_bytes],
  [M.peak_bytes.id, M.peak_bytes.value],
  [M.reallocs.id, M.reallocs.value],
  [M.cpu_median_ns.id, M.cpu_median_ns.value],
  ["cpu_min_ns", (r) => r.cpu_ns.min],
  ["cpu_max_ns", (r) => r.cpu_ns.max],
  ["cpu_mad_ns", (r) => r.cpu_ns.mad],
  ["samples", (r) => r.cpu_ns.samples],
  [M.modelled_io_ns.id, M.modelled_io_ns.value],
  [M.modelled_total_ns.id, M.modelled_total_ns.value],
  ["blocks_allocated", M.pool_blocks.value],
  ["blocks_reused", (r) => r.blocks?.reused],
  [M.digest.id, M.digest.value],
];
export const READ_CSV_HEADER = READ_CSV.map(([name]) => name);

/** The write lab's CSV columns: one row per cursor flavour, then one per sink mode; a column a part lacks is empty. */
const WRITE_CSV: [string, (f: FlavourRun) => Cell, (s: SinkRun) => Cell][] = [
  ["part", () => "cursor", () => "sink"],
  ["name", (f) => f.flavour, (s) => s.mode],
  [M.bytes.id, M.bytes.value, M.bytes.value],
  [M.allocations.id, M.allocations.value, M.allocations.value],
  [M.reallocs.id, M.reallocs.value, M.reallocs.value],
  ["alloc_bytes", (f) => f.alloc_bytes, (s) => s.alloc_bytes],
  [M.peak_bytes.id, M.peak_bytes.value, M.peak_bytes.value],
  [M.cpu_median_ns.id, (f) => f.cpu_ns?.median, M.cpu_median_ns.value],
  ["cpu_min_ns", (f) => f.cpu_ns?.min, (s) => s.cpu_ns.min],
  ["cpu_max_ns", (f) => f.cpu_ns?.max, (s) => s.cpu_ns.max],
  [M.app_writes.id, () => null, M.app_writes.value],
  [M.sink_writes.id, () => null, M.sink_writes.value],
  [M.bytes_copied.id, () => null, M.bytes_copied.value],
  [M.modelled_io_ns.id, () => null, M.modelled_io_ns.value],
  ["error", (f) => (f.error ? `${f.error.kind}: ${f.error.message}` : null), () => null],
  [M.digest.id, (f) => f.digest, M.digest.value],
];
export const WRITE_CSV_HEADER = WRITE_CSV.map(([name]) => name);

/**
 * The report as CSV: one row per reader (read lab) or per cursor and sink
 * mode (write lab), after comment lines with the settings and `link`.
 */
export function csvOf(report: LabReport, link: string): string {
  const what = `BufLab ${isWriteReport(report) ? "write" : "read"} lab${report.quick ? " (quick estimate: one short sample)" : ""}`;
  const comments = csvComments(what, settingsInWords(report.params), link);
  if (isWriteReport(report)) return writeCsv(report, comments);
  const rows = report.runs.map((r): Cell[] => READ_CSV.map(([, cell]) => cell(r)));
  return csvLines(comments, READ_CSV_HEADER, rows);
}

function writeCsv(report: WriteReport, comments: string[]): string {
  const rows: Cell[][] = [
    ...report.flavours.map((f): Cell[] => WRITE_CSV.map(([, cell]) => cell(f))),
    ...report.sink.map((s): Cell[] => WRITE_CSV.map(([, , cell]) => cell(s))),
  ];
  return csvLines(comments, WRITE_CSV_HEADER, rows);
}

/**
 * The report exactly as the engine returned it, with the link that
 * reproduces it; with a comparison on screen, also `compared`: both links
 * and the comparison (the file still opens as one result: its `report`).
 */
export function jsonOf(report: LabReport, link: string, exportedAt: Date, compared: ComparedExport | null = null): string {
  const both = compared && { link: compared.both, a_link: compared.a, b_link: compared.b, comparison: compared.comparison };
  return JSON.stringify({ link, exported_at: exportedAt.toISOString(), report, ...(both ? { compared: both } : {}) }, null, 2) + "\n";
}

/** A Markdown table cell: pipes escaped, line breaks flattened. */
export function mdCell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function mdTable(header: string[], numeric: boolean[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.map(mdCell).join(" | ")} |`;
  const rule = `|${numeric.map((n) => (n ? " ---: " : " --- ")).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/** The results table as Markdown, with the link and the correctness check. */
export function markdownOf(report: LabReport, link: string, labelOf: (id: string) => string): string {
  const quick = report.quick ? " (quick estimate: one short sample)" : "";
  const head = `BufLab ${isWriteReport(report) ? "write" : "read"} lab${quick}: <${link}>\n\n`;
  return head + (isWriteReport(report) ? writeMarkdown(report, labelOf) : readMarkdown(report, labelOf)) + "\n";
}

/** A metric's value as the Markdown tables write it: counts and bytes exact, times in their unit. */
function exactText(metric: MetricInfo, n: number): string {
  return metric.unit === "ns" ? formatNs(n) : formatCount(n);
}

/** A metric's Markdown heading: its label, with the unit exact byte counts are in. */
function mdHeading(metric: MetricInfo): string {
  return metric.unit === "bytes" ? `${metric.label} (B)` : metric.label;
}

/** The read lab's Markdown columns after the reader's name. */
const READ_MD = [M.source_reads, M.app_reads, M.bytes_copied, M.allocations, M.peak_bytes, M.cpu_median_ns, M.modelled_io_ns, M.modelled_total_ns];

function readMarkdown(report: Report, labelOf: (id: string) => string): string {
  const header = ["Reader", ...READ_MD.map(mdHeading), M.digest.label];
  const numeric = [false, ...READ_MD.map(() => true), false];
  const rows = report.runs.map((r) => [labelOf(r.reader), ...READ_MD.map((m) => exactText(m, m.value(r))), `\`${M.digest.value(r)}\``]);
  const agree = report.runs.every((r) => r.digest === report.source_digest);
  const check = agree
    ? `Correct: every reader delivered exactly the stream's bytes (digest \`${report.source_digest}\`).`
    : `Digests differ from the stream's (\`${report.source_digest}\`): a bug in the engine.`;
  return `${mdTable(header, numeric, rows)}\n\n${check}\nI/O time is modelled (source reads × ${formatCount(report.params.sys)} ns + bytes read × ${formatCount(report.params.sys_kib)} ns per KiB), not measured.`;
}

/** The sink table's Markdown columns after the writer's name. */
const SINK_MD = [M.app_writes, M.sink_writes, M.bytes_copied, M.cpu_median_ns, M.modelled_io_ns];

function writeMarkdown(report: WriteReport, labelOf: (id: string) => string): string {
  const cursors = mdTable(
    ["Cursor", mdHeading(M.bytes), M.allocations.label, M.reallocs.label, M.cpu_median_ns.label, "Result"],
    [false, true, true, true, true, false],
    report.flavours.map((f) => [
      labelOf(f.flavour),
      formatCount(M.bytes.value(f)),
      formatCount(M.allocations.value(f)),
      formatCount(M.reallocs.value(f)),
      f.cpu_ns ? formatNs(f.cpu_ns.median) : "–",
      f.error ? `${f.error.kind}` : f.digest === report.reference_digest ? "identical bytes" : "bytes differ",
    ]),
  );
  const sink = mdTable(
    ["Sink", ...SINK_MD.map(mdHeading)],
    [false, ...SINK_MD.map(() => true)],
    report.sink.map((s) => [s.mode === "bufwriter" ? "std BufWriter" : "direct writes", ...SINK_MD.map((m) => exactText(m, m.value(s)))]),
  );
  return `${cursors}\n\n${sink}`;
}

/** A file name for an export: `buflab-read-2026-11-22T01-02-03.csv`. */
export function fileName(report: LabReport, extension: string, at: Date, part?: string): string {
  return exportName(isWriteReport(report) ? "write" : "read", extension, at, part);
}

export interface ExportTools {
  /** The report on screen (null before the first). */
  update(report: LabReport | null): void;
}

/**
 * The comparison on screen, for the exports to carry: A's, B's and the
 * comparison's full links (`both`: null for a result file), the
 * comparison, and its CSV and Markdown (made by the comparison's own code,
 * loaded when asked for).
 */
export interface ComparedExport {
  a: string;
  b: string;
  both: string | null;
  comparison: Comparison;
  csv(): Promise<string>;
  markdown(): Promise<string>;
}

export interface ExportOptions {
  /** The full URL that reproduces a report. */
  link(report: LabReport): string;
  /** The comparison on screen with `report` as its A (null: none). */
  compared(report: LabReport): ComparedExport | null;
  labelOf(report: LabReport): (id: string) => string;
  /** The charts of the lab on screen, each with its title. */
  charts(): { title: string; canvas: HTMLCanvasElement }[];
}

/** The line an image adds under its link while a comparison is on screen: the chart is A's, B is named by its link. */
export function comparedLine(compared: ComparedExport | null): string | undefined {
  if (!compared) return undefined;
  return compared.both ? `This chart is A's; A against B: ${compared.both}` : `This chart is A's, compared with B: ${compared.b}`;
}

export function createExport(container: HTMLElement, options: ExportOptions): ExportTools {
  let report: LabReport | null = null;
  const status = h("span", { class: "copy-note", id: "export-status", role: "status", "aria-live": "polite" });
  const button = (id: string, text: string, action: (r: LabReport) => void | Promise<void>): HTMLButtonElement => {
    const b = h("button", { type: "button", class: "small", id }, text);
    b.addEventListener("click", () => {
      if (!report) return;
      const name = text;
      Promise.resolve(action(report)).then(
        () => setText(status, `${name} downloaded.`),
        (error: unknown) => setText(status, `${name} failed: ${messageOf(error)}`),
      );
    });
    return b;
  };
  // With a comparison on screen, CSV and Markdown are its table, with both links; JSON adds it beside A's report.
  const csv = button("export-csv", "CSV", async (r) => {
    const compared = options.compared(r);
    const text = compared ? await compared.csv() : csvOf(r, options.link(r));
    download(new Blob([text], { type: "text/csv" }), fileName(r, "csv", new Date(), compared ? "compare" : undefined));
  });
  const json = button("export-json", "JSON", (r) =>
    download(new Blob([jsonOf(r, options.link(r), new Date(), options.compared(r))], { type: "application/json" }), fileName(r, "json", new Date())),
  );
  const md = button("export-md", "Markdown table", async (r) => {
    const compared = options.compared(r);
    const text = compared ? await compared.markdown() : markdownOf(r, options.link(r), options.labelOf(r));
    download(new Blob([text], { type: "text/markdown" }), fileName(r, "md", new Date(), compared ? "compare" : undefined));
  });
  const pngs = h("span", { class: "export-pngs" });
  replaceChildren(
    container,
    h("div", { class: "share-row" }, h("span", { class: "share-label" }, "Export"), csv, json, md, status),
    h("div", { class: "share-row" }, h("span", { class: "share-label" }, "Charts"), pngs),
  );

  const all = [csv, json, md];
  const setEnabled = (): void => {
    for (const b of all) b.disabled = report === null;
  };
  setEnabled();

  return {
    update(next) {
      report = next;
      setEnabled();
      // One PNG button per chart of the lab on screen, named after the chart.
      const charts = next ? options.charts() : [];
      replaceChildren(
        pngs,
        ...charts.map(({ title, canvas }, i) =>
          button(`export-png-${i}`, `${title} (PNG)`, (r) =>
            chartPng(canvas, { title, settings: settingsInWords(r.params), link: options.link(r), compared: comparedLine(options.compared(r)) }).then((blob) =>
              download(blob, fileName(r, "png", new Date(), title)),
            ),
          ),
        ),
      );
    },
  };
}
