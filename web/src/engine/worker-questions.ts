// The questions build's worker script (engine/spawn.ts): worker.ts on the
// questions build's glue, bundled into this one file, writing the read lab's
// quizzes and a read lesson's four choices from counted runs (protocol.ts,
// Jobs). The side worker's (app/effects.ts): a room, a quiz link or a lesson
// asks, never the page's runs.

import init, { lesson_choices, quiz } from "../../pkg-questions/buflab_questions.js";
import type { LessonChoices, Quiz } from "./types.gen";
import { serve } from "./worker";

serve(
  { build: "questions", init },
  {
    // The quiz of a read link, from counted runs (catalog/quiz.rs).
    quiz: ({ link }) => quiz(link) as Quiz,
    // A read lesson's four choices, each a real run (catalog/choices.rs).
    choices: ({ link, answer }) => lesson_choices(link, answer) as LessonChoices,
  },
);
