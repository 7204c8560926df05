// @vitest-environment happy-dom
// The baseline panel as a person uses it, in a DOM (happy-dom) with its real
// localStorage and real engine reports (`npm run wasm`'s builds): Save keeps
// the run on screen and a later page finds it, Clear drops it, storage that
// fails (a full quota, storage turned off, a corrupt entry) says so on the
// panel and keeps the baseline for the page's life, and the panel names the
// settings that differ. The pure parts are tested in export.test.ts.

import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Codec } from "../engine/codec";
import { realCodec, realQuickRun, realTimingEngine } from "../engine/real-engine";
import type { LabReport, Report } from "../engine/types.gen";
import { onNodeClock, submitting, unstyled } from "../app/dom-fixtures";
import { BASELINE_KEY, createBaseline, type Baseline, type BaselinePanel } from "./baseline";

let codec: Codec;
/** Real full measurements of two small experiments that differ in the buffer capacity, and a counts-only report of the first. */
let full8K: Report;
let full16K: Report;
let counts8K: Report;
/** Counts of an experiment that differs from the first in two settings. */
let counts16K128: Report;

/** A link's canonical single-run fragment, as the page keeps it; a link the codec would correct is a mistake in the test. */
function runLink(fragment: string): string {
  const { links, notices } = codec.decodeLink(fragment);
  if (notices.length > 0) throw new Error(`${fragment}: ${JSON.stringify(notices)}`);
  return links.run;
}

/** A real measurement of `fragment` (its counts only with `counts`). */
function measured(fragment: string, counts: boolean): Report {
  return onNodeClock(() => realTimingEngine("fixed").run(runLink(fragment), counts, false) as Report);
}

beforeAll(() => {
  codec = realCodec();
  full8K = measured("len=64K&cap=8K&rs=64", false);
  full16K = measured("len=64K&cap=16K&rs=64", false);
  counts8K = measured("len=64K&cap=8K&rs=64", true);
  counts16K128 = measured("len=64K&cap=16K&rs=128", true);
});

const compared: { base: Baseline; name: string; report: Report }[] = [];
let container: HTMLElement;

function panel(): BaselinePanel {
  return createBaseline(container, {
    labelOf: (id) => codec.schema.readers.find((r) => r.id === id)?.label ?? id,
    urlOf: (fragment) => `https://example.org/buflab/#${fragment}`,
    pairsOf: (link) => codec.experimentPairs(link),
    paramsOf: (link) => codec.decodeLink(link).params,
    compareWith: (base, name, report) => compared.push({ base, name, report }),
  });
}

const button = (id: string): HTMLButtonElement => container.querySelector<HTMLButtonElement>(`#${id}`)!;
const text = (selector: string): string => container.querySelector(selector)?.textContent ?? "";
const stored = (): Baseline[] => JSON.parse(localStorage.getItem(BASELINE_KEY) ?? "[]") as Baseline[];

beforeEach(() => {
  localStorage.clear();
  compared.length = 0;
  container = document.createElement("div");
  document.body.replaceChildren(container);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** From now on the page's localStorage throws `error` from `method`, as a browser's does when its quota is full or storage is off; the rest is the real storage. */
function failing(method: "getItem" | "setItem" | "removeItem", error: DOMException): void {
  const real = localStorage;
  vi.stubGlobal("localStorage", {
    getItem: (key: string) => real.getItem(key),
    setItem: (key: string, value: string) => real.setItem(key, value),
    removeItem: (key: string) => real.removeItem(key),
    [method]: () => {
      throw error;
    },
  });
}

describe("what the panel draws", () => {
  it("labelled buttons that submit nothing, styled as the page's, and a notice read out as a status", () => {
    const p = panel();
    p.update(full8K as LabReport);
    button("baseline-save").click();
    expect(button("baseline-save").textContent).toBe("Save as baseline");
    expect(button("baseline-clear").textContent).toBe("Clear baseline");
    expect(button("baseline-compare").textContent).toBe("Compare with this");
    expect(text(".share-label")).toBe("Baseline");
    expect(text(".baseline-action")).toBe("Compare with this A is the baseline, B the run on screen, side by side in the comparison view.");
    expect(submitting(container)).toEqual([]);
    expect(container.querySelector("#baseline-notice")!.getAttribute("role")).toBe("status");
    expect(unstyled(container, [".share-row", ".share-label", ".small", ".field-note.warn", ".baseline-head", ".baseline-link", ".baseline-action"])).toEqual([]);
    p.update(full16K as LabReport);
    expect(container.querySelector("#baseline-differs")!.matches(".field-note.warn")).toBe(true);
    expect(container.querySelector("#baseline-body")!.matches(".baseline-body")).toBe(true);
  });
});

describe("saving and clearing", () => {
  it("keeps a full measurement in localStorage, and a later page finds it", () => {
    const p = panel();
    expect(button("baseline-save").disabled).toBe(true);
    expect(button("baseline-save").title).toBe("");
    expect(button("baseline-clear").disabled).toBe(true);
    button("baseline-save").click();
    expect(localStorage.getItem(BASELINE_KEY)).toBeNull();
    p.update(full8K as LabReport);
    expect(button("baseline-save").disabled).toBe(false);
    expect(button("baseline-save").title).toBe("");
    button("baseline-save").click();

    expect(stored().map((b) => b.link)).toEqual([full8K.link]);
    expect(stored()[0]!.report.runs).toEqual(full8K.runs);
    expect(text("#baseline-notice")).toBe("");
    expect(button("baseline-clear").disabled).toBe(false);

    // The next visit: a new panel over the same storage shows it before any run.
    container = document.createElement("div");
    document.body.replaceChildren(container);
    panel();
    expect(text(".baseline-head")).toMatch(/^Against the baseline saved .+ \(its settings\)\.$/);
    expect(container.querySelector<HTMLAnchorElement>(".baseline-link")!.href).toBe(`https://example.org/buflab/#${full8K.link}`);
  });

  it("waits for the full measurement before it saves", () => {
    const p = panel();
    p.update(counts8K as LabReport);
    expect(button("baseline-save").disabled).toBe(true);
    expect(button("baseline-save").title).toBe("Wait for the full measurement");
    button("baseline-save").click();
    expect(localStorage.getItem(BASELINE_KEY)).toBeNull();
  });

  it("Clear shows the one saved before, and the last Clear leaves storage empty", () => {
    const p = panel();
    p.update(full8K as LabReport);
    button("baseline-save").click();
    p.update(full16K as LabReport);
    button("baseline-save").click();
    expect(stored().map((b) => b.link)).toEqual([full16K.link, full8K.link]);
    expect(text(".baseline-head")).toContain("; 2 saved, Clear shows the one before).");

    button("baseline-clear").click();
    expect(stored().map((b) => b.link)).toEqual([full8K.link]);
    expect(text(".baseline-head")).not.toContain("saved, Clear");

    button("baseline-clear").click();
    expect(localStorage.getItem(BASELINE_KEY)).toBeNull();
    expect(container.querySelector("#baseline-body")!.childElementCount).toBe(0);
    expect(button("baseline-clear").disabled).toBe(true);
  });
});

describe("storage that fails says so and keeps the baseline for the page's life", () => {
  it("a full quota", () => {
    failing("setItem", new DOMException("over quota", "QuotaExceededError"));
    const p = panel();
    p.update(full8K as LabReport);
    button("baseline-save").click();
    expect(text("#baseline-notice")).toBe("The browser's storage for this page is full, so the baseline is kept only until the page closes.");
    expect(text(".baseline-head")).toMatch(/^Against the baseline saved /);
  });

  it("a full quota in a browser that names it the old way (code 22)", () => {
    const old = new DOMException("over quota");
    Object.defineProperties(old, { name: { value: "QUOTA_EXCEEDED_ERR" }, code: { value: 22 } });
    failing("setItem", old);
    const p = panel();
    p.update(full8K as LabReport);
    button("baseline-save").click();
    expect(text("#baseline-notice")).toBe("The browser's storage for this page is full, so the baseline is kept only until the page closes.");
  });

  it("storage turned off, when saving", () => {
    failing("setItem", new DOMException("denied", "SecurityError"));
    const p = panel();
    p.update(full8K as LabReport);
    button("baseline-save").click();
    expect(text("#baseline-notice")).toBe("This browser does not allow local storage here, so the baseline is kept only until the page closes.");
    expect(text(".baseline-head")).toMatch(/^Against the baseline saved /);
  });

  it("storage turned off, when clearing the last baseline", () => {
    const p = panel();
    p.update(full8K as LabReport);
    button("baseline-save").click();
    failing("removeItem", new DOMException("denied", "SecurityError"));
    button("baseline-clear").click();
    expect(text("#baseline-notice")).toBe("This browser does not allow local storage here, so the baseline is kept only until the page closes.");
  });

  it("storage turned off, when loading", () => {
    failing("getItem", new DOMException("denied", "SecurityError"));
    panel();
    expect(text("#baseline-notice")).toBe("This browser does not allow local storage here, so baselines last only until the page closes.");
    expect(container.querySelector("#baseline-body")!.childElementCount).toBe(0);
    expect(button("baseline-clear").disabled).toBe(true);
  });

  it("a corrupt entry is a notice, not an exception, and Save replaces it", () => {
    localStorage.setItem(BASELINE_KEY, "{not json");
    const p = panel();
    expect(text("#baseline-notice")).not.toBe("");
    p.update(full8K as LabReport);
    button("baseline-save").click();
    expect(text("#baseline-notice")).toBe("");
    expect(stored().map((b) => b.link)).toEqual([full8K.link]);
  });
});

describe("comparing with the baseline", () => {
  it("names the settings that differ, and Compare hands the baseline as A and the run on screen as B", () => {
    const p = panel();
    p.update(full8K as LabReport);
    button("baseline-save").click();
    expect(container.querySelector("#baseline-differs")).toBeNull();

    p.update(full16K as LabReport);
    expect(text("#baseline-differs")).toMatch(/^The settings differ \(buffer capacity 8 KiB → 16 KiB\): /);
    const compare = button("baseline-compare");
    expect(compare.disabled).toBe(false);
    expect(compare.title).toBe("");
    compare.click();
    expect(compared).toHaveLength(1);
    expect(compared[0]!.base.link).toBe(full8K.link);
    expect(compared[0]!.report).toBe(full16K);
    expect(compared[0]!.name).toMatch(/^the baseline saved .+/);
  });

  it("names every setting that differs, each apart", () => {
    const p = panel();
    p.update(full8K as LabReport);
    button("baseline-save").click();
    p.update(counts16K128 as LabReport);
    expect(text("#baseline-differs")).toMatch(/^The settings differ \(buffer capacity 8 KiB → 16 KiB; read size 64 bytes → 128 bytes\): /);
  });

  it("waits for the run's timing before it compares", () => {
    const p = panel();
    p.update(full8K as LabReport);
    button("baseline-save").click();
    p.update(counts8K as LabReport);
    expect(button("baseline-compare").disabled).toBe(true);
    expect(button("baseline-compare").title).toBe("Wait for the run's timing");
  });

  it("a write-lab report is no run to save or compare", () => {
    const p = panel();
    p.update(full8K as LabReport);
    button("baseline-save").click();
    p.update(onNodeClock(() => realQuickRun(codec.decodeLink("lab=write").links.run)));
    expect(button("baseline-save").disabled).toBe(true);
    expect(container.querySelector("#baseline-compare")).toBeNull();
  });
});
