// The lessons: one guided experiment per seed article, listed in the lessons
// panel (it owns <div id="lesson-list">), and the selected lesson's points
// shown above the results (it owns <div id="lesson-note">), so a person reads
// what to notice next to the numbers.
//
// The list comes from the engine's schema (crate/src/catalog/lessons.rs); nothing
// about a lesson is written here. Loading a lesson is opening its link: the
// button sets the address's fragment and the page's one hashchange handler
// (main.ts) decodes, shows and runs it, exactly as for a pasted link. A link
// carrying `lesson=<id>` selects that lesson here. Text goes in as text only.

import type { Codec } from "../engine/codec";
import type { Lesson } from "../engine/types.gen";
import { fragmentOf, linkUrl, sameExperiment } from "../link";
import type { AppState } from "../state";
import { h, replaceChildren, setText } from "./dom";

export interface Lessons {
  update(state: AppState): void;
}

export interface LessonsOptions {
  list: HTMLElement;
  note: HTMLElement;
  /** Scrolled to (and focused) after a lesson is loaded: where its numbers appear. */
  results: HTMLElement;
  codec: Codec;
}

function seedLabel(lesson: Lesson): string {
  return lesson.seed === "sweep" ? "sweep" : `seed ${lesson.seed}`;
}

/** Opens a lesson's link through the page's own link handling (hashchange). */
function load(lesson: Lesson, results: HTMLElement): void {
  const fragment = fragmentOf(lesson.link);
  if (fragmentOf(location.hash) !== fragment) location.hash = fragment;
  results.scrollIntoView({ block: "start" });
  results.focus({ preventScroll: true });
}

/** Copies `text`, or selects it in `field` for Ctrl+C where the clipboard is not allowed. */
function copy(text: string, field: HTMLInputElement, note: HTMLElement): void {
  const fallback = (): void => {
    field.focus();
    field.select();
    setText(note, "Press Ctrl+C (⌘C) to copy the selected link.");
  };
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).then(() => setText(note, "Link copied."), fallback);
  else fallback();
}

export function createLessons({ list, note, results, codec }: LessonsOptions): Lessons {
  const lessons = codec.schema.lessons;
  // The canonical fragment each lesson's link decodes to: the page's address
  // after loading it, so "changed since loading" compares like with like.
  const canonical = new Map(lessons.map((l) => [l.id, codec.decodeLink(fragmentOf(l.link)).fragment]));

  const items = lessons.map((lesson) => {
    const url = linkUrl(location.href, fragmentOf(lesson.link));
    const loadButton = h("button", { type: "button", class: "primary", "data-lesson-load": lesson.id }, "Load this lesson");
    loadButton.addEventListener("click", () => load(lesson, results));
    const field = h("input", {
      type: "text",
      readonly: true,
      class: "lesson-link",
      value: url,
      "aria-label": `Link to the lesson ${lesson.title}`,
      spellcheck: "false",
    });
    const copyNote = h("p", { class: "copy-note", role: "status", "aria-live": "polite" });
    const copyButton = h("button", { type: "button" }, "Copy link");
    copyButton.addEventListener("click", () => copy(url, field, copyNote));
    const current = h("span", { class: "lesson-current" }, "loaded");
    const details = h(
      "details",
      { class: "lesson", "data-lesson": lesson.id, id: `lesson-${lesson.id}` },
      h(
        "summary",
        {},
        h("span", { class: "lesson-title" }, lesson.title),
        h("span", { class: "lesson-seed" }, seedLabel(lesson)),
        current,
      ),
      h("p", { class: "lesson-explanation" }, lesson.explanation),
      h("h3", {}, "What to notice"),
      h("ul", { class: "lesson-points" }, ...lesson.notice.map((point) => h("li", {}, point))),
      h("p", { class: "lesson-claim" }, h("strong", {}, "The claim, checked by a test on this link: "), lesson.claim),
      h("div", { class: "lesson-actions" }, loadButton, copyButton),
      h("div", { class: "link-row" }, field),
      copyNote,
    );
    return { lesson, details, current };
  });
  replaceChildren(list, ...items.map((i) => i.details));

  // The note above the results: rebuilt when the selected lesson changes.
  const changed = h("p", { class: "lesson-changed" });
  const noteHead = h("p", { class: "lesson-note-head" });
  const notePoints = h("ul", { class: "lesson-points" });
  const allLessons = h("a", { href: "#lessons", class: "lesson-all" }, "All lessons");
  replaceChildren(note, noteHead, changed, notePoints, allLessons);
  // Links to the panel (this note's, the masthead's) scroll without touching
  // the fragment: the fragment is the experiment.
  const panel = list.closest("section");
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[href="#lessons"]')) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      panel?.scrollIntoView({ block: "start" });
      panel?.focus({ preventScroll: true });
    });
  }
  const reload = h("button", { type: "button", class: "link-button" }, "Load it again");
  note.classList.add("lesson-note");
  note.setAttribute("aria-label", "Lesson");
  note.hidden = true;

  let shownLesson: string | null | undefined;
  let shownChanged: boolean | undefined;

  return {
    update(state) {
      const id = state.params.lesson;
      const lesson = lessons.find((l) => l.id === id) ?? null;
      if (id !== shownLesson) {
        shownLesson = id;
        shownChanged = undefined;
        for (const item of items) {
          const isCurrent = item.lesson.id === id;
          item.details.classList.toggle("current", isCurrent);
          item.current.hidden = !isCurrent;
          if (isCurrent) {
            item.details.open = true;
            item.details.setAttribute("aria-current", "true");
          } else {
            item.details.removeAttribute("aria-current");
          }
        }
        note.hidden = lesson === null;
        note.dataset["lesson"] = lesson?.id ?? "";
        if (lesson) {
          replaceChildren(
            noteHead,
            h("span", { class: "lesson-seed" }, `Lesson · ${seedLabel(lesson)}`),
            " ",
            h("strong", {}, lesson.title),
          );
          replaceChildren(notePoints, ...lesson.notice.map((point) => h("li", {}, point)));
          reload.onclick = () => load(lesson, results);
        }
      }
      // Display keys (presenter mode) change how the page looks, not the experiment.
      const isChanged = lesson !== null && !sameExperiment(canonical.get(lesson.id) ?? "", state.fragment, codec.schema.display_keys);
      if (isChanged !== shownChanged) {
        shownChanged = isChanged;
        changed.hidden = !isChanged;
        replaceChildren(
          changed,
          isChanged ? "Settings changed since this lesson was loaded; the points below describe its own settings. " : null,
          isChanged ? reload : null,
        );
      }
    },
  };
}
