// The switch between the read lab and the write lab: a tab list above both
// panels. It owns the <div id="lab-switch"> element. The choice is part of
// the link (key `lab`), so choosing a tab reports an edit like any control.
//
// Keyboard: the tabs are one stop (roving tabindex); arrows, Home and End
// move between them and choose at once, as the ARIA tabs pattern allows for
// tabs whose panels are already on the page.

import type { Codec } from "../engine/codec";
import type { Lab } from "../engine/types.gen";
import { h, replaceChildren } from "../shared/dom";

export interface LabSwitch {
  show(lab: Lab): void;
}

export function createLabSwitch(container: HTMLElement, codec: Codec, panels: string, onSelect: (lab: Lab) => void): LabSwitch {
  const labs = codec.schema.labs;
  const tabs = labs.map((lab) =>
    h(
      "button",
      { type: "button", role: "tab", id: `lab-tab-${lab.id}`, "data-lab": lab.id, "aria-controls": panels, title: lab.about },
      h("span", { class: "lab-name" }, `${lab.label} lab`),
      h("span", { class: "lab-about" }, lab.about),
    ),
  );
  const list = h("div", { class: "lab-tabs", role: "tablist", "aria-label": "Lab" }, ...tabs);
  replaceChildren(container, list);

  const select = (index: number): void => {
    const lab = labs[(index + labs.length) % labs.length];
    if (!lab) return;
    tabs[labs.indexOf(lab)]?.focus();
    onSelect(lab.id);
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(i));
    tab.addEventListener("keydown", (event) => {
      const moves: Record<string, number> = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: labs.length - 1 };
      const to = moves[event.key];
      if (to === undefined) return;
      event.preventDefault();
      select(to);
    });
  });

  return {
    show(current) {
      tabs.forEach((tab, i) => {
        const selected = labs[i]?.id === current;
        tab.setAttribute("aria-selected", String(selected));
        tab.tabIndex = selected ? 0 : -1;
      });
    },
  };
}
