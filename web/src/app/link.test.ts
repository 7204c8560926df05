// Link handling against the real engine: the wasm builds `npm run wasm`
// makes, loaded here with initSync as the page loads them.

import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Codec } from "../engine/codec";
import { realCodec } from "../engine/real-engine";
import type { Params } from "../engine/types.gen";
import { fragmentOf, linkUrl } from "../shared/url";
import { openingLink, readLink, writeLink } from "./link";

let codec: Codec;

beforeAll(() => {
  codec = realCodec();
});

function keysOf(notices: { key: string }[]): string[] {
  return notices.map((n) => n.key);
}

describe("schema", () => {
  it("gives limits, defaults and choices the controls are built from", () => {
    const { schema } = codec;
    expect(schema.version).toBe(1);
    for (const key of ["len", "cap", "rs", "chunk", "sys", "seed"] as const) {
      expect(schema.limits[key].min).toBeLessThanOrEqual(schema.limits[key].max);
    }
    expect(schema.limits.seed.max).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    expect(schema.readers.map((r) => r.id)).toEqual(expect.arrayContaining(["unbuffered", "std"]));
    expect(schema.readers.every((r) => r.label.length > 0 && r.about.length > 0)).toBe(true);
    expect(schema.workloads.map((w) => w.id)).toContain("fixed");
    expect(schema.presets.map((p) => p.id)).toEqual(["good", "normal", "poor", "worst"]);
  });

  it("defaults are the page's opening experiment: 1 MiB read a byte at a time, unbuffered vs std", () => {
    const d = codec.schema.defaults;
    expect(d).toMatchObject({ len: 1 << 20, rs: 1, cap: 8192, readers: ["unbuffered", "std"] });
    expect(d.chunk).toEqual({ kind: "uniform", min: 64, max: 512 });
  });
});

describe("the streams and workload keys", () => {
  it("round-trip through the page's codec and appear only when not default", () => {
    const fragment =
      "v=1&len=256K&chunk=worst&seed=2&cap=1K&rs=1&sys=150&rd=std,chained&wl=frames&streams=8&pool=off&reuse=on&frame=1-128";
    const decoded = readLink(codec, `#${fragment}`);
    expect(decoded.notices).toEqual([]);
    expect(decoded.params).toMatchObject({ workload: "frames", streams: 8, pool: false, reuse: true, frame: { min: 1, max: 128 } });
    expect(codec.encodeLink(decoded.params)).toBe(fragment);
    expect(codec.encodeLink(codec.schema.defaults)).not.toMatch(/streams|pool|reuse|frame|line|nul/);
  });

  it("caps streams by stream length and buffer capacity, with a notice naming the key", () => {
    expect(codec.maxStreams(1 << 20, 8192)).toBe(64);
    expect(codec.maxStreams(1024, 4 << 20)).toBe(16);
    expect(codec.maxStreams(65536, 8192)).toBe(codec.schema.limits.streams.max);
    const decoded = readLink(codec, "#len=1M&streams=1000");
    expect(decoded.params.streams).toBe(64);
    expect(keysOf(decoded.notices)).toEqual(["streams"]);
    expect(decoded.notices[0]?.message).toContain(codec.formatSize(codec.schema.max_job_bytes));
  });
});

describe("reading a link", () => {
  it("an empty fragment gives the defaults and no notices", () => {
    const decoded = readLink(codec, "");
    expect(decoded.params).toEqual(codec.schema.defaults);
    expect(decoded.notices).toEqual([]);
    expect(decoded.fragment).toBe(codec.encodeLink(codec.schema.defaults));
  });

  it("a malformed link falls back to defaults with a notice naming each bad key", () => {
    const decoded = readLink(codec, "#v=1&cap=banana&len=-5");
    expect(decoded.params.cap).toBe(codec.schema.defaults.cap);
    expect(decoded.params.len).toBe(codec.schema.defaults.len);
    expect(keysOf(decoded.notices)).toEqual(expect.arrayContaining(["cap", "len"]));
    const cap = decoded.notices.find((n) => n.key === "cap");
    expect(cap?.message).toContain("banana");
    expect(cap?.message).toContain(codec.formatSize(codec.schema.defaults.cap));
  });

  it("out-of-range values are clamped to the schema's limits, with a notice", () => {
    const { limits } = codec.schema;
    const decoded = readLink(codec, "#v=1&len=1G&rs=0");
    expect(decoded.params.len).toBe(limits.len.max);
    expect(decoded.params.rs).toBe(limits.rs.min);
    expect(keysOf(decoded.notices)).toEqual(["len", "rs"]);
  });

  it("the design's example link reads without notices", () => {
    const decoded = readLink(codec, "#v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed");
    expect(decoded.notices).toEqual([]);
    expect(decoded.params).toEqual(codec.schema.defaults);
  });

  it("markup in a link comes back as plain text in the notice, never as anything else", () => {
    const decoded = readLink(codec, "#cap=%3Cimg%20src%3Dx%3E");
    expect(decoded.notices[0]?.key).toBe("cap");
    expect(decoded.notices[0]?.message).toContain("<img src=x>");
    expect(decoded.params.cap).toBe(codec.schema.defaults.cap);
  });
});

describe("writing a link", () => {
  const cases: [string, Partial<Params>][] = [
    ["defaults", {}],
    ["fixed chunks", { chunk: { kind: "fixed", size: 100 }, rs: 4096 }],
    ["file", { chunk: { kind: "file" }, cap: 65536 }],
    ["pipe", { chunk: { kind: "pipe" }, len: 64 << 20 }],
    ["custom range", { chunk: { kind: "uniform", min: 3, max: 1000 }, seed: 2 ** 53 - 1 }],
    ["one reader", { readers: ["std"], sys: 0 }],
  ];
  for (const [name, change] of cases) {
    it(`round-trips: ${name}`, () => {
      const params: Params = { ...codec.schema.defaults, ...change };
      const fragment = codec.encodeLink(params);
      expect(fragment.startsWith("#")).toBe(false);
      const decoded = codec.decodeLink(fragment);
      expect(decoded.notices).toEqual([]);
      expect(decoded.params).toEqual(params);
      expect(decoded.fragment).toBe(fragment);
    });
  }

  it("sizes read and write with binary suffixes", () => {
    expect(codec.parseSize("8K")).toBe(8192);
    expect(codec.parseSize(" 1M ")).toBe(1 << 20);
    expect(codec.parseSize("64")).toBe(64);
    expect(codec.parseSize("abc")).toBeUndefined();
    expect(codec.parseSize("")).toBeUndefined();
    expect(codec.formatSize(8192)).toBe("8K");
    expect(codec.formatSize(1536)).toBe("1536");
  });

  it("replaces the address only when the fragment changed, without a new history entry", () => {
    const calls: string[] = [];
    const history = { replaceState: (_d: unknown, _u: string, url?: string | URL | null) => calls.push(String(url)) };
    const location = { href: "http://127.0.0.1:4173/sub/#v=1&cap=8K", hash: "#v=1&cap=8K" };
    expect(writeLink(history, location, "v=1&cap=8K")).toBe(false);
    expect(writeLink(history, location, "v=1&cap=16K")).toBe(true);
    expect(calls).toEqual(["http://127.0.0.1:4173/sub/#v=1&cap=16K"]);
  });

  it("builds links on the page's own address", () => {
    expect(linkUrl("http://h/x/?q=1#old", "v=1")).toBe("http://h/x/?q=1#v=1");
    expect(linkUrl("http://h/", "v=1")).toBe("http://h/#v=1");
    expect(fragmentOf("#a=1")).toBe("a=1");
    expect(fragmentOf("a=1")).toBe("a=1");
  });
});

describe("the link a page opens with", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is the address's, unless its fragment names an element of the page", () => {
    // The page's own anchors (node has no DOM: a stand-in with one element, #results).
    vi.stubGlobal("document", { getElementById: (id: string) => (id === "results" ? {} : null) });
    expect(openingLink(codec, "#results")).toEqual(readLink(codec, ""));
    expect(openingLink(codec, "#results").params).toEqual(codec.schema.defaults);
    expect(codec.schema.defaults.len).not.toBe(64 << 10);
    expect(openingLink(codec, "#len=64K").params.len).toBe(64 << 10);
    expect(openingLink(codec, "").params).toEqual(codec.schema.defaults);
    // An in-page anchor is not an experiment: no notice about an unknown key either.
    expect(openingLink(codec, "#results").notices).toEqual([]);
    expect(readLink(codec, "#results").notices).not.toEqual([]);
  });
});
