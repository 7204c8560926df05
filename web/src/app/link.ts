// The link is the page's saved state: every setting lives in the fragment,
// so a copied URL reproduces an experiment. Reading goes through the engine's
// decode_link (a link is untrusted input; the engine validates it in one
// place), writing through its codec too (engine/codec.ts), so both
// directions, and every rule about what a link carries, are the engine's.

import type { Codec } from "../engine/codec";
import type { Decoded } from "../engine/types.gen";
import { fragmentOf, linkUrl } from "../shared/url";

/** Restores an experiment from a location hash ('' gives the engine's defaults). */
export function readLink(codec: Codec, hash: string): Decoded {
  return codec.decodeLink(fragmentOf(hash));
}

/**
 * The link a page opens with: the address's, unless its fragment names an
 * element of the page (in-page navigation such as "#results" is not an
 * experiment).
 */
export function openingLink(codec: Codec, hash: string): Decoded {
  const fragment = fragmentOf(hash);
  // No element has the id "", so an empty fragment reads as itself.
  return readLink(codec, document.getElementById(fragment) ? "" : fragment);
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
