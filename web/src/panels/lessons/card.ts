// The lesson card (owns <aside id="lesson-card">), beside the charts it
// talks about: "Lesson n of N", the lesson's title, Previous and Next, what
// to notice, its question (question.ts), why the experiment is set up so,
// and a line when the settings on screen have left the lesson's.

import type { Codec } from "../../engine/codec";
import type { Lesson, TermId } from "../../engine/types.gen";
import { h, holdAtTop, replaceChildren, setText } from "../../shared/dom";
import { fragmentOf } from "../../shared/url";
import { fillWithTerms, termNodes } from "../glossary";
import type { LessonView } from "./view";
import { createEnd } from "./end";
import { createQuestion } from "./question";
import { load, sourceLabel } from "./words";

export interface LessonCard {
  update(view: LessonView): void;
}

export interface CardOptions {
  codec: Codec;
  lessons: readonly Lesson[];
  results: HTMLElement;
  guessed(guess: number | null): void;
  reveal(): void;
  /** Opens the lesson's shipped strace log in the trace panel. */
  openLog(): void;
}

/** Shows on <body> which lesson is open and the charts it is about first (styles/lessons.css reads them). */
function markBody(lesson: Lesson | null): void {
  document.body.classList.toggle("has-lesson", lesson !== null);
  if (lesson) {
    document.body.dataset["lessonCharts"] = lesson.charts.join(" ");
    document.body.dataset["lessonChart"] = lesson.charts[0] ?? "";
    if (lesson.log) document.body.dataset["lessonLog"] = lesson.log;
    else delete document.body.dataset["lessonLog"];
  } else {
    delete document.body.dataset["lessonCharts"];
    delete document.body.dataset["lessonChart"];
    delete document.body.dataset["lessonLog"];
  }
}

/** The line that says the settings left the lesson's, or that they are one of the changes its points suggest. */
function createChanged(codec: Codec, lessons: readonly Lesson[], reload: HTMLElement) {
  // The canonical fragment each lesson's link decodes to (the page's address after loading it), and each suggested change's.
  const canonical = new Map(lessons.map((l) => [l.id, codec.decodeLink(fragmentOf(l.link)).fragment]));
  const suggested = new Map(lessons.map((l) => [l.id, l.suggestions.map((s) => ({ text: s.text, fragment: codec.decodeLink(fragmentOf(s.link)).fragment }))]));
  const changed = h("p", { class: "lesson-changed" });
  const chosen = h("p", { class: "lesson-chosen", role: "status" });
  chosen.hidden = true;
  let shown: string | undefined;
  return {
    elements: [changed, chosen],
    reset: () => (shown = undefined),
    update(lesson: Lesson | null, fragment: string): void {
      // Display keys (presenter mode, the view) change how the page looks, not the experiment.
      const isChanged = lesson !== null && !codec.sameExperiment(canonical.get(lesson.id) ?? "", fragment);
      const suggestion = isChanged ? suggested.get(lesson.id)?.find((s) => codec.sameExperiment(s.fragment, fragment)) : undefined;
      const key = !isChanged ? "" : suggestion ? `chose:${suggestion.text}` : "changed";
      if (key === shown) return;
      shown = key;
      changed.hidden = key !== "changed";
      chosen.hidden = suggestion === undefined;
      replaceChildren(changed, key === "changed" ? "Settings changed since this lesson was loaded; its points describe its own settings. " : null, key === "changed" ? reload : null);
      setText(chosen, suggestion ? `You chose the lesson's suggestion: ${suggestion.text}. The point that suggests it says what these settings show; the others describe the lesson's own settings.` : "");
    },
  };
}

export function createCard(card: HTMLElement, { codec, lessons, results, guessed, reveal, openLog }: CardOptions): LessonCard {
  const step = h("span", { class: "lesson-step" });
  const from = h("span", { class: "lesson-from" });
  const previous = h("button", { type: "button", class: "small", "data-action": "lesson-previous" }, "◀ Previous");
  const next = h("button", { type: "button", class: "small", "data-action": "lesson-next" }, "Next ▶");
  const all = h("button", { type: "button", class: "small", popovertarget: "lesson-menu" }, "All lessons");
  const title = h("h2", { id: "lesson-card-title", class: "lesson-card-title" });
  // A student's page (predict on, not presenting): where the teacher's link was taken, and the way on.
  const follow = h("p", { class: "lesson-follow", id: "lesson-follow" });
  const followNext = h("button", { type: "button", class: "link-button", id: "lesson-follow-next" });
  const points = h("ul", { class: "lesson-points" });
  // What to notice: on a phone it starts folded, so a lesson link opens on
  // the card and the chart it talks about together (styles/lessons.css).
  const narrow = matchMedia("(max-width: 600px)");
  const notice = h("details", { class: "lesson-notice", open: !narrow.matches }, h("summary", {}, "What to notice"), points);
  narrow.addEventListener("change", () => {
    if (!narrow.matches) notice.open = true;
  });
  const explanation = h("p", { class: "lesson-explanation" });
  // Which world the lesson's source lives in: the reader waiting for the
  // data, the data waiting for the reader, a file, or both in a sweep.
  const world = h("p", { class: "lesson-world" });
  const claim = h("p", { class: "lesson-claim" });
  const reload = h("button", { type: "button", class: "link-button" }, "Load it again");
  const changed = createChanged(codec, lessons, reload);
  const question = createQuestion(guessed, reveal, (text) => codec.parseSize(text));
  const why = h("details", { class: "lesson-why" }, h("summary", {}, "Why this experiment"), explanation, world, claim);
  // A lesson about a real program's log opens that log in the trace panel (its replay gives the answer away: after Reveal).
  const log = h("button", { type: "button", class: "small lesson-log", id: "lesson-open-log" }, "Open the program's strace log");
  log.addEventListener("click", openLog);
  const end = createEnd(lessons);
  const body = h("div", { class: "lesson-body" });
  replaceChildren(
    body,
    h("div", { class: "lesson-card-head" }, h("p", { class: "lesson-where" }, step, " · ", from), h("div", { class: "lesson-nav", role: "group", "aria-label": "Lesson path" }, previous, next, all)),
    title,
    follow,
    ...changed.elements,
    question.element,
    question.keys,
    notice,
    log,
    why,
  );
  replaceChildren(card, body, end);
  card.setAttribute("aria-labelledby", "lesson-card-title");
  card.hidden = true;

  /** Fills the card with `lesson` (the `index`th of the path); its points and why only once its question is answered (`told`). */
  function show(lesson: Lesson, index: number, told: boolean): void {
    setText(step, `Lesson ${index + 1} of ${lessons.length}`);
    setText(from, `from ${sourceLabel(lesson)}`);
    setText(title, lesson.title);
    // While the question waits, its answer is nowhere in the card, folded parts included.
    notice.hidden = why.hidden = !told;
    log.hidden = !told || !lesson.log;
    if (told) {
      // Each term links once per card, where the card first uses it.
      const linked = new Set<TermId>();
      replaceChildren(points, ...lesson.notice.map((point) => h("li", {}, ...termNodes(point, linked))));
      fillWithTerms(explanation, lesson.explanation, linked);
      replaceChildren(world, ...termNodes(lesson.world_note, linked));
      replaceChildren(claim, h("strong", {}, "The claim, checked by a test on this link: "), ...termNodes(lesson.claim, linked));
    } else {
      replaceChildren(points);
      replaceChildren(explanation);
      replaceChildren(world);
      replaceChildren(claim);
    }
    const before = lessons[index - 1];
    const after = lessons[index + 1];
    previous.disabled = !before;
    next.disabled = !after;
    previous.title = before ? `Lesson ${index}: ${before.title}` : "";
    next.title = after ? `Lesson ${index + 2}: ${after.title}` : "";
    previous.onclick = () => before && load(before, results);
    next.onclick = () => after && load(after, results);
    reload.onclick = () => load(lesson, results);
    followNext.onclick = () => after && load(after, results);
  }

  /** The student's line: this link's lesson (and timeline step), that nothing follows the teacher by itself, and the next lesson. */
  let followShown = "";
  function showFollow(lesson: Lesson | null, index: number, view: LessonView): void {
    follow.hidden = lesson === null || !view.predict || view.present;
    const key = `${lesson?.id}|${view.step}`;
    if (follow.hidden || lesson === null || key === followShown) return;
    followShown = key;
    const after = lessons[index + 1];
    const at = `This link opens lesson ${index + 1} of ${lessons.length}${view.step === null ? "" : `, at step ${view.step} of the buffer timeline`}.`;
    setText(followNext, after ? `Next: ${after.title} ▶` : "");
    replaceChildren(
      follow,
      `${at} It does not follow the teacher by itself: when the class moves on, scan the new QR code${after ? ", or go on: " : "."}`,
      after ? followNext : null,
    );
  }

  let shown: string | undefined;
  let shownLesson: string | null | undefined;
  return {
    update(view) {
      const index = lessons.findIndex((l) => l.id === view.lesson);
      const lesson = lessons[index] ?? null;
      const told = !view.asking;
      const key = `${view.lesson}|${told}`;
      if (key !== shown) {
        // A lesson link opened on a phone opens on the lesson's card (the results follow it).
        const opening = shownLesson === undefined;
        const newLesson = view.lesson !== shownLesson;
        shown = key;
        shownLesson = view.lesson;
        card.hidden = lesson === null;
        card.dataset["lesson"] = lesson?.id ?? "";
        if (newLesson) {
          changed.reset();
          markBody(lesson);
        }
        if (lesson) show(lesson, index, told);
        if (lesson && opening && narrow.matches) requestAnimationFrame(() => holdAtTop(card));
      }
      body.hidden = view.ended;
      end.hidden = !view.ended;
      document.body.classList.toggle("lesson-ended", view.ended);
      question.update(lesson, index, lessons.length, view);
      showFollow(lesson, index, view);
      changed.update(lesson, view.fragment);
    },
  };
}
