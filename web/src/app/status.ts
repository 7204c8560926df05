// One line in the sticky bar: running or not (with a spinner), quick
// estimate or full measurement, and the timer the numbers were taken with,
// each explained where it appears (the ? button opens what they mean).
// Without cross-origin isolation a worker's clock ticks in 100 µs steps; the
// engine then lengthens its samples, and the line says so.

import { isRunning, isStale, type AppState } from "./state";
import { sampleCount } from "../engine/report";
import type { Timer } from "../engine/types.gen";
import { formatNsShort } from "../shared/format";
import { h, replaceChildren, setText } from "../shared/dom";

export function describeTimer(timer: Timer): string {
  const step = formatNsShort(timer.resolution_ns);
  return timer.isolated ? `timer ${step}, isolated` : `timer ${step}, not isolated: samples lengthened`;
}

/** What "quick estimate" or "full measurement" means, for the explanation. */
export function explainMeasurement(quick: boolean, samples: number): string {
  return quick
    ? "Quick estimate: the counts are already exact; the times come from one sample without warm-up, so they are rough. It shows while a slider moves; the full measurement replaces it when you let go."
    : `Full measurement: every time is the median of ${samples} sample${samples === 1 ? "" : "s"} taken after a warm-up, each long enough for the timer's step to be a small part of it.`;
}

/** What the timer's resolution and isolation mean, for the explanation. */
export function explainTimer(timer: Timer): string {
  const step = formatNsShort(timer.resolution_ns);
  return timer.isolated
    ? `Timer: the worker's clock (performance.now()) ticks in ${step} steps. Isolated: this page is cross-origin isolated (its server's COOP/COEP headers, or BufLab's service worker), which is what gives a browser worker its fine clock.`
    : `Timer: the worker's clock (performance.now()) ticks in ${step} steps, because this page is not cross-origin isolated (no COOP/COEP headers). BufLab lengthens each sample so the coarse step stays a small part of it; times are still right, just slower to take.`;
}

export interface Status {
  update(state: AppState): void;
}

export function createStatus(container: HTMLElement, results: HTMLElement): Status {
  const spinner = h("span", { class: "spinner", "aria-hidden": "true" });
  const activity = h("span", { class: "activity" });
  const measurement = h("span", { class: "badge" });
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
  replaceChildren(container, live, elapsed, measurement, timer, info, about);

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

      let text: string;
      if (state.engine.kind === "broken") text = "Engine unavailable";
      else if (busy) text = state.quickPending ? "Estimating…" : "Measuring…";
      else if (state.stopped) text = "Stopped";
      else if (state.engine.kind === "loading") text = "Loading engine…";
      else if (state.report) text = "Done";
      else text = "Ready";
      setText(activity, text);

      const report = state.report;
      measurement.hidden = report === null;
      timer.hidden = report === null && state.engine.kind !== "ready";
      info.hidden = report === null;
      if (!report && state.engine.kind === "ready") {
        // Before the first report, the worker's own word on isolation.
        setText(timer, state.engine.isolated ? "worker isolated (fine timer)" : "worker not isolated: coarse timer");
      }
      if (report) {
        const samples = sampleCount(report);
        setText(measurement, report.quick ? "quick estimate" : `full measurement, ${samples} sample${samples === 1 ? "" : "s"}`);
        measurement.classList.toggle("quick", report.quick);
        setText(timer, describeTimer(report.timer));
        timer.classList.toggle("warn", !report.timer.isolated);
        timer.setAttribute("data-isolated", String(report.timer.isolated));
        timer.setAttribute("data-resolution-ns", String(report.timer.resolution_ns));
        setText(aboutMeasurement, explainMeasurement(report.quick, samples));
        setText(aboutTimer, explainTimer(report.timer));
      }
    },
  };
}
