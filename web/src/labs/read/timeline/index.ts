// The buffer timeline (owns #timeline): one reader's first application
// operations, replayed step by step (crate/src/engine/timeline.rs records
// them in an untimed pass). Per step, the cards, the buffer's bars and the
// strip (step.ts), the Rust-side caption and the running totals (words.ts);
// playback (playback.ts) and the step as an image (export.ts).
//
// The step on screen is the link's (key `step`, from 1): a link opens on
// its step, and every step taken is written back, so a reload or a shared
// link shows the same one.
//
// The first frame teaches: the headline says where the buffer fills, drains
// and refills in the recorded steps; where it never refills (a large buffer
// drained a byte at a time), it says why and offers the timeline's starting
// settings (start.ts), where a fill, a drain and a refill fit in view.

import type { Params, Report, Run, Timeline } from "../../../engine/types.gen";
import { h, replaceChildren, setText, svgElement } from "../../../shared/dom";
import { createStepExport } from "./export";
import { createPlayback } from "./playback";
import { fillSteps } from "../../../engine/report";
import { TIMELINE_START } from "./start";
import { showFlow, showPicture, showStrip } from "./step";
import { defaultReader, describeTrace, introText, refills, stripText, totalsText } from "./words";

export interface TimelineView {
  /** Shows the report's timelines (null: nothing to show). */
  update(report: Report | null): void;
  /** Goes to the link's step (from 1; past the trace's end, its last), unless it is on screen. */
  showStep(step: number): void;
  /** One sentence about the trace on screen: where its buffer fills, drains and refills. */
  headline(): string;
}

export interface TimelineOptions {
  labelOf: (readerId: string) => string;
  /** The reader shown changed, so the headline did. */
  onHeadline: () => void;
  /** The person asked for the timeline's starting settings (TIMELINE_START). */
  onStart: () => void;
  /** The full URL of a link fragment, drawn into exported images. */
  urlOf: (fragment: string) => string;
  /** The link's step (from 1): where a new trace opens. */
  step: () => number;
  /** The person moved to `step` (from 1): the page writes it into the link. */
  onStep: (step: number) => void;
  /** The address bar's link now (it carries the step on screen), drawn into exported images. */
  link: () => string;
  /** False where the timeline must not play by itself (presenter mode). */
  autoplay: () => boolean;
}

/** The offer of the starting settings, for a buffer that does not refill in the recorded steps. */
function startOffer(onStart: () => void): HTMLElement {
  const button = h("button", { type: "button", class: "small", "data-action": "timeline-start" }, `Watch it refill: ${TIMELINE_START.cap}-byte buffer, ${TIMELINE_START.rs}-byte reads`);
  button.addEventListener("click", onStart);
  const offer = h("p", { class: "timeline-offer" }, "This buffer takes more steps to drain than are recorded here. ", button);
  offer.hidden = true;
  return offer;
}

export function createTimeline(root: HTMLElement, { labelOf, onHeadline, onStart, urlOf, step, onStep, link: linkNow, autoplay }: TimelineOptions): TimelineView {
  let runs: Run[] = [];
  let link = "";
  /** The settings of the run shown, for the export's settings line. */
  let params: Params | null = null;
  let reader: string | null = null;
  let index = 0;
  const timeline = (): Timeline | null => runs.find((r) => r.reader === reader)?.timeline ?? null;
  const count = (): number => timeline()?.ops.length ?? 0;
  /** `to` within the trace's steps (0-based). */
  const clamp = (to: number): number => Math.max(0, Math.min((timeline()?.ops.length ?? 1) - 1, to));
  /** Moves to step `to` (0-based) and tells the page, which writes it into the link. */
  const moveTo = (to: number): void => {
    index = clamp(to);
    show();
    onStep(index + 1);
  };

  const picker = h("select", { id: "timeline-reader", class: "timeline-reader" });
  const intro = h("p", { class: "timeline-intro" });
  const offer = startOffer(onStart);
  const caption = h("p", { class: "timeline-caption", "aria-live": "polite" });
  const flow = h("div", { class: "timeline-flow" });
  const picture = h("div", { class: "timeline-picture" });
  const strip = svgElement("svg", { class: "timeline-strip", "aria-hidden": "true", preserveAspectRatio: "none" });
  const stripNote = h("figcaption", { class: "timeline-strip-note" });
  const totals = h("p", { class: "timeline-totals" });
  const playback = createPlayback({ index: () => index, count, moveTo, caption, root, autoplay });
  const exportRow = createStepExport({ shown: () => (timeline() && reader ? { timeline: timeline()!, reader, index, params } : null), labelOf, urlOf, link: linkNow, root });
  replaceChildren(
    root,
    h("h3", { class: "visually-hidden", id: "timeline-title" }, "Buffer timeline"),
    offer,
    intro,
    h("div", { class: "timeline-controls" }, h("label", { class: "timeline-field" }, "Reader ", picker), ...playback.elements),
    caption,
    flow,
    picture,
    h("figure", { class: "timeline-strip-figure" }, strip, stripNote),
    totals,
    exportRow,
  );
  const go = (to: number): void => {
    playback.stop();
    moveTo(to);
  };
  picker.addEventListener("change", () => {
    reader = picker.value;
    go(Math.min(index, count() - 1));
    onHeadline();
  });
  strip.addEventListener("click", (event) => {
    const box = strip.getBoundingClientRect();
    if (count() === 0 || box.width === 0) return;
    go(Math.floor(((event.clientX - box.left) / box.width) * count()));
  });

  function showPicker(): void {
    const traced = runs.filter((r) => r.timeline);
    const current = [...picker.options].map((o) => o.value).join(",");
    if (current !== traced.map((r) => r.reader).join(",")) replaceChildren(picker, ...traced.map((r) => h("option", { value: r.reader }, labelOf(r.reader))));
    picker.value = reader ?? "";
  }

  function show(): void {
    const t = timeline();
    root.hidden = t === null;
    if (!t) return;
    const op = t.ops[index];
    playback.show(index, t.ops.length);
    setText(intro, introText(t));
    offer.hidden = t.shape !== "single" || refills(t) || fillSteps(t.ops).length === 0;
    if (!op) {
      setText(caption, t.error ? `The run stopped before any operation: ${t.error}` : "No operations.");
      replaceChildren(flow);
      replaceChildren(picture);
      return;
    }
    setText(caption, `Step ${index + 1}: ${op.caption}.`);
    showFlow(flow, op, t);
    showPicture(picture, op, t);
    showStrip(strip, t.ops, index);
    setText(stripNote, stripText(t));
    setText(totals, totalsText(t, index));
  }

  return {
    update(report) {
      if (!report) {
        playback.stop();
        runs = [];
        root.hidden = true;
        return;
      }
      runs = report.runs;
      params = report.params;
      if (!runs.some((r) => r.reader === reader && r.timeline)) reader = defaultReader(runs);
      if (report.link !== link) {
        // A new experiment opens on the link's step; a full measurement of
        // the same link (after the quick estimate) keeps the step on screen.
        link = report.link;
        playback.stop();
        index = step() - 1;
      }
      // Clamped once a trace is in: the first counts may come without one (the counting build records none).
      if (timeline() !== null) index = clamp(index);
      showPicker();
      show();
      onHeadline();
    },
    showStep(to) {
      if (to - 1 === index || timeline() === null) return;
      playback.stop();
      index = clamp(to - 1);
      show();
    },
    headline() {
      const t = timeline();
      return t && reader ? describeTrace(t, labelOf(reader)) : "";
    },
  };
}
