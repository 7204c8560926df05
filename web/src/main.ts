// Boot: colours first, then the service worker (isolation), then the engine
// (two workers, one for exact counts and one for timing, and the codec here,
// all from one compile of the wasm), then the page (app/page.ts), which
// builds everything else. The page's code is a chunk of its own, imported
// while the wasm compiles: this script stays small, so the static frame in
// index.html paints and the compile starts before the page's code has run.

import { createEngineClient, type ClientEvent } from "./engine/client";
import { loadCodec } from "./engine/codec";
import type { Fault } from "./engine/protocol";
import { registerServiceWorker, type Isolation } from "./offline/register";
import { h, replaceChildren } from "./shared/dom";
import { createThemeSwitch } from "./shared/theme";

/**
 * Engine events that arrive before the page is built wait here: the worker is
 * started first, so its `ready` can come before anyone listens.
 */
class EventRelay {
  private target: ((event: ClientEvent) => void) | null = null;
  private readonly early: ClientEvent[] = [];
  readonly send = (event: ClientEvent): void => {
    if (this.target) this.target(event);
    else this.early.push(event);
  };
  readonly attach = (target: (event: ClientEvent) => void): void => {
    this.target = target;
    for (const event of this.early.splice(0)) target(event);
  };
}

function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const form = document.getElementById("controls");
  if (form) replaceChildren(form, h("p", { class: "alert", role: "alert" }, h("strong", {}, "The engine could not be loaded. "), message));
  console.error(error);
}

// Colours first (before anything paints), and independent of the engine.
const theme = createThemeSwitch(document.getElementById("theme") ?? document.body);

// The service worker comes first: on a host without isolation headers the
// page reloads once through it, and loading the engine before that is waste.
void registerServiceWorker()
  .catch((): Isolation => "not isolated")
  .then((isolation) => {
    if (isolation === "reloading") return;
    performance.mark("buflab:service-worker");
    const relay = new EventRelay();
    const engines = {
      // A count that runs long (a heavy link) gives way to the next change's.
      counter: createEngineClient("buflab-counts", { onEvent: relay.send, preempt: ({ ms }) => ms > 150 }),
      // A full measurement of settings the page has left ends at once.
      timer: createEngineClient("buflab-timing", { onEvent: relay.send, preempt: ({ stage }) => stage === "full" }),
    };
    const pageCode = import("./app/page");
    Promise.all([loadCodec(), pageCode]).then(([codec, { startPage }]) => {
      performance.mark("buflab:codec");
      const page = startPage(codec, engines, relay.attach, theme);
      // Test builds only (`vite build --mode faults`, with the engine's
      // `faults` feature): the recovery tests inject a panic, a hang or an
      // out-of-memory through a normal run. Vite drops this from other builds.
      if (import.meta.env.MODE === "faults") {
        Object.assign(window, { buflabFault: (fault: Fault) => page.runWithFault(fault) });
      }
    }, fail);
  });
