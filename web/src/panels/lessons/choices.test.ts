// A lesson's four choices, as the engine computes them (crate/src/catalog/
// choices.rs) on the build the page asks (the real wasm: the questions
// build, the program build for the write lab),
// held to every lesson's real results as the page reads them (answer.ts):
// the real answer among them exactly once, four distinct numbers, each
// saying what run it is, the same letters every time. And the page's own
// check, which refuses choices that disagree with the results on screen.

import { describe, expect, it } from "vitest";
import { lessons } from "../../engine/lessons";
import { realChoicesEngineFor, realCodec, realQuickRun, realSweep } from "../../engine/real-engine";
import type { Lesson, LessonChoices } from "../../engine/types.gen";
import { answerOf } from "./answer";
import { choicesOf, LETTERS, wellFormed } from "./choices";
import type { CurrentResults } from "./view";

/** The lesson's own results, as the page has them after its link ran. */
function resultsOf(lesson: Lesson): CurrentResults {
  const fragment = lesson.link.replace(/^#/, "");
  if (lesson.question.answer.kind === "knee") return { report: null, sweep: realSweep(fragment).report };
  return { report: realQuickRun(lesson.link), sweep: null };
}

/** The engine's choices of `lesson`, from the build the page's side worker would ask (protocol.ts, choicesBuildOf). */
function engineChoices(lesson: Lesson): LessonChoices {
  const params = realCodec().decodeLink(lesson.link.replace(/^#/, "")).params;
  return realChoicesEngineFor(params).lesson_choices(lesson.link, lesson.question.answer) as LessonChoices;
}

describe("a lesson's four choices, from the engine", () => {
  const all = lessons.map((lesson) => ({ lesson, results: resultsOf(lesson), engine: engineChoices(lesson) }));

  it.each(lessons.map((l) => l.id))("%s: the real answer of the lesson's own results exactly once among four distinct real runs, lettered A to D", (id) => {
    const { lesson, results, engine } = all.find((x) => x.lesson.id === id)!;
    const real = answerOf(lesson.question.answer, results);
    expect(real, "the lesson's answer").not.toBeNull();
    const choices = choicesOf(lesson.question.answer, results, engine)!;
    expect(choices, `${id}: ${JSON.stringify(engine)}`).not.toBeNull();
    expect(choices.map((c) => c.letter)).toEqual([...LETTERS]);
    expect(new Set(choices.map((c) => c.value)).size).toBe(4);
    expect(choices.filter((c) => c.real).map((c) => c.value)).toEqual([real]);
    expect(choices.filter((c) => c.value === real)).toHaveLength(1);
    for (const c of choices) {
      expect(Number.isInteger(c.value) && c.value >= 0, `${id}: ${c.value}`).toBe(true);
      // Each says what run it is; none is a guess where the experiment offers runs.
      expect(c.what, `${id}: ${c.value}`).not.toBe("");
      expect(c.what).not.toMatch(/guess/);
    }
    // The same lesson, the same letters.
    expect(engineChoices(lesson)).toEqual(engine);
  });

  it("takes the wrong ones from real runs: the count without the buffer, other capacities' counts, another reader's knee or column's", () => {
    const oneByte = all.find((x) => x.lesson.id === "one-byte")!;
    const byValue = new Map(oneByte.engine.choices.map((c) => [c.value, c.what]));
    // std's 129 (the answer), the unbuffered reader's 1,048,577, std at 16 KiB (65) and at 4 KiB (257): real runs, not ×2 and ÷2.
    expect([...byValue.keys()].sort((a, b) => a - b)).toEqual([65, 129, 257, 1_048_577]);
    expect(byValue.get(1_048_577)).toMatch(/no buffer/);
    expect(byValue.get(65)).toMatch(/16 KiB/);
    const knee = all.find((x) => x.lesson.id === "knee-grid")!;
    const sweep = knee.results.sweep!;
    for (const c of knee.engine.choices) expect(sweep.values, `${c.value} is a swept capacity`).toContain(c.value);
    // A wrong knee is a real knee of the sweep on screen (another column's), or a point next to the knee.
    for (const c of knee.engine.choices.filter((c) => /knee where/.test(c.what))) {
      expect(sweep.knees.some((k) => k.metric === "source_reads" && k.reader === "std" && k.value === c.value)).toBe(true);
    }
  });

  it("shows no choices that disagree with the results on screen: a wrong answer marked real, repeats, or letters out of order", () => {
    const { lesson, results, engine } = all.find((x) => x.lesson.id === "one-byte")!;
    expect(choicesOf(lesson.question.answer, results, null)).toBeNull();
    expect(choicesOf(lesson.question.answer, { report: null, sweep: null }, engine)).toBeNull();
    const swapped = engine.choices.map((c) => ({ ...c, real: !c.real && c.value === 65 ? true : c.real && false }));
    expect(choicesOf(lesson.question.answer, results, { ...engine, choices: swapped })).toBeNull();
    expect(wellFormed(engine.choices)).toBe(true);
    expect(wellFormed(engine.choices.map((c) => ({ ...c, value: 1 })))).toBe(false);
    expect(wellFormed([...engine.choices].reverse())).toBe(false);
    expect(wellFormed(engine.choices.slice(1))).toBe(false);
  });
});
