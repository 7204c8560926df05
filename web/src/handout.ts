// The workshop handout (handout.html): every lesson's title, question, what
// to try, its link and a QR code of the link, to print on two A4 pages. The
// lessons come from the engine's catalog (engine/lessons.ts), the links point
// at the page beside this one.

import { lessons } from "./engine/lessons";
import { fragmentOf } from "./shared/url";
import { h, replaceChildren } from "./shared/dom";
import { qrSvg } from "./shared/qr";

/** The page's address beside the handout (index.html's folder), with `fragment`. */
export function lessonUrl(handoutHref: string, fragment: string): string {
  return `${new URL("./", handoutHref).href}#${fragmentOf(fragment)}`;
}

const list = document.getElementById("handout-lessons");
if (list) {
  replaceChildren(
    list,
    ...lessons.map((lesson, i) => {
      const url = lessonUrl(location.href, lesson.link);
      const tryThis = lesson.notice[lesson.notice.length - 1] ?? "";
      return h(
        "li",
        { class: "handout-lesson", "data-lesson": lesson.id },
        h(
          "div",
          { class: "handout-text" },
          h("h2", {}, `${i + 1}. ${lesson.title}`),
          h("p", { class: "handout-question" }, h("strong", {}, "Predict: "), lesson.question.text, " ", h("span", { class: "handout-blank" }, "My guess: ________")),
          h("p", { class: "handout-try" }, h("strong", {}, "Then try: "), tryThis),
          h("p", { class: "handout-link" }, h("a", { href: url }, url)),
        ),
        qrSvg(url, `QR code of the link to lesson ${i + 1}`),
      );
    }),
  );
}
