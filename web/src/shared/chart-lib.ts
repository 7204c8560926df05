// chart.js, loaded on first use: the page's first script carries none of
// it, so the first numbers (headline, table) show before it arrives. The bar charts come with their modules (chart-bars.ts, by the
// labs' dynamic imports, `onFirstUse` in later.ts); the sweep's line charts
// and the PNG export ask here.

import type { Chart } from "chart.js";

let loading: Promise<typeof Chart> | null = null;

/** chart.js's Chart, the line chart's parts registered (chart-lines.ts); imported once. */
export function chartLib(): Promise<typeof Chart> {
  loading ??= import("./chart-lines").then((m) => m.Chart);
  return loading;
}
