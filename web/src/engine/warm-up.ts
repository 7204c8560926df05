// What the timing worker (worker-timing.ts) leaves in its performance
// timeline about its warm-up, for whoever reads it there (web/e2e/warm.test.ts,
// scripts/bench.mjs): a module of its own, so they can import the names
// without the worker's glue.

/** The warm-up before the first full measurement: a performance measure whose detail is a `WarmUpDetail`. */
export const WARM_UP_MEASURE = "buflab:warm-up";

/** The first full measurement of a timing worker: a performance measure whose detail is a `Called`. */
export const FULL_MEASURE = "buflab:first-full-measurement";

/** What a warm-up or a full measurement called: the engine's export and the link. */
export interface Called {
  export: "run" | "time_counted";
  link: string;
}

/** Why a warm-up ended. */
export type WarmUpEnd =
  /** Its calls got faster, then stopped getting faster: it ended the engine's fresh period (`warmed_up`). */
  | "optimized"
  /** A call was too long to be a short one: the engine's fresh period is left to the engine. */
  | "long"
  /** Its time ran out (the engine's fresh period) before its calls stopped getting faster. */
  | "limit";

/** A warm-up: what it called, how many times, and why it ended. */
export interface WarmUpDetail extends Called {
  calls: number;
  ended: WarmUpEnd;
}
