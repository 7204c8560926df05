// Typed face of the engine's pure, synchronous functions: the schema (limits,
// defaults, names) and the link codec. The main thread instantiates the same
// compiled wasm as the workers for these; only the workers call `run`.
//
// The engine owns validation: the UI never re-implements a limit or a default,
// it reads them from `schema` and sends links through `decode_link`.

import { engineModule } from "./spawn";
import type { Decoded, Params, Schema, Stats, Verdict } from "./types.gen";

/** The exports of web/pkg/buflab.js that the codec uses. */
export interface CodecExports {
  schema(): unknown;
  decode_link(fragment: string): unknown;
  encode_link(params: unknown): string;
  parse_size(text: string): number | undefined;
  format_size(n: number): string;
  max_streams(len: number, cap: number): number;
  code(params: unknown): string;
  fit_sweep(params: unknown): unknown;
  verdict(a: unknown, b: unknown): string;
}

export interface Codec {
  readonly schema: Schema;
  /** Never throws: invalid values fall back to defaults with a notice naming the key. */
  decodeLink(fragment: string): Decoded;
  /** Canonical fragment for these params, without the leading '#'. */
  encodeLink(params: Params): string;
  /** "8K" → 8192; undefined when the text is not a size. */
  parseSize(text: string): number | undefined;
  /** 8192 → "8K". */
  formatSize(bytes: number): string;
  /** The most streams allowed with this stream length and buffer capacity (the engine's rule). */
  maxStreams(len: number, cap: number): number;
  /** The Rust program these params correspond to (crate/src/catalog/snippet.rs). Throws for invalid params. */
  code(params: Params): string;
  /** Params whose sweep is fitted to the rest (as a link's would be), with notices; throws when the rest is invalid. */
  fitSweep(params: Params): Decoded;
  /** How time `a` compares with `b`: faster or slower only when their samples separate (the engine's rule). */
  verdict(a: Stats, b: Stats): Verdict;
}

export function codecFrom(exports: CodecExports): Codec {
  const schema = exports.schema() as Schema;
  return {
    schema,
    decodeLink: (fragment) => exports.decode_link(fragment.replace(/^#/, "")) as Decoded,
    encodeLink: (params) => exports.encode_link(params),
    parseSize: (text) => {
      const n = exports.parse_size(text.trim());
      return n === undefined || n === null ? undefined : n;
    },
    formatSize: (bytes) => exports.format_size(bytes),
    maxStreams: (len, cap) => exports.max_streams(len, cap),
    code: (params) => exports.code(params),
    fitSweep: (params) => exports.fit_sweep(params) as Decoded,
    verdict: (a, b) => exports.verdict(a, b) as Verdict,
  };
}

/** Instantiates the engine on the main thread, from the one compile the workers share. */
export async function loadCodec(): Promise<Codec> {
  const [wasm, module] = await Promise.all([import("../../pkg/buflab.js"), engineModule()]);
  await wasm.default({ module_or_path: module });
  return codecFrom(wasm);
}
