// The lessons in words: where each comes from, the list's introduction, a
// typed guess, and how a lesson is opened (through the page's own link
// handling: its hashchange handler decodes, shows and runs it, as for a
// pasted link).

import type { Lesson } from "../../engine/types.gen";
import { formatCount, formatRatio, listText } from "../../shared/format";
import { fragmentOf } from "../../shared/url";
import { articleOf } from "../articles";

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

/** A typed guess as a number ("3,641", "3641 ", "1e3"); null when it is none. */
export function parseGuess(text: string): number | null {
  const cleaned = text.replace(/[,_\s]/g, "");
  if (cleaned === "") return null;
  const n = Number(cleaned);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** Opens a lesson's link through the page's own link handling (hashchange), then shows `results`, where its numbers appear. */
export function load(lesson: Lesson, results: HTMLElement | null): void {
  const fragment = fragmentOf(lesson.link);
  if (fragmentOf(location.hash) !== fragment) location.hash = fragment;
  if (results) {
    results.scrollIntoView({ block: "start" });
    results.focus({ preventScroll: true });
  }
}

/** How far `guess` was from `answer`, in words: exact, or the difference and the ratio. */
export function guessFeedback(guess: number, answer: number): string {
  if (guess === answer) return `Exactly right: ${formatCount(answer)}.`;
  const off = Math.abs(guess - answer);
  const side = guess < answer ? "low" : "high";
  const ratio = Math.max(guess, answer) / Math.max(Math.min(guess, answer), 1);
  const howFar = ratio >= 2 ? `${formatRatio(ratio)} too ${side}` : `${Math.round((off / Math.max(answer, 1)) * 100)}% too ${side}`;
  return `Your guess, ${formatCount(guess)}, is ${formatCount(off)} off: ${howFar}.`;
}
