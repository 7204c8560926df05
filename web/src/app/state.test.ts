// The page's model, case by case: the scenarios the property test
// (state.property.test.ts) generalises, each pinned as a person meets it.

import { describe, expect, it } from "vitest";
import type { Params } from "../engine/types.gen";
import { codec, defaults, links, page, sweepReport } from "./state-fixtures";
import {
  MAX_ENGINE_NOTICES,
  activityText,
  currentStage,
  exportFragment,
  isRunning,
  pendingStages,
  staleNote,
  type Effect,
} from "./state";

const runs = (effects: Effect[]) => effects.filter((e): e is Extract<Effect, { type: "run" }> => e.type === "run").map((e) => e.stage);

describe("the page's model", () => {
  it("opens by counting, then times those counts in full, and says Done only then", () => {
    const p = page();
    expect(p.effects[0]).toEqual({ type: "writeLink", fragment: links(defaults).link });
    expect(runs(p.effects)).toEqual(["counts"]);
    expect(activityText(p.state)).toBe("Counting…");
    expect(runs(p.answer(1))).toEqual(["full"]);
    expect(p.effects[0]).toMatchObject({ type: "run", stage: "full", counts: { stage: "counts" } });
    expect(activityText(p.state)).toBe("Exact counts; timing…");
    p.answerAll();
    expect(activityText(p.state)).toBe("Done");
  });

  it("says Done only once the charts show the full measurement", () => {
    const p = page();
    p.answer(1);
    const full = p.state.inFlight.find((r) => r.stage === "full")!;
    p.answer(full.id, true);
    expect(activityText(p.state)).toBe("Drawing…");
    p.act({ type: "drawn", report: p.state.shown.read!.report });
    expect(activityText(p.state)).toBe("Done");
  });

  it("Measure again after Done times the new counts, never the full report on screen (the engine refuses to time that)", () => {
    const p = page();
    p.answerAll();
    expect(activityText(p.state)).toBe("Done");
    expect(runs(p.act({ type: "measure" }))).toEqual(["counts"]);
    const counts = p.state.inFlight.find((r) => r.worker === "counter")!;
    expect(runs(p.answer(counts.id))).toEqual(["full"]);
    expect(p.effects[0]).toMatchObject({ type: "run", stage: "full", counts: { stage: "counts" } });
    p.answerAll();
    expect(activityText(p.state)).toBe("Done");
  });

  it("Stop before any result, then Measure again, measures again (it did nothing before)", () => {
    const p = page();
    expect(p.act({ type: "stop" })).toEqual([{ type: "cancelRuns" }]);
    expect(activityText(p.state)).toBe("Stopped");
    expect(isRunning(p.state)).toBe(false);
    // The cancelled request still settles; it changes nothing.
    p.act({ type: "settled", id: 1, outcome: { kind: "dropped" } });
    expect(runs(p.act({ type: "measure" }))).toEqual(["counts"]);
    expect(activityText(p.state)).toBe("Counting…");
    p.answerAll();
    expect(activityText(p.state)).toBe("Done");
  });

  it("Stop during timing leaves exact counts that say they are not timed, and no timing promised", () => {
    const p = page();
    p.answer(1);
    p.act({ type: "stop" });
    expect(pendingStages(p.state)).toEqual([]);
    expect(activityText(p.state)).toBe("Stopped: not timed");
  });

  it("a finished sweep goes stale when a setting changes: never Done over it, and the sweep view sweeps again", () => {
    const swept: Params = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } };
    const p = page(swept);
    const sweep = p.effects.find((e) => e.type === "sweep")!;
    expect(sweep).toBeDefined();
    // Running: never Done, whatever the run's report says.
    p.answerAll();
    expect(activityText(p.state)).toBe("Sweeping…");
    p.act({ type: "sweepSettled", id: p.state.sweep!.id, outcome: { kind: "done", report: sweepReport(p.state.sweep!.fragment) }, elapsedMs: 9 });
    expect(activityText(p.state)).toBe("Done");
    expect(exportFragment(p.state)).toBe(links(swept).sweep);
    // Worst chunking: the sweep on screen is of the normal network.
    const worst: Params = { ...swept, chunk: { kind: "uniform", min: 1, max: 128 } as Params["chunk"] };
    const effects = p.edit(worst);
    expect(effects.some((e) => e.type === "sweep")).toBe(true);
    expect(activityText(p.state)).toBe("Sweeping…");
    p.act({ type: "sweepCancel" });
    expect(activityText(p.state)).toBe("Sweep cancelled");
    // A drag in the sweep view counts but does not sweep until let go: the sweep on screen is of other settings, and says so.
    const other = page(swept);
    other.act({ type: "sweepSettled", id: other.state.sweep!.id, outcome: { kind: "done", report: sweepReport(other.state.sweep!.fragment) }, elapsedMs: 9 });
    other.edit({ ...swept, cap: 4096 }, true);
    other.answerAll();
    expect(activityText(other.state)).toBe("Settings changed: not swept");
    expect(staleNote(other.state)).toMatch(/earlier settings/);
    expect(exportFragment(other.state)).toBe(links(swept).sweep);
  });

  it("a single run's requests, address bar and exports are the codec's links of the same settings without a sweep, in the single run view", () => {
    const swept: Params = { ...defaults, view: "run", sweep: { axis: "cap", from: 16, to: 65536 } };
    // The oracle: the codec asked about the same settings with no sweep at all (not the links the model was handed).
    const unswept = links({ ...swept, sweep: null });
    const p = page(swept);
    const sent = p.effects.filter((e): e is Extract<Effect, { type: "run" }> => e.type === "run");
    expect(sent.map((e) => e.fragment)).toEqual([unswept.run]);
    expect(p.effects.some((e) => e.type === "sweep")).toBe(false);
    p.answerAll();
    p.answerAll();
    expect(p.state.fragment).toBe(unswept.link);
    expect(exportFragment(p.state)).toBe(unswept.run);
    expect(codec.decodeLink(exportFragment(p.state)!).params.sweep).toBeNull();
  });

  it("a held change is made once: codecReady clears it, and a link read later replaces one still held", () => {
    const p = page(defaults, false);
    const one = { ...defaults, cap: 1 };
    p.act({ type: "edited", params: one, links: null, live: false });
    expect(p.state.held).toEqual({ kind: "edit", params: one, live: false });
    expect(p.act({ type: "codecReady" })).toEqual([{ type: "replay", held: { kind: "edit", params: one, live: false } }]);
    expect(p.state.held).toBeNull();
    // The page makes the change again; a second codecReady (the program build reloaded) replays nothing older over it.
    p.edit(one);
    const two = { ...defaults, cap: 2 };
    p.edit(two);
    expect(p.act({ type: "codecReady" })).toEqual([]);
    expect(p.state.params).toEqual(two);
    // A change the edge could not write links for is held even now; a link read after it is newer and wins: nothing is replayed later.
    p.act({ type: "edited", params: one, links: null, live: false });
    expect(p.state.held).not.toBeNull();
    const lesson = codec.decodeLink("cap=4K&lesson=one-byte");
    p.act({ type: "linkLoaded", link: lesson, links: lesson.links });
    expect(p.state.held).toBeNull();
    expect(p.act({ type: "codecReady" })).toEqual([]);
    expect(p.state.params.cap).toBe(4096);
  });

  it("a run view's stale results say so while only a sweep runs: the note waits for this view's own stages, not for anything running", () => {
    const swept: Params = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } };
    const p = page(swept);
    expect(p.state.sweep?.status).toBe("running");
    // To the single run view: the same run link, so only the view changes; the sweep keeps running.
    const run: Params = { ...swept, view: "run" };
    p.act({ type: "viewChosen", view: "run", entered: { params: run, links: links(run), note: null } });
    p.answerAll();
    p.answerAll();
    expect(staleNote(p.state)).toBeNull();
    // A new capacity whose counts and timing both fail: nothing is pending for this view, the sweep still runs.
    p.edit({ ...run, cap: 4096 });
    const counts = p.state.inFlight.find((r) => r.worker === "counter")!;
    p.act({ type: "settled", id: counts.id, outcome: { kind: "failed", message: "boom" } });
    const timed = p.state.inFlight.find((r) => r.worker === "timer")!;
    p.act({ type: "settled", id: timed.id, outcome: { kind: "failed", message: "boom" } });
    expect(pendingStages(p.state)).toEqual([]);
    expect(p.state.sweep?.status).toBe("running");
    expect(staleNote(p.state)).toMatch(/earlier settings/);
  });

  it("a cancelled sweep stays cancelled when its last point's answer races the Cancel", () => {
    const swept: Params = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } };
    for (const how of ["sweepCancel", "stop"] as const) {
      const p = page(swept);
      const id = p.state.sweep!.id;
      p.act({ type: how });
      expect(p.state.sweep?.status).toBe("cancelled");
      // The worker had finished its last point before the cancel reached it.
      p.act({ type: "sweepPoint", id, report: sweepReport(p.state.sweep!.fragment) });
      p.act({ type: "sweepSettled", id, outcome: { kind: "done", report: sweepReport(p.state.sweep!.fragment) }, elapsedMs: 9 });
      expect(p.state.sweep?.status, how).toBe("cancelled");
      expect(activityText(p.state), how).toBe("Sweep cancelled");
    }
  });

  it("taking the sweep's axis away while it runs cancels it", () => {
    const swept: Params = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } };
    const p = page(swept);
    const id = p.state.sweep!.id;
    const off: Params = { ...swept, sweep: null };
    expect(p.act({ type: "sweepEdited", params: off, links: links(off) }).map((e) => e.type)).toContain("cancelSweep");
    expect(p.state.sweep?.status).toBe("cancelled");
    // Its late points are not taken.
    p.act({ type: "sweepPoint", id, report: sweepReport(p.state.sweep!.fragment) });
    expect(p.state.sweep?.report).toBeNull();
  });

  it("an older sweep's late points and end never reach the newer sweep", () => {
    const swept: Params = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } };
    const p = page(swept);
    const old = p.state.sweep!;
    const narrower: Params = { ...swept, sweep: { axis: "cap", from: 16, to: 1024 } };
    expect(p.act({ type: "sweepEdited", params: narrower, links: links(narrower) }).some((e) => e.type === "sweep")).toBe(true);
    const fresh = p.state.sweep!;
    expect(fresh.id).not.toBe(old.id);
    p.act({ type: "sweepPoint", id: old.id, report: sweepReport(old.fragment) });
    expect(p.state.sweep?.report).toBeNull();
    p.act({ type: "sweepSettled", id: old.id, outcome: { kind: "done", report: sweepReport(old.fragment) }, elapsedMs: 9 });
    expect(p.state.sweep).toEqual(fresh);
    expect(exportFragment(p.state)).toBeNull();
    expect(activityText(p.state)).toBe("Sweeping…");
  });

  it("presenter mode changes the link, not the results: they stay current and nothing runs", () => {
    const p = page();
    p.answerAll();
    p.answerAll();
    const on = { ...defaults, present: true };
    const effects = p.act({ type: "display", params: on, links: links(on) });
    expect(runs(effects)).toEqual([]);
    expect(activityText(p.state)).toBe("Done");
  });

  it("a late answer of earlier settings never replaces the current one", () => {
    const p = page();
    p.answer(1); // counts of the defaults; their full measurement is id 2
    p.edit({ ...defaults, cap: 1024 });
    const counts = p.state.inFlight.find((r) => r.stage === "counts")!;
    p.answer(counts.id);
    p.answer(2);
    expect(p.state.shown.read?.fragment).toBe(links({ ...defaults, cap: 1024 }).run);
  });

  it("a drag shows counts at once and a quick estimate once the controls rest; letting go measures in full", () => {
    const p = page();
    p.answerAll();
    p.answerAll();
    expect(p.edit({ ...defaults, cap: 2048 }, true).map((e) => e.type)).toEqual(["writeLink", "run", "debounce"]);
    p.answer(p.state.inFlight[0]!.id);
    expect(runs(p.act({ type: "debounced" }))).toEqual(["quick"]);
    p.answerAll();
    expect(activityText(p.state)).toBe("Quick estimate");
    expect(runs(p.edit({ ...defaults, cap: 2048 }))).toEqual(["full"]);
    p.answerAll();
    expect(activityText(p.state)).toBe("Done");
  });

  it("keeps only the newest engine notices, and dismissing removes exactly one", () => {
    const p = page();
    for (let i = 0; i < MAX_ENGINE_NOTICES + 2; i++) p.act({ type: "engineNotice", message: `restart ${i}` });
    expect(p.state.notices).toHaveLength(MAX_ENGINE_NOTICES);
    expect(p.state.notices.at(-1)?.message).toBe(`restart ${MAX_ENGINE_NOTICES + 1}`);
    p.act({ type: "noticeDismissed", id: p.state.notices[0]!.id });
    expect(p.state.notices).toHaveLength(MAX_ENGINE_NOTICES - 1);
  });

  it("an edit made before links can be written is held, the newest winning, and replayed once they can", () => {
    const p = page(defaults, false);
    expect(p.act({ type: "edited", params: { ...defaults, cap: 1 }, links: null, live: false })).toEqual([]);
    // Links in hand change nothing: the model waits for the codec it was told of.
    expect(p.act({ type: "edited", params: { ...defaults, cap: 2 }, links: links({ ...defaults, cap: 2 }), live: false })).toEqual([]);
    expect(p.state.params).toEqual(defaults);
    expect(p.act({ type: "codecReady" })).toEqual([{ type: "replay", held: { kind: "edit", params: { ...defaults, cap: 2 }, live: false } }]);
  });

  it("a link read before links can be written waits the same way, and a view tab too", () => {
    const p = page(defaults, false);
    const lesson = codec.decodeLink("cap=4K&lesson=one-byte");
    p.act({ type: "linkLoaded", link: lesson, links: null });
    expect(p.act({ type: "codecReady" })).toEqual([{ type: "replay", held: { kind: "link", link: lesson } }]);
    const q = page(defaults, false);
    q.act({ type: "viewChosen", view: "timeline", entered: null });
    expect(q.act({ type: "codecReady" })).toEqual([{ type: "replay", held: { kind: "view", view: "timeline" } }]);
  });

  it("the timeline view over a full measurement of the same settings shows it, and so does the run view back: nothing runs", () => {
    const p = page();
    p.answerAll();
    p.answerAll();
    expect(currentStage(p.state)).toBe("full");
    const timeline = { ...defaults, view: "timeline" as const };
    // Its run link says its view: a different link, the same experiment.
    expect(links(timeline).run).not.toBe(p.state.runFragment);
    expect(runs(p.act({ type: "viewChosen", view: "timeline", entered: { params: timeline, links: links(timeline), note: null } }))).toEqual([]);
    expect(p.state.view).toBe("timeline");
    expect(currentStage(p.state)).toBe("full");
    expect(activityText(p.state)).toBe("Done");
    expect(runs(p.act({ type: "viewChosen", view: "run", entered: { params: defaults, links: links(defaults), note: null } }))).toEqual([]);
    expect(currentStage(p.state)).toBe("full");
  });

  it("a view tab that brings settings of its own changes the experiment and says so; one with the same run link only shows the view", () => {
    const p = page();
    p.answerAll();
    p.answerAll();
    // The sweep view without an axis: the same run link, so nothing runs and the single run's results stay.
    const sweep = { ...defaults, view: "sweep" as const };
    expect(runs(p.act({ type: "viewChosen", view: "sweep", entered: { params: sweep, links: links(sweep), note: "ignored: nothing changed" } }))).toEqual([]);
    expect(p.state.notices).toEqual([]);
    expect(activityText(p.state)).toBe("Pick an axis");
    const own = { ...defaults, view: "timeline" as const, cap: 32, rs: 1 };
    expect(runs(p.act({ type: "viewChosen", view: "timeline", entered: { params: own, links: links(own), note: "The timeline opened on its own starting settings." } }))).toEqual(["counts"]);
    expect(p.state.notices.map((n) => [n.source, n.message])).toEqual([["settings", "The timeline opened on its own starting settings."]]);
    // Its note goes with the view: the sweep view, on the same run link, does not keep saying it.
    p.answerAll();
    p.answerAll();
    const back = { ...own, view: "sweep" as const };
    p.act({ type: "viewChosen", view: "sweep", entered: { params: back, links: links(back), note: null } });
    expect(p.state.params.cap).toBe(32);
    expect(p.state.notices).toEqual([]);
  });

  it("a fresh worker is said in a notice unless a running request's failure says it", () => {
    const p = page();
    expect(isRunning(p.state)).toBe(true);
    p.act({ type: "respawned", reason: "The engine stopped answering." });
    expect(p.state.notices).toEqual([]);
    p.answerAll();
    p.answerAll();
    p.act({ type: "respawned", reason: "The engine stopped answering." });
    expect(p.state.notices.map((n) => n.message)).toEqual(["The engine stopped answering. A fresh engine was started."]);
  });

  it("reaches its milestones once each: the first numbers, the first full measurement on screen, then the opening settled", () => {
    const p = page();
    const reached = (effects: Effect[]) => effects.flatMap((e) => (e.type === "milestone" ? [e.milestone] : []));
    expect(reached(p.answer(1))).toEqual(["firstNumbers"]);
    const full = p.state.inFlight[0]!.id;
    expect(reached(p.answer(full))).toEqual(["firstFullShown", "firstFull"]);
    p.act({ type: "measure" });
    p.answerAll();
    p.answerAll();
    expect(reached(p.effects)).toEqual([]);
  });
});
