import { describe, expect, it } from "vitest";
import { THEME_CHOICES, parseChoice } from "./theme";

describe("the stored colour scheme choice", () => {
  it("reads light and dark back, and anything else as system", () => {
    expect(parseChoice("light")).toBe("light");
    expect(parseChoice("dark")).toBe("dark");
    for (const stored of [null, undefined, "", "system", "DARK", "<img>"]) expect(parseChoice(stored)).toBe("system");
  });

  it("offers System, Light and Dark, System first (the default)", () => {
    expect(THEME_CHOICES.map((c) => c.value)).toEqual(["system", "light", "dark"]);
  });
});
