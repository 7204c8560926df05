// @vitest-environment happy-dom
// The status line, in the page's own #status: what the engine is doing,
// how far the results on screen have come, and the timer they were taken
// with, as the sentences a person reads for each state.

import { afterEach, describe, expect, it, vi } from "vitest";
import type { LabReport, Params, Stage, SweepReport, Timer } from "../engine/types.gen";
import { byId, loadPageMarkup, submitting, unstyled } from "./dom-fixtures";
import { codec, decoded, defaults, page } from "./state-fixtures";
import { initialState, opening, update, type AppState } from "./state";
import { createStatus, describeReport, describeSweep, describeTimer, explainMeasurement, explainSweep, explainTimer } from "./status";

const coarse: Timer = { resolution_ns: 100_000, isolated: false, samples_lengthened: true };
const isolatedCoarse: Timer = { resolution_ns: 20_000, isolated: true, samples_lengthened: true };
const fine: Timer = { resolution_ns: 5_000, isolated: true, samples_lengthened: false };

/** A read lab's report of `stage` whose times took `samples` samples with `timer`. */
const reportOf = (stage: Stage, link: string, samples: number, timer: Timer = coarse): LabReport =>
  ({ stage, lab: "read", link, timer, runs: [{ cpu_ns: { samples } }] }) as unknown as LabReport;
const sweepOf = (link: string, points: number, total: number, samples: number): SweepReport =>
  ({ link, total, complete: points === total, points: Array.from({ length: points }, () => ({ report: reportOf("full", link, samples) })) }) as unknown as SweepReport;

describe("the status's sentences", () => {
  it("the timer: its step, whether it is isolated, and whether that lengthens the samples (and so the measuring)", () => {
    expect(describeTimer(coarse)).toBe("timer 100 µs, not isolated: samples lengthened");
    expect(describeTimer(coarse, true)).toBe("timer 100 µs, not isolated: samples lengthened, so measuring takes longer");
    expect(describeTimer(isolatedCoarse)).toBe("timer 20 µs, isolated but coarse: samples lengthened");
    expect(describeTimer(isolatedCoarse, true)).toBe("timer 20 µs, isolated but coarse: samples lengthened, so measuring takes longer");
    expect(describeTimer(fine)).toBe("timer 5 µs, isolated");
    expect(describeTimer(fine, true)).toBe("timer 5 µs, isolated");
  });

  it("the results: their stage, their samples, and whether they are of earlier settings", () => {
    expect(describeReport(reportOf("counts", "#", 0), false)).toBe("exact counts, not timed yet");
    expect(describeReport(reportOf("quick", "#", 1), false)).toBe("quick estimate: 1 sample");
    expect(describeReport(reportOf("full", "#", 7), false)).toBe("full measurement, 7 samples");
    expect(describeReport(reportOf("full", "#", 1), false)).toBe("full measurement, 1 sample");
    expect(describeReport(reportOf("full", "#", 7), true)).toBe("earlier settings: full measurement, 7 samples");
    expect(describeReport(reportOf("counts", "#", 0), true)).toBe("earlier settings: exact counts, not timed yet");
  });

  it("a sweep: its points in (of how many while it runs), each point's samples once timed, and earlier settings", () => {
    expect(describeSweep(sweepOf("#", 4, 4, 3), false)).toBe("sweep, 4 points, 3 samples each");
    expect(describeSweep(sweepOf("#", 2, 6, 3), false)).toBe("sweep, 2 of 6 points, 3 samples each");
    expect(describeSweep(sweepOf("#", 2, 6, 1), true)).toBe("earlier settings: sweep, 2 of 6 points, 1 sample each");
    expect(describeSweep(sweepOf("#", 0, 6, 3), false)).toBe("sweep, 0 of 6 points");
    expect(describeSweep(sweepOf("#", 3, 3, 0), false)).toBe("sweep, 3 points");
  });

  it("the explanations say what each stage's times are, and the sweep's", () => {
    expect(explainMeasurement("counts", 0)).toMatch(/^Exact counts: .* come from one untimed run and are exact/);
    expect(explainMeasurement("quick", 1)).toMatch(/^Quick estimate: .* one sample without warm-up/);
    expect(explainMeasurement("full", 9)).toMatch(/^Full measurement: every time is the median of 9 samples taken after a warm-up/);
    expect(explainSweep(3)).toMatch(/^Sweep: every point's counts are exact; its times are the median of 3 samples/);
  });

  it("the timer's explanation: its step, why it is coarse, and what to do about it", () => {
    const notIsolated = explainTimer(coarse);
    expect(notIsolated).toMatch(/^Timer: the worker's clock \(performance.now\(\)\) ticks in 100 µs steps, because this page is not cross-origin isolated/);
    expect(notIsolated).toContain("reload it for the fine timer");
    const isolated = explainTimer(fine);
    expect(isolated).toMatch(/^Timer: the worker's clock \(performance.now\(\)\) ticks in 5 µs steps. Isolated: /);
    expect(isolated).toMatch(/gives a browser worker its fine clock\.$/);
    expect(explainTimer(isolatedCoarse)).toMatch(/ticks in 20 µs steps. Isolated: .*This browser's isolated clock is still coarse/);
  });
});

/** The status in the page's #status, over #results. */
function make() {
  loadPageMarkup();
  const container = byId("status");
  const status = createStatus(container, byId("results"));
  const part = (selector: string) => container.querySelector<HTMLElement>(selector)!;
  return {
    status,
    container,
    results: byId("results"),
    activity: part(".activity"),
    spinner: part(".spinner"),
    elapsed: part(".elapsed"),
    measurement: part(".badge:not(.sweep-badge)"),
    sweepBadge: part(".sweep-badge"),
    timer: part(".timer"),
    info: part("button.info"),
    about: [...container.querySelectorAll("#status-about p")].map((p) => p as HTMLElement),
  };
}

/** A page whose request `id` is answered with a report of `stage` (7 samples, `timer`), its charts drawn. */
function answer(p: ReturnType<typeof page>, id: number, stage: Stage, timer: Timer = coarse): void {
  const asked = p.state.inFlight.find((r) => r.id === id)!;
  const report = reportOf(stage, asked.fragment, stage === "counts" ? 0 : 7, timer);
  p.act({ type: "settled", id, outcome: { kind: "report", report, elapsedMs: 1 } });
  p.act({ type: "drawn", report });
}

describe("the status line", () => {
  afterEach(() => vi.useRealTimers());

  it("is styled as the page's stylesheets select it; only the activity is announced; ? opens what the figures mean", () => {
    const s = make();
    s.status.update(page().state);
    const selectors = [".spinner", ".activity-wrap", ".elapsed", ".badge", ".status .timer", ".status button.info", ".status-about p", ".popover"];
    expect(unstyled(s.container, selectors)).toEqual([]);
    expect(s.sweepBadge.matches(".badge")).toBe(true);
    const live = s.container.querySelector("[aria-live]")!;
    expect([live.getAttribute("role"), live.getAttribute("aria-live")]).toEqual(["status", "polite"]);
    expect(live.textContent).toBe(s.activity.textContent);
    expect([s.spinner.getAttribute("aria-hidden"), s.elapsed.getAttribute("aria-hidden")]).toEqual(["true", "true"]);
    const about = byId(s.info.getAttribute("popovertarget")!);
    expect([about.getAttribute("popover"), about.getAttribute("role")]).toEqual(["auto", "note"]);
    expect(about.querySelectorAll("p")).toHaveLength(2);
    expect([s.info.textContent, s.info.getAttribute("aria-label")]).toEqual(["?", "What the measurement and timer mean"]);
    expect(submitting(s.container)).toEqual([]);
  });

  it("before the engine is ready: what it does, and no timer yet", () => {
    const s = make();
    expect(s.sweepBadge.hidden).toBe(true);
    s.status.update(initialState(decoded(defaults), codec));
    expect(s.activity.textContent).toBe("Loading engine…");
    expect(s.timer.hidden).toBe(true);
    expect(s.timer.textContent).toBe("");
    expect(s.measurement.hidden).toBe(true);
    expect(s.info.hidden).toBe(true);
    expect(s.container.dataset["stage"]).toBe("none");
  });

  it("counts in before the engine says it is ready: their timer shows all the same", () => {
    const s = make();
    let state = opening(initialState(decoded(defaults), codec)).state;
    const asked = state.inFlight[0]!;
    state = update(state, { type: "settled", id: asked.id, outcome: { kind: "report", report: reportOf("counts", asked.fragment, 0), elapsedMs: 1 } }).state;
    expect(state.engine.kind).toBe("loading");
    s.status.update(state);
    expect(s.timer.hidden).toBe(false);
    expect(s.timer.textContent).toMatch(/^timer 100 µs, not isolated/);
  });

  it("while counting: the spinner, the results busy, and the worker's own word on its timer", () => {
    const s = make();
    const p = page();
    s.status.update(p.state);
    expect(s.activity.textContent).toBe("Counting…");
    expect(s.container.classList.contains("running")).toBe(true);
    expect(s.spinner.hidden).toBe(false);
    expect(s.results.getAttribute("aria-busy")).toBe("true");
    expect(s.timer.hidden).toBe(false);
    expect(s.timer.textContent).toBe("worker isolated (fine timer)");
    expect(s.measurement.hidden).toBe(true);
    s.status.update({ ...p.state, engine: { kind: "ready", isolated: false } });
    expect(s.timer.textContent).toBe("worker not isolated: coarse timer");
  });

  it("exact counts in, timing under way: the counts' badge, the timer that lengthens the measuring, explained", () => {
    const s = make();
    const p = page();
    answer(p, 1, "counts");
    s.status.update(p.state);
    expect(s.activity.textContent).toBe("Exact counts; timing…");
    expect(s.container.dataset["stage"]).toBe("counts");
    expect(s.measurement.hidden).toBe(false);
    expect(s.measurement.textContent).toBe("exact counts, not timed yet");
    expect(s.measurement.classList.contains("quick")).toBe(true);
    expect(s.timer.textContent).toBe("timer 100 µs, not isolated: samples lengthened, so measuring takes longer");
    expect(s.timer.hidden).toBe(false);
    expect(s.timer.classList.contains("warn")).toBe(true);
    expect([s.timer.dataset["isolated"], s.timer.dataset["resolutionNs"], s.timer.dataset["samplesLengthened"]]).toEqual(["false", "100000", "true"]);
    expect(s.info.hidden).toBe(false);
    expect(s.about[0]!.textContent).toBe(explainMeasurement("counts", 0));
    expect(s.about[1]!.textContent).toBe(explainTimer(coarse));
  });

  it("the full measurement drawn: Done, nothing busy, its samples and its timer", () => {
    const s = make();
    const p = page();
    answer(p, 1, "counts", fine);
    s.status.update(p.state);
    answer(p, p.newest("timer").id, "full", fine);
    s.status.update(p.state);
    expect(s.activity.textContent).toBe("Done");
    expect(s.container.classList.contains("running")).toBe(false);
    expect(s.spinner.hidden).toBe(true);
    expect(s.results.getAttribute("aria-busy")).toBe("false");
    expect(s.container.dataset["stage"]).toBe("full");
    expect(s.measurement.textContent).toBe("full measurement, 7 samples");
    expect(s.measurement.classList.contains("quick")).toBe(false);
    expect(s.timer.textContent).toBe("timer 5 µs, isolated");
    expect(s.timer.classList.contains("warn")).toBe(false);
    expect([s.timer.dataset["isolated"], s.timer.dataset["resolutionNs"], s.timer.dataset["samplesLengthened"]]).toEqual(["true", "5000", "false"]);
    expect(s.about[0]!.textContent).toBe(explainMeasurement("full", 7));
    expect(s.about[1]!.textContent).toBe(explainTimer(fine));
  });

  it("settings changed: the results dimmed and said to be of earlier settings", () => {
    const s = make();
    const p = page();
    answer(p, 1, "counts");
    answer(p, p.newest("timer").id, "full");
    s.status.update(p.state);
    expect(s.results.classList.contains("stale")).toBe(false);
    p.edit({ ...defaults, cap: 4096 } as Params);
    s.status.update(p.state);
    expect(s.results.classList.contains("stale")).toBe(true);
    expect(s.measurement.textContent).toBe("earlier settings: full measurement, 7 samples");
    expect(s.container.dataset["stage"]).toBe("none");
  });

  it("a long measurement shows its seconds from the second on, and none once it ends", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "performance"] });
    const s = make();
    const p = page();
    s.status.update(p.state);
    expect(s.elapsed.textContent).toBe("");
    vi.advanceTimersByTime(1000);
    expect(s.elapsed.textContent).toBe("");
    vi.advanceTimersByTime(1000);
    expect(s.elapsed.textContent).toBe("2 s");
    // Still running: the count goes on from the start, not from this update.
    s.status.update(p.state);
    vi.advanceTimersByTime(3000);
    expect(s.elapsed.textContent).toBe("5 s");
    answer(p, 1, "counts");
    answer(p, p.newest("timer").id, "full");
    s.status.update(p.state);
    expect(s.elapsed.textContent).toBe("");
    // No clock left ticking while nothing runs.
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(s.elapsed.textContent).toBe("");
    // The next measurement counts from its own start.
    p.act({ type: "measure" });
    s.status.update(p.state);
    vi.advanceTimersByTime(2000);
    expect(s.elapsed.textContent).toBe("2 s");
  });

  it("the sweep view: the sweep's badge in place of the single run's, and the sweep's explanation", () => {
    const s = make();
    const swept = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } } as Params;
    const p = page(swept);
    const sweep = p.state.sweep!;
    s.status.update(p.state);
    expect(s.sweepBadge.hidden).toBe(true);
    p.act({ type: "sweepPoint", id: sweep.id, report: sweepOf(sweep.fragment, 2, 13, 3) });
    s.status.update(p.state);
    expect(s.sweepBadge.hidden).toBe(false);
    expect(s.measurement.hidden).toBe(true);
    expect(s.sweepBadge.textContent).toBe("sweep, 2 of 13 points, 3 samples each");
    expect(s.sweepBadge.classList.contains("quick")).toBe(true);
    expect(s.about[0]!.textContent).toBe(explainSweep(3));
    p.act({ type: "sweepSettled", id: sweep.id, outcome: { kind: "done", report: sweepOf(sweep.fragment, 13, 13, 3) }, elapsedMs: 5 });
    s.status.update(p.state);
    expect(s.sweepBadge.textContent).toBe("sweep, 13 points, 3 samples each");
    expect(s.sweepBadge.classList.contains("quick")).toBe(false);
    // A drag: counted and estimated, not swept, so the sweep on screen is of earlier settings.
    p.edit({ ...swept, cap: 4096 } as Params, true);
    s.status.update(p.state);
    expect(s.sweepBadge.textContent).toBe("earlier settings: sweep, 13 points, 3 samples each");
  });

  it("the sweep view before any sweep: no sweep badge", () => {
    const s = make();
    const p = page({ ...defaults, view: "sweep", sweep: null } as Params);
    expect(p.state.sweep).toBeNull();
    s.status.update(p.state);
    expect(s.sweepBadge.hidden).toBe(true);
    expect(s.activity.textContent).toBe("Pick an axis");
  });

  it("a sweep without a point in, or the single run's view, keeps the single run's badge", () => {
    const s = make();
    const swept = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } } as Params;
    const p = page(swept);
    p.act({ type: "sweepPoint", id: p.state.sweep!.id, report: sweepOf(p.state.sweep!.fragment, 0, 13, 3) });
    s.status.update(p.state);
    expect(s.sweepBadge.hidden).toBe(true);
    const run: AppState = { ...p.state, view: "run" };
    p.act({ type: "sweepPoint", id: p.state.sweep!.id, report: sweepOf(p.state.sweep!.fragment, 1, 13, 3) });
    s.status.update({ ...p.state, view: run.view });
    expect(s.sweepBadge.hidden).toBe(true);
  });
});
