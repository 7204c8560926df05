// The quiz the engine writes (`quiz=on`): one question at a time with its
// choices A to D, graded on this device as soon as one is picked, the
// answer explained with a link to the run or sweep that shows why, and the
// score at the end. It owns its element (#quiz); the page's model decides
// everything (app/quiz.ts, state.ts) and hands it a `QuizView`. Every value
// is set as text (the engine's words and links included), never as HTML.

import type { Quiz } from "../../engine/types.gen";
import { h, replaceChildren } from "../../shared/dom";
import "./quiz.css";

export interface QuizView {
  /** `quiz=on` in the link. */
  shown: boolean;
  quiz: Quiz | null;
  failed: string | null;
  picked: readonly (number | null)[];
  at: number;
  score: { right: number; of: number };
}

export interface QuizOptions {
  pick(choice: number): void;
  next(): void;
  again(): void;
  /** A BufLab link (a fragment with its `#`) as a whole URL of this page. */
  urlOf(fragment: string): string;
}

export interface QuizPanel {
  update(view: QuizView): void;
}

const letter = (i: number): string => String.fromCharCode(65 + i);

export function createQuiz(element: HTMLElement, { pick, next, again, urlOf }: QuizOptions): QuizPanel {
  let last: QuizView | null = null;
  return {
    update(view) {
      if (last !== null && sameView(last, view)) return;
      last = view;
      element.hidden = !view.shown;
      if (!view.shown) return;
      replaceChildren(element, h("h3", { class: "quiz-head" }, "Quiz"), ...body(view));
    },
  };

  function body(view: QuizView): Node[] {
    if (view.failed !== null) return [h("p", { class: "quiz-status", role: "status" }, `The quiz could not be written: ${view.failed}`)];
    const quiz = view.quiz;
    if (quiz === null) return [h("p", { class: "quiz-status", role: "status" }, "Writing the quiz from this experiment's runs…")];
    const questions = quiz.questions;
    if (questions.length === 0) return [h("p", { class: "quiz-status", role: "status" }, quiz.note ?? "No questions for this experiment.")];
    if (view.at >= questions.length) {
      const again_ = h("button", { type: "button", id: "quiz-again", class: "small" }, "Again");
      again_.addEventListener("click", again);
      return [
        h("p", { class: "quiz-score", id: "quiz-score", role: "status" }, `Score: ${view.score.right} of ${view.score.of}`),
        h("p", { class: "quiz-seed" }, `Everyone with this link (qseed ${quiz.qseed}) got the same questions.`),
        again_,
      ];
    }
    const q = questions[view.at]!;
    const picked = view.picked[view.at] ?? null;
    const choices = h(
      "ol",
      { class: "quiz-choices", id: "quiz-choices" },
      ...q.choices.map((text, i) => {
        const mark = picked === null ? "" : i === q.answer ? " ✓" : i === picked ? " ✗" : "";
        const button = h(
          "button",
          { type: "button", class: "quiz-choice", "data-choice": i, disabled: picked !== null, "aria-pressed": picked === i ? "true" : "false" },
          `${letter(i)}  ${text}${mark}`,
        );
        button.addEventListener("click", () => pick(i));
        // Once picked, what each choice is: the run whose count it gives (the engine's words).
        const what = picked !== null && q.whats[i] ? h("span", { class: "quiz-what" }, q.whats[i]!) : null;
        return h("li", {}, button, ...(what ? [what] : []));
      }),
    );
    const parts: Node[] = [
      h("p", { class: "quiz-progress" }, `Question ${view.at + 1} of ${questions.length}`),
      h("p", { class: "quiz-question", id: "quiz-question" }, q.text),
      choices,
    ];
    if (picked !== null) {
      const right = picked === q.answer;
      const link = h("a", { href: urlOf(q.link.replace(/^#/, "")), class: "quiz-why-link", id: "quiz-why-link", target: "_blank", rel: "noopener" }, "See the run");
      const nextButton = h("button", { type: "button", id: "quiz-next", class: "small" }, view.at + 1 === questions.length ? "Score" : "Next");
      nextButton.addEventListener("click", next);
      parts.push(
        h(
          "p",
          { class: "quiz-why", id: "quiz-why", role: "status" },
          right ? "Right. " : `Not quite: the answer is ${letter(q.answer)}, ${q.choices[q.answer]}. `,
          q.why,
          " ",
          link,
        ),
        nextButton,
      );
    }
    return parts;
  }
}

function sameView(a: QuizView, b: QuizView): boolean {
  return (
    a.shown === b.shown &&
    a.quiz === b.quiz &&
    a.failed === b.failed &&
    a.at === b.at &&
    a.picked.length === b.picked.length &&
    a.picked.every((p, i) => p === b.picked[i])
  );
}
