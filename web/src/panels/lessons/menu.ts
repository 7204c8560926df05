// The lessons' menu (owns the element it is given, the masthead's): a
// button that opens the full list as a popover, so the list lies over the
// page and never lengthens it; each lesson has its link and a Copy button.
// Also the start line (owns its element), inviting a first-time visitor onto
// the path.

import type { Lesson, LessonId } from "../../engine/types.gen";
import { copyText } from "../../shared/clipboard";
import { h, replaceChildren, setText } from "../../shared/dom";
import { fragmentOf, linkUrl } from "../../shared/url";
import { introduction, load, sourceLabel } from "./words";

export interface LessonMenu {
  /** Marks the lesson open (none: null). */
  show(id: LessonId | null): void;
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

/** One lesson of the list: its title (which opens it), where it comes from, its link to copy. */
function item(lesson: Lesson, index: number, popover: HTMLElement, results: HTMLElement) {
  const url = linkUrl(location.href, fragmentOf(lesson.link));
  const open = h("a", { href: lesson.link, class: "lesson-title", "data-lesson-load": lesson.id }, `${index + 1}. ${lesson.title}`);
  open.addEventListener("click", (event) => {
    event.preventDefault();
    popover.hidePopover();
    load(lesson, results);
  });
  const field = h("input", { type: "text", readonly: true, class: "lesson-link", value: url, "aria-label": `Link to the lesson ${lesson.title}`, spellcheck: "false" });
  const note = h("p", { class: "copy-note", role: "status", "aria-live": "polite" });
  const copy = h("button", { type: "button", class: "small" }, "Copy link");
  copy.addEventListener("click", () => copyLink(url, field, note));
  const current = h("span", { class: "lesson-current" }, "open");
  current.hidden = true;
  const element = h(
    "li",
    { class: "lesson", "data-lesson": lesson.id, id: `lesson-${lesson.id}` },
    h("p", { class: "lesson-line" }, open, " ", h("span", { class: "lesson-from" }, sourceLabel(lesson)), " ", current),
    h("p", { class: "lesson-explanation" }, lesson.explanation),
    h("div", { class: "link-row" }, field, copy),
    note,
  );
  return { lesson, element, current };
}

export function createMenu(menu: HTMLElement, lessons: readonly Lesson[], results: HTMLElement): LessonMenu {
  const popover = h("div", { id: "lesson-menu", class: "popover lesson-menu", popover: "auto", role: "dialog", "aria-labelledby": "lesson-menu-title" });
  const button = h("button", { type: "button", class: "small", id: "lessons-button", popovertarget: "lesson-menu" }, "Lessons");
  const close = h("button", { type: "button", class: "small", popovertarget: "lesson-menu", popovertargetaction: "hide" }, "Close");
  const items = lessons.map((lesson, i) => item(lesson, i, popover, results));
  replaceChildren(
    popover,
    h("div", { class: "popover-head" }, h("h2", { id: "lesson-menu-title" }, "Lessons: a guided path"), close),
    h("p", { class: "field-note" }, `${introduction(lessons)} Each is a link: opening it sets the settings, runs them and shows what to notice beside the results.`),
    h(
      "p",
      { class: "field-note" },
      h("a", { href: "./handout.html", id: "handout-link", target: "_blank", rel: "noopener" }, "Handout to print"),
      ": every lesson with its question, its link and a QR code, on two A4 pages.",
    ),
    h("ol", { id: "lesson-list", class: "lesson-list" }, ...items.map((i) => i.element)),
  );
  replaceChildren(menu, button, popover);
  return {
    show(id) {
      for (const { lesson, element, current } of items) {
        const isCurrent = lesson.id === id;
        element.classList.toggle("current", isCurrent);
        current.hidden = !isCurrent;
        if (isCurrent) element.setAttribute("aria-current", "true");
        else element.removeAttribute("aria-current");
      }
    },
  };
}

/** The start line, for a page opened without a lesson: one short line (styles/reserved.css keeps it one line high on every link). */
export function createStart(start: HTMLElement, lessons: readonly Lesson[], results: HTMLElement): void {
  const first = lessons[0];
  if (!first) return;
  const begin = h("a", { href: first.link, class: "lesson-start-link" }, `Lesson 1 of ${lessons.length}: ${first.title}`);
  begin.addEventListener("click", (event) => {
    event.preventDefault();
    load(first, results);
  });
  replaceChildren(start, h("span", { class: "lesson-start-lead" }, "New here? "), begin);
}
