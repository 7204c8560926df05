// Predict, then reveal: where a lesson's answer is in the results on
// screen. Pure: the question (question.ts) shows what it returns; the reveal
// state itself is the page's model's.

import { fillServes } from "../../engine/report";
import type { Answer } from "../../engine/types.gen";
import type { CurrentResults } from "./view";

/**
 * The number `answer` points at in the results on screen, when they are of
 * the settings on screen (null while they are still to come): a count of one
 * reader's or cursor flavour's run, the knee of a finished sweep (in one
 * column of a two-axis sweep), or what one fill of a buffer serves in its timeline.
 */
export function answerOf(answer: Answer, results: CurrentResults): number | null {
  if (answer.kind === "knee") {
    const report = results.sweep;
    if (!report?.complete) return null;
    const across = answer.across ?? undefined;
    return report.knees.find((k) => k.reader === answer.reader && k.metric === answer.metric && k.across === across)?.value ?? null;
  }
  const report = results.report;
  if (report === null) return null;
  if (answer.kind === "fill_serves") {
    // The application reads one fill serves: from the step of the first fill to the step before the next.
    const ops = report.lab === "read" ? report.runs.find((r) => r.reader === answer.reader)?.timeline?.ops : undefined;
    return ops ? fillServes(ops) : null;
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
