// Predict, then reveal: where a lesson's answer is in the results on screen,
// and how far a guess was from it. Pure: the lesson card (panels/lessons.ts)
// shows what these return; the reveal state itself is the page's model's
// (state.ts: `revealed`, `guess`, `predicting`).

import type { Answer } from "../engine/types.gen";
import { formatCount, formatRatio } from "../shared/format";
import { fillSteps } from "../engine/report";
import { reportCurrent, reportOf, sweepCurrent, type AppState } from "./state";

/**
 * The number `answer` points at in the results on screen, when they are of
 * the settings on screen (null while they are still to come): a count of one
 * reader's or cursor flavour's run, the knee of a finished sweep (in one
 * column of a two-axis sweep), or what one fill of a buffer serves in its timeline.
 */
export function answerOf(answer: Answer, state: AppState): number | null {
  if (answer.kind === "knee") {
    const report = sweepCurrent(state) ? state.sweep?.report : null;
    if (!report?.complete) return null;
    const across = answer.across ?? undefined;
    return report.knees.find((k) => k.reader === answer.reader && k.metric === answer.metric && k.across === across)?.value ?? null;
  }
  const report = reportCurrent(state) ? reportOf(state) : null;
  if (report === null) return null;
  if (answer.kind === "fill_serves") {
    // The application reads one fill serves: from the step of the first fill to the step before the next.
    const ops = report.lab === "read" ? report.runs.find((r) => r.reader === answer.reader)?.timeline?.ops : undefined;
    const fills = ops ? fillSteps(ops) : [];
    return fills.length >= 2 ? fills[1]! - fills[0]! : null;
  }
  const run: object | undefined =
    answer.kind === "read"
      ? report.lab === "read"
        ? report.runs.find((r) => r.reader === answer.reader)
        : undefined
      : report.lab === "write"
        ? report.flavours.find((f) => f.flavour === answer.flavour)
        : undefined;
  const value = run === undefined ? undefined : (run as Record<string, unknown>)[answer.field];
  return typeof value === "number" ? value : null;
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
