// Export: the current results as CSV (the settings and the link in leading
// comment lines), as JSON (the report exactly as the engine returned it,
// with the link that reproduces it), the results table as Markdown, and each
// chart as a PNG at twice its size with its title, settings and link drawn
// in. It owns the element it is given.
//
// The formatting is in pure functions (csvOf, markdownOf, jsonOf; unit tests
// in export.test.ts run them on real engine reports). Downloads go through a
// Blob, an object URL and a temporary <a download>; nothing is uploaded.

import { isWriteReport } from "../engine/report";
import type { LabReport, Report, WriteReport } from "../engine/types.gen";
import { formatCount, formatNs } from "../shared/format";
import { h, replaceChildren, setText } from "../shared/dom";
import { chartPng, csvComments, csvLines, download, exportName, settingsLine, type Cell } from "../shared/export-kit";

// ---------------------------------------------------------------- pure formatting

/** The read lab's CSV columns: the report's own field names, exact numbers. */
export const READ_CSV_HEADER = [
  "reader",
  "source_reads",
  "app_reads",
  "bytes",
  "bytes_copied",
  "allocations",
  "frees",
  "alloc_bytes",
  "peak_bytes",
  "reallocs",
  "cpu_median_ns",
  "cpu_min_ns",
  "cpu_max_ns",
  "cpu_mad_ns",
  "samples",
  "modelled_io_ns",
  "modelled_total_ns",
  "blocks_allocated",
  "blocks_reused",
  "digest",
];

/** The write lab's CSV columns: one row per cursor flavour, then one per sink mode. */
export const WRITE_CSV_HEADER = [
  "part",
  "name",
  "bytes",
  "allocations",
  "reallocs",
  "alloc_bytes",
  "peak_bytes",
  "cpu_median_ns",
  "cpu_min_ns",
  "cpu_max_ns",
  "app_writes",
  "sink_writes",
  "bytes_copied",
  "modelled_io_ns",
  "error",
  "digest",
];

/**
 * The report as CSV: one row per reader (read lab) or per cursor and sink
 * mode (write lab), after comment lines with the settings and `link`.
 */
export function csvOf(report: LabReport, link: string): string {
  const what = `BufLab ${isWriteReport(report) ? "write" : "read"} lab${report.quick ? " (quick estimate: one short sample)" : ""}`;
  const comments = csvComments(what, report.link, link);
  if (isWriteReport(report)) return writeCsv(report, comments);
  const rows = report.runs.map((r): Cell[] => [
    r.reader,
    r.source_reads,
    r.app_reads,
    r.bytes,
    r.bytes_copied,
    r.allocations,
    r.frees,
    r.alloc_bytes,
    r.peak_bytes,
    r.reallocs,
    r.cpu_ns.median,
    r.cpu_ns.min,
    r.cpu_ns.max,
    r.cpu_ns.mad,
    r.cpu_ns.samples,
    r.modelled_io_ns,
    r.cpu_ns.median + r.modelled_io_ns,
    r.blocks?.allocated,
    r.blocks?.reused,
    r.digest,
  ]);
  return csvLines(comments, READ_CSV_HEADER, rows);
}

function writeCsv(report: WriteReport, comments: string[]): string {
  const rows: Cell[][] = [
    ...report.flavours.map((f): Cell[] => [
      "cursor",
      f.flavour,
      f.bytes,
      f.allocations,
      f.reallocs,
      f.alloc_bytes,
      f.peak_bytes,
      f.cpu_ns?.median,
      f.cpu_ns?.min,
      f.cpu_ns?.max,
      null,
      null,
      null,
      null,
      f.error ? `${f.error.kind}: ${f.error.message}` : null,
      f.digest,
    ]),
    ...report.sink.map((s): Cell[] => [
      "sink",
      s.mode,
      s.bytes,
      s.allocations,
      s.reallocs,
      s.alloc_bytes,
      s.peak_bytes,
      s.cpu_ns.median,
      s.cpu_ns.min,
      s.cpu_ns.max,
      s.app_writes,
      s.sink_writes,
      s.bytes_copied,
      s.modelled_io_ns,
      null,
      s.digest,
    ]),
  ];
  return csvLines(comments, WRITE_CSV_HEADER, rows);
}

/** The report exactly as the engine returned it, with the link that reproduces it. */
export function jsonOf(report: LabReport, link: string, exportedAt: Date): string {
  return JSON.stringify({ link, exported_at: exportedAt.toISOString(), report }, null, 2) + "\n";
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

function readMarkdown(report: Report, labelOf: (id: string) => string): string {
  const header = ["Reader", "Source reads", "App reads", "Bytes copied", "Allocations", "Peak heap (B)", "CPU time (median)", "I/O (modelled)", "Total (modelled)", "Digest"];
  const numeric = [false, true, true, true, true, true, true, true, true, false];
  const rows = report.runs.map((r) => [
    labelOf(r.reader),
    formatCount(r.source_reads),
    formatCount(r.app_reads),
    formatCount(r.bytes_copied),
    formatCount(r.allocations),
    formatCount(r.peak_bytes),
    formatNs(r.cpu_ns.median),
    formatNs(r.modelled_io_ns),
    formatNs(r.cpu_ns.median + r.modelled_io_ns),
    `\`${r.digest}\``,
  ]);
  const agree = report.runs.every((r) => r.digest === report.source_digest);
  const check = agree
    ? `Correct: every reader delivered exactly the stream's bytes (digest \`${report.source_digest}\`).`
    : `Digests differ from the stream's (\`${report.source_digest}\`): a bug in the engine.`;
  return `${mdTable(header, numeric, rows)}\n\n${check}\nI/O time is modelled (source reads × ${formatCount(report.params.sys)} ns), not measured.`;
}

function writeMarkdown(report: WriteReport, labelOf: (id: string) => string): string {
  const cursors = mdTable(
    ["Cursor", "Bytes", "Allocations", "Reallocs", "CPU time (median)", "Result"],
    [false, true, true, true, true, false],
    report.flavours.map((f) => [
      labelOf(f.flavour),
      formatCount(f.bytes),
      formatCount(f.allocations),
      formatCount(f.reallocs),
      f.cpu_ns ? formatNs(f.cpu_ns.median) : "–",
      f.error ? `${f.error.kind}` : f.digest === report.reference_digest ? "identical bytes" : "bytes differ",
    ]),
  );
  const sink = mdTable(
    ["Sink", "App writes", "Sink writes", "Bytes copied", "CPU time (median)", "I/O (modelled)"],
    [false, true, true, true, true, true],
    report.sink.map((s) => [
      s.mode === "bufwriter" ? "std BufWriter" : "direct writes",
      formatCount(s.app_writes),
      formatCount(s.sink_writes),
      formatCount(s.bytes_copied),
      formatNs(s.cpu_ns.median),
      formatNs(s.modelled_io_ns),
    ]),
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

export interface ExportOptions {
  /** The full URL that reproduces a report. */
  link(report: LabReport): string;
  labelOf(report: LabReport): (id: string) => string;
  /** The charts of the lab on screen, each with its title. */
  charts(): { title: string; canvas: HTMLCanvasElement }[];
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
        (error: unknown) => setText(status, `${name} failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    });
    return b;
  };
  const csv = button("export-csv", "CSV", (r) => download(new Blob([csvOf(r, options.link(r))], { type: "text/csv" }), fileName(r, "csv", new Date())));
  const json = button("export-json", "JSON", (r) =>
    download(new Blob([jsonOf(r, options.link(r), new Date())], { type: "application/json" }), fileName(r, "json", new Date())),
  );
  const md = button("export-md", "Markdown table", (r) =>
    download(new Blob([markdownOf(r, options.link(r), options.labelOf(r))], { type: "text/markdown" }), fileName(r, "md", new Date())),
  );
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
            chartPng(canvas, { title, settings: settingsLine(r.link), link: options.link(r) }).then((blob) =>
              download(blob, fileName(r, "png", new Date(), title)),
            ),
          ),
        ),
      );
    },
  };
}
