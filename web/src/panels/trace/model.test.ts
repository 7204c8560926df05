// The trace panel's model (model.ts): which answers count, what Cancel does,
// which descriptor opens, when a replay is asked, and the notices.

import { describe, expect, it } from "vitest";
import type { Descriptor, Replay, TraceReport } from "../../engine/types.gen";
import { initialTrace, notices, step, type TraceEvent, type TraceModel } from "./model";

const blob = (text: string): Blob => new Blob([text]);

function run(events: TraceEvent[], from: TraceModel = initialTrace): { model: TraceModel; effects: string[] } {
  let model = from;
  const effects: string[] = [];
  for (const event of events) {
    const next = step(model, event);
    model = next.model;
    effects.push(...next.effects.map((e) => `${e.type} ${e.job}${"id" in e ? ` ${e.id}` : ""}`));
  }
  return { model, effects };
}

function descriptor(id: number, calls: number): Descriptor {
  return { id, calls, label: `fd ${id}` } as unknown as Descriptor;
}

function report(over: Partial<TraceReport> = {}): TraceReport {
  return {
    complete: true,
    bytes: 100,
    lines: 10,
    calls: 5,
    read_calls: 5,
    descriptors: [descriptor(0, 2), descriptor(1, 7), descriptor(2, 7)],
    more_descriptors: { descriptors: 0, calls: 0, bytes: 0 },
    skipped: { lines: 0, examples: [] },
    ...over,
  } as unknown as TraceReport;
}

const replay = {} as Replay;

describe("the trace panel's model", () => {
  it("reads a log, opens on its busiest descriptor and asks for its replay once", () => {
    const { model, effects } = run([
      { type: "open", name: "a.strace", log: blob("x") },
      { type: "heard", message: { kind: "read", job: 1, report: report() } },
      { type: "choose", id: 1 },
      { type: "heard", message: { kind: "replayed", job: 1, id: 1, replay } },
      { type: "choose", id: 1 },
    ]);
    expect(effects).toEqual(["read 1", "replay 1 1"]);
    expect(model.status).toBe("read");
    expect(model.chosen).toBe(1);
    expect(model.replays[1]).toBe(replay);
  });

  it("drops the answers of an older log", () => {
    const { model } = run([
      { type: "open", name: "old", log: blob("x") },
      { type: "open", name: "new", log: blob("xy") },
      { type: "heard", message: { kind: "read", job: 1, report: report() } },
      { type: "heard", message: { kind: "progress", job: 2, progress: { bytes: 1, lines: 0, read_calls: 0, descriptors: 0, skipped: 0 } } },
    ]);
    expect(model).toMatchObject({ job: 2, status: "reading", name: "new", size: 2, report: null });
    expect(model.progress?.bytes).toBe(1);
  });

  it("Cancel asks the worker once and keeps the part read, said in a notice", () => {
    const { model, effects } = run([
      { type: "open", name: "big", log: blob("0123456789") },
      { type: "cancel" },
      { type: "cancel" },
      { type: "heard", message: { kind: "read", job: 1, report: report({ complete: false, bytes: 4, lines: 1 }) } },
    ]);
    expect(effects).toEqual(["read 1", "cancel 1", "replay 1 1"]);
    expect(model.cancelling).toBe(false);
    expect(notices(model)[0]).toEqual({ kind: "cancelled", message: "Cancelled: the figures are of the first 4 bytes (1 line) of 10." });
  });

  it("Cancel while the shipped log is fetched ends it, and its late arrival reads nothing", () => {
    const { model, effects } = run([{ type: "fetch", name: "shipped" }, { type: "cancel" }, { type: "fetched", job: 1, log: blob("x") }]);
    expect(effects).toEqual(["fetch 1"]);
    expect(model.status).toBe("idle");
  });

  it("quotes every skipped line the report quotes and counts the rest", () => {
    const examples = [
      { line: 1, reason: "not_strace", text: "<img src=x onerror=alert(1)>", why: "not a line strace prints" },
      { line: 3, reason: "truncated", text: "read(3, ", why: "a call cut off before its result" },
    ];
    const { model } = run([
      { type: "open", name: "bad", log: blob("x") },
      { type: "heard", message: { kind: "read", job: 1, report: report({ skipped: { lines: 9, examples } as TraceReport["skipped"] }) } },
    ]);
    expect(notices(model)).toEqual([
      { kind: "skipped", message: "9 lines were not read; the first 2 are quoted below, and 7 more were skipped too." },
      { kind: "skipped-line", message: "Line 1: not a line strace prints.", quote: "<img src=x onerror=alert(1)>" },
      { kind: "skipped-line", message: "Line 3: a call cut off before its result.", quote: "read(3, " },
    ]);
  });

  it("says when a log has no read calls, and keeps the figures when a replay fails", () => {
    const empty = run([
      { type: "open", name: "none", log: blob("x") },
      { type: "heard", message: { kind: "read", job: 1, report: report({ descriptors: [], calls: 0 }) } },
    ]);
    expect(empty.model.chosen).toBeNull();
    expect(notices(empty.model).map((n) => n.kind)).toEqual(["empty"]);
    const failed = run([{ type: "heard", message: { kind: "failed", job: 1, message: "cap: bad" } }], run([
      { type: "open", name: "a", log: blob("x") },
      { type: "heard", message: { kind: "read", job: 1, report: report() } },
    ]).model);
    expect(failed.model.status).toBe("read");
    expect(failed.model.report).not.toBeNull();
    expect(notices(failed.model)[0]).toEqual({ kind: "failed", message: "cap: bad" });
  });
});
