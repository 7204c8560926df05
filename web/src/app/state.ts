// App state and its transitions. Every transition is a pure function from the
// old state to a new one; main.ts applies them and hands the result to the UI
// pieces, which only read it. Nothing here touches the DOM, the worker or the
// link.

import type { Decoded, LabReport, Notice as LinkNotice, Params, Stage } from "../engine/types.gen";

export type NoticeSource = "link" | "engine";

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

/** A request sent to the engine and not yet settled. */
export interface Request {
  id: number;
  /** How far it times: counts only, a quick estimate, the full measurement. */
  stage: Stage;
  /** The fragment it measures. */
  fragment: string;
}

/** How far each stage has come: a report never gives way to a lesser one of the same settings. */
export const STAGE_RANK: Record<Stage, number> = { counts: 0, quick: 1, full: 2 };

export interface AppState {
  params: Params;
  /** Canonical link fragment of `params` (no leading '#'). */
  fragment: string;
  notices: Notice[];
  /** The newest report received (of either lab), possibly for older params while a run is pending. */
  report: LabReport | null;
  /** The fragment the report was measured for. */
  reportFragment: string | null;
  /** Wall time of the worker's `run` call for `report`. */
  elapsedMs: number | null;
  /** Requests sent and not yet settled (a dropped one settles too). */
  inFlight: Request[];
  /** The id the next request gets. */
  nextRequestId: number;
  /** The last engine error for the current params, shown until the next result. */
  error: string | null;
  engine: EngineStatus;
  /** The person pressed Stop and has not asked for a run since. */
  stopped: boolean;
  nextNoticeId: number;
}

/** Most engine notices kept on screen; older ones go first. */
export const MAX_ENGINE_NOTICES = 3;

export function initialState(link: Decoded): AppState {
  return linkLoaded(
    {
      params: link.params,
      fragment: link.fragment,
      notices: [],
      report: null,
      reportFragment: null,
      elapsedMs: null,
      inFlight: [],
      nextRequestId: 1,
      error: null,
      engine: { kind: "loading" },
      stopped: false,
      nextNoticeId: 1,
    },
    link,
  );
}

/** A link was read (page load or a pasted link): its params win, its notices replace the old link notices. */
export function linkLoaded(state: AppState, link: Decoded): AppState {
  let nextNoticeId = state.nextNoticeId;
  const fresh = link.notices.map((n: LinkNotice): Notice => ({
    id: nextNoticeId++,
    source: "link",
    key: n.key,
    message: n.message,
  }));
  return {
    ...state,
    params: link.params,
    fragment: link.fragment,
    notices: [...state.notices.filter((n) => n.source !== "link"), ...fresh],
    error: null,
    nextNoticeId,
  };
}

/** The person changed a control. Old link notices no longer describe the page, so they go. */
export function paramsEdited(state: AppState, params: Params, fragment: string): AppState {
  if (fragment === state.fragment) return state;
  return {
    ...state,
    params,
    fragment,
    notices: state.notices.filter((n) => n.source !== "link"),
    error: null,
  };
}

/** The engine refused an edit (the controls produced params it calls invalid). */
export function editRefused(state: AppState, message: string): AppState {
  return { ...state, error: message };
}

/** A request for the current params goes out; it gets id `state.nextRequestId`. */
export function runRequested(state: AppState, stage: Stage): AppState {
  const request: Request = { id: state.nextRequestId, stage, fragment: state.fragment };
  return { ...state, inFlight: [...state.inFlight, request], nextRequestId: request.id + 1, stopped: false };
}

/** The person pressed Stop; the dropped requests still settle through runDropped. */
export function stopRequested(state: AppState): AppState {
  return isRunning(state) ? { ...state, stopped: true } : state;
}

/** Request `id` settled in some way; call exactly once per `runRequested`. */
function settled(state: AppState, id: number): AppState {
  return { ...state, inFlight: state.inFlight.filter((r) => r.id !== id) };
}

/**
 * Request `id` brought a report. It takes the screen unless that would hide
 * something better: a report of the current settings never gives way to one
 * of earlier settings, nor to a lesser stage of the same settings (counts
 * after a quick estimate, say).
 */
export function runSucceeded(state: AppState, id: number, report: LabReport, fragment: string, elapsedMs: number): AppState {
  const next = settled(state, id);
  const shown = state.report;
  const shownCurrent = shown !== null && state.reportFragment === state.fragment;
  const older = shownCurrent && fragment !== state.fragment;
  const lesser = shown !== null && state.reportFragment === fragment && STAGE_RANK[report.stage] < STAGE_RANK[shown.stage];
  if (older || lesser) return next;
  return {
    ...next,
    report,
    reportFragment: fragment,
    elapsedMs,
    // An error belongs to the params it was raised for.
    error: fragment === state.fragment ? null : state.error,
  };
}

export function runFailed(state: AppState, id: number, message: string, fragment: string): AppState {
  const next = settled(state, id);
  // A failure for params the person has already moved away from is old news.
  return fragment === state.fragment ? { ...next, error: message } : next;
}

/** A request replaced by a newer one, or stopped on purpose. */
export function runDropped(state: AppState, id: number): AppState {
  return settled(state, id);
}

export function engineReady(state: AppState, isolated: boolean): AppState {
  return { ...state, engine: { kind: "ready", isolated } };
}

export function engineBroken(state: AppState, message: string): AppState {
  return { ...state, engine: { kind: "broken", message } };
}

/** Something the person should know about the engine (a restart, a crash). */
export function engineNotice(state: AppState, message: string): AppState {
  const notice: Notice = { id: state.nextNoticeId, source: "engine", message };
  const engine = [...state.notices.filter((n) => n.source === "engine"), notice].slice(-MAX_ENGINE_NOTICES);
  return {
    ...state,
    notices: [...state.notices.filter((n) => n.source !== "engine"), ...engine],
    nextNoticeId: state.nextNoticeId + 1,
  };
}

export function noticeDismissed(state: AppState, id: number): AppState {
  return { ...state, notices: state.notices.filter((n) => n.id !== id) };
}

/** True while any request is in flight. */
export function isRunning(state: AppState): boolean {
  return state.inFlight.length > 0;
}

/** The stages requested for the current settings and not yet in. */
export function pendingStages(state: AppState): Stage[] {
  return state.inFlight.filter((r) => r.fragment === state.fragment).map((r) => r.stage);
}

/** The stage of the report on screen when it is of the current settings; null otherwise. */
export function currentStage(state: AppState): Stage | null {
  return state.report !== null && state.reportFragment === state.fragment ? state.report.stage : null;
}

/** True when the report on screen was measured for other params than the controls show. */
export function isStale(state: AppState): boolean {
  return state.report !== null && state.reportFragment !== state.fragment;
}

/**
 * A display-only setting changed (presenter mode, link key `present`): the
 * params and fragment follow, and a report measured for the old fragment
 * still describes the page, so it is not marked stale.
 */
export function displayChanged(state: AppState, params: Params, fragment: string): AppState {
  if (fragment === state.fragment) return state;
  const current = state.reportFragment === state.fragment;
  return { ...state, params, fragment, reportFragment: current ? fragment : state.reportFragment };
}
