// Baselines: "Save as baseline" keeps the read-lab run on screen (its report
// as the engine returned it, its link, the date) in localStorage, and
// "Compare with this" opens the comparison view (labs/read/compare) with the
// baseline as A and the run on screen as B: the engine pairs the two
// reports as it pairs two result files, counts exactly and times as two
// measurements taken at different times (crate/src/engine/compare.rs), so
// the panel decides no verdict of its own. It owns the element it is given.
//
// What must stay true:
// - storage is bounded (MAX_BASELINES, newest first) and untrusted: whatever
//   is stored (corrupt JSON, an old shape, a full quota, storage turned off)
//   gives a visible notice, never an exception;
// - when the settings differ (the two links' values of a key) the panel says
//   which, in words (shared/settings-words.ts: "buffer capacity 8 KiB →
//   16 KiB"; a key without words as the links have it), and links the
//   baseline's settings;
// - display keys (the engine's `display_keys`: presenter mode, the view, the
//   lesson a link came from) never count as a difference.
//
// The pure parts (parseStored, withSaved, settingDifferences) are
// unit-tested in export.test.ts on real engine reports, with the engine's
// pairing of a baseline and a run.

import { isWriteReport } from "../engine/report";
import type { LabReport, Params, Report, Run } from "../engine/types.gen";
import { h, replaceChildren, setText } from "../shared/dom";
import { settingChange } from "../shared/settings-words";

/** localStorage key of the saved baselines (a JSON array, newest first). */
export const BASELINE_KEY = "buflab:baselines";

/** Most baselines kept; saving another drops the oldest. */
export const MAX_BASELINES = 5;

export interface Baseline {
  /** When it was saved (ISO 8601). */
  saved: string;
  /** The canonical link fragment of its settings (the report's own `link`). */
  link: string;
  report: Report;
}

function isBaseline(value: unknown): value is Baseline {
  if (typeof value !== "object" || value === null) return false;
  const b = value as Partial<Baseline>;
  const r = b.report as Partial<Report> | undefined;
  return (
    typeof b.saved === "string" &&
    typeof b.link === "string" &&
    typeof r === "object" &&
    r !== null &&
    Array.isArray(r.runs) &&
    r.runs.every(
      (run: unknown) =>
        typeof run === "object" &&
        run !== null &&
        typeof (run as Run).reader === "string" &&
        typeof (run as Run).source_reads === "number" &&
        typeof (run as Run).bytes_copied === "number" &&
        typeof (run as Run).allocations === "number" &&
        typeof (run as Run).modelled_io_ns === "number" &&
        typeof (run as Run).cpu_ns?.median === "number",
    )
  );
}

/** Reads the stored text. Entries of another shape are dropped, and `problem` says so. */
export function parseStored(text: string | null): { baselines: Baseline[]; problem: string | null } {
  if (text === null || text === "") return { baselines: [], problem: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { baselines: [], problem: "The saved baselines could not be read (not valid JSON) and were set aside." };
  }
  if (!Array.isArray(parsed)) return { baselines: [], problem: "The saved baselines had an unknown format and were set aside." };
  const valid = parsed.filter(isBaseline);
  const dropped = parsed.length - valid.length;
  return {
    baselines: valid.slice(0, MAX_BASELINES),
    problem:
      dropped > 0
        ? `${dropped} saved baseline${dropped === 1 ? "" : "s"} had an unknown format and ${dropped === 1 ? "was" : "were"} dropped.`
        : null,
  };
}

/** The list after saving `entry`: newest first, at most MAX_BASELINES. */
export function withSaved(baselines: Baseline[], entry: Baseline): Baseline[] {
  return [entry, ...baselines].slice(0, MAX_BASELINES);
}

/** A run's settings: its link and its params (a report's, or a stored baseline's link as the codec decodes it). */
export type Settings = Pick<Report, "link" | "params">;

/**
 * The settings that differ from the baseline to the current run, in words,
 * e.g. ["buffer capacity 8 KiB → 16 KiB"]: the link keys whose values differ
 * (display keys never count), each said from the runs' params
 * (`settingChange`), or as the links have it ("cap 8K → 16K") where the
 * words cannot tell (an unknown key, two values said alike).
 */
export function settingDifferences(current: Settings, baseline: Settings, pairsOf: (link: string) => Map<string, string>): string[] {
  const a = pairsOf(current.link);
  const b = pairsOf(baseline.link);
  const keys = [...new Set([...b.keys(), ...a.keys()])].filter((k) => a.get(k) !== b.get(k));
  const said = keys.map((k) => settingChange(k, baseline.params, current.params) ?? `${k} ${b.get(k) ?? "(default)"} → ${a.get(k) ?? "(default)"}`);
  // A sweep's keys (axis, from, to) say one change.
  return [...new Set(said)];
}

// ---------------------------------------------------------------- storage

interface BaselineStore {
  load(): { baselines: Baseline[]; problem: string | null };
  /** Null on success, else why it failed. */
  save(baselines: Baseline[]): string | null;
}

const localStore: BaselineStore = {
  load() {
    try {
      return parseStored(localStorage.getItem(BASELINE_KEY));
    } catch {
      return { baselines: [], problem: "This browser does not allow local storage here, so baselines last only until the page closes." };
    }
  },
  save(baselines) {
    try {
      if (baselines.length === 0) localStorage.removeItem(BASELINE_KEY);
      else localStorage.setItem(BASELINE_KEY, JSON.stringify(baselines));
      return null;
    } catch (error) {
      const quota = error instanceof DOMException && (error.name === "QuotaExceededError" || error.code === 22);
      return quota
        ? "The browser's storage for this page is full, so the baseline is kept only until the page closes."
        : "This browser does not allow local storage here, so the baseline is kept only until the page closes.";
    }
  },
};

// ---------------------------------------------------------------- the panel

export interface BaselinePanel {
  /** The report on screen (null before the first). */
  update(report: LabReport | null): void;
}

export interface BaselineOptions {
  labelOf(id: string): string;
  /** The full URL for a link fragment. */
  urlOf(fragment: string): string;
  /** A link's key/value pairs that can change a result (the codec's `experimentPairs`: display keys left out). */
  pairsOf(link: string): Map<string, string>;
  /** A stored baseline's settings: its link, decoded by the codec (stored text is untrusted; the codec checks it). */
  paramsOf(link: string): Params;
  /** Opens the comparison view: the baseline as A (`name` says which), `report` (the run on screen) as B. */
  compareWith(baseline: Baseline, name: string, report: Report): void;
}

export function createBaseline(container: HTMLElement, options: BaselineOptions, storage: BaselineStore = localStore): BaselinePanel {
  let { baselines, problem } = storage.load();
  let report: Report | null = null;

  const save = h("button", { type: "button", class: "small", id: "baseline-save" }, "Save as baseline");
  const clear = h("button", { type: "button", class: "small", id: "baseline-clear" }, "Clear baseline");
  const notice = h("p", { class: "field-note warn", id: "baseline-notice", role: "status" });
  const body = h("div", { class: "baseline-body", id: "baseline-body" });
  replaceChildren(
    container,
    h("div", { class: "share-row" }, h("span", { class: "share-label" }, "Baseline"), save, clear),
    notice,
    body,
  );

  const render = (): void => {
    setText(notice, problem ?? "");
    save.disabled = report === null || report.stage !== "full";
    save.title = report !== null && report.stage !== "full" ? "Wait for the full measurement" : "";
    clear.disabled = baselines.length === 0;
    const base = baselines[0];
    if (!base) {
      replaceChildren(body);
      return;
    }
    const savedAt = new Date(base.saved);
    const when = Number.isNaN(savedAt.getTime()) ? base.saved : savedAt.toLocaleString();
    const link = h("a", { href: options.urlOf(base.link), class: "baseline-link" }, "its settings");
    const count = baselines.length > 1 ? `; ${baselines.length} saved, Clear shows the one before` : "";
    const head = h("p", { class: "baseline-head" }, `Against the baseline saved ${when} (`, link, `${count}).`);
    if (!report) {
      replaceChildren(body, head);
      return;
    }
    const differences = settingDifferences(report, { link: base.link, params: options.paramsOf(base.link) }, options.pairsOf);
    const parts: (HTMLElement | string)[] = [head];
    if (differences.length > 0) {
      parts.push(
        h(
          "p",
          { class: "field-note warn", id: "baseline-differs" },
          `The settings differ (${differences.join("; ")}): a comparison sets two different experiments side by side.`,
        ),
      );
    }
    const timed = report.stage !== "counts";
    const compare = h(
      "button",
      { type: "button", class: "small", id: "baseline-compare", disabled: !timed, title: timed ? "" : "Wait for the run's timing" },
      "Compare with this",
    );
    const current = report;
    compare.addEventListener("click", () => options.compareWith(base, `the baseline saved ${when}`, current));
    parts.push(h("p", { class: "baseline-action" }, compare, " A is the baseline, B the run on screen, side by side in the comparison view."));
    replaceChildren(body, ...parts);
  };

  save.addEventListener("click", () => {
    if (!report) return;
    baselines = withSaved(baselines, { saved: new Date().toISOString(), link: report.link, report });
    problem = storage.save(baselines);
    render();
  });
  clear.addEventListener("click", () => {
    baselines = baselines.slice(1);
    problem = storage.save(baselines);
    render();
  });
  render();

  return {
    update(next) {
      report = next && !isWriteReport(next) ? next : null;
      render();
    },
  };
}
