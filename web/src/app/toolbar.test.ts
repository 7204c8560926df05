// @vitest-environment happy-dom
// The actions in the page's own #actions: each button does its one thing,
// Stop only while something runs, and Copy link puts the link where the
// person can take it (the clipboard, or a selected field when refused).

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { byId, loadPageMarkup, submitting, unstyled } from "./dom-fixtures";
import { createActions, trackToolbarHeight } from "./toolbar";

const LINK = "https://example.test/#v=1&size=8K";

function make() {
  loadPageMarkup();
  const calls: string[] = [];
  const actions = createActions(byId("actions"), {
    rerun: () => calls.push("rerun"),
    stop: () => calls.push("stop"),
    reset: () => calls.push("reset"),
    link: () => LINK,
    settings: () => calls.push("settings"),
  });
  const button = (name: string) => [...byId("actions").querySelectorAll("button")].find((b) => b.textContent === name)!;
  return { actions, calls, button, field: byId<HTMLInputElement>("link-field"), note: byId("actions").querySelector(".copy-note")! };
}

/** Lets the clipboard's promise settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the actions", () => {
  let s: ReturnType<typeof make>;
  beforeEach(() => (s = make()));
  afterEach(() => vi.unstubAllGlobals());

  it("run their handlers: Measure again, Stop, Reset, and Settings (phones)", () => {
    s.actions.setRunning(true);
    for (const name of ["Measure again", "Stop", "Reset", "Settings"]) s.button(name).click();
    expect(s.calls).toEqual(["rerun", "stop", "reset", "settings"]);
    expect(s.button("Settings").getAttribute("aria-controls")).toBe("settings");
    expect(byId("settings").tagName).toBe("SECTION");
  });

  it("offer Stop only while something runs", () => {
    expect(s.button("Stop").disabled).toBe(true);
    s.actions.setRunning(true);
    expect(s.button("Stop").disabled).toBe(false);
    s.actions.setRunning(false);
    expect(s.button("Stop").disabled).toBe(true);
  });

  it("keep the phone bar's slot first, above the buttons", () => {
    expect(byId("actions").firstElementChild).toBe(s.actions.peekSlot);
    expect(s.actions.peekSlot.className).toBe("peek-slot");
  });

  it("Copy link copies the link and says so; the field goes once focus leaves it", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    const row = s.field.parentElement!;
    expect(row.hidden).toBe(true);
    s.button("Copy link").click();
    await settle();
    expect(writeText).toHaveBeenCalledWith(LINK);
    expect(s.field.value).toBe(LINK);
    expect(row.hidden).toBe(false);
    expect(s.note.textContent).toBe("Link copied.");
    s.field.dispatchEvent(new Event("blur"));
    expect(row.hidden).toBe(true);
  });

  it("Copy link refused: the link shown selected with how to copy it, and the field stays", async () => {
    vi.stubGlobal("navigator", { clipboard: { writeText: () => Promise.reject(new Error("denied")) } });
    s.button("Copy link").click();
    await settle();
    expect(document.activeElement).toBe(s.field);
    expect([s.field.selectionStart, s.field.selectionEnd]).toEqual([0, LINK.length]);
    expect(s.note.textContent).toBe("Press Ctrl+C (⌘C) to copy the selected link.");
    s.field.dispatchEvent(new Event("blur"));
    expect(s.field.parentElement!.hidden).toBe(false);
  });

  it("are styled as the page's stylesheets select them, and submit no form", () => {
    const selectors = [".actions .buttons button", "button.primary", ".actions .link-row input", ".copy-note", ".phone-only", ".peek-slot"];
    expect(unstyled(byId("actions"), selectors)).toEqual([]);
    expect(s.button("Measure again").matches("button.primary")).toBe(true);
    expect(s.button("Settings").matches(".phone-only")).toBe(true);
    expect(submitting(byId("actions"))).toEqual([]);
  });

  it("the link field is read-only and named", () => {
    expect(s.field.readOnly).toBe(true);
    expect(s.field.getAttribute("aria-label")).toBe("Link to this experiment");
    expect(s.note.getAttribute("role")).toBe("status");
    expect(s.note.getAttribute("aria-live")).toBe("polite");
  });
});

describe("the toolbar's height", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is kept on <html> as --toolbar-h, now and whenever the bar resizes", () => {
    loadPageMarkup();
    const observed: { element: Element; callback: () => void }[] = [];
    vi.stubGlobal(
      "ResizeObserver",
      class {
        constructor(private readonly callback: () => void) {}
        observe(element: Element) {
          observed.push({ element, callback: this.callback });
        }
      },
    );
    const toolbar = byId("toolbar");
    let height = 48;
    toolbar.getBoundingClientRect = () => ({ height }) as DOMRect;
    trackToolbarHeight(toolbar);
    expect(document.documentElement.style.getPropertyValue("--toolbar-h")).toBe("48px");
    height = 96;
    expect(observed.map((o) => o.element)).toEqual([toolbar]);
    observed[0]!.callback();
    expect(document.documentElement.style.getPropertyValue("--toolbar-h")).toBe("96px");
  });
});
