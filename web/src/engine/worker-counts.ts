// The counting build's worker script (engine/spawn.ts): worker.ts on the
// counting build's glue, bundled into this one file.

import * as exports from "../../pkg-counts/buflab_counts.js";
import { serve } from "./worker";

serve({ build: "counts", exports });
