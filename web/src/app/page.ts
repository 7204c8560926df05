// The page: link → state → labs and panels, and edits → link → workers →
// results.
//
// State changes only through the pure transitions in state.ts; `commit`
// stores the new state and lets each piece show it. The engine's codec
// (schema, link decoding) runs on this thread; measurements run in two
// workers: every change of settings asks the counting worker for the exact
// counts at once (a run with no timing), and the timing worker for a quick
// estimate while a control moves, then the full measurement. Everything
// about one lab goes through the lab registry (labs.ts), so nothing here
// branches on which lab is shown.
//
// What the first numbers do not need comes after them (shared/later.ts):
// the lab the link does not open, and the panels around the results (the
// lessons, About, the code, export, baselines, calibrate, the native
// command), each a chunk of its own; what the page hands them before they
// arrive waits for them, in order.

import { countsClient, isDropped, type ClientEvent, type Engines, type RunResult } from "../engine/client";
import type { Codec } from "../engine/codec";
import type { Fault } from "../engine/protocol";
import type { Decoded, Lab, LabReport, Params, Stage, Sweep, View } from "../engine/types.gen";
import { byId, setText } from "../shared/dom";
import type { LabUi } from "../shared/lab";
import { atOnce, onFirstUse } from "../shared/later";
import type { ThemeSwitch } from "../shared/theme";
import { createEmbedBar, createEmbedCode } from "../panels/embed";
import { createPresenterToggle } from "../panels/presenter";
import { createLabSwitch } from "./lab-switch";
import { createLabs } from "./labs";
import { fragmentOf, linkUrl, readLink, writeLink } from "./link";
import { createNotices } from "./notices";
import { createPeek } from "./phone-bar";
import {
  displayChanged,
  editRefused,
  engineBroken,
  engineNotice,
  engineReady,
  initialState,
  isRunning,
  isStale,
  linkLoaded,
  noticeDismissed,
  paramsEdited,
  runDropped,
  runFailed,
  runRequested,
  runSucceeded,
  stopRequested,
  type AppState,
} from "./state";
import { createStatus } from "./status";
import { createActions } from "./toolbar";
import { createViewTabs } from "./view-tabs";

/** Quiet time after a slider step before a quick estimate starts. */
const LIVE_DEBOUNCE_MS = 120;

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

  let state: AppState = initialState(opening.decoded);
  writeLink(history, location, state.fragment);
  // The first counts went to the worker before the page was built, so the
  // two overlap; their answer is shown once the page exists (see the end).
  const firstCounts = opening.counts;
  // Without first counts (a failure), nothing waits for them.
  firstCounts.catch(milestones.firstNumbers);
  /** A run waiting for the controls to be still. */
  let debounce: ReturnType<typeof setTimeout> | null = null;

  // Writing a link takes the full build, which loads after the first numbers
  // (engine/codec.ts: the counting build only reads links). Until then the
  // controls that write links are inert (styles/fields.css shows a wait over
  // a second), and a change made meanwhile (a script's: a person cannot reach
  // them) waits for it, the newest winning.
  const writers = [byId("controls"), byId("lab-switch"), byId("view-tabs"), byId("present")];
  for (const element of writers) element.inert = !codec.ready;
  let heldChange: (() => void) | null = null;
  const writesLinks =
    <A extends unknown[]>(change: (...args: A) => void) =>
    (...args: A): void => {
      if (codec.ready) change(...args);
      else heldChange = () => change(...args);
    };
  const edit = writesLinks(edited);
  const editSweep = writesLinks(sweepEdited);
  const labs = createLabs(
    {
      codec,
      params: () => state.params,
      edited: (params, live) => edit(params, live),
      sweepEdited: (sweep) => editSweep(sweep),
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
  /** The newest change of lab (`withLab`); one still waiting for its lab gives way to a newer one. */
  let labChange = 0;
  /**
   * Runs `change`, which shows `lab`, once that lab has arrived: at once for
   * one that has, else (a lab chosen before its module has loaded) when it
   * does, unless another change of lab came meanwhile. A lab that cannot
   * load (offline before the offline copy) is refused like an invalid edit.
   */
  function withLab(lab: Lab, change: () => void): void {
    const mine = ++labChange;
    labs[lab](
      () => {
        if (mine === labChange) change();
      },
      (error) => commit(editRefused(state, `The ${lab} lab could not be loaded: ${error instanceof Error ? error.message : String(error)}`)),
    );
  }

  const labSwitch = createLabSwitch(byId("lab-switch"), codec, "settings results", (lab) => withLab(lab, () => edit({ ...state.params, lab }, false)));
  const viewTabs = createViewTabs(byId("view-tabs"), codec, writesLinks(viewChosen));
  /** Shows params in every lab's form (each as it arrives) and the switches. */
  const show = (params: Params): void => {
    for (const lab of allLabs) lab((ui) => ui.show(params));
    labSwitch.show(params.lab);
    viewTabs.show(labOf(params.lab).views, params.view);
  };
  const notices = createNotices(byId("notices"), (id) => commit(noticeDismissed(state, id)));
  const status = createStatus(byId("status"), results);
  const headline = byId("headline");
  const placeholder = byId("placeholder");
  const shareTools = byId("share-tools");
  const actions = createActions(byId("actions"), {
    rerun: () => {
      cancelDebounce();
      void request("full");
    },
    stop: () => {
      cancelDebounce();
      commit(stopRequested(state));
      engines.counter.cancel();
      engines.timer.cancel();
    },
    reset: () => {
      const decoded = codec.decodeLink("");
      heldChange = null;
      withLab(decoded.params.lab, () => {
        commit(linkLoaded(state, decoded));
        writeLink(history, location, state.fragment);
        show(state.params);
        measure("full");
      });
    },
    link: () => linkUrl(location.href, state.fragment),
    settings: () => {
      settingsSection.scrollIntoView({ block: "start" });
      settingsSection.focus({ preventScroll: true });
    },
  });
  const peek = createPeek(actions.peekSlot, results);
  // Lessons load by navigating to their links, so the hashchange handler
  // below is their loader too. The panel comes after the first numbers,
  // unless the link opens a lesson: then its card shows beside them.
  const lessons = (state.params.lesson === null ? onFirstUse : atOnce)(() =>
    import("../panels/lessons").then((m) =>
      m.createLessons({ menu: byId("lessons-menu"), card: byId("lesson-card"), start: byId("lesson-start"), results, codec }),
    ),
  );
  // Nothing calls the About panel: it simply comes with the other parts.
  onFirstUse(() => import("../panels/about").then((m) => m.createAbout(byId("about"))))(() => undefined);

  // The code panel, export, baselines, the native command, embedding and
  // presenter mode. Each owns its element; commit() hands them what is on
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
  // Baselines compare times with the full build (`verdict`), so they wait for it.
  const baseline = onFirstUse(() =>
    Promise.all([import("../panels/baseline"), codec.programLoaded]).then(([m]) =>
      m.createBaseline(baselineElement, {
        labelOf: (id) => labOf("read").labelOf(id),
        urlOf: (fragment) => linkUrl(location.href, fragment),
        displayKeys: codec.schema.display_keys,
        compare: codec.verdict,
      }),
    ),
  );
  const presenter = createPresenterToggle(
    byId("present"),
    writesLinks((on: boolean) => displayToggled({ ...state.params, present: on })),
  );

  /** The report each lab last showed, and what the shared pieces last showed. */
  const lastReports = new Map<string, LabReport>();
  let shownReport: AppState["report"] = null;
  let sharedReport: LabReport | null | undefined;
  let shownPresent: boolean | null = null;
  let shownLayout = "";

  performance.mark("buflab:ui");
  // Attached after the UI pieces: a worker that cannot even start reports
  // through commit() at once.
  listen((event) => {
    switch (event.type) {
      case "ready":
        performance.mark("buflab:engine-ready");
        commit(engineReady(state, event.info.isolated));
        return;
      case "respawned":
        // With a request running, its rejection carries the same message to the alert.
        if (!isRunning(state)) commit(engineNotice(state, `${event.reason} A fresh engine was started.`));
        return;
      case "broken":
        commit(engineBroken(state, event.message));
        return;
    }
  });

  function showHeadline(): void {
    const lab = labOf(state.params.lab);
    setText(headline, lab.headline(lab.views.length > 0 ? state.params.view : "run"));
  }

  function commit(next: AppState): void {
    state = next;
    const { params } = state;
    const lab = labOf(params.lab);
    const view: View = lab.views.length > 0 ? params.view : "run";
    notices.update(state);
    status.update(state);
    actions.setRunning(isRunning(state));
    lessons((l) => l.update(next));
    document.body.dataset["lab"] = lab.id;
    document.body.dataset["view"] = view;
    // An embed shows only its charts (styles/embed.css reads this list).
    if (params.embed.length > 0) document.body.dataset["embed"] = params.embed.join(" ");
    else delete document.body.dataset["embed"];
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
    const firstReport = shownReport === null && state.report !== null;
    if (state.report !== shownReport && state.report) {
      shownReport = state.report;
      // The bench reads these marks: a change of settings → its exact counts on screen.
      if (state.report.stage === "counts" && state.reportFragment === state.fragment) performance.mark("buflab:counts-shown");
      lastReports.set(state.report.lab, state.report);
      labOf(state.report.lab).update(state.report);
    }
    const onScreen = lastReports.get(lab.id) ?? null;
    showHeadline();
    results.classList.toggle("has-report", onScreen !== null);
    peek.update(state, onScreen ? lab.peek(onScreen) : []);
    // The first numbers are in the page (charts, table, headline): the bench and
    // the hosted test read this mark as navigation start → first results.
    if (firstReport) {
      performance.mark("buflab:first-results");
      milestones.firstNumbers();
    }
    // The bench's other first-load figure: navigation start → the first full measurement on screen.
    if (state.report?.stage === "full" && state.reportFragment === state.fragment && performance.getEntriesByName("buflab:first-full").length === 0) {
      performance.mark("buflab:first-full");
    }
    // The code panel, export and baselines follow the report on screen.
    const { fragment } = state;
    codePanel((c) => c.show(params, fragment));
    nativeNote((n) => n.show(params, fragment));
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

  function retheme(): void {
    for (const lab of allLabs) lab((ui) => ui.retheme());
  }

  /**
   * A display-only setting changed (presenter mode, the view): no new run,
   * and the report on screen stays current.
   */
  function displayToggled(params: Params): void {
    if (isRunning(state)) {
      edited(params, false);
      return;
    }
    commit(displayChanged(state, params, codec.encodeLink(params)));
    writeLink(history, location, state.fragment);
    show(state.params);
  }

  /** A view tab was chosen: the lab may bring the view's own starting settings. */
  function viewChosen(view: View): void {
    const lab = labOf(state.params.lab);
    const params = lab.enter(view, state.params);
    const changes = codec.encodeLink({ ...params, view: state.params.view }) !== state.fragment;
    if (changes) edited(params, false);
    else displayToggled(params);
    lab.entered(view, state.params);
  }

  function cancelDebounce(): void {
    if (debounce !== null) clearTimeout(debounce);
    debounce = null;
  }

  /** The latest counts asked for, and of which settings: the timing stages time them. */
  let counting: { fragment: string; answer: Promise<RunResult> } | null = null;

  /**
   * Times `fragment` once its counts have come: the timing worker then runs
   * the timed pass alone (the engine's `time_counted`), not the counted pass
   * again. Counts a newer request replaced drop this too; counts that failed
   * leave the timing worker to count for itself (and fail the same way).
   */
  function timeCounted(fragment: string, stage: Stage, fault?: Fault): Promise<RunResult> {
    const known = counting?.fragment === fragment ? counting.answer : null;
    if (known === null || fault !== undefined) return engines.timer.run(fragment, stage, fault);
    return known.then(
      ({ report }) => engines.timer.run(fragment, stage, undefined, report),
      (error: unknown) => (isDropped(error) ? Promise.reject(error) : engines.timer.run(fragment, stage)),
    );
  }

  /**
   * Asks for the current settings at `stage`: counts from the counting
   * worker, the timing stages from the timing worker. `sent`: a request
   * already handed to a worker for these settings (the first counts).
   * Resolves once the request has settled, whichever way.
   */
  function request(stage: Stage, fault?: Fault, sent?: Promise<RunResult>): Promise<void> {
    const { fragment } = state;
    const id = state.nextRequestId;
    commit(runRequested(state, stage));
    let answer: Promise<RunResult>;
    if (stage === "counts") {
      answer = sent ?? countsClient(engines, codec.countsBuild(state.params.lab)).run(fragment, stage, fault);
      counting = { fragment, answer };
    } else {
      answer = sent ?? timeCounted(fragment, stage, fault);
    }
    // The page compares times with the full build on this thread (`verdict`):
    // a timed answer waits for it (the timing worker ran the same build, so
    // it has all but arrived).
    return (stage === "counts" ? answer : answer.then((result) => codec.programLoaded.then(() => result))).then(
      ({ report, elapsedMs }) => commit(runSucceeded(state, id, report, fragment, elapsedMs)),
      (error: unknown) => {
        if (isDropped(error)) commit(runDropped(state, id));
        else commit(runFailed(state, id, error instanceof Error ? error.message : String(error), fragment));
      },
    );
  }

  /**
   * The settings changed: their exact counts at once, then their timing.
   * `live`: a control is still moving, so a quick estimate once it rests a
   * moment; `full`: the full measurement. A quick estimate is never put
   * before a full measurement: on the default experiment it delayed the full
   * measurement by a quarter of a second (more on longer streams; each run
   * then repeated the counted pass, which the timing stages now take from
   * the counts, `timeCounted`), to show a rough time that much sooner than
   * the exact counts already on screen.
   */
  function measure(timing: "live" | "full"): void {
    cancelDebounce();
    void request("counts");
    if (timing === "live") {
      debounce = setTimeout(() => {
        debounce = null;
        void request("quick");
      }, LIVE_DEBOUNCE_MS);
      return;
    }
    void request("full");
  }

  /** How the engine fitted a setting (a sweep's range), in the words its notices give. */
  const fittedNotes = (fitted: { notices: { key: string; message: string }[] }): string[] =>
    fitted.notices.map((n) => `${n.key}: ${n.message}.`);

  /**
   * A new sweep range or axis: stored and linked like any setting, without
   * re-measuring the experiment (a sweep changes what Run sweep does, not
   * the measured results, so they do not go stale).
   */
  function sweepEdited(sweep: Sweep | null): void {
    let params: Params = { ...state.params, sweep };
    try {
      const fitted = codec.fitSweep(params);
      params = fitted.params;
      labOf(params.lab).fitted(fittedNotes(fitted));
    } catch (error) {
      commit(editRefused(state, error instanceof Error ? error.message : String(error)));
      show(state.params);
      return;
    }
    const fresh = state.report !== null && !isStale(state);
    const fragment = codec.encodeLink(params);
    const next = paramsEdited(state, params, fragment);
    commit(fresh ? { ...next, reportFragment: fragment } : next);
    writeLink(history, location, state.fragment);
    show(state.params);
  }

  function edited(params: Params, live: boolean): void {
    // A sweep is fitted to the new settings (e.g. fewer streams fit a longer stream).
    if (params.sweep) {
      try {
        const fitted = codec.fitSweep(params);
        params = fitted.params;
        labOf(params.lab).fitted(fittedNotes(fitted));
      } catch {
        // The rest is invalid: encodeLink below says why.
      }
    }
    let fragment: string;
    try {
      fragment = codec.encodeLink(params);
    } catch (error) {
      // The controls keep to the schema's limits, so this means they disagree with the engine.
      commit(editRefused(state, error instanceof Error ? error.message : String(error)));
      show(state.params);
      return;
    }
    const unchanged = fragment === state.fragment;
    if (!unchanged) performance.mark("buflab:edited");
    commit(paramsEdited(state, params, fragment));
    writeLink(history, location, state.fragment);
    show(state.params);
    // A control set back to the value already measured in full needs no new run.
    const measured = state.report !== null && state.report.stage === "full" && state.reportFragment === fragment;
    if (unchanged && !live && measured && !isRunning(state) && debounce === null) return;
    measure(live ? "live" : "full");
  }

  // The skip link moves focus without touching the fragment (the fragment is the experiment).
  document.querySelector("a.skip")?.addEventListener("click", (event) => {
    event.preventDefault();
    results.scrollIntoView({ block: "start" });
    results.focus({ preventScroll: true });
  });

  // A link pasted into this tab's address bar. A fragment naming an element
  // on the page is in-page navigation, not an experiment.
  window.addEventListener("hashchange", () => {
    if (document.getElementById(fragmentOf(location.hash))) return;
    const decoded = readLink(codec, location.hash);
    heldChange = null;
    withLab(decoded.params.lab, () => {
      commit(linkLoaded(state, decoded));
      writeLink(history, location, state.fragment);
      show(state.params);
      measure("full");
      labOf(state.params.lab).entered(state.params.view, state.params);
    });
  });
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", retheme);
  theme.onChange(retheme);

  show(state.params);
  commit(state);
  codec.programLoaded.then(
    () => {
      for (const element of writers) element.inert = false;
      // The embed bar's link and the code panel can be written now.
      commit(state);
      const change = heldChange;
      heldChange = null;
      change?.();
    },
    (error: unknown) =>
      commit(engineNotice(state, `Settings cannot change: the engine's full build did not load (${error instanceof Error ? error.message : String(error)}). Reload the page to try again.`)),
  );
  // The default experiment runs without a click: its exact counts first
  // (milliseconds), then the full measurement, which replaces them.
  void request("counts", undefined, firstCounts);
  void request("full").then(milestones.firstFull);
  // A link that opens the sweep view runs its sweep.
  labOf(state.params.lab).entered(state.params.view, state.params);
  return { runWithFault: (fault) => void request("full", fault) };
}
