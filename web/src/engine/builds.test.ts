// The page runs two builds of the engine (engine/spawn.ts): the counting
// build for the codec and the first numbers, the full build for times. They
// must agree on everything the counting build does, or the page would show
// one experiment's counts beside another's times. Both are the real wasm.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { realCodec, realCountingEngine, realEngine } from "./real-engine";
import type { LabReport, Params } from "./types.gen";

const full = realEngine();
const counting = realCountingEngine();

/** Links over every lab, reader and workload, with notices (bad values) among them. */
const LINKS = [
  "",
  "len=64K&chunk=1-7&cap=1&rs=3&rd=unbuffered,std,chained,tokio,futures&wl=fixed",
  "len=32K&chunk=poor&rd=std,chained&wl=lines",
  "len=32K&rd=std,chained,tokio&wl=frames&streams=4",
  "len=64K&rd=std,futures&wl=scan&pend=3",
  "len=32K&rd=std&sweep=cap,rs&from=64,1&to=1K,8",
  "lab=write&recs=512&icap=0&buf=1K&wf=cursor_vec,writer_vec,bytes_mut,mut_slice&wlen=64K&ws=16&wcap=8K&sink=poor",
  "cap=0&rs=banana&rd=nope&len=999T&wl=lines&view=timeline",
];

/** What a counts-stage report says, without the parts only timing fills in. */
function counts(report: LabReport): unknown {
  if (report.lab === "write") {
    return { ...report, flavours: report.flavours.map(({ cpu_ns: _, ...rest }) => rest), sink: report.sink.map(({ cpu_ns: _, ...rest }) => rest), timer: null };
  }
  return { ...report, runs: report.runs.map(({ cpu_ns: _, timeline: __, ...rest }) => rest), timer: null };
}

describe("the counting build and the full build", () => {
  it("agree with the generated schema: an empty link decodes to its defaults", () => {
    for (const build of [counting, full]) {
      expect((build.decode_link("") as { params: Params }).params).toEqual(realCodec().schema.defaults);
    }
  });

  it.each(LINKS)("decode %j alike, to a link the full build writes back the same", (link) => {
    const decoded = counting.decode_link(link) as { params: Params; fragment: string };
    expect(decoded).toEqual(full.decode_link(link));
    expect(full.encode_link(decoded.params)).toBe(decoded.fragment);
  });

  it.each(LINKS)("count %j alike: every count and digest (or the counting build refuses a lab the schema says it leaves out)", (link) => {
    const { fragment, params } = full.decode_link(link) as { fragment: string; params: Params };
    const b = full.run(fragment, true, false) as LabReport;
    expect(b.stage).toBe("counts");
    if (realCodec().countsBuild(params.lab) === "full") {
      expect(() => counting.run(fragment, true, false)).toThrow(/lab: .*read lab only/);
      return;
    }
    const a = counting.run(fragment, true, false) as LabReport;
    expect(a.stage).toBe("counts");
    expect(counts(a)).toEqual(counts(b));
  });

  it.each(LINKS)("time %j from the counting build's counts as from its own run: the same counts, digests and timelines", (link) => {
    const { fragment, params } = full.decode_link(link) as { fragment: string; params: Params };
    const whole = full.run(fragment, false, true) as LabReport;
    // A write-lab link is counted by the full build in the same run: what it is given is not used.
    const known = params.lab === "write" ? {} : counting.run(fragment, true, false);
    const timed = full.time_counted(fragment, true, known) as LabReport;
    expect(timed.stage).toBe("quick");
    expect(counts(timed)).toEqual(counts(whole));
    if (timed.lab === "read" && whole.lab === "read") {
      expect(timed.runs.map((r) => r.timeline)).toEqual(whole.runs.map((r) => r.timeline));
      expect(timed.runs.every((r) => r.cpu_ns.samples > 0)).toBe(true);
    }
  });

  it("time_counted refuses counts of other settings, and a report that is not counts", () => {
    const [a, b] = [LINKS[1], LINKS[2]].map((link) => (full.decode_link(link ?? "") as { fragment: string }).fragment) as [string, string];
    expect(() => full.time_counted(a, true, counting.run(b, true, false))).toThrow(/counts: the counts are of other settings/);
    expect(() => full.time_counted(a, true, full.run(a, false, true))).toThrow(/counts: only a counts report/);
  });

  it("the schema says which labs the counting build runs: the read lab, not the write lab (12 KB gzipped of it)", () => {
    expect(realCodec().countsBuild("read")).toBe("counts");
    expect(realCodec().countsBuild("write")).toBe("full");
  });

  it("run takes canonical links only: one the codec would correct is refused with its notice", () => {
    for (const build of [counting, full]) {
      expect(() => build.run("len=16K&cap=0&rd=std", true, false)).toThrow(/link: cap: .*minimum/);
      expect(() => build.run("v=9&len=16K&rd=std", true, false)).toThrow(/link: v: link version/);
    }
  });

  it("the counting build refuses to time, and records no timeline", () => {
    const { fragment } = full.decode_link("len=16K&rd=std") as { fragment: string };
    expect(() => counting.run(fragment, false, true)).toThrow(/counts only/);
    expect(() => counting.run(fragment, false, false)).toThrow(/counts only/);
    const report = counting.run(fragment, true, false) as LabReport;
    expect(report.lab === "read" && report.runs[0]!.timeline).toBeFalsy();
    // The full build's counts carry the timeline the timeline view draws.
    const withTimeline = full.run(fragment, true, false) as LabReport;
    expect(withTimeline.lab === "read" && withTimeline.runs[0]!.timeline).toBeTruthy();
  });

  it("the counting build has none of the full build's other exports", () => {
    // Nothing in it takes params as an object, so it carries no deserializer (crate/src/wasm.rs).
    for (const name of ["code", "encode_link", "fit_sweep", "verdict", "time_ratio", "sweep_point", "sweep_report", "sweep_total", "calibrate_opfs"]) {
      expect(name in counting, name).toBe(false);
      expect(name in full, name).toBe(true);
    }
  });
});

/** An unsigned LEB128 number at `at`: its value and where the next field starts. */
function leb128(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
}

/** The size in bytes of the largest function body in a wasm module (its code section, id 10). */
function largestFunction(bytes: Uint8Array): number {
  for (let at = 8; at < bytes.length; ) {
    const id = bytes[at++]!;
    let size: number;
    [size, at] = leb128(bytes, at);
    if (id !== 10) {
      at += size;
      continue;
    }
    let count: number;
    [count, at] = leb128(bytes, at);
    let largest = 0;
    for (let i = 0; i < count; i++) {
      let body: number;
      [body, at] = leb128(bytes, at);
      largest = Math.max(largest, body);
      at += body;
    }
    return largest;
  }
  throw new Error("no code section");
}

describe("the wasm the page loads", () => {
  // wasm-opt's default inlines every function with one caller, whatever its
  // size: every timed loop (engine/timed.rs: one function per reader, chunk
  // kind and workload, as in the user's program) became one 500 KB function,
  // and the counted pass one of 48 KB (crate/Cargo.toml, package.json).
  it.each(["../../pkg/buflab_bg.wasm", "../../pkg-counts/buflab_counts_bg.wasm"])("%s keeps the engine's loops functions of their own", (path) => {
    expect(largestFunction(readFileSync(new URL(path, import.meta.url)))).toBeLessThan(32 * 1024);
  });
});
