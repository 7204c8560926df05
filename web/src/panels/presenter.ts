// Presenter mode for workshops (link key `present`): large type, high
// contrast, the secondary panels hidden, and the main chart with the
// lesson's points beside it within a 1280×720 screen. It owns the toggle
// button's element and the `presenting` class on <html>, where the colours,
// the type size and the charts' smallest type size (--chart-font-min) are
// read from; the looks are in styles/presenter.css.
//
// The setting lives in the link like every other, so a presenter can open a
// prepared link straight into presenter mode; it changes no result.

//
// In presenter mode a "QR code" button shows the students' link (the page's
// link without `present`) as a QR code filling most of the screen, to scan
// from the back of the room; the encoder (shared/qr.ts) loads on first use.

import { h, replaceChildren, setText } from "../shared/dom";

export interface PresenterToggle {
  /** Applies presenter mode on or off; the caller re-themes the charts after this. */
  show(on: boolean): void;
  /** Blanks the screen (B), or brings it back. */
  blank(on: boolean): void;
}

export interface PresenterOptions {
  /** Presenter mode asked on or off; the page's state follows and calls `show`. */
  toggle(on: boolean): void;
  /** The address the QR code carries (the page's link without presenter mode). */
  studentsLink(): string;
  /** Start a workshop: presenter mode and predict on (the handout opens beside, from the button's own link). */
  startWorkshop(): void;
}

export function createPresenterToggle(container: HTMLElement, { toggle: onToggle, studentsLink, startWorkshop }: PresenterOptions): PresenterToggle {
  const button = h(
    "button",
    { type: "button", id: "present-toggle", class: "small", "aria-pressed": "false", title: "Large type and high contrast for a projector (link key present)" },
    "Presenter mode",
  );
  // A link, so the handout opens in a tab of its own; the click also switches the page to the workshop.
  const workshop = h(
    "a",
    {
      href: "./handout.html",
      target: "_blank",
      rel: "noopener",
      id: "workshop-start",
      class: "button small",
      title: "Presenter mode and predict-then-reveal on, and the handout for the students in a new tab",
    },
    "Start a workshop",
  );
  workshop.addEventListener("click", () => startWorkshop());
  let on = false;
  button.addEventListener("click", () => onToggle(!on));
  const qrButton = h("button", { type: "button", id: "qr-button", class: "small", popovertarget: "qr-panel" }, "QR code");
  qrButton.hidden = true;
  const close = h("button", { type: "button", class: "small", popovertarget: "qr-panel", popovertargetaction: "hide" }, "Close");
  const code = h("div", { class: "qr-large" });
  const address = h("p", { class: "qr-address" });
  const panel = h(
    "div",
    { id: "qr-panel", class: "popover qr-panel", popover: "auto", role: "dialog", "aria-labelledby": "qr-title" },
    h("div", { class: "popover-head" }, h("h2", { id: "qr-title" }, "Scan to open this experiment"), close),
    code,
    address,
  );
  panel.addEventListener("toggle", (event) => {
    if ((event as ToggleEvent).newState !== "open") return;
    const link = studentsLink();
    setText(address, link);
    void import("../shared/qr").then(({ qrSvg }) => replaceChildren(code, qrSvg(link, "QR code of this page's link")));
  });
  replaceChildren(container, workshop, button, qrButton, panel);
  return {
    show(next) {
      on = next;
      button.setAttribute("aria-pressed", String(on));
      qrButton.hidden = !on;
      workshop.hidden = on;
      document.documentElement.classList.toggle("presenting", on);
    },
    blank(blanked) {
      document.documentElement.classList.toggle("blanked", blanked);
    },
  };
}
