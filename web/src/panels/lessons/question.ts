// Predict, then reveal (link key `predict`), on the lesson card: the
// lesson's question, a guess and Reveal; then the answer from the results
// on screen, how far the guess was, and why. While the question waits for
// its answer, the results and the lesson's points wait too
// (styles/lessons.css: body.predicting).

import type { Lesson } from "../../engine/types.gen";
import { h, setText } from "../../shared/dom";
import { formatCount } from "../../shared/format";
import { fillWithTerms } from "../glossary";
import { answerOf } from "./answer";
import type { LessonView } from "./view";
import { guessFeedback, parseGuess, unreadGuess } from "./words";

/** The answer line of a sweep's lesson opened with other settings: its own sweep has not run here, and nothing runs it until its link is loaded. */
const NOT_SWEPT = "Answer: not measured with these settings: the lesson's own sweep runs when the lesson is loaded again.";

export interface LessonQuestion {
  element: HTMLElement;
  /** The clicker's keys, in words. */
  keys: HTMLElement;
  /** Shows `lesson`'s question (`index` in a path of `total`) as `view` has it. */
  update(lesson: Lesson | null, index: number, total: number, view: LessonView): void;
}

/** Scrolls `element` into view once the page has laid out what Reveal brought back, if it is out of view. */
function keepInView(element: HTMLElement): void {
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const box = element.getBoundingClientRect();
      if (box.top < 0 || box.bottom > innerHeight) element.scrollIntoView({ block: "nearest" });
    }),
  );
}

/** `parseSize` reads a size as the link format does (the codec's), for answers in bytes. */
export function createQuestion(guessed: (guess: number | null) => void, reveal: () => void, parseSize: (text: string) => number | undefined): LessonQuestion {
  const text = h("p", { class: "lesson-question-text", id: "lesson-question-text" });
  const field = h("input", {
    type: "text",
    inputmode: "numeric",
    autocomplete: "off",
    class: "lesson-guess",
    id: "lesson-guess",
    "aria-describedby": "lesson-question-text",
    spellcheck: "false",
  });
  // What the field cannot read is said under it, never dropped in silence.
  const unread = h("p", { class: "lesson-guess-unread", id: "lesson-guess-unread", role: "status" });
  unread.hidden = true;
  let inBytes = false;
  const read = (): number | null => {
    const guess = parseGuess(field.value, inBytes ? parseSize : null);
    const unreadable = guess === null && field.value.trim() !== "";
    unread.hidden = !unreadable;
    setText(unread, unreadable ? unreadGuess(field.value, inBytes) : "");
    field.setAttribute("aria-invalid", String(unreadable));
    return guess;
  };
  field.addEventListener("input", () => guessed(read()));
  const form = h(
    "form",
    { class: "lesson-guess-row", novalidate: true },
    h("label", { for: "lesson-guess" }, "Your guess"),
    field,
    h("button", { type: "submit", class: "reveal", "data-action": "reveal" }, "Reveal"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const guess = read();
    if (guess === null && field.value.trim() !== "") return;
    guessed(guess);
    reveal();
  });
  const answerLine = h("p", { class: "lesson-answer", role: "status", "aria-live": "polite" });
  const feedbackLine = h("p", { class: "lesson-feedback" });
  const whyLine = h("p", { class: "lesson-answer-why" });
  const element = h(
    "section",
    { class: "lesson-question", "aria-label": "Predict, then reveal" },
    h("p", { class: "lesson-question-head" }, "Predict"),
    text,
    form,
    unread,
    answerLine,
    feedbackLine,
    whyLine,
  );
  const keys = h("p", { class: "lesson-keys" });
  let shown = "";

  return {
    element,
    keys,
    update(lesson, index, total, view) {
      const asking = lesson !== null && view.asking;
      const answer = lesson !== null && view.predict && !asking ? answerOf(lesson.question.answer, view.results) : null;
      const ask = lesson === null ? "" : `${lesson.id}|${view.predict}|${asking}|${answer}|${view.guess}|${view.present}|${view.answerComing}`;
      if (ask === shown) return;
      // Reveal brings the results back above what the page was anchored on: keep the answer in view (a phone's one column).
      const revealing = shown.startsWith(`${lesson?.id}|true|true|`) && !asking;
      shown = ask;
      if (revealing) keepInView(answerLine);
      document.body.classList.toggle("predicting", asking);
      element.hidden = lesson === null || !view.predict;
      if (!lesson) return;
      fillWithTerms(text, lesson.question.text);
      inBytes = lesson.question.answer.kind === "knee";
      if (document.activeElement !== field) field.value = view.guess === null ? "" : String(view.guess);
      // After Reveal the guess is in the feedback line; the row gives its room to the answer.
      form.hidden = !asking;
      if (!asking) unread.hidden = true;
      answerLine.hidden = asking;
      whyLine.hidden = asking;
      feedbackLine.hidden = asking || view.guess === null || answer === null;
      setText(answerLine, answer !== null ? `Answer: ${formatCount(answer)} ${lesson.question.unit}.` : view.answerComing ? "Answer: measuring…" : NOT_SWEPT);
      setText(feedbackLine, answer !== null && view.guess !== null ? guessFeedback(view.guess, answer) : "");
      // While the question waits, its answer is nowhere in the page, hidden parts included.
      if (asking) setText(whyLine, "");
      else fillWithTerms(whyLine, lesson.question.why);
      const forward = asking ? "reveal" : index + 1 < total ? "next lesson" : "the end";
      setText(keys, `→ / PageDown: ${forward} · ← / PageUp: back`);
    },
  };
}
