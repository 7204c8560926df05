// A presentation clicker's keys in presenter mode, as a decision: what a key
// does given where the focus is and whether the QR code is shown. A clicker
// sends PageDown and PageUp (some send the arrow keys); the teacher has
// usually just touched a slider, a checkbox or a field, so PageDown and
// PageUp move the lesson from anywhere, while the arrow keys keep their
// meaning inside a control (a slider's step, a caret). Over the QR code a
// key first closes it: the answer behind it is not revealed by surprise.
// B (or ".", as slide tools and many clickers' blank button send) blanks the
// screen and brings it back.

export type ClickerMove = "forward" | "back" | "closeQr" | "blank" | null;

export interface KeyPress {
  key: string;
  /** Alt, Ctrl, Meta or Shift held. */
  modified: boolean;
  /** The focus is in a control that uses the arrow keys (a field, a slider, a list). */
  inControl: boolean;
  /** The QR code of the students' link fills the screen. */
  qrShown: boolean;
  /** Presenter mode is on and a lesson is open. */
  presenting: boolean;
}

/** What `press` does to the lesson path (null: the key is not the clicker's, and goes where it went). */
export function clickerMove({ key, modified, inControl, qrShown, presenting }: KeyPress): ClickerMove {
  if (!presenting || modified) return null;
  if (key === "b" || key === "B" || key === ".") return inControl ? null : "blank";
  const page = key === "PageDown" || key === "PageUp";
  const arrow = key === "ArrowRight" || key === "ArrowLeft";
  if (!page && !arrow) return null;
  if (arrow && inControl) return null;
  if (qrShown) return "closeQr";
  return key === "PageDown" || key === "ArrowRight" ? "forward" : "back";
}
