// Your own program's reads (owns #trace): a person drops or picks a
// program's strace log, or opens the shipped log of a real program; the
// trace worker reads it in a streamed way (progress, Cancel), and the panel
// shows each descriptor's read calls and what BufLab's readers would have
// made of them, with the nearest experiment's link. The panel's state is a
// pure model (model.ts); this file is its edge: it runs the model's effects
// on the worker and the network and draws the pieces (open.ts, status.ts,
// figures.ts, pattern.ts, replay.ts), each owning one element.

import { messageOf } from "../../engine/errors";
import { lessons } from "../../engine/lessons";
import { createTraceRunner } from "../../engine/trace-runner";
import type { ReaderKind } from "../../engine/types.gen";
import { h, replaceChildren } from "../../shared/dom";
import { createFigures } from "./figures";
import { initialTrace, step, type TraceEffect, type TraceEvent, type TraceModel } from "./model";
import { createOpen } from "./open";
import { createPattern } from "./pattern";
import { createReplay } from "./replay";
import { createStatus } from "./status";
import "./trace.css";

export interface TraceOptions {
  labelOf(reader: ReaderKind): string;
  urlOf(fragment: string): string;
}

export interface TracePanel {
  /** Opens the shipped log of a real program (a lesson's button). */
  openShipped(): void;
}

/** The shipped log: the one the lessons open (the catalog names it). */
const SHIPPED_NAME = lessons.find((l) => l.log)?.log ?? "";
/** The shipped log (public/traces/, recorded by scripts/record-trace.sh): fetched when asked for, never before. */
const shippedUrl = `./traces/${SHIPPED_NAME}`;

export function createTrace(element: HTMLElement, options: TraceOptions): TracePanel {
  const open = h("div", { class: "trace-open" });
  const status = h("div", { class: "trace-status" });
  const figures = h("div", { class: "table-scroll trace-figures-wrap" });
  const pattern = h("div", { class: "trace-pattern-wrap" });
  const replay = h("div", { class: "trace-replay-wrap", id: "trace-replay-wrap" });
  replaceChildren(
    element,
    h("h3", { id: "trace-title" }, "Your own program's reads"),
    h(
      "p",
      { class: "field-note" },
      "Record a program with strace -f -y -e trace=openat,read,readv,pread64,recvfrom,recvmsg,close -o prog.strace PROGRAM, then open the log: " +
        "each descriptor's read calls, and the program's own requests replayed through unbuffered reads, std's BufReader and the chained reader.",
    ),
    open,
    status,
    figures,
    pattern,
    replay,
  );
  let model: TraceModel = initialTrace;
  const dispatch = (event: TraceEvent): void => {
    const next = step(model, event);
    model = next.model;
    draw();
    next.effects.forEach(run);
  };
  const runner = createTraceRunner((message) => dispatch({ type: "heard", message }));
  const run = (effect: TraceEffect): void => {
    switch (effect.type) {
      case "read":
        return runner.read(effect.job, effect.log);
      case "cancel":
        return runner.cancel(effect.job);
      case "replay":
        return runner.replay(effect.job, effect.id);
      case "fetch":
        fetch(shippedUrl)
          .then((response) => {
            if (!response.ok) throw new Error(`${SHIPPED_NAME}: HTTP ${response.status}`);
            return response.blob();
          })
          .then(
            (log) => dispatch({ type: "fetched", job: effect.job, log }),
            (error: unknown) => dispatch({ type: "fetchFailed", job: effect.job, message: messageOf(error) }),
          );
    }
  };
  const openShipped = (): void => dispatch({ type: "fetch", name: SHIPPED_NAME });
  createOpen(open, {
    open: (file) => dispatch({ type: "open", name: file.name, log: file }),
    shipped: openShipped,
    shippedLabel: "Open a real program's log (bash's while-read over a pipe)",
  });
  const statusPiece = createStatus(status, () => dispatch({ type: "cancel" }));
  const figuresPiece = createFigures(figures, (id) => dispatch({ type: "choose", id }));
  const patternPiece = createPattern(pattern);
  const replayPiece = createReplay(replay, options);
  function draw(): void {
    element.dataset["state"] = model.status;
    statusPiece.draw(model);
    figuresPiece.draw(model.report, model.chosen);
    const descriptor = model.report?.descriptors.find((d) => d.id === model.chosen) ?? null;
    patternPiece.draw(descriptor);
    replayPiece.draw(descriptor, model.chosen === null ? null : (model.replays[model.chosen] ?? null), model.chosen !== null && model.replaying.includes(model.chosen));
  }
  draw();
  return { openShipped };
}
