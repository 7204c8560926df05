// Wires the page: link → state → controls, and edits → link → worker → results.
//
// State changes only through the pure transitions in state.ts; `commit`
// stores the new state and lets each UI piece show it. The engine's codec
// (schema, link decoding) runs on this thread; measurements run in the worker.

import { isDropped, createEngineClient } from "./engine/client";
import { loadCodec, type Codec } from "./engine/codec";
import { isWriteReport, type Fault, type Lab, type Params, type Report, type WriteReport } from "./engine/protocol";
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
import { createThemeSwitch } from "./ui/theme";
import { registerServiceWorker, type Isolation } from "./offline/register";
import { createLabSwitch } from "./ui/lab-switch";
import { createWriteControls } from "./ui/write-controls";
import { createWriteResults, summarizeWrite } from "./ui/write-results";
import { createSweepRunner } from "./engine/sweep-runner";
import { createSweep } from "./ui/sweep";
import { isStale } from "./state";
import type { Sweep } from "./engine/protocol";

/** Quiet time after a slider step before a quick estimate starts. */
const LIVE_DEBOUNCE_MS = 120;

function start(codec: Codec): void {
  const form = byId<HTMLFormElement>("controls");
  const results = byId("results");
  const labels = new Map(codec.schema.readers.map((r) => [r.id, r.label]));
  const labelOf = (id: string): string => labels.get(id) ?? id;

  let state: AppState = initialState(readLink(codec, location.hash));
  writeLink(history, location, state.fragment);
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
  const flavourLabels = new Map(codec.schema.flavours.map((f) => [f.id, f.label]));
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
  const peek = createPeek(results);
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

  performance.mark("buflab:ui");
  // Created after the UI pieces: a worker that cannot even start reports
  // through commit() at once.
  const client = createEngineClient({
    onEvent(event) {
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
    },
  });

  function commit(next: AppState): void {
    state = next;
    notices.update(state);
    status.update(state);
    actions.setRunning(isRunning(state));
    peek.update(state, labelOf, flavourLabelOf);
    const lab = state.params.lab;
    document.body.dataset["lab"] = lab;
    form.hidden = lab !== "read";
    writeForm.hidden = lab !== "write";
    readCharts.hidden = lab !== "read";
    readTable.hidden = lab !== "read";
    writeResultsElement.hidden = lab !== "write";
    sweepSection.hidden = lab !== "read";
    placeholder.textContent = state.stopped
      ? "Stopped before any result. Press Measure again, or change a setting."
      : "The first measurement takes about a second; its results appear here.";
    if (state.report !== shownReport && state.report) {
      // The budget test reads this mark (time from navigation start to the first numbers).
      if (shownReport === null) performance.mark("buflab:first-results");
      shownReport = state.report;
      if (isWriteReport(state.report)) {
        lastWrite = state.report;
        writeResults.update(state.report);
      } else {
        lastRead = state.report;
        charts.update(state.report, labelOf);
        table.update(state.report, labelOf);
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
  }

  function runSoon(quick: boolean): void {
    if (debounce !== null) clearTimeout(debounce);
    debounce = setTimeout(() => {
      debounce = null;
      runNow(quick);
    }, LIVE_DEBOUNCE_MS);
  }

  function runNow(quick: boolean, fault?: Fault): void {
    if (debounce !== null) clearTimeout(debounce);
    debounce = null;
    const { params, fragment } = state;
    commit(runRequested(state, quick));
    client.run(params, quick, fault).then(
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
  runNow(true);
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
    loadCodec().then((codec) => {
      performance.mark("buflab:codec");
      start(codec);
    }, fail);
  });
