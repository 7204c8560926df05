// The links a page writes, from the real engine's codec: presenter mode is a
// display key (the same experiment), and a single run's link never carries a
// sweep, while the sweep view's does.

import { describe, expect, it } from "vitest";
import { realCodec } from "../engine/real-engine";
import { linksOf, sameExperiment } from "./link";

describe("the page's links", () => {
  const codec = realCodec();
  const keys = codec.schema.display_keys;

  it("presenter mode is in the link only when on, and names the same experiment", () => {
    const opened = codec.decodeLink("cap=4K");
    const off = linksOf(codec, opened.params);
    const on = linksOf(codec, { ...opened.params, present: true });
    expect(on.link).toBe(`${off.link}&present=on`);
    expect(sameExperiment(on.run, off.run, keys)).toBe(true);
  });

  it("a sweep's keys are in the sweep view's link only; a single run's link never has them", () => {
    const swept = codec.decodeLink("cap=4K&sweep=cap&from=16&to=64K");
    expect(swept.params.view).toBe("sweep");
    const inSweep = linksOf(codec, swept.params);
    expect(inSweep.link).toMatch(/sweep=cap&from=16&to=64K/);
    expect(inSweep.run).not.toMatch(/sweep=|from=|to=/);
    const inRun = linksOf(codec, { ...swept.params, view: "run" });
    expect(inRun.link).not.toMatch(/sweep=|from=|to=/);
    expect(inRun.sweep).toBe(inSweep.sweep);
    // The run link opens the single run with the same experiment.
    expect(codec.decodeLink(inRun.link).params.view).toBe("run");
    expect(sameExperiment(inRun.run, inSweep.run, keys)).toBe(true);
  });

  it("a bad value falls back to off with a notice naming the key", () => {
    const d = codec.decodeLink("present=loud");
    expect(d.params.present).toBe(false);
    expect(d.notices.map((n) => n.key)).toEqual(["present"]);
  });
});
