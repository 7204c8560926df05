// What the comparison view is handed (the page's render piece makes it from
// the page's state): plain data, no state or actions.

import type { Comparison } from "../../../engine/types.gen";

export interface CompareView {
  /** The comparison on screen, or null: then only the control shows. */
  run: {
    source: "link" | "file";
    /** The file B came from. */
    file: string | null;
    /** The file A came from when two were opened together (null: A is the result on screen). */
    fileA: string | null;
    status: "waiting" | "running" | "done" | "failed" | "cancelled";
    result: Comparison | null;
    failure: string | null;
    /** The comparison link's address. */
    url: string;
  } | null;
  /** A's link value of each key, for the control's placeholder (keys the link leaves out have none). */
  valueOf(key: string): string | undefined;
}
