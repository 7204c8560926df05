// @vitest-environment happy-dom
// The render pieces against the page's own markup and the model's real
// states (state-fixtures.ts): each draws what the state says into its
// element, tells a lab or panel what it needs, and draws nothing again
// while its part of the state is unchanged.

import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Lab, LabReport, Params, View } from "../engine/types.gen";
import type { LabUi, SweepShown } from "../shared/lab";
import type { Later } from "../shared/later";
import { byId, loadPageMarkup } from "./dom-fixtures";
import { createLabSwitch } from "./lab-switch";
import type { Labs } from "./labs";
import type { Panels } from "./panels";
import {
  activityPiece,
  bodyPiece,
  comparePiece,
  formsPiece,
  headlinePiece,
  layoutPiece,
  lessonsPiece,
  panelsPiece,
  presenterPiece,
  quizPiece,
  resultsPiece,
  roomPiece,
} from "./render";
import type { AppState } from "./state";
import { codec, defaults, links, page, report, sweepReport } from "./state-fixtures";
import { createViewTabs } from "./view-tabs";

/** A part that has arrived. */
const arrived = <T>(part: T): Later<T> => Object.assign((use: (part: T) => void) => use(part), { now: part });

/** A lab that records what the page asks of it, over its elements of the page. */
function fakeLab(id: Lab, views: View[], elements: HTMLElement[]) {
  const calls: [string, ...unknown[]][] = [];
  const ui: LabUi = {
    id,
    elements,
    views,
    show: (params) => void calls.push(["show", params]),
    update: (r, timing) => {
      calls.push(["update", r, timing]);
      return Promise.resolve();
    },
    showView: (view) => void calls.push(["showView", view]),
    enter: (_view, params) => ({ params, note: null }),
    showSweep: (sweep) => void calls.push(["showSweep", sweep]),
    headline: (view) => `The ${id} lab's ${view} headline.`,
    fitted: () => undefined,
    retheme: () => undefined,
    charts: () => [],
    labelOf: (x) => x,
    peek: (r) => [`${id}: ${r.stage}`],
  };
  const of = (name: string) => calls.filter((c) => c[0] === name).map((c) => c.slice(1));
  return { ui, calls, of };
}

function makeLabs() {
  const read = fakeLab("read", ["run", "sweep", "timeline"], [byId("controls"), byId("read-results")]);
  const write = fakeLab("write", ["run"], [byId("write-controls"), byId("write-results")]);
  const labs: Labs = { read: arrived(read.ui), write: arrived(write.ui) };
  return { read, write, labs };
}

const writeLab: Params = { ...defaults, lab: "write" };
const swept: Params = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } };
/** Settles request `id` with a report of what it asked; `drawn`: its charts drawn. */
const answered = (p: ReturnType<typeof page>, id: number): LabReport => {
  p.answer(id);
  return p.state.shown[p.state.params.lab]!.report;
};

beforeEach(() => loadPageMarkup());

describe("the forms piece", () => {
  it("shows the params in every lab's form, the lab switch and the lab's view tabs, and again only when they change", () => {
    const { read, write, labs } = makeLabs();
    const forms = formsPiece(labs, createLabSwitch(byId("lab-switch"), codec, "settings results", () => undefined), createViewTabs(byId("view-tabs"), codec, () => undefined));
    const p = page(swept);
    forms.piece(p.state);
    expect(read.of("show")).toEqual([[swept]]);
    expect(write.of("show")).toEqual([[swept]]);
    expect(byId("lab-tab-read").getAttribute("aria-selected")).toBe("true");
    expect(byId("view-tab-sweep").getAttribute("aria-selected")).toBe("true");
    expect(byId("view-tab-timeline").hidden).toBe(false);
    forms.piece({ ...p.state });
    expect(read.of("show")).toHaveLength(1);
    const w = page(writeLab);
    forms.piece(w.state);
    expect(read.of("show")).toEqual([[swept], [writeLab]]);
    expect(byId("lab-tab-write").getAttribute("aria-selected")).toBe("true");
    expect(byId("view-tab-sweep").hidden).toBe(true);
    // A refused change puts the params shown back, whatever the piece drew last.
    forms.show(swept);
    expect(byId("lab-tab-read").getAttribute("aria-selected")).toBe("true");
    expect(write.of("show")).toHaveLength(3);
  });
});

describe("the body", () => {
  it("names the lab and the view on screen", () => {
    bodyPiece(page(swept).state);
    expect([document.body.dataset["lab"], document.body.dataset["view"]]).toEqual(["read", "sweep"]);
    bodyPiece(page(writeLab).state);
    expect([document.body.dataset["lab"], document.body.dataset["view"]]).toEqual(["write", "run"]);
  });

  it("an embed lists its charts and shows its terms as plain words; without one, no embed", () => {
    byId("headline").append(Object.assign(document.createElement("button"), { className: "term", textContent: "source read" }));
    bodyPiece(page({ ...defaults, embed: ["time", "reads"] } as unknown as Params).state);
    expect(document.body.dataset["embed"]).toBe("time reads");
    expect(byId("headline").querySelector("button")).toBeNull();
    expect(byId("headline").textContent).toBe("source read");
    bodyPiece(page().state);
    expect(document.body.dataset["embed"]).toBeUndefined();
  });

  it("hides the results while the quiz waits for its pick, not while a lesson's prediction does (that has its own look)", () => {
    bodyPiece(page().state);
    expect(document.body.classList.contains("quizzing")).toBe(false);
    bodyPiece(page({ ...defaults, quiz: true }).state);
    expect(document.body.classList.contains("quizzing")).toBe(true);
    bodyPiece(page({ ...defaults, quiz: true, predict: true, lesson: "one-byte" } as Params).state);
    expect(document.body.classList.contains("quizzing")).toBe(false);
  });
});

describe("the layout", () => {
  it("shows the open lab's elements only, in its view, and does nothing while both stay", () => {
    const { read, write, labs } = makeLabs();
    const layout = layoutPiece(labs);
    layout(page(writeLab).state);
    expect([byId("controls").hidden, byId("read-results").hidden, byId("write-controls").hidden, byId("write-results").hidden]).toEqual([true, true, false, false]);
    expect(write.of("showView")).toEqual([["run"]]);
    layout(page(swept).state);
    expect([byId("controls").hidden, byId("read-results").hidden, byId("write-controls").hidden, byId("write-results").hidden]).toEqual([false, false, true, true]);
    expect(read.of("showView")).toEqual([["sweep"]]);
    layout(page(swept).state);
    layout(page(defaults).state);
    expect(read.of("showView")).toEqual([["sweep"], ["run"]]);
  });
});

describe("the results", () => {
  it("gives the open lab each new report, timing while its times are coming, and says when it is drawn", async () => {
    const { read, labs } = makeLabs();
    const drawn: LabReport[] = [];
    const results = resultsPiece(labs, (r) => drawn.push(r));
    const p = page();
    results(p.state);
    expect(read.of("update")).toEqual([]);
    const mark = vi.spyOn(performance, "mark");
    const counts = answered(p, 1);
    results(p.state);
    expect(read.of("update")).toEqual([[counts, true]]);
    expect(mark).toHaveBeenCalledWith("buflab:counts-shown");
    await Promise.resolve();
    expect(drawn).toEqual([counts]);
    results({ ...p.state });
    expect(read.of("update")).toHaveLength(1);
    // Stop: the same report, its times no longer coming (and not shown anew).
    p.act({ type: "stop" });
    results(p.state);
    expect(read.of("update")).toEqual([[counts, true], [counts, false]]);
    expect(mark.mock.calls.filter(([name]) => name === "buflab:counts-shown")).toHaveLength(1);
    mark.mockClear();
    p.act({ type: "measure" });
    const full = answered(p, p.newest("counter").id);
    results(p.state);
    p.answerAll();
    const last = p.state.shown.read!.report;
    results(p.state);
    expect(read.of("update").slice(2)).toEqual([[full, true], [last, false]]);
    expect(last.stage).toBe("full");
    expect(mark.mock.calls.filter(([name]) => name === "buflab:counts-shown")).toHaveLength(1);
    mark.mockRestore();
  });

  it("a lab's report not on screen is never timing, nor marked", () => {
    const { read, write, labs } = makeLabs();
    const results = resultsPiece(labs, () => undefined);
    const p = page(writeLab);
    p.answerAll();
    results(p.state);
    expect(write.of("update").at(-1)![1]).toBe(false);
    const told = write.of("update").length;
    // To the read lab, whose full measurement is then on its way.
    p.edit(defaults);
    p.answer(p.newest("counter").id);
    expect(p.state.inFlight.map((r) => r.stage)).toEqual(["full"]);
    const mark = vi.spyOn(performance, "mark");
    results(p.state);
    expect(write.of("update")).toHaveLength(told);
    expect(read.of("update").at(-1)![1]).toBe(true);
    mark.mockRestore();
  });

  it("counts of other settings are not marked as shown, nor timed", () => {
    const { read, labs } = makeLabs();
    const results = resultsPiece(labs, () => undefined);
    const p = page();
    p.edit({ ...defaults, cap: 4096 });
    const mark = vi.spyOn(performance, "mark");
    // The opening's counts arrive after the settings moved on.
    const counts = report("counts", links(defaults).run);
    p.act({ type: "settled", id: 1, outcome: { kind: "report", report: counts, elapsedMs: 1 } });
    results(p.state);
    expect(read.of("update")).toEqual([[counts, false]]);
    expect(mark).not.toHaveBeenCalledWith("buflab:counts-shown");
    mark.mockRestore();
  });

  it("shows the lab its newest sweep, whether it is of the settings on screen, once per change", () => {
    const { read, labs } = makeLabs();
    const results = resultsPiece(labs, () => undefined);
    const p = page(swept);
    results(p.state);
    const sweep = p.state.sweep!;
    expect(read.of("showSweep")).toEqual([[{ ...sweep, current: true, compared: null }]]);
    results({ ...p.state });
    expect(read.of("showSweep")).toHaveLength(1);
    p.edit({ ...swept, cap: 4096 }, true);
    results(p.state);
    expect((read.of("showSweep")[1]![0] as SweepShown).current).toBe(false);
    p.act({ type: "sweepSettled", id: sweep.id, outcome: { kind: "cancelled" }, elapsedMs: 3 });
    results(p.state);
    expect((read.of("showSweep")[2]![0] as SweepShown).status).toBe("cancelled");
    results(page().state);
    expect(read.of("showSweep")[3]).toEqual([null]);
  });

  it("a new sweep, each point and each change of the comparison's status reach the lab, even when nothing else changed", () => {
    const { read, labs } = makeLabs();
    const results = resultsPiece(labs, () => undefined);
    const p = page(swept);
    results(p.state);
    const first = p.state.sweep!;
    // A new range: a new sweep, running with no points yet, like the one it replaces.
    const range = { ...swept, sweep: { axis: "cap", from: 64, to: 4096 } } as Params;
    p.act({ type: "sweepEdited", params: range, links: links(range) });
    expect(p.state.sweep!.id).not.toBe(first.id);
    results(p.state);
    expect((read.of("showSweep")[1]![0] as SweepShown).id).toBe(p.state.sweep!.id);
    const point = sweepReport(p.state.sweep!.fragment);
    p.act({ type: "sweepPoint", id: p.state.sweep!.id, report: point });
    results(p.state);
    expect((read.of("showSweep")[2]![0] as SweepShown).report).toBe(point);
    const compare = { id: 9, fragment: "#x", source: "link", file: null, fileA: null, status: "waiting", result: null, failure: null, retries: 0 } as const;
    results({ ...p.state, compare });
    results({ ...p.state, compare: { ...compare, status: "running" } });
    expect(read.of("showSweep").slice(3).map(([s]) => (s as SweepShown).compared?.status)).toEqual(["waiting", "running"]);
  });

  it("a comparison link shows no sweep comparison once its settings have no sweep", () => {
    const { read, labs } = makeLabs();
    const results = resultsPiece(labs, () => undefined);
    const p = page(swept);
    const compare = { id: 9, fragment: "#x", source: "link", file: null, fileA: null, status: "running", result: null, failure: null, retries: 0 } as const;
    results({ ...p.state, params: { ...p.state.params, sweep: null }, compare });
    expect(read.of("showSweep")[0]![0]).toMatchObject({ compared: null });
  });

  it("a comparison link with a sweep shows its comparison beside the sweep, and each change of it", () => {
    const { read, labs } = makeLabs();
    const results = resultsPiece(labs, () => undefined);
    const p = page(swept);
    const compare = { id: 9, fragment: "#x", source: "link", file: null, fileA: null, status: "running", result: null, failure: null, retries: 0 } as const;
    results({ ...p.state, compare });
    expect(read.of("showSweep")[0]![0]).toMatchObject({ compared: { status: "running", result: null, failure: null } });
    const sweeps = {};
    results({ ...p.state, compare: { ...compare, status: "done", result: { sweeps } as never } });
    expect(read.of("showSweep")[1]![0]).toMatchObject({ compared: { status: "done", result: sweeps } });
    results({ ...p.state, compare: { ...compare, status: "done", result: { sweeps } as never } });
    expect(read.of("showSweep")).toHaveLength(2);
    results({ ...p.state, compare: { ...compare, status: "done", result: { sweeps: {} } as never } });
    expect(read.of("showSweep")).toHaveLength(3);
    // A result file's comparison, or a link without a sweep, has none.
    results({ ...p.state, compare: { ...compare, source: "file" } });
    expect(read.of("showSweep")[3]![0]).toMatchObject({ compared: null });
    const q = page();
    results({ ...q.state, compare: { ...compare, status: "done", result: {} as never } });
    expect(read.of("showSweep")[4]).toEqual([null]);
  });
});

describe("the headline", () => {
  /** A glossary that arrives when `arrive` is called. */
  function glossary() {
    const waiting: (() => void)[] = [];
    const fills: [HTMLElement, string][] = [];
    let now: { fill(element: HTMLElement, text: string): void } | null = null;
    const later = Object.assign((use: (g: NonNullable<typeof now>) => void) => void waiting.push(() => use(now!)), {
      get now() {
        return now;
      },
    });
    Object.defineProperty(later, "now", { get: () => now });
    const arrive = () => {
      now = { fill: (element, text) => void fills.push([element, text]) };
      waiting.splice(0).forEach((run) => run());
    };
    return { glossary: later as unknown as Panels["glossary"], fills, waiting, arrive };
  }

  it("says the lab's headline for the view, then links its terms once the glossary has arrived, from the state of then", () => {
    const { labs } = makeLabs();
    const g = glossary();
    let current = page().state;
    const headline = headlinePiece(labs, g.glossary, { headline: byId("headline"), staleLine: byId("stale-note") }, () => current);
    headline(page(swept).state);
    expect(byId("headline").textContent).toBe("The read lab's sweep headline.");
    expect(g.waiting).toHaveLength(1);
    current = page(writeLab).state;
    g.arrive();
    expect(g.fills).toEqual([[byId("headline"), "The write lab's run headline."]]);
    headline(page(swept).state);
    expect(g.fills[1]).toEqual([byId("headline"), "The read lab's sweep headline."]);
  });

  it("an empty headline waits for no glossary", () => {
    const { labs, read } = makeLabs();
    read.ui.headline = () => "";
    const g = glossary();
    const headline = headlinePiece(labs, g.glossary, { headline: byId("headline"), staleLine: byId("stale-note") }, () => page().state);
    byId("headline").textContent = "old";
    headline(page().state);
    expect(byId("headline").textContent).toBe("");
    expect(g.waiting).toHaveLength(0);
  });

  it("the stale note shows under it while the results are of earlier settings and nothing measures the new ones", () => {
    const { labs } = makeLabs();
    const g = glossary();
    const p = page();
    const headline = headlinePiece(labs, g.glossary, { headline: byId("headline"), staleLine: byId("stale-note") }, () => p.state);
    p.answerAll();
    headline(p.state);
    expect(byId("stale-note").hidden).toBe(true);
    p.act({ type: "stop" });
    p.edit({ ...defaults, cap: 4096 });
    p.act({ type: "stop" });
    headline(p.state);
    expect(byId("stale-note").hidden).toBe(false);
    expect(byId("stale-note").textContent).toBe("These results are of earlier settings: Measure again measures the ones shown.");
    p.act({ type: "measure" });
    headline(p.state);
    expect(byId("stale-note").hidden).toBe(true);
    expect(byId("stale-note").textContent).toBe("");
  });
});

/** A panel that has arrived and records its updates. */
function recorder<T extends object>() {
  const seen: unknown[] = [];
  const panel = new Proxy({} as T, { get: (_t, name) => (...args: unknown[]) => void seen.push([name, ...args]) });
  return { later: arrived(panel), seen, panel };
}

describe("the lesson card, the room and the quiz", () => {
  it("the card is told the lesson, presenter mode, predict, the guess and the results, and the timeline's step only in the timeline", () => {
    const r = recorder<object>();
    const piece = lessonsPiece(r.later as unknown as Panels["lessons"]);
    const p = page({ ...defaults, lesson: "one-byte", predict: true, present: true, step: 3 } as unknown as Params);
    piece(p.state);
    expect(r.seen[0]).toEqual([
      "update",
      {
        lesson: "one-byte",
        present: true,
        predict: true,
        asking: true,
        guess: null,
        results: { report: null, sweep: null },
        answerComing: expect.any(Boolean),
        fragment: p.state.fragment,
        ended: false,
        step: null,
      },
    ]);
    piece({ ...p.state, view: "timeline", revealed: true });
    expect(r.seen[1]).toMatchObject(["update", { asking: false, step: 3 }]);
  });

  it("the room is drawn only in presenter mode with predict on and a lesson open, and told once when it goes", () => {
    const r = recorder<object>();
    const piece = roomPiece(r.later as unknown as Panels["room"]);
    const workshop = { ...defaults, lesson: "one-byte", predict: true, present: true } as unknown as Params;
    for (const params of [defaults, { ...workshop, present: false }, { ...workshop, predict: false }, { ...workshop, lesson: null }]) piece(page(params).state);
    expect(r.seen).toEqual([]);
    const p = page(workshop);
    const room = { ...p.state.room, cards: { 3: "B", 1: "A" }, hands: { A: 2, B: 0, C: 1, D: 0 } } as unknown as AppState["room"];
    piece({ ...p.state, room });
    expect(r.seen[0]).toEqual([
      "update",
      {
        shown: true,
        lesson: "one-byte",
        asking: true,
        camera: "off",
        cameraNote: null,
        answered: [1, 3],
        histogram: { A: 3, B: 1, C: 1, D: 0 },
        hands: { A: 2, B: 0, C: 1, D: 0 },
        results: { report: null, sweep: null },
      },
    ]);
    piece(page(defaults).state);
    expect(r.seen[1]).toMatchObject(["update", { shown: false, lesson: null }]);
    piece(page(defaults).state);
    expect(r.seen).toHaveLength(2);
  });

  it("the quiz is drawn only when the link asks for it, with its score, and told once when it goes", () => {
    const r = recorder<object>();
    const piece = quizPiece(r.later as unknown as Panels["quiz"]);
    piece(page().state);
    expect(r.seen).toEqual([]);
    const p = page({ ...defaults, quiz: true });
    const questions = [{ answer: 1 }, { answer: 2 }, { answer: 0 }];
    const quiz = { ...p.state.quiz, quiz: { questions } as never, picked: [1, 0], at: 2 };
    piece({ ...p.state, quiz });
    expect(r.seen[0]).toEqual(["update", { shown: true, quiz: quiz.quiz, failed: null, picked: [1, 0], at: 2, score: { right: 1, of: 3 } }]);
    piece(page().state);
    expect(r.seen[1]).toMatchObject(["update", { shown: false }]);
    piece(page().state);
    expect(r.seen).toHaveLength(2);
  });
});

describe("the panels about the settings and the report", () => {
  function make() {
    const names = ["code", "native", "calibrate", "exportTools", "baseline"] as const;
    const recorders = Object.fromEntries(names.map((n) => [n, recorder<object>()])) as Record<(typeof names)[number], ReturnType<typeof recorder>>;
    const embedBar: unknown[] = [];
    const embedCode: unknown[] = [];
    const panels = {
      ...Object.fromEntries(names.map((n) => [n, recorders[n].later])),
      embedBar: { update: (params: Params) => void embedBar.push(params) },
      embedCode: { update: (params: Params, view: View) => void embedCode.push([params, view]) },
    } as unknown as Panels;
    const piece = panelsPiece(panels, { shareTools: byId("share-tools"), baseline: byId("baseline"), calibrate: byId("calibrate") });
    return { piece, recorders, embedBar, embedCode };
  }

  it("the code and the native command show the single run's settings, without the sweep, outside the sweep view", () => {
    const s = make();
    const p = page(swept);
    s.piece(p.state);
    expect(s.recorders.code.seen).toEqual([["show", swept, p.state.fragment]]);
    expect(s.recorders.native.seen).toEqual([["show", swept, p.state.fragment]]);
    expect(s.recorders.calibrate.seen).toEqual([["show", swept]]);
    expect(s.embedBar).toEqual([swept]);
    expect(s.embedCode).toEqual([[swept, "sweep"]]);
    const run = { ...swept, view: "run" } as Params;
    const r = page(run);
    s.piece(r.state);
    expect(s.recorders.code.seen[1]).toEqual(["show", { ...run, sweep: null }, r.state.fragment]);
    expect(s.recorders.native.seen[1]).toEqual(["show", { ...run, sweep: null }, r.state.fragment]);
    expect(s.recorders.calibrate.seen[1]).toEqual(["show", run]);
    expect(s.embedCode[1]).toEqual([run, "run"]);
  });

  it("export and baselines are told of each new report on screen, once", () => {
    const s = make();
    const p = page();
    s.piece(p.state);
    expect(s.recorders.exportTools.seen).toEqual([["update", null]]);
    expect(s.recorders.baseline.seen).toEqual([["update", null]]);
    s.piece(p.state);
    expect(s.recorders.exportTools.seen).toHaveLength(1);
    const counts = answered(p, 1);
    s.piece(p.state);
    expect(s.recorders.exportTools.seen[1]).toEqual(["update", counts]);
    expect(s.recorders.baseline.seen[1]).toEqual(["update", counts]);
  });

  it("the share tools show in the single run's view; baselines and Calibrate in the read lab", () => {
    const s = make();
    s.piece(page().state);
    expect([byId("share-tools").hidden, byId("baseline").hidden, byId("calibrate").hidden]).toEqual([false, false, false]);
    s.piece(page(swept).state);
    expect([byId("share-tools").hidden, byId("baseline").hidden, byId("calibrate").hidden]).toEqual([true, false, false]);
    s.piece(page(writeLab).state);
    expect([byId("share-tools").hidden, byId("baseline").hidden, byId("calibrate").hidden]).toEqual([false, true, true]);
  });
});

describe("the comparison", () => {
  it("draws the read lab's comparison control with the run's link values, and again only when the comparison or the run changes", () => {
    const r = recorder<object>();
    const urls: string[] = [];
    const piece = comparePiece(
      r.later as unknown as Panels["compare"],
      (fragment) => (urls.push(fragment), `https://x.test/#${fragment}`),
      (link) => new Map([["cap", `${link.length}`]]),
    );
    const p = page();
    piece(p.state);
    const [name, drawn] = r.seen[0] as [string, { run: unknown; valueOf(key: string): string | undefined }];
    expect(name).toBe("update");
    expect(drawn.run).toBeNull();
    expect(drawn.valueOf("cap")).toBe(`${p.state.runFragment.length}`);
    expect(drawn.valueOf("size")).toBeUndefined();
    piece({ ...p.state });
    expect(r.seen).toHaveLength(1);
    const compare = { id: 4, fragment: "cmp", source: "file", file: "b.json", fileA: null, status: "done", result: { a: 1 }, failure: null, retries: 0 } as unknown as AppState["compare"];
    piece({ ...p.state, compare });
    expect((r.seen[1] as [string, { run: unknown }])[1].run).toEqual({ source: "file", file: "b.json", fileA: null, status: "done", result: { a: 1 }, failure: null, url: `https://x.test/#${p.state.fragment}` });
    p.edit({ ...defaults, cap: 4096 });
    piece({ ...p.state, compare });
    expect(r.seen).toHaveLength(3);
    piece(page(writeLab).state);
    expect(r.seen).toHaveLength(3);
  });
});

describe("presenter mode", () => {
  it("blanks the screen only in presenter mode, shows its looks when it changes, and re-themes the charts after a change", () => {
    const calls: unknown[] = [];
    const presenter = { blank: (on: boolean) => void calls.push(["blank", on]), show: (on: boolean) => void calls.push(["show", on]) } as unknown as Panels["presenter"];
    const piece = presenterPiece(presenter, () => void calls.push("retheme"));
    const off = page().state;
    const on = page({ ...defaults, present: true }).state;
    piece(off);
    expect(calls).toEqual([["blank", false], ["show", false]]);
    piece({ ...off, blank: true });
    expect(calls.slice(2)).toEqual([["blank", false]]);
    piece({ ...on, blank: true });
    expect(calls.slice(3)).toEqual([["blank", true], ["show", true], "retheme"]);
    piece(off);
    expect(calls.slice(6)).toEqual([["blank", false], ["show", false], "retheme"]);
  });

  it("a page that opens in presenter mode re-themes at once", () => {
    const calls: unknown[] = [];
    const presenter = { blank: () => undefined, show: (on: boolean) => void calls.push(["show", on]) } as unknown as Panels["presenter"];
    presenterPiece(presenter, () => void calls.push("retheme"))(page({ ...defaults, present: true }).state);
    expect(calls).toEqual([["show", true], "retheme"]);
  });
});

describe("the activity line's neighbours", () => {
  it("Stop while running, the placeholder's words, the results marked once in, and the phone bar's peek", () => {
    const { labs } = makeLabs();
    const running: boolean[] = [];
    const peeks: [AppState, unknown[]][] = [];
    const piece = activityPiece(labs, {
      setRunning: (r) => void running.push(r),
      peek: { update: (state, summary) => void peeks.push([state, summary]) },
      placeholder: byId("placeholder"),
      results: byId("results"),
    });
    const p = page();
    piece(p.state);
    expect(running).toEqual([true]);
    expect(byId("placeholder").textContent).toBe("The first measurement takes about a second; its results appear here.");
    expect(byId("results").classList.contains("has-report")).toBe(false);
    expect(peeks[0]).toEqual([p.state, []]);
    p.act({ type: "stop" });
    piece(p.state);
    expect(running[1]).toBe(false);
    expect(byId("placeholder").textContent).toBe("Stopped before any result. Press Measure again, or change a setting.");
    p.act({ type: "measure" });
    p.answerAll();
    piece(p.state);
    expect(byId("results").classList.contains("has-report")).toBe(true);
    expect(peeks[2]![1]).toEqual(["read: full"]);
  });
});
