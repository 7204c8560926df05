// @vitest-environment happy-dom
// The result views' tabs in the page's own #view-tabs: the lab's views
// offered, the one on screen selected, a click or a key choosing a view.

import { beforeEach, describe, expect, it } from "vitest";
import type { Codec } from "../engine/codec";
import schema from "../engine/schema.gen.json";
import type { View } from "../engine/types.gen";
import { byId, loadPageMarkup, press, submitting, unstyled } from "./dom-fixtures";
import { createViewTabs } from "./view-tabs";

const codec = { schema } as unknown as Codec;
const ALL: View[] = ["run", "sweep", "timeline"];

function make() {
  loadPageMarkup();
  const chosen: View[] = [];
  const tabs = createViewTabs(byId("view-tabs"), codec, (view) => chosen.push(view));
  const tab = (view: View) => byId(`view-tab-${view}`);
  return { tabs, chosen, tab };
}

describe("the view tabs", () => {
  let s: ReturnType<typeof make>;
  beforeEach(() => (s = make()));

  it("label each view from the schema, and each tab names the page's pane it controls", () => {
    const list = byId("view-tabs").querySelector("[role=tablist]")!;
    expect(list.getAttribute("aria-label")).toBe("Result view");
    expect([...list.querySelectorAll("[role=tab]")].map((t) => t.textContent)).toEqual(["Single run", "Sweep", "Timeline"]);
    for (const view of ALL) {
      const pane = byId(s.tab(view).getAttribute("aria-controls")!);
      expect(pane.getAttribute("aria-labelledby")).toBe(s.tab(view).id);
      expect(s.tab(view).dataset["view"]).toBe(view);
      expect(s.tab(view).title).toBe(schema.views.find((v) => v.id === view)!.about);
      expect(s.tab(view).getAttribute("type")).toBe("button");
    }
  });

  it("show only the lab's views, the one on screen selected and the only Tab stop", () => {
    s.tabs.show(ALL, "sweep");
    expect(byId("view-tabs").hidden).toBe(false);
    expect(ALL.map((v) => s.tab(v).hidden)).toEqual([false, false, false]);
    expect(ALL.map((v) => s.tab(v).getAttribute("aria-selected"))).toEqual(["false", "true", "false"]);
    expect(ALL.map((v) => s.tab(v).tabIndex)).toEqual([-1, 0, -1]);
    s.tabs.show(["run", "timeline"], "run");
    expect(ALL.map((v) => s.tab(v).hidden)).toEqual([false, true, false]);
    expect(ALL.map((v) => s.tab(v).getAttribute("aria-selected"))).toEqual(["true", "false", "false"]);
  });

  it("hide when the lab has no views to choose from", () => {
    s.tabs.show([], "run");
    expect(byId("view-tabs").hidden).toBe(true);
  });

  it("a click chooses the tab's view and focuses it", () => {
    s.tabs.show(ALL, "run");
    s.tab("timeline").click();
    expect(s.chosen).toEqual(["timeline"]);
    expect(document.activeElement).toBe(s.tab("timeline"));
  });

  it("arrows move among the views offered and wrap; Home and End go to the first and last", () => {
    s.tabs.show(["run", "timeline"], "run");
    expect(press(s.tab("run"), "ArrowRight").defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(s.tab("timeline"));
    press(s.tab("timeline"), "ArrowRight");
    press(s.tab("run"), "ArrowLeft");
    s.tabs.show(ALL, "sweep");
    press(s.tab("sweep"), "Home");
    press(s.tab("sweep"), "End");
    press(s.tab("sweep"), "ArrowLeft");
    expect(s.chosen).toEqual(["timeline", "run", "timeline", "run", "timeline", "run"]);
  });

  it("with three views offered, the arrows step one view either way", () => {
    s.tabs.show(ALL, "sweep");
    press(s.tab("sweep"), "ArrowRight");
    press(s.tab("sweep"), "ArrowLeft");
    expect(s.chosen).toEqual(["timeline", "run"]);
  });

  it("before the lab's views are shown, a key chooses nothing", () => {
    press(s.tab("run"), "ArrowRight");
    press(s.tab("run"), "End");
    expect(s.chosen).toEqual([]);
  });

  it("are styled as the page's stylesheets select them, and submit no form", () => {
    s.tabs.show(ALL, "run");
    expect(unstyled(byId("view-tabs"), ['.view-tabs [role="tab"]', '.view-tabs [role="tab"][aria-selected="true"]'])).toEqual([]);
    expect(submitting(byId("view-tabs"))).toEqual([]);
  });

  it("leave other keys alone", () => {
    s.tabs.show(ALL, "run");
    expect(press(s.tab("run"), "Enter").defaultPrevented).toBe(false);
    expect(s.chosen).toEqual([]);
  });
});
