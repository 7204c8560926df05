// Parts of the page the first numbers do not need (the labs' charts, which
// bring chart.js; the read lab's sweep and timeline views): each is made by
// a module imported once the first numbers are on screen and painted, and
// on most links once the first full measurement has come too, so none of
// them is on the first numbers' path or beside the first timed runs.
// main.ts says when (`startLaterParts`); a lab holds each part as a `Later`.

/** A promise and the function that resolves it (which does nothing the second time). */
function signal(): { done: Promise<void>; fire: () => void } {
  let fire: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { done, fire };
}

const parts = signal();
const numbers = signal();

/**
 * Lets the parts made by `onFirstUse` load: main.ts calls it once they would
 * no longer slow the first numbers or the first timed runs.
 */
export function startLaterParts(): void {
  parts.fire();
}

/** Says the first numbers are on screen (main.ts): the page's timed runs may start once it is quiet (`pageQuiet`). */
export function firstNumbersShown(): void {
  numbers.fire();
}

/**
 * Resolves once the page has painted what it holds now (a frame, then a
 * task), or after 100 ms where frames do not come (a hidden tab).
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}

/** Resolves once the later parts may load (`startLaterParts`) and the page has painted. */
function afterLaterParts(): Promise<void> {
  return parts.done.then(afterPaint);
}

/** Parts on their way: started, not yet arrived or failed. */
const arriving = new Set<Promise<unknown>>();

/**
 * Resolves once the later parts may load, every part asked for by then has
 * arrived (or failed), and the page has painted: its layout is whole
 * (main.ts marks it; the end-to-end tests wait for it before measuring it).
 */
export async function afterPartsArrived(): Promise<void> {
  await afterLaterParts();
  while (arriving.size > 0) await Promise.allSettled([...arriving]);
  await afterPaint();
}

/**
 * Resolves once the page has finished loading: its own files (the `load`
 * event), the first numbers painted (`firstNumbersShown`), and then a moment
 * the main thread is idle (at most half a second later). Times taken before
 * that would share the cores with the page's building, and be slower than
 * the program they stand for.
 */
export function pageQuiet(): Promise<void> {
  const loaded = new Promise<void>((resolve) => {
    if (document.readyState === "complete") resolve();
    else addEventListener("load", () => resolve(), { once: true });
  });
  const idle = (): Promise<void> =>
    new Promise((resolve) => {
      if ("requestIdleCallback" in globalThis) requestIdleCallback(() => resolve(), { timeout: 500 });
      else setTimeout(resolve, 0);
    });
  return loaded.then(() => numbers.done).then(afterPaint).then(idle);
}

/** A part of the page made by a module loaded on first use (`onFirstUse`), or at once (`atOnce`). */
export interface Later<T> {
  /**
   * Runs `use` with the part once it has arrived (at once if it has and
   * nothing is still waiting for it); the first call starts loading it.
   * `failed`: what to do if its module cannot be loaded (else an unhandled
   * rejection says so).
   */
  (use: (part: T) => void, failed?: (error: unknown) => void): void;
  /** The part, once it has arrived; null before. */
  readonly now: T | null;
}

/** The part `start` makes, held as a `Later`; `start` runs on the first call, or at once with `early`. */
function held<T>(start: () => Promise<T>, early: boolean): Later<T> {
  let part: Promise<T> | null = null;
  let now: T | null = null;
  /** Calls made before it arrived and not yet run: later calls queue behind them. */
  let waiting = 0;
  const use = (fn: (part: T) => void, failed?: (error: unknown) => void): void => {
    if (now !== null && waiting === 0) {
      fn(now);
      return;
    }
    if (part === null) {
      const coming = start().then((made) => (now = made));
      part = coming;
      arriving.add(coming);
      coming.then(
        () => arriving.delete(coming),
        () => arriving.delete(coming),
      );
    }
    waiting += 1;
    void part.then((made) => {
      waiting -= 1;
      fn(made);
    }, failed);
  };
  // Started without a use of its own: a failure is its users' to report.
  if (early) use(() => undefined, () => undefined);
  return Object.defineProperty(use, "now", { get: () => now }) as Later<T>;
}

/**
 * A part of the page made by a module loaded on first use (a dynamic
 * `import()`, such as a lab's charts or its sweep view), once the later
 * parts may load (`startLaterParts`) and the page has painted: the numbers
 * show first. Calls made before it has arrived run, in order, once it has.
 */
export function onFirstUse<T>(load: () => Promise<T>): Later<T> {
  return held(() => afterLaterParts().then(load), false);
}

/**
 * A part that loads after the first numbers on most links but that the
 * opening link needs for them or beside them (the write lab on a write-lab
 * link, the lesson card on a lesson's): its module loads at once, and it is
 * held like one loaded on first use, so the code that uses it is the same.
 */
export function atOnce<T>(load: () => Promise<T>): Later<T> {
  return held(load, true);
}
