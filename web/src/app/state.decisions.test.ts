// The model's decision functions, each decision pinned by a scenario that
// fails when that decision is written differently (issue 52: Stryker's
// survivors in state.ts, found on 29 November with
// `--testFiles` the app's unit tests; each test below was also seen failing
// under a bug planted by hand, docs/benchmarks.md). The property test
// (state.property.test.ts) covers the same ground at random; these are the
// cases it reached seldom or checked loosely.

import { describe, expect, it } from "vitest";
import type { Params } from "../engine/types.gen";
import { codec, defaults, links, page, report, sweepReport } from "./state-fixtures";
import {
  activityText,
  currentResults,
  effectsBeforeRender,
  exportFragment,
  hasResults,
  initialState,
  isRunning,
  isStale,
  opening,
  pendingStages,
  staleNote,
  update,
  type Action,
  type Effect,
} from "./state";

const swept: Params = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } };
/** The sweep view with no axis picked yet. */
const axisless: Params = { ...defaults, view: "sweep", sweep: null };


const runs = (effects: Effect[]) => effects.filter((e): e is Extract<Effect, { type: "run" }> => e.type === "run");
const stages = (effects: Effect[]) => runs(effects).map((e) => e.stage);
/** What a step asks of the workers and the page's timers (the milestones it marks aside). */
const asked = (effects: Effect[]) => effects.filter((e) => e.type !== "milestone");

describe("which results are current, stale, or there at all", () => {
  it("picking an axis in the sweep view, before any sweep, sweeps at once", () => {
    const p = page(axisless);
    expect(p.state.sweep).toBeNull();
    expect(currentResults(p.state).sweep).toBeNull();
    expect(p.act({ type: "sweepEdited", params: swept, links: links(swept) }).some((e) => e.type === "sweep")).toBe(true);
    expect(activityText(p.state)).toBe("Sweeping…");
  });

  it("a request of earlier settings still out keeps nothing of this view measuring: Done over the current results", () => {
    const p = page();
    p.answer(1); // the defaults' counts; their full measurement (2) stays out
    p.edit({ ...defaults, cap: 1024 });
    p.answer(p.newest("counter").id);
    p.answer(p.newest("timer").id);
    expect(p.state.inFlight.map((r) => r.id)).toEqual([2]);
    expect(pendingStages(p.state)).toEqual([]);
    expect(isRunning(p.state)).toBe(true);
    expect(activityText(p.state)).toBe("Done");
  });

  it("Measure again over a quick estimate says the full measurement is coming while its counts come", () => {
    const p = page();
    p.answerAll();
    p.answerAll();
    p.edit({ ...defaults, cap: 2048 }, true);
    p.answer(p.newest("counter").id);
    p.act({ type: "debounced" });
    p.answerAll();
    expect(activityText(p.state)).toBe("Quick estimate");
    expect(stages(p.act({ type: "measure" }))).toEqual(["counts"]);
    expect(pendingStages(p.state)).toEqual(["counts", "full"]);
    expect(activityText(p.state)).toBe("Quick estimate; measuring…");
  });

  it("no stale note without results: the sweep view before its first sweep, a run stopped before its first answer", () => {
    const sweep = page(axisless);
    expect(isStale(sweep.state)).toBe(false);
    expect(staleNote(sweep.state)).toBeNull();
    const run = page();
    run.act({ type: "stop" });
    expect(isStale(run.state)).toBe(false);
    expect(staleNote(run.state)).toBeNull();
  });

  it("a single run's stale results: no note while the new settings are measured, the note once their stages failed; the failure is said", () => {
    const p = page();
    p.answer(1); // the defaults' counts on screen; their full measurement (2) stays out
    p.edit({ ...defaults, cap: 4096 });
    expect(isStale(p.state)).toBe(true);
    expect(staleNote(p.state)).toBeNull();
    // The counts fail: the timing that waited for them goes out all the same, with no counts to time.
    const timed = runs(p.fail(p.newest("counter").id));
    expect(timed).toHaveLength(1);
    expect(timed[0]).toMatchObject({ stage: "full", fragment: links({ ...defaults, cap: 4096 }).run, counts: null });
    expect(staleNote(p.state)).toBeNull();
    p.fail(timed[0]!.id);
    expect(pendingStages(p.state)).toEqual([]);
    expect(staleNote(p.state)).toMatch(/earlier settings/);
    expect(p.state.error).toBe("boom");
  });

  it("a sweep of earlier settings still running says so in the status, not in a stale note; once it ends, the note", () => {
    const p = page(swept);
    const id = p.state.sweep!.id;
    p.edit({ ...swept, cap: 4096 }, true); // a drag counts, and sweeps only once let go
    expect(p.state.sweep?.status).toBe("running");
    expect(activityText(p.state)).toBe("Sweeping earlier settings…");
    expect(staleNote(p.state)).toBeNull();
    p.act({ type: "sweepSettled", id, outcome: { kind: "done", report: sweepReport(p.state.sweep!.fragment) }, elapsedMs: 9 });
    expect(staleNote(p.state)).toMatch(/This sweep was run for earlier settings/);
  });

  it("the single run view is judged by its own report, not by a sweep of earlier settings left behind", () => {
    const p = page(swept);
    p.act({ type: "sweepSettled", id: p.state.sweep!.id, outcome: { kind: "done", report: sweepReport(p.state.sweep!.fragment) }, elapsedMs: 9 });
    p.answerAll();
    p.answerAll();
    // A drag in the sweep view: counted, then estimated, never swept; then to the single run view, where it is measured in full.
    const moved: Params = { ...swept, cap: 4096 };
    p.edit(moved, true);
    p.answer(p.newest("counter").id);
    p.act({ type: "debounced" });
    p.answerAll();
    const run: Params = { ...moved, view: "run" };
    p.act({ type: "viewChosen", view: "run", entered: { params: run, links: links(run), note: null } });
    p.answerAll();
    expect(p.state.sweep?.fragment).toBe(links(swept).sweep);
    expect(activityText(p.state)).toBe("Done");
    expect(isStale(p.state)).toBe(false);
    expect(staleNote(p.state)).toBeNull();
  });

  it("has results, and exports a link, only once there are some: a report in the run view, a sweep's point in the sweep view", () => {
    const p = page();
    expect(hasResults(p.state)).toBe(false);
    expect(exportFragment(p.state)).toBeNull();
    p.answer(1);
    expect(hasResults(p.state)).toBe(true);
    p.edit({ ...defaults, cap: 4096 });
    expect(hasResults(p.state)).toBe(true); // of earlier settings, still results

    const none = page(axisless);
    expect(hasResults(none.state)).toBe(false);
    expect(exportFragment(none.state)).toBeNull();

    const s = page(swept);
    s.answerAll();
    s.answerAll();
    // The single run's report is in, but the sweep view shows the sweep.
    expect(s.state.shown.read).toBeDefined();
    expect(hasResults(s.state)).toBe(false);
    expect(exportFragment(s.state)).toBeNull();
    const point = sweepReport(s.state.sweep!.fragment);
    s.act({ type: "sweepPoint", id: s.state.sweep!.id, report: point });
    expect(s.state.sweep?.report).toBe(point);
    expect(hasResults(s.state)).toBe(true);
    expect(exportFragment(s.state)).toBe(links(swept).sweep);
  });
});

describe("a worker's answer (settled)", () => {
  it("results of earlier settings fill an empty screen until the current ones come, and their better stage replaces them", () => {
    const p = page();
    p.edit({ ...defaults, cap: 4096 }, true); // a drag before the opening's counts came
    p.answer(1);
    expect(p.state.shown.read?.fragment).toBe(links(defaults).run);
    expect(p.state.shown.read?.report.stage).toBe("counts");
  });

  it("Measure again: the new counts never replace the full measurement on screen; the new full one does", () => {
    const p = page();
    p.answerAll();
    p.answerAll();
    const first = p.state.shown.read!.report;
    expect(first.stage).toBe("full");
    p.act({ type: "measure" });
    expect(stages(p.answer(p.newest("counter").id))).toEqual(["full"]);
    expect(p.state.shown.read?.report).toBe(first);
    expect(activityText(p.state)).toBe("Measuring again…");
    p.answer(p.newest("timer").id);
    expect(p.state.shown.read?.report).not.toBe(first);
    expect(p.state.shown.read?.report.stage).toBe("full");
  });

  it("a failure is said only when it is of the settings on screen; a dropped request says nothing", () => {
    const failed = page();
    failed.fail(1, "out of memory");
    expect(failed.state.error).toBe("out of memory");
    const dropped = page();
    dropped.drop(1);
    expect(dropped.state.error).toBeNull();
    const earlier = page();
    earlier.answer(1); // the defaults' full measurement (2) stays out
    earlier.edit({ ...defaults, cap: 4096 });
    earlier.fail(2);
    expect(earlier.state.error).toBeNull();
  });

  it("of two counts of the same settings, the first to come is timed at once; a failed one leaves the timing to the newer", () => {
    // The opening's counts (1) and Measure again's (3): the full measurement waits for counts.
    const p = page();
    p.act({ type: "measure" });
    expect(p.state.timing).not.toBeNull();
    const timed = runs(p.answer(1));
    expect(timed.map((e) => e.stage)).toEqual(["full"]);
    expect(timed[0]!.counts).toMatchObject({ stage: "counts" });

    const q = page();
    q.act({ type: "measure" });
    const newer = q.newest("counter").id;
    expect(runs(q.fail(1))).toEqual([]);
    expect(q.state.timing).not.toBeNull();
    const later = runs(q.answer(newer));
    expect(later.map((e) => e.stage)).toEqual(["full"]);
    expect(later[0]!.counts).toMatchObject({ stage: "counts" });
  });

  it("a timing of the same settings in flight neither sends the timing that waits for new counts nor holds it back", () => {
    /** Done, then Measure again twice: a full measurement (timed from the first new counts) is out while the second counts come. */
    const twice = () => {
      const p = page();
      p.answerAll();
      p.answerAll();
      p.act({ type: "measure" });
      p.answer(p.newest("counter").id);
      p.act({ type: "measure" });
      expect(p.state.inFlight.map((r) => r.worker)).toEqual(["timer", "counter"]);
      expect(p.state.timing).not.toBeNull();
      return p;
    };
    // Its answer is a full report: never timed again (the engine refuses to time one), so nothing goes out.
    const p = twice();
    expect(runs(p.answer(p.newest("timer").id))).toEqual([]);
    const timed = runs(p.answer(p.newest("counter").id));
    expect(timed.map((e) => e.stage)).toEqual(["full"]);
    expect(timed[0]!.counts).toMatchObject({ stage: "counts" });
    // The counts fail: no more counts are coming, so the timing goes out now, whatever timing is in flight.
    const q = twice();
    expect(stages(q.fail(q.newest("counter").id))).toEqual(["full"]);
  });

  it("every request gets an id of its own", () => {
    const p = page();
    const ids: number[] = [1];
    const sent = (effects: Effect[]) => ids.push(...runs(effects).map((e) => e.id));
    sent(p.answer(1)); // the full measurement, sent from settled
    sent(p.act({ type: "measure" }));
    sent(p.edit({ ...defaults, cap: 2048 }));
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.max(...ids)).toBeLessThan(p.state.nextRequestId);
  });
});

describe("Stop, Cancel and the sweep's answers", () => {
  it("Stop while only the sweep runs cancels the sweep and ends no run worker", () => {
    const p = page(swept);
    p.answerAll();
    p.answerAll();
    expect(p.state.inFlight).toEqual([]);
    expect(isRunning(p.state)).toBe(true);
    expect(asked(p.act({ type: "stop" }))).toEqual([{ type: "cancelSweep" }]);
    expect(p.state.sweep?.status).toBe("cancelled");
    expect(activityText(p.state)).toBe("Sweep cancelled");
  });

  it("Stop while the controls rest before their quick estimate cancels it: no estimate after Stop", () => {
    const p = page();
    p.answerAll();
    p.answerAll();
    p.edit({ ...defaults, cap: 2048 }, true);
    p.answer(p.newest("counter").id);
    expect(p.state.inFlight).toEqual([]);
    expect(asked(p.act({ type: "stop" }))).toEqual([{ type: "cancelDebounce" }]);
    expect(activityText(p.state)).toBe("Stopped: not timed");
    expect(p.act({ type: "debounced" })).toEqual([]);
  });

  it("Stop when nothing runs changes nothing: Done stays Done", () => {
    const p = page();
    p.answerAll();
    p.answerAll();
    expect(activityText(p.state)).toBe("Done");
    expect(asked(p.act({ type: "stop" }))).toEqual([]);
    expect(p.state.stopped).toBe(false);
    expect(activityText(p.state)).toBe("Done");
  });

  it("Cancel after the sweep is done changes nothing", () => {
    const p = page(swept);
    p.act({ type: "sweepSettled", id: p.state.sweep!.id, outcome: { kind: "done", report: sweepReport(p.state.sweep!.fragment) }, elapsedMs: 9 });
    expect(p.act({ type: "sweepCancel" })).toEqual([]);
    expect(p.state.sweep?.status).toBe("done");
  });

  it("a sweep that fails says so and why; one its worker ends as cancelled is cancelled", () => {
    const failed = page(swept);
    failed.act({ type: "sweepSettled", id: failed.state.sweep!.id, outcome: { kind: "failed", message: "too many points" }, elapsedMs: 9 });
    expect(failed.state.sweep).toMatchObject({ status: "failed", failure: "too many points", elapsedMs: 9 });
    expect(activityText(failed.state)).toBe("Sweep failed");
    const cancelled = page(swept);
    cancelled.act({ type: "sweepSettled", id: cancelled.state.sweep!.id, outcome: { kind: "cancelled" }, elapsedMs: 9 });
    expect(cancelled.state.sweep).toMatchObject({ status: "cancelled", failure: null, elapsedMs: 9 });
    expect(activityText(cancelled.state)).toBe("Sweep cancelled");
  });

  it("a sweep's point or end with no sweep on the page changes nothing", () => {
    const p = page();
    const before = p.state;
    p.act({ type: "sweepPoint", id: 99, report: sweepReport("") });
    p.act({ type: "sweepSettled", id: 99, outcome: { kind: "done", report: sweepReport("") }, elapsedMs: 1 });
    expect(p.state.sweep).toBeNull();
    expect(p.state).toBe(before);
  });
});

describe("a link read", () => {
  it("writes its own link to the address bar first, and a new lesson leaves the end slide", () => {
    const order = ["one-byte", "no-help"] as const;
    const p = page({ ...defaults, lesson: "no-help" });
    p.act({ type: "forward", order });
    expect(p.state.ended).toBe(true);
    const lesson = codec.decodeLink("cap=4K&lesson=one-byte");
    const effects = p.act({ type: "linkLoaded", link: lesson, links: lesson.links });
    expect(effects[0]).toEqual({ type: "writeLink", fragment: lesson.links.link });
    expect(p.state.ended).toBe(false);
  });
});

describe("comparisons, where they meet Stop and a link read", () => {
  const bLink = "v=1&len=64K&rd=std&cap=1K&b.cap=64K";
  /** A page opened on a comparison link (A's own run first, its comparison waiting). */
  const comparing = () => {
    const decoded = codec.decodeLink(bLink);
    let state = opening(initialState(decoded, codec)).state;
    state = update(update(state, { type: "engineReady", isolated: true }).state, { type: "codecReady" }).state;
    const act = (action: Action): Effect[] => {
      const next = update(state, action);
      state = next.state;
      return next.effects;
    };
    const answerOldest = () => {
      const r = state.inFlight[0]!;
      return act({ type: "settled", id: r.id, outcome: { kind: "report", report: report(r.stage, r.fragment), elapsedMs: 1 } });
    };
    return {
      act,
      answerOldest,
      get state() {
        return state;
      },
    };
  };
  const compares = (effects: Effect[]) => effects.filter((e) => e.type === "compare");

  it("Stop while the comparison waits for A's own runs: cancelled, and never started after", () => {
    const p = comparing();
    expect(p.state.compare?.status).toBe("waiting");
    expect(compares(p.act({ type: "stop" }))).toEqual([]);
    expect(p.state.compare?.status).toBe("cancelled");
    expect(isRunning(p.state)).toBe(false);
  });

  it("Stop while A is measured again after its comparison finished: the comparison stays done, and the run workers are ended once", () => {
    const p = comparing();
    p.answerOldest();
    p.answerOldest();
    const id = p.state.compare!.id;
    p.act({ type: "compareSettled", id, outcome: { kind: "done", comparison: { kind: "compare" } as never } });
    p.act({ type: "measure" });
    expect(asked(p.act({ type: "stop" }))).toEqual([{ type: "cancelRuns" }]);
    expect(p.state.compare?.status).toBe("done");
  });

  it("Stop while the comparison's rounds run beside A's new counts ends the run workers once", () => {
    const p = comparing();
    p.answerOldest();
    p.answerOldest();
    expect(p.state.compare?.status).toBe("running");
    p.act({ type: "measure" });
    expect(p.state.inFlight.length).toBeGreaterThan(0);
    expect(asked(p.act({ type: "stop" }))).toEqual([{ type: "cancelRuns" }]);
    expect(p.state.compare?.status).toBe("cancelled");
  });

  it("the status never says Done while the comparison on screen still measures: A's results are in, B's rounds are not", () => {
    const p = comparing();
    p.answerOldest();
    p.answerOldest();
    p.act({ type: "drawn", report: currentResults(p.state).report! });
    expect(p.state.compare?.status).toBe("running");
    expect(activityText(p.state)).toBe("Comparing A and B…");
    p.act({ type: "compareSettled", id: p.state.compare!.id, outcome: { kind: "done", comparison: { kind: "compare" } as never } });
    expect(activityText(p.state)).toBe("Done");
  });

  it("a comparison link read while a run is out takes an id of its own, as does every request after it", () => {
    const p = page();
    p.answer(1); // the defaults' full measurement (2) stays out
    const link = codec.decodeLink(bLink);
    const effects = p.act({ type: "linkLoaded", link, links: link.links });
    const ids = [...p.state.inFlight.map((r) => r.id), p.state.compare!.id];
    expect(runs(effects).length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.max(...ids)).toBeLessThan(p.state.nextRequestId);
  });
});

describe("an edit of the settings", () => {
  it("a control set back to the value measured in full asks nothing of the workers, only writes the link", () => {
    const p = page();
    p.answerAll();
    expect(currentResults(p.state).report?.stage).toBe("full");
    expect(asked(p.edit({ ...defaults })).map((e) => e.type)).toEqual(["writeLink"]);
    expect(activityText(p.state)).toBe("Done");
  });

  it("the same settings dragged live are counted again: a drag is never taken for a rest", () => {
    const p = page();
    p.answerAll();
    const dragged = p.edit({ ...defaults }, true);
    expect(stages(dragged)).toEqual(["counts"]);
    expect(dragged.some((e) => e.type === "debounce")).toBe(true);
  });

  it("a slider let go where it rests asks only the full measurement its counts lack", () => {
    const p = page();
    p.answerAll();
    const moved = { ...defaults, cap: 1024 };
    p.edit(moved, true);
    p.act({ type: "debounced" });
    p.answer(p.newest("counter").id);
    expect(currentResults(p.state).report?.stage).toBe("counts");
    const released = p.edit(moved);
    expect(stages(released)).toEqual(["full"]);
    expect(runs(released)[0]!.fragment).toBe(links(moved).run);
    expect(asked(released).map((e) => e.type)).toEqual(["writeLink", "run"]);
    expect(p.state.debouncing).toBe(false);
  });

  it("a slider let go before its quick estimate was due cancels the estimate and asks only the full measurement", () => {
    const p = page();
    p.answerAll();
    const moved = { ...defaults, cap: 1024 };
    p.edit(moved, true);
    expect(p.state.debouncing).toBe(true);
    p.answer(p.newest("counter").id);
    const released = p.edit(moved);
    expect(released.some((e) => e.type === "cancelDebounce")).toBe(true);
    expect(stages(released)).toEqual(["full"]);
    expect(p.state.debouncing).toBe(false);
  });

  it("a new experiment drops the link's notices and keeps the engine's; a display key alone keeps both", () => {
    const opened = codec.decodeLink("cap=8K&capp=1");
    expect(opened.notices.length).toBeGreaterThan(0);
    let state = opening(initialState(opened, codec)).state;
    state = update(state, { type: "codecReady" }).state;
    state = update(state, { type: "engineNotice", message: "The engine restarted." }).state;
    const sources = (s: typeof state) => s.notices.map((n) => n.source).sort();
    expect(sources(state)).toEqual(["engine", "link"]);

    const shownAsSweep = { ...opened.params, view: "sweep" as const };
    const viewOnly = update(state, { type: "edited", params: shownAsSweep, links: links(shownAsSweep), live: false }).state;
    expect(sources(viewOnly)).toEqual(["engine", "link"]);

    const other = { ...opened.params, cap: 1024 };
    const changed = update(state, { type: "edited", params: other, links: links(other), live: false }).state;
    expect(changed.notices.map((n) => n.message)).toEqual(["The engine restarted."]);
  });
});

describe("what runs before the page draws a step", () => {
  const run = (stage: "counts" | "quick" | "full"): Effect => ({ type: "run", id: 1, stage, fragment: "f", lab: "read", counts: null });
  const write: Effect = { type: "writeLink", fragment: "f" };

  it("the effects up to a change's exact counts, when each before them only cancels or writes the link", () => {
    expect(effectsBeforeRender([run("counts")])).toBe(1);
    expect(effectsBeforeRender([write, run("counts"), { type: "debounce" }])).toBe(2);
    expect(effectsBeforeRender([{ type: "cancelRuns" }, { type: "cancelDebounce" }, { type: "cancelSweep" }, write, run("counts"), run("full")])).toBe(5);
  });

  it("none, without counts to ask or with anything else before them", () => {
    expect(effectsBeforeRender([])).toBe(0);
    expect(effectsBeforeRender([write, run("full")])).toBe(0);
    expect(effectsBeforeRender([write, { type: "debounce" }, run("counts")])).toBe(0);
    expect(effectsBeforeRender([run("quick"), run("counts")])).toBe(0);
    expect(effectsBeforeRender([{ type: "sweep", id: 1, params: defaults, fragment: "f" }, run("counts")])).toBe(0);
    expect(effectsBeforeRender([{ type: "quiz", link: "f" }, run("counts")])).toBe(0);
  });

  it("an edit's link and counts go out before the page draws it", () => {
    const p = page();
    p.answerAll();
    const effects = p.edit({ ...defaults, cap: 1024 });
    const early = effectsBeforeRender(effects);
    expect(early).toBeGreaterThan(0);
    expect(effects.slice(0, early).map((e) => e.type)).toEqual(["writeLink", "run"]);
    expect(stages(effects.slice(0, early))).toEqual(["counts"]);
  });
});

describe("the status's word for each state of the run view", () => {
  it("counting first, timing after, the build still compiling said by name", () => {
    const p = page();
    expect(activityText(p.state)).toBe("Counting…");
    p.answer(1);
    expect(activityText(p.state)).toBe("Exact counts; timing…");
    p.act({ type: "building", builds: ["timing-fixed"] });
    expect(activityText(p.state)).toBe("Building timing-fixed…");
    p.act({ type: "building", builds: [] });
    p.answer(2, true);
    expect(activityText(p.state)).toBe("Drawing…");
  });

  it("a failed timing leaves exact counts, not timed", () => {
    const p = page();
    p.answer(1);
    p.fail(2);
    expect(activityText(p.state)).toBe("Exact counts, not timed");
  });

  it("Stop before anything came says Stopped; after the counts, Stopped: not timed", () => {
    const before = page();
    before.act({ type: "stop" });
    expect(activityText(before.state)).toBe("Stopped");
    const counted = page();
    counted.answer(1);
    counted.act({ type: "stop" });
    expect(activityText(counted.state)).toBe("Stopped: not timed");
  });

  it("a broken engine is said over everything else", () => {
    const p = page();
    p.act({ type: "engineBroken", message: "no memory" });
    expect(activityText(p.state)).toBe("Engine unavailable");
  });

  it("the sweep view without an axis asks for one", () => {
    expect(activityText(page(axisless).state)).toBe("Pick an axis");
  });
});
