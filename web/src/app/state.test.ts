import { describe, expect, it } from "vitest";
import { realCodec } from "../engine/real-engine";
import type { Decoded, Params, Report, Stage } from "../engine/types.gen";
import { activityText } from "./status";
import {
  MAX_ENGINE_NOTICES,
  engineNotice,
  engineReady,
  initialState,
  currentStage,
  isRunning,
  isStale,
  pendingStages,
  linkLoaded,
  noticeDismissed,
  paramsEdited,
  runDropped,
  runFailed,
  runRequested,
  runSucceeded,
  stopRequested,
} from "./state";

/** The engine's defaults: the page's opening experiment. */
const params: Params = realCodec().schema.defaults;

function link(fragment: string, notices: Decoded["notices"] = [], p: Params = params): Decoded {
  return { params: p, notices, fragment };
}

function report(stage: Stage = "full", p: Params = params): Report {
  return {
    params: p,
    runs: [],
    timer: { resolution_ns: 5000, isolated: true },
    quick: stage === "quick",
    stage,
    source_digest: "d",
    link: "",
    lab: "read",
  };
}

const engineReadyState = (s: ReturnType<typeof initialState>) => engineReady(s, true);

describe("state transitions", () => {
  it("starts from the decoded link with its notices, idle and without a report", () => {
    const s = initialState(link("v=1&cap=8K", [{ key: "cap", message: "'banana' is not a size" }]));
    expect(s.params).toEqual(params);
    expect(s.fragment).toBe("v=1&cap=8K");
    expect(s.notices).toEqual([{ id: 1, source: "link", key: "cap", message: "'banana' is not a size" }]);
    expect(s.report).toBeNull();
    expect(isRunning(s)).toBe(false);
    expect(s.engine.kind).toBe("loading");
  });

  it("never mutates the old state", () => {
    const s = initialState(link("a"));
    const frozen = JSON.stringify(s);
    runRequested(s, "quick");
    paramsEdited(s, { ...params, cap: 16 }, "b");
    engineNotice(s, "restarted");
    expect(JSON.stringify(s)).toBe(frozen);
  });

  it("an edit replaces params and fragment and clears link notices, but keeps engine notices", () => {
    let s = initialState(link("a", [{ key: "len", message: "bad" }]));
    s = engineNotice(s, "worker restarted");
    const next = paramsEdited(s, { ...params, cap: 16384 }, "b");
    expect(next.params.cap).toBe(16384);
    expect(next.fragment).toBe("b");
    expect(next.notices.map((n) => n.source)).toEqual(["engine"]);
  });

  it("an edit that leaves the fragment unchanged is no change at all", () => {
    const s = initialState(link("a", [{ key: "len", message: "bad" }]));
    expect(paramsEdited(s, params, "a")).toBe(s);
  });

  it("a newly loaded link replaces the old link notices with its own", () => {
    let s = initialState(link("a", [{ key: "len", message: "old" }]));
    s = linkLoaded(s, link("b", [{ key: "rs", message: "new" }]));
    expect(s.notices.map((n) => [n.key, n.message])).toEqual([["rs", "new"]]);
    expect(new Set(s.notices.map((n) => n.id)).size).toBe(s.notices.length);
  });

  it("tracks each request in flight, with its stage and settings, until it settles, whichever way", () => {
    let s = initialState(link("a"));
    s = runRequested(s, "counts");
    s = runRequested(s, "quick");
    s = runRequested(s, "full");
    expect(s.inFlight.map((r) => [r.id, r.stage, r.fragment])).toEqual([
      [1, "counts", "a"],
      [2, "quick", "a"],
      [3, "full", "a"],
    ]);
    expect(pendingStages(s)).toEqual(["counts", "quick", "full"]);
    s = runDropped(s, 2);
    s = runFailed(s, 1, "boom", "a");
    expect(pendingStages(s)).toEqual(["full"]);
    s = runSucceeded(s, 3, report(), "a", 12);
    expect(isRunning(s)).toBe(false);
  });

  it("a result clears the error for the current params and records which link it measured", () => {
    let s = initialState(link("a"));
    s = runFailed(runRequested(s, "full"), 1, "engine says no", "a");
    expect(s.error).toBe("engine says no");
    s = runSucceeded(runRequested(s, "full"), 2, report(), "a", 5);
    expect(s.error).toBeNull();
    expect(s.reportFragment).toBe("a");
    expect(s.elapsedMs).toBe(5);
  });

  it("an error for params the person already left is not shown", () => {
    let s = runRequested(initialState(link("a")), "full");
    s = paramsEdited(s, { ...params, rs: 2 }, "b");
    s = runFailed(s, 1, "old failure", "a");
    expect(s.error).toBeNull();
    expect(isRunning(s)).toBe(false);
  });

  it("a report measured for other params than the controls show is stale", () => {
    let s = initialState(link("a"));
    expect(isStale(s)).toBe(false);
    s = runSucceeded(runRequested(s, "full"), 1, report(), "a", 1);
    expect(isStale(s)).toBe(false);
    s = paramsEdited(s, { ...params, rs: 4 }, "b");
    expect(isStale(s)).toBe(true);
  });

  it("a report never gives way to a lesser stage of the same settings, nor to one of settings left behind", () => {
    let s = initialState(link("a"));
    s = runRequested(runRequested(runRequested(s, "counts"), "quick"), "full");
    s = runSucceeded(s, 3, report("full"), "a", 9);
    // The counts and the quick estimate arrive after the full measurement: they keep out.
    s = runSucceeded(s, 1, report("counts"), "a", 1);
    s = runSucceeded(s, 2, report("quick"), "a", 2);
    expect(currentStage(s)).toBe("full");
    expect(isRunning(s)).toBe(false);
    // New settings: their counts take the screen; a late full measurement of "a" does not.
    s = paramsEdited(s, { ...params, rs: 8 }, "b");
    s = runRequested(runRequested(s, "counts"), "full");
    s = runSucceeded(s, 4, report("counts"), "b", 1);
    expect(currentStage(s)).toBe("counts");
    s = runSucceeded(s, 99, report("full"), "a", 3);
    expect([s.reportFragment, currentStage(s)]).toEqual(["b", "counts"]);
  });

  it("the activity line never says Done over results of other settings", () => {
    let s = engineReadyState(initialState(link("a")));
    s = runSucceeded(runRequested(s, "full"), 1, report("full"), "a", 1);
    expect(activityText(s)).toBe("Done");
    s = paramsEdited(s, { ...params, rs: 8 }, "b");
    expect(activityText(s)).not.toBe("Done");
    s = runRequested(s, "counts");
    expect(activityText(s)).toBe("Counting…");
    s = runRequested(s, "full");
    s = runSucceeded(s, 2, report("counts"), "b", 1);
    expect(activityText(s)).toBe("Exact counts; timing…");
    s = runSucceeded(s, 3, report("full"), "b", 1);
    expect(activityText(s)).toBe("Done");
  });

  it("keeps only the newest engine notices, and dismissing removes exactly one", () => {
    let s = initialState(link("a", [{ key: "cap", message: "x" }]));
    for (let i = 0; i < MAX_ENGINE_NOTICES + 2; i++) s = engineNotice(s, `restart ${i}`);
    const engine = s.notices.filter((n) => n.source === "engine");
    expect(engine).toHaveLength(MAX_ENGINE_NOTICES);
    expect(engine.at(-1)?.message).toBe(`restart ${MAX_ENGINE_NOTICES + 1}`);
    const first = s.notices[0]!;
    s = noticeDismissed(s, first.id);
    expect(s.notices.some((n) => n.id === first.id)).toBe(false);
    expect(s.notices).toHaveLength(MAX_ENGINE_NOTICES);
  });

  it("Stop marks the state stopped only while something runs, and the next request clears it", () => {
    let s = initialState(link("a"));
    expect(stopRequested(s)).toBe(s);
    s = stopRequested(runRequested(s, "full"));
    expect(s.stopped).toBe(true);
    s = runDropped(s, 1);
    expect(s.stopped).toBe(true);
    expect(isRunning(s)).toBe(false);
    expect(runRequested(s, "full").stopped).toBe(false);
  });
});
