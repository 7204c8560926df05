// A page address and its fragment (the link's settings live in the fragment).

/** The fragment without its leading '#'. */
export function fragmentOf(hash: string): string {
  return hash.startsWith("#") ? hash.slice(1) : hash;
}

/** The full URL for a fragment, keeping the page's address. */
export function linkUrl(href: string, fragment: string): string {
  const base = href.split("#", 1)[0] ?? href;
  return `${base}#${fragment}`;
}
