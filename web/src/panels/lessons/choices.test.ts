// A lesson's four choices, on every lesson's real results (the real wasm):
// the real answer among them exactly once, four distinct numbers, the same
// letters for the same seed.

import { describe, expect, it } from "vitest";
import { lessons } from "../../engine/lessons";
import { realQuickRun, realSweep } from "../../engine/real-engine";
import type { Lesson } from "../../engine/types.gen";
import { answerOf } from "./answer";
import { choicesFrom, choicesOf, LETTERS, seededOrder } from "./choices";
import type { CurrentResults } from "./view";

/** The lesson's own results, as the page has them after its link ran. */
function resultsOf(lesson: Lesson): CurrentResults {
  const fragment = lesson.link.replace(/^#/, "");
  if (lesson.question.answer.kind === "knee") return { report: null, sweep: realSweep(fragment).report };
  return { report: realQuickRun(lesson.link), sweep: null };
}

describe("a lesson's four choices", () => {
  const all = lessons.map((lesson) => ({ lesson, results: resultsOf(lesson) }));

  it.each(lessons.map((l) => l.id))("%s: the real answer exactly once among four distinct choices, lettered A to D", (id) => {
    const { lesson, results } = all.find((x) => x.lesson.id === id)!;
    const real = answerOf(lesson.question.answer, results);
    expect(real, "the lesson's answer").not.toBeNull();
    const choices = choicesOf(lesson.question.answer, results, lesson.link)!;
    expect(choices.map((c) => c.letter)).toEqual([...LETTERS]);
    expect(new Set(choices.map((c) => c.value)).size).toBe(4);
    expect(choices.filter((c) => c.real).map((c) => c.value)).toEqual([real]);
    expect(choices.filter((c) => c.value === real)).toHaveLength(1);
    for (const c of choices) expect(Number.isInteger(c.value) && c.value >= 0, `${id}: ${c.value}`).toBe(true);
    // The same seed, the same letters.
    expect(choicesOf(lesson.question.answer, results, lesson.link)).toEqual(choices);
  });

  it("takes the wrong ones from the experiment: the count without the buffer, another reader's, another capacity's", () => {
    const oneByte = all.find((x) => x.lesson.id === "one-byte")!;
    const values = choicesOf(oneByte.lesson.question.answer, oneByte.results, "s")!.map((c) => c.value).sort((a, b) => a - b);
    // std's 129 (the answer), the unbuffered reader's 1,048,577, and half and twice the buffer's counts.
    expect(values).toEqual([64, 129, 258, 1_048_577]);
    const knee = all.find((x) => x.lesson.id === "knee-grid")!;
    const sweep = knee.results.sweep!;
    const real = answerOf(knee.lesson.question.answer, knee.results)!;
    for (const c of choicesOf(knee.lesson.question.answer, knee.results, "s")!) expect(sweep.values, `${c.value} is a swept capacity`).toContain(c.value);
    expect(sweep.values).toContain(real);
  });

  it("orders the choices by the seed: stable for one seed, and each position taken by the answer for some seed", () => {
    expect(seededOrder(4, "x")).toEqual(seededOrder(4, "x"));
    expect([...seededOrder(4, "x")].sort()).toEqual([0, 1, 2, 3]);
    const where = new Set<number>();
    for (let i = 0; i < 64; i++) where.add(choicesFrom(7, [1, 2, 3], `seed ${i}`).findIndex((c) => c.real));
    expect([...where].sort()).toEqual([0, 1, 2, 3]);
  });

  it("drops repeats, the answer itself and impossible numbers from the wrong ones, and still offers four", () => {
    const choices = choicesFrom(5, [5, 5, NaN, -1, 2.5, 6, 6], "s");
    expect(new Set(choices.map((c) => c.value)).size).toBe(4);
    expect(choices.filter((c) => c.value === 5)).toHaveLength(1);
    expect(choices.map((c) => c.value)).toContain(6);
  });
});
