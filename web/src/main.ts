// Wires the page: link → state → controls, and edits → link → worker → results.
//
// State changes only through the pure transitions in state.ts; `commit`
// stores the new state and lets each UI piece show it. The engine's codec
// (schema, link decoding) runs on this thread; measurements run in the worker.

import { isDropped, createEngineClient, type ClientEvent, type EngineClient, type RunResult } from "./engine/client";
import { loadCodec, type Codec } from "./engine/codec";
import type { Fault } from "./engine/protocol";
import { isWriteReport } from "./engine/report";
import type { Lab, Params, Report, Sweep, WriteReport } from "./engine/types.gen";
import { fragmentOf, linkUrl, readLink, writeLink } from "./link";
import {
  editRefused,
  engineBroken,
  engineNotice,
  engineReady,
  initialState,
  isRunning,
  linkLoaded,
  noticeDismissed,
  paramsEdited,
  runDropped,
  runFailed,
  runRequested,
  runSucceeded,
  stopRequested,
  displayChanged,
  type AppState,
} from "./state";
import { createActions } from "./ui/actions";
import { createCharts } from "./ui/charts";
import { createControls } from "./ui/controls";
import { byId, h, replaceChildren } from "./ui/dom";
import { createNotices } from "./ui/notices";
import { createPeek } from "./ui/peek";
import { createStatus } from "./ui/status";
import { showSummary } from "./ui/summary";
import { createTable } from "./ui/table";
import { createTimeline } from "./ui/timeline";
import { createThemeSwitch } from "./ui/theme";
import { registerServiceWorker, type Isolation } from "./offline/register";
import { createLabSwitch } from "./ui/lab-switch";
import { createWriteControls } from "./ui/write-controls";
import { createWriteResults, summarizeWrite } from "./ui/write-results";
import { createLessons } from "./ui/lessons";
import { createBaseline } from "./ui/baseline";
import { createCodePanel } from "./ui/code";
import { createExport } from "./ui/export";
import { createPresenterToggle } from "./ui/presenter";
import { createSweepRunner } from "./engine/sweep-runner";
import { createSweep } from "./ui/sweep";
import { isStale } from "./state";

/** Quiet time after a slider step before a quick estimate starts. */
const LIVE_DEBOUNCE_MS = 120;

/**
 * Engine events that arrive before the page is built wait here: the worker is
 * started first (it loads its wasm while this thread loads the codec's and
 * builds the page), so its `ready` can come before anyone listens.
 */
class EventRelay {
  private target: ((event: ClientEvent) => void) | null = null;
  private readonly early: ClientEvent[] = [];
  readonly send = (event: ClientEvent): void => {
    if (this.target) this.target(event);
    else this.early.push(event);
  };
  attach(target: (event: ClientEvent) => void): void {
    this.target = target;
    for (const event of this.early.splice(0)) target(event);
  }
}

function start(codec: Codec, client: EngineClient, relay: EventRelay): void {
  const form = byId<HTMLFormElement>("controls");
  const results = byId("results");
  const labels = new Map<string, string>(codec.schema.readers.map((r) => [r.id, r.label]));
  const labelOf = (id: string): string => labels.get(id) ?? id;

  let state: AppState = initialState(readLink(codec, location.hash));
  writeLink(history, location, state.fragment);
  // The first quick estimate goes to the worker before the page is built, so
  // the two overlap; its answer is shown once the page exists (see the end).
  const firstQuick = client.run(state.params, true);
  /** The report the charts and table show. */
  let shownReport: AppState["report"] = null;
  /** A run waiting for the controls to be still. */
  let debounce: ReturnType<typeof setTimeout> | null = null;

  const controls = createControls({ form, codec, onChange: edited });
  // The write lab: its own form and results, and the switch between labs.
  const writeForm = byId<HTMLFormElement>("write-controls");
  const writeResultsElement = byId("write-results");
  const writeControls = createWriteControls({ form: writeForm, codec, onChange: edited });
  const writeResults = createWriteResults(writeResultsElement, codec);
  const flavourLabels = new Map<string, string>(codec.schema.flavours.map((f) => [f.id, f.label]));
  const flavourLabelOf = (id: string): string => flavourLabels.get(id) ?? id;
  const labSwitch = createLabSwitch(byId("lab-switch"), codec, "controls write-controls results", (lab) =>
    edited({ ...state.params, lab }, false),
  );
  /** The newest report of each lab: switching labs shows that lab's last results. */
  let lastRead: Report | null = null;
  let lastWrite: WriteReport | null = null;
  let shownLab: Lab | null = null;
  // The sweep panel: its settings live in the link (sweep, from, to) and it
  // runs in a worker of its own.
  const sweepSection = byId("sweep");
  const sweepPanel = createSweep(sweepSection, {
    codec,
    labelOf,
    runner: createSweepRunner(),
    onChange: (sweep) => sweepEdited(sweep),
    params: () => state.params,
  });
  /** Shows params in both forms and the switch. */
  const show = (params: Params): void => {
    sweepPanel.show(params);
    controls.show(params);
    writeControls.show(params);
    labSwitch.show(params.lab);
  };
  const notices = createNotices(byId("notices"), (id) => commit(noticeDismissed(state, id)));
  const status = createStatus(byId("status"), results);
  const summary = byId("summary");
  const placeholder = byId("placeholder");
  const readCharts = byId("charts");
  const readTable = byId("table");
  const charts = createCharts(readCharts);
  const table = createTable(readTable, codec);
  const timelineWrap = byId("timeline-wrap");
  const timeline = createTimeline(byId("timeline"), labelOf);
  const peek = createPeek(results);
  // Lessons load by navigating to their links, so the hashchange handler below is their loader too.
  const lessons = createLessons({ list: byId("lesson-list"), note: byId("lesson-note"), results, codec });
  const actions = createActions(byId("actions"), {
    rerun: () => runNow(false),
    stop: () => {
      if (debounce !== null) clearTimeout(debounce);
      debounce = null;
      commit(stopRequested(state));
      client.cancel();
    },
    reset: () => {
      const link = codec.decodeLink("");
      commit(linkLoaded(state, link));
      writeLink(history, location, state.fragment);
      show(state.params);
      runNow(false);
    },
    link: () => linkUrl(location.href, state.fragment),
  });

  // The code panel, export, baselines and presenter mode. Each owns its
  // element; commit() hands them the params and the report on screen.
  const codePanel = createCodePanel(byId("code"), codec);
  const exportTools = createExport(byId("export"), {
    link: (report) => linkUrl(location.href, report.link),
    labelOf: (report) => (isWriteReport(report) ? flavourLabelOf : labelOf),
    charts: () =>
      [...document.querySelectorAll<HTMLElement>(state.params.lab === "write" ? "#write-results figure.chart" : "#charts figure.chart")].flatMap(
        (figure) => {
          const canvas = figure.querySelector("canvas");
          return canvas ? [{ title: figure.querySelector("figcaption")?.textContent ?? "chart", canvas }] : [];
        },
      ),
  });
  const baselineElement = byId("baseline");
  const baseline = createBaseline(baselineElement, {
    labelOf,
    urlOf: (fragment) => linkUrl(location.href, fragment),
    displayKeys: codec.schema.display_keys,
  });
  const presenter = createPresenterToggle(byId("present"), (on) => presentToggled(on));
  /** What the share tools last showed: the report of the lab on screen, and presenter mode. */
  let sharedReport: Report | WriteReport | null | undefined;
  let shownPresent: boolean | null = null;

  performance.mark("buflab:ui");
  // Attached after the UI pieces: a worker that cannot even start reports
  // through commit() at once.
  relay.attach((event) => {
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

  function commit(next: AppState): void {
    state = next;
    notices.update(state);
    status.update(state);
    actions.setRunning(isRunning(state));
    peek.update(state, labelOf, flavourLabelOf);
    lessons.update(state);
    const lab = state.params.lab;
    document.body.dataset["lab"] = lab;
    form.hidden = lab !== "read";
    writeForm.hidden = lab !== "write";
    readCharts.hidden = lab !== "read";
    readTable.hidden = lab !== "read";
    timelineWrap.hidden = lab !== "read";
    writeResultsElement.hidden = lab !== "write";
    sweepSection.hidden = lab !== "read";
    placeholder.textContent = state.stopped
      ? "Stopped before any result. Press Measure again, or change a setting."
      : "The first measurement takes about a second; its results appear here.";
    const firstReport = shownReport === null && state.report !== null;
    if (state.report !== shownReport && state.report) {
      shownReport = state.report;
      if (isWriteReport(state.report)) {
        lastWrite = state.report;
        writeResults.update(state.report);
      } else {
        lastRead = state.report;
        charts.update(state.report, labelOf);
        table.update(state.report, labelOf);
        timeline.update(state.report);
      }
      shownLab = null;
    }
    if (shownLab !== lab) {
      // The summary line belongs to whichever lab is shown.
      shownLab = lab;
      if (lab === "write") summary.textContent = lastWrite ? summarizeWrite(lastWrite, flavourLabelOf) : "";
      else showSummary(summary, lastRead, labelOf);
    }
    results.classList.toggle("has-report", (lab === "write" ? lastWrite : lastRead) !== null);
    // The first numbers are in the page (charts, table, summary): the bench and
    // the hosted test read this mark as navigation start → first results.
    if (firstReport) performance.mark("buflab:first-results");
    // The code panel, export and baselines follow the report on screen.
    codePanel.show(state.params, state.fragment);
    const onScreen = lab === "write" ? lastWrite : lastRead;
    if (onScreen !== sharedReport) {
      sharedReport = onScreen;
      exportTools.update(onScreen);
      baseline.update(onScreen);
    }
    baselineElement.hidden = lab !== "read";
    if (shownPresent !== state.params.present) {
      const first = shownPresent === null;
      shownPresent = state.params.present;
      presenter.show(shownPresent);
      if (!first || shownPresent) {
        charts.retheme();
        writeResults.retheme();
      }
    }
  }

  /** Presenter mode changes no result: no new run, and the report on screen stays current. */
  function presentToggled(on: boolean): void {
    const params = { ...state.params, present: on };
    if (isRunning(state)) {
      edited(params, false);
      return;
    }
    commit(displayChanged(state, params, codec.encodeLink(params)));
    writeLink(history, location, state.fragment);
    show(state.params);
  }

  function runSoon(quick: boolean): void {
    if (debounce !== null) clearTimeout(debounce);
    debounce = setTimeout(() => {
      debounce = null;
      runNow(quick);
    }, LIVE_DEBOUNCE_MS);
  }

  /** `sent`: a request already handed to the client for these params (the first quick estimate). */
  function runNow(quick: boolean, fault?: Fault, sent?: Promise<RunResult>): void {
    if (debounce !== null) clearTimeout(debounce);
    debounce = null;
    const { params, fragment } = state;
    commit(runRequested(state, quick));
    (sent ?? client.run(params, quick, fault)).then(
      ({ report, elapsedMs }) => commit(runSucceeded(state, report, fragment, elapsedMs)),
      (error: unknown) => {
        if (isDropped(error)) commit(runDropped(state));
        else commit(runFailed(state, error instanceof Error ? error.message : String(error), fragment));
      },
    );
  }

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
      sweepPanel.note(fitted.notices.map((n) => `${n.key}: ${n.message}.`));
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
        sweepPanel.note(fitted.notices.map((n) => `${n.key}: ${n.message}.`));
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
    commit(paramsEdited(state, params, fragment));
    writeLink(history, location, state.fragment);
    show(state.params);
    // A control set back to the value already measured in full needs no new run.
    const measured = state.report !== null && !state.report.quick && state.reportFragment === fragment;
    if (unchanged && !live && measured && !isRunning(state) && debounce === null) return;
    runSoon(live);
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
    commit(linkLoaded(state, readLink(codec, location.hash)));
    writeLink(history, location, state.fragment);
    show(state.params);
    runNow(false);
    if (state.params.sweep && state.params.lab === "read") sweepPanel.run(state.params);
  });
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    sweepPanel.retheme();
    charts.retheme();
    writeResults.retheme();
  });
  themeSwitch.onChange(() => {
    sweepPanel.retheme();
    charts.retheme();
    writeResults.retheme();
  });

  // Test builds only (`vite build --mode faults`, with the engine's `faults`
  // feature): the recovery tests inject a panic, a hang or an out-of-memory
  // through a normal run. Vite drops this branch from every other build.
  if (import.meta.env.MODE === "faults") {
    Object.assign(window, { buflabFault: (fault: Fault) => runNow(false, fault) });
  }

  show(state.params);
  commit(state);
  // The default experiment runs without a click: first a quick estimate
  // (exact counts, one sample without warm-up: milliseconds), so numbers
  // appear at once, then the full measurement, which replaces it.
  runNow(true, undefined, firstQuick);
  runNow(false);
  // A sweep link runs its sweep too.
  if (state.params.sweep && state.params.lab === "read") sweepPanel.run(state.params);
}

function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const form = document.getElementById("controls");
  if (form) {
    replaceChildren(
      form,
      h("p", { class: "alert", role: "alert" }, h("strong", {}, "The engine could not be loaded. "), message),
    );
  }
  console.error(error);
}

// Colours first (before anything paints), and independent of the engine.
const themeSwitch = createThemeSwitch(byId("theme"));

// The service worker comes first: on a host without isolation headers the
// page reloads once through it, and loading the engine before that is waste.
void registerServiceWorker()
  .catch((): Isolation => "not isolated")
  .then((isolation) => {
    if (isolation === "reloading") return;
    performance.mark("buflab:service-worker");
    // The worker loads its own wasm in parallel with this thread's codec.
    const relay = new EventRelay();
    const client = createEngineClient({ onEvent: relay.send });
    loadCodec().then((codec) => {
      performance.mark("buflab:codec");
      start(codec, client, relay);
    }, fail);
  });
