// Files made in the page: CSV text that carries its settings and link,
// downloads, and images for slides (a chart, or any SVG drawing, as a 2× PNG
// or an SVG document, with its title, settings and link drawn in). Shared by
// the export panel and the labs' own exports (the sweep's, the timeline's);
// nothing here knows a lab.

import { messageOf } from "../engine/errors";
import { chartLib } from "./chart-lib";
import { h, setText, SVG_NS, svgElement, svgText } from "./dom";
export type Cell = string | number | null | undefined;

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
export function csvField(value: Cell): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A measured number as the CSV writes it: integers as they are, other
 * numbers to a tenth (of a nanosecond), so the file says 249400, never
 * 249399.9999947834.
 */
export function exactNumber(value: Cell): Cell {
  return typeof value === "number" && !Number.isInteger(value) ? Math.round(value * 10) / 10 : value;
}

/**
 * CSV text: comment lines first (`# …`: what it is, the settings, the link
 * that reproduces it), then the header and the rows.
 */
export function csvLines(comments: string[], header: string[], rows: Cell[][]): string {
  const head = comments.map((c) => `# ${c.replace(/[\r\n]+/g, " ")}\r\n`).join("");
  return head + [header, ...rows].map((row) => row.map((cell) => csvField(exactNumber(cell))).join(",")).join("\r\n") + "\r\n";
}

/** The comment lines every CSV export starts with: what it is, its settings in words (`settingsInWords`), the link that reproduces it. */
export function csvComments(what: string, settings: string, link: string): string[] {
  return [what, `settings: ${settings}`, `link: ${link}`];
}

/** A file name for an export: `buflab-read-source-reads-2026-11-22T01-02-03.png`. */
export function exportName(kind: string, extension: string, at: Date, part?: string): string {
  const stamp = at.toISOString().slice(0, 19).replace(/:/g, "-");
  const slug = part ? `-${part.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}` : "";
  return `buflab-${kind}${slug}-${stamp}.${extension}`;
}

// ---------------------------------------------------------------- downloads

/** Saves `blob` under `name` through a temporary link. */
export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has started by now; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file an export button makes. */
export interface Saved {
  blob: Blob;
  name: string;
}

/**
 * A button that makes a file and downloads it, saying in `status` that it
 * did or why it failed; `make` returns null while there is nothing to save.
 */
export function saveButton(id: string, text: string, status: HTMLElement, make: () => Promise<Saved> | null): HTMLButtonElement {
  const button = h("button", { type: "button", class: "small", id }, text);
  button.addEventListener("click", () => {
    make()?.then(
      ({ blob, name }) => {
        download(blob, name);
        setText(status, `${text} downloaded.`);
      },
      (error: unknown) => setText(status, `${text} failed: ${messageOf(error)}`),
    );
  });
  return button;
}

/** What an exported chart image says about itself. */
export interface ImageCaption {
  title: string;
  /** The settings in words (`settingsInWords`); wrapped to the image's width. */
  settings: string;
  /** The full link that reproduces it. */
  link: string;
  /** A line under the link naming what it was compared with (a comparison on screen), if any. */
  compared?: string | undefined;
}

/** The pixel density of exported images. */
export const IMAGE_SCALE = 2;

const CAPTION = { pad: 12, titleSize: 16, lineSize: 11, lineGap: 4 };

/**
 * `text` in lines of at most `width` CSS pixels of caption type, broken
 * between words (a character is taken as 0.56 of the type size: wide
 * enough for the page's sans-serif digits and capitals).
 */
export function wrapCaption(text: string, width: number): string[] {
  const most = Math.max(20, Math.floor((width - 2 * CAPTION.pad) / (CAPTION.lineSize * 0.56)));
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > most) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * Where an exported image's caption goes around a drawing `width` × `height`
 * CSS pixels: the title above it, the settings (in words, wrapped to the
 * width) and the link below. One layout for the PNG (times `IMAGE_SCALE`)
 * and the SVG.
 */
export function captionLayout(width: number, height: number, caption: ImageCaption) {
  const { pad, titleSize, lineSize, lineGap } = CAPTION;
  const lines = [...wrapCaption(caption.settings, width), caption.link, ...(caption.compared ? [caption.compared] : [])];
  const top = pad + titleSize + pad / 2;
  const below = top + height + pad / 2;
  return {
    width,
    height: below + lines.length * (lineSize + lineGap) + pad,
    pad,
    titleSize,
    lineSize,
    /** Where the drawing starts. */
    top,
    /** The lines below the drawing (the settings, then the link) and where each starts. */
    lines: lines.map((text, i) => ({ text, top: below + i * (lineSize + lineGap) })),
  };
}

/**
 * The page's colours and font for an image that must stand on its own: the
 * surface (a transparent image shows as black in image viewers), the text,
 * the muted caption lines.
 */
function imageStyle(): { surface: string; fg: string; muted: string; font: string } {
  const style = getComputedStyle(document.documentElement);
  const colour = (name: string, fallback: string): string => style.getPropertyValue(name).trim() || fallback;
  return {
    surface: colour("--surface", "#ffffff"),
    fg: colour("--fg", "#1b1f24"),
    muted: colour("--muted", "#555555"),
    font: getComputedStyle(document.body).fontFamily || "sans-serif",
  };
}

/**
 * `drawing` (any image source `width` × `height` CSS pixels, already drawn
 * at `IMAGE_SCALE`) as a PNG at `IMAGE_SCALE`, on the page's surface
 * colour, with the title above it and the settings and the link below.
 */
export async function captionedPng(drawing: CanvasImageSource, width: number, height: number, caption: ImageCaption): Promise<Blob> {
  const scale = IMAGE_SCALE;
  const layout = captionLayout(width, height, caption);
  const { surface, fg, muted, font } = imageStyle();
  const copy = document.createElement("canvas");
  copy.width = layout.width * scale;
  copy.height = layout.height * scale;
  const ctx = copy.getContext("2d");
  if (!ctx) throw new Error("no 2D canvas");
  ctx.scale(scale, scale);
  ctx.fillStyle = surface;
  ctx.fillRect(0, 0, layout.width, layout.height);
  ctx.fillStyle = fg;
  ctx.textBaseline = "top";
  ctx.font = `600 ${layout.titleSize}px ${font}`;
  ctx.fillText(caption.title, layout.pad, layout.pad, width - 2 * layout.pad);
  ctx.drawImage(drawing, 0, layout.top, width, height);
  ctx.fillStyle = muted;
  ctx.font = `${layout.lineSize}px ${font}`;
  for (const line of layout.lines) ctx.fillText(line.text, layout.pad, line.top, width - 2 * layout.pad);
  return await new Promise<Blob>((resolve, reject) =>
    copy.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the image could not be encoded"))), "image/png"),
  );
}

/**
 * A chart as a PNG at twice its size on screen: the chart redrawn at
 * `IMAGE_SCALE` pixels per CSS pixel (chart.js's own `devicePixelRatio`,
 * so lines and text are sharp, not a stretched bitmap), captioned by
 * `captionedPng`.
 */
export async function chartPng(canvas: HTMLCanvasElement, caption: ImageCaption): Promise<Blob> {
  const chart = (await chartLib()).getChart(canvas);
  const ratio = chart?.options.devicePixelRatio;
  if (chart) {
    chart.options.devicePixelRatio = IMAGE_SCALE;
    chart.resize();
  }
  try {
    const width = Math.max(1, Math.round(canvas.clientWidth || canvas.width));
    const height = Math.max(1, Math.round(canvas.clientHeight || canvas.height));
    return await captionedPng(canvas, width, height, caption);
  } finally {
    if (chart) {
      chart.options.devicePixelRatio = ratio;
      chart.resize();
    }
  }
}

// ---------------------------------------------------------------- SVG images

/**
 * A standalone SVG document: `drawing` (`width` × `height`, colours as
 * attributes, no page CSS) on the page's surface colour with the same
 * caption layout as `captionedPng`, the title, settings and link as text.
 */
export function captionedSvg(drawing: SVGSVGElement, width: number, height: number, caption: ImageCaption): SVGSVGElement {
  const layout = captionLayout(width, height, caption);
  const { surface, fg, muted, font } = imageStyle();
  const root = svgElement("svg", { width: layout.width, height: layout.height, viewBox: `0 0 ${layout.width} ${layout.height}`, "font-family": font });
  root.setAttributeNS("http://www.w3.org/2000/xmlns/", "xmlns", SVG_NS);
  const title = svgElement("title");
  title.textContent = caption.title;
  const placed = drawing.cloneNode(true) as SVGSVGElement;
  placed.setAttribute("x", "0");
  placed.setAttribute("y", String(layout.top));
  placed.setAttribute("width", String(width));
  placed.setAttribute("height", String(height));
  root.append(
    title,
    svgElement("rect", { width: layout.width, height: layout.height, fill: surface }),
    svgText(caption.title, { x: layout.pad, y: layout.pad, "dominant-baseline": "hanging", "font-size": layout.titleSize, "font-weight": 600, fill: fg }),
    placed,
    ...layout.lines.map((line) =>
      svgText(line.text, { x: layout.pad, y: line.top, "dominant-baseline": "hanging", "font-size": layout.lineSize, fill: muted }),
    ),
  );
  return root;
}

/** An SVG element as the text of a file. */
function svgSource(svg: SVGSVGElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}`;
}

/** An SVG element as a file. */
export function svgBlob(svg: SVGSVGElement): Blob {
  return new Blob([svgSource(svg)], { type: "image/svg+xml" });
}

/**
 * `drawing` (`width` × `height`, standalone: colours as attributes) as a
 * captioned PNG: rasterised at `IMAGE_SCALE` through an image (a data URL:
 * the page's CSP allows images from itself and data:), so its lines and
 * text are sharp, then captioned by `captionedPng`.
 */
export async function svgPng(drawing: SVGSVGElement, width: number, height: number, caption: ImageCaption): Promise<Blob> {
  const sized = drawing.cloneNode(true) as SVGSVGElement;
  sized.setAttributeNS("http://www.w3.org/2000/xmlns/", "xmlns", SVG_NS);
  sized.setAttribute("viewBox", `0 0 ${width} ${height}`);
  sized.setAttribute("width", String(width * IMAGE_SCALE));
  sized.setAttribute("height", String(height * IMAGE_SCALE));
  if (!sized.hasAttribute("font-family")) sized.setAttribute("font-family", imageStyle().font);
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgSource(sized))}`;
  await image.decode();
  return captionedPng(image, width, height, caption);
}
