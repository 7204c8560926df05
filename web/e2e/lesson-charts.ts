// Where each chart a lesson can name (its `charts` in the catalog, by their
// `embed` ids) is drawn on the page: the layout and phone tests find a
// lesson's chart by position through this one table.

import type { Page } from "playwright-core";
import type { Embed } from "../src/engine/types.gen";

export const CHART: Record<Embed, string> = {
  reads: '#charts figure.chart[data-embed="reads"] canvas',
  time: '#charts figure.chart[data-embed="time"] canvas',
  copied: '#charts figure.chart[data-embed="copied"] canvas',
  allocs: '#charts figure.chart[data-embed="allocs"] canvas',
  sweep: '#sweep .sweep-chart[data-metric="source_reads"] canvas',
  reallocs: '#write-results figure.chart[data-embed="reallocs"] canvas',
  timeline: "#timeline .timeline-picture",
  write: "#write-results figure.chart canvas",
};

/** The selector of a named chart as the page draws it now (a two-axis sweep draws a heatmap). */
export async function chartOn(page: Page, named: Embed): Promise<string> {
  if (named === "sweep" && (await page.locator("#sweep-heatmap").isVisible())) return "#sweep-heatmap";
  return CHART[named];
}
