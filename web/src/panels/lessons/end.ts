// The end slide (owns its element, inside the lesson card): after the last
// lesson, a clicker's forward shows it in place of the lesson, with what the
// room saw, the handout and the answer key. Back returns to the last lesson.

import type { Lesson } from "../../engine/types.gen";
import { h } from "../../shared/dom";
import { introduction } from "./words";

export function createEnd(lessons: readonly Lesson[]): HTMLElement {
  const element = h(
    "section",
    { class: "lesson-end", id: "lesson-end", "aria-labelledby": "lesson-end-title" },
    h("h2", { id: "lesson-end-title", class: "lesson-end-title" }, "That was the last lesson"),
    h("p", {}, introduction(lessons)),
    h(
      "ol",
      { class: "lesson-end-list" },
      ...lessons.map((l) => h("li", {}, l.title)),
    ),
    h(
      "p",
      {},
      "Every lesson is a link: try your own settings on any of them. ",
      h("a", { href: "./handout.html", target: "_blank", rel: "noopener" }, "The handout"),
      " · ",
      h("a", { href: "./handout.html?answers", target: "_blank", rel: "noopener", id: "answer-key-link" }, "the answer key"),
    ),
    h("p", { class: "lesson-end-keys" }, "← / PageUp: back to the last lesson"),
  );
  element.hidden = true;
  return element;
}
