// A comparison's exports on a real Comparison (the engine pairs two real
// quick runs, as it pairs two result files): both links in CSV and
// Markdown, one CSV row per reader and metric with the exact counts.

import { beforeAll, describe, expect, it } from "vitest";
import type { Codec } from "../../../engine/codec";
import { realCodec, realPairResults, realQuickRun } from "../../../engine/real-engine";
import type { Comparison } from "../../../engine/types.gen";
import { COMPARISON_CSV_HEADER, comparisonCsv, comparisonMarkdown, type ComparedLinks } from "./compare-export";

let codec: Codec;
let comparison: Comparison;
const A = "v=1&len=64K&chunk=file&rs=1&cap=1K&rd=unbuffered,std";
const B = "v=1&len=64K&chunk=file&rs=1&cap=64K&rd=unbuffered,std";
const links: ComparedLinks = {
  a: `https://example.org/buflab/#${A}`,
  b: `https://example.org/buflab/#${B}`,
  both: `https://example.org/buflab/#${A}&b.cap=64K`,
};

beforeAll(() => {
  codec = realCodec();
  const file = (link: string): string => JSON.stringify({ link, exported_at: "2026-11-29T00:00:00Z", report: realQuickRun(link) });
  comparison = realPairResults(file(A), file(B));
});

const labelOf = (id: string): string => codec.schema.readers.find((r) => r.id === id)?.label ?? id;

describe("a comparison's exports", () => {
  it("CSV: both links in its comment lines, then one row per reader and metric with A's and B's exact counts", () => {
    const text = comparisonCsv(comparison, links);
    const lines = text.split("\r\n").filter((l) => l !== "");
    const comments = lines.filter((l) => l.startsWith("# "));
    expect(comments).toContain(`# link A: ${links.a}`);
    expect(comments).toContain(`# link B: ${links.b}`);
    expect(comments).toContain(`# link: ${links.both}`);
    expect(comments[0]).toContain("cap 1K → 64K");
    const [header, ...rows] = lines.slice(comments.length).map((l) => l.split(","));
    expect(header).toEqual(COMPARISON_CSV_HEADER);
    expect(rows.length).toBe(comparison.readers.reduce((n, r) => n + r.metrics.length, 0));
    const col = (name: string): number => COMPARISON_CSV_HEADER.indexOf(name);
    const stdReads = rows.find((r) => r[col("reader_a")] === "std" && r[col("metric")] === "source_reads")!;
    expect(Number(stdReads[col("a")])).toBe(comparison.a.runs.find((r) => r.reader === "std")!.source_reads);
    expect(Number(stdReads[col("b")])).toBe(comparison.b.runs.find((r) => r.reader === "std")!.source_reads);
    expect(stdReads[col("outcome")]).toBe("less");
  });

  it("CSV of a result file: A's and B's links, no comparison link", () => {
    const text = comparisonCsv(comparison, { ...links, both: null });
    expect(text).toContain(`# link: ${links.a}\r\n`);
    expect(text).toContain(`# link B: ${links.b}\r\n`);
  });

  it("Markdown: both links, what differs, a verdict per reader, the table with every outcome in words", () => {
    const md = comparisonMarkdown(comparison, links, labelOf);
    expect(md).toContain(`<${links.both}>`);
    expect(md).toContain(`- A: <${links.a}>`);
    expect(md).toContain(`- B: <${links.b}>`);
    expect(md).toContain("cap 1K → 64K");
    expect(md).toMatch(/\| Reader \| Metric \| A \| B \| B − A \| B ÷ A \| Says \|/);
    const rows = md.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Reader") && !l.startsWith("| ---"));
    expect(rows.length).toBe(comparison.readers.reduce((n, r) => n + r.metrics.length, 0));
    expect(md).toMatch(/\| less \|/);
  });
});
