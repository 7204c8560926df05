// The contract between the page and a lab: what the page asks of a lab
// (LabUi) and what a lab may ask of the page (LabContext). Types only; the
// registry that builds the labs is app/labs.ts.

import type { Codec } from "../engine/codec";
import type { Lab, LabReport, Params, Ratio, Stats, Sweep, SweepComparison, SweepReport, Verdict, View } from "../engine/types.gen";

/** How far a sweep has come. */
export type SweepStatus = "running" | "done" | "cancelled" | "failed";

/** A sweep as the sweep view shows it (the page's model owns its state). */
export interface SweepShown {
  /** Which sweep: a new id is a new sweep. */
  id: number;
  status: SweepStatus;
  /** Its points so far (null before the first). */
  report: SweepReport | null;
  failure: string | null;
  /** Start to end, once it has ended. */
  elapsedMs: number | null;
  /** Whether it was run for the settings on screen. */
  current: boolean;
  /** A comparison link's two sweeps (its `b.` keys beside a sweep), as far as they have come; null without one. */
  compared?: SweepCompared | null;
}

/** A comparison link's sweeps: A's and B's, run by the engine in alternating order, the knee of each paired. */
export interface SweepCompared {
  status: "waiting" | "running" | "done" | "failed" | "cancelled";
  /** Both sweeps and their knees once done (null before, or when B has no sweep). */
  result: SweepComparison | null;
  failure: string | null;
}

/** How the page compares two measured times: the engine's rule (`Stats::verdict`), through the codec. */
export type Compare = (a: Stats, b: Stats) => Verdict;

/**
 * What the page may say about two measured times, through the codec: the
 * engine's verdict (faster or slower only when the samples separate) and
 * the range of ratios the samples support (`Stats::ratio`).
 */
export interface Times {
  verdict: Compare;
  timeRatio(a: Stats, b: Stats): Ratio | null;
}

/** A chart a lab offers for PNG export. */
export interface ExportedChart {
  title: string;
  canvas: HTMLCanvasElement;
}

/** What the page needs from a lab. */
export interface LabUi {
  readonly id: Lab;
  /** Elements shown only while this lab is (its form, its results). */
  readonly elements: readonly HTMLElement[];
  /** The result views it offers, in tab order (none: it has one view of its own). */
  readonly views: readonly View[];
  /** Shows params in the lab's form (and view controls) without reporting a change. */
  show(params: Params): void;
  /**
   * A report of this lab arrived; `timing`: whether its times are still to
   * come (false once stopped). Resolves once its charts are drawn (the page
   * says "Done" only then).
   */
  update(report: LabReport, timing: boolean): Promise<void>;
  /** Shows `view` (one of `views`), hiding the lab's other views. */
  showView(view: View): void;
  /**
   * The params to use when the person opens `view` from `params` (the
   * timeline may bring its own starting settings), and what they changed in
   * words when they change the experiment (null when only the view changes).
   */
  enter(view: View, params: Params): { params: Params; note: string | null };
  /** Shows the page's newest sweep (labs without a sweep view ignore it). */
  showSweep(sweep: SweepShown | null): void;
  /** One or two sentences about `view` for the headline above the results ("" before any result). */
  headline(view: View): string;
  /** How the engine fitted the settings just edited (a sweep's range cut to the limits), to show beside them; [] clears. */
  fitted(notes: string[]): void;
  /** Re-reads colours and type size (colour scheme, presenter mode). */
  retheme(): void;
  /** The charts the export panel offers as PNGs. */
  charts(): ExportedChart[];
  /** The name of a reader or cursor id, for export and the phone bar. */
  labelOf(id: string): string;
  /** The newest numbers in a few words, for the phone bar while the results are out of view. */
  peek(report: LabReport): (string | Node)[];
}

/** What a lab may ask of the page. */
export interface LabContext {
  codec: Codec;
  /** The params on screen now. */
  params(): Params;
  /** A setting changed (as from a form field); `live` while a slider is still moving. */
  edited(params: Params, live: boolean): void;
  /** A display-only setting changed (the timeline's step): no new run. */
  displayed(params: Params): void;
  /** The address bar's link of the params on screen (no leading '#'). */
  link(): string;
  /** The sweep's axis or range changed. */
  sweepEdited(sweep: Sweep | null): void;
  /** Run sweep was pressed. */
  sweepRun(): void;
  /** Cancel was pressed during a sweep. */
  sweepCancel(): void;
  /** Something the lab's headline says changed. */
  headlineChanged(): void;
  /** The lab's charts arrived (their module loads after the first numbers): what `LabUi.charts` lists changed. */
  chartsChanged(): void;
  /** The full URL of a link fragment (for exports that carry their link). */
  urlOf(fragment: string): string;
}
