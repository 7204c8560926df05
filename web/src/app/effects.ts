// The effects `update` returns, run at the page's edge. This module owns the
// handles: the two engine clients' requests, the sweep's runner, the
// debounce timer, the address bar and the performance marks of the page's
// milestones. It decides nothing: every decision is the state's (state.ts).

import { countsClient, createEngineClient, isDropped, type EngineClient, type Engines, type RunResult } from "../engine/client";
import type { Codec } from "../engine/codec";
import { messageOf } from "../engine/errors";
import { choicesBuildOf, type Fault } from "../engine/protocol";
import type { SweepRunner } from "../engine/sweep-runner";
import type { Answer, LessonChoices, LessonId } from "../engine/types.gen";
import { writeLink } from "./link";
import type { RoomEffect } from "./room";
import type { Action, Effect, Held, Milestone, SweepOutcome } from "./state";

/** Quiet time after a slider step before a quick estimate starts. */
const LIVE_DEBOUNCE_MS = 120;

/** When the page has reached its first milestones: what waited for each may load now (main.ts). */
export interface Milestones {
  /** The first numbers are on screen (or could not come). */
  firstNumbers(): void;
  /** The first full measurement has settled (on screen, failed, or replaced by a newer request). */
  firstFull(): void;
}

export interface EffectsOptions {
  codec: Codec;
  engines: Engines;
  /** The opening's exact counts, asked before the page was built: its first counts request adopts them. */
  openingCounts: Promise<RunResult>;
  milestones: Milestones;
  dispatch(action: Action): void;
  /** Makes a held change again, now that links can be written. */
  replay(held: Held): void;
  openLesson(id: LessonId): void;
}

export interface Effects {
  run(effect: Effect): void;
  /** A lesson question's four choices (the room's card), from the side worker. */
  lessonChoices(lesson: LessonId, link: string, answer: Answer): Promise<LessonChoices>;
  /** The next timed request carries `fault` (the recovery tests' builds). */
  injectFault(fault: Fault): void;
}

/** The bench and the hosted test read these marks; `firstNumbers` and `firstFull` release what waits for them. */
function reached(milestone: Milestone, milestones: Milestones): void {
  if (milestone === "firstNumbers") {
    performance.mark("buflab:first-results");
    milestones.firstNumbers();
  } else if (milestone === "firstFullShown") performance.mark("buflab:first-full");
  else milestones.firstFull();
}

export function createEffects({ codec, engines, openingCounts, milestones, dispatch, replay, openLesson }: EffectsOptions): Effects {
  let adopted: Promise<RunResult> | null = openingCounts;
  let debounceTimer: ReturnType<typeof setTimeout> | null = null;
  let nextFault: Fault | null = null;
  /** The sweep runner, with the sweep view's module (a page without sweeps never loads it). */
  let sweepRunner: Promise<SweepRunner> | null = null;
  const runner = (): Promise<SweepRunner> => (sweepRunner ??= import("../engine/sweep-runner").then((m) => m.createSweepRunner()));
  // Without first counts (a failure), nothing waits for them.
  openingCounts.catch(milestones.firstNumbers);

  function request({ id, stage, fragment, lab, counts }: Extract<Effect, { type: "run" }>): void {
    let answer: Promise<RunResult>;
    if (stage === "counts") {
      answer = adopted ?? countsClient(engines, codec.countsBuild(lab)).run(fragment, stage);
      adopted = null;
    } else {
      const fault = nextFault ?? undefined;
      nextFault = null;
      answer = engines.timer.run(fragment, stage, fault, fault ? undefined : (counts ?? undefined));
    }
    answer.then(
      ({ report, elapsedMs }) => dispatch({ type: "settled", id, outcome: { kind: "report", report, elapsedMs } }),
      (error: unknown) =>
        dispatch({ type: "settled", id, outcome: isDropped(error) ? { kind: "dropped" } : { kind: "failed", message: messageOf(error) } }),
    );
  }

  function sweep({ id, params }: Extract<Effect, { type: "sweep" }>): void {
    const started = performance.now();
    const settle = (outcome: SweepOutcome): void => dispatch({ type: "sweepSettled", id, outcome, elapsedMs: performance.now() - started });
    runner()
      .then((r) => r.run(params, false, (report) => dispatch({ type: "sweepPoint", id, report })))
      .then(
        (report) => settle({ kind: "done", report }),
        (error: unknown) => settle(isDropped(error) ? { kind: "cancelled" } : { kind: "failed", message: messageOf(error) }),
      );
  }

  /** A comparison link measured in the timing worker: A and B in alternating rounds. */
  function compare({ id, fragment }: Extract<Effect, { type: "compare" }>): void {
    engines.timer.submit({ kind: "compare", link: fragment, quick: false }).then(
      ({ comparison }) => dispatch({ type: "compareSettled", id, outcome: { kind: "done", comparison } }),
      (error: unknown) => dispatch({ type: "compareSettled", id, outcome: isDropped(error) ? { kind: "dropped" } : { kind: "failed", message: messageOf(error) } }),
    );
  }

  /**
   * The side worker, for the questions the engine writes (the quiz's, the
   * room's choices): started by the first one, so its jobs never wait behind
   * the page's runs, nor drop them; each on the questions build (the write
   * lab's lesson's choices on the program build).
   */
  let sideClient: EngineClient | null = null;
  const side = (): EngineClient =>
    (sideClient ??= createEngineClient("buflab-side", (job) =>
      job.kind === "quiz" ? "questions" : job.kind === "choices" ? choicesBuildOf(codec.decodeLink(job.link).params) : "program",
    ));

  function quiz(link: string): void {
    const report = (action: Extract<Action, { type: "quiz" }>["action"]): void => dispatch({ type: "quiz", action });
    side().submit({ kind: "quiz", link }).then(
      (written) => report({ kind: "written", link, quiz: written }),
      (error: unknown) => {
        if (!isDropped(error)) report({ kind: "failed", link, message: messageOf(error) });
      },
    );
  }

  /** Stops the room's camera, when one is on or on its way. */
  let stopCamera: (() => void) | null = null;

  /** The room's camera and its detector (panels/room/camera.ts, loaded on the first scan). */
  function room(effect: RoomEffect): void {
    stopCamera?.();
    stopCamera = null;
    if (effect.kind === "stopCamera") return;
    let stop: (() => void) | null = null;
    let stopped = false;
    stopCamera = () => {
      stopped = true;
      stop?.();
    };
    const report = (action: Extract<Action, { type: "room" }>["action"]): void => dispatch({ type: "room", action });
    void import("../panels/room/camera").then(
      (camera) => {
        if (stopped) return;
        stop = camera.startCamera({
          on: () => report({ kind: "cameraOn" }),
          failed: (refused, message) => report({ kind: "cameraFailed", refused, message }),
          seen: (markers) => report({ kind: "seen", markers }),
        });
      },
      (error: unknown) => report({ kind: "cameraFailed", refused: false, message: `The scanner could not load (${messageOf(error)})` }),
    );
  }

  function cancelDebounce(): void {
    if (debounceTimer !== null) clearTimeout(debounceTimer);
    debounceTimer = null;
  }

  function run(effect: Effect): void {
    switch (effect.type) {
      case "run":
        return request(effect);
      case "cancelRuns":
        engines.counter.cancel();
        engines.timer.cancel();
        return;
      case "debounce":
        cancelDebounce();
        debounceTimer = setTimeout(() => {
          debounceTimer = null;
          dispatch({ type: "debounced" });
        }, LIVE_DEBOUNCE_MS);
        return;
      case "cancelDebounce":
        return cancelDebounce();
      case "writeLink":
        writeLink(history, location, effect.fragment);
        return;
      case "sweep":
        return sweep(effect);
      case "cancelSweep":
        void sweepRunner?.then((r) => r.cancel());
        return;
      case "replay":
        return replay(effect.held);
      case "openLesson":
        return openLesson(effect.id);
      case "milestone":
        return reached(effect.milestone, milestones);
      case "compare":
        return compare(effect);
      case "room":
        return room(effect.effect);
      case "quiz":
        return quiz(effect.link);
    }
  }

  return {
    run,
    lessonChoices: (lesson, link, answer) => side().submit({ kind: "choices", lesson, link, answer }),
    injectFault(fault) {
      nextFault = fault;
    },
  };
}
