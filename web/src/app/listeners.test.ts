// @vitest-environment happy-dom
// The page's listeners on the page's own markup: a term opens its entry,
// the skip link moves focus and leaves the link alone, a link pasted into
// the address bar is read, a clicker's keys step through the lessons in
// presenter mode, dropped files are compared, and a change of colour
// scheme re-themes the charts.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LessonId, Params } from "../engine/types.gen";
import type { ThemeSwitch } from "../shared/theme";
import { byId, loadPageMarkup, press } from "./dom-fixtures";
import { listen } from "./listeners";
import type { Action, AppState } from "./state";
import { defaults, page } from "./state-fixtures";

const ORDER: LessonId[] = ["one-byte", "no-help"];
const presenting = page({ ...defaults, present: true, lesson: "one-byte" } as Params).state;

/** What the listeners did, since the last test. */
const did: { actions: Action[]; links: string[]; terms: string[]; dropped: File[][]; rethemes: number } = { actions: [], links: [], terms: [], dropped: [], rethemes: 0 };
let state: AppState = presenting;
let themeChanged: () => void = () => undefined;
let schemeChanged: () => void = () => undefined;

/** The listeners this test attached to the document and the window: taken off after it. */
const attached: [EventTarget, string, EventListenerOrEventListenerObject][] = [];

// Each test attaches the listeners afresh, on a fresh copy of the markup,
// and takes them off after: so each mutant of `listen` is live while they are attached.
beforeEach(() => {
  Object.assign(did, { actions: [], links: [], terms: [], dropped: [], rethemes: 0 });
  state = presenting;
  schemeChanged = themeChanged = () => undefined;
  loadPageMarkup();
  const media = { addEventListener: (type: string, listener: () => void) => type === "change" && (schemeChanged = listener) };
  window.matchMedia = vi.fn(() => media) as unknown as typeof window.matchMedia;
  for (const target of [document, window] as EventTarget[]) {
    const add = target.addEventListener.bind(target);
    vi.spyOn(target, "addEventListener").mockImplementation((type, listener, options) => {
      if (listener) attached.push([target, type, listener]);
      add(type, listener, options);
    });
  }
  listen({
    state: () => state,
    dispatch: (action) => void did.actions.push(action),
    readLink: (hash) => void did.links.push(hash),
    openTerm: (id) => void did.terms.push(id),
    lessonOrder: (then) => then(ORDER),
    results: byId("results"),
    theme: { onChange: (listener: () => void) => (themeChanged = listener) } as unknown as ThemeSwitch,
    retheme: () => void did.rethemes++,
    dropFiles: (files) => void did.dropped.push(files),
  });
  vi.restoreAllMocks();
  expect(window.matchMedia).toHaveBeenCalledWith("(prefers-color-scheme: dark)");
});
afterEach(() => {
  for (const [target, type, listener] of attached.splice(0)) target.removeEventListener(type, listener);
});

describe("terms and the skip link", () => {
  it("a term, or a word inside it, opens its glossary entry; other clicks do nothing", () => {
    const term = document.createElement("button");
    term.className = "term";
    term.dataset["term"] = "source-read";
    term.innerHTML = "<span>source read</span>";
    byId("headline").append(term);
    term.firstElementChild!.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    term.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(did.terms).toEqual(["source-read", "source-read"]);
    const elsewhere = new MouseEvent("click", { bubbles: true, cancelable: true });
    byId("headline").dispatchEvent(elsewhere);
    expect(elsewhere.defaultPrevented).toBe(false);
    const empty = document.createElement("span");
    empty.dataset["term"] = "";
    byId("headline").append(empty);
    empty.click();
    expect(did.terms).toHaveLength(2);
  });

  it("the skip link moves focus to the results, without touching the link", () => {
    const results = byId("results");
    results.scrollIntoView = vi.fn();
    const focus = vi.spyOn(results, "focus");
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    document.querySelector("a.skip")!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(results.scrollIntoView).toHaveBeenCalledWith({ block: "start" });
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
    focus.mockRestore();
    expect(document.activeElement).toBe(results);
  });
});

describe("the address bar", () => {
  it("a fragment naming an element on the page is in-page navigation; any other is a link to read, as the event saw it", () => {
    window.dispatchEvent(new HashChangeEvent("hashchange", { newURL: "http://localhost/#results", oldURL: "http://localhost/" }));
    expect(did.links).toEqual([]);
    window.dispatchEvent(new HashChangeEvent("hashchange", { newURL: "http://localhost/#cap=4096", oldURL: "http://localhost/" }));
    expect(did.links).toEqual(["#cap=4096"]);
  });
});

describe("a clicker in presenter mode", () => {
  it("→ and PageDown go forward, ← and PageUp back, through the lessons' order", () => {
    for (const name of ["ArrowRight", "PageDown", "ArrowLeft", "PageUp"]) expect(press(document.body, name).defaultPrevented).toBe(true);
    expect(did.actions).toEqual([
      { type: "forward", order: ORDER },
      { type: "forward", order: ORDER },
      { type: "back", order: ORDER },
      { type: "back", order: ORDER },
    ]);
  });

  it("a key with no element focused (the document's own) moves the lesson too", () => {
    expect(press(document, "PageDown").defaultPrevented).toBe(true);
    expect(did.actions).toEqual([{ type: "forward", order: ORDER }]);
  });

  it("B blanks the screen", () => {
    press(document.body, "b");
    expect(did.actions).toEqual([{ type: "blank" }]);
  });

  it("the control touched last lets go of the keys", () => {
    const button = byId("actions").appendChild(document.createElement("button"));
    button.focus();
    expect(document.activeElement).toBe(button);
    press(button, "PageDown");
    expect(document.activeElement).not.toBe(button);
    expect(did.actions).toEqual([{ type: "forward", order: ORDER }]);
  });

  it("in a field or on a slider the arrows keep their meaning; with a modifier, or outside presenter mode, no key is the clicker's", () => {
    const input = byId("controls").appendChild(document.createElement("input"));
    const slider = byId("controls").appendChild(document.createElement("div"));
    slider.setAttribute("role", "slider");
    const editable = byId("controls").appendChild(document.createElement("div"));
    editable.setAttribute("contenteditable", "true");
    for (const target of [input, slider, editable]) expect(press(target, "ArrowRight").defaultPrevented).toBe(false);
    for (const modifier of ["altKey", "ctrlKey", "metaKey", "shiftKey"]) press(document.body, "PageDown", { [modifier]: true });
    expect(did.actions).toEqual([]);
    press(input, "PageDown");
    expect(did.actions).toEqual([{ type: "forward", order: ORDER }]);
    state = page({ ...defaults, present: true } as Params).state;
    press(document.body, "PageDown");
    state = page({ ...defaults, lesson: "one-byte" } as Params).state;
    press(document.body, "PageDown");
    expect(did.actions).toHaveLength(1);
  });

  it("a key another handler took is left alone", () => {
    const controls = byId("controls");
    const take = (event: Event) => event.preventDefault();
    controls.addEventListener("keydown", take);
    press(controls, "PageDown");
    controls.removeEventListener("keydown", take);
    expect(did.actions).toEqual([]);
  });

  it("over the QR code a key closes it first", () => {
    // happy-dom has no popovers: the QR panel's open state is stood in for.
    const qr = document.body.appendChild(document.createElement("div"));
    qr.id = "qr-panel";
    let open = true;
    const matches = qr.matches.bind(qr);
    qr.matches = ((selector: string) => (selector === ":popover-open" ? open : matches(selector))) as typeof qr.matches;
    qr.hidePopover = () => void (open = false);
    expect(press(document.body, "PageDown").defaultPrevented).toBe(true);
    expect(open).toBe(false);
    expect(did.actions).toEqual([]);
    press(document.body, "PageDown");
    expect(did.actions).toEqual([{ type: "forward", order: ORDER }]);
    qr.remove();
  });
});

describe("dropped files and the colour scheme", () => {
  /** A drag event carrying `types` and `files`. */
  const drag = (type: string, types: string[], files: File[] = []): Event => {
    const event = new Event(type, { bubbles: true, cancelable: true });
    Object.defineProperty(event, "dataTransfer", { value: { types, files } });
    return event;
  };

  it("files dragged over the page may be dropped anywhere, and a drop compares them", () => {
    const over = drag("dragover", ["Files"]);
    byId("results").dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true);
    const file = new File(["{}"], "b.json");
    const drop = drag("drop", ["Files"], [file]);
    byId("results").dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    expect(did.dropped).toEqual([[file]]);
  });

  it("text dragged, or files a zone of its own took, are left alone", () => {
    const text = drag("dragover", ["text/plain"]);
    byId("results").dispatchEvent(text);
    expect(text.defaultPrevented).toBe(false);
    const textDrop = drag("drop", ["text/plain"]);
    byId("results").dispatchEvent(textDrop);
    expect(textDrop.defaultPrevented).toBe(false);
    const zone = byId("trace");
    const take = (event: Event) => event.preventDefault();
    zone.addEventListener("drop", take);
    zone.dispatchEvent(drag("drop", ["Files"], [new File([""], "x")]));
    zone.removeEventListener("drop", take);
    expect(did.dropped).toEqual([]);
    const bare = new Event("dragover", { bubbles: true, cancelable: true });
    byId("results").dispatchEvent(bare);
    expect(bare.defaultPrevented).toBe(false);
  });

  it("a change of colour scheme, the system's or the page's switch, re-themes the charts", () => {
    schemeChanged();
    themeChanged();
    expect(did.rethemes).toBe(2);
  });
});
