// Building DOM without HTML strings: every value reaches the page as a text
// node or an attribute, never as markup, so nothing from a link can inject.

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined>;

/** createElement with attributes (false/null/undefined are left out) and text or element children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export const SVG_NS = "http://www.w3.org/2000/svg";

/** createElementNS with attributes: every value an attribute, never markup. */
export function svgElement<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

/** An SVG <text> whose words are a text node (escaped when serialised, whatever they hold). */
export function svgText(text: string, attrs: Record<string, string | number>): SVGTextElement {
  const el = svgElement("text", attrs);
  el.textContent = text;
  return el;
}

/** Replaces all children of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** Sets text only when it changed (keeps screen readers from re-announcing). */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** Looks up an element the page's HTML must contain. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`index.html has no element #${id}`);
  return el as T;
}

/**
 * Scrolls `element` to the top of the screen and keeps it there while the
 * page around it is still being built (charts, tables and panels arriving
 * above or below it move it, and the browser's scroll anchoring may follow
 * the wrong element), until the person scrolls, taps or types, or `ms` pass.
 */
export function holdAtTop(element: HTMLElement, ms = 10_000): void {
  const place = (): void => element.scrollIntoView({ block: "start" });
  const observer = new ResizeObserver(place);
  const events = ["wheel", "touchstart", "keydown", "pointerdown"] as const;
  const release = (): void => {
    observer.disconnect();
    for (const type of events) removeEventListener(type, release, true);
  };
  for (const type of events) addEventListener(type, release, { capture: true, passive: true });
  observer.observe(document.body);
  setTimeout(release, ms);
  place();
}
