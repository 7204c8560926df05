// What the lessons panel is handed of the page: its one way in (the panel
// never reads the page's state or sends its actions).

import type { LabReport, LessonId, SweepReport } from "../../engine/types.gen";

/** The results on screen that are of the settings on screen (null where there are none such). */
export interface CurrentResults {
  /** The open lab's report. */
  report: LabReport | null;
  /** The sweep view's sweep. */
  sweep: SweepReport | null;
}

/** What the lessons show of the page: the lesson open, predict-then-reveal's state, and the link on screen. */
export interface LessonView {
  lesson: LessonId | null;
  present: boolean;
  predict: boolean;
  /** The lesson's question waits for its answer (predict on, a lesson open, Reveal not pressed). */
  asking: boolean;
  /** The number the person guessed (null: none yet). */
  guess: number | null;
  /** The results of the lesson's own link, its answer is read from (answer.ts), whatever the settings on screen became. */
  results: CurrentResults;
  /** Those results are in or on their way (false: the lesson's own sweep runs only once its link is loaded again). */
  answerComing: boolean;
  /** The address bar's link. */
  fragment: string;
  /** A clicker went past the last lesson: the end slide shows. */
  ended: boolean;
  /** The buffer timeline's step on screen when the timeline view shows (null otherwise): a student's link says where it was taken. */
  step: number | null;
}
