// Files made in the page: CSV text that carries its settings and link,
// downloads, and chart images for slides. Shared by the export panel and the
// labs' own exports (the sweep's); nothing here knows a lab.

import { chartLib } from "./chart-lib";
import { h } from "./dom";

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

/** A link fragment's settings on one line: `len=1M, chunk=64-512, cap=8K, …`. */
export function settingsLine(fragment: string): string {
  return fragment
    .replace(/^#/, "")
    .split("&")
    .filter((pair) => pair !== "" && !pair.startsWith("v="))
    .map((pair) => {
      try {
        return decodeURIComponent(pair);
      } catch {
        return pair;
      }
    })
    .join(", ");
}

/**
 * CSV text: comment lines first (`# …`: what it is, the settings, the link
 * that reproduces it), then the header and the rows.
 */
export function csvLines(comments: string[], header: string[], rows: Cell[][]): string {
  const head = comments.map((c) => `# ${c.replace(/[\r\n]+/g, " ")}\r\n`).join("");
  return head + [header, ...rows].map((row) => row.map((cell) => csvField(exactNumber(cell))).join(",")).join("\r\n") + "\r\n";
}

/** The comment lines every CSV export starts with. */
export function csvComments(what: string, fragment: string, link: string): string[] {
  return [what, `settings: ${settingsLine(fragment)}`, `link: ${link}`];
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

/** What an exported chart image says about itself. */
export interface ImageCaption {
  title: string;
  /** The settings on one line (see `settingsLine`). */
  settings: string;
  /** The full link that reproduces it. */
  link: string;
}

/** The pixel density of exported images. */
export const IMAGE_SCALE = 2;

/**
 * A chart as a PNG at twice its size on screen: the chart redrawn at
 * `IMAGE_SCALE` pixels per CSS pixel (chart.js's own `devicePixelRatio`,
 * so lines and text are sharp, not a stretched bitmap), on the page's
 * surface colour (the canvas itself is transparent, which image viewers show
 * as black), with the title above it and the settings and the link below.
 */
export async function chartPng(canvas: HTMLCanvasElement, caption: ImageCaption): Promise<Blob> {
  const chart = (await chartLib()).getChart(canvas);
  const ratio = chart?.options.devicePixelRatio;
  if (chart) {
    chart.options.devicePixelRatio = IMAGE_SCALE;
    chart.resize();
  }
  try {
    const scale = IMAGE_SCALE;
    const width = Math.max(1, Math.round(canvas.clientWidth || canvas.width)) * scale;
    const chartHeight = Math.max(1, Math.round(canvas.clientHeight || canvas.height)) * scale;
    const style = getComputedStyle(document.documentElement);
    const colour = (name: string, fallback: string): string => style.getPropertyValue(name).trim() || fallback;
    const font = getComputedStyle(document.body).fontFamily || "sans-serif";
    const pad = 12 * scale;
    const titleSize = 16 * scale;
    const lineSize = 11 * scale;
    const top = pad + titleSize + pad / 2;
    const copy = document.createElement("canvas");
    copy.width = width;
    copy.height = top + chartHeight + pad / 2 + 2 * (lineSize + 4 * scale) + pad;
    const ctx = copy.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas");
    ctx.fillStyle = colour("--surface", "#ffffff");
    ctx.fillRect(0, 0, copy.width, copy.height);
    ctx.fillStyle = colour("--fg", "#1b1f24");
    ctx.textBaseline = "top";
    ctx.font = `600 ${titleSize}px ${font}`;
    ctx.fillText(caption.title, pad, pad, width - 2 * pad);
    ctx.drawImage(canvas, 0, top, width, chartHeight);
    ctx.fillStyle = colour("--muted", "#555555");
    ctx.font = `${lineSize}px ${font}`;
    let y = top + chartHeight + pad / 2;
    for (const line of [caption.settings, caption.link]) {
      ctx.fillText(line, pad, y, width - 2 * pad);
      y += lineSize + 4 * scale;
    }
    return await new Promise<Blob>((resolve, reject) =>
      copy.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the chart could not be encoded"))), "image/png"),
    );
  } finally {
    if (chart) {
      chart.options.devicePixelRatio = ratio;
      chart.resize();
    }
  }
}
