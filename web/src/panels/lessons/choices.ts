// A lesson's question as four choices, A to D, for a room that answers with
// printed cards or raised hands: the real answer (answer.ts, from the
// lesson's own results) and three wrong ones taken from the same
// experiment's results, in an order the seed decides. Pure.
//
// The wrong ones, in the order they are tried (the first three distinct
// from the answer and each other are kept):
// - the count without the buffer: the unbuffered reader's, or one source
//   read per application read when the run has no unbuffered reader;
// - another reader's (or cursor flavour's) count of the same thing;
// - another capacity's: on a sweep, the capacities either side of the knee
//   and the knee of the other reader or of another column; on a single run,
//   the count for half and twice the buffer where the count goes with it;
// - one off (the final read that returns 0, forgotten or counted twice).

import { fillServes } from "../../engine/report";
import type { Answer } from "../../engine/types.gen";
import { LETTERS, type Letter } from "../../shared/cards";
import { answerOf } from "./answer";
import type { CurrentResults } from "./view";

export { LETTERS, type Letter };

/** One choice: its letter, its number, and whether it is the real answer. */
export interface Choice {
  letter: Letter;
  value: number;
  real: boolean;
}

/** A run's numeric field, or undefined. */
function field(run: object | undefined, name: string): number | undefined {
  const value = run === undefined ? undefined : (run as Record<string, unknown>)[name];
  return typeof value === "number" ? value : undefined;
}

/** The wrong answers the same experiment offers, most plausible first (may repeat, may include the answer). */
function wrongOnes(answer: Answer, results: CurrentResults, real: number): number[] {
  const out: number[] = [];
  if (answer.kind === "knee") {
    const sweep = results.sweep;
    if (sweep) {
      const values = sweep.values;
      const i = values.indexOf(real);
      if (i > 0) out.push(values[i - 1]!);
      if (i >= 0 && i + 1 < values.length) out.push(values[i + 1]!);
      const across = answer.across ?? undefined;
      for (const k of sweep.knees) {
        if (k.metric !== answer.metric) continue;
        if (k.reader !== answer.reader && k.across === across) out.push(k.value);
      }
      for (const k of sweep.knees) if (k.metric === answer.metric && k.reader === answer.reader && k.across !== across) out.push(k.value);
      if (i > 1) out.push(values[i - 2]!);
      if (i >= 0 && i + 2 < values.length) out.push(values[i + 2]!);
    }
  } else {
    const report = results.report;
    if (answer.kind === "fill_serves" && report?.lab === "read") {
      const run = report.runs.find((r) => r.reader === answer.reader);
      const ops = run?.timeline?.ops;
      // The buffer's size in bytes, mistaken for a count of reads; the fill with the other reader's.
      if (run) out.push(report.params.cap);
      for (const other of report.runs) if (other.reader !== answer.reader && other.timeline) out.push(fillServes(other.timeline.ops) ?? NaN);
      if (ops) out.push(real * 2, Math.floor(real / 2));
    } else if (answer.kind === "read" && report?.lab === "read") {
      const runs = report.runs;
      const own = runs.find((r) => r.reader === answer.reader);
      const unbuffered = runs.find((r) => r.reader === "unbuffered");
      if (unbuffered && answer.reader !== "unbuffered") out.push(field(unbuffered, answer.field) ?? NaN);
      else if (answer.field === "source_reads" && own) out.push(own.app_reads + 1);
      for (const r of runs) if (r.reader !== answer.reader && r.reader !== "unbuffered") out.push(field(r, answer.field) ?? NaN);
      if (answer.reader === "unbuffered") for (const r of runs) if (r.reader !== "unbuffered") out.push(field(r, answer.field) ?? NaN);
    } else if (answer.kind === "write" && report?.lab === "write") {
      for (const f of report.flavours) if (f.flavour !== answer.flavour) out.push(field(f, answer.field) ?? NaN);
    }
    // Another capacity's: the count goes with the number of buffers it takes (half the buffer, twice the count).
    out.push(real * 2, Math.floor(real / 2));
  }
  out.push(real - 1, real + 1, real + 2, real * 4);
  return out;
}

/** A 32-bit hash of `text` (FNV-1a). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The positions 0..n-1 shuffled by `seed` (Fisher–Yates over mulberry32). */
export function seededOrder(n: number, seed: string): number[] {
  let state = hash(seed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Four choices from `real` and its wrong ones: distinct, non-negative whole numbers, the real one exactly once, ordered by `seed`. */
export function choicesFrom(real: number, wrong: readonly number[], seed: string): Choice[] {
  const values = [real];
  for (const w of wrong) {
    if (values.length === LETTERS.length) break;
    if (Number.isInteger(w) && w >= 0 && !values.includes(w)) values.push(w);
  }
  // The ladder ends in numbers that always differ; this only guards a caller's short list.
  for (let k = 1; values.length < LETTERS.length; k++) if (!values.includes(real + 10 * k)) values.push(real + 10 * k);
  const order = seededOrder(LETTERS.length, seed);
  return order.map((from, i) => ({ letter: LETTERS[i]!, value: values[from]!, real: from === 0 }));
}

/**
 * The four choices of a lesson's question, from the lesson's own results
 * (null while the answer is still to come). `seed` orders them: the lesson's
 * link, so every screen showing a lesson shows the same letters.
 */
export function choicesOf(answer: Answer, results: CurrentResults, seed: string): Choice[] | null {
  const real = answerOf(answer, results);
  if (real === null) return null;
  return choicesFrom(real, wrongOnes(answer, results, real), seed);
}
