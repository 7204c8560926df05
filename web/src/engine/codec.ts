// Typed face of the engine's pure, synchronous functions: the schema (limits,
// defaults, names), the link codec (reading and writing links, the links a
// page keeps for its params and the view they show, whether two links are one
// experiment) and the comparison of times. Every rule about links is the
// engine's (crate/src/link/): nothing here or above restates one. The main
// thread instantiates the counting build to read links and compare times
// (compiled once, shared with the counting worker, engine/spawn.ts), and the
// program build, once that has arrived after the first numbers, to write
// links and for the code panel's program; only the workers call `run`. The schema is a constant of the engine, generated
// from it as data (crate/src/types.rs), so no wasm serializes it at run time.
//
// The engine owns validation: the UI never re-implements a limit or a default,
// it reads them from `schema` and sends links through `decode_link`.

import { messageOf } from "./errors";
import schemaData from "./schema.gen.json";
import type { EngineBuild } from "./protocol";
import { engineModule } from "./spawn";
import type { Decoded, Lab, Links, Params, Ratio, Schema, Stats, Verdict } from "./types.gen";

/** The engine's schema (crate/src/catalog/schema.rs), as generated; the page reads it as `Codec.schema`. */
const schema = schemaData as Schema;

/** The counting build's codec exports: reading links, sizes, comparing times (in every build). */
export interface CodecExports {
  decode_link(fragment: string): unknown;
  parse_size(text: string): number | undefined;
  format_size(n: number): string;
  max_streams(len: number, cap: number): number;
  verdict(a: Float64Array, b: Float64Array): string;
  time_ratio(a: Float64Array, b: Float64Array): unknown;
}

/**
 * The program build's exports the page uses on this thread: writing links,
 * and the code panel's program. Each takes params as an object, so each needs
 * the params' deserializer, which the counting build leaves out for size.
 */
export interface ProgramExports {
  decode_link(link: string): unknown;
  encode_link(params: unknown): string;
  links(params: unknown): unknown;
  fit_sweep(params: unknown): unknown;
  code(params: unknown): string;
}

/** The figures of `stats` the engine's comparisons read, as it takes them (crate/src/wasm.rs `compared`). */
function compared(stats: Stats): Float64Array {
  return Float64Array.of(stats.min, stats.median, stats.max, stats.samples);
}

/** Whether two links describe one experiment: what the page's model compares results by. */
export interface LinkRules {
  /** True when `a` and `b` differ only in display keys (presenter mode, the view, the lesson, …) or not at all. */
  sameExperiment(a: string, b: string): boolean;
}

/**
 * A link's key/value pairs that can change a result: its pairs without the
 * engine's display keys (`schema.display_keys`, crate/src/link/mod.rs
 * `DISPLAY_KEYS`), in the link's order; a repeated key keeps its last value.
 * Here and not in the wasm, as the engine's list, so the first download
 * carries no more code.
 */
export function experimentPairs(link: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(link.replace(/^#/, ""))) if (!schema.display_keys.includes(k)) pairs.set(k, v);
  return pairs;
}

/** True when two links' pairs are the same once the display keys are left out (in any order). */
export function sameExperiment(a: string, b: string): boolean {
  if (a.replace(/^#/, "") === b.replace(/^#/, "")) return true;
  const x = experimentPairs(a);
  const y = experimentPairs(b);
  return x.size === y.size && [...x].every(([k, v]) => y.get(k) === v);
}

export interface Codec extends LinkRules {
  readonly schema: Schema;
  /**
   * Never throws: invalid values fall back to defaults with a notice naming
   * the key. Carries its params' links (`links`). Before the program build
   * has loaded, a link with keys other than A's (a comparison's `b.` keys, a
   * mistyped key) comes back `deferred`: A's keys alone, to be read again
   * once it has (`ready`).
   */
  decodeLink(fragment: string): Decoded;
  /** True when two links describe one experiment (`sameExperiment`). */
  sameExperiment(a: string, b: string): boolean;
  /** A link's key/value pairs that can change a result (`experimentPairs`). */
  experimentPairs(link: string): Map<string, string>;

  /** "8K" → 8192; undefined when the text is not a size. */
  parseSize(text: string): number | undefined;
  /** 8192 → "8K". */
  formatSize(bytes: number): string;
  /** The most streams allowed with this stream length and buffer capacity (the engine's rule). */
  maxStreams(len: number, cap: number): number;
  /**
   * Whether an experiment with these params uses the setting of link key
   * `key` (`usesKey`): what the settings strip shows and the sweep offers
   * as an axis.
   */
  uses(params: Params, key: string): boolean;
  /**
   * The build that counts `lab` first: the counting build, or the program
   * build for a lab the counting build leaves out (the schema's `counting_module`).
   */
  countsBuild(lab: Lab): EngineBuild;
  /** How time `a` compares with `b`: faster or slower only when their samples separate (the engine's rule). */
  verdict(a: Stats, b: Stats): Verdict;
  /**
   * How many times time `b` is time `a`, as the range their samples support
   * (`Stats::ratio`: every sample of one against every sample of the other);
   * null with fewer than two samples a side.
   */
  timeRatio(a: Stats, b: Stats): Ratio | null;
  /**
   * True once the program build has loaded on this thread (`programLoaded`):
   * from then on the calls below answer; before, they throw `ProgramLoading`
   * (the page's model holds changes until then: app/state.ts `held`).
   */
  readonly ready: boolean;
  /** Resolves once the calls below can answer; rejects if the program build cannot load. */
  readonly programLoaded: Promise<void>;
  /** Canonical fragment for these params, without the leading '#'. Throws for invalid params. */
  encodeLink(params: Params): string;
  /**
   * The links the page keeps for these params: the address bar's (a sweep's
   * keys only in the sweep view), a single run's (never a sweep's keys), the
   * sweep's, and the view they show. Throws for invalid params.
   */
  links(params: Params): Links;
  /** Params whose sweep is fitted to the rest (as a link's would be), with notices; throws when the rest is invalid. */
  fitSweep(params: Params): Decoded;
  /** The Rust program these params correspond to (crate/src/catalog/snippet.rs). Throws for invalid params. */
  code(params: Params): string;
}

/**
 * Whether params use the setting of link key `key`, from the schema's lists:
 * a key that a workload's or a reader's `keys` names is used while that
 * workload, or one such reader, is chosen; a key none of them names
 * (chunking, stream length, streams, …) is used by every experiment.
 */
export function usesKey(schema: Schema, params: Params, key: string): boolean {
  const workloads = schema.workloads.filter((w) => w.keys.includes(key));
  const readers = schema.readers.filter((r) => r.keys.includes(key));
  if (workloads.length === 0 && readers.length === 0) return true;
  return workloads.some((w) => w.id === params.workload) || readers.some((r) => params.readers.includes(r.id));
}

/** A call that needs the program build, made before it has loaded on this thread. */
class ProgramLoading extends Error {
  constructor(why = "it is still loading") {
    super(`The engine cannot write links yet: ${why}.`);
    this.name = "ProgramLoading";
  }
}

/** The codec over the counting build's exports; `program`, the program build's, comes later. */
export function codecFrom(exports: CodecExports, program: ProgramExports | Promise<ProgramExports>): Codec {
  // A build already loaded (the tests' synchronous one) answers at once.
  let loaded: ProgramExports | null = program instanceof Promise ? null : program;
  let failed: string | null = null;
  const programLoaded = Promise.resolve(program).then(
    (exports) => {
      loaded = exports;
    },
    (error: unknown) => {
      failed = `its program build did not load (${messageOf(error)})`;
      throw error;
    },
  );
  const full = (): ProgramExports => {
    if (loaded === null) throw new ProgramLoading(failed ?? undefined);
    return loaded;
  };
  return {
    schema,
    // The program build's codec reads every link; the counting build's
    // defers one with keys other than A's (`Decoded.deferred`).
    decodeLink: (fragment) => (loaded ?? exports).decode_link(fragment.replace(/^#/, "")) as Decoded,
    sameExperiment,
    experimentPairs,
    parseSize: (text) => {
      const n = exports.parse_size(text.trim());
      return n === undefined || n === null ? undefined : n;
    },
    formatSize: (bytes) => exports.format_size(bytes),
    maxStreams: (len, cap) => exports.max_streams(len, cap),
    uses: (params, key) => usesKey(schema, params, key),
    countsBuild: (lab) => (schema.labs.find((l) => l.id === lab)?.counting_module === false ? "program" : "counts"),
    verdict: (a, b) => exports.verdict(compared(a), compared(b)) as Verdict,
    timeRatio: (a, b) => (exports.time_ratio(compared(a), compared(b)) as Ratio | undefined) ?? null,
    get ready() {
      return loaded !== null;
    },
    programLoaded,
    encodeLink: (params) => full().encode_link(params),
    links: (params) => full().links(params) as Links,
    fitSweep: (params) => full().fit_sweep(params) as Decoded,
    code: (params) => full().code(params),
  };
}

/** Instantiates a build's glue on the main thread, from the one compile the workers share. */
async function instantiate<T>(glue: Promise<T & { default(init: { module_or_path: WebAssembly.Module }): Promise<unknown> }>, module: Promise<WebAssembly.Module>): Promise<T> {
  const [exports, compiled] = await Promise.all([glue, module]);
  await exports.default({ module_or_path: compiled });
  return exports;
}

/** The codec from the counting build; the program from the program build, once that is released (engine/spawn.ts). */
export async function loadCodec(): Promise<Codec> {
  const codec = await instantiate(import("../../pkg-counts/buflab_counts.js"), engineModule("counts"));
  // The program build's glue is fetched only once its wasm is on its way.
  const program = engineModule("program");
  return codecFrom(codec, instantiate(program.then(() => import("../../pkg-program/buflab_program.js")), program));
}
