// One line in the sticky bar: what the engine is doing for the settings on
// screen (with a spinner), how far the results shown have come (exact
// counts, a quick estimate or the full measurement), and the timer they were
// taken with, each explained where it appears (the ? button opens what they
// mean). It never says "Done" over results of other settings. Without
// cross-origin isolation a worker's clock ticks in 100 µs steps (1 ms in
// Firefox and WebKit), and with it in 5 µs steps (20 µs in Firefox and
// WebKit); where the engine's rule says a step lengthens its samples (every
// step without isolation, 20 µs with it) the line says so, and while it
// measures that this is why measuring takes longer.

import { activityText, currentStage, isRunning, isStale, reportOf, sweepCurrent, viewOf, type AppState } from "./state";
import { sampleCount } from "../engine/report";
import type { LabReport, Stage, SweepReport, Timer } from "../engine/types.gen";
import { formatNsShort, plural } from "../shared/format";
import { h, replaceChildren, setText } from "../shared/dom";

/**
 * The timer the results were taken with; `measuring`: a measurement with it
 * is under way. Whether its step lengthens the samples is the engine's rule
 * (`samples_lengthened`, clock.rs): always without isolation, and with it
 * where the isolated step is still coarse (Firefox's and WebKit's 20 µs).
 */
export function describeTimer(timer: Timer, measuring = false): string {
  const step = formatNsShort(timer.resolution_ns);
  const why = measuring ? ", so measuring takes longer" : "";
  if (!timer.isolated) return `timer ${step}, not isolated: samples lengthened${why}`;
  return timer.samples_lengthened ? `timer ${step}, isolated but coarse: samples lengthened${why}` : `timer ${step}, isolated`;
}

export { activityText };

/** What the results on screen are: their stage, and whether they are of other settings. */
export function describeReport(report: LabReport, stale: boolean): string {
  const samples = sampleCount(report);
  const what: Record<Stage, string> = {
    counts: "exact counts, not timed yet",
    quick: "quick estimate: 1 sample",
    full: `full measurement, ${plural(samples, "sample")}`,
  };
  return stale ? `earlier settings: ${what[report.stage]}` : what[report.stage];
}

/** What a sweep's points are: how many are in, and the samples each point's times took (fewer than a single run's). */
export function describeSweep(sweep: SweepReport, stale: boolean): string {
  const first = sweep.points[0]?.report;
  const samples = first ? sampleCount(first) : 0;
  const points = sweep.complete ? `${sweep.points.length} points` : `${sweep.points.length} of ${sweep.total} points`;
  const each = samples > 0 ? `, ${plural(samples, "sample")} each` : "";
  return `${stale ? "earlier settings: " : ""}sweep, ${points}${each}`;
}

/** What a sweep's times are, for the explanation. */
export function explainSweep(samples: number): string {
  return `Sweep: every point's counts are exact; its times are the median of ${plural(samples, "sample")} taken after a warm-up (fewer than a single run's, so a sweep of many points stays quick). A time knee is named only where the samples of neighbouring points do not overlap.`;
}

/** What each stage means, for the explanation. */
export function explainMeasurement(stage: Stage, samples: number): string {
  switch (stage) {
    case "counts":
      return "Exact counts: source reads, copies, allocations and digests come from one untimed run and are exact; they appear at once, and the times follow.";
    case "quick":
      return "Quick estimate: the counts are exact; the times come from one sample without warm-up, so they are rough, and no time is called faster or slower on them. It shows while a slider moves; the full measurement replaces it when you let go.";
    case "full":
      return `Full measurement: every time is the median of ${plural(samples, "sample")} taken after a warm-up, each long enough for the timer's step to be a small part of it. One time is called faster than another only when their samples do not overlap.`;
  }
}

/** What the timer's resolution and isolation mean, for the explanation. */
export function explainTimer(timer: Timer): string {
  const step = formatNsShort(timer.resolution_ns);
  const coarse = timer.samples_lengthened
    ? " This browser's isolated clock is still coarse, so BufLab lengthens each sample to keep the step a small part of it: times are right, just slower to take."
    : "";
  return timer.isolated
    ? `Timer: the worker's clock (performance.now()) ticks in ${step} steps. Isolated: this page is cross-origin isolated (its server's COOP/COEP headers, or BufLab's service worker), which is what gives a browser worker its fine clock.${coarse}`
    : `Timer: the worker's clock (performance.now()) ticks in ${step} steps, because this page is not cross-origin isolated (no COOP/COEP headers). BufLab lengthens each sample so the coarse step stays a small part of it; times are still right, just slower to take. Opened on its own (not in another site's frame), BufLab's service worker adds those headers from the page's next visit on: reload it for the fine timer.`;
}

export interface Status {
  update(state: AppState): void;
}

export function createStatus(container: HTMLElement, results: HTMLElement): Status {
  const spinner = h("span", { class: "spinner", "aria-hidden": "true" });
  const activity = h("span", { class: "activity" });
  const measurement = h("span", { class: "badge" });
  const sweepBadge = h("span", { class: "badge sweep-badge", hidden: true });
  const timer = h("span", { class: "timer" });
  const aboutMeasurement = h("p", {});
  const aboutTimer = h("p", {});
  const info = h(
    "button",
    { type: "button", class: "info", popovertarget: "status-about", "aria-label": "What the measurement and timer mean" },
    "?",
  );
  const about = h(
    "div",
    { id: "status-about", class: "popover status-about", popover: "auto", role: "note" },
    aboutMeasurement,
    aboutTimer,
  );
  // Only the activity text is announced; the rest changes with every result.
  const live = h("span", { class: "activity-wrap", role: "status", "aria-live": "polite" }, spinner, activity);
  // A long measurement shows its elapsed seconds (not announced: the live
  // region only carries the activity word).
  const elapsed = h("span", { class: "elapsed", "aria-hidden": "true" });
  replaceChildren(container, live, elapsed, measurement, sweepBadge, timer, info, about);

  let runningSince: number | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;
  const tick = (): void => {
    const seconds = runningSince === null ? 0 : Math.floor((performance.now() - runningSince) / 1000);
    setText(elapsed, seconds >= 2 ? `${seconds} s` : "");
  };

  return {
    update(state) {
      const busy = isRunning(state);
      if (busy && runningSince === null) {
        runningSince = performance.now();
        ticker = setInterval(tick, 1000);
      } else if (!busy && runningSince !== null) {
        runningSince = null;
        if (ticker !== null) clearInterval(ticker);
        ticker = null;
      }
      tick();

      container.classList.toggle("running", busy);
      results.classList.toggle("stale", isStale(state));
      results.setAttribute("aria-busy", String(busy));
      spinner.hidden = !busy;

      setText(activity, activityText(state));
      container.dataset["stage"] = currentStage(state) ?? "none";

      const report = reportOf(state);
      measurement.hidden = report === null;
      timer.hidden = report === null && state.engine.kind !== "ready";
      info.hidden = report === null;
      if (!report && state.engine.kind === "ready") {
        // Before the first report, the worker's own word on isolation.
        setText(timer, state.engine.isolated ? "worker isolated (fine timer)" : "worker not isolated: coarse timer");
      }
      if (report) {
        const samples = sampleCount(report);
        setText(measurement, describeReport(report, isStale(state)));
        measurement.classList.toggle("quick", report.stage !== "full");
        setText(timer, describeTimer(report.timer, busy));
        timer.classList.toggle("warn", !report.timer.isolated);
        timer.setAttribute("data-isolated", String(report.timer.isolated));
        timer.setAttribute("data-resolution-ns", String(report.timer.resolution_ns));
        timer.setAttribute("data-samples-lengthened", String(report.timer.samples_lengthened));
        setText(aboutMeasurement, explainMeasurement(report.stage, samples));
        setText(aboutTimer, explainTimer(report.timer));
      }
      // The sweep view shows the sweep's points, whose times take fewer samples than a single run's: its
      // badge says so, in place of the single run's.
      const sweep = viewOf(state) === "sweep" ? state.sweep?.report : null;
      const point = sweep?.points[0]?.report;
      sweepBadge.hidden = !sweep || !point;
      if (sweep && point) {
        measurement.hidden = true;
        setText(sweepBadge, describeSweep(sweep, !sweepCurrent(state)));
        sweepBadge.classList.toggle("quick", !sweep.complete);
        setText(aboutMeasurement, explainSweep(sampleCount(point)));
      }
    },
  };
}
