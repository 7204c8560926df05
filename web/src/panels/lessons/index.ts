// The lessons as a guided path: one experiment per article, in order. Three
// pieces, each owning its element: the menu (the masthead's Lessons button
// and its list, menu.ts), the start line inviting a first-time visitor onto
// the path (menu.ts), and the card beside the results (card.ts), with
// predict-then-reveal's question (question.ts).
//
// The list comes from the engine (crate/src/catalog/lessons.rs, as
// generated data: engine/lessons.ts); nothing about a lesson is written
// here. Loading a lesson is opening its link (words.ts `load`). Text goes in
// as text only. The page hands the panel what it shows as a `LessonView`.

import type { Codec } from "../../engine/codec";
import { lessons } from "../../engine/lessons";
import type { LessonId } from "../../engine/types.gen";
import { createCard } from "./card";
import { createMenu, createStart } from "./menu";
import type { LessonView } from "./view";
import { load } from "./words";

export type { LessonView };

export interface Lessons {
  update(view: LessonView): void;
  /** Every lesson's id, in the path's order. */
  readonly order: readonly LessonId[];
  /** Opens a lesson through the page's link handling, as Next does. */
  open(id: LessonId): void;
  /** A lesson's own link (the catalog's, with its leading '#'; null for an unknown id). */
  linkOf(id: LessonId): string | null;
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
  /** Predict, then reveal: a guess typed (null: cleared). */
  guessed(guess: number | null): void;
  /** Reveal was pressed. */
  reveal(): void;
  /** A lesson's button asks for its shipped strace log in the trace panel. */
  openLog(): void;
}

export function createLessons({ menu, card, start, results, codec, guessed, reveal, openLog }: LessonsOptions): Lessons {
  const list = createMenu(menu, lessons, results);
  createStart(start, lessons, results);
  const lessonCard = createCard(card, { codec, lessons, results, guessed, reveal, openLog });
  let shown: LessonId | null | undefined;
  return {
    order: lessons.map((l) => l.id),
    open(id) {
      const lesson = lessons.find((l) => l.id === id);
      if (lesson) load(lesson, results);
    },
    linkOf: (id) => lessons.find((l) => l.id === id)?.link ?? null,
    update(view) {
      if (view.lesson !== shown) {
        shown = view.lesson;
        list.show(view.lesson);
        // Left out while a lesson is open (styles/reserved.css).
        start.classList.toggle("lesson-open", lessons.some((l) => l.id === view.lesson));
      }
      lessonCard.update(view);
    },
  };
}
