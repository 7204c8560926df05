// @vitest-environment happy-dom
// The panels around the results, each made into its own element of the
// page's markup and handed what it needs: what each one's controls do
// reaches the model as the action it expects, or the intent; the parts
// after the first numbers load only then, a lesson's card at once.

import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Codec } from "../engine/codec";
import schema from "../engine/schema.gen.json";
import type { Lab, LabReport, Params } from "../engine/types.gen";
import type { LabUi } from "../shared/lab";
import { startLaterParts } from "../shared/later";
import { byId, loadPageMarkup } from "./dom-fixtures";
import type { Intents } from "./intents";
import { createPanels, type Panels } from "./panels";
import type { Action, AppState } from "./state";

/** Each panel module's `create…`: records what it was handed, and returns a panel that records what it is told. */
const made = vi.hoisted(() => {
  const log: { name: string; args: unknown[]; calls: unknown[][] }[] = [];
  const maker = (name: string) => (...args: unknown[]) => {
    const entry = { name, args, calls: [] as unknown[][] };
    log.push(entry);
    return new Proxy({ order: ["one-byte", "no-help"] } as Record<string, unknown>, {
      // Not a thenable: the panel is what its module's promise resolves to.
      get: (target, key) => (key in target || typeof key === "symbol" || key === "then" ? target[key as string] : (...a: unknown[]) => void entry.calls.push([key, ...a])),
    });
  };
  const of = (name: string) => log.filter((e) => e.name === name);
  return { log, maker, of };
});
vi.mock("../panels/lessons", () => ({ createLessons: made.maker("lessons") }));
vi.mock("../panels/about", () => ({ createAbout: made.maker("about") }));
vi.mock("../panels/trace", () => ({ createTrace: made.maker("trace") }));
vi.mock("../panels/calibrate", () => ({ createCalibrate: made.maker("calibrate") }));
vi.mock("../engine/calibrate-runner", () => ({ createCalibrator: () => "the calibrator" }));
vi.mock("../panels/room", () => ({ createRoom: made.maker("room") }));
vi.mock("../panels/quiz", () => ({ createQuiz: made.maker("quiz") }));
vi.mock("../panels/glossary", () => ({ createGlossary: made.maker("glossary") }));
vi.mock("../panels/code", () => ({ createCodePanel: made.maker("code") }));
vi.mock("../panels/native", () => ({ createNativeNote: made.maker("native") }));
vi.mock("../panels/export", () => ({ createExport: made.maker("export") }));
vi.mock("../panels/baseline", () => ({ createBaseline: made.maker("baseline") }));
vi.mock("../labs/read/compare", () => ({ createCompare: made.maker("compare") }));
vi.mock("../labs/read/compare/compare-export", () => ({
  comparisonCsv: (...args: unknown[]) => ["csv", ...args],
  comparisonMarkdown: (...args: unknown[]) => ["markdown", ...args],
}));
vi.mock("../panels/embed", () => ({ createEmbedBar: made.maker("embedBar"), createEmbedCode: made.maker("embedCode") }));
vi.mock("../panels/presenter", () => ({ createPresenterToggle: made.maker("presenter") }));

// A part that never arrives fails its test within seconds (every part here arrives in milliseconds).
vi.setConfig({ testTimeout: 5_000, hookTimeout: 5_000 });

const defaults = schema.defaults as unknown as Params;
const arrived = <T>(later: (use: (part: T) => void, failed: (e: unknown) => void) => void) => new Promise<T>((resolve, reject) => later(resolve, reject));

function make(params: Params = defaults, ready = true) {
  let state = { params, compare: null } as unknown as AppState;
  const dispatched: Action[] = [];
  const intents: unknown[][] = [];
  const record = (name: string) => (...args: unknown[]) => void intents.push([name, ...args]);
  const codec = {
    schema,
    ready,
    programLoaded: Promise.resolve(),
    encodeLink: (p: Params) => `cap=${p.cap}&embed=${p.embed.join("+")}`,
    links: (p: Params) => ({ link: `present=${p.present}&predict=${p.predict}` }),
    experimentPairs: (link: string) => new Map([["link", link]]),
    decodeLink: (link: string) => ({ params: { ...defaults, seed: link.length } }),
  } as unknown as Codec;
  const labs: Record<Lab, Partial<LabUi>> = {
    read: { labelOf: (id) => `read:${id}`, charts: () => ["read charts"] as never },
    write: { labelOf: (id) => `write:${id}`, charts: () => ["write charts"] as never },
  };
  const choices = () => Promise.resolve({} as never);
  const panels = createPanels({
    codec,
    state: () => state,
    dispatch: (a) => void dispatched.push(a),
    intents: { edit: record("edit"), display: record("display"), compareSaved: record("compareSaved"), compareWith: record("compareWith"), compareFiles: record("compareFiles"), closeCompare: record("closeCompare") } as unknown as Intents,
    labOf: (id) => labs[id] as LabUi,
    results: byId("results"),
    lessonChoices: choices,
  });
  return { panels, dispatched, intents, codec, choices, setState: (s: Partial<AppState>) => (state = { ...state, ...s }) };
}

/** The options the panel `name` was first made with since the log was cleared. */
const options = <T = Record<string, (...args: never[]) => unknown>>(name: string): T => made.of(name)[0]!.args.at(-1) as T;

beforeAll(() => loadPageMarkup());

describe("before the first numbers", () => {
  it("a lesson's link loads its card at once; the other parts wait", async () => {
    const lesson = make({ ...defaults, lesson: "one-byte" });
    await arrived(lesson.panels.lessons);
    expect(made.of("lessons")).toHaveLength(1);
    const none = make();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(none.panels.lessons.now).toBeNull();
    expect(made.of("lessons")).toHaveLength(1);
    expect(made.log.map((e) => e.name).filter((n) => !["embedBar", "embedCode", "presenter"].includes(n))).toEqual(["lessons"]);
  });

  it("the embed bar, the embed code and presenter mode come with the page, each in its element", () => {
    make();
    expect(made.of("embedBar").at(-1)!.args[0]).toBe(byId("embed-bar"));
    expect(made.of("embedCode").at(-1)!.args[0]).toBe(byId("embed-share"));
    expect(made.of("presenter").at(-1)!.args[0]).toBe(byId("present"));
  });
});

/**
 * A page whose later parts have all arrived, each made (and logged) alone:
 * made in the test itself, so that what the test checks is what this page made.
 */
async function madeAfterFirstNumbers() {
  // The parts the pages made before load now; this page's are logged alone.
  startLaterParts();
  await new Promise((resolve) => setTimeout(resolve, 50));
  made.log.length = 0;
  const s = make();
  const p: Panels = s.panels;
  await Promise.all([arrived(p.lessons), arrived(p.room), arrived(p.quiz), arrived(p.glossary), arrived(p.code), arrived(p.native), arrived(p.calibrate), arrived(p.trace), arrived(p.exportTools), arrived(p.baseline), arrived(p.compare)]);
  await vi.waitFor(() => expect(made.of("about")).toHaveLength(1));
  return s;
}

describe("the parts after the first numbers", () => {
  let s: ReturnType<typeof make>;
  beforeEach(async () => {
    s = await madeAfterFirstNumbers();
  });

  it("each is made once, into its own element of the page", () => {
    const elements = Object.fromEntries(made.log.map((e) => [e.name, e.args[0]]));
    expect(elements).toMatchObject({
      about: byId("about"),
      trace: byId("trace"),
      calibrate: byId("calibrate"),
      room: byId("room"),
      quiz: byId("quiz"),
      glossary: byId("glossary"),
      code: byId("code"),
      native: byId("native"),
      export: byId("export"),
      baseline: byId("baseline"),
      compare: byId("compare"),
    });
    expect(made.log.map((e) => e.name).sort()).toEqual(["about", "baseline", "calibrate", "code", "compare", "embedBar", "embedCode", "export", "glossary", "lessons", "native", "presenter", "quiz", "room", "trace"]);
    expect(made.of("code")[0]!.args[1]).toBe(s.codec);
  });

  it("the lessons: their menu, card and start in the page, a guess and Reveal to the model, the log opened in the trace panel", () => {
    const o = options<{ menu: Element; card: Element; start: Element; results: Element; codec: Codec; guessed(g: unknown): void; reveal(): void; openLog(): void }>("lessons");
    expect([o.menu, o.card, o.start, o.results, o.codec]).toEqual([byId("lessons-menu"), byId("lesson-card"), byId("lesson-start"), byId("results"), s.codec]);
    o.guessed("A");
    o.reveal();
    expect(s.dispatched).toEqual([{ type: "guessed", guess: "A" }, { type: "reveal" }]);
    const scrolled = vi.fn();
    byId("trace").scrollIntoView = scrolled;
    o.openLog();
    expect(made.of("trace")[0]!.calls).toEqual([["openShipped"]]);
    expect(scrolled).toHaveBeenCalledWith({ block: "start" });
    s.dispatched.length = 0;
  });

  it("the room: Scan, Stop and hands to the model; the choices asked of the engine", () => {
    const o = options<{ scan(): void; stop(): void; hands(l: string, n: number): void; choices: unknown }>("room");
    o.scan();
    o.stop();
    o.hands("B", 3);
    expect(s.dispatched).toEqual([
      { type: "room", action: { kind: "scan" } },
      { type: "room", action: { kind: "stop" } },
      { type: "room", action: { kind: "hands", letter: "B", count: 3 } },
    ]);
    expect(o.choices).toBe(s.choices);
    s.dispatched.length = 0;
  });

  it("the quiz: a pick, Next and Again to the model; its links as full URLs", () => {
    const o = options<{ pick(c: number): void; next(): void; again(): void; urlOf(f: string): string }>("quiz");
    o.pick(2);
    o.next();
    o.again();
    expect(s.dispatched).toEqual([
      { type: "quiz", action: { kind: "pick", choice: 2 } },
      { type: "quiz", action: { kind: "next" } },
      { type: "quiz", action: { kind: "again" } },
    ]);
    expect(o.urlOf("cap=1")).toBe(`${location.href.split("#")[0]}#cap=1`);
    s.dispatched.length = 0;
  });

  it("Calibrate: the schema, the calibrator, the settings on screen, and a measured sys used as an edit", () => {
    const o = options<{ schema: unknown; calibrate: unknown; params(): Params; use(sys: number): void }>("calibrate");
    expect([o.schema, o.calibrate, o.params()]).toEqual([schema, "the calibrator", defaults]);
    o.use(321);
    expect(s.intents).toEqual([["edit", { ...defaults, sys: 321, sys_source: "opfs" }, false]]);
    s.intents.length = 0;
  });

  it("the trace panel names readers as the read lab does, and links as full URLs", () => {
    const o = options<{ labelOf(id: string): string; urlOf(f: string): string }>("trace");
    expect(o.labelOf("std")).toBe("read:std");
    expect(o.urlOf("x=1")).toMatch(/#x=1$/);
  });

  it("export: the report's own link, its lab's names, the charts on screen", () => {
    const o = options<{ link(r: LabReport): string; labelOf(r: LabReport): (id: string) => string; charts(): unknown; compared(r: LabReport): unknown }>("export");
    expect(o.link({ link: "cap=8" } as LabReport)).toMatch(/#cap=8$/);
    expect(o.labelOf({ lab: "write" } as LabReport)("vec")).toBe("write:vec");
    expect(o.charts()).toEqual(["read charts"]);
    s.setState({ params: { ...defaults, lab: "write" } });
    expect(o.charts()).toEqual(["write charts"]);
    s.setState({ params: defaults });
  });

  it("export with a finished comparison: both links, the comparison link's own, and its CSV and Markdown from the comparison's code", async () => {
    const o = options<{ compared(r: LabReport): null | { a: string; b: string; both: string | null; comparison: unknown; csv(): Promise<unknown>; markdown(): Promise<unknown> } }>("export");
    const read = { lab: "read" } as LabReport;
    expect(o.compared(read)).toBeNull();
    const result = { a: { link: "a=1" }, b: { link: "b=1" } };
    const compare = { status: "done", source: "link", fragment: "a=1&b.x=1", result };
    s.setState({ compare: { ...compare, status: "running" } as never });
    expect(o.compared(read)).toBeNull();
    s.setState({ compare: compare as never });
    expect(o.compared({ lab: "write" } as LabReport)).toBeNull();
    const both = o.compared(read)!;
    expect([both.a, both.b, both.both, both.comparison]).toEqual([expect.stringMatching(/#a=1$/), expect.stringMatching(/#b=1$/), expect.stringMatching(/#a=1&b.x=1$/), result]);
    const links = { a: both.a, b: both.b, both: both.both };
    expect(await both.csv()).toEqual(["csv", result, links]);
    const [word, r, l, labelOf] = (await both.markdown()) as [string, unknown, unknown, (id: string) => string];
    expect([word, r, l, labelOf("std")]).toEqual(["markdown", result, links, "read:std"]);
    s.setState({ compare: { ...compare, source: "file" } as never });
    expect(o.compared(read)!.both).toBeNull();
    s.setState({ compare: null });
  });

  it("baselines: names and links as the read lab's, the engine's pairs and params, and Compare as the comparison view", () => {
    const o = options<{ labelOf(id: string): string; urlOf(f: string): string; pairsOf(l: string): Map<string, string>; paramsOf(l: string): Params; compareWith(base: { report: unknown }, name: string, report: unknown): void }>("baseline");
    expect(o.labelOf("std")).toBe("read:std");
    expect(o.urlOf("q=1")).toMatch(/#q=1$/);
    expect(o.pairsOf("abc").get("link")).toBe("abc");
    expect(o.paramsOf("abcd").seed).toBe(4);
    o.compareWith({ report: "saved" }, "monday", "now");
    expect(s.intents).toEqual([["compareSaved", "monday", "saved", "now"]]);
    s.intents.length = 0;
  });

  it("the comparison control: Compare, files and Close as intents", () => {
    const o = options<{ schema: unknown; labelOf(id: string): string; onCompare(k: string, v: string): void; onFiles(f: File[]): void; onClose(): void }>("compare");
    expect(o.schema).toBe(schema);
    expect(o.labelOf("std")).toBe("read:std");
    o.onCompare("cap", "16K");
    o.onFiles([]);
    o.onClose();
    expect(s.intents).toEqual([["compareWith", "cap", "16K"], ["compareFiles", []], ["closeCompare"]]);
    s.intents.length = 0;
  });

  it("the embed bar links to the full page without the embed, once links can be written; the embed code to its own link", () => {
    const [, fullPage, isolated] = made.of("embedBar")[0]!.args as [unknown, (p: Params) => string | null, () => boolean];
    expect(fullPage({ ...defaults, cap: 64, embed: ["time"] } as Params)).toMatch(/#cap=64&embed=$/);
    // The embed bar asks the page itself whether it is isolated, each time.
    vi.stubGlobal("crossOriginIsolated", true);
    expect(isolated()).toBe(true);
    vi.stubGlobal("crossOriginIsolated", false);
    expect(isolated()).toBe(false);
    vi.unstubAllGlobals();
    const [, embedUrl] = made.of("embedCode")[0]!.args as [unknown, (p: Params) => string];
    expect(embedUrl({ ...defaults, cap: 64, embed: ["time"] } as Params)).toMatch(/#cap=64&embed=time$/);
    make(defaults, false);
    const [, notYet] = made.of("embedBar").at(-1)!.args as [unknown, (p: Params) => string | null];
    expect(notYet(defaults)).toBeNull();
  });

  it("presenter mode: the toggle as a display change, the students' link asking first, and a workshop on the open lesson or the first", async () => {
    const o = options<{ toggle(on: boolean): void; studentsLink(): string; startWorkshop(): void }>("presenter");
    o.toggle(true);
    expect(s.intents).toEqual([["display", { ...defaults, present: true }]]);
    s.setState({ params: { ...defaults, present: true } });
    expect(o.studentsLink()).toMatch(/#present=false&predict=true$/);
    s.intents.length = 0;
    s.setState({ params: defaults });
    o.startWorkshop();
    expect(s.intents).toEqual([["display", { ...defaults, present: true, predict: true }]]);
    await vi.waitFor(() => expect(made.of("lessons")[0]!.calls).toEqual([["open", "one-byte"]]));
    s.setState({ params: { ...defaults, lesson: "no-help" } });
    o.startWorkshop();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(made.of("lessons")[0]!.calls).toEqual([["open", "one-byte"]]);
  });
});
