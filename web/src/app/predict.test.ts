import { describe, expect, it } from "vitest";
import { realCodec } from "../engine/real-engine";
import schema from "../engine/schema.gen.json";
import type { Decoded, LabReport, LessonId, Params, SweepReport } from "../engine/types.gen";
import { answerOf as answerIn } from "../panels/lessons/answer";
import { guessFeedback } from "../panels/lessons/words";
import { lessons } from "../engine/lessons";
import { activityText, initialState, keepWorkshop, lessonAnswerComing, lessonResults, lessonStep, opening, predicting, update, type AppState, type Effect, type Links } from "./state";

/** The answer the lesson card shows for the page in `state`. */
const answerOf = (answer: Parameters<typeof answerIn>[0], state: AppState) => answerIn(answer, lessonResults(state));

const defaults = schema.defaults as unknown as Params;
const ORDER: LessonId[] = ["one-byte", "no-help", "async-bufreader"];
const codec = realCodec();
/** Links as the page writes them: the engine's codec. */
const linksOf = (p: Params): Links => codec.links(p);
/** `p` as a link decodes to it. */
const decoded = (p: Params): Decoded => ({ params: p, notices: [], fragment: linksOf(p).link, links: linksOf(p) });
function stateWith(p: Partial<Params>): AppState {
  const params = { ...defaults, ...p };
  return update(initialState(decoded(params), codec), { type: "codecReady" }).state;
}
const loaded = (state: AppState, p: Partial<Params>): AppState => {
  const params = { ...defaults, ...p };
  return update(state, { type: "linkLoaded", link: decoded(params), links: linksOf(params) }).state;
};

describe("predict, then reveal (the model)", () => {
  it("hides the answer only with predict on and a lesson open, until Reveal", () => {
    expect(predicting(stateWith({ predict: true, lesson: "one-byte" }))).toBe(true);
    expect(predicting(stateWith({ predict: false, lesson: "one-byte" }))).toBe(false);
    expect(predicting(stateWith({ predict: true, lesson: null }))).toBe(false);
    const revealed = update(stateWith({ predict: true, lesson: "one-byte" }), { type: "reveal" }).state;
    expect(predicting(revealed)).toBe(false);
  });

  it("forward reveals first, then opens the next lesson; back opens the previous one", () => {
    const s = stateWith({ predict: true, lesson: "no-help" });
    const first = update(s, { type: "forward", order: ORDER });
    expect(first.state.revealed).toBe(true);
    expect(first.effects).toEqual([]);
    const second = update(first.state, { type: "forward", order: ORDER });
    expect(second.effects).toEqual([{ type: "openLesson", id: "async-bufreader" }]);
    expect(update(s, { type: "back", order: ORDER }).effects).toEqual([{ type: "openLesson", id: "one-byte" }]);
    // Without predict, forward goes straight on; at either end, nothing happens.
    expect(update(stateWith({ lesson: "one-byte" }), { type: "forward", order: ORDER }).effects).toEqual([{ type: "openLesson", id: "no-help" }]);
    expect(update(stateWith({ lesson: "async-bufreader" }), { type: "forward", order: ORDER }).effects).toEqual([]);
    expect(update(stateWith({ lesson: "one-byte" }), { type: "back", order: ORDER }).effects).toEqual([]);
    expect(lessonStep(stateWith({ lesson: null }), ORDER, 1)).toBeNull();
  });

  it("a new lesson asks its question again; reloading the same lesson keeps the reveal and the guess", () => {
    let s = stateWith({ predict: true, lesson: "one-byte" });
    s = update(s, { type: "guessed", guess: 200 }).state;
    s = update(s, { type: "reveal" }).state;
    expect(loaded(s, { predict: true, lesson: "one-byte" })).toMatchObject({ revealed: true, guess: 200 });
    expect(loaded(s, { predict: true, lesson: "no-help" })).toMatchObject({ revealed: false, guess: null });
    expect(update(s, { type: "guessed", guess: Number.NaN }).state.guess).toBeNull();
  });

  it("presenter mode and predict stay on when a link is opened from inside the page, and never switch on by themselves", () => {
    const lessonLink = { ...defaults, lesson: "no-help" as const };
    expect(keepWorkshop({ ...defaults, present: true, predict: true }, lessonLink)).toMatchObject({ present: true, predict: true, lesson: "no-help" });
    expect(keepWorkshop({ ...defaults, present: true }, lessonLink)).toMatchObject({ present: true, predict: false });
    expect(keepWorkshop(defaults, lessonLink)).toMatchObject({ present: false, predict: false });
    expect(keepWorkshop(defaults, { ...lessonLink, present: true })).toMatchObject({ present: true });
  });
});

describe("the answer on screen", () => {
  const withReport = (p: Partial<Params>, report: object): AppState => {
    const s = stateWith(p);
    const sent = update(s, { type: "measure" });
    const id = sent.state.inFlight[0]!.id;
    const fragment = sent.state.inFlight[0]!.fragment;
    return update(sent.state, { type: "settled", id, outcome: { kind: "report", report: { stage: "counts", link: fragment, ...report } as unknown as LabReport, elapsedMs: 1 } }).state;
  };

  it("reads a reader's count, a flavour's count, or a finished sweep's knee, and nothing before they are in", () => {
    const read = withReport({ lesson: "async-bufreader" }, { lab: "read", runs: [{ reader: "std", source_reads: 3641 }, { reader: "tokio", source_reads: 3641 }] });
    expect(answerOf({ kind: "read", reader: "std", field: "source_reads" }, read)).toBe(3641);
    expect(answerOf({ kind: "read", reader: "chained", field: "source_reads" }, read)).toBeNull();
    expect(answerOf({ kind: "read", reader: "std", field: "source_reads" }, stateWith({}))).toBeNull();
    const write = withReport({ lab: "write" }, { lab: "write", flavours: [{ flavour: "cursor_vec", reallocs: 12 }] });
    expect(answerOf({ kind: "write", flavour: "cursor_vec", field: "reallocs" }, write)).toBe(12);
    // The application reads one fill of a buffer serves, from the reader's timeline: fills at steps 1 and 33, 32 reads.
    const op = (fill: boolean) => ({ source_reads: fill ? 1 : 0, bypass: false, reads: fill ? [{ block: 0 }] : [] });
    const ops = Array.from({ length: 40 }, (_, i) => op(i === 0 || i === 32));
    const traced = withReport({}, { lab: "read", runs: [{ reader: "std", source_reads: 9, timeline: { ops } }] });
    expect(answerOf({ kind: "fill_serves", reader: "std" }, traced)).toBe(32);
    // One fill in view: no answer to give.
    const once = withReport({}, { lab: "read", runs: [{ reader: "std", source_reads: 9, timeline: { ops: ops.slice(0, 30) } }] });
    expect(answerOf({ kind: "fill_serves", reader: "std" }, once)).toBeNull();
    // The lesson's answer is its own link's: settings moved since, and their report, do not change it.
    const edited = update(read, { type: "edited", params: { ...read.params, cap: 64 }, links: linksOf({ ...read.params, cap: 64 }), live: false });
    expect(answerOf({ kind: "read", reader: "std", field: "source_reads" }, edited.state)).toBe(3641);
    const other = edited.state.inFlight.find((r) => r.stage === "counts")!;
    const measuredOther = update(edited.state, {
      type: "settled",
      id: other.id,
      outcome: { kind: "report", report: { stage: "counts", link: other.fragment, lab: "read", runs: [{ reader: "std", source_reads: 16385 }] } as unknown as LabReport, elapsedMs: 1 },
    }).state;
    expect(answerOf({ kind: "read", reader: "std", field: "source_reads" }, measuredOther)).toBe(3641);
    // Without a lesson, a report of other settings is no answer.
    const plain = withReport({}, { lab: "read", runs: [{ reader: "std", source_reads: 129 }] });
    const moved = update(plain, { type: "edited", params: { ...plain.params, cap: 64 }, links: linksOf({ ...plain.params, cap: 64 }), live: false }).state;
    expect(answerOf({ kind: "read", reader: "std", field: "source_reads" }, moved)).toBeNull();
    // A lesson whose own results never came has no answer yet.
    expect(answerOf({ kind: "read", reader: "std", field: "source_reads" }, stateWith({ lesson: "one-byte" }))).toBeNull();

    const sweepParams = { ...defaults, view: "sweep" as const, sweep: { axis: "cap", from: 16, to: 65536 } as Params["sweep"] };
    let s = update(initialState(decoded(sweepParams), codec), { type: "codecReady" }).state;
    const started = update(s, { type: "sweepRun" });
    s = started.state;
    const knee = { kind: "knee", reader: "std", metric: "source_reads", across: null } as const;
    const report = {
      complete: false,
      knees: [
        { reader: "std", metric: "source_reads", value: 512 },
        // A two-axis sweep's knees carry their column.
        { reader: "std", metric: "source_reads", value: 1024, across: 1024 },
      ],
    } as unknown as SweepReport;
    s = update(s, { type: "sweepPoint", id: s.sweep!.id, report }).state;
    expect(answerOf(knee, s)).toBeNull();
    s = update(s, { type: "sweepSettled", id: s.sweep!.id, outcome: { kind: "done", report: { ...report, complete: true } }, elapsedMs: 1 }).state;
    expect(answerOf(knee, s)).toBe(512);
    expect(answerOf({ ...knee, across: 1024 }, s)).toBe(1024);
    expect(answerOf({ ...knee, across: 64 }, s)).toBeNull();
  });

  it("says how far a guess was", () => {
    expect(guessFeedback(3641, 3641)).toBe("Exactly right: 3,641.");
    expect(guessFeedback(3000, 3641)).toBe("Your guess, 3,000, is 641 off: 18% too low.");
    expect(guessFeedback(129, 1_048_577)).toBe("Your guess, 129, is 1,048,448 off: 8,129× too low.");
    expect(guessFeedback(1000, 512)).toBe("Your guess, 1,000, is 488 off: 95% too high.");
  });
});

describe("a lesson's link opened cold with its settings changed", () => {
  const lesson = lessons.find((l) => l.id === "one-byte")!;
  const own = codec.decodeLink(lesson.link);
  const question = lesson.question.answer;
  /** What the counting worker says std made for `fragment`: 129 source reads on the lesson's own 8 KiB buffer, 16,385 on a 64-byte one. */
  const counted = (fragment: string): LabReport =>
    ({ stage: "counts", lab: "read", link: fragment, runs: [{ reader: "std", source_reads: fragment.includes("cap=64&") ? 16385 : 129 }] }) as unknown as LabReport;
  const runsOf = (effects: Effect[]) => effects.filter((e): e is Extract<Effect, { type: "run" }> => e.type === "run");
  /** A page opened cold on `link` (a student scanning a handout's "Then try", say), its opening counts in. */
  const cold = (link: string): AppState => {
    let s = opening(initialState(codec.decodeLink(link), codec)).state;
    s = update(update(s, { type: "engineReady", isolated: true }).state, { type: "codecReady" }).state;
    const first = s.inFlight.find((r) => r.stage === "counts")!;
    return update(s, { type: "settled", id: first.id, outcome: { kind: "report", report: counted(first.fragment), elapsedMs: 1 } }).state;
  };

  it("answers the lesson's question from the lesson's own link, counted beside the changed settings, never from the changed link's results", () => {
    const changed = lesson.link.replace("cap=8K", "cap=64");
    expect(changed).not.toBe(lesson.link);
    let s = update(cold(changed), { type: "reveal" }).state;
    expect(s.shown.read?.fragment).toBe(codec.decodeLink(changed).links.run);
    // Once the page knows the lesson's own link, its counts are asked, and the changed link's 16,385 is no answer meanwhile.
    const step = update(s, { type: "lessonLink", link: own });
    expect(answerOf(question, step.state)).toBeNull();
    const asked = runsOf(step.effects);
    expect(asked).toMatchObject([{ stage: "counts", fragment: own.links.run, lab: "read", counts: null }]);
    // Out as exact counts on the counting worker (what Stop ends, what a timed stage of that link would wait for).
    expect(step.state.inFlight.find((r) => r.id === asked[0]!.id)).toMatchObject({ stage: "counts", worker: "counter", lesson: true });
    s = step.state;
    s = update(s, { type: "settled", id: asked[0]!.id, outcome: { kind: "report", report: counted(asked[0]!.fragment), elapsedMs: 1 } }).state;
    expect(answerOf(question, s)).toBe(129);
    // The settings on screen keep their own results, and say nothing of the lesson's run.
    expect(s.shown.read?.fragment).toBe(codec.decodeLink(changed).links.run);
    expect(activityText(s)).not.toMatch(/earlier settings/);
  });

  it("a sweep's lesson opened with other settings says its answer is not measured here (nothing sweeps its own link), until it is loaded again", () => {
    const knee = lessons.find((l) => l.id === "knee-grid")!;
    const ownKnee = codec.decodeLink(knee.link);
    const changed = knee.link.replace("seed=42", "seed=43");
    expect(changed).not.toBe(knee.link);
    let s = opening(initialState(codec.decodeLink(changed), codec)).state;
    s = update(s, { type: "codecReady" }).state;
    s = update(s, { type: "lessonLink", link: ownKnee }).state;
    expect(lessonResults(s).sweep).toBeNull();
    expect(lessonAnswerComing(s)).toBe(false);
    // Loaded again: the sweep on screen is the lesson's own, and its answer comes with it.
    s = update(s, { type: "linkLoaded", link: ownKnee, links: ownKnee.links }).state;
    expect(s.sweep?.status).toBe("running");
    expect(lessonAnswerComing(s)).toBe(true);
    // A lesson answered by counts: its own counts are asked beside the changed settings, so its answer comes.
    expect(lessonAnswerComing(update(cold(lesson.link.replace("cap=8K", "cap=64")), { type: "lessonLink", link: own }).state)).toBe(true);
  });

  it("the lesson's own counts, come before the page's first numbers, are not shown as the page's results", () => {
    const changed = codec.decodeLink(lesson.link.replace("cap=8K", "cap=64"));
    let s = opening(initialState(changed, codec)).state;
    s = update(s, { type: "codecReady" }).state;
    const known = update(s, { type: "lessonLink", link: own });
    const asked = runsOf(known.effects)[0]!;
    s = known.state;
    s = update(s, { type: "settled", id: asked.id, outcome: { kind: "report", report: counted(asked.fragment), elapsedMs: 1 } }).state;
    expect(s.shown).toEqual({});
    expect(answerOf(question, s)).toBe(129);
  });

  it("the lesson's counts answer only the lesson still open, only once they come, and never over its link's results on screen", () => {
    const changed = lesson.link.replace("cap=8K", "cap=64");
    /** Cold on the changed link, the lesson's own counts asked: the state, and that request's id. */
    const asking = (): [AppState, number] => {
      const known = update(cold(changed), { type: "lessonLink", link: own });
      return [known.state, runsOf(known.effects)[0]!.id];
    };
    const settle = (s: AppState, settled: Parameters<typeof update>[1]) => update(s, settled).state;
    const countedFor = (id: number) => ({ type: "settled" as const, id, outcome: { kind: "report" as const, report: counted(own.links.run), elapsedMs: 1 } });
    // They failed: no answer, and nothing in its place.
    let [s, id] = asking();
    s = settle(s, { type: "settled", id, outcome: { kind: "failed", message: "boom" } });
    expect(s.lessonRun?.report).toBeNull();
    // Another lesson was opened meanwhile: not its answer.
    [s, id] = asking();
    const noHelp = codec.decodeLink(lessons.find((l) => l.id === "no-help")!.link);
    s = update(s, { type: "linkLoaded", link: noHelp, links: noHelp.links }).state;
    s = settle(s, countedFor(id));
    expect(s.lessonRun).toMatchObject({ lesson: "no-help", report: null });
    // No lesson any more (Reset): nothing to answer.
    [s, id] = asking();
    const plain = codec.decodeLink("");
    s = update(s, { type: "linkLoaded", link: plain, links: plain.links }).state;
    expect(settle(s, countedFor(id)).lessonRun).toBeNull();
    // The teacher loaded the lesson's own settings, measured in full before its counts came: the full report stays the answer's.
    [s, id] = asking();
    s = update(s, { type: "linkLoaded", link: own, links: own.links }).state;
    for (const stage of ["counts", "full"] as const) {
      const r = s.inFlight.find((q) => q.stage === stage && !q.lesson && q.fragment === own.links.run)!;
      const report = { ...counted(r.fragment), stage } as LabReport;
      s = update(s, { type: "settled", id: r.id, outcome: { kind: "report", report, elapsedMs: 1 } }).state;
    }
    expect(s.lessonRun?.report?.stage).toBe("full");
    expect(settle(s, countedFor(id)).lessonRun?.report?.stage).toBe("full");
    // The same after the settings moved on (the full report no longer on screen).
    const moved = codec.decodeLink(changed);
    s = update(s, { type: "edited", params: moved.params, links: moved.links, live: false }).state;
    const next = s.inFlight.find((q) => q.worker === "counter" && !q.lesson)!;
    s = update(s, { type: "settled", id: next.id, outcome: { kind: "report", report: counted(next.fragment), elapsedMs: 1 } }).state;
    expect(s.shown.read?.fragment).toBe(moved.links.run);
    expect(settle(s, countedFor(id)).lessonRun?.report?.stage).toBe("full");
  });

  it("asks nothing more when the link opened is the lesson's own (counted yet or not), of another lesson, or of none", () => {
    const s = cold(lesson.link);
    expect(update(s, { type: "lessonLink", link: own }).effects).toEqual([]);
    expect(answerOf(question, s)).toBe(129);
    const early = update(opening(initialState(own, codec)).state, { type: "codecReady" }).state;
    expect(update(early, { type: "lessonLink", link: own }).effects).toEqual([]);
    const other = codec.decodeLink(lessons.find((l) => l.id === "no-help")!.link);
    expect(update(s, { type: "lessonLink", link: other }).effects).toEqual([]);
    const none = cold("");
    expect(update(none, { type: "lessonLink", link: own })).toEqual({ state: none, effects: [] });
  });

  it("the lesson's own settings loaded before the page knew its link: their results on screen answer it, nothing more is asked", () => {
    let s = cold(lesson.link.replace("cap=8K", "cap=64"));
    s = update(s, { type: "linkLoaded", link: own, links: own.links }).state;
    const counts = s.inFlight.find((r) => r.worker === "counter" && r.fragment === own.links.run)!;
    s = update(s, { type: "settled", id: counts.id, outcome: { kind: "report", report: counted(counts.fragment), elapsedMs: 1 } }).state;
    const known = update(s, { type: "lessonLink", link: own });
    expect(known.effects).toEqual([]);
    expect(answerOf(question, known.state)).toBe(129);
  });
});
