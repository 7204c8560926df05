// Presenter mode is a display setting: toggling it changes the link but not
// the results, so the report on screen must stay current (not stale) and no
// run is needed. The fragments come from the real engine's codec.

import { describe, expect, it } from "vitest";
import type { Report } from "../engine/types.gen";
import { realCodec } from "../engine/real-engine";
import { displayChanged, initialState, isStale, runRequested, runSucceeded } from "./state";

describe("presenter mode", () => {
  const codec = realCodec();
  const opened = codec.decodeLink("cap=4K");
  const report = { params: opened.params, runs: [], link: opened.fragment, lab: "read", stage: "full" } as unknown as Report;

  it("is in the link only when on, and toggling it keeps the report current", () => {
    const measured = runSucceeded(runRequested(initialState(opened), "full"), 1, report, opened.fragment, 10);
    expect(isStale(measured)).toBe(false);
    const params = { ...measured.params, present: true };
    const fragment = codec.encodeLink(params);
    expect(fragment).toBe(`${opened.fragment}&present=on`);
    const on = displayChanged(measured, params, fragment);
    expect(on.fragment).toBe(fragment);
    expect(on.params.present).toBe(true);
    expect(isStale(on)).toBe(false);
    const off = displayChanged(on, { ...params, present: false }, opened.fragment);
    expect(isStale(off)).toBe(false);
    expect(off.fragment).toBe(opened.fragment);
  });

  it("does not make an already stale report current", () => {
    const measured = runSucceeded(runRequested(initialState(opened), "full"), 1, report, "v=1&cap=1K", 10);
    expect(isStale(measured)).toBe(true);
    const params = { ...measured.params, present: true };
    expect(isStale(displayChanged(measured, params, codec.encodeLink(params)))).toBe(true);
  });

  it("a bad value falls back to off with a notice naming the key", () => {
    const d = codec.decodeLink("present=loud");
    expect(d.params.present).toBe(false);
    expect(d.notices.map((n) => n.key)).toEqual(["present"]);
  });
});
