// The counting build's worker script (engine/spawn.ts): worker.ts on the
// counting build's glue, bundled into this one file. It does runs only
// (exact counts, nothing timed).

import init, { run } from "../../pkg-counts/buflab_counts.js";
import { serve, timedRun } from "./worker";

serve(
  { build: "counts", init },
  { run: ({ link, stage, fault }) => timedRun(() => run(link, stage === "counts", stage === "quick", fault)) },
);
