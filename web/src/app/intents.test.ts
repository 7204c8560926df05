// @vitest-environment happy-dom
// What a person does, as the model's actions: each change goes with the
// links the real codec writes for it (none while the codec cannot write
// links), a change the engine refuses puts the forms back and says why, and
// a change of lab waits for the lab's module.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Codec } from "../engine/codec";
import type { Decoded, Lab, Params, Report, View } from "../engine/types.gen";
import type { LabUi } from "../shared/lab";
import type { Later } from "../shared/later";
import { createIntents } from "./intents";
import type { Labs } from "./labs";
import type { Action, AppState } from "./state";
import { codec as realCodec, decoded, defaults, links, page } from "./state-fixtures";

const files = vi.hoisted(() => ({ calls: [] as unknown[][] }));
vi.mock("./compare-files", () => ({
  compareFiles: (...args: unknown[]) => (files.calls.push(["files", ...args]), Promise.resolve()),
  compareSaved: (...args: unknown[]) => (files.calls.push(["saved", ...args]), Promise.resolve()),
}));

/** The real codec with some of its answers replaced. */
function codecWith(changes: Partial<Record<keyof Codec, unknown>>): Codec {
  const c = Object.create(realCodec) as Codec;
  for (const [key, value] of Object.entries(changes)) Object.defineProperty(c, key, { value });
  return c;
}

/** A lab whose module arrives when `arrive` is called (at once with `now`), or fails to. */
function labLater(ui: Partial<LabUi>, now = true) {
  const waiting: [() => void, (e: unknown) => void][] = [];
  const later = Object.assign(
    (use: (lab: LabUi) => void, failed?: (e: unknown) => void) => (now ? use(ui as LabUi) : void waiting.push([() => use(ui as LabUi), failed ?? (() => undefined)])),
    { now: now ? (ui as LabUi) : null },
  ) as unknown as Later<LabUi>;
  return { later, arrive: () => waiting.splice(0).forEach(([ok]) => ok()), fail: (e: unknown) => waiting.splice(0).forEach(([, no]) => no(e)) };
}

function make(options: { codec?: Codec; state?: AppState; write?: ReturnType<typeof labLater> } = {}) {
  const codec = options.codec ?? realCodec;
  let state = options.state ?? page().state;
  const fittedNotes: string[][] = [];
  const entered: [View, Params][] = [];
  const read = labLater({
    fitted: (notes) => void fittedNotes.push(notes),
    enter: (view, params) => (entered.push([view, params]), { params: view === "timeline" ? { ...params, cap: 64 } : params, note: view === "timeline" ? "capacity 64 B" : null }),
  });
  const write = options.write ?? labLater({ fitted: () => undefined });
  const labs: Labs = { read: read.later, write: write.later };
  const dispatched: Action[] = [];
  const shown: Params[] = [];
  const intents = createIntents({ codec, labs, state: () => state, dispatch: (a) => void dispatched.push(a), show: (p) => void shown.push(p) });
  return { intents, dispatched, shown, fittedNotes, entered, setState: (s: AppState) => (state = s), write };
}

const cap4k: Params = { ...defaults, cap: 4096 };
const swept: Params = { ...defaults, view: "sweep", sweep: { axis: "cap", from: 16, to: 65536 } };
const notReady = () => codecWith({ ready: false });
const refusing = (message: string) => codecWith({ links: () => { throw new Error(message); } });

beforeEach(() => (files.calls = []));
afterEach(() => vi.restoreAllMocks());

describe("a setting changed", () => {
  it("goes to the model with its links, and marks the change for the bench when the run changes", () => {
    const s = make();
    const mark = vi.spyOn(performance, "mark");
    s.intents.edit(cap4k, true);
    expect(s.dispatched).toEqual([{ type: "edited", params: cap4k, links: links(cap4k), live: true }]);
    expect(mark).toHaveBeenCalledWith("buflab:edited");
    mark.mockClear();
    // The settings on screen again: the same run.
    s.intents.edit(defaults, false);
    expect(s.dispatched[1]).toEqual({ type: "edited", params: defaults, links: links(defaults), live: false });
    expect(mark).not.toHaveBeenCalled();
  });

  it("goes without links while the codec cannot write them (the model holds it)", () => {
    const s = make({ codec: notReady() });
    const mark = vi.spyOn(performance, "mark");
    s.intents.edit(cap4k, false);
    expect(s.dispatched).toEqual([{ type: "edited", params: cap4k, links: null, live: false }]);
    expect(mark).not.toHaveBeenCalled();
  });

  it("refused by the engine: says why and puts the forms back to the settings on screen", () => {
    const s = make({ codec: refusing("cap: out of range") });
    s.intents.edit(cap4k, false);
    expect(s.dispatched).toEqual([{ type: "refused", message: "cap: out of range" }]);
    expect(s.shown).toEqual([defaults]);
  });

  it("with a sweep: the sweep fitted to the rest, its notes shown beside it", () => {
    const fit = { ...swept, sweep: { axis: "cap", from: 16, to: 1024 } } as Params;
    const s = make({
      state: page(swept).state,
      codec: codecWith({ fitSweep: (p: Params) => ({ params: p.cap === 4096 ? fit : p, notices: [{ key: "sweep", message: "cut to 1 KiB" }] }) }),
    });
    s.intents.edit({ ...swept, cap: 4096 }, false);
    expect(s.fittedNotes).toEqual([["sweep: cut to 1 KiB."]]);
    expect(s.dispatched).toEqual([{ type: "edited", params: fit, links: links(fit), live: false }]);
  });

  it("without a sweep, nothing is fitted and the lab's notes about fitting are left alone", () => {
    const s = make();
    s.intents.edit(cap4k, false);
    expect(s.fittedNotes).toEqual([]);
    const held = make({ state: page(swept).state, codec: notReady() });
    held.intents.edit(swept, false);
    expect(held.fittedNotes).toEqual([]);
  });

  it("a sweep that cannot be fitted (the rest invalid) is refused by the links' own reason", () => {
    const s = make({ codec: codecWith({ fitSweep: () => { throw new Error("fit"); }, links: () => { throw new Error("len: too long"); } }) });
    s.intents.edit(swept, false);
    expect(s.dispatched).toEqual([{ type: "refused", message: "len: too long" }]);
  });

  it("display-only settings go with their links, or are refused", () => {
    const s = make();
    const present = { ...defaults, present: true };
    s.intents.display(present);
    expect(s.dispatched).toEqual([{ type: "display", params: present, links: links(present) }]);
    const r = make({ codec: refusing("present: no") });
    r.intents.display(present);
    expect(r.dispatched).toEqual([{ type: "refused", message: "present: no" }]);
  });
});

describe("the sweep's range", () => {
  it("a new range goes fitted, with the rest of the settings on screen", () => {
    const s = make({ state: page(swept).state });
    const sweep = { axis: "cap", from: 64, to: 4096 } as Params["sweep"];
    s.intents.editSweep(sweep);
    const params = { ...swept, sweep };
    expect(s.dispatched).toEqual([{ type: "sweepEdited", params, links: links(params) }]);
    expect(s.fittedNotes).toEqual([[]]);
  });

  it("a range that cannot be fitted is refused and the forms put back", () => {
    const s = make({ state: page(swept).state, codec: codecWith({ fitSweep: () => { throw new Error("sweep: no such axis"); } }) });
    s.intents.editSweep({ axis: "cap", from: 1, to: 2 } as Params["sweep"]);
    expect(s.dispatched).toEqual([{ type: "refused", message: "sweep: no such axis" }]);
    expect(s.shown).toEqual([swept]);
  });

  it("refused links refuse the range", () => {
    const s = make({ state: page(swept).state, codec: refusing("sweep: to") });
    s.intents.editSweep(null);
    expect(s.dispatched).toEqual([{ type: "refused", message: "sweep: to" }]);
  });
});

describe("a view tab", () => {
  it("enters the view through the lab, which may bring its own settings and say so", () => {
    const s = make();
    const mark = vi.spyOn(performance, "mark");
    s.intents.chooseView("timeline");
    expect(s.entered).toEqual([["timeline", defaults]]);
    const params = { ...defaults, cap: 64 };
    expect(s.dispatched).toEqual([{ type: "viewChosen", view: "timeline", entered: { params, links: links(params), note: "capacity 64 B" } }]);
    expect(mark).toHaveBeenCalledWith("buflab:edited");
  });

  it("only the view: no mark, the same run", () => {
    const s = make();
    const mark = vi.spyOn(performance, "mark");
    s.intents.chooseView("run");
    expect(s.dispatched).toEqual([{ type: "viewChosen", view: "run", entered: { params: defaults, links: links(defaults), note: null } }]);
    expect(mark).not.toHaveBeenCalled();
  });

  it("before the codec can write links, goes bare (the model holds it)", () => {
    const s = make({ codec: notReady() });
    s.intents.chooseView("sweep");
    expect(s.dispatched).toEqual([{ type: "viewChosen", view: "sweep", entered: null }]);
    expect(s.entered).toEqual([]);
  });

  it("a view whose sweep cannot be fitted is refused by the links' own reason", () => {
    const s = make({ state: page(swept).state, codec: codecWith({ fitSweep: () => { throw new Error("fit"); }, links: () => { throw new Error("sweep: to"); } }) });
    s.intents.chooseView("timeline");
    expect(s.dispatched).toEqual([{ type: "refused", message: "sweep: to" }]);
  });

  it("refused: nothing but the refusal", () => {
    const s = make({ codec: refusing("view: no") });
    s.intents.chooseView("sweep");
    expect(s.dispatched).toEqual([{ type: "refused", message: "view: no" }]);
  });
});

describe("the lab switch", () => {
  it("changes lab once its module has arrived, as an edit", () => {
    const write = labLater({}, false);
    const s = make({ write });
    s.intents.chooseLab("write");
    expect(s.dispatched).toEqual([]);
    write.arrive();
    const params = { ...defaults, lab: "write" as Lab };
    expect(s.dispatched).toEqual([{ type: "edited", params, links: links(params), live: false }]);
  });

  it("a newer change of lab wins over one still waiting for its module", () => {
    const write = labLater({}, false);
    const s = make({ write });
    s.intents.chooseLab("write");
    s.intents.chooseLab("read");
    write.arrive();
    expect(s.dispatched).toEqual([{ type: "edited", params: { ...defaults, lab: "read" }, links: links(defaults), live: false }]);
  });

  it("a lab that cannot load is refused, saying which and why", () => {
    const write = labLater({}, false);
    const s = make({ write });
    s.intents.chooseLab("write");
    write.fail(new Error("offline"));
    expect(s.dispatched).toEqual([{ type: "refused", message: "The write lab could not be loaded: offline" }]);
  });
});

describe("a link read", () => {
  it("is loaded with its links once its lab has arrived, presenter mode and predict kept on", () => {
    const s = make({ state: page({ ...defaults, present: true, predict: true }).state });
    const read = decoded(cap4k);
    s.intents.loadLink(read);
    const params = { ...cap4k, present: true, predict: true };
    expect(s.dispatched).toEqual([{ type: "linkLoaded", link: { ...read, params }, links: links(params) }]);
  });

  it("waits for a write-lab link's module", () => {
    const write = labLater({}, false);
    const s = make({ write });
    s.intents.loadLink(decoded({ ...defaults, lab: "write" }));
    expect(s.dispatched).toEqual([]);
    write.arrive();
    expect(s.dispatched.map((a) => a.type)).toEqual(["linkLoaded"]);
  });

  it("one the counting build could not read whole is read again by the program build, or held until it can be", () => {
    const deferredLink = { ...decoded(defaults), deferred: "cap=4096" } as Decoded;
    const held = make({ codec: notReady() });
    held.intents.loadLink(deferredLink);
    expect(held.dispatched).toEqual([{ type: "linkLoaded", link: deferredLink, links: null }]);
    const s = make();
    s.intents.loadLink(deferredLink);
    const read = realCodec.decodeLink("cap=4096");
    expect(s.dispatched).toEqual([{ type: "linkLoaded", link: read, links: read.links }]);
    expect(read.params.cap).toBe(4096);
  });

  it("refused links are refused", () => {
    const s = make({ codec: refusing("cap: no") });
    s.intents.loadLink(decoded(cap4k));
    expect(s.dispatched).toEqual([{ type: "refused", message: "cap: no" }]);
  });
});

describe("Compare", () => {
  it("B is the settings on screen with one key changed, read and measured like any comparison link", () => {
    const s = make({ state: page(cap4k).state });
    s.intents.compareWith("cap", "16K");
    const [action] = s.dispatched as Extract<Action, { type: "linkLoaded" }>[];
    expect(action!.type).toBe("linkLoaded");
    expect(action!.link.compare?.fragment).toBe(realCodec.decodeLink(`${links(cap4k).run}&b.cap=16K`).compare?.fragment);
    expect(action!.link.compare?.fragment).toContain("b.cap=16K");
    expect(action!.link.notices).toEqual([]);
  });

  it("with no key, B is A (an A/A comparison); a value is written as a link value", () => {
    const s = make();
    s.intents.compareWith(null, "");
    const aa = (s.dispatched[0] as Extract<Action, { type: "linkLoaded" }>).link;
    expect(aa.compare?.fragment).toBe(realCodec.decodeLink(`${links(defaults).run}&b.v=${realCodec.schema.version}`).compare?.fragment);
    // The value stays one value of its key, never more keys: the engine refuses it as a seed, by name.
    s.intents.compareWith("seed", "7&cap=1");
    const odd = (s.dispatched[1] as Extract<Action, { type: "linkLoaded" }>).link;
    expect(odd.notices.map((n) => n.key)).toEqual(["b.seed"]);
    expect(odd.compare?.fragment).not.toContain("b.cap");
  });

  it("result files and saved baselines are paired by their own chunk, with the report on screen as A", async () => {
    const p = page();
    p.answerAll();
    const s = make({ state: p.state });
    const file = new File(["{}"], "b.json");
    s.intents.compareFiles([file]);
    await vi.waitFor(() => expect(files.calls).toHaveLength(1));
    const [kind, given, options] = files.calls[0] as [string, File[], { onScreen(): unknown; maxBytes: number; dispatch(a: Action): void }];
    expect([kind, given]).toEqual(["files", [file]]);
    expect(options.maxBytes).toBe(realCodec.schema.compare.max_result_bytes);
    expect(options.onScreen()).toBe(p.state.shown.read!.report);
    options.dispatch({ type: "compareClosed" });
    expect(s.dispatched).toEqual([{ type: "compareClosed" }]);
    const saved = { a: 1 } as unknown as Report;
    const onScreen = { b: 2 } as unknown as Report;
    s.intents.compareSaved("monday", saved, onScreen);
    await vi.waitFor(() => expect(files.calls).toHaveLength(2));
    expect(files.calls[1]!.slice(0, 4)).toEqual(["saved", "monday", saved, onScreen]);
  });

  it("no timed report on screen: a file has no A", async () => {
    const p = page();
    p.answer(1);
    const s = make({ state: p.state });
    s.intents.compareFiles([new File(["{}"], "b.json")]);
    await vi.waitFor(() => expect(files.calls).toHaveLength(1));
    expect((files.calls[0]![2] as { onScreen(): unknown }).onScreen()).toBeNull();
    const none = make({ state: page().state });
    none.intents.compareFiles([new File(["{}"], "b.json")]);
    await vi.waitFor(() => expect(files.calls).toHaveLength(2));
    expect((files.calls[1]![2] as { onScreen(): unknown }).onScreen()).toBeNull();
  });

  it("Close ends the comparison", () => {
    const s = make();
    s.intents.closeCompare();
    expect(s.dispatched).toEqual([{ type: "compareClosed" }]);
  });
});

describe("a held change made again", () => {
  it("each kind is made as it was first made", () => {
    const s = make({ state: page(swept).state });
    s.intents.replay({ kind: "edit", params: { ...swept, cap: 4096 }, live: true });
    s.intents.replay({ kind: "display", params: { ...swept, present: true } });
    s.intents.replay({ kind: "sweep", params: swept });
    s.intents.replay({ kind: "view", view: "run" });
    s.intents.replay({ kind: "link", link: decoded(cap4k) });
    expect(s.dispatched.map((a) => a.type)).toEqual(["edited", "display", "sweepEdited", "viewChosen", "linkLoaded"]);
    expect(s.dispatched[0]).toMatchObject({ live: true, params: { cap: 4096 } });
    expect(s.dispatched[1]).toMatchObject({ params: { present: true } });
    expect(s.dispatched[3]).toMatchObject({ view: "run" });
    expect(s.dispatched[4]).toMatchObject({ link: { params: { cap: 4096 } } });
  });
});
