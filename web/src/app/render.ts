// The page drawn from its state: small pieces, each owning its elements and
// remembering what it drew last, so a render touches only what changed. The
// page (page.ts) subscribes them to the store in this order; none of them
// decides anything the state has not.

import type { Lab, LabReport, Params, View } from "../engine/types.gen";
import { setText } from "../shared/dom";
import type { LabUi, SweepCompared, SweepShown } from "../shared/lab";
import { plainTerms } from "../shared/term";
import { labOf, type Labs } from "./labs";
import { score } from "./quiz";
import { answeredCards, histogram } from "./room";
import type { Panels } from "./panels";
import { addressOf, isRunning, lessonAnswerComing, lessonResults, pendingStages, predicting, reportCurrent, resultsHidden, reportOf, staleNote, sweepCurrent, viewOf, type AppState, type Shown } from "./state";

export type Piece = (state: AppState) => void;

/** Every lab that has arrived, `each` called for it now or when it does. */
const eachLab = (labs: Labs, each: (lab: LabUi) => void): void => {
  for (const lab of Object.values(labs)) lab(each);
};

/** The forms and switches: shown again only when the params change (or a refused change puts them back: `show`). */
export function formsPiece(labs: Labs, labSwitch: { show(lab: Lab): void }, viewTabs: { show(views: readonly View[], current: View): void }) {
  let shown: Params | null = null;
  const show = (params: Params): void => {
    shown = params;
    eachLab(labs, (ui) => ui.show(params));
    labSwitch.show(params.lab);
    viewTabs.show(labOf(labs, params.lab).views, params.view);
  };
  const piece: Piece = (state) => {
    if (state.params !== shown) show(state.params);
  };
  return { show, piece };
}

/**
 * What <body> says of the page: an embed's charts (styles/embed.css reads
 * the list; its words are plain text, set before anything of these params
 * draws), the lab and the view on screen.
 */
export const bodyPiece: Piece = (state) => {
  const { params } = state;
  if (params.embed.length > 0) {
    document.body.dataset["embed"] = params.embed.join(" ");
    plainTerms(document.body);
  } else delete document.body.dataset["embed"];
  document.body.dataset["lab"] = params.lab;
  document.body.dataset["view"] = viewOf(state);
  // The quiz's question waits for its pick: the results, which hold its answer, wait too (as predict's do, styles/lessons.css).
  document.body.classList.toggle("quizzing", resultsHidden(state) && !predicting(state));
};

/** Which lab and view are on screen: the other labs' elements hidden, the lab's view shown. */
export function layoutPiece(labs: Labs): Piece {
  let shown = "";
  return (state) => {
    const lab = labOf(labs, state.params.lab);
    const layout = `${lab.id}:${viewOf(state)}`;
    if (layout === shown) return;
    shown = layout;
    eachLab(labs, (ui) => ui.elements.forEach((element) => (element.hidden = ui !== lab)));
    lab.showView(viewOf(state));
  };
}

/** Each lab's report, and whether its times are still to come; the newest sweep, to the lab on screen. `drawn`: a report's charts are drawn. */
export function resultsPiece(labs: Labs, drawn: (report: LabReport) => void): Piece {
  const given = new Map<Lab, { shown: Shown; timing: boolean }>();
  let drawnSweep: SweepShown | null = null;
  return (state) => {
    const timed = pendingStages(state).some((stage) => stage !== "counts");
    for (const [id, shown] of Object.entries(state.shown) as [Lab, Shown][]) {
      const current = id === state.params.lab && reportCurrent(state);
      const timing = current && timed;
      const last = given.get(id);
      if (last?.shown === shown && last.timing === timing) continue;
      // The bench reads this mark: a change of settings → its exact counts on screen.
      if (last?.shown !== shown && shown.report.stage === "counts" && current) performance.mark("buflab:counts-shown");
      given.set(id, { shown, timing });
      void labOf(labs, id)
        .update(shown.report, timing)
        .then(() => drawn(shown.report));
    }
    const sweep: SweepShown | null = state.sweep && { ...state.sweep, current: sweepCurrent(state), compared: sweepsCompared(state) };
    const same =
      sweep?.id === drawnSweep?.id &&
      sweep?.status === drawnSweep?.status &&
      sweep?.report === drawnSweep?.report &&
      sweep?.current === drawnSweep?.current &&
      sweep?.compared?.status === drawnSweep?.compared?.status &&
      sweep?.compared?.result === drawnSweep?.compared?.result;
    if (same) return;
    drawnSweep = sweep;
    labOf(labs, state.params.lab).showSweep(sweep);
  };
}

/** A comparison link's two sweeps, where the link has a sweep: the comparison's status and its `sweeps` (engine/sweep.rs run_pair). */
function sweepsCompared(state: AppState): SweepCompared | null {
  const c = state.compare;
  if (c === null || c.source !== "link" || state.params.sweep === null) return null;
  return { status: c.status, result: c.result?.sweeps ?? null, failure: c.failure };
}

/**
 * The headline above the results, its terms linked to the glossary once
 * that has arrived (then drawn again, from the state of that moment:
 * `current`), and the stale note under it.
 */
export function headlinePiece(labs: Labs, glossary: Panels["glossary"], elements: { headline: HTMLElement; staleLine: HTMLElement }, current: () => AppState): Piece {
  const { headline, staleLine } = elements;
  const piece: Piece = (state) => {
    const text = labOf(labs, state.params.lab).headline(viewOf(state));
    if (glossary.now) glossary.now.fill(headline, text);
    else {
      setText(headline, text);
      if (text !== "") glossary(() => piece(current()));
    }
    const note = staleNote(state);
    setText(staleLine, note ?? "");
    staleLine.hidden = note === null;
  };
  return piece;
}

/** The lessons' card: the lesson open and predict-then-reveal, as the panel needs them. */
export function lessonsPiece(lessons: Panels["lessons"]): Piece {
  return (state) =>
    lessons((l) =>
      l.update({
        lesson: state.params.lesson,
        present: state.params.present,
        predict: state.params.predict,
        asking: predicting(state),
        guess: state.guess,
        results: lessonResults(state),
        answerComing: lessonAnswerComing(state),
        fragment: state.fragment,
        ended: state.ended,
        step: state.view === "timeline" ? state.params.step : null,
      }),
    );
}

/** The room's answers: drawn (and its part loaded) only in presenter mode with predict on and a lesson open. */
export function roomPiece(room: Panels["room"]): Piece {
  let shown = false;
  return (state) => {
    const { present, predict, lesson } = state.params;
    const wanted = present && predict && lesson !== null;
    if (!wanted && !shown) return;
    shown = wanted;
    const r = state.room;
    room((panel) =>
      panel.update({
        shown: wanted,
        lesson,
        asking: predicting(state),
        camera: r.camera,
        cameraNote: r.cameraNote,
        answered: answeredCards(r),
        histogram: histogram(r),
        hands: r.hands,
        results: lessonResults(state),
      }),
    );
  };
}

/** The quiz: drawn (and its part loaded) only when the link asks for it (`quiz=on`). */
export function quizPiece(quiz: Panels["quiz"]): Piece {
  let shown = false;
  return (state) => {
    const wanted = state.params.quiz;
    if (!wanted && !shown) return;
    shown = wanted;
    const q = state.quiz;
    quiz((panel) => panel.update({ shown: wanted, quiz: q.quiz, failed: q.failed, picked: q.picked, at: q.at, score: score(q) }));
  };
}

/**
 * The panels about the settings (the code, the native command, Calibrate)
 * and about the report on screen (export and baselines, each carrying its
 * own link): export and baselines are about one run, the single run's view.
 */
export function panelsPiece(panels: Panels, elements: { shareTools: HTMLElement; baseline: HTMLElement; calibrate: HTMLElement }): Piece {
  let shownReport: ReturnType<typeof reportOf> | undefined;
  return (state) => {
    const { params, fragment } = state;
    const view = viewOf(state);
    panels.embedBar.update(params);
    panels.embedCode.update(params, view);
    const viewParams = view === "sweep" ? params : { ...params, sweep: null };
    panels.code((c) => c.show(viewParams, fragment));
    panels.native((n) => n.show(viewParams, fragment));
    panels.calibrate((c) => c.show(params));
    const report = reportOf(state);
    if (report !== shownReport) {
      shownReport = report;
      panels.exportTools((e) => e.update(report));
      panels.baseline((b) => b.update(report));
    }
    elements.shareTools.hidden = view !== "run";
    elements.baseline.hidden = params.lab !== "read";
    elements.calibrate.hidden = params.lab !== "read";
  };
}

/** The comparison of A and B: the control on the read lab's runs, and the comparison on screen. */
export function comparePiece(compare: Panels["compare"], urlOf: (fragment: string) => string, pairsOf: (link: string) => Map<string, string>): Piece {
  let drawn: AppState["compare"] | undefined;
  let link = "";
  return (state) => {
    if (state.params.lab !== "read") return;
    if (drawn === state.compare && link === state.runFragment) return;
    drawn = state.compare;
    link = state.runFragment;
    const c = state.compare;
    const pairs = pairsOf(state.runFragment);
    compare((ui) =>
      ui.update({
        run: c && { source: c.source, file: c.file, fileA: c.fileA, status: c.status, result: c.result, failure: c.failure, url: urlOf(addressOf(state)) },
        valueOf: (key) => pairs.get(key),
      }),
    );
  };
}

/** Presenter mode's looks; the charts re-read their type size after it changes (`retheme`). */
export function presenterPiece(presenter: Panels["presenter"], retheme: () => void): Piece {
  let shown: boolean | null = null;
  return (state) => {
    presenter.blank(state.blank && state.params.present);
    if (shown === state.params.present) return;
    const first = shown === null;
    shown = state.params.present;
    presenter.show(shown);
    if (!first || shown) retheme();
  };
}

/** The activity line's neighbours: Stop while anything runs, the placeholder's words before any result, the phone's peek. */
export function activityPiece(
  labs: Labs,
  parts: { setRunning(running: boolean): void; peek: { update(state: AppState, summary: (string | Node)[]): void }; placeholder: HTMLElement; results: HTMLElement },
): Piece {
  return (state) => {
    parts.setRunning(isRunning(state));
    parts.placeholder.textContent = state.stopped
      ? "Stopped before any result. Press Measure again, or change a setting."
      : "The first measurement takes about a second; its results appear here.";
    const report = reportOf(state);
    parts.results.classList.toggle("has-report", report !== null);
    parts.peek.update(state, report ? labOf(labs, state.params.lab).peek(report) : []);
  };
}
