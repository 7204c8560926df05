// The lesson list as the page gets it (the engine's, generated as data),
// each link decoding through the page's codec (the real wasm) without a
// notice and selecting its own lesson.

import { beforeAll, describe, expect, it } from "vitest";
import type { Codec } from "../../engine/codec";
import { lessons } from "../../engine/lessons";
import { realCodec } from "../../engine/real-engine";
import { fragmentOf } from "../../shared/url";
import { introduction, parseGuess, unreadGuess } from "./words";

let codec: Codec;
beforeAll(() => {
  codec = realCodec();
});

describe("the lessons", () => {
  it("lists the eleven lessons, the articles' in seed order and the fast sender, then the sweeps, the timeline and a real program's log, each complete", () => {
    expect(lessons.map((l) => l.id)).toEqual([
      "one-byte",
      "no-help",
      "async-bufreader",
      "bytes-vs-to-end",
      "chained-worst",
      "cursors",
      "fast-sender",
      "buffer-size",
      "knee-grid",
      "buffer-timeline",
      "own-log",
    ]);
    expect(lessons.map((l) => l.seed)).toEqual(["000", "000", "000", "001", "002", "004", "000", "sweep", "sweep", "000", "log"]);
    // Only the last opens a shipped log.
    expect(lessons.map((l) => l.log ?? null)).toEqual([...Array(10).fill(null), "bash-while-read.strace"]);
    for (const l of lessons) {
      expect(l.title.length, l.id).toBeGreaterThan(0);
      expect(l.world_note.length, l.id).toBeGreaterThan(0);
      expect(l.explanation.length, l.id).toBeGreaterThan(0);
      expect(l.claim.length, l.id).toBeGreaterThan(0);
      expect(l.notice.length, l.id).toBeGreaterThanOrEqual(2);
      expect(l.notice.length, l.id).toBeLessThanOrEqual(3);
    }
  });

  it("each link decodes without a notice and selects its lesson; the cursors lesson is the write lab", () => {
    for (const l of lessons) {
      const decoded = codec.decodeLink(fragmentOf(l.link));
      expect(decoded.notices, l.id).toEqual([]);
      expect(decoded.params.lesson, l.id).toBe(l.id);
      expect(decoded.params.lab, l.id).toBe(l.id === "cursors" ? "write" : "read");
      // Round trip through the page's encoder.
      expect(codec.encodeLink(decoded.params)).toBe(decoded.fragment);
    }
  });

  it("the list's introduction counts the lessons, the articles they come from and BufLab's own", () => {
    expect(introduction(lessons)).toBe(
      "11 lessons: 8 experiments from the 4 articles BufLab is built from, 2 sweeps of BufLab's own and a real program's strace log.",
    );
    expect(introduction(lessons.slice(0, 10))).toBe("10 lessons: 8 experiments from the 4 articles BufLab is built from, and 2 sweeps of BufLab's own.");
    // Counted, not written: one article and no sweep say so.
    expect(introduction(lessons.slice(0, 2))).toBe("2 lessons: 2 experiments from one article BufLab is built from.");
  });

  it("an unknown lesson is a notice naming the key, and no lesson is selected", () => {
    const decoded = codec.decodeLink("v=1&lesson=nope");
    expect(decoded.notices.map((n) => n.key)).toEqual(["lesson"]);
    expect(decoded.params.lesson).toBeNull();
    expect(codec.schema.defaults.lesson).toBeNull();
  });
});

describe("a typed guess", () => {
  const size = (text: string): number | undefined => codec.parseSize(text);

  it("reads grouped digits, fractions and exponents, and nothing from an empty field", () => {
    expect(parseGuess("3,641", null)).toBe(3641);
    expect(parseGuess(" 3 641 ", null)).toBe(3641);
    expect(parseGuess("1e3", null)).toBe(1000);
    expect(parseGuess("", null)).toBeNull();
    expect(parseGuess("  ", size)).toBeNull();
  });

  it("takes a size in bytes as the link format writes sizes: 800K and 800 KiB are 819,200 bytes", () => {
    expect(parseGuess("800K", size)).toBe(800 * 1024);
    expect(parseGuess("800 KiB", size)).toBe(800 * 1024);
    expect(parseGuess("64 kb", size)).toBe(65_536);
    expect(parseGuess("1M", size)).toBe(1 << 20);
  });

  it("takes K and M in a count as thousand and million", () => {
    expect(parseGuess("800K", null)).toBe(800_000);
    expect(parseGuess("1.5 M", null)).toBe(1_500_000);
    expect(parseGuess("800 KiB", null)).toBeNull();
  });

  it("reads no negative number or word, and says so with an example of the answer's kind", () => {
    expect(parseGuess("-5", null)).toBeNull();
    expect(parseGuess("lots", size)).toBeNull();
    expect(parseGuess("lots", null)).toBeNull();
    expect(unreadGuess("lots", true)).toBe('"lots" is not a number: type one such as 4096, 4K or 4 KiB.');
    expect(unreadGuess("lots", false)).toContain("800K");
  });
});
