// The step on screen as a standalone SVG document or a 2× PNG (owns the
// export row), captioned by export-kit with the title, the settings the
// trace was recorded with, and the link as it is now (which opens on this step).

import type { Params, Timeline } from "../../../engine/types.gen";
import { h } from "../../../shared/dom";
import { captionedSvg, exportName, saveButton, svgBlob, svgPng, type ImageCaption } from "../../../shared/export-kit";
import { settingsInWords } from "../../../shared/settings-words";
import { stepScene } from "./scene";
import { sceneSvg } from "./scene-svg";

/** The step on screen: the trace, its reader, the step (0-based) and the settings it was recorded with. */
export interface StepShown {
  timeline: Timeline;
  reader: string;
  index: number;
  params: Params | null;
}

export interface StepExportOptions {
  /** The step on screen (null: none). */
  shown(): StepShown | null;
  labelOf(reader: string): string;
  urlOf(fragment: string): string;
  /** The address bar's link now. */
  link(): string;
  /** Where the page's CSS colours of the timeline are read. */
  root: HTMLElement;
}

export function createStepExport({ shown, labelOf, urlOf, link, root }: StepExportOptions): HTMLElement {
  const status = h("span", { class: "copy-note", id: "timeline-export-status", role: "status", "aria-live": "polite" });
  const exportStep = (extension: "svg" | "png", make: (drawing: SVGSVGElement, width: number, height: number, caption: ImageCaption) => Promise<Blob>) => () => {
    const step = shown();
    if (!step || !step.timeline.ops[step.index]) return null;
    const { timeline, reader, index, params } = step;
    const scene = stepScene(timeline, index);
    const caption = {
      title: `Buffer timeline: ${labelOf(reader)}, step ${index + 1} of ${timeline.ops.length}`,
      settings: params ? settingsInWords(params) : "",
      link: urlOf(link()),
    };
    const name = exportName("timeline", extension, new Date(), `${reader}-step-${index + 1}`);
    return make(sceneSvg(scene, root), scene.width, scene.height, caption).then((blob) => ({ blob, name }));
  };
  return h(
    "div",
    { class: "share-row timeline-export" },
    h("span", { class: "share-label" }, "Export"),
    saveButton("timeline-export-svg", "This step (SVG)", status, exportStep("svg", async (drawing, width, height, caption) => svgBlob(captionedSvg(drawing, width, height, caption)))),
    saveButton("timeline-export-png", "This step (PNG)", status, exportStep("png", svgPng)),
    status,
  );
}
