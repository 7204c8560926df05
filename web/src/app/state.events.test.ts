// The page's model, event by event: what the page shows, and what it asks
// of the engine, after the events no other scenario file sends (notices,
// result files, the clicker, held changes, the lesson's own results, a
// view shown again), each pinned as a person or the worker meets it
// (issue 52: Stryker's survivors over the whole of state.ts,
// docs/benchmarks.md). The run view's status words are in
// state.decisions.test.ts.

import { describe, expect, it } from "vitest";
import { lessons } from "../engine/lessons";
import type { Comparison, LabReport, LessonId, Params } from "../engine/types.gen";
import { codec, decoded, defaults, links, page, sweepReport } from "./state-fixtures";
import { activityText, addressOf, initialState, lessonAnswerComing, lessonResults, opening, update, type Effect } from "./state";

const swept: Params = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } };
const runs = (effects: Effect[]) => effects.filter((e): e is Extract<Effect, { type: "run" }> => e.type === "run");
const stages = (effects: Effect[]) => runs(effects).map((e) => e.stage);
/** What a step asks of the workers and the page's timers (the milestones it marks aside). */
const asked = (effects: Effect[]) => effects.filter((e) => e.type !== "milestone");
const ids = (notices: { id: number }[]) => notices.map((n) => n.id);

/** A comparison link: A's cap 1K against B's 64K. */
const bLink = "v=1&len=64K&rd=std&cap=1K&b.cap=64K";
/** A's own link, as the codec writes it (what the address bar shows once B is gone). */
const aLink = codec.decodeLink("v=1&len=64K&rd=std&cap=1K").links.link;
/** A page on the comparison link with A measured: its rounds run. */
const comparingRounds = () => {
  const p = page(codec.decodeLink(bLink));
  p.answerAll();
  expect(p.state.compare?.status).toBe("running");
  return p;
};
/** The engine's pairing of a result file with the report on screen (only what the model reads of it). */
const paired = (aLinkOfFile: string): Comparison => ({ kind: "compare", a: { link: aLinkOfFile } }) as unknown as Comparison;

describe("notices", () => {
  it("a link read says which of its values it ignored, drops the previous link's notices and keeps the engine's", () => {
    const p = page();
    p.act({ type: "engineNotice", message: "The engine restarted." });
    const first = codec.decodeLink("cap=8K&capp=1");
    p.act({ type: "linkLoaded", link: first, links: first.links });
    expect(p.state.notices.map((n) => [n.source, n.key, n.message])).toEqual([
      ["engine", undefined, "The engine restarted."],
      ["link", "capp", "unknown key 'capp' ignored; did you mean 'cap'?"],
    ]);
    const second = codec.decodeLink("cap=4K&foo=2");
    p.act({ type: "linkLoaded", link: second, links: second.links });
    expect(p.state.notices.map((n) => [n.source, n.key])).toEqual([
      ["engine", undefined],
      ["link", "foo"],
    ]);
    // Each is dismissed on its own, and the next notice is a new one.
    p.act({ type: "engineNotice", message: "Again." });
    expect(new Set(ids(p.state.notices)).size).toBe(3);
    p.act({ type: "noticeDismissed", id: p.state.notices.find((n) => n.source === "link")!.id });
    expect(p.state.notices.map((n) => n.message)).toEqual(["The engine restarted.", "Again."]);
  });

  it("the engine's notices keep to the newest three and never push out or repeat a link's notice", () => {
    const p = page(codec.decodeLink("cap=8K&capp=1"));
    p.act({ type: "engineNotice", message: "one" });
    expect(p.state.notices.map((n) => n.source)).toEqual(["link", "engine"]);
    for (const message of ["two", "three", "four"]) p.act({ type: "engineNotice", message });
    expect(p.state.notices.map((n) => n.message)).toEqual(["unknown key 'capp' ignored; did you mean 'cap'?", "two", "three", "four"]);
    expect(new Set(ids(p.state.notices)).size).toBe(4);
  });

  it("the note of settings the page chose replaces the previous note, beside the engine's notices, each dismissed on its own", () => {
    const p = page();
    p.act({ type: "engineNotice", message: "The engine restarted." });
    p.act({ type: "settingsNote", message: "The timeline opened on its own starting settings." });
    p.act({ type: "settingsNote", message: "The write lab opened on its own starting settings." });
    expect(p.state.notices.map((n) => [n.source, n.message])).toEqual([
      ["engine", "The engine restarted."],
      ["settings", "The write lab opened on its own starting settings."],
    ]);
    p.act({ type: "noticeDismissed", id: p.state.notices[0]!.id });
    expect(p.state.notices.map((n) => n.source)).toEqual(["settings"]);
  });

  it("an edit the engine refused is said until a result of the settings on screen comes", () => {
    const p = page();
    p.act({ type: "refused", message: "cap: at least 1 byte" });
    expect(p.state.error).toBe("cap: at least 1 byte");
    p.answer(1);
    expect(p.state.error).toBeNull();
  });

  it("the timeline on the same settings keeps the link's notices: its view and step are no new experiment", () => {
    const p = page(codec.decodeLink("cap=8K&capp=1"));
    const timeline = { ...p.state.params, view: "timeline" as const };
    expect(links(timeline).run).not.toBe(p.state.runFragment);
    p.act({ type: "viewChosen", view: "timeline", entered: { params: timeline, links: links(timeline), note: null } });
    expect(p.state.notices.map((n) => n.key)).toEqual(["capp"]);
  });

  it("choosing a view keeps the engine's notices, and a view with its own settings measures them in full, not as a drag", () => {
    const p = page();
    p.answerAll();
    p.act({ type: "engineNotice", message: "The engine restarted." });
    const own = { ...defaults, view: "timeline" as const, cap: 32, rs: 1 };
    const effects = p.act({ type: "viewChosen", view: "timeline", entered: { params: own, links: links(own), note: "The timeline opened on its own starting settings." } });
    expect(p.state.notices.map((n) => n.source)).toEqual(["engine", "settings"]);
    expect(asked(effects).map((e) => e.type)).toEqual(["writeLink", "run"]);
    expect(stages(effects)).toEqual(["counts"]);
    // Its full measurement goes out with the counts, with no quick estimate between.
    expect(stages(p.answer(p.newest("counter").id))).toEqual(["full"]);
  });
});

describe("result files and comparison links", () => {
  it("refused files leave a notice each beside the engine's, each dismissed on its own, and the next notice is new", () => {
    const p = page();
    p.act({ type: "compareFile", file: "old.json", outcome: { kind: "refused", message: "not a result" } });
    p.act({ type: "engineNotice", message: "The engine restarted." });
    p.act({ type: "compareFile", file: "cut.json", outcome: { kind: "refused", message: "the file ends early", others: [{ file: "huge.json", message: "larger than 4 MiB" }] } });
    p.act({ type: "engineNotice", message: "Again." });
    p.act({ type: "engineNotice", message: "Once more." });
    expect(p.state.notices.map((n) => n.key ?? n.message)).toEqual(["cut.json", "huge.json", "The engine restarted.", "Again.", "Once more."]);
    expect(new Set(ids(p.state.notices)).size).toBe(5);
    for (const key of ["huge.json", "The engine restarted.", "cut.json"]) {
      const before = p.state.notices.length;
      p.act({ type: "noticeDismissed", id: p.state.notices.find((n) => (n.key ?? n.message) === key)!.id });
      expect(p.state.notices.length, key).toBe(before - 1);
    }
  });

  it("a result file paired while a comparison link's rounds run ends those rounds; the address bar shows A's own link", () => {
    const p = comparingRounds();
    expect(addressOf(p.state)).toContain("b.cap=64K");
    const effects = p.act({ type: "compareFile", file: "theirs.json", outcome: { kind: "paired", comparison: paired(aLink) } });
    expect(asked(effects)).toEqual([{ type: "cancelRuns" }, { type: "writeLink", fragment: aLink }]);
    expect(p.state.compare).toMatchObject({ source: "file", file: "theirs.json", status: "done" });
    expect(addressOf(p.state)).toBe(aLink);
  });

  it("a result file paired with nothing else comparing only writes the link, keeps the engine's notices, and every request after it has an id of its own", () => {
    const p = page();
    p.answerAll();
    p.act({ type: "engineNotice", message: "The engine restarted." });
    p.act({ type: "compareFile", file: "old.json", outcome: { kind: "refused", message: "not a result" } });
    const effects = p.act({ type: "compareFile", file: "theirs.json", outcome: { kind: "paired", comparison: paired(links(defaults).link) } });
    expect(asked(effects)).toEqual([{ type: "writeLink", fragment: links(defaults).link }]);
    expect(p.state.notices.map((n) => n.message)).toEqual(["The engine restarted."]);
    const sent = runs(p.act({ type: "measure" }));
    expect(sent.map((e) => e.id)).not.toContain(p.state.compare!.id);
    expect(p.state.nextRequestId).toBeGreaterThan(Math.max(p.state.compare!.id, ...sent.map((e) => e.id)));
  });

  it("closing a comparison whose rounds run ends them and puts A's own link in the address bar; a finished one only the link; none, nothing", () => {
    const running = comparingRounds();
    expect(asked(running.act({ type: "compareClosed" }))).toEqual([{ type: "cancelRuns" }, { type: "writeLink", fragment: aLink }]);
    expect(running.state.compare).toBeNull();
    expect(addressOf(running.state)).toBe(aLink);

    const done = comparingRounds();
    done.act({ type: "compareSettled", id: done.state.compare!.id, outcome: { kind: "done", comparison: paired(aLink) } });
    expect(asked(done.act({ type: "compareClosed" }))).toEqual([{ type: "writeLink", fragment: aLink }]);

    const none = page();
    const before = none.state;
    expect(none.act({ type: "compareClosed" })).toEqual([]);
    expect(none.state).toBe(before);
  });

  it("a comparison whose rounds fail says so and why; an answer after Stop, of an earlier comparison, or with none changes nothing", () => {
    const failed = comparingRounds();
    failed.act({ type: "compareSettled", id: failed.state.compare!.id, outcome: { kind: "failed", message: "B's build failed" } });
    expect(failed.state.compare).toMatchObject({ status: "failed", failure: "B's build failed" });

    const stopped = comparingRounds();
    stopped.act({ type: "stop" });
    stopped.act({ type: "compareSettled", id: stopped.state.compare!.id, outcome: { kind: "done", comparison: paired(aLink) } });
    expect(stopped.state.compare).toMatchObject({ status: "cancelled", result: null });

    // A second comparison link read while the first's rounds ran; the first's answer comes once the second's run.
    const replaced = comparingRounds();
    const first = replaced.state.compare!.id;
    const other = codec.decodeLink("v=1&len=64K&rd=std&cap=2K&b.cap=64K");
    replaced.act({ type: "linkLoaded", link: other, links: other.links });
    replaced.answerAll();
    expect(replaced.state.compare?.status).toBe("running");
    replaced.act({ type: "compareSettled", id: first, outcome: { kind: "done", comparison: paired(aLink) } });
    expect(replaced.state.compare).toMatchObject({ status: "running", result: null });

    const none = page();
    const before = none.state;
    none.act({ type: "compareSettled", id: 3, outcome: { kind: "done", comparison: paired(aLink) } });
    expect(none.state).toBe(before);
  });

  it("a comparison link's A in, B's rounds waiting for an earlier run to end: the status says Comparing, never Done", () => {
    const p = page();
    p.answer(1); // the defaults' full measurement (2) stays out
    const link = codec.decodeLink(bLink);
    p.act({ type: "linkLoaded", link, links: link.links });
    while (p.state.inFlight.some((r) => r.id !== 2)) p.answer(p.state.inFlight.find((r) => r.id !== 2)!.id);
    expect(p.state.compare?.status).toBe("waiting");
    expect(activityText(p.state)).toBe("Comparing A and B…");
  });
});

describe("the clicker and the blank screen", () => {
  const ORDER: readonly LessonId[] = ["one-byte", "no-help", "async-bufreader"];
  const at = (lesson: LessonId | null, p: Partial<Params> = {}) => page({ ...defaults, lesson, ...p });

  it("B blanks the screen and B again brings it back; forward or back on a blank screen only brings it back", () => {
    const p = at("no-help", { present: true, predict: true });
    p.act({ type: "blank" });
    expect(p.state.blank).toBe(true);
    p.act({ type: "blank" });
    expect(p.state.blank).toBe(false);
    p.act({ type: "blank" });
    expect(p.act({ type: "forward", order: ORDER })).toEqual([]);
    expect(p.state).toMatchObject({ blank: false, revealed: false });
    p.act({ type: "blank" });
    expect(p.act({ type: "back", order: ORDER })).toEqual([]);
    expect(p.state.blank).toBe(false);
  });

  it("forward past the last lesson shows the end slide, and back from it returns to the last lesson's slide without opening another", () => {
    const p = at("async-bufreader");
    expect(p.act({ type: "forward", order: ORDER })).toEqual([]);
    expect(p.state.ended).toBe(true);
    expect(p.act({ type: "back", order: ORDER })).toEqual([]);
    expect(p.state.ended).toBe(false);
    expect(p.act({ type: "back", order: ORDER })).toEqual([{ type: "openLesson", id: "no-help" }]);
  });

  it("forward with no lesson open, or on a lesson outside the order, shows no end slide", () => {
    for (const lesson of [null, "knee-grid"] as const) {
      const p = at(lesson);
      expect(p.act({ type: "forward", order: ORDER }), String(lesson)).toEqual([]);
      expect(p.state.ended, String(lesson)).toBe(false);
    }
    // The middle lesson goes on to the next, never to the end slide.
    const middle = at("no-help");
    expect(middle.act({ type: "forward", order: ORDER })).toEqual([{ type: "openLesson", id: "async-bufreader" }]);
    expect(middle.state.ended).toBe(false);
  });
});

describe("changes made before the codec can write links", () => {
  it("presenter mode, a sweep's range, a view tab and a link read are held, links in hand or not, and the settings stay", () => {
    const on = { ...defaults, present: true };
    const cases = [
      [{ type: "display", params: on, links: links(on) }, { kind: "display", params: on }],
      [{ type: "sweepEdited", params: swept, links: links(swept) }, { kind: "sweep", params: swept }],
      [{ type: "viewChosen", view: "sweep", entered: { params: swept, links: links(swept), note: null } }, { kind: "view", view: "sweep" }],
      [{ type: "linkLoaded", link: decoded(on), links: links(on) }, { kind: "link", link: decoded(on) }],
    ] as const;
    for (const [action, held] of cases) {
      const p = page(defaults, false);
      expect(p.act(action), action.type).toEqual([]);
      expect(p.state.held, action.type).toEqual(held);
      expect(p.state.params, action.type).toEqual(defaults);
    }
  });

  it("once it can, a display change or a sweep range the edge wrote no links for is held all the same", () => {
    const on = { ...defaults, present: true };
    const p = page();
    expect(p.act({ type: "display", params: on, links: null })).toEqual([]);
    expect(p.state.held).toEqual({ kind: "display", params: on });
    expect(p.act({ type: "sweepEdited", params: swept, links: null })).toEqual([]);
    expect(p.state.held).toEqual({ kind: "sweep", params: swept });
    expect(p.state.params).toEqual(defaults);
  });

  it("presenter mode and a sweep's range write their link to the address bar", () => {
    const p = page();
    p.answerAll();
    const on = { ...defaults, present: true };
    expect(asked(p.act({ type: "display", params: on, links: links(on) }))).toEqual([{ type: "writeLink", fragment: links(on).link }]);
    const q = page(swept);
    const narrower: Params = { ...swept, sweep: { axis: "cap", from: 16, to: 1024 } };
    expect(asked(q.act({ type: "sweepEdited", params: narrower, links: links(narrower) }))[0]).toEqual({ type: "writeLink", fragment: links(narrower).link });
  });
});

describe("the engine's state", () => {
  it("a page whose opening requests failed while the engine loads says it is loading; once ready, Ready, with whether its worker is isolated", () => {
    let state = opening(initialState(decoded(defaults), codec)).state;
    state = update(state, { type: "settled", id: 1, outcome: { kind: "failed", message: "boom" } }).state;
    const timed = state.inFlight[0]!;
    state = update(state, { type: "settled", id: timed.id, outcome: { kind: "failed", message: "boom" } }).state;
    expect(state.inFlight).toEqual([]);
    expect(activityText(state)).toBe("Loading engine…");
    state = update(state, { type: "engineReady", isolated: false }).state;
    expect(state.engine).toEqual({ kind: "ready", isolated: false });
    expect(activityText(state)).toBe("Ready");
  });

  it("the sweep view, before its first sweep is asked, says Loading engine… while the engine loads, then Ready to sweep", () => {
    const state = initialState(decoded(swept), codec);
    expect(activityText(state)).toBe("Loading engine…");
    expect(activityText(update(state, { type: "engineReady", isolated: true }).state)).toBe("Ready to sweep");
  });

  it("a broken engine keeps its message: the error line shows it in place of any edit's", () => {
    const p = page();
    p.act({ type: "engineBroken", message: "out of memory" });
    expect(p.state.engine).toEqual({ kind: "broken", message: "out of memory" });
  });
});

describe("the run view's status, the states the decisions file does not reach", () => {
  it("counts that failed leave the timing measuring from scratch: Measuring…; once it failed too, Ready", () => {
    const p = page();
    p.fail(1);
    expect(activityText(p.state)).toBe("Measuring…");
    p.fail(p.newest("timer").id);
    expect(activityText(p.state)).toBe("Ready");
  });

  it("a drag of the settings a quick estimate is on screen for says Estimating…", () => {
    const p = page();
    p.answerAll();
    const moved = { ...defaults, cap: 2048 };
    p.edit(moved, true);
    p.answer(p.newest("counter").id);
    p.act({ type: "debounced" });
    p.answerAll();
    expect(activityText(p.state)).toBe("Quick estimate");
    p.edit(moved, true);
    expect(activityText(p.state)).toBe("Estimating…");
  });

  it("Stop over a full measurement says Stopped, not 'not timed'", () => {
    const p = page();
    p.answerAll();
    p.act({ type: "measure" });
    p.act({ type: "stop" });
    expect(activityText(p.state)).toBe("Stopped");
  });

  it("Measure again over a full measurement while its build is being compiled says Measuring again…", () => {
    const p = page();
    p.answerAll();
    p.act({ type: "building", builds: ["timing-fixed"] });
    p.act({ type: "measure" });
    expect(activityText(p.state)).toBe("Measuring again…");
  });

  it("new settings whose stages failed: Settings changed… while an earlier run is out, then Settings changed: not measured", () => {
    const p = page();
    p.answer(1); // the defaults' full measurement (2) stays out
    p.edit({ ...defaults, cap: 4096 });
    p.fail(p.newest("counter").id);
    p.fail(p.newest("timer").id);
    expect(activityText(p.state)).toBe("Settings changed…");
    p.answer(2);
    expect(activityText(p.state)).toBe("Settings changed: not measured");
  });
});

describe("timing what is on screen", () => {
  it("the quick estimate times the counts on screen", () => {
    const p = page();
    p.answerAll();
    p.edit({ ...defaults, cap: 2048 }, true);
    p.answer(p.newest("counter").id);
    const counts = p.state.shown.read!.report;
    expect(runs(p.act({ type: "debounced" }))).toMatchObject([{ stage: "quick", counts }]);
    expect(runs(p.act({ type: "debounced" }))).toEqual([]);
  });

  it("a quick estimate due after its counts failed goes out at once: counts of earlier settings, or a timer, are no counts to wait for", () => {
    const earlier = page(); // the opening's counts (1) stay out
    earlier.edit({ ...defaults, cap: 2048 }, true);
    earlier.fail(earlier.newest("counter").id);
    expect(runs(earlier.act({ type: "debounced" }))).toMatchObject([{ stage: "quick", counts: null }]);

    const timer = page();
    timer.fail(1); // the timing goes out with no counts (2)
    timer.edit({ ...defaults }, true);
    timer.fail(timer.newest("counter").id);
    expect(timer.state.inFlight.map((r) => r.worker)).toEqual(["timer"]);
    expect(runs(timer.act({ type: "debounced" }))).toMatchObject([{ stage: "quick", counts: null }]);
  });

  it("Measure again while the controls rest before their quick estimate cancels the estimate", () => {
    const p = page();
    p.answerAll();
    p.edit({ ...defaults, cap: 2048 }, true);
    p.answer(p.newest("counter").id);
    const effects = p.act({ type: "measure" });
    expect(asked(effects).map((e) => e.type)).toEqual(["cancelDebounce", "run", "run"]);
    expect(stages(effects)).toEqual(["counts", "full"]);
    expect(p.act({ type: "debounced" })).toEqual([]);
  });

  it("the single run view shown again times what it lacks: counts first when it has nothing, the full measurement over counts, nothing over a full one", () => {
    const toRun = (p: ReturnType<typeof page>) => {
      const run = { ...p.state.params, view: "run" as const };
      return p.act({ type: "viewChosen", view: "run", entered: { params: run, links: links(run), note: null } });
    };
    // Nothing of these settings: both the sweep view's opening requests failed.
    const nothing = page(swept);
    nothing.fail(1);
    nothing.fail(nothing.newest("timer").id);
    const fresh = toRun(nothing);
    expect(stages(fresh)).toEqual(["counts"]);
    expect(stages(nothing.answer(nothing.newest("counter").id))).toEqual(["full"]);
    // Counts only: the full measurement failed.
    const counted = page(swept);
    counted.answer(1);
    counted.fail(counted.newest("timer").id);
    const counts = counted.state.shown.read!.report;
    expect(runs(toRun(counted))).toMatchObject([{ stage: "full", counts }]);
    // A full one.
    const full = page(swept);
    full.answerAll();
    expect(runs(toRun(full))).toEqual([]);
  });

  it("presenter mode while the full measurement is on its way, or in the sweep view over counts alone, asks for no timing", () => {
    const on = (p: ReturnType<typeof page>) => {
      const params = { ...p.state.params, present: true };
      return p.act({ type: "display", params, links: links(params) });
    };
    const coming = page();
    coming.answer(1);
    expect(runs(on(coming))).toEqual([]);
    const sweepView = page(swept);
    sweepView.answer(1);
    sweepView.fail(sweepView.newest("timer").id);
    expect(runs(on(sweepView))).toEqual([]);
  });

  it("after Stop, showing the single run view measures nothing; Run sweep is asking again, and then it does", () => {
    const p = page(swept);
    p.act({ type: "stop" });
    const run = { ...swept, view: "run" as const };
    expect(runs(p.act({ type: "viewChosen", view: "run", entered: { params: run, links: links(run), note: null } }))).toEqual([]);
    p.act({ type: "viewChosen", view: "sweep", entered: { params: swept, links: links(swept), note: null } });
    p.act({ type: "sweepRun" });
    expect(stages(p.act({ type: "viewChosen", view: "run", entered: { params: run, links: links(run), note: null } }))).toEqual(["counts"]);
  });

  it("the first numbers, come as a full measurement after failed counts, reach all three milestones at once", () => {
    const p = page();
    p.fail(1);
    const reached = p.answer(p.newest("timer").id).flatMap((e) => (e.type === "milestone" ? [e.milestone] : []));
    expect(reached).toEqual(["firstNumbers", "firstFullShown", "firstFull"]);
  });
});

describe("a slider let go", () => {
  it("in the sweep view, after a drag, sweeps the settings it rests on", () => {
    const p = page(swept);
    p.act({ type: "sweepSettled", id: p.state.sweep!.id, outcome: { kind: "done", report: sweepReport(links(swept).sweep!) }, elapsedMs: 9 });
    const moved = { ...swept, cap: 4096 };
    expect(p.edit(moved, true).some((e) => e.type === "sweep")).toBe(false);
    p.answerAll();
    const released = p.edit(moved);
    expect(released.filter((e) => e.type === "sweep")).toMatchObject([{ fragment: links(moved).sweep }]);
  });

  it("in the sweep view, set back to the value swept, asks nothing, though the single run's timing failed", () => {
    const p = page(swept);
    p.answer(1);
    p.fail(p.newest("timer").id);
    p.act({ type: "sweepSettled", id: p.state.sweep!.id, outcome: { kind: "done", report: sweepReport(links(swept).sweep!) }, elapsedMs: 9 });
    expect(asked(p.edit({ ...swept })).map((e) => e.type)).toEqual(["writeLink"]);
  });

  it("where its drag's counts failed, counts again first", () => {
    const p = page();
    p.answerAll();
    const moved = { ...defaults, cap: 1024 };
    p.edit(moved, true);
    p.fail(p.newest("counter").id);
    expect(stages(p.edit(moved))).toEqual(["counts"]);
  });
});

describe("the sweep, run and shown again", () => {
  it("Run sweep while the sweep runs cancels it and sweeps anew with an id of its own; after it ended, only sweeps", () => {
    const p = page(swept);
    const first = p.state.sweep!.id;
    const effects = asked(p.act({ type: "sweepRun" }));
    const id = p.state.sweep!.id;
    expect(effects).toEqual([{ type: "cancelSweep" }, { type: "sweep", id, params: swept, fragment: links(swept).sweep }]);
    // Measure again in the sweep view: new requests and a new sweep, each with an id no earlier request or sweep had.
    const before = [first, id, ...p.state.inFlight.map((r) => r.id)];
    const again = p.act({ type: "measure" });
    const next = [...runs(again).map((e) => e.id), p.state.sweep!.id];
    expect(new Set([...before, ...next]).size).toBe(before.length + next.length);
    p.act({ type: "sweepSettled", id: p.state.sweep!.id, outcome: { kind: "done", report: sweepReport(links(swept).sweep!) }, elapsedMs: 9 });
    expect(asked(p.act({ type: "sweepRun" })).map((e) => e.type)).toEqual(["sweep"]);
  });

  it("Run sweep with no axis picked asks nothing", () => {
    const p = page({ ...defaults, view: "sweep", sweep: null });
    expect(p.act({ type: "sweepRun" })).toEqual([]);
    expect(p.state.sweep).toBeNull();
  });

  it("the sweep view shown again sweeps again only when its sweep failed", () => {
    const run = { ...swept, view: "run" as const };
    const there = (p: ReturnType<typeof page>) => {
      p.act({ type: "viewChosen", view: "run", entered: { params: run, links: links(run), note: null } });
      return p.act({ type: "viewChosen", view: "sweep", entered: { params: swept, links: links(swept), note: null } });
    };
    const failed = page(swept);
    failed.act({ type: "sweepSettled", id: failed.state.sweep!.id, outcome: { kind: "failed", message: "too many points" }, elapsedMs: 9 });
    expect(there(failed).filter((e) => e.type === "sweep")).toHaveLength(1);
    const done = page(swept);
    done.act({ type: "sweepSettled", id: done.state.sweep!.id, outcome: { kind: "done", report: sweepReport(links(swept).sweep!) }, elapsedMs: 9 });
    expect(there(done).filter((e) => e.type === "sweep")).toEqual([]);
  });
});

describe("the lesson's own results", () => {
  const lesson = lessons.find((l) => l.id === "one-byte")!;
  const own = codec.decodeLink(lesson.link);
  const knee = codec.decodeLink(lessons.find((l) => l.id === "knee-grid")!.link);

  it("keeps the lesson's best measurement of its own link, whatever the settings did since, and takes a newer full one", () => {
    const p = page(own);
    p.answerAll();
    const full = p.state.shown.read!.report;
    expect(lessonResults(p.state).report).toBe(full);
    // Away and back: the lesson's link is counted afresh, never in place of its full measurement.
    p.edit({ ...own.params, cap: 64 });
    p.answer(p.newest("counter").id);
    p.edit(own.params);
    p.answer(p.newest("counter").id);
    expect(p.state.shown.read?.report.stage).toBe("counts");
    expect(lessonResults(p.state).report).toBe(full);
    // Measured in full again: the newer one.
    p.answerAll();
    const newer = p.state.shown.read!.report;
    expect(newer).not.toBe(full);
    expect(lessonResults(p.state).report).toBe(newer);
  });

  it("the same lesson's link with other settings (its 'Then try') keeps the answer its own link measured", () => {
    const p = page(own);
    p.answerAll();
    const full = p.state.shown.read!.report;
    const tried = codec.decodeLink(lesson.link.replace("cap=8K", "cap=64"));
    p.act({ type: "linkLoaded", link: tried, links: tried.links });
    expect(lessonResults(p.state).report).toBe(full);
  });

  it("a sweep's lesson takes its own sweep's answer, keeps it while that sweep is run again, and never takes a sweep of other settings", () => {
    const p = page(knee);
    expect(lessonAnswerComing(p.state)).toBe(true);
    const answer = sweepReport(knee.links.sweep!);
    p.act({ type: "sweepSettled", id: p.state.sweep!.id, outcome: { kind: "done", report: answer }, elapsedMs: 9 });
    expect(lessonResults(p.state).sweep).toBe(answer);
    p.act({ type: "sweepRun" });
    expect(p.state.sweep?.report).toBeNull();
    expect(lessonResults(p.state).sweep).toBe(answer);
    // Other settings swept: the lesson's answer stays its own, and is still in.
    const wider = { ...knee.params, seed: 43 };
    p.act({ type: "sweepEdited", params: wider, links: links(wider) });
    p.act({ type: "sweepSettled", id: p.state.sweep!.id, outcome: { kind: "done", report: sweepReport(links(wider).sweep!) }, elapsedMs: 9 });
    expect(lessonResults(p.state).sweep).toBe(answer);
    expect(lessonAnswerComing(p.state)).toBe(true);
  });

  it("a lesson opened with a sweep its own link lacks, or without the one it has: once its own link is known, its answer is of that link's kind", () => {
    // knee-grid's answer is a sweep's: opened without its sweep keys, nothing on screen sweeps its own link.
    const kneeUnswept = codec.decodeLink(lessons.find((l) => l.id === "knee-grid")!.link.replace(/&sweep=[^&]*&from=[^&]*&to=[^&]*/, ""));
    expect(kneeUnswept.links.sweep).toBeNull();
    const p = page(kneeUnswept);
    expect(lessonAnswerComing(p.state)).toBe(true);
    p.act({ type: "lessonLink", link: knee });
    expect(lessonAnswerComing(p.state)).toBe(false);
    // one-byte's answer is a count: opened with a sweep added, the sweep is not its answer.
    const oneByteSwept = codec.decodeLink(`${lesson.link.slice(1)}&sweep=cap&from=16&to=64K`);
    expect(oneByteSwept.links.sweep).not.toBeNull();
    const q = page(oneByteSwept);
    q.act({ type: "lessonLink", link: own });
    q.answerAll();
    expect(lessonResults(q.state).report?.link).toBe(own.links.run);
    expect(lessonResults(q.state).sweep).toBeNull();
    expect(lessonAnswerComing(q.state)).toBe(true);
  });

  it("the room's hands counted for one lesson are gone at the next", () => {
    const p = page({ ...own.params, present: true, predict: true });
    p.act({ type: "room", action: { kind: "hands", letter: "C", count: 3 } });
    expect(p.state.room.hands.C).toBe(3);
    const next = codec.decodeLink(lessons.find((l) => l.id === "no-help")!.link);
    const effects = p.act({ type: "linkLoaded", link: next, links: next.links });
    expect(p.state.room.hands.C).toBe(0);
    expect(effects.filter((e) => e.type === "room")).toEqual([]);
  });

  it("without a lesson, the answer is the results on screen, and it is always coming", () => {
    const p = page();
    expect(lessonAnswerComing(p.state)).toBe(true);
    p.answerAll();
    expect(lessonResults(p.state).report).toBe(p.state.shown.read!.report as LabReport);
  });
});
