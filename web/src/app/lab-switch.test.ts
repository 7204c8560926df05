// @vitest-environment happy-dom
// The lab switch in the page's own #lab-switch: a click or a key on a tab
// chooses a lab, and the tab of the lab shown is the selected one and the
// one stop for Tab.

import { beforeEach, describe, expect, it } from "vitest";
import type { Codec } from "../engine/codec";
import schema from "../engine/schema.gen.json";
import type { Lab } from "../engine/types.gen";
import { byId, loadPageMarkup, press, submitting, unstyled } from "./dom-fixtures";
import { createLabSwitch } from "./lab-switch";

const codec = { schema } as unknown as Codec;
/** The schema with a third lab: the keys move through any number of labs. */
const threeLabs = { schema: { ...schema, labs: [...schema.labs, { ...schema.labs[1]!, id: "third", label: "Third" }] } } as unknown as Codec;

function make(c: Codec = codec) {
  loadPageMarkup();
  const chosen: Lab[] = [];
  const labSwitch = createLabSwitch(byId("lab-switch"), c, "settings results", (lab) => chosen.push(lab));
  const tab = (lab: Lab) => byId(`lab-tab-${lab}`);
  return { labSwitch, chosen, tab };
}

describe("the lab switch", () => {
  let s: ReturnType<typeof make>;
  beforeEach(() => (s = make()));

  it("has a tab per lab, named and explained by the schema, controlling the panels it is given", () => {
    const tabs = [...byId("lab-switch").querySelectorAll<HTMLElement>("[role=tablist][aria-label=Lab] > [role=tab]")];
    expect(tabs.map((t) => t.dataset["lab"])).toEqual(["read", "write"]);
    expect(s.tab("read").querySelector(".lab-name")!.textContent).toBe("Read lab");
    expect(s.tab("write").querySelector(".lab-name")!.textContent).toBe("Write lab");
    expect(s.tab("write").querySelector(".lab-about")!.textContent).toBe(schema.labs[1]!.about);
    expect(s.tab("write").title).toBe(schema.labs[1]!.about);
    expect(s.tab("read").getAttribute("aria-controls")).toBe("settings results");
    expect(s.tab("read").getAttribute("type")).toBe("button");
  });

  it("marks the lab shown as selected, the only tab Tab stops on", () => {
    s.labSwitch.show("write");
    expect(s.tab("write").getAttribute("aria-selected")).toBe("true");
    expect(s.tab("read").getAttribute("aria-selected")).toBe("false");
    expect([s.tab("read").tabIndex, s.tab("write").tabIndex]).toEqual([-1, 0]);
    s.labSwitch.show("read");
    expect(s.tab("read").getAttribute("aria-selected")).toBe("true");
    expect([s.tab("read").tabIndex, s.tab("write").tabIndex]).toEqual([0, -1]);
  });

  it("a click chooses the tab's lab and focuses it", () => {
    s.tab("write").click();
    expect(s.chosen).toEqual(["write"]);
    expect(document.activeElement).toBe(s.tab("write"));
  });

  it("arrows move to the next or previous lab and wrap; Home and End go to the first and last", () => {
    expect(press(s.tab("read"), "ArrowRight").defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(s.tab("write"));
    press(s.tab("write"), "ArrowRight");
    press(s.tab("read"), "ArrowLeft");
    press(s.tab("write"), "ArrowLeft");
    press(s.tab("write"), "Home");
    press(s.tab("read"), "End");
    expect(s.chosen).toEqual(["write", "read", "write", "read", "read", "write"]);
  });

  it("with three labs, the arrows step one lab either way, and End goes to the last", () => {
    const t = make(threeLabs);
    const third = t.tab("third" as Lab);
    press(t.tab("read"), "ArrowRight");
    press(t.tab("write"), "ArrowRight");
    press(t.tab("write"), "ArrowLeft");
    press(third, "ArrowLeft");
    press(t.tab("read"), "End");
    press(third, "ArrowRight");
    expect(t.chosen).toEqual(["write", "third", "read", "write", "third", "read"]);
  });

  it("is styled as the page's stylesheets select it, and submits no form", () => {
    s.labSwitch.show("read");
    expect(unstyled(byId("lab-switch"), ['.lab-tabs [role="tab"]', '.lab-tabs [role="tab"][aria-selected="true"]', ".lab-name", ".lab-about"])).toEqual([]);
    expect(submitting(byId("lab-switch"))).toEqual([]);
  });

  it("leaves other keys alone", () => {
    const event = press(s.tab("read"), "Enter");
    expect(event.defaultPrevented).toBe(false);
    expect(s.chosen).toEqual([]);
  });
});
