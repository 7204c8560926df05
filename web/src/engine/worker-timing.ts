// The timing builds' worker script (engine/spawn.ts): worker.ts on the
// timing builds' glue, bundled into this one file, doing the read lab's runs,
// sweeps and quizzes (protocol.ts, Jobs). Every workload's timing build has the same
// exports and imports, so one glue serves them all: the page hands over the
// compiled build of the link's workload (engine/builds.test.ts holds the
// builds' glue to that). Each job blocks this thread until it is done;
// Cancel terminates the worker.

import init, { compare, lesson_choices, quiz, run, sweep_point, sweep_report, sweep_total, time_counted } from "../../pkg-timing/fixed/buflab_timing.js";
import type { Comparison, LessonChoices, Quiz, SweepPoint, SweepReport } from "./types.gen";
import { serve, timedRun } from "./worker";

serve(
  { build: "timing", init },
  {
    // Counts known already (the counting worker's): only the timed pass runs.
    run: ({ link, stage, fault, counted }) =>
      timedRun(() =>
        counted === undefined || stage === "counts" ? run(link, stage === "counts", stage === "quick", fault) : time_counted(link, stage === "quick", counted),
      ),
    // A and B in alternating rounds, in this one worker.
    compare: ({ link, quick }) => {
      const started = performance.now();
      const comparison = compare(link, false, quick) as Comparison;
      return { comparison, elapsedMs: performance.now() - started };
    },
    // Point by point, posting the report of the points so far after each one.
    sweep: ({ params, quick }, progress) => {
      const total = sweep_total(params);
      const points: SweepPoint[] = [];
      let report: SweepReport | null = null;
      for (let index = 0; index < total; index++) {
        const started = performance.now();
        points.push(sweep_point(params, index, { quick }) as SweepPoint);
        report = sweep_report(params, points) as SweepReport;
        progress({ index, total, report, elapsedMs: performance.now() - started });
      }
      return report ?? (sweep_report(params, points) as SweepReport);
    },
    // The quiz of a link of this build's workload, from counted runs (catalog/quiz.rs).
    quiz: ({ link }) => quiz(link) as Quiz,
    // A read lesson's four choices, each a real run (catalog/choices.rs).
    choices: ({ link, answer }) => lesson_choices(link, answer) as LessonChoices,
  },
);
