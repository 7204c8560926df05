// The page's status while its dev server still compiles part of the engine
// (`npm start` serves the page first, web/build/builds-behind.ts): it names
// the build the settings on screen wait for, never a bare "timing…" that
// looks like a hang.

import { describe, expect, it } from "vitest";
import type { Params } from "../engine/types.gen";
import { defaults, page } from "./state-fixtures";
import { activityText } from "./state";

describe("the status while builds are still being built", () => {
  it("names the timing build the counts on screen wait for, until it lands; another build still compiling is not waited for", () => {
    const p = page();
    p.answer(1); // the defaults' exact counts; their timing (2) waits for its build
    p.act({ type: "building", builds: ["timing-fixed", "program"] });
    expect(activityText(p.state)).toBe("Building timing-fixed…");
    p.act({ type: "building", builds: ["program"] });
    expect(activityText(p.state)).toBe("Exact counts; timing…");
    p.act({ type: "building", builds: [] });
    expect(activityText(p.state)).toBe("Exact counts; timing…");
  });

  it("a build these settings do not need is listed, not waited for: another workload's timing build", () => {
    const p = page({ ...defaults, workload: "lines" } as Params);
    p.answer(1);
    p.act({ type: "building", builds: ["timing-fixed"] });
    expect(activityText(p.state)).toBe("Exact counts; timing…");
    p.act({ type: "building", builds: ["timing-lines"] });
    expect(activityText(p.state)).toBe("Building timing-lines…");
  });

  it("the write lab's counts wait for the program build, and say so", () => {
    const p = page({ ...defaults, lab: "write" } as Params);
    p.act({ type: "building", builds: ["program"] });
    expect(activityText(p.state)).toBe("Building program…");
  });
});
