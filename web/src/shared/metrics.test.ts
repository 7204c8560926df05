// One owner per metric and setting: the words come from the schema
// (crate/src/catalog/metrics.rs and settings.rs), the accessors from
// shared/metrics.ts, and no other page module writes a label of its own.
// The accessors are checked on a real engine run (`npm run wasm`'s builds, engine/real-engine.ts).

import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isWriteReport } from "../engine/report";
import { realQuickRun } from "../engine/real-engine";
import schemaData from "../engine/schema.gen.json";
import type { Metric, Schema } from "../engine/types.gen";
import { METRIC, kneeMetric } from "./metrics";

const schema = schemaData as Schema;
const src = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Every page module under web/src: .ts files that are neither tests nor generated from the Rust. */
function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".gen.ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/**
 * The string literals in `text` that are `label` itself, or start with it
 * followed by ":", ",", " (", " against", " per" or " now": a heading, a
 * chart title or a sentence's subject written out by hand.
 */
function literalsOf(text: string, label: string): string[] {
  const escaped = label.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const pattern = new RegExp(`(["'\`])${escaped}(?::|,| \\(| against| per| now|\\1)`, "g");
  return [...text.matchAll(pattern)].map((m) => m[0]);
}

describe("metric and setting words", () => {
  it("are written only in the schema: no page module spells a metric's or a setting's label", () => {
    const labels = [...new Set([...schema.metrics.map((m) => m.label), ...schema.settings.map((s) => s.label)])];
    const found: string[] = [];
    for (const path of modules(src)) {
      const text = readFileSync(path, "utf8");
      for (const label of labels) {
        for (const literal of literalsOf(text, label)) found.push(`${relative(src, path)}: ${literal}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("the scan finds a label written by hand", () => {
    expect(literalsOf(`chartBlock("Source reads", "Calls")`, "Source reads")).toEqual([`"Source reads"`]);
    expect(literalsOf("return [`Source reads: `]", "Source reads")).toEqual(["`Source reads:"]);
    expect(literalsOf(`h("th", {}, 'I/O (modelled)')`, "I/O (modelled)")).toEqual([`'I/O (modelled)'`]);
    // A label inside a sentence is prose, not a heading.
    expect(literalsOf(`"the source reads stop"`, "Source reads")).toEqual([]);
  });

  it("have one accessor per metric in the schema, in the schema's order", () => {
    expect(Object.keys(METRIC)).toEqual(schema.metrics.map((m) => m.id));
    for (const m of schema.metrics) expect(METRIC[m.id].label).toBe(m.label);
  });

  it("read the report's own fields, and every sweep metric is a number of a real run", () => {
    const report = realQuickRun("len=64K&chunk=poor&cap=1K&rs=1&rd=std,chained,tokio");
    if (isWriteReport(report)) throw new Error("expected a read report");
    const chained = report.runs[1]!;
    const tokio = report.runs[2]!;
    expect(METRIC.source_reads.value(chained)).toBe(chained.source_reads);
    expect(METRIC.allocations.value(chained)).toBe(chained.allocations);
    expect(METRIC.pool_blocks.value(chained)).toBe(chained.blocks?.allocated);
    expect(METRIC.polls.value(tokio)).toBe(tokio.polls);
    expect(METRIC.modelled_total_ns.value(chained)).toBe(chained.cpu_ns.median + chained.modelled_io_ns);
    expect(METRIC.digest.value(chained)).toBe(report.source_digest);
    const sweepMetrics: Metric[] = ["source_reads", "bytes_copied", "allocations", "time"];
    for (const m of sweepMetrics) {
      const metric = kneeMetric(m);
      expect(metric.knee).toBe(m);
      expect(typeof metric.value(chained)).toBe("number");
    }
    expect(kneeMetric("time").id).toBe("modelled_total_ns");
  });

  it("format each value by its unit", () => {
    expect(METRIC.source_reads.format(1048577)).toBe("1,048,577");
    expect(METRIC.cpu_median_ns.format(4_300_000)).toMatch(/ms$/);
    expect(METRIC.peak_bytes.format(8192)).toMatch(/KiB$/);
  });
});
