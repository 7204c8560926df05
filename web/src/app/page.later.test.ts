// @vitest-environment happy-dom
// The whole page with its later parts (the read lab's sweep and timeline
// views and its charts, the write lab, the panels, the sweep runner), each
// stood in by a module that records what the page handed it and what it is
// told: a test presses a part's buttons (calls what the page handed it) and
// looks at what reaches the workers, the address bar and the screen. Each
// test builds its page from fresh modules, so the later parts load only once
// it lets them (`startLaterParts`).

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LabReport, Sweep } from "../engine/types.gen";
import { realQuickRun } from "../engine/real-engine";
import { TIMELINE_START } from "../labs/read/timeline/start";
import type { SweepShown } from "../shared/lab";
import { byId, onNodeClock, press, settle } from "./dom-fixtures";
import { countsOf, openPage, pagesOneAtATime, realCodec } from "./page-fixtures";

/** Each stood-in part's maker: records what it was handed, and returns a part that records what it is told. */
const made = vi.hoisted(() => {
  type Entry = { name: string; args: unknown[]; calls: unknown[][] };
  const log: Entry[] = [];
  /** What happened to the parts, in order: "NAME" when one is made, "NAME.METHOD" when one is told something. */
  const events: string[] = [];
  /** What the sweep view's headline says now. */
  const words = { sweep: "" };
  /** `own`: the answers the page reads (values, or functions whose calls are recorded too). */
  const maker =
    (name: string, own: () => Record<string, unknown> = () => ({})) =>
    (...args: unknown[]) => {
      const entry: Entry = { name, args, calls: [] };
      log.push(entry);
      events.push(name);
      return new Proxy(own(), {
        get: (answers, key) => {
          // Not a thenable: the part is what its module's promise resolves to.
          if (typeof key === "symbol" || key === "then") return undefined;
          const answer = answers[key];
          if (answer !== undefined && typeof answer !== "function") return answer;
          return (...a: unknown[]) => {
            entry.calls.push([key, ...a]);
            events.push(`${name}.${key}`);
            return typeof answer === "function" ? (answer as (...b: unknown[]) => unknown)(...a) : undefined;
          };
        },
      });
    };
  const of = (name: string) => log.filter((e) => e.name === name);
  return { log, events, words, maker, of };
});
vi.mock("../labs/read/sweep", () => ({ createSweep: made.maker("sweep", () => ({ headline: () => made.words.sweep })) }));
vi.mock("../labs/read/timeline", () => ({ createTimeline: made.maker("timeline", () => ({ headline: () => "" })) }));
vi.mock("../labs/read/run/charts", () => ({ createReadCharts: made.maker("charts") }));
vi.mock("../engine/sweep-runner", () => ({ createSweepRunner: made.maker("sweepRunner", () => ({ run: () => new Promise(() => undefined) })) }));
vi.mock("../labs/write", async () => {
  const { byId } = await import("../shared/dom");
  return {
    createWriteLab: made.maker("write", () => ({
      id: "write",
      elements: [byId("write-controls"), byId("write-results")],
      views: [],
      update: () => Promise.resolve(),
      enter: (view: string, params: object) => ({ params: { ...params, view }, note: null }),
      headline: () => "",
      charts: () => [],
      labelOf: (id: string) => id,
      peek: () => [],
    })),
  };
});
vi.mock("../panels/lessons", async () => {
  const { lessons } = await import("../engine/lessons");
  return { createLessons: made.maker("lessons", () => ({ order: lessons.map((l) => l.id), linkOf: (id: string) => lessons.find((l) => l.id === id)?.link ?? null })) };
});
vi.mock("../panels/glossary", () => ({
  createGlossary: made.maker("glossary", () => ({
    fill: (element: HTMLElement, text: string) => {
      element.textContent = text;
    },
  })),
}));
vi.mock("../panels/about", () => ({ createAbout: made.maker("about") }));
vi.mock("../panels/trace", () => ({ createTrace: made.maker("trace") }));
vi.mock("../panels/calibrate", () => ({ createCalibrate: made.maker("calibrate") }));
vi.mock("../engine/calibrate-runner", () => ({ createCalibrator: () => "the calibrator" }));
vi.mock("../panels/room", () => ({ createRoom: made.maker("room") }));
vi.mock("../panels/quiz", () => ({ createQuiz: made.maker("quiz") }));
vi.mock("../panels/code", () => ({ createCodePanel: made.maker("code") }));
vi.mock("../panels/native", () => ({ createNativeNote: made.maker("native") }));
vi.mock("../panels/export", () => ({ createExport: made.maker("export") }));
vi.mock("../panels/baseline", () => ({ createBaseline: made.maker("baseline") }));
vi.mock("../labs/read/compare", () => ({ createCompare: made.maker("compare") }));

// A part that never arrives fails its test within seconds (every part here arrives in milliseconds).
vi.setConfig({ testTimeout: 10_000 });

pagesOneAtATime();

beforeEach(() => {
  vi.resetModules();
  made.log.length = 0;
  made.events.length = 0;
  made.words.sweep = "";
});

afterEach(() => vi.restoreAllMocks());

/** A page on `link`, built from fresh modules: its later parts load once the test calls `startLaterParts`. */
async function open(link = "") {
  const { startPage } = await import("./page");
  const { startLaterParts } = await import("../shared/later");
  const page = await openPage(startPage, { link });
  return { ...page, startLaterParts };
}

/** `check`, once it passes (a part arrives after a paint and a dynamic import: milliseconds, seconds on a loaded machine). */
const soon = <T>(check: () => T) => vi.waitFor(check, { timeout: 5_000 });

/** The stood-in part `name`, once it has been made. */
const arrived = (name: string) =>
  soon(() => {
    expect(made.of(name)).toHaveLength(1);
    return made.of(name)[0]!;
  });

/** The last thing the part `name` was told to do `what` with. */
const lastCall = (name: string, what: string) => made.of(name)[0]!.calls.filter((c) => c[0] === what).at(-1);

/** What the read lab hands its sweep view. */
interface SweepOptions {
  onRun(): void;
  onCancel(): void;
  onChange(sweep: Sweep | null): void;
  onHeadline(): void;
  urlOf(fragment: string): string;
}

const sweepLink = "len=64K&cap=4K&sweep=cap&from=16&to=64K";

describe("the sweep view", () => {
  it("Cancel stops the sweep running, and the view and the status say so; Run sweeps the settings on screen again", async () => {
    const p = await open(sweepLink);
    expect(p.decoded.params.view).toBe("sweep");
    p.startLaterParts();
    const o = (await arrived("sweep")).args[1] as SweepOptions;
    const runner = await arrived("sweepRunner");
    expect(runner.calls.filter((c) => c[0] === "run")).toHaveLength(1);
    expect(p.activity()).toBe("Sweeping…");

    o.onCancel();
    await settle();
    expect(p.activity()).toBe("Sweep cancelled");
    expect((lastCall("sweep", "render")![1] as SweepShown).status).toBe("cancelled");
    expect(runner.calls.map((c) => c[0])).toContain("cancel");

    o.onRun();
    await settle();
    expect(p.activity()).toBe("Sweeping…");
    expect((lastCall("sweep", "render")![1] as SweepShown).status).toBe("running");
    const runs = runner.calls.filter((c) => c[0] === "run");
    expect(runs).toHaveLength(2);
    expect(runs[1]![1]).toEqual(p.decoded.params);
  });

  it("a new axis from the sweep's controls goes into the address bar and is swept", async () => {
    const p = await open(sweepLink);
    p.startLaterParts();
    const o = (await arrived("sweep")).args[1] as SweepOptions;
    const runner = await arrived("sweepRunner");
    o.onChange({ axis: "rs", from: 1, to: 4096 });
    await settle();
    expect(location.hash).toMatch(/&sweep=rs&from=1&to=4K/);
    const swept = lastCall("sweepRunner", "run")![1] as { sweep: Sweep };
    expect(swept.sweep).toMatchObject({ axis: "rs", from: 1, to: 4096 });
    expect(runner.calls.filter((c) => c[0] === "run")).toHaveLength(2);
    expect(p.activity()).toBe("Sweeping…");
  });

  it("its headline shows once its module has arrived, and again each time it changes", async () => {
    const p = await open(sweepLink);
    made.words.sweep = "Source reads fall as the buffer grows.";
    expect(byId("headline").textContent).toBe("");
    p.startLaterParts();
    const o = (await arrived("sweep")).args[1] as SweepOptions;
    await soon(() => expect(byId("headline").textContent).toBe("Source reads fall as the buffer grows."));
    made.words.sweep = "The knee is at 4 KiB.";
    o.onHeadline();
    expect(byId("headline").textContent).toBe("The knee is at 4 KiB.");
  });

  it("its exports carry their links as full addresses", async () => {
    const p = await open(sweepLink);
    p.startLaterParts();
    const o = (await arrived("sweep")).args[1] as SweepOptions;
    expect(o.urlOf("cap=1")).toBe(`${location.href.split("#")[0]}#cap=1`);
  });
});

describe("the timeline", () => {
  it("is handed the address bar's link and the step on screen; a step it moves to goes into the link, unmeasured; its start measures its starting settings", async () => {
    const p = await open("view=timeline&step=4");
    p.counts.resolve(countsOf(p.decoded.links.run));
    p.startLaterParts();
    const o = (await arrived("timeline")).args[1] as { link(): string; step(): number; onStep(step: number): void; onStart(): void };
    await settle();
    expect(o.link()).toBe(location.hash.slice(1));
    expect(o.step()).toBe(4);

    const asked = p.asked.length;
    o.onStep(7);
    await settle();
    expect(location.hash).toMatch(/&step=7/);
    expect(o.step()).toBe(7);
    expect(p.asked).toHaveLength(asked);

    const onScreen = realCodec.decodeLink(location.hash.slice(1)).params;
    o.onStart();
    const start = realCodec.links({ ...onScreen, ...TIMELINE_START, view: "timeline" });
    expect(p.asked.at(-1)!.args).toEqual([start.run, "counts"]);
    expect(location.hash).toBe(`#${start.link}`);
  });
});

describe("the run view's charts", () => {
  const link = "len=64K&cap=4096";
  /** The full measurement of `p`'s link, as the timing worker answers. */
  const fullOf = (run: string) => ({ report: { ...onNodeClock(() => realQuickRun(run)), stage: "full" } as LabReport, elapsedMs: 5 });

  it("the status says Done only once the charts have drawn the full measurement", async () => {
    const p = await open(link);
    p.engine({ type: "ready", info: { isolated: true } as never });
    p.counts.resolve(countsOf(p.decoded.links.run));
    await settle();
    const full = fullOf(p.decoded.links.run);
    p.asked.find((a) => a.client === "timer")!.answer.resolve(full);
    await settle();
    expect(p.activity()).toBe("Drawing…");
    p.startLaterParts();
    await arrived("charts");
    await soon(() => expect(p.activity()).toBe("Done"));
    expect(lastCall("charts", "update")![1]).toBe(full.report);
  });

  it("once the charts arrive, the export panel is told again (it offers one PNG per chart on screen)", async () => {
    const p = await open(link);
    p.startLaterParts();
    await arrived("export");
    const counts = countsOf(p.decoded.links.run);
    p.counts.resolve(counts);
    await arrived("charts");
    await settle();
    const afterCharts = made.events.slice(made.events.indexOf("charts"));
    expect(afterCharts).toContain("export.update");
    expect(lastCall("export", "update")![1]).toBe(counts.report);
  });

  it("a change of colour scheme re-themes the charts and the sweep's, once the switch is painted", async () => {
    const p = await open(link);
    p.counts.resolve(countsOf(p.decoded.links.run));
    p.startLaterParts();
    await arrived("charts");
    await arrived("sweep");
    expect(lastCall("charts", "retheme")).toBeUndefined();
    p.themeChanged();
    await soon(() => expect([lastCall("charts", "retheme"), lastCall("sweep", "retheme")]).toEqual([["retheme"], ["retheme"]]));
  });

  it("the export names readers as the read lab does and offers its four charts", async () => {
    const p = await open(link);
    p.startLaterParts();
    const o = (await arrived("export")).args[1] as { labelOf(r: LabReport): (id: string) => string; charts(): { title: string }[] };
    expect(o.labelOf({ lab: "read" } as LabReport)("std")).toBe(realCodec.schema.readers.find((r) => r.id === "std")!.label);
    const titles = [...byId("charts").querySelectorAll("figcaption")].map((f) => f.textContent);
    expect(titles).toHaveLength(4);
    expect(o.charts().map((c) => c.title)).toEqual(titles);
  });
});

describe("the panels and the page's listeners", () => {
  it("a term in a chart's title opens its glossary entry", async () => {
    const p = await open();
    p.startLaterParts();
    const term = byId("charts").querySelector<HTMLElement>("button.term[data-term]")!;
    term.click();
    await arrived("glossary");
    await soon(() => expect(lastCall("glossary", "open")).toEqual(["open", term.dataset["term"]]));
  });

  it("in presenter mode, PageDown opens the lessons' next lesson", async () => {
    const { lessons } = await import("../engine/lessons");
    const p = await open("present=on&lesson=one-byte");
    expect(p.decoded.params.present).toBe(true);
    press(document.body, "PageDown");
    await soon(() => expect(lastCall("lessons", "open")).toEqual(["open", lessons[1]!.id]));
    expect(lessons[0]!.id).toBe("one-byte");
  });

  it("a lesson's link with settings changed from the lesson's own asks the counts of its own link for its answer", async () => {
    const { lessons } = await import("../engine/lessons");
    const p = await open("lesson=one-byte&cap=512");
    const own = realCodec.decodeLink(lessons.find((l) => l.id === "one-byte")!.link.slice(1)).links.run;
    expect(own).not.toBe(p.decoded.links.run);
    expect(p.asked.map((a) => [a.client, a.args])).toEqual([["counter", [own, "counts"]]]);
  });

  it("a result file dropped before anything is timed is refused with a notice", async () => {
    await open();
    const drop = new Event("drop", { bubbles: true, cancelable: true });
    Object.defineProperty(drop, "dataTransfer", { value: { types: ["Files"], files: [new File(["{}"], "b.json")] } });
    byId("results").dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    await soon(() => expect(byId("notices").textContent).toContain("Measure A first: a result file is compared with the timed result on screen."));
  });

  it("the write lab's tab shows the write lab once it has arrived, and measures it", async () => {
    const p = await open();
    byId("lab-tab-write").click();
    await settle();
    expect(document.body.dataset["lab"]).toBe("read");
    p.startLaterParts();
    await arrived("write");
    await soon(() => expect(document.body.dataset["lab"]).toBe("write"));
    expect(location.hash).toMatch(/lab=write/);
    expect(byId("write-results").hidden).toBe(false);
    expect(p.asked.at(-1)!.args).toEqual([realCodec.links({ ...p.decoded.params, lab: "write" }).run, "counts"]);
  });

  it("the comparison on screen is handed the address of its comparison link", async () => {
    const p = await open("len=64K&rd=std&cap=1K&b.cap=64K");
    p.startLaterParts();
    await arrived("compare");
    await soon(() => expect((lastCall("compare", "update")?.[1] as { run: { url: string } | null }).run).not.toBeNull());
    const { run } = lastCall("compare", "update")![1] as { run: { url: string } };
    expect(run.url).toBe(location.href);
    expect(location.hash).toMatch(/b\.cap=64K/);
  });
});
