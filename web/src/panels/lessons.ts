// The lessons as a guided path: one experiment per article, in order.
//
// - The card (owns <aside id="lesson-card">) sits with the results, beside
//   the charts it talks about: "Lesson n of N", the lesson's title and what
//   to notice, Previous and Next, and why the experiment is set up so.
// - The menu (owns the element given as `menu`) is a button that opens the
//   full list as a popover, so the list lies over the page and never
//   lengthens it; each lesson has its link and a Copy button.
// - The start line (owns `start`) invites a first-time visitor onto the path.
//
// The list comes from the engine (crate/src/catalog/lessons.rs, as
// generated data: engine/lessons.ts); nothing about a lesson is written here. Loading a lesson is opening its
// link: the page's one hashchange handler decodes, shows and runs it,
// exactly as for a pasted link. A link carrying `lesson=<id>` selects that
// lesson. Text goes in as text only.

import type { Codec } from "../engine/codec";
import { lessons } from "../engine/lessons";
import type { Lesson, LessonId, TermId } from "../engine/types.gen";
import { fragmentOf, linkUrl, sameExperiment } from "../app/link";
import { answerOf, guessFeedback } from "../app/predict";
import { predicting, type Action, type AppState } from "../app/state";
import { copyText } from "../shared/clipboard";
import { h, holdAtTop, replaceChildren, setText } from "../shared/dom";
import { formatCount, listText } from "../shared/format";
import { articleOf } from "./articles";
import { fillWithTerms, termNodes } from "./glossary";

export interface Lessons {
  update(state: AppState): void;
  /** Every lesson's id, in the path's order. */
  readonly order: readonly LessonId[];
  /** Opens a lesson through the page's link handling, as Next does. */
  open(id: LessonId): void;
}

export interface LessonsOptions {
  /** Where the Lessons button and its popover list go (the masthead). */
  menu: HTMLElement;
  /** The card beside the results. */
  card: HTMLElement;
  /** The line inviting a first-time visitor onto the path. */
  start: HTMLElement;
  /** Scrolled to (and focused) after a lesson is loaded from the menu or the card: where its numbers appear. */
  results: HTMLElement;
  codec: Codec;
  /** Predict, then reveal: the card's guess and Reveal go to the page's model. */
  dispatch(action: Action): void;
}

/** Where a lesson comes from, in words: "the BufRead article", or "a sweep" for BufLab's own. */
export function sourceLabel(lesson: Lesson): string {
  return articleOf(lesson.seed)?.short ?? (lesson.seed === "sweep" ? "a sweep" : `article ${lesson.seed}`);
}

/**
 * The lesson list's introduction, counted from the lessons themselves: how
 * many, how many redo an article's experiment and from how many articles,
 * and how many are BufLab's own (by their kind: "2 sweeps").
 */
export function introduction(list: readonly Lesson[]): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
  const fromArticles = list.filter((l) => articleOf(l.seed));
  const articles = new Set(fromArticles.map((l) => l.seed)).size;
  const own = new Map<string, number>();
  for (const l of list) if (!articleOf(l.seed)) own.set(l.seed, (own.get(l.seed) ?? 0) + 1);
  const ownText = own.size === 0 ? "" : `, and ${listText([...own].map(([kind, n]) => plural(n, kind)))} of BufLab's own`;
  const from = articles === 1 ? "one article" : `the ${articles} articles`;
  return `${plural(list.length, "lesson")}: ${plural(fromArticles.length, "experiment")} from ${from} BufLab is built from${ownText}.`;
}

/** Opens a lesson's link through the page's own link handling (hashchange). */
function load(lesson: Lesson, results: HTMLElement | null): void {
  const fragment = fragmentOf(lesson.link);
  if (fragmentOf(location.hash) !== fragment) location.hash = fragment;
  if (results) {
    results.scrollIntoView({ block: "start" });
    results.focus({ preventScroll: true });
  }
}

/** Copies `text`, or selects it in `field` for Ctrl+C where the clipboard is not allowed. */
function copyLink(text: string, field: HTMLInputElement, note: HTMLElement): void {
  copyText(
    text,
    () => setText(note, "Link copied."),
    () => {
      field.focus();
      field.select();
      setText(note, "Press Ctrl+C (⌘C) to copy the selected link.");
    },
  );
}

/** A typed guess as a number ("3,641", "3641 ", "1e3"); null when it is none. */
export function parseGuess(text: string): number | null {
  const cleaned = text.replace(/[,_\s]/g, "");
  if (cleaned === "") return null;
  const n = Number(cleaned);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

export function createLessons({ menu, card, start, results, codec, dispatch }: LessonsOptions): Lessons {
  const total = lessons.length;
  // The canonical fragment each lesson's link decodes to: the page's address
  // after loading it, so "changed since loading" compares like with like.
  const canonical = new Map(lessons.map((l) => [l.id, codec.decodeLink(fragmentOf(l.link)).fragment]));
  // The same for each change a lesson's points suggest: following one is not leaving the lesson.
  const suggested = new Map(lessons.map((l) => [l.id, l.suggestions.map((s) => ({ text: s.text, fragment: codec.decodeLink(fragmentOf(s.link)).fragment }))]));

  // ---- the menu: every lesson, in order, with its link
  const popover = h("div", { id: "lesson-menu", class: "popover lesson-menu", popover: "auto", role: "dialog", "aria-labelledby": "lesson-menu-title" });
  const button = h("button", { type: "button", class: "small", id: "lessons-button", popovertarget: "lesson-menu" }, "Lessons");
  const close = h("button", { type: "button", class: "small", popovertarget: "lesson-menu", popovertargetaction: "hide" }, "Close");
  const items = lessons.map((lesson, i) => {
    const url = linkUrl(location.href, fragmentOf(lesson.link));
    const open = h("a", { href: lesson.link, class: "lesson-title", "data-lesson-load": lesson.id }, `${i + 1}. ${lesson.title}`);
    open.addEventListener("click", (event) => {
      event.preventDefault();
      popover.hidePopover();
      load(lesson, results);
    });
    const field = h("input", {
      type: "text",
      readonly: true,
      class: "lesson-link",
      value: url,
      "aria-label": `Link to the lesson ${lesson.title}`,
      spellcheck: "false",
    });
    const note = h("p", { class: "copy-note", role: "status", "aria-live": "polite" });
    const copy = h("button", { type: "button", class: "small" }, "Copy link");
    copy.addEventListener("click", () => copyLink(url, field, note));
    const current = h("span", { class: "lesson-current" }, "open");
    current.hidden = true;
    const item = h(
      "li",
      { class: "lesson", "data-lesson": lesson.id, id: `lesson-${lesson.id}` },
      h("p", { class: "lesson-line" }, open, " ", h("span", { class: "lesson-from" }, sourceLabel(lesson)), " ", current),
      h("p", { class: "lesson-explanation" }, lesson.explanation),
      h("div", { class: "link-row" }, field, copy),
      note,
    );
    return { lesson, item, current };
  });
  replaceChildren(
    popover,
    h("div", { class: "popover-head" }, h("h2", { id: "lesson-menu-title" }, "Lessons: a guided path"), close),
    h(
      "p",
      { class: "field-note" },
      `${introduction(lessons)} Each is a link: opening it sets the settings, runs them and shows what to notice beside the results.`,
    ),
    h(
      "p",
      { class: "field-note" },
      h("a", { href: "./handout.html", id: "handout-link", target: "_blank", rel: "noopener" }, "Handout to print"),
      ": every lesson with its question, its link and a QR code, on two A4 pages.",
    ),
    h("ol", { id: "lesson-list", class: "lesson-list" }, ...items.map((i) => i.item)),
  );
  replaceChildren(menu, button, popover);

  // ---- the start line, for a page opened without a lesson
  const first = lessons[0];
  if (first) {
    const begin = h("a", { href: first.link, class: "lesson-start-link" }, `Lesson 1 of ${total}: ${first.title}`);
    begin.addEventListener("click", (event) => {
      event.preventDefault();
      load(first, results);
    });
    // One short line (styles/reserved.css keeps it one line high on every link).
    replaceChildren(start, h("span", { class: "lesson-start-lead" }, "New here? "), begin);
  }

  // ---- the card
  const step = h("span", { class: "lesson-step" });
  const from = h("span", { class: "lesson-from" });
  const previous = h("button", { type: "button", class: "small", "data-action": "lesson-previous" }, "◀ Previous");
  const next = h("button", { type: "button", class: "small", "data-action": "lesson-next" }, "Next ▶");
  const all = h("button", { type: "button", class: "small", popovertarget: "lesson-menu" }, "All lessons");
  const title = h("h2", { id: "lesson-card-title", class: "lesson-card-title" });
  const changed = h("p", { class: "lesson-changed" });
  const chosen = h("p", { class: "lesson-chosen", role: "status" });
  chosen.hidden = true;
  const points = h("ul", { class: "lesson-points" });
  // What to notice: on a phone it starts folded, so a lesson link opens on
  // the card and the chart it talks about together (styles/lessons.css shows
  // the fold's summary on phones only; wider screens keep it open).
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
  // Predict, then reveal (link key predict): the question, a guess, Reveal, then the answer and why.
  const questionText = h("p", { class: "lesson-question-text", id: "lesson-question-text" });
  const guessField = h("input", {
    type: "text",
    inputmode: "numeric",
    autocomplete: "off",
    class: "lesson-guess",
    id: "lesson-guess",
    "aria-describedby": "lesson-question-text",
    spellcheck: "false",
  });
  guessField.addEventListener("input", () => dispatch({ type: "guessed", guess: parseGuess(guessField.value) }));
  const revealButton = h("button", { type: "submit", class: "reveal", "data-action": "reveal" }, "Reveal");
  const guessForm = h(
    "form",
    { class: "lesson-guess-row", novalidate: true },
    h("label", { for: "lesson-guess" }, "Your guess"),
    guessField,
    revealButton,
  );
  guessForm.addEventListener("submit", (event) => {
    event.preventDefault();
    dispatch({ type: "guessed", guess: parseGuess(guessField.value) });
    dispatch({ type: "reveal" });
  });
  const answerLine = h("p", { class: "lesson-answer", role: "status", "aria-live": "polite" });
  const feedbackLine = h("p", { class: "lesson-feedback" });
  const whyLine = h("p", { class: "lesson-answer-why" });
  const question = h(
    "section",
    { class: "lesson-question", "aria-label": "Predict, then reveal" },
    h("p", { class: "lesson-question-head" }, "Predict"),
    questionText,
    guessForm,
    answerLine,
    feedbackLine,
    whyLine,
  );
  const keys = h("p", { class: "lesson-keys" });
  replaceChildren(
    card,
    h("div", { class: "lesson-card-head" }, h("p", { class: "lesson-where" }, step, " · ", from), h("div", { class: "lesson-nav", role: "group", "aria-label": "Lesson path" }, previous, next, all)),
    title,
    changed,
    chosen,
    question,
    keys,
    notice,
    h("details", { class: "lesson-why" }, h("summary", {}, "Why this experiment"), explanation, world, claim),
  );
  card.setAttribute("aria-labelledby", "lesson-card-title");
  card.hidden = true;

  let shownLesson: string | null | undefined;
  let shownChanged: string | undefined;
  let shownAsk = "";

  return {
    order: lessons.map((l) => l.id),
    open(id) {
      const lesson = lessons.find((l) => l.id === id);
      if (lesson) load(lesson, results);
    },
    update(state) {
      const id = state.params.lesson;
      const index = lessons.findIndex((l) => l.id === id);
      const lesson = lessons[index] ?? null;
      if (id !== shownLesson) {
        // A lesson link opened on a phone opens on the lesson's card (the results follow it).
        const opening = shownLesson === undefined;
        shownLesson = id;
        shownChanged = undefined;
        for (const item of items) {
          const isCurrent = item.lesson.id === id;
          item.item.classList.toggle("current", isCurrent);
          item.current.hidden = !isCurrent;
          if (isCurrent) item.item.setAttribute("aria-current", "true");
          else item.item.removeAttribute("aria-current");
        }
        card.hidden = lesson === null;
        // Left out while a lesson is open (styles/reserved.css).
        start.classList.toggle("lesson-open", lesson !== null);
        card.dataset["lesson"] = lesson?.id ?? "";
        document.body.classList.toggle("has-lesson", lesson !== null);
        // The charts the lesson is about come first (styles/lessons.css reads this list).
        if (lesson) {
          document.body.dataset["lessonCharts"] = lesson.charts.join(" ");
          document.body.dataset["lessonChart"] = lesson.charts[0] ?? "";
        } else {
          delete document.body.dataset["lessonCharts"];
          delete document.body.dataset["lessonChart"];
        }
        if (lesson) {
          setText(step, `Lesson ${index + 1} of ${total}`);
          setText(from, `from ${sourceLabel(lesson)}`);
          setText(title, lesson.title);
          // Each term links once per card, where the card first uses it.
          const linked = new Set<TermId>();
          replaceChildren(points, ...lesson.notice.map((point) => h("li", {}, ...termNodes(point, linked))));
          fillWithTerms(explanation, lesson.explanation, linked);
          replaceChildren(world, ...termNodes(lesson.world_note, linked));
          replaceChildren(claim, h("strong", {}, "The claim, checked by a test on this link: "), ...termNodes(lesson.claim, linked));
          const before = lessons[index - 1];
          const after = lessons[index + 1];
          previous.disabled = !before;
          next.disabled = !after;
          previous.title = before ? `Lesson ${index}: ${before.title}` : "";
          next.title = after ? `Lesson ${index + 2}: ${after.title}` : "";
          previous.onclick = () => before && load(before, results);
          next.onclick = () => after && load(after, results);
          reload.onclick = () => load(lesson, results);
          if (opening && narrow.matches) requestAnimationFrame(() => holdAtTop(card));
        }
      }
      // Predict, then reveal: the results and the points wait for Reveal (styles/lessons.css: body.predicting).
      const asking = lesson !== null && predicting(state);
      const answer = lesson !== null && state.params.predict && !asking ? answerOf(lesson.question.answer, state) : null;
      const ask = lesson === null ? "" : `${lesson.id}|${state.params.predict}|${asking}|${answer}|${state.guess}|${state.params.present}`;
      if (ask !== shownAsk) {
        shownAsk = ask;
        document.body.classList.toggle("predicting", asking);
        question.hidden = lesson === null || !state.params.predict;
        notice.hidden = asking;
        if (lesson) {
          fillWithTerms(questionText, lesson.question.text);
          if (document.activeElement !== guessField) guessField.value = state.guess === null ? "" : String(state.guess);
          // After Reveal the guess is in the feedback line; the row gives its room to the answer.
          guessForm.hidden = !asking;
          answerLine.hidden = asking;
          whyLine.hidden = asking;
          feedbackLine.hidden = asking || state.guess === null || answer === null;
          setText(answerLine, answer === null ? "Answer: measuring…" : `Answer: ${formatCount(answer)} ${lesson.question.unit}.`);
          setText(feedbackLine, answer !== null && state.guess !== null ? guessFeedback(state.guess, answer) : "");
          fillWithTerms(whyLine, lesson.question.why);
          const forward = asking ? "reveal" : index + 1 < total ? "next lesson" : "(last lesson)";
          setText(keys, `→ / PageDown: ${forward} · ← / PageUp: back`);
        }
      }
      // Display keys (presenter mode, the view) change how the page looks, not the experiment;
      // a change the lesson's points suggest is named as what the person chose, not as leaving the lesson.
      const displayKeys = codec.schema.display_keys;
      const isChanged = lesson !== null && !sameExperiment(canonical.get(lesson.id) ?? "", state.fragment, displayKeys);
      const suggestion = isChanged ? suggested.get(lesson.id)?.find((s) => sameExperiment(s.fragment, state.fragment, displayKeys)) : undefined;
      const changeKey = !isChanged ? "" : suggestion ? `chose:${suggestion.text}` : "changed";
      if (changeKey !== shownChanged) {
        shownChanged = changeKey;
        changed.hidden = changeKey !== "changed";
        chosen.hidden = suggestion === undefined;
        replaceChildren(
          changed,
          changeKey === "changed" ? "Settings changed since this lesson was loaded; its points describe its own settings. " : null,
          changeKey === "changed" ? reload : null,
        );
        setText(chosen, suggestion ? `You chose the lesson's suggestion: ${suggestion.text}. The point that suggests it says what these settings show; the others describe the lesson's own settings.` : "");
      }
    },
  };
}
