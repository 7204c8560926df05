// The counting build's worker script (engine/spawn.ts): worker.ts on the
// counting build's glue, bundled into this one file. It does runs (exact
// counts, nothing timed) and quizzes (written from counted runs).

import init, { quiz, run } from "../../pkg-counts/buflab_counts.js";
import type { Quiz } from "./types.gen";
import { serve, timedRun } from "./worker";

serve(
  { build: "counts", init },
  {
    run: ({ link, stage, fault }) => timedRun(() => run(link, stage === "counts", stage === "quick", fault)),
    quiz: ({ link }) => quiz(link) as Quiz,
  },
);
