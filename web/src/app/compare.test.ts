// The page's model with comparisons: a `b.` link is measured as written
// (A's own run, then A and B in alternating rounds) and keeps its link in
// the address bar; a change of settings ends it; Stop stops it; a result
// file the engine refuses leaves a notice and nothing else changed.

import { describe, expect, it } from "vitest";
import { realCodec } from "../engine/real-engine";
import type { Comparison, LabReport } from "../engine/types.gen";
import { MAX_COMPARE_RETRIES, addressOf, initialState, isRunning, opening, update, type Action, type AppState, type Effect } from "./state";

const codec = realCodec();

function page(link: string) {
  const decoded = codec.decodeLink(link);
  let state: AppState = initialState(decoded, codec);
  const opened = opening(state);
  state = update(update(opened.state, { type: "engineReady", isolated: true }).state, { type: "codecReady" }).state;
  let effects: Effect[] = opened.effects;
  return {
    get state() {
      return state;
    },
    get effects() {
      return effects;
    },
    act(action: Action): Effect[] {
      const next = update(state, action);
      state = next.state;
      effects = next.effects;
      return effects;
    },
    /** The worker answers the oldest request in flight with a report of what it was asked. */
    answer(): Effect[] {
      const r = state.inFlight[0]!;
      const report = { stage: r.stage, lab: "read", link: r.fragment, runs: [] } as unknown as LabReport;
      return this.act({ type: "settled", id: r.id, outcome: { kind: "report", report, elapsedMs: 1 } });
    },
  };
}

const compares = (effects: Effect[]) => effects.filter((e): e is Extract<Effect, { type: "compare" }> => e.type === "compare");
const comparison = (link: string): Comparison => ({ kind: "compare", link, readers: [], changed: [], notes: [] }) as unknown as Comparison;

describe("comparisons in the page's model", () => {
  it("a b. link measures A, then A and B in alternating rounds, and the address bar keeps the comparison link", () => {
    const p = page("v=1&len=64K&rd=std&cap=1K&b.cap=64K");
    const fragment = p.state.compare!.fragment;
    expect(fragment).toContain("b.cap=64K");
    expect(p.effects[0]).toEqual({ type: "writeLink", fragment });
    // A's own run first (the timing worker runs one job at a time): counts, then its full measurement.
    expect(p.effects.map((e) => e.type)).toEqual(["writeLink", "run"]);
    expect(p.state.compare?.status).toBe("waiting");
    expect(isRunning(p.state)).toBe(true);
    expect(compares(p.answer())).toEqual([]);
    expect(compares(p.answer())).toEqual([{ type: "compare", id: p.state.compare!.id, fragment }]);
    expect(p.state.compare?.status).toBe("running");
    expect(isRunning(p.state)).toBe(true);
    p.act({ type: "compareSettled", id: p.state.compare!.id, outcome: { kind: "done", comparison: comparison(fragment) } });
    expect(p.state.compare).toMatchObject({ status: "done", source: "link" });
    expect(addressOf(p.state)).toBe(fragment);
  });

  it("a late comparison of another link changes nothing; a link without b. keys ends the comparison", () => {
    const p = page("v=1&len=64K&rd=std&b.v=1");
    const first = p.state.compare!;
    p.act({ type: "linkLoaded", link: codec.decodeLink("v=1&len=64K&rd=std&b.cap=64"), links: codec.decodeLink("v=1&len=64K&rd=std").links });
    const second = p.state.compare!;
    expect(second.id).not.toBe(first.id);
    p.act({ type: "compareSettled", id: first.id, outcome: { kind: "done", comparison: comparison(first.fragment) } });
    expect(p.state.compare).toBe(second);
    const plain = codec.decodeLink("v=1&len=64K&rd=std");
    expect(compares(p.act({ type: "linkLoaded", link: plain, links: plain.links }))).toEqual([]);
    expect(p.state.compare).toBeNull();
    expect(p.effects[0]).toEqual({ type: "writeLink", fragment: plain.links.link });
  });

  it("a change of A's settings ends the comparison: its A is no longer the settings on screen", () => {
    const p = page("v=1&len=64K&rd=std&b.cap=64K");
    const params = { ...p.state.params, cap: 2048 };
    p.act({ type: "edited", params, links: codec.links(params), live: false });
    expect(p.state.compare).toBeNull();
    expect(p.effects[0]).toEqual({ type: "writeLink", fragment: codec.links(params).link });
  });

  it("rounds ended by the page's own runs are sent again once they are done, a bounded number of times; Stop's are not", () => {
    const p = page("v=1&len=64K&rd=std&b.cap=64K");
    p.answer();
    p.answer();
    for (let i = 0; i < MAX_COMPARE_RETRIES; i++) {
      const id = p.state.compare!.id;
      expect(compares(p.act({ type: "compareSettled", id, outcome: { kind: "dropped" } }))).toEqual([{ type: "compare", id, fragment: p.state.compare!.fragment }]);
    }
    p.act({ type: "compareSettled", id: p.state.compare!.id, outcome: { kind: "dropped" } });
    expect(p.state.compare?.status).toBe("cancelled");
  });

  it("Stop stops the comparison's rounds and says so", () => {
    const p = page("v=1&len=64K&rd=std&b.cap=64K");
    p.answer();
    p.answer();
    expect(p.state.compare?.status).toBe("running");
    p.act({ type: "stop" });
    expect(p.state.compare?.status).toBe("cancelled");
    expect(isRunning(p.state)).toBe(false);
    expect(p.effects).toContainEqual({ type: "cancelRuns" });
  });

  it("a refused result file leaves a notice naming the file and nothing else changed; a paired one is the comparison", () => {
    const p = page("v=1&len=64K&rd=std");
    const before = p.state;
    p.act({ type: "compareFile", file: "theirs.json", outcome: { kind: "refused", message: "B: the file ends early" } });
    expect(p.state.notices.at(-1)).toMatchObject({ source: "file", key: "theirs.json", message: "B: the file ends early" });
    expect({ ...p.state, notices: before.notices, nextNoticeId: before.nextNoticeId }).toEqual(before);
    expect(p.effects).toEqual([]);
    const paired = comparison("v=1&len=64K&rd=std");
    (paired as { a: LabReport }).a = { link: "v=1&len=64K&rd=std" } as LabReport;
    p.act({ type: "compareFile", file: "theirs.json", outcome: { kind: "paired", comparison: paired } });
    expect(p.state.compare).toMatchObject({ source: "file", file: "theirs.json", status: "done" });
    expect(p.state.notices.some((n) => n.source === "file")).toBe(false);
    p.act({ type: "compareClosed" });
    expect(p.state.compare).toBeNull();
  });

  it("two files refused together leave a notice each, replacing the last selection's; two paired are A and B by name", () => {
    const p = page("v=1&len=64K&rd=std");
    const before = p.state;
    p.act({ type: "compareFile", file: "old.json", outcome: { kind: "refused", message: "not a result" } });
    p.act({
      type: "compareFile",
      file: "cut.json",
      outcome: { kind: "refused", message: "the file ends early", others: [{ file: "huge.json", message: "larger than 4 MiB" }] },
    });
    const notices = p.state.notices.filter((n) => n.source === "file");
    expect(notices.map((n) => [n.key, n.message])).toEqual([
      ["cut.json", "the file ends early"],
      ["huge.json", "larger than 4 MiB"],
    ]);
    expect(new Set(p.state.notices.map((n) => n.id)).size).toBe(p.state.notices.length);
    expect({ ...p.state, notices: before.notices, nextNoticeId: before.nextNoticeId }).toEqual(before);
    const paired = comparison("v=1&len=64K&rd=std");
    (paired as { a: LabReport }).a = { link: "v=1&len=64K&rd=std" } as LabReport;
    p.act({ type: "compareFile", file: "theirs.json", fileA: "mine.json", outcome: { kind: "paired", comparison: paired } });
    expect(p.state.compare).toMatchObject({ source: "file", file: "theirs.json", fileA: "mine.json", status: "done" });
    expect(p.state.notices.some((n) => n.source === "file")).toBe(false);
  });
});
