// The quiz the engine writes (`quiz=on`), the page model's quiz section
// (state.ts holds a `quiz` and sends quiz actions here). The questions,
// their choices, answers and explanations are the engine's
// (crate/src/catalog/quiz.rs, through the quiz worker on the timing build of the link's workload); here only the
// person's way through them. Pure.
//
// Rules:
//   - a quiz is asked for the link it is about (`link`); one written for
//     another link is dropped;
//   - one choice per question: the first pick is graded and kept, later
//     picks change nothing;
//   - Next moves on only from an answered question; past the last, the score;
//   - the score counts the right picks; Again starts the same quiz afresh.

import type { Quiz } from "../engine/types.gen";

export interface QuizState {
  /** The link the quiz is asked for (null: no quiz on this page). */
  link: string | null;
  /** The quiz's seed it was asked with. */
  qseed: number;
  quiz: Quiz | null;
  /** Why the engine could not write it (null otherwise). */
  failed: string | null;
  /** The choice picked per question (null: not yet). */
  picked: readonly (number | null)[];
  /** The question on screen; `questions.length`: the score. */
  at: number;
}

export type QuizAction =
  /** The engine wrote the quiz of `link`. */
  | { kind: "written"; link: string; quiz: Quiz }
  /** The engine could not write the quiz of `link`. */
  | { kind: "failed"; link: string; message: string }
  /** A choice picked for the question on screen. */
  | { kind: "pick"; choice: number }
  | { kind: "next" }
  | { kind: "again" };

export type QuizEffect = { kind: "write"; link: string };

export function noQuiz(): QuizState {
  return { link: null, qseed: 0, quiz: null, failed: null, picked: [], at: 0 };
}

/** A quiz asked for `link` (with `qseed`), and the effect that asks the engine. */
export function quizAsked(link: string, qseed: number): { quiz: QuizState; effects: QuizEffect[] } {
  return { quiz: { ...noQuiz(), link, qseed }, effects: [{ kind: "write", link }] };
}

export function quizUpdate(q: QuizState, action: QuizAction): QuizState {
  switch (action.kind) {
    case "written":
      return action.link === q.link ? { ...q, quiz: action.quiz, failed: null, picked: action.quiz.questions.map(() => null), at: 0 } : q;
    case "failed":
      return action.link === q.link ? { ...q, failed: action.message } : q;
    case "pick": {
      const question = q.quiz?.questions[q.at];
      if (question === undefined || q.picked[q.at] !== null || action.choice < 0 || action.choice >= question.choices.length) return q;
      return { ...q, picked: q.picked.map((p, i) => (i === q.at ? action.choice : p)) };
    }
    case "next":
      return q.quiz !== null && q.at < q.quiz.questions.length && q.picked[q.at] !== null ? { ...q, at: q.at + 1 } : q;
    case "again":
      return q.quiz === null ? q : { ...q, picked: q.quiz.questions.map(() => null), at: 0 };
  }
}

/** Right picks so far, of the questions. */
export function score(q: QuizState): { right: number; of: number } {
  const questions = q.quiz?.questions ?? [];
  return { right: questions.filter((question, i) => q.picked[i] === question.answer).length, of: questions.length };
}

/**
 * True while the quiz's question on screen waits for its pick, or the quiz
 * is still being written: the results on screen hold its answers, so the
 * page hides them as predict does until Reveal (state.ts, `resultsHidden`).
 * False without a quiz, when it could not be written or has no questions,
 * once the question is answered, and at the score.
 */
export function quizAsking(q: QuizState): boolean {
  if (q.link === null || q.failed !== null) return false;
  if (q.quiz === null) return true;
  return q.at < q.quiz.questions.length && q.picked[q.at] === null;
}

/** True once every question is answered and the score shows. */
export function finished(q: QuizState): boolean {
  return q.quiz !== null && q.quiz.questions.length > 0 && q.at >= q.quiz.questions.length;
}
