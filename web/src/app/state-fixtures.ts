// For the model's unit tests (state.test.ts, state.decisions.test.ts, state.events.test.ts): a
// page driven through `update` alone, with links from the real codec and
// the workers' answers made up of what each request asked for.

import { realCodec } from "../engine/real-engine";
import schema from "../engine/schema.gen.json";
import type { Decoded, LabReport, Params, Stage, SweepReport } from "../engine/types.gen";
import { initialState, opening, update, type Action, type AppState, type Effect, type Links } from "./state";

export const defaults = schema.defaults as unknown as Params;
export const codec = realCodec();

/** Links as the page writes them: the engine's codec. */
export const links = (p: Params): Links => codec.links(p);
/** `p` as a link decodes to it. */
export const decoded = (p: Params): Decoded => ({ params: p, notices: [], fragment: links(p).link, links: links(p) });

export const report = (stage: Stage, link: string): LabReport => ({ stage, lab: "read", link, runs: [] }) as unknown as LabReport;
export const sweepReport = (link: string): SweepReport => ({ link, points: [{}], total: 1, complete: true }) as unknown as SweepReport;

/** A page opened on `params` (or on a link as the codec read it), its last effects, and the workers' answers; `ready`: its codec can write links. */
export function page(at: Params | Decoded = defaults, ready = true) {
  let state: AppState = initialState("links" in at ? at : decoded(at), codec);
  const opened = opening(state);
  state = update(opened.state, { type: "engineReady", isolated: true }).state;
  if (ready) state = update(state, { type: "codecReady" }).state;
  let effects: Effect[] = opened.effects;
  const act = (action: Action): Effect[] => {
    const next = update(state, action);
    state = next.state;
    effects = next.effects;
    return effects;
  };
  return {
    get state() {
      return state;
    },
    get effects() {
      return effects;
    },
    act,
    edit: (p: Params, live = false) => act({ type: "edited", params: p, links: links(p), live }),
    /** The worker answers request `id` with a report of what it was asked; the page draws its charts unless `undrawn`. */
    answer(id: number, undrawn = false): Effect[] {
      const r = state.inFlight.find((q) => q.id === id)!;
      const answered = report(r.stage, r.fragment);
      const made = act({ type: "settled", id, outcome: { kind: "report", report: answered, elapsedMs: 1 } });
      if (!undrawn && state.shown.read?.report === answered) state = update(state, { type: "drawn", report: answered }).state;
      return made;
    },
    fail: (id: number, message = "boom") => act({ type: "settled", id, outcome: { kind: "failed", message } }),
    drop: (id: number) => act({ type: "settled", id, outcome: { kind: "dropped" } }),
    /** The newest request of `worker` in flight. */
    newest: (worker: "counter" | "timer") => state.inFlight.filter((r) => r.worker === worker).at(-1)!,
    /** Answers every request in flight, oldest first, until none is left. */
    answerAll() {
      while (state.inFlight.length > 0) this.answer(state.inFlight[0]!.id);
    },
  };
}
