// @vitest-environment happy-dom
// The phone bar's peek in the page's own actions bar: shown only while
// every element with numbers is out of view and there is something to
// say, saying what runs or the newest numbers, and taking the person back
// to the results.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { byId, loadPageMarkup, submitting, unstyled } from "./dom-fixtures";
import { createPeek } from "./phone-bar";
import { page } from "./state-fixtures";

/** IntersectionObserver stand-in: the test says what is in view. */
let observed: Element[] = [];
let report: (entries: { target: Element; isIntersecting: boolean }[]) => void = () => undefined;

function make() {
  loadPageMarkup();
  const slot = document.createElement("div");
  byId("actions").append(slot);
  const numbers = [byId("headline"), byId("read-results"), byId("write-results")];
  const peek = createPeek(slot, byId("results"), numbers);
  const button = slot.querySelector<HTMLButtonElement>("button.peek")!;
  const inView = (...shown: Element[]) => report(numbers.map((target) => ({ target, isIntersecting: shown.includes(target) })));
  return { peek, button, numbers, inView, text: button.querySelector(".peek-text")! };
}

beforeEach(() => {
  observed = [];
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      constructor(callback: typeof report) {
        report = callback;
      }
      observe(element: Element) {
        observed.push(element);
      }
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

describe("the phone bar's peek", () => {
  it("is hidden until it has something to say, even with every number out of view", () => {
    const s = make();
    expect(s.button.hidden).toBe(true);
    s.inView();
    expect(s.button.hidden).toBe(true);
  });

  it("is styled as the page's stylesheets select it, and its arrow is not part of its name", () => {
    const s = make();
    expect(unstyled(s.button, [".peek-text", ".peek-go"])).toEqual([]);
    const arrow = s.button.querySelector(".peek-go [aria-hidden='true']")!;
    expect(arrow.textContent).toBe(" ↑");
    expect(s.button.querySelector(".peek-go")!.textContent).toBe("Show results ↑");
    expect(submitting(s.button.parentElement!)).toEqual([]);
  });

  it("watches every element with numbers, and hides while any is in view", () => {
    const s = make();
    expect(observed).toEqual(s.numbers);
    const p = page();
    s.peek.update(p.state, []);
    expect(s.button.hidden).toBe(true);
    s.inView();
    expect(s.button.hidden).toBe(false);
    s.inView(s.numbers[2]!);
    expect(s.button.hidden).toBe(true);
    s.inView();
    expect(s.button.hidden).toBe(false);
  });

  it("says what runs while it runs, then the newest numbers", () => {
    const s = make();
    s.inView();
    const p = page();
    s.peek.update(p.state, ["ignored while running"]);
    expect(s.text.textContent).toBe("Counting…");
    p.answerAll();
    const strong = document.createElement("strong");
    strong.textContent = "42";
    s.peek.update(p.state, ["std: ", strong, " reads"]);
    expect(s.text.textContent).toBe("std: 42 reads");
    expect(s.text.querySelector("strong")).toBe(strong);
    expect(s.button.hidden).toBe(false);
  });

  it("has nothing to say before any result or run", () => {
    const s = make();
    s.inView();
    const p = page();
    p.act({ type: "stop" });
    s.peek.update(p.state, ["x"]);
    expect(s.button.hidden).toBe(true);
    expect(s.text.textContent).toBe("");
  });

  it("takes the person back to the results, named by what it shows", () => {
    const s = make();
    const results = byId("results");
    const scrolled = vi.fn();
    results.scrollIntoView = scrolled;
    const focus = vi.spyOn(results, "focus");
    s.button.click();
    expect(scrolled).toHaveBeenCalledWith({ block: "start" });
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
    expect(document.activeElement).toBe(results);
    expect(s.button.textContent).toContain("Show results");
    expect(s.button.getAttribute("aria-label")).toBeNull();
  });
});
