// The link is the page's saved state: every setting lives in the fragment,
// so a copied URL reproduces an experiment. Reading goes through the engine's
// decode_link (a link is untrusted input; the engine validates it in one
// place), writing through encode_link, so both directions share one codec.

import type { Codec } from "./engine/codec";
import type { DecodedLink } from "./engine/protocol";

/** The fragment without its leading '#'. */
export function fragmentOf(hash: string): string {
  return hash.startsWith("#") ? hash.slice(1) : hash;
}

/** Restores an experiment from a location hash ('' gives the engine's defaults). */
export function readLink(codec: Codec, hash: string): DecodedLink {
  return codec.decodeLink(fragmentOf(hash));
}

/** The full URL for a fragment, keeping the page's address. */
export function linkUrl(href: string, fragment: string): string {
  const base = href.split("#", 1)[0] ?? href;
  return `${base}#${fragment}`;
}

export interface HistoryLike {
  replaceState(data: unknown, unused: string, url?: string | URL | null): void;
}

/**
 * Persists the fragment without adding a history entry per slider step.
 * Returns whether the address changed.
 */
export function writeLink(history: HistoryLike, location: { href: string; hash: string }, fragment: string): boolean {
  if (fragmentOf(location.hash) === fragment) return false;
  history.replaceState(null, "", linkUrl(location.href, fragment));
  return true;
}
