// Boot: colours first; the engine's counting build (the codec here, and the
// counting worker) starts loading at once, and the page's code (app/page.ts, a
// chunk of its own) downloads beside this script (index.html's modulepreloads);
// then the two engine clients (exact counts, timing), the opening link's
// counts, and only then the page's code runs and builds everything else,
// while the counting worker counts (a write-lab link: the timing worker, with
// the program build at once). Once the opening link is read, the timing
// build of its workload downloads (the first numbers need nothing more from
// the network); once the first numbers are on screen, the timing worker
// itself starts and that build compiles, then the program build follows
// (engine/spawn.ts: compiled earlier, they took CPU from the first numbers). Times are taken once the page has loaded
// (shared/later.ts pageQuiet). Once the first full measurement has settled:
// the later parts (charts, other views, panels) and the service worker
// (offline copy; isolation from the next visit, offline/register.ts).
// Nothing waits for isolation. This script is async (index.html): it runs
// as soon as it has arrived, without waiting for the stylesheet and the
// static frame's first layout, and what it needs of the frame waits for the
// frame to be parsed (`parsed`).

import { countsClient, createEngineClient, type ClientEvent } from "./engine/client";
import { openingLink } from "./app/link";
import { loadCodec } from "./engine/codec";
import { messageOf } from "./engine/errors";
import { prefetchEngine, prefetchesSettled, startFullEngine, watchBuilding } from "./engine/spawn";
import { timingBuildOf, type EngineBuild, type Fault } from "./engine/protocol";
import { registerServiceWorker } from "./offline/register";
import { afterPartsArrived, firstNumbersShown, pageQuiet, startLaterParts } from "./shared/later";
import { h, replaceChildren } from "./shared/dom";
import { applyPresenterLook, applyTheme, createThemeSwitch } from "./shared/theme";

/**
 * The longest the later parts wait for the first full measurement (a heavy
 * link's takes seconds), counted from the first numbers or, if later, from
 * the arrival of the timing build downloading beside them (on a phone's
 * network it arrives a second or more after them): then they load beside it.
 */
const PARTS_WAIT_MS = 1000;

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

/** The static frame (index.html) is parsed: this async script may run before. */
const parsed =
  document.readyState === "loading"
    ? new Promise<void>((resolve) => document.addEventListener("DOMContentLoaded", () => resolve(), { once: true }))
    : Promise.resolve();

function fail(error: unknown): void {
  void parsed.then(() => show(error));
}

function show(error: unknown): void {
  const message = messageOf(error);
  const form = document.getElementById("controls");
  if (form) replaceChildren(form, h("p", { class: "alert", role: "alert" }, h("strong", {}, "The engine could not be loaded. "), message));
  console.error(error);
}

// Colours first (before anything paints), and independent of the engine;
// presenter mode's type and layout too, for a link that asks for it.
applyTheme();
applyPresenterLook(location.hash);
const theme = parsed.then(() => createThemeSwitch(document.getElementById("theme") ?? document.body));

const codec = loadCodec();
codec.catch(() => undefined);
/** The build that times a run's link: its workload's timing build, or the program build (protocol.ts); runs come once the codec has read the opening link. */
let buildOfRun = (_link: string): EngineBuild => "program";
void codec.then((codec) => {
  buildOfRun = (link) => timingBuildOf(codec.decodeLink(link).params);
}, () => undefined);
const relay = new EventRelay();
// From the dev server of `npm start`: the builds the page waits for that are still being compiled.
watchBuilding((builds) => relay.send({ type: "building", builds }));
const engines = {
  // A count that runs long (a heavy link) gives way to the next change's.
  counter: createEngineClient("buflab-counts", "counts", { onEvent: relay.send, preempt: ({ ms }) => ms > 150 }),
  // A full measurement of settings the page has left ends at once. Times
  // are taken once the page has loaded, not beside its loading (counts at
  // once). Each run on the build of its link's workload.
  timer: createEngineClient("buflab-timing", (job) => (job.kind === "run" || job.kind === "compare" ? buildOfRun(job.link) : "program"), {
    onEvent: relay.send,
    preempt: ({ job }) => job.kind === "run" && job.stage === "full",
    quiet: pageQuiet(),
  }),
};
// The opening experiment's exact counts start as soon as the codec can
// read the link; the page's code (downloaded beside this script: the
// modulepreload in index.html) runs after that, while the worker counts. A
// lab the counting build leaves out (the write lab) is counted by the
// program build, which then loads at once, as for a link with keys other
// than A's (`Decoded.deferred`). The link is read once the frame is
// parsed: `openingLink` takes an in-page anchor (#results) for no link.
const opening = Promise.all([codec, parsed]).then(async ([codec]) => {
  let decoded = openingLink(codec, location.hash);
  if (decoded.deferred !== undefined) {
    // A comparison link or a mistyped key: the counting build leaves those
    // out, so the program build loads at once and reads the link.
    startFullEngine();
    await codec.programLoaded;
    decoded = codec.decodeLink(decoded.deferred);
  }
  const build = codec.countsBuild(decoded.params.lab);
  if (build !== "counts") startFullEngine();
  else prefetchEngine(timingBuildOf(decoded.params));
  // Counted with a single run's link (no sweep keys), as its timing is asked.
  return { decoded, counts: countsClient(engines, build).run(decoded.links.run, "counts") };
});
const pageCode = opening.then(() => import("./app/page"));
Promise.all([codec, pageCode, opening, theme]).then(([codec, { startPage }, opening, theme]) => {
  performance.mark("buflab:codec");
  // After the first numbers: the timing build (times, timelines), then the
  // program build (writing links, the code panel's program). After the
  // first full measurement: the charts, the other views and panels, and the
  // service worker (the offline copy), whose install fetches and stores the
  // whole build; beside the first timed runs each would slow them
  // (docs/benchmarks.md). An embed is its charts, so they come with its
  // first numbers; a heavy link's parts wait at most PARTS_WAIT_MS for its
  // times. Each call only releases what waits (a second call does nothing).
  const firstNumbers = (): void => {
    startFullEngine();
    firstNumbersShown();
    if (opening.decoded.params.embed.length > 0) startLaterParts();
    else void prefetchesSettled().then(() => setTimeout(startLaterParts, PARTS_WAIT_MS));
  };
  const firstFull = (): void => {
    startLaterParts();
    void registerServiceWorker();
  };
  // The page is whole: the end-to-end tests measure its layout after this.
  void afterPartsArrived().then(() => performance.mark("buflab:parts"));
  const page = startPage(codec, engines, opening, { firstNumbers, firstFull }, relay.attach, theme);
  // The opening lab's module may load first (the write lab's chunk), and can fail like the engine's.
  page.catch(fail);
  // Test builds only (`vite build --mode faults`, with the engine's
  // `faults` feature): the recovery tests inject a panic, a hang or an
  // out-of-memory through a normal run. Vite drops this from other builds.
  if (import.meta.env.MODE === "faults") {
    Object.assign(window, { buflabFault: (fault: Fault) => void page.then((p) => p.runWithFault(fault)) });
  }
}, fail);
