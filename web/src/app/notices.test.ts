// @vitest-environment happy-dom
// The notices in the page's own #notices: each says where it comes from
// and what it says, as text (a link's value never becomes markup), and can
// be dismissed; the experiment's error, or the engine's, is an alert.

import { beforeEach, describe, expect, it } from "vitest";
import { byId, loadPageMarkup, submitting, unstyled } from "./dom-fixtures";
import { createNotices } from "./notices";
import type { AppState, EngineStatus, Notice } from "./state";

const ready: EngineStatus = { kind: "ready", isolated: true };
const stateWith = (notices: Notice[], error: string | null = null, engine: EngineStatus = ready): AppState => ({ notices, error, engine }) as AppState;

function make() {
  loadPageMarkup();
  const dismissed: number[] = [];
  const notices = createNotices(byId("notices"), (id) => dismissed.push(id));
  const list = byId("notices").querySelector<HTMLElement>("ul.notice-list")!;
  const alert = byId("notices").querySelector<HTMLElement>("[role=alert]")!;
  return { notices, dismissed, list, alert };
}

describe("the notices", () => {
  let s: ReturnType<typeof make>;
  beforeEach(() => (s = make()));

  it("say where each comes from, in its own words", () => {
    s.notices.update(
      stateWith([
        { id: 1, source: "link", key: "size", message: "8Q is not a size; 8K is used." },
        { id: 2, source: "link", message: "the link is too long" },
        { id: 3, source: "settings", message: "the sweep fits 64 streams." },
        { id: 4, source: "file", key: "a.json", message: "not a result file." },
        { id: 5, source: "file", message: "empty." },
        { id: 6, source: "engine", message: "the worker restarted." },
      ]),
    );
    expect([...s.list.children].map((li) => li.querySelector("p")!.textContent)).toEqual([
      "Link value for size: 8Q is not a size; 8K is used.",
      "Link value for link: the link is too long",
      "Settings changed: the sweep fits 64 streams.",
      "Result file a.json: not a result file.",
      "Result file file: empty.",
      "Engine: the worker restarted.",
    ]);
    expect([...s.list.children].map((li) => li.className)).toEqual(["notice link", "notice link", "notice settings", "notice file", "notice file", "notice engine"]);
    expect(s.list.children[0]!.getAttribute("data-key")).toBe("size");
    expect(s.list.children[0]!.querySelector("code")!.textContent).toBe("size");
    expect(s.list.hidden).toBe(false);
    expect(s.list.getAttribute("role")).toBe("status");
    expect(s.list.getAttribute("aria-live")).toBe("polite");
  });

  it("are styled as the page's stylesheets select them, and their buttons submit no form", () => {
    s.notices.update(stateWith([{ id: 1, source: "link", key: "cap", message: "a" }], "boom"));
    expect(unstyled(byId("notices"), [".notice-list", ".notice > p", ".notice-kind", ".dismiss", ".alert p"])).toEqual([]);
    for (const source of ["settings", "file", "engine"] as const) {
      s.notices.update(stateWith([{ id: 2, source, message: "b" }]));
      expect(unstyled(byId("notices"), [".notice-kind"])).toEqual([]);
    }
    expect(submitting(byId("notices"))).toEqual([]);
  });

  it("show a link's value as text, never as markup", () => {
    const value = `<img src=x onerror="alert(1)"><b>bold</b>`;
    s.notices.update(stateWith([{ id: 1, source: "link", key: "<i>k</i>", message: value }]));
    expect(byId("notices").querySelector("img, b, i")).toBeNull();
    expect(s.list.textContent).toContain(value);
    expect(s.list.textContent).toContain("<i>k</i>");
  });

  it("each has a Dismiss button that dismisses it", () => {
    s.notices.update(stateWith([{ id: 7, source: "engine", message: "a" }, { id: 9, source: "engine", message: "b" }]));
    const buttons = [...s.list.querySelectorAll<HTMLButtonElement>("button.dismiss")];
    expect(buttons.map((b) => b.getAttribute("aria-label"))).toEqual(["Dismiss this notice", "Dismiss this notice"]);
    expect(buttons.map((b) => b.textContent)).toEqual(["×", "×"]);
    buttons[1]!.click();
    expect(s.dismissed).toEqual([9]);
  });

  it("hide the list when there is none, and draw it again only when the notices change", () => {
    s.notices.update(stateWith([]));
    expect(s.list.hidden).toBe(true);
    const notices: Notice[] = [{ id: 1, source: "engine", message: "a" }];
    s.notices.update(stateWith(notices));
    const item = s.list.firstElementChild;
    s.notices.update(stateWith(notices));
    expect(s.list.firstElementChild).toBe(item);
    s.notices.update(stateWith([]));
    expect(s.list.hidden).toBe(true);
    expect(s.list.children).toHaveLength(0);
  });

  it("the experiment's error is an alert, as text, and goes when the error does", () => {
    expect(s.alert.hidden).toBe(true);
    s.notices.update(stateWith([], "<b>boom</b>"));
    expect(s.alert.hidden).toBe(false);
    expect(s.alert.textContent).toBe("The experiment could not run. <b>boom</b>");
    expect(s.alert.querySelector("strong")!.textContent).toBe("The experiment could not run. ");
    expect(s.alert.querySelector("b")).toBeNull();
    // The same error again is not announced again.
    const shown = s.alert.firstElementChild;
    s.notices.update(stateWith([{ id: 3, source: "engine", message: "c" }], "<b>boom</b>"));
    expect(s.alert.firstElementChild).toBe(shown);
    s.notices.update(stateWith([], null));
    expect(s.alert.hidden).toBe(true);
    expect(s.alert.textContent).toBe("");
  });

  it("a broken engine's message is the alert, over the experiment's error", () => {
    s.notices.update(stateWith([], "boom", { kind: "broken", message: "The engine did not load." }));
    expect(s.alert.hidden).toBe(false);
    expect(s.alert.textContent).toBe("The experiment could not run. The engine did not load.");
  });
});
