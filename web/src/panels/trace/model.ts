// The trace panel's state and its transitions, pure: `step(model, event)`
// returns the next model and the effects its edge (index.ts) runs on the
// trace worker. Every decision is here: which job's answers count (a newer
// log drops an older one's), what Cancel does at each point, which
// descriptor is shown first, when a replay is asked for, and every notice
// the person sees about the log (`notices`). Invariants, tested in
// model.test.ts:
//   - only the newest job's answers change the model;
//   - Cancel while reading asks the worker once and keeps the figures of the
//     part read, said in a notice; Cancel while fetching the shipped log
//     ends it;
//   - every skipped line the report quotes is a notice, and so is the count
//     of the others;
//   - a replay is asked at most once per descriptor of a log.

import type { FromTraceWorker } from "../../engine/trace-protocol";
import type { Descriptor, Replay, TraceProgress, TraceReport } from "../../engine/types.gen";

export type TraceStatus = "idle" | "fetching" | "reading" | "read" | "failed";

export interface TraceModel {
  /** The newest job: the log being read or shown. */
  job: number;
  status: TraceStatus;
  /** The log's name (the file's, or the shipped log's) and its size in bytes. */
  name: string | null;
  size: number;
  progress: TraceProgress | null;
  /** Cancel was pressed and the worker has not answered yet. */
  cancelling: boolean;
  report: TraceReport | null;
  /** The descriptor shown (an index in `report.descriptors`). */
  chosen: number | null;
  /** Replays of this log's descriptors, by descriptor id. */
  replays: Record<number, Replay>;
  /** Descriptors whose replay was asked for and has not come. */
  replaying: number[];
  failure: string | null;
}

export type TraceEvent =
  /** A log was dropped or picked. */
  | { type: "open"; name: string; log: Blob }
  /** The shipped log was asked for (its fetch starts). */
  | { type: "fetch"; name: string }
  /** The shipped log of job `job` arrived (or failed to). */
  | { type: "fetched"; job: number; log: Blob }
  | { type: "fetchFailed"; job: number; message: string }
  | { type: "cancel" }
  | { type: "heard"; message: FromTraceWorker }
  | { type: "choose"; id: number };

export type TraceEffect =
  | { type: "read"; job: number; log: Blob }
  | { type: "fetch"; job: number }
  | { type: "cancel"; job: number }
  | { type: "replay"; job: number; id: number };

export interface TraceStep {
  model: TraceModel;
  effects: TraceEffect[];
}

export const initialTrace: TraceModel = {
  job: 0,
  status: "idle",
  name: null,
  size: 0,
  progress: null,
  cancelling: false,
  report: null,
  chosen: null,
  replays: {},
  replaying: [],
  failure: null,
};

/** A fresh job `job` for the log `name`. */
function fresh(model: TraceModel, status: TraceStatus, name: string, size: number): TraceModel {
  return { ...initialTrace, job: model.job + 1, status, name, size };
}

/** The descriptor a log opens on: the one with the most read calls (the first of equals), as the command line's. */
export function busiest(descriptors: readonly Descriptor[]): number | null {
  let best: Descriptor | null = null;
  for (const d of descriptors) if (best === null || d.calls > best.calls) best = d;
  return best?.id ?? null;
}

/** `model` showing descriptor `id`, with its replay asked for unless it is in or on its way. */
function choose(model: TraceModel, id: number | null): TraceStep {
  if (id === null || !model.report?.descriptors.some((d) => d.id === id)) return { model, effects: [] };
  const asked = id in model.replays || model.replaying.includes(id);
  return {
    model: { ...model, chosen: id, replaying: asked ? model.replaying : [...model.replaying, id] },
    effects: asked ? [] : [{ type: "replay", job: model.job, id }],
  };
}

function heard(model: TraceModel, message: FromTraceWorker): TraceStep {
  const none = { model, effects: [] };
  // A worker that could not load at all fails whatever job it had.
  if (message.job !== model.job && message.job !== -1) return none;
  switch (message.kind) {
    case "progress":
      return model.status === "reading" ? { model: { ...model, progress: message.progress }, effects: [] } : none;
    case "read":
      if (model.status !== "reading") return none;
      return choose({ ...model, status: "read", cancelling: false, report: message.report }, busiest(message.report.descriptors));
    case "replayed":
      return {
        model: { ...model, replays: { ...model.replays, [message.id]: message.replay }, replaying: model.replaying.filter((id) => id !== message.id) },
        effects: [],
      };
    case "failed":
      // A replay's failure leaves the log's figures on screen.
      return { model: { ...model, status: model.status === "read" ? "read" : "failed", cancelling: false, replaying: [], failure: message.message }, effects: [] };
  }
}

export function step(model: TraceModel, event: TraceEvent): TraceStep {
  switch (event.type) {
    case "open": {
      const next = fresh(model, "reading", event.name, event.log.size);
      return { model: next, effects: [{ type: "read", job: next.job, log: event.log }] };
    }
    case "fetch": {
      const next = fresh(model, "fetching", event.name, 0);
      return { model: next, effects: [{ type: "fetch", job: next.job }] };
    }
    case "fetched":
      if (event.job !== model.job || model.status !== "fetching") return { model, effects: [] };
      return { model: { ...model, status: "reading", size: event.log.size }, effects: [{ type: "read", job: model.job, log: event.log }] };
    case "fetchFailed":
      if (event.job !== model.job || model.status !== "fetching") return { model, effects: [] };
      return { model: { ...model, status: "failed", failure: event.message }, effects: [] };
    case "cancel":
      if (model.status === "fetching") return { model: { ...initialTrace, job: model.job + 1 }, effects: [] };
      if (model.status !== "reading" || model.cancelling) return { model, effects: [] };
      return { model: { ...model, cancelling: true }, effects: [{ type: "cancel", job: model.job }] };
    case "heard":
      return heard(model, event.message);
    case "choose":
      return choose(model, event.id);
  }
}

/** A notice about the log, in words; `quote` is a line of the log, shown as text only. */
export interface TraceNotice {
  kind: "cancelled" | "skipped" | "skipped-line" | "empty" | "not-read" | "bounded" | "failed";
  message: string;
  quote?: string;
}

const count = (n: number): string => n.toLocaleString("en-US");
const plural = (n: number, one: string, many: string): string => `${count(n)} ${n === 1 ? one : many}`;

/** What the person must know about the log on screen: every notice, in the order shown. */
export function notices(model: TraceModel): TraceNotice[] {
  const out: TraceNotice[] = [];
  if (model.failure !== null) out.push({ kind: "failed", message: model.failure });
  const r = model.report;
  if (r === null) return out;
  if (!r.complete) {
    out.push({ kind: "cancelled", message: `Cancelled: the figures are of the first ${count(r.bytes)} bytes (${plural(r.lines, "line", "lines")}) of ${count(model.size)}.` });
  }
  if (r.not_read) out.push({ kind: "not-read", message: `Not read as buflab real's report: ${r.not_read}` });
  if (r.skipped.lines > 0) {
    const quoted = r.skipped.examples.length;
    const rest = r.skipped.lines - quoted;
    out.push({
      kind: "skipped",
      message: `${plural(r.skipped.lines, "line was", "lines were")} not read${quoted > 0 ? `; the first ${quoted === 1 ? "is" : `${quoted} are`} quoted below` : ""}${rest > 0 ? `, and ${plural(rest, "more was", "more were")} skipped too` : ""}.`,
    });
    for (const line of r.skipped.examples) {
      out.push({ kind: "skipped-line", message: `Line ${count(line.line)}: ${line.why}.`, quote: line.text });
    }
  }
  if (r.descriptors.length === 0 && r.not_read == null) {
    out.push({
      kind: "empty",
      message:
        r.calls === 0
          ? "No system call was found in this log: is it strace's output (strace -o LOG)?"
          : `No read call was found among its ${plural(r.calls, "system call", "system calls")}: record with -e trace=openat,read,readv,pread64,recvfrom,recvmsg.`,
    });
  }
  const more = r.more_descriptors;
  if (more.descriptors > 0) {
    out.push({ kind: "bounded", message: `${plural(more.descriptors, "more descriptor", "more descriptors")} (${plural(more.calls, "read call", "read calls")}) are counted as totals only: the page keeps the figures of ${count(r.descriptors.length)}.` });
  }
  return out;
}
