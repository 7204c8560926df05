// The store: the one state, changed by the model's transitions, with each
// step's effects run around the drawing as the model orders them (a
// change's exact counts asked before the page draws it).

import { describe, expect, it } from "vitest";
import { codec, decoded, defaults, links } from "./state-fixtures";
import { initialState, opening, update, type AppState, type Effect } from "./state";
import { createStore } from "./store";

function make() {
  const log: string[] = [];
  const store = createStore(initialState(decoded(defaults), codec), (effect: Effect) => void log.push(`run ${effect.type}${effect.type === "run" ? ` ${effect.stage}` : ""}`));
  const seen: AppState[] = [];
  store.subscribe((state) => {
    seen.push(state);
    log.push("draw");
  });
  return { store, log, seen };
}

describe("the store", () => {
  it("opens on the opening step: its state drawn, the link written and the counts asked before it is drawn", () => {
    const s = make();
    const initial = s.store.state;
    const step = opening(initial);
    s.store.open(step);
    expect(s.store.state).toBe(step.state);
    expect(s.seen).toEqual([step.state]);
    expect(s.log).toEqual(["run writeLink", "run run counts", "draw"]);
  });

  it("a dispatched action is the model's next state, drawn for every listener, with its effects", () => {
    const s = make();
    s.store.open(opening(s.store.state));
    s.store.dispatch({ type: "codecReady" });
    const second: AppState[] = [];
    s.store.subscribe((state) => void second.push(state));
    const before = s.store.state;
    const cap = { ...defaults, cap: 4096 };
    const action = { type: "edited", params: cap, links: links(cap), live: false } as const;
    s.log.length = 0;
    s.store.dispatch(action);
    const expected = update(before, action);
    expect(s.store.state).toEqual(expected.state);
    expect(s.store.state.params).toEqual(cap);
    expect(second).toEqual([s.store.state]);
    expect(s.seen.at(-1)).toBe(s.store.state);
    // The step's effects up to its counts before the drawing, the rest after.
    const types = expected.effects.map((e) => `run ${e.type}${e.type === "run" ? ` ${e.stage}` : ""}`);
    const counts = types.indexOf("run run counts");
    expect(counts).toBeGreaterThanOrEqual(0);
    expect(s.log).toEqual([...types.slice(0, counts + 1), "draw", ...types.slice(counts + 1)]);
  });

  it("effects that answer at once come after the drawing: an action with no counts to ask runs all its effects after", () => {
    const s = make();
    s.store.open(opening(s.store.state));
    s.store.dispatch({ type: "engineReady", isolated: true });
    s.log.length = 0;
    s.store.dispatch({ type: "stop" });
    expect(s.log).toEqual(["draw", "run cancelRuns"]);
  });
});
