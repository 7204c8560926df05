// The page's state and its transitions: one pure model of everything the
// page shows and does. `update(state, action)` returns the next state and
// the effects to run (worker requests, timers, the link); the page's edge
// runs the effects (effects.ts) and the render pieces draw the state
// (render.ts). Nothing here touches the DOM, a worker, a timer or the link;
// every rule about links is the engine codec's (engine/codec.ts: `Links`, `LinkRules`).
//
// What each view shows, and for which settings:
//   - the single run and the timeline show the newest report of their lab,
//     measured for `Shown.fragment` (a run link: no sweep keys);
//   - the sweep view shows `sweep.report`, swept for `sweep.fragment`.
// A view's results are current when their link is the same experiment as
// the settings on screen (display keys aside). Invariants, tested by
// property over random action sequences (state.property.test.ts):
//   - the activity line says "Done" only when the view's results are current,
//     nothing runs or waits to run for them, and their charts are drawn;
//   - a view whose results are not current says so (`staleNote`);
//   - "measure" (Measure again) always sends a request for the settings on
//     screen;
//   - what the view's exports carry (`exportFragment`) is the link its
//     results were measured with;
//   - a change made before the codec can write links is held (`held`, the
//     newest winning) and made once it can (`codecReady`);
//   - the page's milestones (`Milestones`) are reached once each.
//
// Comparisons: a link with `b.` keys (`Decoded.compare`) is measured as it
// is written, A and B in alternating rounds of one measurement in the timing
// worker (`compare`), and the address bar keeps the comparison link, so the
// link reproduces it. A result file paired with the report on screen, or
// two result files paired with each other (`compareFile`), is a comparison
// too; each file the engine refuses leaves a notice and everything else as
// it was. A change of settings ends the
// comparison (its A is no longer what the controls show).
//
// Workshops: presenter mode (`params.present`) and predict-then-reveal
// (`params.predict`) are display keys that stay when a link is opened from
// inside the page (`keepWorkshop`); while a lesson's question waits for its
// answer (`predicting`), the page hides the results until Reveal. Forward
// and back (a clicker's keys) reveal first, then move between lessons, and
// past the last lesson to the end slide (`ended`); B blanks the screen
// (`blank`). A lesson's answer is read from its own link's results
// (`lessonRun`, `lessonResults`), never from settings moved since.
//
// The quiz (`params.quiz`, app/quiz.ts) is asked of the engine for the
// link on screen (`quizLinkOf`: the sweep's, else the single run's) and
// asked again only when that link becomes another experiment or `qseed`
// changes; display keys (present, predict, the step) keep the answers given.

import type { LinkRules } from "../engine/codec";
import { timingBuildOf, type EngineBuild } from "../engine/protocol";
import { noQuiz, quizAsked, quizAsking, quizUpdate, type QuizAction, type QuizState } from "./quiz";
import { emptyRoom, roomLeft, roomRevealed, roomUpdate, scanning, type Room, type RoomAction, type RoomEffect } from "./room";
import type { Comparison, Decoded, Lab, LabReport, LessonId, Links, Notice as LinkNotice, Params, Stage, SweepReport, View } from "../engine/types.gen";

export type { Links };

/** Where a notice comes from: a link value replaced, settings the page chose (a view's starting settings), the engine. */
export type NoticeSource = "link" | "settings" | "engine" | "file";

export interface Notice {
  id: number;
  source: NoticeSource;
  /** The link key a link notice is about. */
  key?: string;
  message: string;
}

export type EngineStatus =
  | { kind: "loading" }
  | { kind: "ready"; isolated: boolean }
  | { kind: "broken"; message: string };

/** A report on screen and the run link it was measured for. */
export interface Shown {
  report: LabReport;
  fragment: string;
  /** Wall time of the worker's call. */
  elapsedMs: number;
}

/** Which worker a request went to: exact counts, or the timed stages. */
export type WorkerKind = "counter" | "timer";

/** A request sent to a worker and not yet settled. */
export interface Request {
  id: number;
  /** How far it times: counts only, a quick estimate, the full measurement. */
  stage: Stage;
  /** The run link it measures. */
  fragment: string;
  lab: Lab;
  worker: WorkerKind;
  /** Asked for the open lesson's answer only (its own link, `lessonLink`): never shown as the page's results. */
  lesson?: true;
}

/** A timed stage asked for and waiting for the counts it times (the timing worker times the counting worker's counts). */
export interface TimingWanted {
  stage: "quick" | "full";
  fragment: string;
  lab: Lab;
}

export type SweepStatus = "running" | "done" | "cancelled" | "failed";

/** The newest sweep: what it swept, how far it has come, its points so far. */
export interface SweepRun {
  id: number;
  /** The sweep link it was run with. */
  fragment: string;
  params: Params;
  status: SweepStatus;
  report: SweepReport | null;
  failure: string | null;
  /** Wall time from start to its end (null while it runs). */
  elapsedMs: number | null;
}

/** A comparison on screen: A and B of a comparison link, or the report on screen against a result file. */
export interface CompareRun {
  id: number;
  /** The comparison link it measures (a result file's: the link of A, the report it was paired with). */
  fragment: string;
  source: "link" | "file";
  /** The file B came from (source "file"). */
  file: string | null;
  /** The file A came from when two files were opened together; null: A is the result on screen. */
  fileA: string | null;
  /** `waiting`: for A's own measurement to settle (the timing worker runs one job at a time), then `running`. */
  status: "waiting" | "running" | "done" | "failed" | "cancelled";
  result: Comparison | null;
  failure: string | null;
  /** Times its rounds were ended by the page's own runs (not by Stop) and sent again. */
  retries: number;
}

/** A comparison whose rounds the page's own runs end (the timing worker gives way to a newer run) is sent again this many times, then said to be stopped. */
export const MAX_COMPARE_RETRIES = 2;

export type CompareOutcome = { kind: "done"; comparison: Comparison } | { kind: "failed"; message: string } | { kind: "dropped" };

/** A change made before the codec could write links (`codecReady`); replayed once it can, the newest winning. */
export type Held =
  | { kind: "edit"; params: Params; live: boolean }
  | { kind: "display"; params: Params }
  | { kind: "sweep"; params: Params }
  | { kind: "view"; view: View }
  | { kind: "link"; link: Decoded };

/**
 * The open lesson's own experiment and its results: the answer to its
 * question is read from these, never from the settings on screen, which the
 * teacher may have moved since (`lessonResults`).
 */
export interface LessonRun {
  lesson: LessonId;
  /** The run link and the sweep link of the lesson's own link. */
  run: string;
  sweep: string | null;
  /** The best report of `run` seen so far, and the newest sweep of `sweep`. */
  report: LabReport | null;
  sweepReport: SweepReport | null;
}

/** How far the page has come since it opened: what waited for each may load once it is reached. */
export interface Milestones {
  /** Some results are on screen. */
  firstNumbers: boolean;
  /** A full measurement of the settings on screen is on screen. */
  firstFullShown: boolean;
  /** The opening's requests have settled after the first numbers. */
  firstFull: boolean;
}

export type Milestone = keyof Milestones;

export interface AppState {
  params: Params;
  /** The address bar's link of `params` (no leading '#'). */
  fragment: string;
  /** The run link of `params`. */
  runFragment: string;
  /** The sweep link of `params`, null without a sweep. */
  sweepFragment: string | null;
  /** The view `params` show (the codec's answer, with their links). */
  view: View;
  notices: Notice[];
  /** The report each lab shows. */
  shown: Partial<Record<Lab, Shown>>;
  /** Requests sent and not yet settled. */
  inFlight: Request[];
  /** A timed stage waiting for its counts to come. */
  timing: TimingWanted | null;
  /** A quick estimate waits for the controls to be still. */
  debouncing: boolean;
  /** The id the next request or sweep gets. */
  nextRequestId: number;
  /** The last engine error for the current params, shown until the next result. */
  error: string | null;
  engine: EngineStatus;
  /** The engine's builds the page waits for that its dev server is still compiling (`npm start` serves the page first). */
  building: EngineBuild[];
  /** The person pressed Stop and has not asked for a run since. */
  stopped: boolean;
  sweep: SweepRun | null;
  /** The codec can write links (its program build has loaded). */
  codecReady: boolean;
  held: Held | null;
  milestones: Milestones;
  nextNoticeId: number;
  /** The engine's rule for when two links are one experiment (display keys aside): the codec. */
  rules: LinkRules;
  /** Predict, then reveal: the lesson's answer has been revealed (reset when another lesson opens). */
  revealed: boolean;
  /** The number a person guessed for the lesson's question (null: none yet). */
  guess: number | null;
  /** The open lesson's own experiment and its results (null: no lesson open). */
  lessonRun: LessonRun | null;
  /** Presenter mode's screen is blanked (B): the room looks at the teacher. */
  blank: boolean;
  /** Forward went past the last lesson: the end slide shows. */
  ended: boolean;
  /** The reports whose charts have been drawn (the newest of each lab): "Done" waits for them. */
  drawn: Partial<Record<Lab, LabReport>>;
  /** The comparison on screen (null: none). */
  compare: CompareRun | null;
  /** The room's answers to the lesson's question: cards scanned, hands counted (app/room.ts). */
  room: Room;
  /** The quiz the engine writes for the link on screen, and the answers given (app/quiz.ts). */
  quiz: QuizState;
}

export type Outcome =
  | { kind: "report"; report: LabReport; elapsedMs: number }
  | { kind: "failed"; message: string }
  /** Replaced by a newer request, or stopped on purpose. */
  | { kind: "dropped" };

export type SweepOutcome = { kind: "done"; report: SweepReport | null } | { kind: "cancelled" } | { kind: "failed"; message: string };

/**
 * A view tab was chosen: the params the lab opens it with (the timeline may
 * bring starting settings of its own), their links, and what they changed in
 * words (null when only the view changed).
 */
export interface Entered {
  params: Params;
  links: Links;
  note: string | null;
}

// Actions that change params carry the links the codec wrote for them, or
// null while it cannot write links yet: then the change is held (`held`)
// and replayed once it can (`codecReady`).
export type Action =
  /** A link was read (a pasted link, a lesson, Reset): its params win and are measured in full. */
  | { type: "linkLoaded"; link: Decoded; links: Links | null }
  /** The person changed a setting; `live` while a slider still moves. */
  | { type: "edited"; params: Params; links: Links | null; live: boolean }
  /** A display-only change (presenter mode, the timeline's step): the results stay theirs. */
  | { type: "display"; params: Params; links: Links | null }
  /** The sweep's axis or range changed. */
  | { type: "sweepEdited"; params: Params; links: Links | null }
  /** A view tab was chosen (`entered`: null while links cannot be written). */
  | { type: "viewChosen"; view: View; entered: Entered | null }
  /** The engine refused an edit. */
  | { type: "refused"; message: string }
  /** The codec can write links (its program build has loaded). */
  | { type: "codecReady" }
  /** Measure again. */
  | { type: "measure" }
  | { type: "stop" }
  /** The controls have been still long enough for a quick estimate. */
  | { type: "debounced" }
  | { type: "settled"; id: number; outcome: Outcome }
  /** Run sweep. */
  | { type: "sweepRun" }
  | { type: "sweepCancel" }
  | { type: "sweepPoint"; id: number; report: SweepReport }
  | { type: "sweepSettled"; id: number; outcome: SweepOutcome; elapsedMs: number }
  | { type: "engineReady"; isolated: boolean }
  /** A worker was replaced by a fresh one (it crashed or hung), for `reason`. */
  | { type: "respawned"; reason: string }
  | { type: "engineBroken"; message: string }
  | { type: "engineNotice"; message: string }
  /** The builds the page waits for that its dev server is still compiling, now (engine/spawn.ts). */
  | { type: "building"; builds: EngineBuild[] }
  /** The page chose settings for the person (a view's own starting settings): said in a notice until the settings or the view change again. */
  | { type: "settingsNote"; message: string }
  | { type: "noticeDismissed"; id: number }
  /** Reveal the lesson's answer (predict, then reveal). */
  | { type: "reveal" }
  /** A guess for the lesson's question typed (null: cleared). */
  | { type: "guessed"; guess: number | null }
  /** A clicker's forward (→, PageDown): reveal the answer first, then the next lesson of `order`. */
  | { type: "forward"; order: readonly LessonId[] }
  /** A clicker's back (←, PageUp): the previous lesson of `order`. */
  | { type: "back"; order: readonly LessonId[] }
  /** A comparison's rounds ended. */
  | { type: "compareSettled"; id: number; outcome: CompareOutcome }
  /** A result file was paired with the report on screen by the engine, or refused (`message` names what is wrong). */
  | {
      type: "compareFile";
      /** B's file (or, refused, the file the message is about). */
      file: string;
      /** A's file when two were opened together. */
      fileA?: string | null;
      /** Refused: the other files of the same selection with their messages, each a notice too. */
      outcome: { kind: "paired"; comparison: Comparison } | { kind: "refused"; message: string; others?: readonly { file: string; message: string }[] };
    }
  /** The comparison is closed: the page shows A alone. */
  | { type: "compareClosed" }
  /** B: blank the screen, or bring it back. */
  | { type: "blank" }
  /** A lab drew `report`'s charts. */
  | { type: "drawn"; report: LabReport }
  /** The open lesson's own link, from the lesson catalog (its panel has loaded): the lesson's answer is read from it. */
  | { type: "lessonLink"; link: Decoded }
  /** The room: a scan, what the camera saw, hands counted (app/room.ts). */
  | { type: "room"; action: RoomAction }
  /** The quiz: written by the engine, a choice picked, Next, Again (app/quiz.ts). */
  | { type: "quiz"; action: QuizAction };

export type Effect =
  /** Ask a worker for `stage` of the run link `fragment`; a timed stage times `counts` when given. */
  | { type: "run"; id: number; stage: Stage; fragment: string; lab: Lab; counts: LabReport | null }
  /** End every run request (terminating the workers that run them). */
  | { type: "cancelRuns" }
  | { type: "debounce" }
  | { type: "cancelDebounce" }
  | { type: "writeLink"; fragment: string }
  | { type: "sweep"; id: number; params: Params; fragment: string }
  | { type: "cancelSweep" }
  | { type: "replay"; held: Held }
  /** Open a lesson's link from inside the page (presenter mode and predict stay: `keepWorkshop`). */
  | { type: "openLesson"; id: LessonId }
  /** The page has reached a milestone (once each, after the step that reached it is drawn). */
  | { type: "milestone"; milestone: Milestone }
  /** Measure the comparison link `fragment`: A and B in alternating rounds. */
  | { type: "compare"; id: number; fragment: string }
  /** The room's camera on or off (app/room.ts). */
  | { type: "room"; effect: RoomEffect }
  /** Ask the engine for the quiz of `link` (app/quiz.ts). */
  | { type: "quiz"; link: string };

export interface Step {
  state: AppState;
  effects: Effect[];
}

/** How far each stage has come: a report never gives way to a lesser one of the same settings. */
export const STAGE_RANK: Record<Stage, number> = { counts: 0, quick: 1, full: 2 };

/** Most engine notices kept on screen; older ones go first. */
export const MAX_ENGINE_NOTICES = 3;

/**
 * The state of a page opened on `link`, before anything was asked. The page
 * then sends `opening(state)`'s requests (the first counts went out before
 * the page was built; the effect adopts them).
 */
export function initialState(link: Decoded, rules: LinkRules): AppState {
  const { links } = link;
  return withLink(
    {
      params: link.params,
      fragment: links.link,
      runFragment: links.run,
      sweepFragment: links.sweep,
      view: links.view,
      notices: [],
      shown: {},
      inFlight: [],
      timing: null,
      debouncing: false,
      nextRequestId: 1,
      error: null,
      engine: { kind: "loading" },
      building: [],
      stopped: false,
      sweep: null,
      codecReady: false,
      held: null,
      milestones: { firstNumbers: false, firstFullShown: false, firstFull: false },
      nextNoticeId: 1,
      rules,
      revealed: false,
      guess: null,
      compare: comparing(link, 0),
      lessonRun: lessonRunOf(null, link, links),
      blank: false,
      ended: false,
      drawn: {},
      room: emptyRoom(),
      quiz: noQuiz(),
    },
    link,
  );
}

// ---- pure helpers

/** True when two links describe the same experiment (display keys aside). */
export function sameLink(state: AppState, a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return state.rules.sameExperiment(a, b);
}

/** The view on screen. */
export function viewOf(state: AppState): View {
  return state.view;
}

/** The report the open lab shows, if any. */
export function shownOf(state: AppState): Shown | null {
  return state.shown[state.params.lab] ?? null;
}

/** The report the open lab shows (null before its first). */
export function reportOf(state: AppState): LabReport | null {
  return shownOf(state)?.report ?? null;
}

/** True when the open lab's report was measured for the settings on screen. */
export function reportCurrent(state: AppState): boolean {
  const shown = shownOf(state);
  return shown !== null && sameLink(state, shown.fragment, state.runFragment);
}

/** True when the shown sweep was run for the settings and range on screen. */
export function sweepCurrent(state: AppState): boolean {
  return state.sweep !== null && state.sweepFragment !== null && sameLink(state, state.sweep.fragment, state.sweepFragment);
}

/** True while any run request or the sweep runs, or a run waits to be sent (a comparison's rounds aside). */
function measuring(state: AppState): boolean {
  return state.inFlight.length > 0 || state.timing !== null || state.debouncing || state.sweep?.status === "running";
}

/** True while any run request, the sweep or the comparison runs, or a run waits to be sent. */
export function isRunning(state: AppState): boolean {
  return measuring(state) || state.compare?.status === "running" || state.compare?.status === "waiting";
}

/** The comparison a link asks for (`b.` keys), about to be measured; null for a link of one experiment. */
function comparing(link: Decoded, id: number): CompareRun | null {
  if (!link.compare) return null;
  return { id, fragment: link.compare.fragment, source: "link", file: null, fileA: null, status: "waiting", result: null, failure: null, retries: 0 };
}

/** The link the address bar shows: the comparison link while a link's comparison is on screen, else the settings'. */
export function addressOf(state: AppState): string {
  return state.compare?.source === "link" ? state.compare.fragment : state.fragment;
}

/** The stages asked for the settings on screen and not yet in (sent, or waiting for their counts or for the controls to rest). */
export function pendingStages(state: AppState): Stage[] {
  const sent = state.inFlight.filter((r) => r.lab === state.params.lab && sameLink(state, r.fragment, state.runFragment)).map((r) => r.stage);
  const waiting = state.timing && sameLink(state, state.timing.fragment, state.runFragment) ? [state.timing.stage] : [];
  return [...sent, ...waiting, ...(state.debouncing ? (["quick"] as const) : [])];
}

/** The stage of the open lab's report when it is of the current settings; null otherwise. */
export function currentStage(state: AppState): Stage | null {
  return reportCurrent(state) ? shownOf(state)!.report.stage : null;
}

/** The results on screen that are of the settings on screen: the open lab's report, and the sweep (null where none such). */
export function currentResults(state: AppState): { report: LabReport | null; sweep: SweepReport | null } {
  return { report: reportCurrent(state) ? reportOf(state) : null, sweep: sweepCurrent(state) ? (state.sweep?.report ?? null) : null };
}

/** True when the open lab's charts show its report on screen. */
export function chartsDrawn(state: AppState): boolean {
  const report = reportOf(state);
  return report !== null && state.drawn[state.params.lab] === report;
}

/** True when the view on screen shows results of other settings than the controls. */
export function isStale(state: AppState): boolean {
  if (viewOf(state) === "sweep") return state.sweep !== null && !sweepCurrent(state);
  return shownOf(state) !== null && !reportCurrent(state);
}

/** True when the view on screen has results to show (current or not). */
export function hasResults(state: AppState): boolean {
  return viewOf(state) === "sweep" ? state.sweep?.report != null : shownOf(state) !== null;
}

/**
 * The link the view's exports (CSV, JSON, PNG, baseline, native command)
 * carry: the one its results were measured with, null without results.
 */
export function exportFragment(state: AppState): string | null {
  if (viewOf(state) === "sweep") return state.sweep?.report ? state.sweep.fragment : null;
  return shownOf(state)?.fragment ?? null;
}

/** What the engine is doing for the view on screen, in a word or three. "Done" only over current, finished results. */
export function activityText(state: AppState): string {
  if (state.engine.kind === "broken") return "Engine unavailable";
  if (viewOf(state) === "sweep") return sweepActivity(state);
  const pending = pendingStages(state);
  const shown = currentStage(state);
  if (pending.length > 0) {
    // The build that times these settings (and counts the write lab) is
    // still being compiled (`npm start`): said, not a hang; the badge says how far the results have come.
    const build = timingBuildOf(state.params);
    if (state.building.includes(build) && shown !== "full") return `Building ${build}…`;
    if (shown === null) return pending.includes("counts") ? "Counting…" : "Measuring…";
    if (shown === "counts") return "Exact counts; timing…";
    if (shown === "quick") return pending.includes("full") ? "Quick estimate; measuring…" : "Estimating…";
    return "Measuring again…";
  }
  if (state.stopped) return shown === null ? "Stopped" : shown === "full" ? "Stopped" : "Stopped: not timed";
  if (state.engine.kind === "loading") return "Loading engine…";
  // A's results are in, B's rounds are not: the comparison on screen is still measuring.
  if (state.compare?.status === "waiting" || state.compare?.status === "running") return "Comparing A and B…";
  if (shown === "full") return chartsDrawn(state) ? "Done" : "Drawing…";
  if (shown === "quick") return "Quick estimate";
  if (shown === "counts") return "Exact counts, not timed";
  if (shownOf(state)) return isRunning(state) ? "Settings changed…" : "Settings changed: not measured";
  return "Ready";
}

function sweepActivity(state: AppState): string {
  const sweep = state.sweep;
  if (state.params.sweep === null) return "Pick an axis";
  if (sweep === null) return state.engine.kind === "loading" ? "Loading engine…" : "Ready to sweep";
  const current = sweepCurrent(state);
  if (sweep.status === "running") return current ? "Sweeping…" : "Sweeping earlier settings…";
  if (!current) return "Settings changed: not swept";
  if (sweep.status === "done") return "Done";
  if (sweep.status === "cancelled") return "Sweep cancelled";
  return "Sweep failed";
}

/**
 * The sentence above the headline when the view's results are of other
 * settings than the controls show and nothing is measuring the new ones
 * (null otherwise: while they are measured, the status line says so).
 */
export function staleNote(state: AppState): string | null {
  if (!isStale(state)) return null;
  if (viewOf(state) === "sweep") {
    return state.sweep?.status === "running"
      ? null
      : "This sweep was run for earlier settings: Run sweep (or Measure again) sweeps the ones shown.";
  }
  // While the new settings are measured, the status line says so and the old results are dimmed.
  return pendingStages(state).length > 0 ? null : "These results are of earlier settings: Measure again measures the ones shown.";
}

/** True while a lesson's question waits for its answer: predict is on, a lesson is open, and Reveal has not been pressed. */
export function predicting(state: AppState): boolean {
  return state.params.predict && state.params.lesson !== null && !state.revealed;
}

/** True while the results must not show: a lesson's question or the quiz's waits for its answer (the page hides them, as predict does). */
export function resultsHidden(state: AppState): boolean {
  return predicting(state) || (state.params.quiz && quizAsking(state.quiz));
}

/**
 * The lesson's own experiment after `link` was opened: a new lesson starts
 * from its link; the same lesson's link again (Load it again, a suggestion)
 * keeps what its own link measured.
 */
function lessonRunOf(current: LessonRun | null, link: Decoded, links: Links): LessonRun | null {
  const lesson = link.params.lesson;
  if (lesson === null) return null;
  if (current?.lesson === lesson) return current;
  return { lesson, run: links.run, sweep: links.sweep, report: null, sweepReport: null };
}

/**
 * The open lesson's own link is known (the catalog's). A lesson opened from
 * a link whose settings differ from its own (a handout's "Then try", a link
 * passed on, opened cold) still asks the lesson's question: its answer is
 * read from the lesson's own link, whose counts are asked beside the
 * settings on screen (never shown as the page's results). A sweep's answer
 * waits for a sweep of the lesson's own link.
 */
function lessonLinkKnown(state: AppState, link: Decoded): Step {
  const own = state.lessonRun;
  const { links } = link;
  if (own === null || own.lesson !== link.params.lesson) return step(state);
  if (sameLink(state, own.run, links.run) && sameLink(state, own.sweep, links.sweep)) return step(state);
  const lessonRun: LessonRun = { lesson: own.lesson, run: links.run, sweep: links.sweep, report: null, sweepReport: null };
  // Counts of the lesson's own link already on screen answer it (`withLessonResults`).
  if (Object.values(state.shown).some((s) => s && sameLink(state, s.fragment, links.run))) return step({ ...state, lessonRun });
  const request: Request = { id: state.nextRequestId, stage: "counts", fragment: links.run, lab: link.params.lab, worker: "counter", lesson: true };
  return step({ ...state, lessonRun, inFlight: [...state.inFlight, request], nextRequestId: request.id + 1 }, [
    { type: "run", id: request.id, stage: "counts", fragment: request.fragment, lab: request.lab, counts: null },
  ]);
}

/** The results a lesson's answer is read from: its own link's (whatever the settings on screen became since), or the current ones without a lesson. */
export function lessonResults(state: AppState): { report: LabReport | null; sweep: SweepReport | null } {
  const own = state.lessonRun;
  return own === null ? currentResults(state) : { report: own.report, sweep: own.sweepReport };
}

/**
 * The open lesson's answer is in or on its way: read from the results on
 * screen (no lesson link known), from its own counts (asked beside the
 * settings on screen), or from its own sweep when that is the sweep on
 * screen. False when the lesson's answer is a sweep's and the sweep on
 * screen is of other settings: nothing sweeps the lesson's own link until
 * it is loaded again.
 */
export function lessonAnswerComing(state: AppState): boolean {
  const own = state.lessonRun;
  if (own === null || own.sweep === null || own.sweepReport !== null) return true;
  return state.sweepFragment !== null && sameLink(state, state.sweepFragment, own.sweep);
}

/** Keeps the lesson's own results as they arrive: the best stage of its run link, the newest sweep of its sweep link. */
function withLessonResults(next: Step): Step {
  const { state } = next;
  const own = state.lessonRun;
  if (own === null) return next;
  let { report, sweepReport } = own;
  for (const shown of Object.values(state.shown)) {
    if (!shown || shown.report === report) continue;
    const better = report === null || STAGE_RANK[shown.report.stage] >= STAGE_RANK[report.stage];
    if (better && sameLink(state, shown.fragment, own.run)) report = shown.report;
  }
  const sweep = state.sweep;
  if (sweep?.report && sweep.report !== sweepReport && own.sweep !== null && sameLink(state, sweep.fragment, own.sweep)) sweepReport = sweep.report;
  if (report === own.report && sweepReport === own.sweepReport) return next;
  return { ...next, state: { ...state, lessonRun: { ...own, report, sweepReport } } };
}

/**
 * The params of a link opened from inside the page (a lesson, Next,
 * Previous, the lesson list, Reset, an in-page link): the workshop's display
 * state stays on. Lesson links never carry `present` or `predict`, so a
 * teacher's link and the students' differ only by those keys.
 */
export function keepWorkshop(current: Params, loaded: Params): Params {
  return { ...loaded, present: loaded.present || current.present, predict: loaded.predict || current.predict };
}

/** The lesson `delta` steps from the open one in `order` (null at either end, or with no lesson open). */
export function lessonStep(state: AppState, order: readonly LessonId[], delta: 1 | -1): LessonId | null {
  const index = state.params.lesson === null ? -1 : order.indexOf(state.params.lesson);
  if (index < 0) return null;
  return order[index + delta] ?? null;
}

// ---- transitions

function withLink(state: AppState, link: Decoded): AppState {
  let nextNoticeId = state.nextNoticeId;
  const fresh = link.notices.map((n: LinkNotice): Notice => ({ id: nextNoticeId++, source: "link", key: n.key, message: n.message }));
  return {
    ...state,
    params: link.params,
    notices: [...state.notices.filter((n) => n.source === "engine"), ...fresh],
    error: null,
    nextNoticeId,
  };
}

function withLinks(state: AppState, params: Params, links: Links): AppState {
  return { ...state, params, fragment: links.link, runFragment: links.run, sweepFragment: links.sweep, view: links.view };
}

function step(state: AppState, effects: Effect[] = []): Step {
  return { state, effects };
}

/** A run request of the current settings goes out. */
function send(state: AppState, stage: Stage, counts: LabReport | null, worker: WorkerKind): Step {
  const request: Request = { id: state.nextRequestId, stage, fragment: state.runFragment, lab: state.params.lab, worker };
  return step({ ...state, inFlight: [...state.inFlight, request], nextRequestId: request.id + 1, stopped: false }, [
    { type: "run", id: request.id, stage, fragment: request.fragment, lab: request.lab, counts },
  ]);
}

/** The current report's counts when they are of the current settings: a timed stage times them. */
function currentCounts(state: AppState): LabReport | null {
  // The engine times a counts stage's report only (`experiment::time_counted`
  // refuses a quick or full one), so Measure again counts afresh first.
  return reportCurrent(state) && shownOf(state)!.report.stage === "counts" ? shownOf(state)!.report : null;
}

/** A timed stage of the current settings: sent at once when their counts are in, else when they come. */
function wantTiming(state: AppState, stage: "quick" | "full"): Step {
  const counts = currentCounts(state);
  const countsComing = state.inFlight.some((r) => r.worker === "counter" && r.lab === state.params.lab && sameLink(state, r.fragment, state.runFragment));
  if (counts === null && countsComing) {
    return step({ ...state, timing: { stage, fragment: state.runFragment, lab: state.params.lab }, stopped: false });
  }
  return send({ ...state, timing: null }, stage, counts, "timer");
}

function merge(first: Step, second: (state: AppState) => Step): Step {
  const next = second(first.state);
  return { state: next.state, effects: [...first.effects, ...next.effects] };
}

/** Starts a sweep of the current params (any earlier one is cancelled). */
function startSweep(state: AppState): Step {
  if (state.params.sweep === null || state.sweepFragment === null) return step(state);
  const sweep: SweepRun = {
    id: state.nextRequestId,
    fragment: state.sweepFragment,
    params: state.params,
    status: "running",
    report: null,
    failure: null,
    elapsedMs: null,
  };
  return step({ ...state, sweep, nextRequestId: sweep.id + 1, stopped: false }, [
    ...(state.sweep?.status === "running" ? [{ type: "cancelSweep" } as const] : []),
    { type: "sweep", id: sweep.id, params: state.params, fragment: sweep.fragment },
  ]);
}

/** The sweep view is shown: sweeps the settings on screen unless its sweep is theirs already. */
function sweepIfShown(state: AppState): Step {
  if (viewOf(state) !== "sweep") return step(state);
  // The axis taken away (Off) while its sweep runs: that sweep is not wanted any more.
  if (state.params.sweep === null) return sweepCancel(state);
  if (sweepCurrent(state) && state.sweep!.status !== "failed") return step(state);
  return startSweep(state);
}

/**
 * The settings on screen are measured: exact counts at once; then a quick
 * estimate once the controls rest (`live`), or the full measurement; in the
 * sweep view, once the controls rest, the sweep is redone too.
 */
function measure(state: AppState, timing: "live" | "full"): Step {
  const cleared: Step = step({ ...state, debouncing: false, timing: null, stopped: false }, state.debouncing ? [{ type: "cancelDebounce" }] : []);
  const counted = merge(cleared, (s) => send(s, "counts", null, "counter"));
  if (timing === "live") return merge(counted, (s) => step({ ...s, debouncing: true }, [{ type: "debounce" }]));
  const timed = merge(counted, (s) => wantTiming(s, "full"));
  return viewOf(state) === "sweep" ? merge(timed, startSweep) : timed;
}

/** A run view is shown: its report is timed in full if it is not yet and nothing is on its way (a drag in the sweep view counts only). */
function timeIfShown(state: AppState): Step {
  if (viewOf(state) === "sweep" || state.stopped) return step(state);
  const stage = currentStage(state);
  if (stage === "full" || pendingStages(state).length > 0) return step(state);
  if (stage === null) return measure(state, "full");
  return wantTiming(state, "full");
}

function settled(state: AppState, id: number, outcome: Outcome): Step {
  const request = state.inFlight.find((r) => r.id === id);
  // A request ended by Stop (or unknown) settles into nothing.
  if (!request) return step(state);
  let next: AppState = { ...state, inFlight: state.inFlight.filter((r) => r.id !== id) };
  const current = request.lab === state.params.lab && sameLink(state, request.fragment, state.runFragment);
  if (request.lesson) {
    // The lesson's own counts, for its answer only (`lessonLinkKnown`), unless its link's results came first (on screen: `withLessonResults`).
    const own = next.lessonRun;
    if (outcome.kind === "report" && own !== null && own.report === null && sameLink(state, own.run, request.fragment)) {
      next = { ...next, lessonRun: { ...own, report: outcome.report } };
    }
  } else if (outcome.kind === "report") {
    const shown = next.shown[request.lab];
    const shownCurrent = shown !== undefined && sameLink(state, shown.fragment, state.runFragment);
    const older = shownCurrent && !current;
    const lesser = shown !== undefined && sameLink(state, shown.fragment, request.fragment) && STAGE_RANK[outcome.report.stage] < STAGE_RANK[shown.report.stage];
    if (!older && !lesser) {
      next = {
        ...next,
        shown: { ...next.shown, [request.lab]: { report: outcome.report, fragment: request.fragment, elapsedMs: outcome.elapsedMs } },
        error: current ? null : next.error,
      };
    }
  } else if (outcome.kind === "failed" && current) {
    next = { ...next, error: outcome.message };
  }
  // Counts came (or will not): the timed stage that waited for them goes out.
  const waiting = next.timing;
  if (request.worker === "counter" && waiting && waiting.lab === request.lab && sameLink(state, waiting.fragment, request.fragment)) {
    const counts = outcome.kind === "report" && current ? outcome.report : null;
    const stillComing = next.inFlight.some((r) => r.worker === "counter" && sameLink(state, r.fragment, request.fragment));
    if (counts !== null || !stillComing) {
      const timed: Request = { id: next.nextRequestId, stage: waiting.stage, fragment: waiting.fragment, lab: waiting.lab, worker: "timer" };
      return step({ ...next, timing: null, inFlight: [...next.inFlight, timed], nextRequestId: timed.id + 1 }, [
        { type: "run", id: timed.id, stage: timed.stage, fragment: timed.fragment, lab: timed.lab, counts },
      ]);
    }
  }
  return step(next);
}

function notice(state: AppState, message: string): AppState {
  const added: Notice = { id: state.nextNoticeId, source: "engine", message };
  const engine = [...state.notices.filter((n) => n.source === "engine"), added].slice(-MAX_ENGINE_NOTICES);
  return { ...state, notices: [...state.notices.filter((n) => n.source !== "engine"), ...engine], nextNoticeId: state.nextNoticeId + 1 };
}

/** A change waits for the codec: held, the newest winning, until `codecReady` replays it. */
function hold(state: AppState, held: Held): Step {
  return step({ ...state, held });
}

function linkLoaded(state: AppState, link: Decoded, links: Links): Step {
  const sameLesson = link.params.lesson === state.params.lesson;
  const workshop = sameLesson ? {} : { revealed: false, guess: null, ended: false };
  const loaded = withLinks(withLink({ ...state, ...workshop, held: null, lessonRun: lessonRunOf(state.lessonRun, link, links) }, link), link.params, links);
  const compare = comparing(link, loaded.nextRequestId);
  const next = { ...loaded, compare, nextRequestId: loaded.nextRequestId + (compare ? 1 : 0) };
  return merge(step(next, [{ type: "writeLink", fragment: addressOf(next) }]), (s) => measure(s, "full"));
}

/** The comparison waiting on screen is measured once A's own requests have settled (the timing worker runs one job at a time). */
function startCompare(next: Step): Step {
  const c = next.state.compare;
  if (c?.status !== "waiting" || measuring(next.state)) return next;
  return { state: { ...next.state, compare: { ...c, status: "running" } }, effects: [...next.effects, { type: "compare", id: c.id, fragment: c.fragment }] };
}

/** A comparison's rounds ended: its result, unless another comparison (or none) has replaced it. */
function compareSettled(state: AppState, id: number, outcome: CompareOutcome): Step {
  const c = state.compare;
  if (c?.id !== id || c.status !== "running") return step(state);
  if (outcome.kind === "done") return step({ ...state, compare: { ...c, status: "done", result: outcome.comparison } });
  if (outcome.kind === "failed") return step({ ...state, compare: { ...c, status: "failed", failure: outcome.message } });
  // Ended by the page's own runs, not by Stop (which marks it cancelled first): sent again once they are done.
  if (c.retries < MAX_COMPARE_RETRIES) return step({ ...state, compare: { ...c, status: "waiting", retries: c.retries + 1 } });
  return step({ ...state, compare: { ...c, status: "cancelled" } });
}

/** A result file: paired, it is the comparison on screen; refused, a notice says why and nothing else changes. */
function compareFile(state: AppState, file: string, fileA: string | null, outcome: Extract<Action, { type: "compareFile" }>["outcome"]): Step {
  if (outcome.kind === "refused") {
    // One notice per refused file of the selection; the previous selection's notices go.
    const refused = [{ file, message: outcome.message }, ...(outcome.others ?? [])];
    const added = refused.map((r, i): Notice => ({ id: state.nextNoticeId + i, source: "file", key: r.file, message: r.message }));
    return step({ ...state, notices: [...state.notices.filter((n) => n.source !== "file"), ...added], nextNoticeId: state.nextNoticeId + added.length });
  }
  const compare: CompareRun = {
    id: state.nextRequestId,
    fragment: outcome.comparison.a.link,
    source: "file",
    file,
    fileA,
    status: "done",
    result: outcome.comparison,
    failure: null,
    retries: 0,
  };
  const running = state.compare?.status === "running";
  return step(
    { ...state, compare, nextRequestId: compare.id + 1, notices: state.notices.filter((n) => n.source !== "file") },
    [...(running ? [{ type: "cancelRuns" } as const] : []), { type: "writeLink", fragment: state.fragment }],
  );
}

/** The comparison is closed: A alone, its own link in the address bar. */
function compareClosed(state: AppState): Step {
  if (state.compare === null) return step(state);
  const running = state.compare.status === "running";
  return step({ ...state, compare: null }, [...(running ? [{ type: "cancelRuns" } as const] : []), { type: "writeLink", fragment: state.fragment }]);
}

function edited(state: AppState, params: Params, links: Links, live: boolean): Step {
  const unchanged = links.run === state.runFragment && links.sweep === state.sweepFragment;
  // Notices about the link and the settings go when the experiment changes (a display key alone, as the view, keeps them).
  const sameExperiment = sameLink(state, links.run, state.runFragment) && sameLink(state, links.sweep, state.sweepFragment);
  // A comparison's A is the settings it was opened with: a change of experiment ends it.
  const compare = sameExperiment ? state.compare : null;
  const next = withLinks(
    unchanged ? { ...state, compare } : { ...state, compare, notices: sameExperiment ? state.notices : state.notices.filter((n) => n.source === "engine"), error: null },
    params,
    links,
  );
  const written = step(next, [{ type: "writeLink", fragment: addressOf(next) }]);
  // A control set back to the value already measured in full needs no new run.
  if (unchanged && !live && !isRunning(state) && (viewOf(next) === "sweep" ? sweepCurrent(next) : currentStage(next) === "full")) return written;
  // A slider let go where it rests: its counts are on screen, so only the full measurement is missing.
  if (unchanged && !live && viewOf(next) !== "sweep" && currentStage(next) !== null) {
    const rested = step({ ...written.state, debouncing: false }, [...written.effects, ...(state.debouncing ? [{ type: "cancelDebounce" } as const] : [])]);
    return merge(rested, (s) => wantTiming(s, "full"));
  }
  return merge(written, (s) => measure(s, live ? "live" : "full"));
}

function displayed(state: AppState, params: Params, links: Links): Step {
  const next = withLinks(state, params, links);
  return merge(merge(step(next, [{ type: "writeLink", fragment: addressOf(next) }]), sweepIfShown), timeIfShown);
}

function sweepEdited(state: AppState, params: Params, links: Links): Step {
  const next = withLinks({ ...state, error: null, compare: null }, params, links);
  return merge(step(next, [{ type: "writeLink", fragment: links.link }]), sweepIfShown);
}

/**
 * A view tab was chosen: its own starting settings are a change of experiment, said in a notice; else only the view
 * changes, and the results on screen stay (every single run records its buffer timelines, so the timeline view shows
 * the run view's report, whose link differs from its own only in the view).
 */
function viewChosen(chosen: AppState, entered: Entered): Step {
  // A note about the view left (its starting settings) goes with it.
  const state = { ...chosen, notices: chosen.notices.filter((n) => n.source !== "settings") };
  if (sameLink(state, entered.links.run, state.runFragment)) return displayed(state, entered.params, entered.links);
  const changed = edited(state, entered.params, entered.links, false);
  return entered.note === null ? changed : merge(changed, (s) => settingsNote(s, entered.note!));
}

function codecReady(state: AppState): Step {
  const held = state.held;
  return step({ ...state, codecReady: true, held: null }, held ? [{ type: "replay", held }] : []);
}

function stop(state: AppState): Step {
  if (!isRunning(state)) return step(state);
  const effects: Effect[] = [];
  if (state.debouncing) effects.push({ type: "cancelDebounce" });
  if (state.inFlight.length > 0) effects.push({ type: "cancelRuns" });
  const sweep = state.sweep?.status === "running" ? { ...state.sweep, status: "cancelled" as const } : state.sweep;
  if (sweep !== state.sweep) effects.push({ type: "cancelSweep" });
  const compare = state.compare?.status === "running" || state.compare?.status === "waiting" ? { ...state.compare, status: "cancelled" as const } : state.compare;
  if (state.compare?.status === "running" && state.inFlight.length === 0) effects.push({ type: "cancelRuns" });
  return step({ ...state, inFlight: [], timing: null, debouncing: false, sweep, compare, stopped: true }, effects);
}

function debounced(state: AppState): Step {
  return state.debouncing ? wantTiming({ ...state, debouncing: false }, "quick") : step(state);
}

function sweepCancel(state: AppState): Step {
  if (state.sweep?.status !== "running") return step(state);
  return step({ ...state, sweep: { ...state.sweep, status: "cancelled" } }, [{ type: "cancelSweep" }]);
}

function sweepPoint(state: AppState, id: number, report: SweepReport): Step {
  if (state.sweep?.id !== id || state.sweep.status !== "running") return step(state);
  return step({ ...state, sweep: { ...state.sweep, report } });
}

function sweepSettled(state: AppState, id: number, outcome: SweepOutcome, elapsedMs: number): Step {
  const sweep = state.sweep;
  if (sweep?.id !== id) return step(state);
  const ended: SweepRun =
    outcome.kind === "done"
      ? { ...sweep, status: sweep.status === "running" ? "done" : sweep.status, report: outcome.report ?? sweep.report }
      : outcome.kind === "failed"
        ? { ...sweep, status: "failed", failure: outcome.message }
        : { ...sweep, status: "cancelled" };
  return step({ ...state, sweep: { ...ended, elapsedMs } });
}

/** A worker was replaced: said in a notice, unless a request was running (its failure says it already). */
function respawned(state: AppState, reason: string): Step {
  return isRunning(state) ? step(state) : step(notice(state, `${reason} A fresh engine was started.`));
}

function settingsNote(state: AppState, message: string): Step {
  const added: Notice = { id: state.nextNoticeId, source: "settings", message };
  return step({ ...state, notices: [...state.notices.filter((n) => n.source !== "settings"), added], nextNoticeId: state.nextNoticeId + 1 });
}

/** Forward: a blank screen comes back first; then the answer is revealed; then the next lesson, or past the last the end slide. */
function forward(state: AppState, order: readonly LessonId[]): Step {
  if (state.blank) return step({ ...state, blank: false });
  if (predicting(state)) return step({ ...state, revealed: true });
  const next = lessonStep(state, order, 1);
  if (next) return step(state, [{ type: "openLesson", id: next }]);
  return step(state.params.lesson !== null && state.params.lesson === order.at(-1) ? { ...state, ended: true } : state);
}

/** Back: a blank screen comes back first; from the end slide to the last lesson; else the previous lesson. */
function back(state: AppState, order: readonly LessonId[]): Step {
  if (state.blank) return step({ ...state, blank: false });
  if (state.ended) return step({ ...state, ended: false });
  const previous = lessonStep(state, order, -1);
  return step(state, previous ? [{ type: "openLesson", id: previous }] : []);
}

/** The milestones `next` reaches, in the order the page marks them. */
function withMilestones(next: Step): Step {
  const { state } = next;
  const m = state.milestones;
  const reached: Milestone[] = [];
  if (!m.firstNumbers && Object.keys(state.shown).length > 0) reached.push("firstNumbers");
  if (!m.firstFullShown && reportOf(state)?.stage === "full" && reportCurrent(state)) reached.push("firstFullShown");
  // What waited for the first full measurement loads once the opening's requests have settled (a comparison's rounds may take longer: the view that shows them is among what waits).
  if (!m.firstFull && (m.firstNumbers || reached.includes("firstNumbers")) && !measuring(state)) reached.push("firstFull");
  if (reached.length === 0) return next;
  const milestones = { ...m, ...Object.fromEntries(reached.map((r) => [r, true])) };
  return { state: { ...state, milestones }, effects: [...next.effects, ...reached.map((milestone) => ({ type: "milestone", milestone }) as const)] };
}

/** The one transition function: the next state and the effects to run. */
export function update(state: AppState, action: Action): Step {
  return withMilestones(startCompare(withRoom(state, withQuiz(withLessonResults(transition(state, action))))));
}

function transition(state: AppState, action: Action): Step {
  switch (action.type) {
    case "linkLoaded":
      return action.links && state.codecReady ? linkLoaded(state, action.link, action.links) : hold(state, { kind: "link", link: action.link });
    case "edited":
      return action.links && state.codecReady ? edited(state, action.params, action.links, action.live) : hold(state, { kind: "edit", params: action.params, live: action.live });
    case "display":
      return action.links && state.codecReady ? displayed(state, action.params, action.links) : hold(state, { kind: "display", params: action.params });
    case "sweepEdited":
      return action.links && state.codecReady ? sweepEdited(state, action.params, action.links) : hold(state, { kind: "sweep", params: action.params });
    case "viewChosen":
      return action.entered && state.codecReady ? viewChosen(state, action.entered) : hold(state, { kind: "view", view: action.view });
    case "refused":
      return step({ ...state, error: action.message });
    case "codecReady":
      return codecReady(state);
    case "measure":
      return measure(state, "full");
    case "stop":
      return stop(state);
    case "debounced":
      return debounced(state);
    case "settled":
      return settled(state, action.id, action.outcome);
    case "sweepRun":
      return startSweep(state);
    case "sweepCancel":
      return sweepCancel(state);
    case "sweepPoint":
      return sweepPoint(state, action.id, action.report);
    case "sweepSettled":
      return sweepSettled(state, action.id, action.outcome, action.elapsedMs);
    case "engineReady":
      return step({ ...state, engine: { kind: "ready", isolated: action.isolated } });
    case "respawned":
      return respawned(state, action.reason);
    case "engineBroken":
      return step({ ...state, engine: { kind: "broken", message: action.message } });
    case "engineNotice":
      return step(notice(state, action.message));
    case "building":
      return step({ ...state, building: action.builds });
    case "settingsNote":
      return settingsNote(state, action.message);
    case "noticeDismissed":
      return step({ ...state, notices: state.notices.filter((n) => n.id !== action.id) });
    case "reveal":
      return step({ ...state, revealed: true });
    case "guessed":
      return step({ ...state, guess: action.guess !== null && Number.isFinite(action.guess) ? action.guess : null });
    case "forward":
      return forward(state, action.order);
    case "back":
      return back(state, action.order);
    case "compareSettled":
      return compareSettled(state, action.id, action.outcome);
    case "compareFile":
      return compareFile(state, action.file, action.fileA ?? null, action.outcome);
    case "compareClosed":
      return compareClosed(state);
    case "blank":
      return step({ ...state, blank: !state.blank });
    case "drawn":
      return step({ ...state, drawn: { ...state.drawn, [action.report.lab]: action.report } });
    case "lessonLink":
      return lessonLinkKnown(state, action.link);
    case "room":
      return roomStep(state, action.action);
    case "quiz":
      return step({ ...state, quiz: quizUpdate(state.quiz, action.action) });
  }
}

// ---- the quiz (its rules are app/quiz.ts's; here only which link it is about)

/** The link the quiz is about: the sweep's when there is one (its knee is a question), else the single run's; null without `quiz=on`. */
export function quizLinkOf(state: AppState): string | null {
  if (!state.params.quiz) return null;
  return state.sweepFragment ?? state.runFragment;
}

/** Asks for the quiz when the link on screen is another experiment or another `qseed` than the quiz's; drops it when `quiz` is off. */
function withQuiz(next: Step): Step {
  const { state } = next;
  const link = quizLinkOf(state);
  const q = state.quiz;
  if (link === null) return q.link === null ? next : { ...next, state: { ...state, quiz: noQuiz() } };
  if (q.link !== null && sameLink(state, q.link, link) && q.qseed === state.params.qseed) return next;
  const asked = quizAsked(link, state.params.qseed);
  return { state: { ...state, quiz: asked.quiz }, effects: [...next.effects, ...asked.effects.map((e) => ({ type: "quiz", link: e.link }) as const)] };
}

// ---- the room (its rules are app/room.ts's; here only where it meets the page)

/** A room action, in the page's context: presenter mode, and whether the lesson's question is asking. */
function roomStep(state: AppState, action: RoomAction): Step {
  const { room, effects } = roomUpdate(state.room, action, { present: state.params.present, asking: predicting(state) });
  return step(room === state.room ? state : { ...state, room }, effects.map((effect) => ({ type: "room", effect }) as const));
}

/** Another lesson empties the room; Reveal, or leaving presenter mode, stops its camera. */
function withRoom(before: AppState, next: Step): Step {
  const { state } = next;
  const moved =
    state.params.lesson !== before.params.lesson
      ? roomLeft(state.room)
      : (predicting(before) && !predicting(state)) || (!state.params.present && scanning(state.room))
        ? roomRevealed(state.room)
        : null;
  if (moved === null || (moved.room === state.room && moved.effects.length === 0)) return next;
  return { state: { ...state, room: moved.room }, effects: [...next.effects, ...moved.effects.map((effect) => ({ type: "room", effect }) as const)] };
}

/**
 * How many of a step's effects run before the page draws it: those up to a
 * change's exact counts, when each of them only cancels or writes the link
 * (none dispatches), so the worker counts while the page draws.
 */
export function effectsBeforeRender(effects: readonly Effect[]): number {
  const counts = effects.findIndex((e) => e.type === "run" && e.stage === "counts");
  const quiet: ReadonlySet<Effect["type"]> = new Set(["cancelRuns", "cancelDebounce", "cancelSweep", "writeLink"]);
  return counts >= 0 && effects.slice(0, counts).every((e) => quiet.has(e.type)) ? counts + 1 : 0;
}

/** What a page does as it opens: the address bar gets the canonical link of what runs, then its exact counts (already on their way), the full measurement and, in the sweep view, its sweep. */
export function opening(state: AppState): Step {
  return withQuiz(merge(step(state, [{ type: "writeLink", fragment: addressOf(state) }]), (s) => measure(s, "full")));
}
