// One line above the results: running or not (with a spinner), quick estimate
// or full measurement, and the timer the numbers were taken with. Without
// cross-origin isolation a worker's clock ticks in 100 µs steps; the engine
// then lengthens its samples, and the line says so.

import { isRunning, isStale, type AppState } from "../state";
import { sampleCount } from "../engine/report";
import type { Timer } from "../engine/types.gen";
import { formatNsShort } from "../format";
import { h, replaceChildren, setText } from "./dom";

export function describeTimer(timer: Timer): string {
  const step = formatNsShort(timer.resolution_ns);
  return timer.isolated ? `timer ${step}, isolated` : `timer ${step}, not isolated: samples lengthened`;
}

export interface Status {
  update(state: AppState): void;
}

export function createStatus(container: HTMLElement, results: HTMLElement): Status {
  const spinner = h("span", { class: "spinner", "aria-hidden": "true" });
  const activity = h("span", { class: "activity" });
  const measurement = h("span", { class: "badge" });
  const timer = h("span", { class: "timer" });
  // Only the activity text is announced; the rest changes with every result.
  const live = h("span", { class: "activity-wrap", role: "status", "aria-live": "polite" }, spinner, activity);
  replaceChildren(container, live, measurement, timer);

  // A long measurement shows its elapsed seconds (not announced: the live
  // region only carries the activity word).
  const elapsed = h("span", { class: "elapsed", "aria-hidden": "true" });
  live.after(elapsed);
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

      const running = isRunning(state);
      container.classList.toggle("running", running);
      results.classList.toggle("stale", isStale(state));
      results.setAttribute("aria-busy", String(running));
      spinner.hidden = !running;

      let text: string;
      if (state.engine.kind === "broken") text = "Engine unavailable";
      else if (running) text = state.quickPending ? "Estimating…" : "Measuring…";
      else if (state.stopped) text = "Stopped";
      else if (state.engine.kind === "loading") text = "Loading engine…";
      else if (state.report) text = "Done";
      else text = "Ready";
      setText(activity, text);

      const report = state.report;
      measurement.hidden = report === null;
      timer.hidden = report === null && state.engine.kind !== "ready";
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
      }
    },
  };
}
