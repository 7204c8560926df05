// The page's store: the one state, the transition that changes it
// (state.ts `update`), and who is told.
//
//   dispatch(action) ─▶ update(state, action) ─▶ { state, effects }
//                                                  │        │
//        subscribers (render pieces) ◀─────────────┘        ▼
//                                        run(effect) (effects.ts), which may dispatch
//
// A change's exact counts go to their worker before the page draws it, so
// the worker counts while this thread renders (`effectsBeforeRender`).

import { effectsBeforeRender, update, type Action, type AppState, type Effect, type Step } from "./state";

export interface Store {
  readonly state: AppState;
  dispatch(action: Action): void;
  /** `listener` is called with every new state, before the effects that follow the drawing run. */
  subscribe(listener: (state: AppState) => void): void;
  /** Shows `step`'s state and runs its effects (the page's opening, which no action starts). */
  open(step: Step): void;
}

export function createStore(initial: AppState, run: (effect: Effect) => void): Store {
  let state = initial;
  const listeners: ((state: AppState) => void)[] = [];
  const apply = ({ state: next, effects }: Step): void => {
    state = next;
    const early = effectsBeforeRender(effects);
    for (const effect of effects.slice(0, early)) run(effect);
    for (const listener of listeners) listener(state);
    for (const effect of effects.slice(early)) run(effect);
  };
  return {
    get state() {
      return state;
    },
    dispatch: (action) => apply(update(state, action)),
    subscribe: (listener) => void listeners.push(listener),
    open: apply,
  };
}
