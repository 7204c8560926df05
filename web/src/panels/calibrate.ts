// Calibrate (owns #calibrate): measures what one source read costs in this
// browser, with real calls: the worker writes the link's stream to a file in
// the Origin Private File System and reads it back through a
// FileSystemSyncAccessHandle, one read() call per source read (the engine's
// `real::calibrate`, about half a second of work). The result is offered as
// `sys`; taken, the link records where it came from (`syssrc=opfs`). Only
// `sys` is measured: the I/O part of every total stays modelled, source
// reads × sys, and the page keeps saying so.
//
// Where the browser has no synchronous OPFS file, the panel says what is
// missing and `sys` stays as it is.

import type { Calibrate } from "../engine/calibrate-runner";
import { messageOf } from "../engine/errors";
import type { Calibration, Params, Schema } from "../engine/types.gen";
import { h, replaceChildren, setText } from "../shared/dom";
import { settingWords } from "../shared/fields/kit";
import { formatCount, formatNs } from "../shared/format";

export interface CalibratePanel {
  /** The params on screen: where their `sys` came from, and whether the offer is already in use. */
  show(params: Params): void;
}

export interface CalibrateOptions {
  schema: Schema;
  calibrate: Calibrate;
  /** The params now (the stream and read size a calibration uses). */
  params(): Params;
  /** Take `sys` as the cost per source read, calibrated in this browser. */
  use(sys: number): void;
}

type Shown =
  | { state: "idle" }
  | { state: "running" }
  | { state: "measured"; calibration: Calibration }
  | { state: "missing"; reason: string }
  | { state: "failed"; message: string };

/** Where `params.sys` came from, in the schema's words. */
function sysOrigin(schema: Schema, params: Params): { label: string; about: string } {
  const info = schema.sys_sources.find((s) => s.id === params.sys_source);
  return info ? { label: info.label, about: info.about } : { label: params.sys_source, about: "" };
}

export function createCalibrate(element: HTMLElement, options: CalibrateOptions): CalibratePanel {
  const sysLabel = settingWords(options.schema, "read", "sys").label;
  const now = h("p", { class: "calibrate-now" });
  const run = h("button", { type: "button", id: "calibrate-run", class: "small" }, "Calibrate in this browser");
  const result = h("div", { class: "calibrate-result", "aria-live": "polite", "data-state": "idle" });
  replaceChildren(
    element,
    h("h3", { id: "calibrate-title" }, `${sysLabel}, measured here`),
    h(
      "p",
      { class: "field-note" },
      "Writes the stream to a file in this browser's own storage (the Origin Private File System) and reads it back, " +
        "one real read() call per source read, for about half a second. The result can replace the modelled cost per source read.",
    ),
    now,
    run,
    result,
  );
  let shown: Shown = { state: "idle" };
  let current: Params | null = null;

  run.addEventListener("click", () => {
    const params = options.params();
    render({ state: "running" });
    options.calibrate(params).then(
      (outcome) => render(outcome.kind === "measured" ? { state: "measured", calibration: outcome.calibration } : { state: "missing", reason: outcome.reason }),
      (error: unknown) => render({ state: "failed", message: messageOf(error) }),
    );
  });

  function render(next: Shown): void {
    shown = next;
    result.dataset["state"] = next.state;
    run.disabled = next.state === "running";
    run.setAttribute("aria-busy", String(next.state === "running"));
    switch (next.state) {
      case "idle":
        replaceChildren(result);
        break;
      case "running":
        replaceChildren(result, h("p", {}, "Calibrating: writing the file, then timing real reads…"));
        break;
      case "missing":
        replaceChildren(result, h("p", { class: "calibrate-missing" }, `Not available here: ${next.reason} The cost per source read stays as it is.`));
        break;
      case "failed":
        replaceChildren(result, h("p", { class: "calibrate-failed" }, `Calibrate failed: ${next.message}`));
        break;
      case "measured":
        replaceChildren(result, ...measured(next.calibration));
        break;
    }
    if (current) showNow(current);
  }

  function measured(c: Calibration): Node[] {
    const per = c.ns_per_call;
    const size = `${formatCount(c.read_size)}-byte`;
    const timer = c.timer.isolated ? "" : ` The timer here ticks in ${formatNs(c.timer.resolution_ns)} steps (no cross-origin isolation).`;
    const use = h("button", { type: "button", id: "calibrate-use", class: "small", "data-sys": c.sys }, `Use ${formatCount(c.sys)} ns`);
    use.addEventListener("click", () => options.use(c.sys));
    return [
      h(
        "p",
        { class: "calibrate-figure", "data-sys": c.sys, "data-calls": c.calls },
        `One ${size} read from OPFS took `,
        h("strong", {}, formatNs(per.median)),
        ` here (measured: median of ${per.samples} samples, ${formatNs(per.min)}–${formatNs(per.max)}, ${formatCount(c.calls)} real calls over a ` +
          `${formatCount(c.file_bytes)}-byte file); the same read in memory took ${formatNs(c.in_memory_ns)}.${timer}`,
      ),
      c.bytes_ok ? null : h("p", { class: "calibrate-failed" }, "The bytes read back differ from the stream's: the figure is suspect."),
      h("p", {}, `So a source read costs about ${formatCount(c.sys)} ns in this browser. `, use),
    ].filter((n): n is HTMLParagraphElement => n !== null);
  }

  function showNow(params: Params): void {
    const origin = sysOrigin(options.schema, params);
    now.dataset["sysSource"] = params.sys_source;
    setText(
      now,
      `${sysLabel} now: ${formatCount(params.sys)} ns, ${origin.label}. ` +
        "Either way the I/O time in the results is modelled: source reads × this cost, plus the bytes they return × the cost per KiB.",
    );
    now.title = origin.about;
    const use = result.querySelector<HTMLButtonElement>("#calibrate-use");
    if (use && shown.state === "measured") {
      const inUse = params.sys === shown.calibration.sys && params.sys_source === "opfs";
      use.disabled = inUse;
      setText(use, inUse ? "In use" : `Use ${formatCount(shown.calibration.sys)} ns`);
    }
  }

  return {
    show(params) {
      current = params;
      showNow(params);
    },
  };
}
