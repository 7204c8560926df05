// The comparison's words: every outcome written out, colours that mean more
// (warm) and less (cool), every spread labelled with what it is.

import { describe, expect, it } from "vitest";
import schemaData from "../../../engine/schema.gen.json";
import type { Outcome, Schema } from "../../../engine/types.gen";
import { changedText, difference, OUTCOME_WORDS, outcomeTone, spreadText } from "./words";

const schema = schemaData as unknown as Schema;

describe("comparison words", () => {
  it("names each outcome in words, warm for more or slower, cool for less or faster, none for ties and noise", () => {
    const tones = Object.fromEntries((Object.keys(OUTCOME_WORDS) as Outcome[]).map((o) => [o, outcomeTone(o)]));
    expect(tones).toEqual({ tie: "none", less: "cool", more: "warm", faster: "cool", slower: "warm", same: "none", not_compared: "none" });
    expect(OUTCOME_WORDS.same).toBe("same within noise");
    expect(OUTCOME_WORDS.tie).toBe("tie");
  });

  it("labels every spread with what it is", () => {
    expect(spreadText(schema, "cpu_median_ns", { kind: "mad", low: 900, high: 1100 })).toBe("MAD ± 100 ns");
    expect(spreadText(schema, "cpu_median_ns", { kind: "ratio_interval", low: 0.97, high: 1.04 })).toBe("CI 0.970–1.04×");
    expect(spreadText(schema, "cpu_median_ns", { kind: "ratio_range", low: 0.5, high: 2 })).toBe("sample range 0.500–2.00×");
    expect(spreadText(schema, "cpu_median_ns", null)).toBe("");
  });

  it("writes differences with their sign, and what differs in words (A/A named as such)", () => {
    expect(difference("source_reads", -1024)).toBe("−1,024");
    expect(difference("source_reads", 0)).toBe("0");
    expect(changedText([{ key: "cap", a: "8K", b: "64K" }])).toBe("B differs from A in cap 8K → 64K.");
    expect(changedText([])).toContain("A/A");
  });
});
