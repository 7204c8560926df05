// The registry of labs. Each lab (labs/read, labs/write) is one vertical
// slice: its settings form, its results, its views and its headlines. The
// page (page.ts) only ever talks to the lab the params select, through the
// LabUi interface (shared/lab.ts), so it has no per-lab branches; adding a
// lab is a folder under labs/ and one entry here.

import type { Lab } from "../engine/types.gen";
import { createReadLab } from "../labs/read";
import { createWriteLab } from "../labs/write";
import type { LabContext, LabUi } from "../shared/lab";

export type Labs = Readonly<Record<Lab, LabUi>>;

export function createLabs(context: LabContext): Labs {
  return {
    read: createReadLab(context),
    write: createWriteLab(context),
  };
}
