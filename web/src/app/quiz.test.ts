// The quiz's model (app/quiz.ts) and where it meets the page's (state.ts):
// the quiz is the engine's own (the questions build's `quiz`), asked for the
// link on screen, asked again only for another experiment or qseed.

import { describe, expect, it } from "vitest";
import { realCodec, realQuestionsEngine } from "../engine/real-engine";
import schema from "../engine/schema.gen.json";
import type { Decoded, Params, Quiz } from "../engine/types.gen";
import { finished, noQuiz, quizAsked, quizAsking, quizUpdate, score, type QuizState } from "./quiz";
import { initialState, opening, resultsHidden, update, type Effect } from "./state";

const codec = realCodec();
const defaults = schema.defaults as unknown as Params;
const LINK = "v=1&len=64K&chunk=poor&seed=42&cap=1K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&quiz=on";

/** The engine's quiz of a link, as the page's side worker writes it (the questions build, every lab's: app/effects.ts). */
const engineQuiz = (link: string): Quiz => realQuestionsEngine().quiz(link) as Quiz;

function written(link = LINK): QuizState {
  return quizUpdate(quizAsked(link, 1).quiz, { kind: "written", link, quiz: engineQuiz(link) });
}

describe("the quiz's model", () => {
  it("asks the engine for the link's quiz, and takes only that link's", () => {
    const asked = quizAsked(LINK, 1);
    expect(asked.effects).toEqual([{ kind: "write", link: LINK }]);
    const other = quizUpdate(asked.quiz, { kind: "written", link: "v=1&len=2K&quiz=on", quiz: engineQuiz(LINK) });
    expect(other.quiz).toBeNull();
    expect(quizUpdate(asked.quiz, { kind: "failed", link: LINK, message: "crashed" }).failed).toBe("crashed");
  });

  it("grades the first pick only, moves on only from an answered question, and scores at the end", () => {
    let q = written();
    const questions = q.quiz!.questions;
    expect(questions.length).toBeGreaterThanOrEqual(3);
    expect(quizUpdate(q, { kind: "next" })).toBe(q);
    const first = questions[0]!;
    const wrong = (first.answer + 1) % first.choices.length;
    q = quizUpdate(q, { kind: "pick", choice: wrong });
    expect(quizUpdate(q, { kind: "pick", choice: first.answer }).picked[0]).toBe(wrong);
    expect(quizUpdate(q, { kind: "pick", choice: 99 })).toBe(q);
    q = quizUpdate(q, { kind: "next" });
    for (let i = 1; i < questions.length; i++) {
      q = quizUpdate(quizUpdate(q, { kind: "pick", choice: questions[i]!.answer }), { kind: "next" });
    }
    expect(finished(q)).toBe(true);
    expect(score(q)).toEqual({ right: questions.length - 1, of: questions.length });
    expect(quizUpdate(q, { kind: "next" })).toBe(q);
    const again = quizUpdate(q, { kind: "again" });
    expect([again.at, score(again).right, finished(again)]).toEqual([0, 0, false]);
  });

  it("asks (the results hidden) while it is written and while the question on screen waits for its pick; never at the score, on a failure or without a quiz", () => {
    expect(quizAsking(noQuiz())).toBe(false);
    const asked = quizAsked(LINK, 1).quiz;
    expect(quizAsking(asked)).toBe(true);
    expect(quizAsking(quizUpdate(asked, { kind: "failed", link: LINK, message: "crashed" }))).toBe(false);
    let q = written();
    expect(quizAsking(q)).toBe(true);
    q = quizUpdate(q, { kind: "pick", choice: 0 });
    expect(quizAsking(q)).toBe(false);
    q = quizUpdate(q, { kind: "next" });
    expect(quizAsking(q)).toBe(true);
    for (let i = q.at; i < q.quiz!.questions.length; i++) q = quizUpdate(quizUpdate(q, { kind: "pick", choice: 0 }), { kind: "next" });
    expect(finished(q) && !quizAsking(q)).toBe(true);
    const none = quizUpdate(quizAsked(LINK, 1).quiz, { kind: "written", link: LINK, quiz: { qseed: 1, questions: [], note: "none" } });
    expect(quizAsking(none)).toBe(false);
  });

  it("takes no pick, Next or Again before the quiz is written, and drops a failure of another link's quiz", () => {
    const asked = quizAsked(LINK, 1).quiz;
    for (const action of [{ kind: "pick", choice: 0 }, { kind: "next" }, { kind: "again" }] as const) expect(quizUpdate(asked, action)).toBe(asked);
    const stale = quizUpdate(asked, { kind: "failed", link: "v=1&len=2K&quiz=on", message: "crashed" });
    expect([stale.failed, quizAsking(stale)]).toEqual([null, true]);
  });

  it("refuses a pick that is none of the question's choices, at either end", () => {
    const q = written();
    const choices = q.quiz!.questions[0]!.choices.length;
    expect(quizUpdate(q, { kind: "pick", choice: -1 })).toBe(q);
    expect(quizUpdate(q, { kind: "pick", choice: choices })).toBe(q);
    expect(quizUpdate(q, { kind: "pick", choice: choices - 1 }).picked[0]).toBe(choices - 1);
  });

  it("after Again, every question waits for its pick once more: Next stays and the results are hidden", () => {
    let q = written();
    for (let i = 0; i < q.quiz!.questions.length; i++) q = quizUpdate(quizUpdate(q, { kind: "pick", choice: 0 }), { kind: "next" });
    const again = quizUpdate(q, { kind: "again" });
    expect(quizAsking(again)).toBe(true);
    expect(quizUpdate(again, { kind: "next" })).toBe(again);
    expect(quizUpdate(again, { kind: "pick", choice: 1 }).picked[0]).toBe(1);
  });

  it("keeps one pick per question, none before the questions are written", () => {
    let q = quizAsked(LINK, 1).quiz;
    expect(q.picked).toEqual([]);
    q = quizUpdate(q, { kind: "written", link: LINK, quiz: engineQuiz(LINK) });
    expect(q.picked).toEqual(q.quiz!.questions.map(() => null));
  });

  it("a write-lab link's quiz, from the build the page asks, is a note that the quiz is the read lab's, with no score", () => {
    const link = codec.decodeLink("lab=write&quiz=on").fragment;
    const written = quizUpdate(quizAsked(link, 1).quiz, { kind: "written", link, quiz: engineQuiz(link) });
    expect(written.quiz?.questions).toEqual([]);
    expect(written.quiz?.note).toMatch(/read lab/);
    expect(finished(written)).toBe(false);
  });

  it("never shows a score for a quiz without questions", () => {
    const none = quizUpdate(quizAsked(LINK, 1).quiz, { kind: "written", link: LINK, quiz: { qseed: 1, questions: [], note: "none" } });
    expect(finished(none)).toBe(false);
    expect(finished(quizUpdate(none, { kind: "next" }))).toBe(false);
  });

  it("has no score before a quiz", () => {
    expect(score(noQuiz())).toEqual({ right: 0, of: 0 });
    expect(finished(noQuiz())).toBe(false);
  });
});

describe("the quiz on the page", () => {
  const decoded = (link: string): Decoded => codec.decodeLink(link);
  const quizEffects = (effects: readonly Effect[]) => effects.filter((e) => e.type === "quiz");

  function page(link: string) {
    let state = initialState(decoded(link), codec);
    const opened = opening(state);
    state = update(update(opened.state, { type: "engineReady", isolated: true }).state, { type: "codecReady" }).state;
    return { state, effects: opened.effects };
  }

  it("asks for the quiz as a quiz link opens, and never without quiz=on", () => {
    const p = page(LINK);
    expect(quizEffects(p.effects)).toEqual([{ type: "quiz", link: p.state.runFragment }]);
    expect(p.state.quiz.link).toBe(p.state.runFragment);
    expect(quizEffects(page(LINK.replace("&quiz=on", "")).effects)).toEqual([]);
  });

  it("keeps the answers through display changes, and asks again for another experiment or qseed", () => {
    const p = page(LINK);
    let state = update(p.state, { type: "quiz", action: { kind: "written", link: p.state.quiz.link!, quiz: engineQuiz(p.state.quiz.link!) } }).state;
    state = update(state, { type: "quiz", action: { kind: "pick", choice: 0 } }).state;
    const display = (params: Params) => update(state, { type: "display", params, links: codec.links(params) });
    const presented = display({ ...state.params, present: true });
    expect(quizEffects(presented.effects)).toEqual([]);
    expect(presented.state.quiz.picked[0]).toBe(0);
    const reseeded = display({ ...state.params, qseed: 9 });
    expect(quizEffects(reseeded.effects)).toHaveLength(1);
    expect(reseeded.state.quiz.quiz).toBeNull();
    const cap = { ...state.params, cap: 2048 };
    const edited = update(state, { type: "edited", params: cap, links: codec.links(cap), live: false });
    expect(quizEffects(edited.effects)).toEqual([{ type: "quiz", link: codec.links(cap).run }]);
    const off = display({ ...state.params, quiz: false });
    expect([off.state.quiz.link, quizEffects(off.effects)]).toEqual([null, []]);
  });

  it("hides the results until the question on screen is answered, as predict does until Reveal", () => {
    const p = page(LINK);
    expect(resultsHidden(p.state)).toBe(true);
    let state = update(p.state, { type: "quiz", action: { kind: "written", link: p.state.quiz.link!, quiz: engineQuiz(p.state.quiz.link!) } }).state;
    expect(resultsHidden(state)).toBe(true);
    state = update(state, { type: "quiz", action: { kind: "pick", choice: 0 } }).state;
    expect(resultsHidden(state)).toBe(false);
    expect(resultsHidden(page(LINK.replace("&quiz=on", "")).state)).toBe(false);
  });

  it("asks a sweep link's quiz of the sweep, whose knee is a question", () => {
    const link = "v=1&len=64K&chunk=poor&seed=42&cap=1K&rs=1&sys=150&rd=std&wl=fixed&sweep=cap&from=64&to=4K&quiz=on";
    const p = page(link);
    const asked = quizEffects(p.effects)[0] as Extract<Effect, { type: "quiz" }>;
    expect(asked.link).toBe(p.state.sweepFragment);
    expect(engineQuiz(asked.link).questions.map((q) => q.kind)).toContain("knee");
    expect(defaults.quiz).toBe(false);
  });
});
