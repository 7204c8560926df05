import { describe, expect, it } from "vitest";
import { clickerMove, type KeyPress } from "./clicker";

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({ key, modified: false, inControl: false, qrShown: false, presenting: true, ...more });

describe("the clicker's keys", () => {
  it("PageDown and PageUp move the lesson from anywhere, a slider, checkbox or field included", () => {
    expect(clickerMove(press("PageDown"))).toBe("forward");
    expect(clickerMove(press("PageUp"))).toBe("back");
    expect(clickerMove(press("PageDown", { inControl: true }))).toBe("forward");
    expect(clickerMove(press("PageUp", { inControl: true }))).toBe("back");
  });

  it("the arrow keys move the lesson only outside a control, where they keep their meaning", () => {
    expect(clickerMove(press("ArrowRight"))).toBe("forward");
    expect(clickerMove(press("ArrowLeft"))).toBe("back");
    expect(clickerMove(press("ArrowRight", { inControl: true }))).toBeNull();
  });

  it("over the QR code a key closes it first; nothing outside presenter mode or with a modifier", () => {
    expect(clickerMove(press("PageDown", { qrShown: true }))).toBe("closeQr");
    expect(clickerMove(press("PageUp", { qrShown: true, inControl: true }))).toBe("closeQr");
    expect(clickerMove(press("PageDown", { presenting: false }))).toBeNull();
    expect(clickerMove(press("PageDown", { modified: true }))).toBeNull();
    expect(clickerMove(press("Enter"))).toBeNull();
  });

  it("B and . blank the screen, except while typing", () => {
    expect(clickerMove(press("b"))).toBe("blank");
    expect(clickerMove(press("B"))).toBe("blank");
    expect(clickerMove(press("."))).toBe("blank");
    expect(clickerMove(press("b", { inControl: true }))).toBeNull();
    expect(clickerMove(press("b", { presenting: false }))).toBeNull();
  });
});
