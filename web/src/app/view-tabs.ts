// The result views' tabs (Single run, Sweep, Timeline), above the results.
// It owns the element it is given. The view is part of the link (key
// `view`), a display key: choosing a tab reports the choice and the page
// shows it without a new run. Labels come from the engine's schema.
//
// Keyboard: the tabs are one stop (roving tabindex); arrows, Home and End
// move between them and choose at once, as for the lab switch.

import type { Codec } from "../engine/codec";
import type { View } from "../engine/types.gen";
import { h, replaceChildren } from "../shared/dom";

export interface ViewTabs {
  /** Shows the views a lab offers (none: the tabs hide) with `current` selected. */
  show(views: readonly View[], current: View): void;
}

export function createViewTabs(container: HTMLElement, codec: Codec, onSelect: (view: View) => void): ViewTabs {
  const infos = codec.schema.views;
  const tabs = infos.map((info) =>
    h(
      "button",
      { type: "button", role: "tab", id: `view-tab-${info.id}`, "data-view": info.id, "aria-controls": `view-${info.id}`, title: info.about },
      info.label,
    ),
  );
  const list = h("div", { class: "view-tabs", role: "tablist", "aria-label": "Result view" }, ...tabs);
  replaceChildren(container, list);
  let offered: readonly View[] = [];

  const select = (view: View | undefined): void => {
    if (!view) return;
    tabs[infos.findIndex((i) => i.id === view)]?.focus();
    onSelect(view);
  };
  tabs.forEach((tab, i) => {
    const id = infos[i]!.id;
    tab.addEventListener("click", () => select(id));
    tab.addEventListener("keydown", (event) => {
      const at = offered.indexOf(id);
      const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: offered.length - 1 };
      const to = moves[event.key];
      if (to === undefined) return;
      event.preventDefault();
      select(offered[(to + offered.length) % offered.length]);
    });
  });

  return {
    show(views, current) {
      offered = views;
      container.hidden = views.length === 0;
      tabs.forEach((tab, i) => {
        const id = infos[i]!.id;
        tab.hidden = !views.includes(id);
        const selected = id === current;
        tab.setAttribute("aria-selected", String(selected));
        tab.tabIndex = selected ? 0 : -1;
      });
    },
  };
}
