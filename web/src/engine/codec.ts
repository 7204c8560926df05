// Typed face of the engine's pure, synchronous functions: the schema (limits,
// defaults, names) and the link codec. The main thread instantiates the
// counting build for the codec (compiled once, shared with the counting
// worker, engine/spawn.ts), and the full build for the code panel's program
// once that has arrived; only the workers call `run`. The schema is a
// constant of the engine, generated from it as data (crate/src/types.rs), so
// no wasm serializes it at run time.
//
// The engine owns validation: the UI never re-implements a limit or a default,
// it reads them from `schema` and sends links through `decode_link`.

import schemaData from "./schema.gen.json";
import { engineModule } from "./spawn";
import type { Decoded, Params, Schema, Stats, Verdict } from "./types.gen";

/** The engine's schema (crate/src/catalog/schema.rs), as generated; the page reads it as `Codec.schema`. */
const schema = schemaData as Schema;

/** The exports of either engine build that the codec uses. */
export interface CodecExports {
  decode_link(fragment: string): unknown;
  encode_link(params: unknown): string;
  parse_size(text: string): number | undefined;
  format_size(n: number): string;
  max_streams(len: number, cap: number): number;
  fit_sweep(params: unknown): unknown;
  verdict(a: unknown, b: unknown): string;
}

/** The full build's export for the code panel (crate/src/catalog/snippet.rs). */
export interface ProgramExports {
  code(params: unknown): string;
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
  /**
   * The Rust program these params correspond to (crate/src/catalog/snippet.rs);
   * null until the full engine has loaded (`programLoaded`). Throws for invalid params.
   */
  code(params: Params): string | null;
  /** Resolves once `code` can answer. */
  readonly programLoaded: Promise<void>;
  /** Params whose sweep is fitted to the rest (as a link's would be), with notices; throws when the rest is invalid. */
  fitSweep(params: Params): Decoded;
  /** How time `a` compares with `b`: faster or slower only when their samples separate (the engine's rule). */
  verdict(a: Stats, b: Stats): Verdict;
}

/** The codec over a build's exports; `program`, the full build's, may come later. */
export function codecFrom(exports: CodecExports, program: ProgramExports | Promise<ProgramExports>): Codec {
  let programs: ProgramExports | null = null;
  const programLoaded = Promise.resolve(program).then((loaded) => {
    programs = loaded;
  });
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
    code: (params) => (programs ? programs.code(params) : null),
    programLoaded,
    fitSweep: (params) => exports.fit_sweep(params) as Decoded,
    verdict: (a, b) => exports.verdict(a, b) as Verdict,
  };
}

/** Instantiates a build's glue on the main thread, from the one compile the workers share. */
async function instantiate<T>(glue: Promise<T & { default(init: { module_or_path: WebAssembly.Module }): Promise<unknown> }>, module: Promise<WebAssembly.Module>): Promise<T> {
  const [exports, compiled] = await Promise.all([glue, module]);
  await exports.default({ module_or_path: compiled });
  return exports;
}

/** The codec from the counting build; the program from the full build, once that is released (engine/spawn.ts). */
export async function loadCodec(): Promise<Codec> {
  const codec = await instantiate(import("../../pkg-counts/buflab_counts.js"), engineModule("counts"));
  // The full build's glue is fetched only once its wasm is on its way.
  const full = engineModule("full");
  return codecFrom(codec, instantiate(full.then(() => import("../../pkg/buflab.js")), full));
}
