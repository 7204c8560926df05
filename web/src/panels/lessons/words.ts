// The lessons in words: where each comes from, the list's introduction, a
// typed guess, and how a lesson is opened (through the page's own link
// handling: its hashchange handler decodes, shows and runs it, as for a
// pasted link).

import type { Lesson } from "../../engine/types.gen";
import { formatCount, formatRatio, listText, plural } from "../../shared/format";
import { fragmentOf } from "../../shared/url";
import { articleOf } from "../articles";

/** Where a lesson comes from, in words: "the BufRead article", "a sweep" for BufLab's own, or "an strace log". */
export function sourceLabel(lesson: Lesson): string {
  return articleOf(lesson.seed)?.short ?? (lesson.seed === "sweep" ? "a sweep" : lesson.log ? "an strace log" : `article ${lesson.seed}`);
}

/**
 * The lesson list's introduction, counted from the lessons themselves: how
 * many, how many redo an article's experiment and from how many articles,
 * and how many are BufLab's own (by their kind: "2 sweeps").
 */
export function introduction(list: readonly Lesson[]): string {
  const fromArticles = list.filter((l) => articleOf(l.seed));
  const articles = new Set(fromArticles.map((l) => l.seed)).size;
  const own = new Map<string, number>();
  for (const l of list) if (!articleOf(l.seed) && !l.log) own.set(l.seed, (own.get(l.seed) ?? 0) + 1);
  const logs = list.filter((l) => l.log).length;
  const parts = [
    ...(own.size === 0 ? [] : [`${listText([...own].map(([kind, n]) => plural(n, kind)))} of BufLab's own`]),
    ...(logs === 0 ? [] : [logs === 1 ? "a real program's strace log" : `${logs} real programs' strace logs`]),
  ];
  const rest = parts.length === 0 ? "" : `${parts.length === 1 ? ", and " : ", "}${listText(parts)}`;
  const from = articles === 1 ? "one article" : `the ${articles} articles`;
  return `${plural(list.length, "lesson")}: ${plural(fromArticles.length, "experiment")} from ${from} BufLab is built from${rest}.`;
}

/**
 * A typed guess as a number, or null when the field is empty or unreadable.
 * Digits may be grouped ("3,641", "3 641") and written with a fraction or an
 * exponent ("1e3"). A guess in bytes (`parseSize`: the link format's sizes,
 * "64K", "800 KiB") takes the binary units the page writes sizes in; a
 * count takes K and M as thousand and million ("800K reads").
 */
export function parseGuess(text: string, parseSize: ((text: string) => number | undefined) | null): number | null {
  const cleaned = text.trim().replace(/(?<=\d)[,_\s](?=\d)/g, "");
  if (cleaned === "") return null;
  const plain = Number(cleaned);
  if (Number.isFinite(plain)) return plain >= 0 ? plain : null;
  if (parseSize) return parseSize(cleaned.replace(/\s+/g, "")) ?? null;
  const counted = /^(\d+(?:\.\d+)?)\s*([km])$/i.exec(cleaned);
  if (!counted) return null;
  return Math.round(Number(counted[1]) * (counted[2]!.toLowerCase() === "k" ? 1e3 : 1e6));
}

/** What the guess field says of text it cannot read, for an answer in bytes or a count. */
export function unreadGuess(text: string, bytes: boolean): string {
  const example = bytes ? "4096, 4K or 4 KiB" : "3,641 or 800K";
  return `"${text.trim().slice(0, 24)}" is not a number: type one such as ${example}.`;
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
