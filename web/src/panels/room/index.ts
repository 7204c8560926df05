// The room's answers, in presenter mode at a lesson's question: the four
// choices A to D (the engine's, asked once per lesson through `choices`;
// panels/lessons/choices.ts checks them), Scan the room (the camera
// reads the students' printed cards: handout.html?cards), which card numbers
// have answered (never what), and after Reveal the room's histogram beside
// the real answer. Without a camera, or when it is refused, the teacher
// types the raised hands per letter and gets the same histogram. It owns
// its element (#room); the page's model decides everything (app/room.ts)
// and hands it a `RoomView`.

import { lessons } from "../../engine/lessons";
import type { Answer, LessonChoices, LessonId } from "../../engine/types.gen";
import { LETTERS, type Letter } from "../../shared/cards";
import { h, replaceChildren, setText } from "../../shared/dom";
import { formatCount } from "../../shared/format";
import { choicesOf, type Choice } from "../lessons/choices";
import type { CurrentResults } from "../lessons/view";
import "./room.css";

export interface RoomView {
  /** Presenter mode, predict on, a lesson open. */
  shown: boolean;
  lesson: LessonId | null;
  /** The question waits for its answer. */
  asking: boolean;
  camera: "off" | "starting" | "on" | "refused" | "unavailable";
  cameraNote: string | null;
  answered: readonly number[];
  histogram: Readonly<Record<Letter, number>>;
  hands: Readonly<Record<Letter, number>>;
  /** The lesson's own results, its choices come from. */
  results: CurrentResults;
}

export interface RoomOptions {
  scan(): void;
  stop(): void;
  hands(letter: Letter, count: number): void;
  /** The engine's four choices of a lesson's question (its link says which build runs it). */
  choices(lesson: LessonId, link: string, answer: Answer): Promise<LessonChoices>;
}

export interface RoomPanel {
  update(view: RoomView): void;
}

/** "cards 1, 5 and 10", or "no card yet". */
function cardsText(cards: readonly number[]): string {
  if (cards.length === 0) return "No card seen yet.";
  const list = cards.length === 1 ? `${cards[0]}` : `${cards.slice(0, -1).join(", ")} and ${cards.at(-1)}`;
  return `${cards.length} ${cards.length === 1 ? "card has" : "cards have"} answered: ${cards.length === 1 ? "card" : "cards"} ${list}.`;
}

export function createRoom(element: HTMLElement, { scan, stop, hands, choices: ask }: RoomOptions): RoomPanel {
  // The engine's choices per lesson: asked once, kept (they are a function of the lesson).
  const asked = new Map<LessonId, LessonChoices | "pending" | "failed">();
  const choicesList = h("ol", { class: "room-choices", id: "room-choices" });
  const scanButton = h("button", { type: "button", id: "room-scan", class: "small" }, "Scan the room");
  const stopButton = h("button", { type: "button", id: "room-stop", class: "small" }, "Stop scanning");
  scanButton.addEventListener("click", scan);
  stopButton.addEventListener("click", stop);
  const privacy = h("p", { class: "room-privacy" }, "The camera's pictures are read on this computer, in this page, and never stored or sent.");
  const status = h("p", { class: "room-status", id: "room-status", role: "status", "aria-live": "polite" });
  const handInputs = Object.fromEntries(
    LETTERS.map((letter) => {
      const input = h("input", { type: "number", min: 0, max: 999, step: 1, inputmode: "numeric", id: `room-hands-${letter}`, class: "room-hands-input", value: "0" });
      input.addEventListener("input", () => hands(letter, input.value === "" ? 0 : Number(input.value)));
      return [letter, input];
    }),
  ) as Record<Letter, HTMLInputElement>;
  const handsBox = h(
    "details",
    { class: "room-hands", id: "room-hands" },
    h("summary", {}, "Count raised hands instead"),
    h("div", { class: "room-hands-row" }, ...LETTERS.map((l) => h("label", { for: `room-hands-${l}` }, `${l} `, handInputs[l]))),
  );
  const chart = h("div", { class: "room-histogram", id: "room-histogram", role: "img" });
  chart.hidden = true;
  element.append(h("h2", { class: "room-head" }, "The room"), choicesList, h("div", { class: "room-buttons" }, scanButton, stopButton), privacy, status, handsBox, chart);
  let drawn = "";

  function drawChoices(choices: Choice[] | null, unit: string, asking: boolean, failed: boolean): void {
    if (choices === null) {
      replaceChildren(choicesList, h("li", {}, failed ? "The engine could not work out the choices; ask for a number instead." : "The choices come with the lesson's results…"));
      return;
    }
    // After Reveal each choice says what it is: the real run, or the run whose count a wrong card gave.
    replaceChildren(
      choicesList,
      ...choices.map((c) =>
        h(
          "li",
          { "data-letter": c.letter, class: !asking && c.real ? "room-real" : null },
          h("strong", {}, c.letter),
          ` ${formatCount(c.value)} ${unit}`,
          !asking && c.real ? " ✓ the answer" : "",
          asking ? "" : h("span", { class: "room-what" }, `: ${c.what}`),
        ),
      ),
    );
  }

  function drawHistogram(view: RoomView, choices: Choice[] | null): void {
    const total = LETTERS.reduce((n, l) => n + view.histogram[l], 0);
    const most = Math.max(1, ...LETTERS.map((l) => view.histogram[l]));
    const real = choices?.find((c) => c.real)?.letter ?? null;
    chart.setAttribute("aria-label", `The room's answers: ${LETTERS.map((l) => `${l} ${view.histogram[l]}`).join(", ")}${real ? `; the answer is ${real}` : ""}`);
    replaceChildren(
      chart,
      h("p", { class: "room-total" }, total === 0 ? "No answers from the room." : `${total} ${total === 1 ? "answer" : "answers"} from the room:`),
      ...LETTERS.map((l) => {
        const bar = h("span", { class: "room-bar" });
        bar.style.width = `${(100 * view.histogram[l]) / most}%`;
        return h("div", { class: `room-row${l === real ? " room-real" : ""}`, "data-letter": l }, h("strong", {}, l), h("span", { class: "room-bar-track" }, bar), h("span", { class: "room-count" }, String(view.histogram[l])));
      }),
    );
  }

  let last: RoomView | null = null;
  /** The engine's choices of `lesson`, asked for the first time it shows. */
  function engineChoices(lesson: LessonId, link: string, answer: Answer): LessonChoices | "pending" | "failed" {
    const known = asked.get(lesson);
    if (known !== undefined) return known;
    asked.set(lesson, "pending");
    ask(lesson, link, answer).then(
      (c) => asked.set(lesson, c),
      () => asked.set(lesson, "failed"),
    ).finally(() => {
      if (last !== null) panel.update(last);
    });
    return "pending";
  }

  const panel: RoomPanel = {
    update(view) {
      last = view;
      const lesson = lessons.find((l) => l.id === view.lesson) ?? null;
      const engine = lesson && view.shown ? engineChoices(lesson.id, lesson.link.replace(/^#/, ""), lesson.question.answer) : "pending";
      const key = JSON.stringify([typeof engine === "string" ? engine : "done", view.shown, view.lesson, view.asking, view.camera, view.cameraNote, view.answered, view.histogram, view.results.report?.link, view.results.sweep?.link, view.results.sweep?.complete]);
      if (key === drawn) return;
      drawn = key;
      element.hidden = !view.shown;
      if (!view.shown) return;
      const choices = lesson && typeof engine !== "string" ? choicesOf(lesson.question.answer, view.results, engine) : null;
      drawChoices(choices, lesson?.question.unit ?? "", view.asking, engine === "failed");
      const scanning = view.camera === "starting" || view.camera === "on";
      scanButton.hidden = !view.asking || scanning;
      stopButton.hidden = !scanning;
      privacy.hidden = !view.asking;
      const failed = view.camera === "refused" || view.camera === "unavailable";
      if (failed) handsBox.open = true;
      for (const l of LETTERS) if (document.activeElement !== handInputs[l]) handInputs[l].value = String(view.hands[l]);
      handsBox.hidden = !view.asking && !LETTERS.some((l) => view.hands[l] > 0);
      setText(
        status,
        failed
          ? `${view.cameraNote ?? "No camera"}: count the raised hands for each letter instead.`
          : view.camera === "starting"
            ? "Starting the camera…"
            : view.camera === "on" || view.answered.length > 0
              ? cardsText(view.answered)
              : view.asking
                ? "Students hold up their answer cards, the chosen letter on top; or count raised hands."
                : "",
      );
      chart.hidden = view.asking;
      if (!view.asking) drawHistogram(view, choices);
    },
  };
  return panel;
}
