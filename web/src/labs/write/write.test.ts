// The write lab's words and link handling, against the real engine (`npm run wasm`'s builds,
// loaded with initSync as the page loads it): a quick run gives a real
// WriteReport, so the sentences are checked against real shapes and counts.

import { beforeAll, describe, expect, it } from "vitest";
import type { Codec } from "../../engine/codec";
import { realCodec, realQuickRun } from "../../engine/real-engine";
import { isWriteReport, sampleCount } from "../../engine/report";
import type { Params, WriteReport } from "../../engine/types.gen";
import { fitNames, twoLines } from "./charts";
import { rankCursors, summarizeWrite } from "./results";
import { seekableText, writeZeroMessage } from "./tables/words";

let codec: Codec;
beforeAll(() => {
  codec = realCodec();
});

const labelOf = (id: string): string => codec.schema.flavours.find((f) => f.id === id)?.label ?? id;

function run(fragment: string): WriteReport {
  const report = realQuickRun(fragment);
  if (!isWriteReport(report)) throw new Error("expected a write report");
  return report;
}

describe("the write lab's schema and links", () => {
  it("lists both labs and the write-cursor article's seven cursors with their qualities", () => {
    const { labs, flavours, defaults, limits } = codec.schema;
    expect(labs.map((l) => l.id)).toEqual(["read", "write"]);
    expect(flavours.map((f) => f.label)).toEqual([
      "Cursor<Vec<u8>>",
      "Cursor<&mut Vec<u8>>",
      "WriterVec",
      "BytesMut",
      "Cursor<&mut [u8]>",
      "Cursor<Box<[u8]>>",
      "&mut [u8]",
    ]);
    expect(flavours.filter((f) => f.refcounted).map((f) => f.id)).toEqual(["bytes_mut"]);
    expect(flavours.map((f) => seekableText(f.seekable))).toContain("by index");
    expect(defaults.lab).toBe("read");
    expect(defaults.write).toMatchObject({ records: 2048, init_cap: 32768, buf: 32768, ws: 16 });
    expect(limits.init_cap.min).toBe(0);
  });

  it("lab=write round-trips with every write key, and a read link has none", () => {
    expect(codec.encodeLink(codec.schema.defaults)).not.toContain("lab=");
    const params: Params = {
      ...codec.schema.defaults,
      lab: "write",
      write: { ...codec.schema.defaults.write, init_cap: 0, flavours: ["mut_slice", "bytes_mut"], sink: { kind: "fixed", size: 100 } },
    };
    const fragment = codec.encodeLink(params);
    expect(fragment).toContain("&lab=write&");
    expect(fragment).toContain("wf=mut_slice,bytes_mut");
    const decoded = codec.decodeLink(fragment);
    expect(decoded.notices).toEqual([]);
    expect(decoded.params).toEqual(params);
  });
});

describe("the write lab's sentences", () => {
  it("summarizes the fastest and slowest cursor and BufWriter's saving", () => {
    const report = run("lab=write&recs=64&wlen=64K");
    expect(report.lab).toBe("write");
    expect(sampleCount(report)).toBe(1);
    // A quick estimate claims no time; its counts are exact.
    const quick = summarizeWrite(report, labelOf, codec);
    expect(quick).not.toContain("fastest");
    expect(quick).toBe("BufWriter made 512× fewer sink writes than direct writes (8 vs 4,096).");
    // A full measurement whose samples separate names the fastest cursor; one whose samples overlap does not.
    const timed = (lo: number, hi: number) => ({ min: lo, median: (lo + hi) / 2, max: hi, mad: 0, samples: 5, batch: 1, outliers: 0 });
    const full = (spreads: [number, number][]): typeof report => ({
      ...report,
      stage: "full",
      flavours: report.flavours.map((f, i) => ({ ...f, cpu_ns: timed(...(spreads[i] ?? [5, 6])) })),
    });
    const apart = summarizeWrite(full([[1, 2], [5, 6], [5, 6], [5, 6], [5, 6], [5, 6], [10, 14]]), labelOf, codec);
    // The ratio is the range the samples support: 10 / 2 to 14 / 1.
    expect(apart).toMatch(/^Cursor<Vec<u8>> serialized the records fastest \(1\.50 ns\), 5\.0–14× faster than &mut \[u8\] \(12\.0 ns\)\./);
    expect(apart).toContain("BufWriter made 512× fewer sink writes than direct writes (8 vs 4,096):");
    const close = summarizeWrite(full([[5, 7], [5, 6], [5, 6], [5, 6], [5, 6], [5, 6], [6, 7.5]]), labelOf, codec);
    expect(close).toContain("in the same time within the noise of the samples");
  });

  it("names cursors within noise of each other together, in the same order whichever median is smaller", () => {
    const report = run("lab=write&recs=64&wlen=64K");
    const stats = (min: number, median: number, max: number) => ({ min, median, max, mad: 0, samples: 5, batch: 1, outliers: 0 });
    const full = (spreads: [number, number, number][]): WriteReport => ({
      ...report,
      stage: "full",
      flavours: report.flavours.map((f, i) => ({ ...f, cpu_ns: stats(...spreads[i]!) })),
    });
    // WriterVec and BytesMut overlap at the fast end; Cursor<&mut [u8]> and
    // Cursor<Box<[u8]>> at the slow end, 35.3 against 35.4 µs, then 35.4 against 35.3.
    const mid: [number, number, number] = [9e3, 10e3, 11e3];
    const slowPair = (a: number, b: number): [number, number, number][] => [[a - 300, a, a + 300], [b - 300, b, b + 300]];
    const one = full([mid, mid, [1.1e3, 1.2e3, 1.3e3], [1.15e3, 1.25e3, 1.35e3], ...slowPair(35.3e3, 35.4e3), mid]);
    const other = full([mid, mid, [1.15e3, 1.25e3, 1.35e3], [1.1e3, 1.2e3, 1.3e3], ...slowPair(35.4e3, 35.3e3), mid]);
    const sentence = (r: WriteReport) => summarizeWrite(r, labelOf, codec).split(" BufWriter")[0];
    expect(sentence(one)).toBe(
      "WriterVec and BytesMut serialized the records fastest, within noise of each other (1.20 µs and 1.25 µs), 27–32× faster (the quickest against the slowest) than Cursor<&mut [u8]> and Cursor<Box<[u8]>>, within noise of each other (35.3 µs and 35.4 µs).",
    );
    expect(sentence(other)).toBe(
      "WriterVec and BytesMut serialized the records fastest, within noise of each other (1.25 µs and 1.20 µs), 27–32× faster (the quickest against the slowest) than Cursor<&mut [u8]> and Cursor<Box<[u8]>>, within noise of each other (35.4 µs and 35.3 µs).",
    );
    expect(rankCursors(one, codec.verdict).fastest.map((f) => f.flavour)).toEqual(["writer_vec", "bytes_mut"]);
  });

  it("never names a fastest cursor when the spreads overlap, however far apart the medians", () => {
    // Each median lies outside the other's spread, but the spreads overlap: a
    // rule that compared medians (or a median with the other's min or max)
    // would name a fastest cursor, "8.0× faster".
    const report = run("lab=write&recs=64&wlen=64K");
    const stats = (min: number, median: number, max: number) => ({ min, median, max, mad: 0, samples: 5, batch: 1, outliers: 0 });
    const flavours = report.flavours.map((f, i) => ({ ...f, cpu_ns: i === 0 ? stats(1e3, 1.5e3, 9e3) : stats(8e3, 12e3, 13e3) }));
    const overlapping: WriteReport = { ...report, stage: "full", flavours };
    expect(codec.verdict(flavours[0]!.cpu_ns, flavours[1]!.cpu_ns)).toBe("same");
    expect(rankCursors(overlapping, codec.verdict).fastest).toEqual([]);
    expect(summarizeWrite(overlapping, labelOf, codec)).toMatch(/^The cursors serialized the records in the same time within the noise of the samples \(1\.50 µs to 12\.0 µs\)\./);
  });

  it("leads with the reallocations when cursors grew by them, the cursors lesson's point", () => {
    const grown = summarizeWrite(run("lab=write&icap=0"), labelOf, codec);
    expect(grown).toMatch(/^4 cursors reallocated 12 times each while they grew; the other 3 never did\./);
    expect(grown).not.toContain("BufWriter");
    expect(summarizeWrite(run("lab=write&icap=0&wf=cursor_vec"), labelOf, codec)).toMatch(/^Cursor<Vec<u8>> reallocated 12 times while it grew\./);
    // Started at the size they need, none reallocates, and nothing is said.
    expect(summarizeWrite(run("lab=write"), labelOf, codec)).not.toContain("realloc");
  });

  it("explains a too-small fixed buffer and what to change", () => {
    const report = run("lab=write&buf=1K");
    const message = writeZeroMessage(report, codec, labelOf);
    expect(message).toContain("Cursor<&mut [u8]>, Cursor<Box<[u8]>>, &mut [u8] stopped");
    expect(message).toContain("the fixed buffer (1 KiB) is smaller than the 32 KiB the records need");
    expect(message).toContain("“failed to write whole buffer”");
    expect(message).toContain("at least 32 KiB");
    expect(summarizeWrite(report, labelOf, codec)).toContain("3 fixed cursors stopped with WriteZero.");
    expect(writeZeroMessage(run("lab=write&recs=16"), codec, labelOf)).toBe("");
  });

  it("breaks long type names into two chart lines", () => {
    expect(twoLines("Cursor<&mut Vec<u8>>")).toEqual(["Cursor<", "&mut Vec<u8>>"]);
    expect(twoLines("WriterVec")).toBe("WriterVec");
    expect(twoLines("&mut [u8]")).toBe("&mut [u8]");
  });

  it("puts the cursor names on two lines where the longest would take more than a third of the chart and a row has room", () => {
    const names = ["WriterVec", "Cursor<&mut Vec<u8>>"];
    // 20 characters at 12 px take about 144 px: one line in a 600 px chart, two in a 390 px phone's 46 px rows.
    expect(fitNames(names, 600, 12, 46)).toEqual(names);
    expect(fitNames(names, 390, 12, 46)).toEqual(["WriterVec", ["Cursor<", "&mut Vec<u8>>"]]);
    // Presenter mode at 1280 px: 16 px type (about 192 px) in a 470 px chart, but 36 px rows hold one line only.
    expect(fitNames(names, 470, 16, 36)).toEqual(names);
  });
});
