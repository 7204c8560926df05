// The page's invariants, by property: random sequences of what a person and
// the workers do (edit, drag, Measure again, Stop, switch view or lab, run or
// cancel a sweep, open a lesson, a worker crash, results arriving late, out
// of order or never, two answers failing in a row while an older request is
// out, an older sweep's late points, Cancel racing a sweep's last point,
// changes made while the codec has loaded but the page has not been told)
// drive the pure model, and after every step:
//
//   1. "Done" only when the view's results are of the settings on screen (by
//      the link each result really carries, not the model's bookkeeping), in
//      full, and nothing runs or waits to run for them;
//   2. a view whose results are of other settings says so: a stale note, or,
//      while this view's own stages (or its sweep) are measuring, the status
//      line's measuring word (a sweep running behind the single run's view
//      is not this view measuring);
//   3. "measure" (Measure again) always sends a request for the settings on
//      screen, and once the workers answer everything the page says "Done";
//   4. what the view's exports carry is the link its results were measured
//      with, and when "Done", Copy link is the same experiment; a single
//      run's links never carry a sweep;
//   5. nothing waits on nothing: a timed stage waiting for counts has counts
//      on their way, and a debounce the state says is pending has its timer;
//      the page says it runs exactly while the simulated workers hold a
//      request, a timer or a sweep it sent and has neither cancelled nor had
//      answered (the world's own bookkeeping, not the model's);
//   7b. a sweep that ended (done, cancelled, failed) keeps its status, however
//      its worker's last point or answer races the Cancel;
//   8. workshops: forward reveals a hidden answer or opens the next lesson,
//      never both; a lesson opened from inside the page keeps presenter
//      mode and predict; a newly opened lesson asks its question again;
//   9. the timeline's step (a display key) ends no run and leaves the
//      results as current as they were; a note about settings the page chose is one notice,
//      and goes when the settings change again; a view that opens on settings
//      of its own says so;
//  10. a change made before the codec can write links is held (nothing of
//      it is made), the newest winning, and made once it can, once: a later
//      codecReady replays nothing;
//  11. the page's milestones (first numbers, first full measurement) are
//      reached once each, in order; a fresh worker is announced unless a
//      running request's failure says so already.
//
// The worker is simulated by the test (it answers what the effects ask, with
// reports that carry the link they were asked for); the model is the real
// one, and so are the links: every edit's links, the view they show and
// whether two links are one experiment come from the engine's codec (the
// real wasm, as the page has it).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lessons } from "../engine/lessons";
import { realCodec } from "../engine/real-engine";
import type { Decoded, LabReport, LessonId, Links, Params, Stage, SweepReport } from "../engine/types.gen";
import schema from "../engine/schema.gen.json";
import {
  activityText,
  chartsDrawn,
  currentStage,
  exportFragment,
  initialState,
  isRunning,
  keepWorkshop,
  opening,
  predicting,
  pendingStages,
  reportCurrent,
  sameLink,
  shownOf,
  staleNote,
  sweepCurrent,
  update,
  viewOf,
  type Action,
  type AppState,
  type Effect,
  type Held,
} from "./state";

const SWEEP_KEYS: readonly string[] = schema.sweep_keys;
const defaults = schema.defaults as unknown as Params;
const codec = realCodec();

/** The links the page writes for `p`: the engine's codec's (pure, so each set of params is asked once). */
const written = new Map<string, Links>();
function linksOf(p: Params): Links {
  const key = JSON.stringify(p);
  let links = written.get(key);
  if (!links) written.set(key, (links = codec.links(p)));
  return links;
}

const decoded = (p: Params): Decoded => ({ params: p, notices: [], fragment: linksOf(p).link, links: linksOf(p) });

/** True when a link carries one of a sweep's keys. */
const carriesSweep = (link: string): boolean => [...new URLSearchParams(link).keys()].some((k) => SWEEP_KEYS.includes(k));

/** What a person or a worker can do next; indexes pick among what is in flight at that moment. */
type Move =
  | { kind: "edit"; cap: number; rs: number; live: boolean }
  | { kind: "lab"; lab: "read" | "write" }
  /** A view tab; `own`: the view opens on settings of its own (as the timeline may), said in a notice. */
  | { kind: "view"; view: "run" | "sweep" | "timeline"; own: boolean }
  | { kind: "present" }
  | { kind: "sweepAxis"; axis: "cap" | "rs" | null; to: number }
  | { kind: "lesson"; cap: number }
  | { kind: "measure" }
  | { kind: "stop" }
  | { kind: "debounced" }
  | { kind: "settle"; pick: number; how: "report" | "failed" | "dropped" }
  | { kind: "sweepRun" }
  | { kind: "sweepCancel" }
  | { kind: "sweepPoint" }
  | { kind: "sweepSettle"; how: "done" | "cancelled" | "failed" }
  /** A sweep replaced by a newer one still delivers a point, or its end (the real worker can, until it is terminated). */
  | { kind: "latePoint"; pick: number; end: boolean }
  /** Cancel (or Stop) races the sweep's last point: the worker had sent its point and "done" before the cancel reached it. */
  | { kind: "cancelRace"; stop: boolean }
  /** The two newest requests fail or are dropped, one after the other, while an older one is still out. */
  | { kind: "failTwo"; how: "failed" | "dropped" }
  /** The codec's program build has loaded at the page's edge (it writes links) but the page has not yet been told (codecReady comes a microtask later). */
  | { kind: "codecLoaded" }
  | { kind: "crash" }
  /** The open lab's charts finish drawing its report. */
  | { kind: "draw" }
  | { kind: "engineReady" }
  /** The engine is still loading (a page's first moments). */
  | { kind: "engineLost" }
  | { kind: "codecReady" }
  | { kind: "predict" }
  | { kind: "reveal" }
  | { kind: "guess"; guess: number }
  | { kind: "forward" }
  | { kind: "back" }
  /** The timeline's step moved (a display key). */
  | { kind: "step"; step: number }
  /** A view opened on settings of its own, said in a notice. */
  | { kind: "settingsNote" }
  /** A held change made again once links can be written (never generated: `replayed`). */
  | { kind: "change"; params: Params; how: "edit" | "live" | "display" | "sweep" | "link" };

/** The status line's words while the view's own stages or sweep measure (activityText). */
const MEASURING_WORDS = ["Counting…", "Measuring…", "Exact counts; timing…", "Quick estimate; measuring…", "Estimating…", "Measuring again…", "Sweeping earlier settings…", "Sweeping…"];

/** The lessons' order the clicker moves along: the first three of the engine's. */
const ORDER: LessonId[] = lessons.slice(0, 3).map((l) => l.id);

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
/** Weighted so that the sequences that matter (edit, answers, timers) are common and the rare events stay rare. */
const move: fc.Arbitrary<Move> = fc.oneof(
  w(6, fc.record({ kind: fc.constant("edit" as const), cap: fc.integer({ min: 1, max: 3 }), rs: fc.integer({ min: 1, max: 2 }), live: fc.boolean() })),
  w(8, fc.record({ kind: fc.constant("settle" as const), pick: fc.nat({ max: 2 }), how: fc.constant("report" as const) })),
  w(2, fc.record({ kind: fc.constant("settle" as const), pick: fc.nat(), how: fc.constantFrom("failed" as const, "dropped" as const) })),
  w(4, fc.constant({ kind: "debounced" as const })),
  w(2, fc.constant({ kind: "measure" as const })),
  w(1, fc.constant({ kind: "stop" as const })),
  w(2, fc.record({ kind: fc.constant("view" as const), view: fc.constantFrom("run" as const, "sweep" as const, "timeline" as const), own: fc.boolean() })),
  w(1, fc.record({ kind: fc.constant("lab" as const), lab: fc.constantFrom("read" as const, "write" as const) })),
  w(1, fc.constant({ kind: "present" as const })),
  w(2, fc.record({ kind: fc.constant("sweepAxis" as const), axis: fc.constantFrom("cap" as const, "rs" as const, null), to: fc.constantFrom(64, 128) })),
  w(1, fc.record({ kind: fc.constant("lesson" as const), cap: fc.integer({ min: 1, max: 3 }) })),
  w(1, fc.constant({ kind: "sweepRun" as const })),
  w(1, fc.constant({ kind: "sweepCancel" as const })),
  w(2, fc.constant({ kind: "sweepPoint" as const })),
  w(2, fc.record({ kind: fc.constant("sweepSettle" as const), how: fc.constantFrom("done" as const, "done" as const, "cancelled" as const, "failed" as const) })),
  w(1, fc.constant({ kind: "crash" as const })),
  w(3, fc.constant({ kind: "draw" as const })),
  w(1, fc.constant({ kind: "engineReady" as const })),
  w(1, fc.constant({ kind: "engineLost" as const })),
  w(2, fc.constant({ kind: "codecReady" as const })),
  w(1, fc.constant({ kind: "predict" as const })),
  w(1, fc.constant({ kind: "reveal" as const })),
  w(1, fc.record({ kind: fc.constant("guess" as const), guess: fc.nat({ max: 5000 }) })),
  w(2, fc.constant({ kind: "forward" as const })),
  w(1, fc.constant({ kind: "back" as const })),
  w(2, fc.record({ kind: fc.constant("step" as const), step: fc.integer({ min: 1, max: 100 }) })),
  w(1, fc.constant({ kind: "settingsNote" as const })),
  w(2, fc.record({ kind: fc.constant("latePoint" as const), pick: fc.nat(), end: fc.boolean() })),
  w(1, fc.record({ kind: fc.constant("cancelRace" as const), stop: fc.boolean() })),
  w(1, fc.record({ kind: fc.constant("failTwo" as const), how: fc.constantFrom("failed" as const, "dropped" as const) })),
  w(1, fc.constant({ kind: "codecLoaded" as const })),
);

/** The simulated outside world: what the workers were asked and have not answered, and the debounce timer. */
interface World {
  state: AppState;
  /** Run requests sent, by id (answered or not: a cancelled one may still answer). */
  asked: Map<number, { stage: Stage; fragment: string; lab: "read" | "write" }>;
  /** The sweep asked last and not settled. */
  sweeping: { id: number; fragment: string; points: number } | null;
  /** Older sweeps replaced by a newer one: their worker may still send a point or its end. */
  late: { id: number; fragment: string; points: number }[];
  timer: boolean;
  /** Run requests the page sent and has neither cancelled (cancelRuns) nor had answered: what it still waits for. */
  live: Set<number>;
  /** The sweep the page sent and has neither cancelled nor had end. */
  sweepLive: number | null;
  /** The codec can write links at the page's edge (set before the page is told: `codecLoaded`). */
  codecLoaded: boolean;
  effects: Effect[];
}

function apply(world: World, action: Action): void {
  const { state, effects } = update(world.state, action);
  world.state = state;
  world.effects = effects;
  let replay: Held | null = null;
  for (const effect of effects) {
    switch (effect.type) {
      case "run":
        world.asked.set(effect.id, { stage: effect.stage, fragment: effect.fragment, lab: effect.lab });
        world.live.add(effect.id);
        break;
      case "cancelRuns":
        world.live.clear();
        break;
      case "debounce":
        world.timer = true;
        break;
      case "cancelDebounce":
        world.timer = false;
        break;
      case "sweep":
        if (world.sweeping) world.late.push(world.sweeping);
        world.sweeping = { id: effect.id, fragment: effect.fragment, points: 0 };
        world.sweepLive = effect.id;
        break;
      case "cancelSweep":
        world.sweepLive = null;
        break;
      case "replay":
        replay = effect.held;
        break;
      case "writeLink":
      case "openLesson":
      case "milestone":
        break;
    }
  }
  if (replay) {
    // The page makes the held change again, now with its links.
    play(world, replayed(world.state.params, replay));
    world.effects = [...effects, ...world.effects];
  }
}

/** The move that makes a held change again (the page's intents replay it so). */
function replayed(p: Params, held: Held): Move {
  switch (held.kind) {
    case "edit":
      return { kind: "change", params: held.params, how: held.live ? "live" : "edit" };
    case "display":
      return { kind: "change", params: held.params, how: "display" };
    case "sweep":
      return { kind: "change", params: held.params, how: "sweep" };
    case "view":
      return { kind: "view", view: held.view as "run" | "sweep" | "timeline", own: false };
    case "link":
      return { kind: "change", params: keepWorkshop(p, held.link.params), how: "link" };
  }
}

function reportFor(asked: { stage: Stage; fragment: string; lab: "read" | "write" }): LabReport {
  return { stage: asked.stage, lab: asked.lab, link: asked.fragment, runs: [], quick: asked.stage === "quick" } as unknown as LabReport;
}

function sweepReport(fragment: string, points: number): SweepReport {
  return { link: fragment, points: Array.from({ length: points }, () => ({})), total: 13, complete: false } as unknown as SweepReport;
}

/** The links the page's edge hands an action: the codec's, or null while it cannot write links yet (the model holds the change). */
const linksNow = (world: World, p: Params): Links | null => (world.state.codecReady || world.codecLoaded ? linksOf(p) : null);

/** Edits go through the same links the page would write. */
function edit(world: World, params: Params, live: boolean): void {
  apply(world, { type: "edited", params, links: linksNow(world, params), live });
}

function play(world: World, m: Move): void {
  const p = world.state.params;
  switch (m.kind) {
    case "edit":
      return edit(world, { ...p, cap: m.cap, rs: m.rs }, m.live);
    case "lab":
      return edit(world, { ...p, lab: m.lab }, false);
    case "view": {
      const params: Params = m.own ? { ...p, view: m.view, cap: 4, rs: 1 } : { ...p, view: m.view };
      const links = linksNow(world, params);
      const note = links && links.run !== world.state.runFragment ? "The view opened on its own starting settings." : null;
      return apply(world, { type: "viewChosen", view: m.view, entered: links && { params, links, note } });
    }
    case "change": {
      const links = linksOf(m.params);
      if (m.how === "edit" || m.how === "live") return apply(world, { type: "edited", params: m.params, links, live: m.how === "live" });
      if (m.how === "display") return apply(world, { type: "display", params: m.params, links });
      if (m.how === "sweep") return apply(world, { type: "sweepEdited", params: m.params, links });
      return apply(world, { type: "linkLoaded", link: decoded(m.params), links });
    }
    case "present": {
      const params = { ...p, present: !p.present };
      return apply(world, { type: "display", params, links: linksNow(world, params) });
    }
    case "sweepAxis": {
      const params: Params = { ...p, sweep: m.axis === null ? null : { axis: m.axis, from: 16, to: m.to } };
      return apply(world, { type: "sweepEdited", params, links: linksNow(world, params) });
    }
    case "lesson": {
      const params: Params = keepWorkshop(p, { ...defaults, cap: m.cap, rs: 1, lesson: ORDER[m.cap % ORDER.length]! });
      return apply(world, { type: "linkLoaded", link: decoded(params), links: linksNow(world, params) });
    }
    case "predict": {
      const params = { ...p, predict: !p.predict };
      return apply(world, { type: "display", params, links: linksNow(world, params) });
    }
    case "step": {
      const params = { ...p, step: m.step };
      return apply(world, { type: "display", params, links: linksNow(world, params) });
    }
    case "settingsNote":
      return apply(world, { type: "settingsNote", message: "The timeline opened on its own starting settings." });
    case "reveal":
      return apply(world, { type: "reveal" });
    case "guess":
      return apply(world, { type: "guessed", guess: m.guess });
    case "forward":
    case "back": {
      apply(world, { type: m.kind, order: ORDER });
      // The page opens the lesson's link from inside the page (intents.ts: loadLink keeps the workshop's keys).
      const open = world.effects.find((e) => e.type === "openLesson");
      if (open?.type !== "openLesson") return;
      const effects = world.effects;
      const params: Params = keepWorkshop(world.state.params, { ...defaults, cap: 1 + ORDER.indexOf(open.id), rs: 1, lesson: open.id });
      apply(world, { type: "linkLoaded", link: decoded(params), links: linksNow(world, params) });
      world.effects = [...effects, ...world.effects];
      return;
    }
    case "measure":
      return apply(world, { type: "measure" });
    case "stop":
      return apply(world, { type: "stop" });
    case "debounced":
      if (!world.timer) return;
      world.timer = false;
      return apply(world, { type: "debounced" });
    case "settle": {
      const ids = [...world.asked.keys()];
      if (ids.length === 0) return;
      // Mostly the newest requests: old ones pile up (a cancelled request may answer or not).
      const id = ids[ids.length - 1 - (m.pick % ids.length)]!;
      const asked = world.asked.get(id)!;
      world.asked.delete(id);
      world.live.delete(id);
      const outcome =
        m.how === "report"
          ? { kind: "report" as const, report: reportFor(asked), elapsedMs: 1 }
          : m.how === "failed"
            ? { kind: "failed" as const, message: "boom" }
            : { kind: "dropped" as const };
      return apply(world, { type: "settled", id, outcome });
    }
    case "sweepRun":
      return apply(world, { type: "sweepRun" });
    case "sweepCancel":
      return apply(world, { type: "sweepCancel" });
    case "sweepPoint": {
      const s = world.sweeping;
      if (!s) return;
      s.points += 1;
      return apply(world, { type: "sweepPoint", id: s.id, report: sweepReport(s.fragment, s.points) });
    }
    case "sweepSettle": {
      const s = world.sweeping;
      if (!s) return;
      world.sweeping = null;
      if (world.sweepLive === s.id) world.sweepLive = null;
      const outcome =
        m.how === "done"
          ? { kind: "done" as const, report: sweepReport(s.fragment, Math.max(1, s.points)) }
          : m.how === "failed"
            ? { kind: "failed" as const, message: "boom" }
            : { kind: "cancelled" as const };
      return apply(world, { type: "sweepSettled", id: s.id, outcome, elapsedMs: 5 });
    }
    case "draw": {
      const shown = shownOf(world.state);
      if (!shown) return;
      return apply(world, { type: "drawn", report: shown.report });
    }
    case "crash": {
      // A crashed worker fails every request it held; the page is told a fresh one started.
      for (const [id] of world.asked) {
        world.asked.delete(id);
        world.live.delete(id);
        apply(world, { type: "settled", id, outcome: { kind: "failed", message: "The engine crashed." } });
      }
      const running = isRunning(world.state);
      const notices = world.state.notices.length;
      apply(world, { type: "respawned", reason: "The engine crashed." });
      // A request that was running says so in its failure; else a notice does.
      if (running) expect(world.state.notices.length).toBe(notices);
      else expect(world.state.notices.at(-1)?.message).toBe("The engine crashed. A fresh engine was started.");
      return;
    }
    case "engineReady":
      return apply(world, { type: "engineReady", isolated: true });
    case "engineLost":
      world.state = { ...world.state, engine: { kind: "loading" } };
      return;
    case "codecReady":
      world.codecLoaded = true;
      return apply(world, { type: "codecReady" });
    case "codecLoaded":
      world.codecLoaded = true;
      return;
    case "latePoint": {
      if (world.late.length === 0) return;
      const old = world.late[m.pick % world.late.length]!;
      if (m.end) {
        world.late = world.late.filter((l) => l !== old);
        return apply(world, { type: "sweepSettled", id: old.id, outcome: { kind: "done", report: sweepReport(old.fragment, old.points + 1) }, elapsedMs: 5 });
      }
      old.points += 1;
      return apply(world, { type: "sweepPoint", id: old.id, report: sweepReport(old.fragment, old.points) });
    }
    case "cancelRace": {
      const s = world.sweeping;
      if (!s || world.state.sweep?.id !== s.id || world.state.sweep.status !== "running") return;
      apply(world, m.stop ? { type: "stop" } : { type: "sweepCancel" });
      const effects = world.effects;
      // The point and the end the worker had already sent.
      play(world, { kind: "sweepPoint" });
      const pointEffects = world.effects;
      play(world, { kind: "sweepSettle", how: "done" });
      world.effects = [...effects, ...pointEffects, ...world.effects];
      return;
    }
    case "failTwo": {
      const ids = [...world.asked.keys()];
      if (ids.length < 3) return;
      const effects: Effect[] = [];
      for (let n = 0; n < 2; n++) {
        play(world, { kind: "settle", pick: 0, how: m.how });
        effects.push(...world.effects);
      }
      world.effects = effects;
      return;
    }
  }
}

/** The workers answer everything asked, in order, with results; timers fire. Bounded: the model must settle. */
function drain(world: World): void {
  for (let round = 0; round < 50; round++) {
    if (world.timer) play(world, { kind: "debounced" });
    else if (world.asked.size > 0) play(world, { kind: "settle", pick: 0, how: "report" });
    else if (shownOf(world.state) && !chartsDrawn(world.state)) play(world, { kind: "draw" });
    else if (world.sweeping) play(world, { kind: "sweepSettle", how: "done" });
    else return;
  }
  throw new Error("the page kept asking for more after 50 answers");
}

/** A page just opened; `codecReady`: whether its codec can write links yet (else changes are held until it can). */
function newWorld(codecReady: boolean): World {
  const params = { ...defaults, cap: 1, rs: 1 };
  const world: World = {
    state: initialState(decoded(params), codec),
    asked: new Map(),
    sweeping: null,
    late: [],
    timer: false,
    live: new Set(),
    sweepLive: null,
    codecLoaded: codecReady,
    effects: [],
  };
  const opened = opening(world.state);
  world.state = update(opened.state, { type: "engineReady", isolated: true }).state;
  if (codecReady) world.state = update(world.state, { type: "codecReady" }).state;
  for (const effect of opened.effects) {
    if (effect.type === "run") {
      world.asked.set(effect.id, { stage: effect.stage, fragment: effect.fragment, lab: effect.lab });
      world.live.add(effect.id);
    }
    if (effect.type === "sweep") {
      world.sweeping = { id: effect.id, fragment: effect.fragment, points: 0 };
      world.sweepLive = effect.id;
    }
  }
  return world;
}

/** The link the results on screen really carry (from the world's reports), null without results. */
function resultLink(state: AppState): string | null {
  if (viewOf(state) === "sweep") return state.sweep?.report ? (state.sweep.report as unknown as { link: string }).link : null;
  return shownOf(state)?.report.link ?? null;
}

function checkInvariants(world: World, m: Move, before: AppState): void {
  const s = world.state;
  const view = viewOf(s);
  const shownLink = resultLink(s);
  const currentLink = view === "sweep" ? s.sweepFragment : s.runFragment;
  const current = shownLink !== null && sameLink(s, shownLink, currentLink);
  const activity = activityText(s);
  // 1. "Done" only over current, finished results with nothing running for them.
  if (activity === "Done") {
    expect(current, "Done over results of other settings").toBe(true);
    if (view === "sweep") expect(s.sweep?.status).toBe("done");
    else {
      expect(shownOf(s)?.report.stage).toBe("full");
      expect(pendingStages(s)).toEqual([]);
      expect(chartsDrawn(s), "Done before the charts were drawn").toBe(true);
    }
  }
  // 2. Results of other settings are said to be so.
  if (shownLink !== null && !current) {
    // This view's own measuring only: the single run's pending stages, or the sweep view's sweep (a sweep running behind the single run's view does not count).
    const measuring = view === "sweep" ? s.sweep?.status === "running" : pendingStages(s).length > 0;
    if (!measuring) expect(staleNote(s), "stale results shown without a word while nothing measures them").not.toBe(null);
    // ("Pick an axis", the sweep view with its axis taken away (its sweep cancelled), asks for an axis rather than
    // saying the results shown are of the earlier one.)
    else if (staleNote(s) === null && s.engine.kind !== "broken" && !(view === "sweep" && s.params.sweep === null)) {
      expect(MEASURING_WORDS, `status "${activity}" over stale results`).toContain(activity);
    }
    expect(activity).not.toBe("Done");
  }
  // 3. Measure again sends a request for the settings on screen.
  if (m.kind === "measure") {
    expect(world.effects.some((e) => e.type === "run" && e.stage === "counts" && e.fragment === s.runFragment)).toBe(true);
    if (view === "sweep" && s.params.sweep) expect(world.effects.some((e) => e.type === "sweep" && e.fragment === s.sweepFragment)).toBe(true);
    expect(s.stopped).toBe(false);
  }
  // 4. Exports carry the link of what they export; a single run's links carry no sweep.
  // The oracle is the link the results themselves carry (the simulated workers' reports), exactly.
  expect(exportFragment(s), "exports carry another link than their results").toBe(shownLink);
  if (activity === "Done") expect(sameLink(s, s.fragment, shownLink)).toBe(true);
  expect(carriesSweep(s.runFragment), s.runFragment).toBe(false);
  if (view !== "sweep") expect(carriesSweep(s.fragment), s.fragment).toBe(false);
  // 6. An answer never puts results of other settings over current ones.
  if ((m.kind === "settle" || m.kind === "crash") && before.params.lab === s.params.lab && reportCurrent(before)) {
    expect(reportCurrent(s), "a late answer replaced current results").toBe(true);
    expect(currentStage(s)).not.toBe(null);
  }
  // 7. The sweep view, with an axis, sweeps what it shows unless told to stop.
  const asks = m.kind === "view" || m.kind === "sweepAxis" || m.kind === "lesson" || m.kind === "measure" || m.kind === "sweepRun" || (m.kind === "edit" && !m.live);
  if (asks && view === "sweep" && s.params.sweep !== null && !s.stopped) {
    expect(sweepCurrent(s) && s.sweep?.status !== "failed", "the sweep view shows a sweep of other settings and runs none").toBe(true);
  }
  // 7b. An ended sweep keeps its status until another sweep starts.
  if (before.sweep && s.sweep?.id === before.sweep.id && before.sweep.status !== "running") {
    expect(s.sweep.status, `a ${before.sweep.status} sweep became ${s.sweep.status}`).toBe(before.sweep.status);
  }
  // 8. Workshops.
  if (m.kind === "forward") {
    const opened = world.effects.some((e) => e.type === "openLesson");
    if (predicting(before)) expect(s.revealed && !opened, "forward with the answer hidden reveals it, and only that").toBe(true);
    if (opened) {
      expect(s.params.lesson).not.toBe(before.params.lesson);
      expect(predicting(s)).toBe(s.params.predict);
    }
  }
  if (m.kind === "forward" || m.kind === "back" || m.kind === "lesson") {
    expect(s.params.present).toBe(before.params.present);
    expect(s.params.predict).toBe(before.params.predict);
  }
  if (s.params.lesson !== before.params.lesson) expect([s.revealed, s.guess]).toEqual([false, null]);
  // 9. The timeline's step is a display key: moving it runs nothing and keeps the results current; a settings note is one notice.
  if (m.kind === "step") {
    // (A view without full results of its settings may still ask for them, as any display change does.)
    expect(world.effects.some((e) => e.type === "cancelRuns"), "a step ended a run").toBe(false);
    expect(reportCurrent(s)).toBe(reportCurrent(before));
    // (Before the codec can write links the step is held: 10.)
    if (before.codecReady) expect(s.params.step).toBe(m.step);
  }
  expect(s.notices.filter((n) => n.source === "settings").length).toBeLessThanOrEqual(1);
  if (m.kind === "edit" && !sameLink(s, s.runFragment, before.runFragment)) expect(s.notices.some((n) => n.source === "settings")).toBe(false);
  if (m.kind === "view" && m.own && before.codecReady && !sameLink(s, s.runFragment, before.runFragment)) {
    expect(s.notices.some((n) => n.source === "settings"), "a view opened on settings of its own without a word").toBe(true);
  }
  // 10. A change made before links can be written is held, never half made, and made once they can.
  const changes = ["edit", "lab", "view", "present", "sweepAxis", "lesson", "predict", "step"];
  if (!before.codecReady && changes.includes(m.kind)) {
    expect(s.params, "a change was made before its links could be written").toBe(before.params);
    expect(s.held).not.toBe(null);
  }
  if (s.codecReady) expect(s.held, "a change still held after links can be written").toBe(null);
  if (m.kind === "codecReady" && before.held?.kind === "edit") expect(s.params).toEqual(before.held.params);
  if (m.kind === "codecReady") expect(world.effects.filter((e) => e.type === "replay").length, "replayed what was not held").toBe(before.held === null ? 0 : 1);
  // 11. Milestones are reached once each, after the first numbers.
  for (const e of world.effects) if (e.type === "milestone") expect(before.milestones[e.milestone], `${e.milestone} twice`).toBe(false);
  if (s.milestones.firstFull) expect(s.milestones.firstNumbers).toBe(true);
  if (s.milestones.firstNumbers !== before.milestones.firstNumbers) expect(Object.keys(s.shown).length).toBeGreaterThan(0);
  // 5. Nothing waits on nothing.
  if (s.timing !== null) {
    const timing = s.timing;
    expect(s.inFlight.some((r) => r.worker === "counter" && sameLink(s, r.fragment, timing.fragment)), "a timed stage waits for counts nobody is counting").toBe(true);
  }
  expect(s.debouncing).toBe(world.timer);
  expect(new Set(s.inFlight.map((r) => r.id)).size).toBe(s.inFlight.length);
  for (const r of s.inFlight) expect(world.asked.has(r.id), `request ${r.id} in flight that no worker holds`).toBe(true);
  // Running exactly while the simulated world holds something the page sent and still waits for.
  expect(isRunning(s), "running, by the world's bookkeeping").toBe(world.live.size > 0 || world.timer || world.sweepLive !== null);
}

/** Sequences per property in `npm test` (up to 60 steps each); a fixed seed, so a failure reruns the same way (fast-check prints it). */
const SEQUENCES = 600;

describe("the page's state, by property", () => {
  it("keeps its invariants after every step of random sequences of actions", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(move, { minLength: 5, maxLength: 60, size: "max" }), (ready, moves) => {
        const world = newWorld(ready);
        for (const m of moves) {
          const before = world.state;
          // The effects of this move only (a move that finds nothing to do applies no action).
          world.effects = [];
          play(world, m);
          checkInvariants(world, m, before);
        }
      }),
      { numRuns: SEQUENCES, seed: 34 },
    );
  }, 120_000);

  it("after any sequence, Measure again and the workers' answers end in Done", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(move, { minLength: 5, maxLength: 60, size: "max" }), (ready, moves) => {
        const world = newWorld(ready);
        for (const m of moves) play(world, m);
        play(world, { kind: "engineReady" });
        const before = world.state;
        play(world, { kind: "measure" });
        checkInvariants(world, { kind: "measure" }, before);
        drain(world);
        const s = world.state;
        const expected = viewOf(s) === "sweep" && s.params.sweep === null ? "Pick an axis" : "Done";
        expect(activityText(s)).toBe(expected);
        if (expected === "Done") expect(viewOf(s) === "sweep" ? sweepCurrent(s) : reportCurrent(s) && currentStage(s) === "full").toBe(true);
      }),
      { numRuns: SEQUENCES, seed: 35 },
    );
  }, 120_000);
});
