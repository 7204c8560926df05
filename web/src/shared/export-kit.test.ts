// An exported image's caption: the settings in words wrap between words to
// the image's width, every word kept, and the caption grows by their lines.

import { describe, expect, it } from "vitest";
import { captionLayout, wrapCaption } from "./export-kit";

const settings =
  "Buffer capacity: 8 KiB; Read size: 1 byte; Chunking: poor network, 64–512 bytes per read; Readers: unbuffered Read and std BufReader; Stream length: 1 MiB";

describe("the caption of an exported image", () => {
  it("wraps the settings between words, keeping every word", () => {
    const lines = wrapCaption(settings, 400);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(" ")).toBe(settings);
    for (const line of lines.slice(0, -1)) expect(line.length).toBeLessThanOrEqual(Math.floor((400 - 24) / (11 * 0.56)));
    expect(wrapCaption(settings, 4000)).toEqual([settings]);
    expect(wrapCaption("", 400)).toEqual([""]);
  });

  it("puts the settings' lines and then the link below the drawing, the image growing with them", () => {
    const narrow = captionLayout(400, 300, { title: "t", settings, link: "https://example.org/#v=1" });
    const wide = captionLayout(4000, 300, { title: "t", settings, link: "https://example.org/#v=1" });
    expect(narrow.lines.at(-1)!.text).toBe("https://example.org/#v=1");
    expect(narrow.lines.length).toBe(wrapCaption(settings, 400).length + 1);
    expect(wide.lines.length).toBe(2);
    expect(narrow.height - wide.height).toBe((narrow.lines.length - 2) * 15);
    expect(narrow.lines[0]!.top).toBeGreaterThan(narrow.top + 300);
  });
});
