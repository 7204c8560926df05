// Parts of the page the first numbers do not need (the labs' charts, which
// bring chart.js; the read lab's sweep and timeline views): each is made by
// a module imported once the first numbers are on screen and painted, so
// none of them is on the first numbers' path. main.ts says when
// (`startLaterParts`); a lab holds each part as a `Later`.

let releaseParts: () => void = () => undefined;
const partsReleased = new Promise<void>((resolve) => {
  releaseParts = resolve;
});

/**
 * Lets the parts made by `onFirstUse` load: main.ts calls it once the first
 * numbers are on screen, so none of their modules is on the first numbers'
 * path.
 */
export function startLaterParts(): void {
  releaseParts();
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

/** A part of the page made by a module loaded on first use (`onFirstUse`). */
export interface Later<T> {
  /** Runs `use` with the part once it has arrived; the first call starts loading it. */
  (use: (part: T) => void): void;
  /** The part, once it has arrived; null before. */
  readonly now: T | null;
}

/**
 * A part of the page made by a module loaded on first use (a dynamic
 * `import()`, such as a lab's charts or its sweep view), once the first
 * numbers are on screen (`startLaterParts`) and painted: the numbers show
 * first. Calls made before it has arrived run, in order, once it has.
 */
export function onFirstUse<T>(load: () => Promise<T>): Later<T> {
  let part: Promise<T> | null = null;
  let now: T | null = null;
  const use = (fn: (part: T) => void): void => {
    part ??= partsReleased
      .then(afterPaint)
      .then(load)
      .then((made) => (now = made));
    void part.then(fn);
  };
  return Object.defineProperty(use, "now", { get: () => now }) as Later<T>;
}
