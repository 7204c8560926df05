// chart.js, loaded on first use: the page's first script carries none of it
// (about 60 KB gzipped), so the first numbers (headline, table) show before
// it arrives. The bar charts come with their modules (chart-bars.ts, by the
// labs' dynamic imports); the sweep's line charts and the PNG export ask here.

import type { Chart } from "chart.js";

let loading: Promise<typeof Chart> | null = null;

/** chart.js's Chart, the line chart's parts registered (chart-lines.ts); imported once. */
export function chartLib(): Promise<typeof Chart> {
  loading ??= import("./chart-lines").then((m) => m.Chart);
  return loading;
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

/**
 * A part of the page made by a module loaded on first use (a dynamic
 * `import()`, such as a lab's charts), once the page has painted: the
 * numbers that asked for it show first. Calls made before it has arrived
 * run, in order, once it has.
 */
export function onFirstUse<T>(load: () => Promise<T>): (use: (part: T) => void) => void {
  let part: Promise<T> | null = null;
  return (use) => {
    part ??= afterPaint().then(load);
    void part.then(use);
  };
}
