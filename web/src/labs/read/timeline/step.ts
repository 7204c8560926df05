// One step of the timeline on the page: the three places bytes pass
// through (source → buffer → app) as cards, the buffer as bars of its
// capacity (one per block for the chained reader) with its legend, and the
// strip of every operation. Every value is text or an SVG attribute.

import type { Op, Timeline } from "../../../engine/types.gen";
import { append, h, replaceChildren, svgElement } from "../../../shared/dom";
import { BAR, NO_BUFFER, STRIP_HEIGHT, bufferRows, legendKeys, stripMarks, type Mark } from "./marks";
import { bytesText } from "./start";
import { plural } from "../../../shared/format";
import { flowCards, type FlowCard } from "./words";

/** The three places bytes pass through this step, as cards. */
export function showFlow(flow: HTMLElement, op: Op, t: Timeline): void {
  const card = ({ title, state, lines, badge }: FlowCard): HTMLElement =>
    h(
      "div",
      { class: `timeline-card ${state}` },
      h("div", { class: "timeline-card-title" }, title),
      ...lines.map((l) => h("div", {}, l)),
      badge === null ? null : h("div", {}, h("strong", { class: "timeline-badge" }, badge)),
    );
  const arrow = (): HTMLElement => h("div", { class: "timeline-arrow", "aria-hidden": "true" }, "→");
  replaceChildren(flow, ...flowCards(op, t).flatMap((c, i) => (i === 0 ? [card(c)] : [arrow(), card(c)])));
}

/** `marks` as SVG rects in `parent`; outlines keep their width however the drawing is stretched. */
function drawMarks(parent: SVGElement, marks: readonly Mark[]): void {
  for (const { cls, ...box } of marks) {
    const outline = cls === "tl-outline" || cls === "tl-current";
    parent.append(svgElement("rect", { class: cls, ...box, ...(outline ? { "vector-effect": "non-scaling-stroke" } : {}) }));
  }
}

export function showPicture(picture: HTMLElement, op: Op, t: Timeline): void {
  if (t.capacity === 0) {
    replaceChildren(picture, h("p", { class: "timeline-none" }, NO_BUFFER));
    return;
  }
  const { rows, more } = bufferRows(op, t);
  const bars = rows.map(({ name, state, at, marks }) => {
    const bar = svgElement("svg", { class: "timeline-bar", viewBox: `0 0 ${BAR.width} ${BAR.height}`, preserveAspectRatio: "none", "aria-hidden": "true" });
    drawMarks(bar, marks);
    return h(
      "div",
      { class: "timeline-row" },
      h("div", { class: "timeline-row-label" }, h("strong", {}, name), ` · ${bytesText(t.capacity)} · `, state, at === null ? null : " ", at === null ? null : h("span", { class: "nowrap" }, at)),
      bar,
    );
  });
  const rest = more > 0 ? h("p", { class: "timeline-none" }, `… and ${plural(more, "more block")}`) : null;
  const legend = h(
    "p",
    { class: "timeline-legend" },
    ...legendKeys(op).map(([cls, text]) => h("span", { class: "timeline-key" }, h("span", { class: `swatch ${cls}` }), text)),
  );
  replaceChildren(picture, ...bars);
  append(picture, rest, legend);
}

export function showStrip(strip: SVGSVGElement, ops: readonly Op[], index: number): void {
  strip.setAttribute("viewBox", `0 0 ${Math.max(1, ops.length)} ${STRIP_HEIGHT}`);
  strip.replaceChildren();
  drawMarks(strip, stripMarks(ops, index));
}
