// The links a page writes, from the real engine's codec: presenter mode is a
// display key (the same experiment), and a single run's link never carries a
// sweep, while the sweep view's does.

import { describe, expect, it } from "vitest";
import { realCodec } from "../engine/real-engine";

describe("the page's links", () => {
  const codec = realCodec();

  it("presenter mode is in the link only when on, and names the same experiment", () => {
    const opened = codec.decodeLink("cap=4K");
    const off = codec.links(opened.params);
    const on = codec.links({ ...opened.params, present: true });
    expect(on.link).toBe(`${off.link}&present=on`);
    expect(codec.sameExperiment(on.run, off.run)).toBe(true);
  });

  it("a sweep's keys are in the sweep view's link only; a single run's link never has them", () => {
    const swept = codec.decodeLink("cap=4K&sweep=cap&from=16&to=64K");
    expect(swept.params.view).toBe("sweep");
    const inSweep = codec.links(swept.params);
    expect(inSweep.link).toMatch(/sweep=cap&from=16&to=64K/);
    expect(inSweep.view).toBe("sweep");
    expect(inSweep.run).not.toMatch(/sweep=|from=|to=/);
    const inRun = codec.links({ ...swept.params, view: "run" });
    expect(inRun.link).not.toMatch(/sweep=|from=|to=/);
    expect(inRun.view).toBe("run");
    expect(inRun.sweep).toBe(inSweep.sweep);
    // The run link opens the single run with the same experiment.
    expect(codec.decodeLink(inRun.link).params.view).toBe("run");
    expect(codec.sameExperiment(inRun.run, inSweep.run)).toBe(true);
  });

  it("a decoded link (the counting build's) carries the links of its params; the view is one its lab offers", () => {
    for (const link of ["", "cap=4K&sweep=cap&from=16&to=64K", "cap=4K&sweep=cap&view=run", "view=timeline&step=4", "lab=write&view=sweep"]) {
      const decoded = codec.decodeLink(link);
      expect(decoded.links, link).toEqual(codec.links(decoded.params));
    }
    expect(codec.decodeLink("lab=write&view=timeline").links.view).toBe("run");
    expect(codec.decodeLink("view=timeline").links.view).toBe("timeline");
  });

  it("a bad value falls back to off with a notice naming the key", () => {
    const d = codec.decodeLink("present=loud");
    expect(d.params.present).toBe(false);
    expect(d.notices.map((n) => n.key)).toEqual(["present"]);
  });
});
