// App state and its transitions. Every transition is a pure function from the
// old state to a new one; main.ts applies them and hands the result to the UI
// pieces, which only read it. Nothing here touches the DOM, the worker or the
// link.

import type { Decoded, LabReport, Notice as LinkNotice, Params } from "../engine/types.gen";

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
  inFlight: number;
  /** Whether the newest request is a quick one (slider still moving). */
  quickPending: boolean;
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
      inFlight: 0,
      quickPending: false,
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

export function runRequested(state: AppState, quick: boolean): AppState {
  return { ...state, inFlight: state.inFlight + 1, quickPending: quick, stopped: false };
}

/** The person pressed Stop; the dropped requests still settle through runDropped. */
export function stopRequested(state: AppState): AppState {
  return isRunning(state) ? { ...state, stopped: true } : state;
}

/** A request settled in some way; call exactly once per `runRequested`. */
function settled(state: AppState): AppState {
  const inFlight = Math.max(0, state.inFlight - 1);
  return { ...state, inFlight, quickPending: inFlight === 0 ? false : state.quickPending };
}

export function runSucceeded(state: AppState, report: LabReport, fragment: string, elapsedMs: number): AppState {
  const next = settled(state);
  return {
    ...next,
    report,
    reportFragment: fragment,
    elapsedMs,
    // An error belongs to the params it was raised for.
    error: fragment === state.fragment ? null : state.error,
  };
}

export function runFailed(state: AppState, message: string, fragment: string): AppState {
  const next = settled(state);
  // A failure for params the person has already moved away from is old news.
  return fragment === state.fragment ? { ...next, error: message } : next;
}

/** A request replaced by a newer one, or stopped on purpose. */
export function runDropped(state: AppState): AppState {
  return settled(state);
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
  return state.inFlight > 0;
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
