// The timeline's words and sums against the real engine (`npm run wasm`'s builds, engine/real-engine.ts): a quick
// run gives real Report shapes, so the page's totals are checked against the
// run's own counts where the trace covers the whole run.

import { beforeAll, describe, expect, it } from "vitest";
import type { Codec } from "../../../engine/codec";
import { realCodec, realQuickRun } from "../../../engine/real-engine";
import { isWriteReport } from "../../../engine/report";
import type { Report } from "../../../engine/types.gen";
import { stepScene, wrapWords, type Shape } from "./scene";
import { fillSteps } from "../../../engine/report";
import { TIMELINE_START, bytesText } from "./start";
import { defaultReader, describeTrace, flowCards, refills, totalsAt, totalsText } from "./words";
import { bufferRows } from "./marks";

let codec: Codec;
beforeAll(() => {
  codec = realCodec();
});

function run(fragment: string): Report {
  const report = realQuickRun(fragment);
  if (isWriteReport(report)) throw new Error("expected a read report");
  return report;
}

describe("buffer timeline", () => {
  it("says where the unread bytes sit in the buffer with their unit", () => {
    const report = run("#v=1&len=1K&chunk=64-512&seed=9&cap=256&rs=16&rd=std&wl=fixed");
    const t = report.runs[0]!.timeline!;
    // The first read fills the buffer from its start and takes 16 bytes off its front.
    const first = t.ops[0]!;
    const span = first.buffer[0]!;
    const row = bufferRows(first, t).rows[0]!;
    expect(row.state).toBe(`${bytesText(span.end - span.start)} unread`);
    expect(row.at).toBe(`at bytes ${span.start}–${span.end}`);
    expect(span.start).toBe(16);
  });

  it("sums a complete trace to the run's own counts", () => {
    // 1 KiB in 16-byte reads: 64 reads (a few more where a chunk or the buffer ends short of 16)
    // and the final one that returns 0, within the 100 recorded.
    const report = run("#v=1&len=1K&chunk=64-512&seed=9&cap=256&rs=16&rd=unbuffered,std,chained&wl=fixed");
    for (const r of report.runs) {
      const t = r.timeline!;
      expect(t.truncated).toBe(false);
      expect(t.ops.length).toBeGreaterThanOrEqual(65);
      expect(t.ops.at(-1)!.returned).toBe(0);
      const sum = totalsAt(t.ops, t.ops.length - 1);
      expect(sum).toEqual({ calls: r.app_reads, reads: r.source_reads, copied: r.bytes_copied, bytes: r.bytes });
      expect(t.capacity).toBe(r.reader === "unbuffered" ? 0 : 256);
    }
  });

  it("starts on std, bounds long runs and says sizes exactly", () => {
    const report = run(codec.encodeLink(codec.decodeLink("").params));
    expect(defaultReader(report.runs)).toBe("std");
    expect(report.runs.every((r) => r.timeline!.ops.length === 100 && r.timeline!.truncated)).toBe(true);
    expect(defaultReader(report.runs.filter((r) => r.reader !== "std"))).toBe("unbuffered");
    expect([1, 300, 8192, 1048576, 1500].map(bytesText)).toEqual(["1 byte", "300 bytes", "8 KiB", "1 MiB", "1,500 bytes"]);
  });

  it("says where the buffer fills, drains and refills, or that it never refills in view", () => {
    // The page's defaults: an 8 KiB buffer drained a byte at a time never refills in 100 steps.
    const defaults = run(codec.encodeLink(codec.decodeLink("").params));
    const std = defaults.runs.find((r) => r.reader === "std")!.timeline!;
    expect(refills(std)).toBe(false);
    expect(describeTrace(std, "std BufReader")).toMatch(/^std BufReader: a source read fills the 8 KiB buffer at step 1 with \d+ bytes; the next 99 steps are served from memory and it never refills/);
    // The timeline's starting settings: the fill, the drain and the refill all in view.
    const start = run(codec.encodeLink({ ...codec.decodeLink("").params, ...TIMELINE_START, readers: ["unbuffered", "std", "chained"] }));
    const started = start.runs.find((r) => r.reader === "std")!.timeline!;
    expect(refills(started)).toBe(true);
    const [first, second] = fillSteps(started.ops);
    expect(first).toBe(0);
    expect(second).toBeLessThan(50);
    expect(describeTrace(started, "std BufReader")).toBe(
      `std BufReader: a source read fills the 256-byte buffer at step 1 with 256 bytes, which serves ${second!} application reads (steps 1 to ${second!}); the next source read refills it at step ${second! + 1}. ${totalsAt(started.ops, started.ops.length - 1).reads} source reads in 100 steps.`,
    );
    const unbuffered = start.runs.find((r) => r.reader === "unbuffered")!.timeline!;
    expect(describeTrace(unbuffered, "unbuffered Read")).toBe("unbuffered Read has no buffer: in these 100 steps every application read goes to the source (100 source reads).");
  });

  it("wraps text between words, never splitting one", () => {
    expect(wrapWords("a source read fills the buffer", 12)).toEqual(["a source", "read fills", "the buffer"]);
    expect(wrapWords("  one   word ", 40)).toEqual(["one word"]);
    // A word longer than the line stands alone rather than being cut.
    expect(wrapWords("http://127.0.0.1/#v=1&len=1M next", 10)).toEqual(["http://127.0.0.1/#v=1&len=1M", "next"]);
    expect(wrapWords("", 10)).toEqual([]);
  });

  it("draws the exported step from what the page shows: caption, cards, bars, strip and totals, inside its box", () => {
    const report = run("#v=1&len=1M&chunk=64-512&seed=42&cap=256&rs=8&sys=150&rd=unbuffered,std,chained&wl=fixed");
    for (const r of report.runs) {
      const t = r.timeline!;
      const index = fillSteps(t.ops)[1] ?? 2;
      const scene = stepScene(t, index);
      const texts = scene.shapes.filter((s): s is Extract<Shape, { kind: "text" }> => s.kind === "text");
      const words = texts.map((s) => s.text).join(" ");
      // The caption and the totals, wrapped, word for word as on the page.
      expect(words).toContain(`Step ${index + 1}: ${t.ops[index]!.caption}.`.replace(/\s+/g, " "));
      expect(words).toContain(totalsText(t, index));
      for (const card of flowCards(t.ops[index]!, t)) expect(texts.map((s) => s.text)).toContain(card.title);
      // Everything inside the drawing, text included (at the generous width per character it is wrapped to).
      for (const shape of scene.shapes) {
        expect(shape.x).toBeGreaterThanOrEqual(0);
        expect(shape.y).toBeGreaterThanOrEqual(0);
        const right = shape.kind === "rect" ? shape.x + shape.width : shape.x + shape.text.length * shape.size * 0.6;
        const bottom = shape.kind === "rect" ? shape.y + shape.height : shape.y + shape.size;
        expect(right, `${shape.kind} ${shape.cls}`).toBeLessThanOrEqual(scene.width + 0.001);
        expect(bottom, `${shape.kind} ${shape.cls}`).toBeLessThanOrEqual(scene.height + 0.001);
      }
      // The strip's current-step outline and, at a fill, a source mark over the step's bar.
      expect(scene.shapes.filter((s) => s.kind === "rect" && s.cls === "tl-current")).toHaveLength(1);
      expect(scene.shapes.some((s) => s.kind === "rect" && s.cls === "tl-in")).toBe(true);
      if (t.capacity === 0) expect(words).toContain("No buffer:");
      else expect(scene.shapes.some((s) => s.kind === "rect" && s.cls === "tl-outline")).toBe(true);
    }
  });
});
