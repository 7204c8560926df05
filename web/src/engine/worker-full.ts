// The full build's worker script (engine/spawn.ts): worker.ts on the full
// build's glue, bundled into this one file.

import * as exports from "../../pkg/buflab.js";
import { serve } from "./worker";

serve({ build: "full", exports });
