// The link is the page's saved state: every setting lives in the fragment,
// so a copied URL reproduces an experiment. Reading goes through the engine's
// decode_link (a link is untrusted input; the engine validates it in one
// place), writing through encode_link, so both directions share one codec.

import type { Codec } from "../engine/codec";
import schemaData from "../engine/schema.gen.json";
import type { Decoded, Params, Schema, View } from "../engine/types.gen";
import type { Links } from "./state";

/** The fragment without its leading '#'. */
export function fragmentOf(hash: string): string {
  return hash.startsWith("#") ? hash.slice(1) : hash;
}

/**
 * A fragment's key/value pairs without the keys that never change a result
 * (the engine's `schema.display_keys`: presenter mode, the lesson a link came
 * from). Two fragments with equal pairs describe the same experiment.
 */
export function experimentPairs(fragment: string, displayKeys: readonly string[]): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(fragmentOf(fragment))) if (!displayKeys.includes(k)) pairs.set(k, v);
  return pairs;
}

/** True when two fragments differ only in display keys (or not at all). */
export function sameExperiment(a: string, b: string, displayKeys: readonly string[]): boolean {
  // The usual case, and the page asks it many times per change: no parsing.
  if (fragmentOf(a) === fragmentOf(b)) return true;
  const x = experimentPairs(a, displayKeys);
  const y = experimentPairs(b, displayKeys);
  return x.size === y.size && [...x].every(([k, v]) => y.get(k) === v);
}

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
  return readLink(codec, fragment !== "" && document.getElementById(fragment) ? "" : fragment);
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

/** The view `params` show: their `view` where their lab offers it (the schema's `labs[].views`), else the lab's first. */
export function viewOfParams(params: Params): View {
  const views = (schemaData as Schema).labs.find((l) => l.id === params.lab)?.views ?? [];
  return views.includes(params.view) ? params.view : (views[0] ?? "run");
}

/** A fragment without the given keys (the order of the rest kept). */
export function withoutKeys(fragment: string, keys: readonly string[]): string {
  return fragmentOf(fragment)
    .split("&")
    .filter((pair) => pair !== "" && !keys.includes(pair.split("=", 1)[0]!))
    .join("&");
}

/**
 * The three links of `params` (see `Links` in state.ts): the address bar's
 * (a sweep's keys only in the sweep view, so a link reproduces what the
 * view shows), a single run's (never a sweep) and the sweep's.
 */
export function linksOf(codec: Codec, params: Params): Links {
  const run = codec.encodeLink({ ...params, sweep: null, view: params.view === "sweep" ? "run" : params.view });
  const sweep = params.sweep ? codec.encodeLink({ ...params, view: "sweep" }) : null;
  return { link: viewOfParams(params) === "sweep" && sweep !== null ? sweep : codec.encodeLink({ ...params, sweep: null }), run, sweep };
}

/**
 * The links of a decoded link before the codec can write links (the page's
 * first moments): its own fragment, and the same without the sweep's keys
 * for its runs. Display keys left in differ from `linksOf`'s only in what
 * never changes a result.
 */
export function openingLinks(decoded: Decoded, sweepKeys: readonly string[]): Links {
  return {
    link: decoded.fragment,
    run: withoutKeys(decoded.fragment, sweepKeys),
    sweep: decoded.params.sweep ? decoded.fragment : null,
  };
}
