// The colour scheme switch: System (follow the device), Light or Dark. It owns
// the element it is given and the `data-theme` attribute on <html>; the
// colours themselves are in style.css, keyed on that attribute and on
// prefers-color-scheme. The choice is kept in localStorage (it is a
// preference of the person, not part of the experiment, so not in the link).

import BOOT from "../engine/boot.gen.json";
import { h, replaceChildren } from "./dom";

export type ThemeChoice = "system" | "light" | "dark";

export const THEME_CHOICES: readonly { value: ThemeChoice; label: string }[] = [
  { value: "system", label: "System" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

/** localStorage key of the choice. */
export const THEME_KEY = "buflab:theme";

/** Whatever was stored (or nothing, or storage turned off) reads as a valid choice. */
export function parseChoice(stored: string | null | undefined): ThemeChoice {
  return stored === "light" || stored === "dark" ? stored : "system";
}

function readStored(): ThemeChoice {
  try {
    return parseChoice(localStorage.getItem(THEME_KEY));
  } catch {
    return "system";
  }
}

function store(choice: ThemeChoice): void {
  try {
    if (choice === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage off (private mode, policy): the choice lasts for this page only.
  }
}

/** Sets <html data-theme> from the stored choice; no attribute means "follow the system". */
export function applyTheme(choice: ThemeChoice = readStored()): ThemeChoice {
  const root = document.documentElement;
  if (choice === "system") delete root.dataset["theme"];
  else root.dataset["theme"] = choice;
  return choice;
}

/**
 * Presenter mode's looks (the `presenting` class on <html>, which
 * panels/presenter.ts owns once the page is built) for a link that asks for
 * them, before anything paints: drawn first without them, the masthead, the
 * status and the results moved when they came (a layout shift of up to 0.4
 * on a lesson at 1280×720). The codec's reading of the link decides
 * moments later.
 */
export function applyPresenterLook(hash: string): void {
  if (asksForPresenterLook(hash)) document.documentElement.classList.add("presenting");
}

/**
 * Whether a raw link (`#…`) asks for presenter mode as the codec reads it
 * (boot.gen.json, generated from the Rust codec): the key given once, with
 * the value the codec writes, in a link not too long to read at all.
 */
export function asksForPresenterLook(hash: string): boolean {
  const fragment = hash.replace(/^#/, "");
  // (a URL's fragment is ASCII: the browser percent-encodes the rest, so its length is its bytes)
  if (fragment.length > BOOT.max_link_bytes) return false;
  const values = new URLSearchParams(fragment).getAll(BOOT.present_key);
  return values.length === 1 && values[0] === BOOT.present_on;
}

export interface ThemeSwitch {
  /** Called after the page's colours changed (a choice, or the system's setting under "System"). */
  onChange(listener: () => void): void;
}

export function createThemeSwitch(container: HTMLElement): ThemeSwitch {
  const listeners: (() => void)[] = [];
  const notify = (): void => listeners.forEach((listener) => listener());
  let choice = applyTheme();

  const inputs = THEME_CHOICES.map(({ value, label }) => {
    const input = h("input", { type: "radio", name: "theme", value, checked: value === choice });
    input.addEventListener("change", () => {
      if (!input.checked) return;
      choice = applyTheme(value);
      store(choice);
      notify();
    });
    return h("label", { class: "theme-option" }, input, h("span", {}, label));
  });
  replaceChildren(
    container,
    h("fieldset", { class: "theme-switch" }, h("legend", { class: "visually-hidden" }, "Colour scheme"), ...inputs),
  );

  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    if (choice === "system") notify();
  });
  // Another tab changed the choice.
  window.addEventListener("storage", (event) => {
    if (event.key !== THEME_KEY && event.key !== null) return;
    choice = applyTheme(readStored());
    for (const label of inputs) {
      const input = label.querySelector("input");
      if (input) input.checked = input.value === choice;
    }
    notify();
  });

  return {
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
