import { describe, expect, it } from "vitest";
import BOOT from "../engine/boot.gen.json";
import { realCodec } from "../engine/real-engine";
import { THEME_CHOICES, asksForPresenterLook, parseChoice } from "./theme";

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

describe("presenter mode's looks before the codec has loaded", () => {
  it("come for the links the codec writes in presenter mode, and never for a link the codec reads otherwise", () => {
    const codec = realCodec();
    const defaults = codec.schema.defaults;
    const written = (params: typeof defaults): string => `#${codec.encodeLink(params)}`;
    expect(asksForPresenterLook(written({ ...defaults, present: true }))).toBe(true);
    expect(asksForPresenterLook(written({ ...defaults, present: true, lab: "write", view: "sweep" }))).toBe(true);
    expect(asksForPresenterLook(written(defaults))).toBe(false);
    // Longer than the codec reads at all: it shows the defaults.
    const long = `#v=1&present=on&x=${"y".repeat(BOOT.max_link_bytes)}`;
    const odd = ["#v=1&present=off", "#v=1&xpresent=on", "#v=1&present=onx", "#v=1&present=on&present=off", "#v=1&present=on&present=on", "#v=1&pres%65nt=on", "#present=on", long];
    for (const hash of ["", "#", "#v=1&present=on", ...odd]) {
      // It may miss a form the codec also reads (the codec decides moments later), but never says yes where the codec says no.
      if (asksForPresenterLook(hash)) expect(codec.decodeLink(hash.slice(1)).params.present, hash).toBe(true);
    }
    expect(asksForPresenterLook("#v=1&pres%65nt=on")).toBe(true);
    expect(asksForPresenterLook("#v=1&present=on&present=on")).toBe(false);
    expect(asksForPresenterLook(long)).toBe(false);
  });
});
