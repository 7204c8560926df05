// A laid-out step (scene.ts) as an SVG document that stands on its own.

import { h, svgElement, svgText } from "../../../shared/dom";
import type { Shape, StepScene } from "./scene";

/**
 * `scene` as an SVG element that stands on its own: each class's colours
 * read from the page's CSS (a probe element inside `root`, so the
 * timeline's own custom properties apply) and written as attributes.
 */
export function sceneSvg(scene: StepScene, root: HTMLElement): SVGSVGElement {
  const probes = h("div", { hidden: true, "aria-hidden": "true" });
  root.append(probes);
  const painted = new Map<string, Record<string, string>>();
  const paint = (shape: Shape): Record<string, string> => {
    const key = `${shape.kind} ${shape.cls}`;
    const known = painted.get(key);
    if (known) return known;
    let attrs: Record<string, string>;
    if (shape.kind === "text") {
      const probe = h("span", { class: shape.cls });
      probes.append(probe);
      attrs = { fill: getComputedStyle(probe).color };
    } else if (shape.cls.startsWith("tl-")) {
      const probe = svgElement("rect", { class: shape.cls });
      const holder = svgElement("svg");
      holder.append(probe);
      probes.append(holder);
      const style = getComputedStyle(probe);
      attrs = { fill: style.fill, stroke: style.stroke, "stroke-width": style.strokeWidth };
    } else {
      const probe = h("div", { class: shape.cls });
      probes.append(probe);
      const style = getComputedStyle(probe);
      const border = parseFloat(style.borderTopWidth) || 0;
      attrs = {
        fill: style.backgroundColor,
        stroke: border > 0 ? style.borderTopColor : "none",
        "stroke-width": String(border),
        rx: String(parseFloat(style.borderTopLeftRadius) || 0),
        ...(style.borderTopStyle === "dashed" ? { "stroke-dasharray": "4 3" } : {}),
      };
    }
    painted.set(key, attrs);
    return attrs;
  };
  try {
    const drawing = svgElement("svg", { width: scene.width, height: scene.height, viewBox: `0 0 ${scene.width} ${scene.height}` });
    for (const shape of scene.shapes) {
      if (shape.kind === "rect") {
        const { kind: _kind, cls: _cls, ...box } = shape;
        drawing.append(svgElement("rect", { ...box, ...paint(shape) }));
      } else {
        drawing.append(
          svgText(shape.text, {
            x: shape.x,
            y: shape.y,
            "dominant-baseline": "hanging",
            "font-size": shape.size,
            ...(shape.bold ? { "font-weight": 700 } : {}),
            ...paint(shape),
          }),
        );
      }
    }
    return drawing;
  } finally {
    probes.remove();
  }
}
