// The page's listeners on the document and the window: a term opens its
// glossary entry, the skip link moves focus, a link pasted into the address
// bar (or a lesson opened, which sets the hash) is read, a presentation
// clicker steps through the lessons, files dropped on the page are compared
// (never opened by the browser in the page's place), and a change of colour
// scheme re-themes the charts.

import type { LessonId, TermId } from "../engine/types.gen";
import type { ThemeSwitch } from "../shared/theme";
import { fragmentOf } from "../shared/url";
import { clickerMove } from "./clicker";
import type { Action, AppState } from "./state";

export interface ListenersOptions {
  state(): AppState;
  dispatch(action: Action): void;
  /** A link to read (the address bar's hash, as the event saw it). */
  readLink(hash: string): void;
  openTerm(id: TermId): void;
  /** The lessons' order, once their panel has arrived. */
  lessonOrder(then: (order: readonly LessonId[]) => void): void;
  results: HTMLElement;
  theme: ThemeSwitch;
  retheme(): void;
  /** Result files dropped on the page (a drop zone of its own, the trace panel's, takes its drops first). */
  dropFiles(files: File[]): void;
}

export function listen({ state, dispatch, readLink, openTerm, lessonOrder, results, theme, retheme, dropFiles }: ListenersOptions): void {
  // A term (a dotted word: `button.term[data-term]`, wherever it sits) opens its glossary entry.
  document.addEventListener("click", (event) => {
    const term = event.target instanceof Element ? event.target.closest<HTMLElement>("[data-term]") : null;
    const id = term?.dataset["term"];
    if (!id) return;
    event.preventDefault();
    openTerm(id as TermId);
  });

  // The skip link moves focus without touching the fragment (the fragment is the experiment).
  document.querySelector("a.skip")?.addEventListener("click", (event) => {
    event.preventDefault();
    results.scrollIntoView({ block: "start" });
    results.focus({ preventScroll: true });
  });

  // A fragment naming an element on the page is in-page navigation, not an
  // experiment. The event's own URL, not the address bar's: a link written
  // between the navigation and this event must not stand for it.
  window.addEventListener("hashchange", (event) => {
    const hash = new URL(event.newURL).hash;
    if (document.getElementById(fragmentOf(hash))) return;
    readLink(hash);
  });

  // In presenter mode, → and PageDown reveal the answer, then go to the next
  // lesson; ← and PageUp go back (clicker.ts: from which focus, and over the QR code).
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented) return;
    const { params } = state();
    const target = event.target instanceof HTMLElement ? event.target : null;
    const qr = document.getElementById("qr-panel");
    const move = clickerMove({
      key: event.key,
      modified: event.altKey || event.ctrlKey || event.metaKey || event.shiftKey,
      inControl: target?.closest("input, textarea, select, [contenteditable=''], [contenteditable='true'], [role='slider'], [role='listbox']") != null,
      qrShown: qr?.matches(":popover-open") === true,
      presenting: params.present && params.lesson !== null,
    });
    if (move === null) return;
    event.preventDefault();
    if (move === "closeQr") {
      qr?.hidePopover();
      return;
    }
    if (move === "blank") {
      dispatch({ type: "blank" });
      return;
    }
    // The control the teacher touched last lets go of the keys that follow.
    if (target && target !== document.body) target.blur();
    lessonOrder((order) => dispatch({ type: move, order }));
  });

  // Files dragged over the page are droppable anywhere; a zone that took them (preventDefault) keeps them.
  const dragsFiles = (event: DragEvent): boolean => !event.defaultPrevented && (event.dataTransfer?.types.includes("Files") ?? false);
  document.addEventListener("dragover", (event) => {
    if (dragsFiles(event)) event.preventDefault();
  });
  document.addEventListener("drop", (event) => {
    if (!dragsFiles(event)) return;
    event.preventDefault();
    dropFiles([...(event.dataTransfer?.files ?? [])]);
  });

  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", retheme);
  theme.onChange(retheme);
}
