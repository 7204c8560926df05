// A QR code of a link, as an SVG element. The encoding is the `uqr`
// library's (a maintained, dependency-free encoder; CONTRIBUTING.md,
// "Dependencies and why", says why); this file only draws its modules, one
// path of dark squares, so the link reaches the page as data, never as markup.

import { encode } from "uqr";
import { svgElement } from "./dom";

/** Modules of light margin around the code (the QR standard's quiet zone). */
const QUIET_ZONE = 4;

/** The dark modules of `text`'s QR code (error correction M: a projected or printed code survives a smudge). */
export function qrModules(text: string): boolean[][] {
  return encode(text, { ecc: "M", border: QUIET_ZONE }).data;
}

/** An SVG QR code of `text`, scaled by CSS; `label` names it for screen readers. */
export function qrSvg(text: string, label: string): SVGSVGElement {
  const modules = qrModules(text);
  const size = modules.length;
  const svg = svgElement("svg", {
    viewBox: `0 0 ${size} ${size}`,
    role: "img",
    "aria-label": label,
    "shape-rendering": "crispEdges",
    class: "qr",
    "data-qr": text,
  });
  const squares: string[] = [];
  modules.forEach((row, y) => row.forEach((dark, x) => dark && squares.push(`M${x} ${y}h1v1h-1z`)));
  svg.append(svgElement("rect", { width: size, height: size, fill: "#fff" }), svgElement("path", { d: squares.join(""), fill: "#000" }));
  return svg;
}
