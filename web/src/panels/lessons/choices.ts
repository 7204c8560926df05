// A lesson's question as four choices, A to D, for a room that answers with
// printed cards or raised hands. The engine computes them
// (crate/src/catalog/choices.rs, the `choices` job on the build that runs
// the lesson's experiment): the real answer and three wrong ones, each a
// real run of the same experiment with one thing changed (another reader,
// another capacity, no buffer), each saying what it is, in the lesson's own
// seeded order. Here only the checks the page keeps before it shows them,
// against the lesson's own results on screen. Pure.

import type { Answer, Choice as EngineChoice, LessonChoices } from "../../engine/types.gen";
import { LETTERS, type Letter } from "../../shared/cards";
import { answerOf } from "./answer";
import type { CurrentResults } from "./view";

export { LETTERS, type Letter };

/** One choice: its letter, its number, whether it is the real answer, and what it is (the run that counts it). */
export interface Choice {
  letter: Letter;
  value: number;
  real: boolean;
  what: string;
}

/**
 * The engine's four choices of a lesson's question, as the room shows them;
 * null while they (or the lesson's own results) are still to come, or when
 * they are not four distinct numbers lettered A to D with the real answer
 * once and equal to the answer read off the lesson's own results (the
 * engine and the page would disagree; the room then shows no choices rather
 * than wrong ones).
 */
export function choicesOf(answer: Answer, results: CurrentResults, engine: LessonChoices | null): Choice[] | null {
  if (engine === null) return null;
  const real = answerOf(answer, results);
  if (real === null) return null;
  const choices = engine.choices;
  if (!wellFormed(choices) || choices.find((c) => c.real)!.value !== real) return null;
  return choices.map((c) => ({ letter: c.letter, value: c.value, real: c.real, what: c.what }));
}

/** Four choices lettered A to D, distinct numbers, exactly one real. */
export function wellFormed(choices: readonly EngineChoice[]): boolean {
  return (
    choices.length === LETTERS.length &&
    choices.every((c, i) => c.letter === LETTERS[i]) &&
    new Set(choices.map((c) => c.value)).size === choices.length &&
    choices.filter((c) => c.real).length === 1
  );
}
