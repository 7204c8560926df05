// Export formats and baseline arithmetic on real engine reports (`npm run wasm`'s builds,
// loaded with initSync): a quick run gives real counts, so the CSV, Markdown
// and JSON are checked against what the engine really returns.

import { beforeAll, describe, expect, it } from "vitest";
import type { Codec } from "../engine/codec";
import { isWriteReport } from "../engine/report";
import type { Compared, Report, WriteReport } from "../engine/types.gen";
import { realCodec, realPairResults, realQuickRun } from "../engine/real-engine";
import { MAX_BASELINES, parseStored, settingDifferences, withSaved, type Baseline } from "./baseline";
import { csvField, exactNumber } from "../shared/export-kit";
import { settingsInWords } from "../shared/settings-words";
import { READ_CSV_HEADER, WRITE_CSV_HEADER, comparedLine, csvOf, fileName, jsonOf, markdownOf, mdCell } from "./export";

let codec: Codec;
beforeAll(() => {
  codec = realCodec();
});

const run = realQuickRun;

function readRun(fragment: string): Report {
  const report = run(fragment);
  if (isWriteReport(report)) throw new Error("expected a read report");
  return report;
}

const labelOf = (id: string): string => codec.schema.readers.find((r) => r.id === id)?.label ?? id;

const LINK_URL = "https://example.org/buflab/#v=1&len=64K";

/** The CSV's leading `# ` comment lines, and the rest. */
function splitComments(text: string): { comments: string[]; body: string } {
  const lines = text.split("\r\n");
  const comments = lines.filter((l) => l.startsWith("# ")).map((l) => l.slice(2));
  return { comments, body: lines.slice(comments.length).join("\r\n") };
}

/** A minimal CSV reader for the tests: RFC 4180 quoting, after the comment lines. */
function parseCsv(text: string): string[][] {
  return parseCsvBody(splitComments(text).body);
}

function parseCsvBody(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n") {
      row.push(field.replace(/\r$/, ""));
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  return rows;
}

describe("CSV", () => {
  it("has the header and one row per reader with the report's exact numbers", () => {
    const report = readRun("len=64K&chunk=poor&cap=4K&rs=1&rd=unbuffered,std,chained&wl=fixed");
    const rows = parseCsv(csvOf(report, LINK_URL));
    expect(rows[0]).toEqual(READ_CSV_HEADER);
    expect(rows.length).toBe(1 + 3);
    const col = (name: string): number => READ_CSV_HEADER.indexOf(name);
    report.runs.forEach((r, i) => {
      const row = rows[i + 1]!;
      expect(row[col("reader")]).toBe(r.reader);
      expect(Number(row[col("source_reads")])).toBe(r.source_reads);
      expect(Number(row[col("bytes_copied")])).toBe(r.bytes_copied);
      expect(Number(row[col("allocations")])).toBe(r.allocations);
      // Times to a tenth of a nanosecond: no float noise such as 249399.9999947834.
      expect(row[col("cpu_median_ns")]).toMatch(/^\d+(\.\d)?$/);
      expect(Math.abs(Number(row[col("cpu_median_ns")]) - r.cpu_ns.median)).toBeLessThanOrEqual(0.05);
      expect(row[col("digest")]).toBe(report.source_digest);
    });
    // 1-byte reads: the unbuffered reader's source reads are the bytes plus the final 0.
    expect(Number(rows[1]![col("source_reads")])).toBe(64 * 1024 + 1);
    // Pool blocks only for the chained reader.
    expect(rows[1]![col("blocks_allocated")]).toBe("");
    expect(Number(rows[3]![col("blocks_allocated")])).toBeGreaterThan(0);
  });

  it("starts with the lab, the settings in words and the link, as comment lines", () => {
    const report = readRun("len=64K&chunk=poor&cap=4K&rs=1&rd=unbuffered,std&wl=fixed");
    const { comments } = splitComments(csvOf(report, LINK_URL));
    expect(comments[0]).toBe("BufLab read lab (quick estimate: one short sample)");
    expect(comments[1]).toBe(`settings: ${settingsInWords(report.params)}`);
    expect(comments[1]).toContain("Chunking: poor network, 64–512 bytes per read");
    expect(comments[1]).toContain("Buffer capacity: 4 KiB; Read size: 1 byte");
    expect(comments[1]).not.toMatch(/\b(len|cap|rs|v)=/);
    expect(comments[2]).toBe(`link: ${LINK_URL}`);
  });

  it("writes measured numbers without float noise and counts exactly", () => {
    expect(exactNumber(249399.9999947834)).toBe(249400);
    expect(exactNumber(0.30000000000000004)).toBe(0.3);
    expect(exactNumber(1048577)).toBe(1048577);
    expect(exactNumber("std")).toBe("std");
    expect(String(exactNumber(12.345678))).toBe("12.3");
  });

  it("quotes fields with commas, quotes and line breaks", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(null)).toBe("");
    expect(csvField(0)).toBe("0");
  });

  it("gives the write lab one row per cursor flavour and per sink mode", () => {
    const report = run("lab=write&recs=64&buf=512&wlen=64K") as WriteReport;
    const rows = parseCsv(csvOf(report, LINK_URL));
    expect(rows[0]).toEqual(WRITE_CSV_HEADER);
    expect(rows.length).toBe(1 + report.flavours.length + 2);
    expect(rows.slice(1).map((r) => r[1])).toEqual([...report.flavours.map((f) => f.flavour), "direct", "bufwriter"]);
    // recs=64 is 1 KiB of records: the 512-byte fixed buffers stop with WriteZero, and the CSV says so.
    const error = WRITE_CSV_HEADER.indexOf("error");
    expect(rows.find((r) => r[1] === "mut_slice")?.[error]).toMatch(/^WriteZero: /);
    const sinkWrites = WRITE_CSV_HEADER.indexOf("sink_writes");
    expect(Number(rows.at(-1)![sinkWrites])).toBe(report.sink[1]!.sink_writes);
  });
});

describe("JSON", () => {
  it("is the report exactly as the engine returned it, with the link", () => {
    const report = readRun("len=16K&rd=unbuffered,std");
    const link = `http://example.org/#${report.link}`;
    const parsed = JSON.parse(jsonOf(report, link, new Date("2026-01-02T03:04:05Z"))) as { link: string; exported_at: string; report: Report };
    expect(parsed.link).toBe(link);
    expect(parsed.exported_at).toBe("2026-01-02T03:04:05.000Z");
    expect(parsed.report).toEqual(report);
    expect(parsed.report.runs.map((r) => r.reader)).toEqual(["unbuffered", "std"]);
  });

  it("with a comparison on screen carries both links and the comparison, and still opens as one result", () => {
    const a = readRun("len=16K&rd=std&cap=1K");
    const b = readRun("len=16K&rd=std&cap=8K");
    const at = new Date("2026-01-02T03:04:05Z");
    const comparison = realPairResults(jsonOf(a, a.link, at), jsonOf(b, b.link, at));
    const url = (link: string): string => `http://example.org/#${link}`;
    const compared = { a: url(a.link), b: url(b.link), both: url(`${a.link}&b.cap=8K`), comparison, csv: () => Promise.resolve(""), markdown: () => Promise.resolve("") };
    const text = jsonOf(a, url(a.link), at, compared);
    const parsed = JSON.parse(text) as { report: Report; compared: { link: string; a_link: string; b_link: string; comparison: typeof comparison } };
    expect(parsed.report).toEqual(a);
    expect([parsed.compared.link, parsed.compared.a_link, parsed.compared.b_link]).toEqual([compared.both, compared.a, compared.b]);
    expect(parsed.compared.comparison.changed).toEqual(comparison.changed);
    // The file is still one result: it opens as B against another.
    expect(realPairResults(text, jsonOf(b, b.link, at)).a.link).toBe(a.link);
    expect(comparedLine(compared)).toContain(compared.both);
    expect(comparedLine({ ...compared, both: null })).toContain(compared.b);
    expect(comparedLine(null)).toBeUndefined();
  });
});

describe("Markdown", () => {
  it("is a table with one row per reader, the link and the correctness check", () => {
    const report = readRun("len=64K&rd=unbuffered,std&cap=8K&rs=1");
    const md = markdownOf(report, `https://x.test/#${report.link}`, labelOf);
    const lines = md.split("\n");
    expect(lines[0]).toContain(`<https://x.test/#${report.link}>`);
    const table = lines.filter((l) => l.startsWith("|"));
    expect(table[0]).toMatch(/^\| Reader \| Source reads \|/);
    expect(table[1]).toMatch(/^\| --- \| ---: \|/);
    expect(table.length).toBe(2 + 2);
    expect(table[2]).toContain("| unbuffered Read | 65,537 |");
    expect(table[3]).toContain(`| std BufReader | ${report.runs[1]!.source_reads.toLocaleString("en-US")} |`);
    expect(md).toContain("Correct: every reader delivered exactly the stream's bytes");
    expect(md).toContain("modelled");
  });

  it("escapes pipes so a cell cannot break the table", () => {
    expect(mdCell("a|b")).toBe("a\\|b");
    expect(mdCell("x\ny")).toBe("x y");
  });

  it("covers the write lab's cursors and sink", () => {
    const report = run("lab=write&recs=64&wlen=64K") as WriteReport;
    const md = markdownOf(report, "link", (id) => id);
    expect(md).toContain("| Cursor | Bytes (B) |");
    expect(md).toContain("| cursor_vec | 1,024 |");
    expect(md).toContain("| std BufWriter |");
  });

  it("names files after the lab, chart and time", () => {
    const report = readRun("len=16K");
    const at = new Date("2026-01-02T03:04:05Z");
    expect(fileName(report, "csv", at)).toBe("buflab-read-2026-01-02T03-04-05.csv");
    expect(fileName(report, "png", at, "Time per run")).toBe("buflab-read-time-per-run-2026-01-02T03-04-05.png");
  });
});

describe("baselines", () => {
  const entry = (report: Report, saved = "2026-01-01T00:00:00.000Z"): Baseline => ({ saved, link: report.link, report });

  /** "Compare with this": the baseline (A) paired with the run on screen (B) by the engine, as the page pairs them (intents.compareSaved). */
  const paired = (baseline: Report, current: Report) => realPairResults(JSON.stringify(baseline), JSON.stringify(current));
  const row = (baseline: Report, current: Report, reader: string, metric: string): Compared =>
    paired(baseline, current).readers.find((r) => r.a === reader && r.b === reader)!.metrics.find((m) => m.metric === metric)!;

  it("compares matching readers metric by metric, with ratios, in the engine's pairing", () => {
    const baseline = readRun("len=64K&chunk=poor&cap=1K&rs=1&rd=unbuffered,std");
    const current = readRun("len=64K&chunk=poor&cap=16K&rs=1&rd=std,chained");
    const comparison = paired(baseline, current);
    // In A's order: std with std, and the readers left over on each side with each other.
    expect(comparison.readers.map((r) => [r.a, r.b])).toEqual([
      ["unbuffered", "chained"],
      ["std", "std"],
    ]);
    const reads = row(baseline, current, "std", "source_reads");
    expect([reads.a, reads.b]).toEqual([baseline.runs[1]!.source_reads, current.runs[0]!.source_reads]);
    expect(reads.ratio).toBeCloseTo(current.runs[0]!.source_reads / baseline.runs[1]!.source_reads, 12);
    // A bigger buffer than the largest chunk (512 B): the same source reads, more peak heap.
    expect(reads.outcome).toBe("tie");
    expect(row(baseline, current, "std", "peak_bytes").outcome).toBe("more");
    // A quick run's one sample a side bounds nothing: its time is the same within noise, never faster or slower.
    expect(row(baseline, current, "std", "cpu_median_ns").outcome).toBe("same");
    // The settings differ in cap and readers, said in words; presenter mode and a lesson never count.
    const display = (link: string) => codec.experimentPairs(link);
    expect(settingDifferences(current, baseline, display)).toEqual([
      "buffer capacity 1 KiB → 16 KiB",
      "readers unbuffered Read and std BufReader → std BufReader and chained zero-copy",
    ]);
    const presenting = { link: `${current.link}&present=on&lesson=one-byte`, params: { ...current.params, present: true, lesson: "one-byte" as const } };
    expect(settingDifferences(presenting, current, display)).toEqual([]);
  });

  it("says a difference as the links have it where there are no words for it", () => {
    const current = readRun("len=64K&chunk=poor&cap=16K&rs=1&rd=std,chained");
    const display = (link: string) => codec.experimentPairs(link);
    // A key the engine has no setting for, beside one it has.
    expect(settingDifferences({ link: `${current.link}&zz=1`, params: current.params }, { link: current.link.replace("sys=150", "sys=300"), params: { ...current.params, sys: 300 } }, display)).toEqual([
      "cost per source read 300 ns (modelled) → 150 ns (modelled)",
      "zz (default) → 1",
    ]);
    // Two values said alike (no NUL inside a 64 KiB stream either way) are said as the links have them.
    const nul = (text: string, n: number) => ({ link: `${current.link}&nul=${text}`, params: { ...current.params, nul: n } });
    expect(settingDifferences(nul("4M", 4 << 20), nul("2M", 2 << 20), display)).toEqual(["nul 2M → 4M"]);
  });

  it("says a sweep's change once, in words, though its link has three keys", () => {
    const current = readRun("len=64K&chunk=poor&cap=1K&rs=1&rd=std");
    const swept = { link: `${current.link}&sweep=cap&from=16&to=64K`, params: { ...current.params, sweep: { axis: "cap" as const, from: 16, to: 65536 } } };
    expect(settingDifferences(swept, current, (link) => codec.experimentPairs(link))).toEqual(["sweep none → buffer capacity from 16 bytes to 64 KiB"]);
  });

  it("says a setting the current run no longer has: a key only on the baseline's side (its sweep, say) counts too", () => {
    const current = readRun("len=64K&chunk=poor&cap=1K&rs=1&rd=std");
    const swept = { link: `${current.link}&sweep=cap&from=16&to=64K`, params: { ...current.params, sweep: { axis: "cap" as const, from: 16, to: 65536 } } };
    // The baseline swept; the current run does not: the hand-written words of that change, the other way round.
    expect(settingDifferences(current, swept, (link) => codec.experimentPairs(link))).toEqual(["sweep buffer capacity from 16 bytes to 64 KiB → none"]);
    // A key without words, only on the baseline's side.
    expect(settingDifferences(current, { link: `${current.link}&zz=1`, params: current.params }, (link) => codec.experimentPairs(link))).toEqual(["zz 1 → (default)"]);
  });

  /** `r` with every run's CPU samples set: five a side, median and MAD as given. */
  const withCpu = (r: Report, lo: number, hi: number): Report => ({
    ...r,
    runs: r.runs.map((run) => ({ ...run, cpu_ns: { ...run.cpu_ns, min: lo, median: (lo + hi) / 2, max: hi, mad: (hi - lo) / 4, samples: 5 } })),
  });

  it("finds nothing more, less, faster or slower between two identical runs, the total time included", () => {
    const report = withCpu(readRun("len=64K&chunk=poor&cap=1K&rs=1&rd=unbuffered,std"), 100, 110);
    // Modelled I/O far larger than the measured spread: a total time that dropped it would set the two runs apart.
    expect(report.runs.every((r) => r.modelled_io_ns > 1000)).toBe(true);
    const comparison = paired(report, structuredClone(report));
    const called = comparison.readers.flatMap((r) => r.metrics.filter((m) => !["tie", "same"].includes(m.outcome)).map((m) => `${r.a} ${m.metric} ${m.outcome}`));
    expect(called).toEqual([]);
    expect(comparison.readers.every((r) => r.metrics.some((m) => m.metric === "modelled_total_ns" && m.outcome === "same"))).toBe(true);
  });

  it("calls a time faster or slower only beyond the noise two runs taken at different times allow", () => {
    const base = readRun("len=64K&chunk=poor&cap=1K&rs=1&rd=std");
    const cpu = (a: Report, b: Report) => row(a, b, "std", "cpu_median_ns");
    // 1.02×, overlapping: the same within noise; its spreads say what they are.
    expect(cpu(withCpu(base, 98, 108), withCpu(base, 100, 110))).toMatchObject({ outcome: "same", a_spread: { kind: "mad" }, ratio_spread: { kind: "ratio_range" } });
    // Twice as slow, samples apart, but measured minutes apart: still within what another time allows.
    expect(cpu(withCpu(base, 98, 108), withCpu(base, 200, 210)).outcome).toBe("same");
    expect(cpu(withCpu(base, 98, 108), withCpu(base, 1000, 1010)).outcome).toBe("slower");
    expect(cpu(withCpu(base, 1000, 1010), withCpu(base, 98, 108)).outcome).toBe("faster");
  });

  it("survives corrupt or foreign storage with a notice, and keeps a bounded list", () => {
    expect(parseStored(null)).toEqual({ baselines: [], problem: null });
    expect(parseStored("{not json").problem).toMatch(/not valid JSON/);
    expect(parseStored('{"a":1}').problem).toMatch(/unknown format/);
    const report = readRun("len=16K");
    const good = entry(report);
    const mixed = parseStored(JSON.stringify([good, { saved: 1 }, { saved: "x", link: "y", report: { runs: [{ reader: 3 }] } }]));
    expect(mixed.baselines).toEqual([good]);
    expect(mixed.problem).toBe("2 saved baselines had an unknown format and were dropped.");
    let list: Baseline[] = [];
    for (let i = 0; i < MAX_BASELINES + 3; i++) list = withSaved(list, entry(report, `2026-01-0${i + 1}T00:00:00.000Z`));
    expect(list.length).toBe(MAX_BASELINES);
    expect(list[0]!.saved).toBe(`2026-01-0${MAX_BASELINES + 3}T00:00:00.000Z`);
    // A stored list round-trips.
    expect(parseStored(JSON.stringify(list))).toEqual({ baselines: list, problem: null });
  });

  it("drops a stored entry that lacks any one field the panel reads, and says how many went", () => {
    const good = entry(readRun("len=16K"));
    const run0 = good.report.runs[0]!;
    const withRun = (run: unknown) => ({ ...good, report: { ...good.report, runs: [run0, run] } });
    const { cpu_ns: _cpu, ...noCpu } = run0;
    // Each broken in one place only: a check that let any one of these through fails here.
    const broken: unknown[] = [
      null,
      7,
      { ...good, saved: 1 },
      { ...good, link: null },
      { ...good, report: null },
      { ...good, report: "report" },
      { ...good, report: { ...good.report, runs: "runs" } },
      withRun(null),
      withRun("run"),
      withRun({ ...run0, reader: 1 }),
      withRun({ ...run0, source_reads: "1" }),
      withRun({ ...run0, bytes_copied: null }),
      withRun({ ...run0, allocations: undefined }),
      withRun({ ...run0, modelled_io_ns: "0" }),
      withRun({ ...run0, cpu_ns: { ...run0.cpu_ns, median: "5" } }),
      withRun(noCpu),
    ];
    for (const bad of broken) {
      expect(parseStored(JSON.stringify([good, bad])), JSON.stringify(bad).slice(0, 80)).toEqual({
        baselines: [good],
        problem: "1 saved baseline had an unknown format and was dropped.",
      });
    }
    // Nothing stored yet (an empty string) is no problem; text that is not a list keeps nothing.
    expect(parseStored("")).toEqual({ baselines: [], problem: null });
    expect(parseStored("{not json").baselines).toEqual([]);
    expect(parseStored('{"a":1}').baselines).toEqual([]);
    // A longer list than the panel keeps (stored by an older page, say) is cut to the newest.
    const long = Array.from({ length: MAX_BASELINES + 2 }, (_, i) => entry(good.report, `2026-02-0${i + 1}T00:00:00.000Z`));
    expect(parseStored(JSON.stringify(long))).toEqual({ baselines: long.slice(0, MAX_BASELINES), problem: null });
  });

  it("calls a count less when lower, more when higher, a tie when equal, and has no ratio over a zero baseline", () => {
    const base = readRun("len=64K&chunk=poor&cap=1K&rs=1&rd=std");
    const counts = (r: Report, reads: number, allocations: number): Report => ({
      ...r,
      runs: r.runs.map((run) => ({ ...run, source_reads: reads, allocations })),
    });
    expect(row(counts(base, 20, 1), counts(base, 10, 1), "std", "source_reads")).toMatchObject({ outcome: "less", ratio: 0.5 });
    expect(row(counts(base, 20, 1), counts(base, 30, 1), "std", "source_reads")).toMatchObject({ outcome: "more", ratio: 1.5 });
    expect(row(counts(base, 20, 1), counts(base, 20, 1), "std", "source_reads")).toMatchObject({ outcome: "tie", ratio: 1 });
    // A baseline of zero allocations: more now, and no ratio is given (not Infinity).
    expect(row(counts(base, 20, 0), counts(base, 20, 3), "std", "allocations")).toMatchObject({ outcome: "more", ratio: null });
  });
});

describe("the code panel's program", () => {
  it("comes from the engine and carries the link's cap and read size", () => {
    const { params } = codec.decodeLink("cap=32K&rs=16&rd=unbuffered,std");
    const code = codec.code(params);
    expect(code).toContain("const CAP: usize = 32768; // 32K, link key `cap`");
    expect(code).toContain("const RS: usize = 16; // link key `rs`");
    expect(code).toContain("BufReader::with_capacity(CAP, open()?)");
  });
});
