// The chosen descriptor's read calls in the order they were made (owns its
// element): the engine's slices of the calls (`Descriptor::over_time`), as
// the bytes a call returned (the slice's mean, with its smallest and largest)
// against the call's number, and a sentence that says the pattern in words.
// A run of 1-byte reads is a flat line at 1; a socket's short reads scatter.

import type { Chart } from "chart.js";
import type { Descriptor, Slice } from "../../engine/types.gen";
import { chartBlock, OKABE_ITO, readTheme, themeAxes } from "../../shared/chart-kit";
import { chartLib } from "../../shared/chart-lib";
import { replaceChildren, setText } from "../../shared/dom";
import { formatBinaryBytes, formatCount } from "../../shared/format";

/** A slice's calls that returned data or an end of file (failed calls return nothing). */
const answered = (s: Slice): number => s.calls - s.failed;

/** The bytes per call of each slice that had an answered call: [first call's number (1-based), mean, smallest, largest]. */
export function patternPoints(slices: readonly Slice[]): { call: number; mean: number; min: number; max: number }[] {
  return slices
    .filter((s) => answered(s) > 0)
    .map((s) => ({ call: s.first_call + 1, mean: s.bytes / answered(s), min: s.min_returned, max: s.max_returned }));
}

/** The pattern in one sentence, from the slices alone. */
export function patternText(d: Descriptor): string {
  const points = patternPoints(d.over_time);
  if (points.length === 0) return "No read call of it returned data.";
  const each = d.slice_calls > 1 ? ` (each point: ${formatCount(d.slice_calls)} calls)` : "";
  const max = Math.max(...points.map((p) => p.max));
  if (max === 0) return `Read calls in order, ${formatCount(d.calls)} in all: every one returned 0 bytes (the end of the data).`;
  const min = Math.min(...points.filter((p) => p.max > 0).map((p) => p.min));
  const shape =
    min === max
      ? `every call that returned data returned ${formatBinaryBytes(max)}`
      : `calls returned from ${formatBinaryBytes(min)} to ${formatBinaryBytes(max)}`;
  const short = d.short_reads - d.short_at_end;
  const shorts = short > 0 ? `; ${formatCount(short)} short reads (less than asked, not at the end) say the data arrived in pieces` : "";
  return `Read calls in order, ${formatCount(d.calls)} in all${each}: ${shape}${shorts}.`;
}

export interface PatternPiece {
  draw(descriptor: Descriptor | null): void;
}

export function createPattern(element: HTMLElement): PatternPiece {
  const { block, canvas, caption } = chartBlock("What each read call returned, call by call", "");
  canvas.id = "trace-pattern";
  let chart: Chart<"line"> | null = null;
  let drawn: Descriptor | null = null;
  let asked = 0;

  async function fill(d: Descriptor, ask: number): Promise<void> {
    const Line = await chartLib();
    if (ask !== asked) return;
    const points = patternPoints(d.over_time);
    const theme = readTheme();
    const series = (label: string, pick: (p: (typeof points)[number]) => number, colour: string, dashed: boolean) => ({
      label,
      data: points.map((p) => ({ x: p.call, y: Math.max(1, pick(p)) })),
      borderColor: colour,
      backgroundColor: colour,
      borderDash: dashed ? [4, 3] : [],
      pointRadius: points.length > 60 ? 0 : 2,
      borderWidth: dashed ? 1 : 2,
    });
    const data = {
      datasets: [
        series("mean bytes per call", (p) => p.mean, OKABE_ITO.blue, false),
        series("largest", (p) => p.max, OKABE_ITO.vermillion, true),
        series("smallest", (p) => p.min, OKABE_ITO.bluishGreen, true),
      ],
    };
    chart?.destroy();
    chart = new Line(canvas, {
      type: "line",
      data,
      options: {
        animation: false,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: { type: "linear", title: { display: true, text: "Read call number" }, min: 1 },
          y: { type: "logarithmic", min: 1, title: { display: true, text: "Bytes returned (log scale)" } },
        },
        plugins: { legend: { position: "bottom" } },
      },
    });
    themeAxes(chart, theme);
    chart.update();
    canvas.dataset["points"] = String(points.length);
    canvas.setAttribute("aria-label", patternText(d));
  }

  return {
    draw(descriptor) {
      if (descriptor === drawn) return;
      drawn = descriptor;
      asked += 1;
      if (descriptor === null || descriptor.over_time.length === 0) {
        chart?.destroy();
        chart = null;
        replaceChildren(element);
        return;
      }
      if (block.parentElement !== element) replaceChildren(element, block);
      setText(caption, patternText(descriptor));
      void fill(descriptor, asked);
    },
  };
}
