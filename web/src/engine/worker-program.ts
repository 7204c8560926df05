// The program build's worker script (engine/spawn.ts): worker.ts on the
// program build's glue, bundled into this one file, doing the write lab's
// runs and Calibrate (protocol.ts, Jobs). Each blocks this thread until it
// is done; Cancel terminates the worker.

import init, { calibrate_opfs, lesson_choices, run, time_counted } from "../../pkg-program/buflab_program.js";
import { openOpfsFile } from "./opfs";
import type { Calibration, LessonChoices } from "./types.gen";
import { serve, timedRun } from "./worker";

serve(
  { build: "program", init },
  {
    // The write lab, counted and timed in one run (`time_counted` runs it whole).
    run: ({ link, stage, fault, counted }) =>
      timedRun(() =>
        counted !== undefined && stage !== "counts" ? time_counted(link, stage === "quick", counted) : run(link, stage === "counts", stage === "quick", fault),
      ),
    // The write lab's lesson's four choices, each a real run (catalog/choices.rs).
    choices: ({ link, answer }) => lesson_choices(link, answer) as LessonChoices,
    // Opens a file in the Origin Private File System (the async part), then
    // the engine writes the stream to it and times reading it back through
    // the sync access handle (blocking, about half a second).
    calibrate: async ({ params }) => {
      const file = await openOpfsFile();
      if ("missing" in file) return { kind: "missing", reason: file.missing };
      try {
        return { kind: "measured", calibration: calibrate_opfs(params, file.handle as never) as Calibration };
      } finally {
        await file.release();
      }
    },
  },
);
