// The registry of labs. Each lab (labs/read, labs/write) is one vertical
// slice: its settings form, its results, its views and its headlines. The
// page (page.ts) only ever talks to the lab the params select, through the
// LabUi interface (shared/lab.ts), so it has no per-lab branches; adding a
// lab is a folder under labs/ and one entry here.
//
// Each lab is held as a `Later` (shared/later.ts): the write lab's module is
// a chunk of its own, loaded at once when the opening link shows it (its
// first numbers need it) and after the first numbers otherwise. The page
// shows a lab only once it has arrived.

import type { Lab } from "../engine/types.gen";
import { createReadLab } from "../labs/read";
import type { LabContext, LabUi } from "../shared/lab";
import { atOnce, onFirstUse, type Later } from "../shared/later";

export type Labs = Readonly<Record<Lab, Later<LabUi>>>;

/** The lab params show (or a report came from): one that has arrived, as the page shows no other. */
export function labOf(labs: Labs, id: Lab): LabUi {
  const lab = labs[id].now;
  if (!lab) throw new Error(`The ${id} lab is shown before its code has loaded.`);
  return lab;
}

export function createLabs(context: LabContext, opening: Lab): Labs {
  const loadWrite = () => import("../labs/write").then((m) => m.createWriteLab(context));
  const write = opening === "write" ? atOnce(loadWrite) : onFirstUse(loadWrite);
  return {
    // In the page's own code, and made with the page whichever lab opens:
    // its form and results are the static page's (index.html), hidden
    // through it when the write lab shows. On a write-lab link it is made
    // once the write lab has arrived, so the static page goes straight to
    // the write lab's form, never the read lab's first.
    read: atOnce(() => (opening === "read" ? Promise.resolve() : new Promise<unknown>((arrived, failed) => write(arrived, failed))).then(() => createReadLab(context))),
    write,
  };
}
