// The page: wiring only. The pure model (state.ts) decides everything the
// page does; the store (store.ts) applies its transitions; the effects
// (effects.ts) run what they return with the handles the page holds
// (workers, timers, the address bar); the intents (intents.ts) turn what a
// person does into actions with the links the engine's codec writes; and the
// render pieces (render.ts), the labs (labs.ts) and the panels (panels.ts)
// draw the state, each into its own element.
//
//   UI event ─▶ intents ─▶ dispatch(action) ─▶ update ─▶ { state, effects }
//                              ▲                            │        │
//                              │     render pieces ◀────────┘        │
//                              └── settled / point / timer ◀── effects
//
// Everything about one lab goes through the lab registry, so nothing here
// branches on which lab is shown.

import type { ClientEvent, Engines, RunResult } from "../engine/client";
import type { Codec } from "../engine/codec";
import { messageOf } from "../engine/errors";
import type { Fault } from "../engine/protocol";
import type { Decoded } from "../engine/types.gen";
import { byId } from "../shared/dom";
import { afterPaint } from "../shared/later";
import type { ThemeSwitch } from "../shared/theme";
import { linkUrl } from "../shared/url";
import { createEffects, type Milestones } from "./effects";
import { createIntents } from "./intents";
import { createLabSwitch } from "./lab-switch";
import { createLabs, labOf } from "./labs";
import { readLink } from "./link";
import { listen } from "./listeners";
import { createNotices } from "./notices";
import { createPanels } from "./panels";
import { createPeek } from "./phone-bar";
import { activityPiece, bodyPiece, comparePiece, formsPiece, headlinePiece, layoutPiece, lessonsPiece, panelsPiece, presenterPiece, quizPiece, resultsPiece, roomPiece } from "./render";
import { addressOf, initialState, opening as openingStep, reportOf, type Action } from "./state";
import { createStatus } from "./status";
import { createStore } from "./store";
import { createActions, trackToolbarHeight } from "./toolbar";
import { createViewTabs } from "./view-tabs";

export type { Milestones };

/**
 * How the page opens (main.ts starts it before the page's code has loaded):
 * the link it opens with (and its links), and that experiment's exact
 * counts, already asked of the counting worker so they overlap the page's building.
 */
export interface Opening {
  decoded: Decoded;
  counts: Promise<RunResult>;
}

/** Builds the page, once the opening lab has arrived, and tells `milestones` how far it has come. */
export async function startPage(
  codec: Codec,
  engines: Engines,
  opening: Opening,
  milestones: Milestones,
  listenEngine: (target: (event: ClientEvent) => void) => void,
  theme: ThemeSwitch,
): Promise<{ runWithFault(fault: Fault): void }> {
  const results = byId("results");
  const effects = createEffects({
    codec,
    engines,
    openingCounts: opening.counts,
    milestones,
    dispatch: (action) => store.dispatch(action),
    replay: (held) => intents.replay(held),
    openLesson: (id) => panels.lessons((l) => l.open(id)),
  });
  const store = createStore(initialState(opening.decoded, codec), effects.run);
  const state = () => store.state;
  const dispatch = store.dispatch;
  const labs = createLabs(
    {
      codec,
      params: () => state().params,
      edited: (params, live) => intents.edit(params, live),
      displayed: (params) => intents.display(params),
      link: () => state().fragment,
      sweepEdited: (sweep) => intents.editSweep(sweep),
      sweepRun: () => dispatch({ type: "sweepRun" }),
      sweepCancel: () => dispatch({ type: "sweepCancel" }),
      headlineChanged: () => headline(state()),
      // The export names one PNG per chart on screen.
      chartsChanged: () => panels.exportTools((e) => e.update(reportOf(state()))),
      urlOf: (fragment) => linkUrl(location.href, fragment),
    },
    state().params.lab,
  );
  const forms = formsPiece(
    labs,
    createLabSwitch(byId("lab-switch"), codec, "settings results", (lab) => intents.chooseLab(lab)),
    createViewTabs(byId("view-tabs"), codec, (view) => intents.chooseView(view)),
  );
  const intents = createIntents({ codec, labs, state, dispatch, show: forms.show });
  // Nothing is shown before the opening lab has arrived (the write lab's
  // module, on a write-lab link, loads beside the first counts); if it
  // cannot load, the page says so as for the engine (main.ts).
  await new Promise((arrived, failed) => labs[state().params.lab](arrived, failed));
  const panels = createPanels({ codec, state, dispatch, intents, labOf: (id) => labOf(labs, id), results, lessonChoices: effects.lessonChoices });
  // A lesson's link shows its card from the first render (its arrival would
  // move the results), so it is awaited with the lab; a card that cannot load leaves the page without one.
  if (state().params.lesson !== null) await new Promise<unknown>((arrived) => panels.lessons(arrived, arrived));

  // Writing a link takes the program build, which loads after the first
  // numbers: until then the controls that write links are inert
  // (styles/fields.css shows a wait over a second), and a change a script
  // makes meanwhile is held by the model.
  const writers = [byId("controls"), byId("lab-switch"), byId("view-tabs"), byId("present")];
  for (const element of writers) element.inert = !codec.ready;
  trackToolbarHeight(byId("toolbar"));
  const actions = createActions(byId("actions"), {
    rerun: () => dispatch({ type: "measure" }),
    stop: () => dispatch({ type: "stop" }),
    reset: () => intents.loadLink(codec.decodeLink("")),
    link: () => linkUrl(location.href, addressOf(state())),
    settings: () => {
      byId("settings").scrollIntoView({ block: "start" });
      byId("settings").focus({ preventScroll: true });
    },
  });
  const headlineElement = byId("headline");
  const headline = headlinePiece(labs, panels.glossary, { headline: headlineElement, staleLine: byId("stale-note") }, state);
  /** The charts take the colour scheme's and presenter mode's looks once the switch itself is painted (interaction to next paint). */
  const retheme = (): void => void afterPaint().then(() => Object.values(labs).forEach((lab) => lab((ui) => ui.retheme())));
  const notices = createNotices(byId("notices"), (id) => dispatch({ type: "noticeDismissed", id }));
  const status = createStatus(byId("status"), results);
  // The numbers: the headline and every view's results (a hidden one is never in view).
  const peek = createPeek(actions.peekSlot, results, [headlineElement, byId("read-results"), byId("write-results")]);
  for (const piece of [
    bodyPiece,
    forms.piece,
    notices.update,
    status.update,
    lessonsPiece(panels.lessons),
    roomPiece(panels.room),
    quizPiece(panels.quiz),
    layoutPiece(labs),
    resultsPiece(labs, (report) => dispatch({ type: "drawn", report })),
    headline,
    activityPiece(labs, { setRunning: actions.setRunning, peek, placeholder: byId("placeholder"), results }),
    panelsPiece(panels, { shareTools: byId("share-tools"), baseline: byId("baseline"), calibrate: byId("calibrate") }),
    presenterPiece(panels.presenter, retheme),
    comparePiece(panels.compare, (fragment) => linkUrl(location.href, fragment), codec.experimentPairs),
  ]) {
    store.subscribe(piece);
  }

  performance.mark("buflab:ui");
  // Attached after the pieces: a worker that cannot even start reports at once.
  listenEngine(engineEvents(dispatch));
  listen({
    state,
    dispatch,
    readLink: (hash) => intents.loadLink(readLink(codec, hash)),
    openTerm: (id) => panels.glossary((g) => g.open(id)),
    lessonOrder: (then) => panels.lessons((l) => then(l.order)),
    results,
    theme,
    retheme,
    dropFiles: (files) => intents.compareFiles(files),
  });
  codec.programLoaded.then(
    () => {
      for (const element of writers) element.inert = false;
      dispatch({ type: "codecReady" });
    },
    (error: unknown) =>
      dispatch({
        type: "engineNotice",
        message: `Settings cannot change: the engine's program build did not load (${messageOf(error)}). Reload the page to try again.`,
      }),
  );
  // The opening experiment runs without a click: its exact counts first
  // (milliseconds), then the full measurement, which replaces them; a link
  // that opens the sweep view runs its sweep.
  store.open(openingStep(state()));
  // A lesson's link opened with settings changed from the lesson's own (a
  // handout's "Then try", a link passed on): its question is answered from
  // the lesson's own link (state.ts `lessonLink`), once its card has loaded.
  const lesson = state().params.lesson;
  if (lesson !== null) {
    panels.lessons((l) => {
      const own = l.linkOf(lesson);
      if (own !== null) dispatch({ type: "lessonLink", link: codec.decodeLink(own) });
    });
  }
  return {
    runWithFault: (fault) => {
      effects.injectFault(fault);
      dispatch({ type: "measure" });
    },
  };
}

/** What the engine's clients tell the page, as actions. */
function engineEvents(dispatch: (action: Action) => void): (event: ClientEvent) => void {
  return (event) => {
    switch (event.type) {
      case "ready":
        performance.mark("buflab:engine-ready");
        return dispatch({ type: "engineReady", isolated: event.info.isolated });
      case "respawned":
        return dispatch({ type: "respawned", reason: event.reason });
      case "broken":
        return dispatch({ type: "engineBroken", message: event.message });
      case "building":
        return dispatch({ type: "building", builds: event.builds });
    }
  };
}
