// The page: the edge where the pure model (state.ts) meets the world.
//
//   UI event ─▶ dispatch(action) ─▶ update(state, action) ─▶ { state, effects }
//                    ▲                                          │        │
//                    │            render(state) ◀───────────────┘        │
//                    └── settled / point / timer ◀── run effects ◀───────┘
//
// Every decision about what the page is doing (what to measure, what is
// shown for which settings, the sweep's run, Stop, held edits) is a pure
// transition in state.ts; this file turns UI events into actions (with the
// links the engine's codec writes), runs the effects the transitions return
// (worker requests, the debounce timer, the address bar) and renders the
// state into the pieces, each of which owns its element. The engine's codec
// (schema, link decoding) runs on this thread; measurements run in workers.
// Everything about one lab goes through the lab registry (labs.ts), so
// nothing here branches on which lab is shown.
//
// What the first numbers do not need comes after them (shared/later.ts):
// the lab the link does not open, and the panels around the results (the
// lessons, About, the code, export, baselines, calibrate, the native
// command), each a chunk of its own; what the page hands them before they
// arrive waits for them, in order.

import { countsClient, isDropped, type ClientEvent, type Engines, type RunResult } from "../engine/client";
import type { Codec } from "../engine/codec";
import type { Fault } from "../engine/protocol";
import type { SweepRunner } from "../engine/sweep-runner";
import type { Decoded, Lab, LabReport, Params, Sweep, TermId, View } from "../engine/types.gen";
import { byId, setText } from "../shared/dom";
import { plainTerms } from "../shared/term";
import type { LabUi, SweepShown } from "../shared/lab";
import { afterPaint, atOnce, onFirstUse } from "../shared/later";
import type { ThemeSwitch } from "../shared/theme";
import { createEmbedBar, createEmbedCode } from "../panels/embed";
import { createPresenterToggle } from "../panels/presenter";
import { createLabSwitch } from "./lab-switch";
import { createLabs } from "./labs";
import { fragmentOf, linksOf, linkUrl, openingLinks, readLink, withoutKeys, writeLink } from "./link";
import { createNotices } from "./notices";
import { createPeek } from "./phone-bar";
import {
  initialState,
  isRunning,
  keepWorkshop,
  opening as openingStep,
  pendingStages,
  reportCurrent,
  reportOf,
  staleNote,
  sweepCurrent,
  update,
  viewOf,
  type Action,
  type AppState,
  type Effect,
  type Held,
  type Links,
  type Shown,
} from "./state";
import { createStatus } from "./status";
import { createActions } from "./toolbar";
import { createViewTabs } from "./view-tabs";

/** Quiet time after a slider step before a quick estimate starts. */
const LIVE_DEBOUNCE_MS = 120;

/** Effects that may run before a change's counts and before it is drawn: none of them dispatches. */
const BEFORE_RENDER: ReadonlySet<Effect["type"]> = new Set(["cancelRuns", "cancelDebounce", "cancelSweep", "writeLink"]);

/**
 * How the page opens (main.ts starts it before the page's code has loaded):
 * the link it opens with, and that experiment's exact counts, already asked
 * of the counting worker so they overlap the page's loading and building.
 */
export interface Opening {
  decoded: Decoded;
  counts: Promise<RunResult>;
}

/** When the page has reached its first milestones: what waited for each may load now. */
export interface Milestones {
  /** The first numbers are on screen (or could not come). */
  firstNumbers(): void;
  /** The first full measurement has settled (on screen, failed, or replaced by a newer request). */
  firstFull(): void;
}

/** Builds the page, once the opening lab has arrived, and tells `milestones` how far it has come. */
export async function startPage(
  codec: Codec,
  engines: Engines,
  opening: Opening,
  milestones: Milestones,
  listen: (target: (event: ClientEvent) => void) => void,
  theme: ThemeSwitch,
): Promise<{ runWithFault(fault: Fault): void }> {
  const results = byId("results");
  const settingsSection = byId("settings");

  const displayKeys = codec.schema.display_keys;
  const sweepKeys = codec.schema.sweep_keys;
  let state: AppState = initialState(opening.decoded, openingLinks(opening.decoded, sweepKeys), displayKeys);
  // The first counts went to the worker before the page was built, so the
  // two overlap; the opening's counts request adopts them (runEffect).
  let openingCounts: Promise<RunResult> | null = opening.counts;
  // Without first counts (a failure), nothing waits for them.
  opening.counts.catch(milestones.firstNumbers);

  // The edge's own handles, and what each piece last showed (declared
  // before anything can dispatch: a worker's first event may come at once).
  /** The debounce timer of a quick estimate (an effect's handle, not state: the state says whether one waits). */
  let debounceTimer: ReturnType<typeof setTimeout> | null = null;
  /** A failure injected by the recovery tests: the next timed request carries it. */
  let nextFault: Fault | null = null;
  /** The sweep runner, with the sweep view's module (a page without sweeps never loads it). */
  let sweepRunner: Promise<SweepRunner> | null = null;
  const runner = (): Promise<SweepRunner> => (sweepRunner ??= import("../engine/sweep-runner").then((m) => m.createSweepRunner()));
  /** What each piece last showed, so a render only touches what changed. */
  const rendered = new Map<Lab, { shown: Shown; timing: boolean }>();
  let renderedParams: Params | null = null;
  let renderedSweep: SweepShown | null = null;
  let sharedReport: LabReport | null | undefined;
  let shownPresent: boolean | null = null;
  let shownLayout = "";
  let firstNumbersShown = false;
  let firstFullSettled = false;

  // Writing a link takes the program build, which loads after the first numbers
  // (engine/codec.ts: the counting build only reads links). Until then the
  // controls that write links are inert (styles/fields.css shows a wait over
  // a second), and a change made meanwhile (a script's: a person cannot reach
  // them) is held in the state, the newest winning, and replayed once links
  // can be written.
  const writers = [byId("controls"), byId("lab-switch"), byId("view-tabs"), byId("present")];
  for (const element of writers) element.inert = !codec.ready;
  const holdOr =
    <A extends unknown[]>(held: (...args: A) => Held, change: (...args: A) => void) =>
    (...args: A): void => {
      if (codec.ready) change(...args);
      else dispatch({ type: "held", held: held(...args) });
    };
  const edit = holdOr((params: Params, live: boolean): Held => ({ kind: "edit", params, live }), edited);
  const display = holdOr((params: Params): Held => ({ kind: "display", params }), displayed);
  const editSweep = holdOr((sweep: Sweep | null): Held => ({ kind: "sweep", params: { ...state.params, sweep } }), (sweep: Sweep | null) => sweepEdited({ ...state.params, sweep }));
  const labs = createLabs(
    {
      codec,
      params: () => state.params,
      edited: (params, live) => edit(params, live),
      displayed: (params) => display(params),
      link: () => state.fragment,
      sweepEdited: (sweep) => editSweep(sweep),
      sweepRun: () => dispatch({ type: "sweepRun" }),
      sweepCancel: () => dispatch({ type: "sweepCancel" }),
      headlineChanged: () => showHeadline(),
      // The export names one PNG per chart on screen.
      chartsChanged: () => exportTools((e) => e.update(sharedReport ?? null)),
      urlOf: (fragment) => linkUrl(location.href, fragment),
    },
    state.params.lab,
  );
  const allLabs = Object.values(labs);
  /** The lab the params show (or a report came from): one that has arrived, as the page shows no other (`withLab`). */
  const labOf = (id: Lab): LabUi => {
    const lab = labs[id].now;
    if (!lab) throw new Error(`The ${id} lab is shown before its code has loaded.`);
    return lab;
  };
  // Nothing is shown before the opening lab has arrived (the write lab's
  // module, on a write-lab link, loads beside the first counts); if it
  // cannot load, the page says so as for the engine (main.ts).
  await new Promise((arrived, failed) => labs[state.params.lab](arrived, failed));
  // Lessons load by navigating to their links, so the hashchange handler
  // below is their loader too. The panel comes after the first numbers,
  // unless the link opens a lesson: then its card shows beside them.
  const lessons = (state.params.lesson === null ? onFirstUse : atOnce)(() =>
    import("../panels/lessons").then((m) =>
      m.createLessons({ menu: byId("lessons-menu"), card: byId("lesson-card"), start: byId("lesson-start"), results, codec, dispatch: (action) => dispatch(action) }),
    ),
  );
  // A lesson's link shows its card from the first render (the card's arrival
  // would move the results beside or under it), so it is awaited with the
  // lab, before any piece is built; a card that cannot load leaves the page
  // without one.
  if (state.params.lesson !== null) await new Promise<unknown>((arrived) => lessons(arrived, arrived));
  /** The newest change of lab (`withLab`); one still waiting for its lab's module gives way to a newer one. */
  let labChange = 0;
  /**
   * Runs `change`, which shows `lab`, once that lab's module has arrived: at
   * once for one that has, else when it does, unless another change of lab
   * came meanwhile. A lab that cannot load (offline before the offline
   * copy) is refused like an invalid edit.
   */
  function withLab(lab: Lab, change: () => void): void {
    const mine = ++labChange;
    labs[lab](
      () => {
        if (mine === labChange) change();
      },
      (error) => dispatch({ type: "refused", message: `The ${lab} lab could not be loaded: ${error instanceof Error ? error.message : String(error)}` }),
    );
  }

  const labSwitch = createLabSwitch(byId("lab-switch"), codec, "settings results", (lab) => withLab(lab, () => edit({ ...state.params, lab }, false)));
  const viewTabs = createViewTabs(
    byId("view-tabs"),
    codec,
    holdOr((view: View): Held => ({ kind: "view", view }), viewChosen),
  );
  /** Shows params in every lab's form (each as it arrives) and the switches. */
  const show = (params: Params): void => {
    for (const lab of allLabs) lab((ui) => ui.show(params));
    labSwitch.show(params.lab);
    viewTabs.show(labOf(params.lab).views, params.view);
  };
  const notices = createNotices(byId("notices"), (id) => dispatch({ type: "noticeDismissed", id }));
  const status = createStatus(byId("status"), results);
  const headline = byId("headline");
  const staleLine = byId("stale-note");
  const placeholder = byId("placeholder");
  const shareTools = byId("share-tools");
  const actions = createActions(byId("actions"), {
    rerun: () => dispatch({ type: "measure" }),
    stop: () => dispatch({ type: "stop" }),
    reset: () => loadLink(codec.decodeLink("")),
    link: () => linkUrl(location.href, state.fragment),
    settings: () => {
      settingsSection.scrollIntoView({ block: "start" });
      settingsSection.focus({ preventScroll: true });
    },
  });
  // The numbers: the headline and every view's results (a hidden one is never in view).
  const peek = createPeek(actions.peekSlot, results, [headline, byId("read-results"), byId("write-results")]);
  // Nothing calls the About panel: it simply comes with the other parts.
  onFirstUse(() => import("../panels/about").then((m) => m.createAbout(byId("about"))))(() => undefined);
  // The Glossary (the masthead's button) and the terms the headline links to it.
  const glossary = onFirstUse(() => import("../panels/glossary").then((m) => m.createGlossary(byId("glossary"))));

  // The code panel, export, baselines, the native command, embedding and
  // presenter mode. Each owns its element; render() hands them what is on
  // screen. The embed bar (above an embed's charts) and presenter mode (the
  // type size) shape the first numbers; the others come after them.
  const codePanel = onFirstUse(() => import("../panels/code").then((m) => m.createCodePanel(byId("code"), codec)));
  const nativeNote = onFirstUse(() => import("../panels/native").then((m) => m.createNativeNote(byId("native"))));
  // Calibrate: sys measured on this browser's file system, offered for the link.
  const calibrateElement = byId("calibrate");
  const calibratePanel = onFirstUse(() =>
    Promise.all([import("../panels/calibrate"), import("../engine/calibrate-runner")]).then(([panel, runner]) =>
      panel.createCalibrate(calibrateElement, {
        schema: codec.schema,
        calibrate: runner.createCalibrator(),
        params: () => state.params,
        use: (sys) => edit({ ...state.params, sys, sys_source: "opfs" }, false),
      }),
    ),
  );
  const embedBar = createEmbedBar(
    byId("embed-bar"),
    (params) => (codec.ready ? linkUrl(location.href, codec.encodeLink({ ...params, embed: [] })) : null),
    () => self.crossOriginIsolated,
  );
  const embedCode = createEmbedCode(byId("embed-share"), (params) => linkUrl(location.href, codec.encodeLink(params)));
  const exportTools = onFirstUse(() =>
    import("../panels/export").then((m) =>
      m.createExport(byId("export"), {
        link: (report) => linkUrl(location.href, report.link),
        labelOf: (report) => labOf(report.lab).labelOf,
        charts: () => labOf(state.params.lab).charts(),
      }),
    ),
  );
  const baselineElement = byId("baseline");
  // Baselines write links with the program build, so they wait for it.
  const baseline = onFirstUse(() =>
    Promise.all([import("../panels/baseline"), codec.programLoaded]).then(([m]) =>
      m.createBaseline(baselineElement, {
        labelOf: (id) => labOf("read").labelOf(id),
        urlOf: (fragment) => linkUrl(location.href, fragment),
        displayKeys,
        paramsOf: (link) => codec.decodeLink(link).params,
        compare: codec.verdict,
      }),
    ),
  );
  const presenter = createPresenterToggle(
    byId("present"),
    holdOr((on: boolean): Held => ({ kind: "display", params: { ...state.params, present: on } }), (on: boolean) => displayed({ ...state.params, present: on })),
    // The students' link: the teacher's without presenter mode (predict stays).
    () => linkUrl(location.href, withoutKeys(state.fragment, ["present"])),
  );

  performance.mark("buflab:ui");
  // Attached after the UI pieces: a worker that cannot even start reports
  // through dispatch() at once.
  listen((event) => {
    switch (event.type) {
      case "ready":
        performance.mark("buflab:engine-ready");
        dispatch({ type: "engineReady", isolated: event.info.isolated });
        return;
      case "respawned":
        // With a request running, its rejection carries the same message to the alert.
        if (!isRunning(state)) dispatch({ type: "engineNotice", message: `${event.reason} A fresh engine was started.` });
        return;
      case "broken":
        dispatch({ type: "engineBroken", message: event.message });
        return;
    }
  });

  // ---- the edge: actions in, effects out

  /** Applies one action: the new state is rendered, then its effects run. */
  function dispatch(action: Action): void {
    const { state: next, effects } = update(state, action);
    // A change's exact counts go to their worker before the page draws the
    // change, so the worker counts while this thread renders: the effects up
    // to the counts' run first (in their order), where each of those only
    // cancels or writes the link (none dispatches in turn).
    const counts = effects.findIndex((e) => e.type === "run" && e.stage === "counts");
    const early = counts >= 0 && effects.slice(0, counts).every((e) => BEFORE_RENDER.has(e.type)) ? counts + 1 : 0;
    for (const effect of effects.slice(0, early)) runEffect(effect);
    render(next);
    for (const effect of effects.slice(early)) runEffect(effect);
  }


  function runEffect(effect: Effect): void {
    switch (effect.type) {
      case "run": {
        const { id, stage, fragment, lab, counts } = effect;
        let answer: Promise<RunResult>;
        if (stage === "counts") {
          answer = openingCounts ?? countsClient(engines, codec.countsBuild(lab)).run(fragment, stage);
          openingCounts = null;
        } else {
          const fault = nextFault ?? undefined;
          nextFault = null;
          answer = engines.timer.run(fragment, stage, fault, fault ? undefined : (counts ?? undefined));
        }
        answer.then(
          ({ report, elapsedMs }) => dispatch({ type: "settled", id, outcome: { kind: "report", report, elapsedMs } }),
          (error: unknown) =>
            dispatch({
              type: "settled",
              id,
              outcome: isDropped(error) ? { kind: "dropped" } : { kind: "failed", message: error instanceof Error ? error.message : String(error) },
            }),
        );
        return;
      }
      case "cancelRuns":
        engines.counter.cancel();
        engines.timer.cancel();
        return;
      case "debounce":
        if (debounceTimer !== null) clearTimeout(debounceTimer);
        debounceTimer = setTimeout(() => {
          debounceTimer = null;
          dispatch({ type: "debounced" });
        }, LIVE_DEBOUNCE_MS);
        return;
      case "cancelDebounce":
        if (debounceTimer !== null) clearTimeout(debounceTimer);
        debounceTimer = null;
        return;
      case "writeLink":
        writeLink(history, location, effect.fragment);
        return;
      case "sweep": {
        const { id, params } = effect;
        const started = performance.now();
        const settle = (outcome: Extract<Action, { type: "sweepSettled" }>["outcome"]): void =>
          dispatch({ type: "sweepSettled", id, outcome, elapsedMs: performance.now() - started });
        runner()
          .then((r) => r.run(params, false, (report) => dispatch({ type: "sweepPoint", id, report })))
          .then(
            (report) => settle({ kind: "done", report }),
            (error: unknown) =>
              settle(isDropped(error) ? { kind: "cancelled" } : { kind: "failed", message: error instanceof Error ? error.message : String(error) }),
          );
        return;
      }
      case "cancelSweep":
        void sweepRunner?.then((r) => r.cancel());
        return;
      case "replay":
        replay(effect.held);
        return;
      case "openLesson": {
        const { id } = effect;
        lessons((l) => l.open(id));
        return;
      }
    }
  }

  function replay(held: Held): void {
    switch (held.kind) {
      case "edit":
        return edited(held.params, held.live);
      case "display":
        return displayed(held.params);
      case "sweep":
        return sweepEdited(held.params);
      case "view":
        return viewChosen(held.view);
    }
  }

  // ---- rendering: each piece from the state


  function showHeadline(): void {
    const lab = labOf(state.params.lab);
    const text = lab.headline(viewOf(state));
    // Its terms link to the glossary once that has arrived (after the first numbers).
    if (glossary.now) glossary.now.fill(headline, text);
    else {
      setText(headline, text);
      if (text !== "") glossary(showHeadline);
    }
    const note = staleNote(state);
    setText(staleLine, note ?? "");
    staleLine.hidden = note === null;
  }

  function render(next: AppState): void {
    state = next;
    const { params } = state;
    const lab = labOf(params.lab);
    const view = viewOf(state);
    // An embed shows only its charts (styles/embed.css reads this list), and
    // its words are plain text: set before anything of these params draws.
    if (params.embed.length > 0) {
      document.body.dataset["embed"] = params.embed.join(" ");
      plainTerms(document.body);
    } else delete document.body.dataset["embed"];
    if (params !== renderedParams) {
      renderedParams = params;
      show(params);
    }
    notices.update(state);
    status.update(state);
    actions.setRunning(isRunning(state));
    lessons((l) => l.update(next));
    document.body.dataset["lab"] = lab.id;
    document.body.dataset["view"] = view;
    embedBar.update(params);
    embedCode.update(params, view);
    const layout = `${lab.id}:${view}`;
    if (layout !== shownLayout) {
      shownLayout = layout;
      for (const other of allLabs) other((ui) => ui.elements.forEach((element) => (element.hidden = ui !== lab)));
      lab.showView(view);
    }
    placeholder.textContent = state.stopped
      ? "Stopped before any result. Press Measure again, or change a setting."
      : "The first measurement takes about a second; its results appear here.";
    // Each lab's report, and whether its times are still to come.
    const timedStages = pendingStages(state).filter((stage) => stage !== "counts");
    for (const [id, shown] of Object.entries(state.shown) as [Lab, Shown][]) {
      const timing = id === params.lab && reportCurrent(state) && timedStages.length > 0;
      const last = rendered.get(id);
      if (last?.shown === shown && last.timing === timing) continue;
      if (last?.shown !== shown && shown.report.stage === "counts" && id === params.lab && reportCurrent(state)) {
        // The bench reads this mark: a change of settings → its exact counts on screen.
        performance.mark("buflab:counts-shown");
      }
      rendered.set(id, { shown, timing });
      labOf(id).update(shown.report, timing);
    }
    const sweep: SweepShown | null = state.sweep && { ...state.sweep, current: sweepCurrent(state) };
    if (sweep?.id !== renderedSweep?.id || sweep?.status !== renderedSweep?.status || sweep?.report !== renderedSweep?.report || sweep?.current !== renderedSweep?.current) {
      renderedSweep = sweep;
      lab.showSweep(sweep);
    }
    const onScreen = reportOf(state);
    showHeadline();
    results.classList.toggle("has-report", onScreen !== null);
    peek.update(state, onScreen ? lab.peek(onScreen) : []);
    // The first numbers are in the page (charts, table, headline): the bench and
    // the hosted test read this mark as navigation start → first results.
    if (!firstNumbersShown && Object.keys(state.shown).length > 0) {
      firstNumbersShown = true;
      performance.mark("buflab:first-results");
      milestones.firstNumbers();
    }
    // The bench's other first-load figure: navigation start → the first full measurement on screen.
    if (onScreen?.stage === "full" && reportCurrent(state) && performance.getEntriesByName("buflab:first-full").length === 0) {
      performance.mark("buflab:first-full");
    }
    // What waited for the first full measurement loads once the opening's requests have settled.
    if (!firstFullSettled && firstNumbersShown && !isRunning(state)) {
      firstFullSettled = true;
      milestones.firstFull();
    }
    // The code panel and the native command follow the settings; export and
    // baselines follow the report on screen (each carries its own link).
    const { fragment } = state;
    const viewParams = view === "sweep" ? params : { ...params, sweep: null };
    codePanel((c) => c.show(viewParams, fragment));
    nativeNote((n) => n.show(viewParams, fragment));
    calibratePanel((c) => c.show(params));
    if (onScreen !== sharedReport) {
      sharedReport = onScreen;
      exportTools((e) => e.update(onScreen));
      baseline((b) => b.update(onScreen));
    }
    // Export and baselines are about one run: the single run's view, or a lab with one view.
    shareTools.hidden = view !== "run";
    baselineElement.hidden = lab.id !== "read";
    calibrateElement.hidden = lab.id !== "read";
    if (shownPresent !== params.present) {
      const first = shownPresent === null;
      shownPresent = params.present;
      presenter.show(shownPresent);
      if (!first || shownPresent) retheme();
    }
  }

  /**
   * The charts take the colour scheme's colours and presenter mode's type
   * once the switch itself is painted: redrawing every chart is not what
   * answers the click (interaction to next paint).
   */
  function retheme(): void {
    void afterPaint().then(() => {
      for (const lab of allLabs) lab((ui) => ui.retheme());
    });
  }

  // ---- UI events → actions (with the links the codec writes)

  /** The links of `params`, or null (and the refusal shown) when the engine calls them invalid. */
  function links(params: Params): Links | null {
    try {
      return linksOf(codec, params);
    } catch (error) {
      // The controls keep to the schema's limits, so this means they disagree with the engine.
      dispatch({ type: "refused", message: error instanceof Error ? error.message : String(error) });
      show(state.params);
      return null;
    }
  }

  /** A link was read (a pasted or lesson link, Reset): shown once its lab has arrived, and measured; presenter mode and predict stay on. */
  function loadLink(read: Decoded): void {
    // Keeping presenter mode and predict rewrites the link, which takes the program build.
    if (!codec.ready) {
      void codec.programLoaded.then(() => loadLink(read));
      return;
    }
    const decoded: Decoded = { ...read, params: keepWorkshop(state.params, read.params) };
    withLab(decoded.params.lab, () => dispatch({ type: "linkLoaded", link: decoded, links: linksOf(codec, decoded.params) }));
  }

  /** A display-only setting changed (presenter mode, the view): no new run; the results stay theirs. */
  function displayed(params: Params): void {
    const next = links(params);
    if (next) dispatch({ type: "display", params, links: next });
  }

  /** A view tab was chosen: the lab may bring the view's own starting settings. */
  function viewChosen(view: View): void {
    const { params, note } = labOf(state.params.lab).enter(view, state.params);
    const next = links(params);
    if (!next) return;
    if (next.run !== state.runFragment) {
      edited(params, false);
      // The view brought settings of its own: said in a notice, never silently.
      if (note !== null) dispatch({ type: "settingsNote", message: note });
    } else dispatch({ type: "display", params, links: next });
  }

  /** How the engine fitted a setting (a sweep's range), in the words its notices give. */
  const fittedNotes = (fitted: { notices: { key: string; message: string }[] }): string[] =>
    fitted.notices.map((n) => `${n.key}: ${n.message}.`);

  /** A sweep fitted to the rest of `params` (e.g. fewer streams fit a longer stream), its notes shown beside the sweep. */
  function fitSweep(params: Params): Params {
    if (!params.sweep) return params;
    const fitted = codec.fitSweep(params);
    labOf(params.lab).fitted(fittedNotes(fitted));
    return fitted.params;
  }

  /** A new sweep axis or range: linked, and swept when the sweep view shows. */
  function sweepEdited(params: Params): void {
    try {
      params = fitSweep(params);
    } catch (error) {
      dispatch({ type: "refused", message: error instanceof Error ? error.message : String(error) });
      show(state.params);
      return;
    }
    const next = links(params);
    if (next) dispatch({ type: "sweepEdited", params, links: next });
  }

  function edited(params: Params, live: boolean): void {
    try {
      params = fitSweep(params);
    } catch {
      // The rest is invalid: linksOf below says why.
    }
    const next = links(params);
    if (!next) return;
    if (next.run !== state.runFragment) performance.mark("buflab:edited");
    dispatch({ type: "edited", params, links: next, live });
  }

  // A term (a dotted word: `button.term[data-term]`, wherever it sits) opens its glossary entry.
  document.addEventListener("click", (event) => {
    const term = event.target instanceof Element ? event.target.closest<HTMLElement>("[data-term]") : null;
    const id = term?.dataset["term"];
    if (!id) return;
    event.preventDefault();
    glossary((g) => g.open(id as TermId));
  });

  // The skip link moves focus without touching the fragment (the fragment is the experiment).
  document.querySelector("a.skip")?.addEventListener("click", (event) => {
    event.preventDefault();
    results.scrollIntoView({ block: "start" });
    results.focus({ preventScroll: true });
  });

  // A link pasted into this tab's address bar, or a lesson opened (which
  // sets the hash). A fragment naming an element on the page is in-page
  // navigation, not an experiment. The event's own URL, not the address
  // bar's: a link written between the navigation and this event (the full
  // build arriving writes the canonical link) must not stand for it.
  window.addEventListener("hashchange", (event) => {
    const hash = new URL(event.newURL).hash;
    if (document.getElementById(fragmentOf(hash))) return;
    loadLink(readLink(codec, hash));
  });
  // A presentation clicker (or the keyboard) in presenter mode: → and
  // PageDown reveal the answer, then go to the next lesson; ← and PageUp go
  // back. Never while typing in a field or with a modifier held.
  document.addEventListener("keydown", (event) => {
    if (!state.params.present || state.params.lesson === null) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
    const target = event.target instanceof HTMLElement ? event.target : null;
    if (target?.closest("input, textarea, select, [contenteditable=''], [contenteditable='true'], [role='slider']")) return;
    const forward = event.key === "ArrowRight" || event.key === "PageDown";
    const back = event.key === "ArrowLeft" || event.key === "PageUp";
    if (!forward && !back) return;
    event.preventDefault();
    lessons((l) => dispatch({ type: forward ? "forward" : "back", order: l.order }));
  });
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", retheme);
  theme.onChange(retheme);

  render(state);
  codec.programLoaded.then(
    () => {
      for (const element of writers) element.inert = false;
      // The links in their canonical form, and any edit held meanwhile.
      displayed(state.params);
      dispatch({ type: "codecReady" });
    },
    (error: unknown) =>
      dispatch({
        type: "engineNotice",
        message: `Settings cannot change: the engine's program build did not load (${error instanceof Error ? error.message : String(error)}). Reload the page to try again.`,
      }),
  );
  // The opening experiment runs without a click: its exact counts first
  // (milliseconds), then the full measurement, which replaces them; a link
  // that opens the sweep view runs its sweep.
  const opened = openingStep(state);
  render(opened.state);
  for (const effect of opened.effects) runEffect(effect);
  return {
    runWithFault: (fault) => {
      nextFault = fault;
      dispatch({ type: "measure" });
    },
  };
}
