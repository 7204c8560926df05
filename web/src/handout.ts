// The workshop handout (handout.html): every lesson's title, question, what
// to try, its link and a QR code of the link, to print on two A4 pages. The
// lessons come from the engine's catalog (engine/lessons.ts), the links point
// at the page beside this one and open each lesson with predict on (the
// question before the answer). A tool bar (not printed) has Print, the way
// back to the page, and a warning when the page's address is one students'
// devices cannot open (shared/reach.ts). `handout.html?answers` is the
// teacher's answer key: each question with its answer explained, as the
// page shows it after Reveal (the engine's tests check those figures on the
// lessons' real results).

import { lessons } from "./engine/lessons";
import type { Lesson } from "./engine/types.gen";
import { fragmentOf } from "./shared/url";
import { h, replaceChildren } from "./shared/dom";
import { qrSvg } from "./shared/qr";
import { unreachableWhy } from "./shared/reach";

/** The page's address beside the handout (index.html's folder), with `fragment`. */
export function lessonUrl(handoutHref: string, fragment: string): string {
  return `${new URL("./", handoutHref).href}#${fragmentOf(fragment)}`;
}

/** A lesson's link for students: the question first (link key `predict`; lesson links never carry it). */
export function studentsFragment(lesson: Lesson): string {
  return `${fragmentOf(lesson.link)}&predict=on`;
}

const answers = new URLSearchParams(location.search).has("answers");
/** `handout.html?cards`: the room's answer cards (panels/room/cards-page.ts), loaded only for that page. */
const cards = new URLSearchParams(location.search).has("cards");

function tools(): HTMLElement {
  const print = h("button", { type: "button", id: "handout-print" }, "Print");
  print.addEventListener("click", () => window.print());
  const other = answers
    ? h("a", { href: "./handout.html", id: "handout-other" }, "The students' handout")
    : h("a", { href: "./handout.html?answers", id: "handout-other" }, "Answer key (for the teacher)");
  // The cards carry no link: no warning about reaching one.
  const why = cards ? null : unreachableWhy(location.href);
  const warning = why
    ? h(
        "p",
        { class: "handout-warning", id: "handout-warning", role: "alert" },
        h("strong", {}, "Students may not reach these links: "),
        `${why}. Serve the page at an address the room can open (a public host, or this computer's address on the room's network) and open the handout from there.`,
      )
    : null;
  const room = cards
    ? h("a", { href: "./handout.html", id: "handout-cards" }, "The students' handout")
    : h("a", { href: "./handout.html?cards", id: "handout-cards" }, "Answer cards (for the room)");
  return h("nav", { class: "handout-tools screen-only", "aria-label": "Handout" }, h("a", { href: "./", id: "handout-back" }, "← Back to BufLab"), print, cards ? null : other, room, warning);
}

function lessonItem(lesson: Lesson, i: number): HTMLElement {
  const url = lessonUrl(location.href, studentsFragment(lesson));
  const tryThis = lesson.notice[lesson.notice.length - 1] ?? "";
  const asked = answers
    ? [h("p", { class: "handout-question" }, h("strong", {}, "Question: "), lesson.question.text), h("p", { class: "handout-answer" }, h("strong", {}, "Answer: "), lesson.question.why)]
    : [
        h("p", { class: "handout-question" }, h("strong", {}, "Predict: "), lesson.question.text, " ", h("span", { class: "handout-blank" }, "My guess: ________")),
        h("p", { class: "handout-try" }, h("strong", {}, "Then try: "), tryThis),
      ];
  return h(
    "li",
    { class: "handout-lesson", "data-lesson": lesson.id },
    h("div", { class: "handout-text" }, h("h2", {}, `${i + 1}. ${lesson.title}`), ...asked, h("p", { class: "handout-link" }, h("a", { href: url }, url))),
    qrSvg(url, `QR code of the link to lesson ${i + 1}`),
  );
}

const list = document.getElementById("handout-lessons");
if (list) {
  if (answers) {
    document.title = "BufLab lessons: the answer key";
    const head = document.querySelector(".handout-head h1");
    if (head) head.textContent = "BufLab lessons: the answer key (for the teacher)";
  }
  list.before(tools());
  if (cards) {
    document.title = "BufLab: answer cards for the room";
    const head = document.querySelector(".handout-head h1");
    if (head) head.textContent = "BufLab: answer cards for the room";
    const intro = document.querySelector<HTMLElement>(".handout-head p");
    void import("./panels/room/cards-page").then((m) => intro && m.showCards(list, intro));
  } else replaceChildren(list, ...lessons.map(lessonItem));
}
