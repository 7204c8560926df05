// The page runs several builds of the engine (engine/spawn.ts): the counting
// build for the codec and the first numbers, the timing build of the link's
// workload for times, the program build for writing links and the write lab,
// the questions build for the quiz and a read lesson's choices.
// They must agree on everything they share, or the page would show one
// experiment's counts beside another's times. All are the real wasm.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { realCodec, realCountingEngine, realEngineFor, realProgramEngine, realQuestionsEngine, realTimingEngine, realTraceEngine } from "./real-engine";
import type { Decoded, LabReport, Params, Workload } from "./types.gen";

const counting = realCountingEngine();
const program = realProgramEngine();
const WORKLOADS = realCodec().schema.workloads.map((w) => w.id as Workload);

/** Links over every lab, reader and workload, with notices (bad values) among them. */
const LINKS = [
  "",
  "len=64K&chunk=1-7&cap=1&rs=3&rd=unbuffered,std,chained,tokio,futures&wl=fixed",
  "len=32K&chunk=poor&rd=std,chained&wl=lines",
  "len=32K&rd=std,chained,tokio&wl=frames&streams=4",
  "len=64K&rd=std,futures&wl=scan&pend=3",
  "len=32K&rd=std&sweep=cap,rs&from=64,1&to=1K,8",
  "len=16K&chunk=file&rd=unbuffered,std,chained&wl=to_end",
  "len=16K&chunk=good&rs=7&rd=std,tokio&wl=exact",
  "len=8K&chunk=3&rd=unbuffered,std,futures&wl=bytes",
  "lab=write&recs=512&icap=0&buf=1K&wf=cursor_vec,writer_vec,bytes_mut,mut_slice&wlen=64K&ws=16&wcap=8K&sink=poor",
  "cap=0&rs=banana&rd=nope&len=999T&wl=lines&view=timeline",
];

/** What a counts-stage report says, without the parts only timing fills in (times, the copy floor, the timer's step where it was measured). */
function counts(report: LabReport): unknown {
  if (report.lab === "write") {
    return { ...report, flavours: report.flavours.map(({ cpu_ns: _, ...rest }) => rest), sink: report.sink.map(({ cpu_ns: _, ...rest }) => rest), timer: null };
  }
  const { copy_ns: _, machine: __, ...rest } = report;
  return { ...rest, runs: report.runs.map(({ cpu_ns: _, timeline: __, cpu_x_copy: ___, ...run }) => run), timer: null };
}

/** The canonical fragment and params of `link`. */
function decoded(link: string): { fragment: string; params: Params } {
  return counting.decode_link(link) as { fragment: string; params: Params };
}

describe("the counting, timing and program builds", () => {
  it("agree with the generated schema: an empty link decodes to its defaults", () => {
    for (const build of [counting, program, realTimingEngine("fixed"), realQuestionsEngine()]) {
      expect((build.decode_link("") as { params: Params }).params).toEqual(realCodec().schema.defaults);
    }
  });

  it.each(LINKS)("decode %j alike, to a link the program build writes back the same", (link) => {
    const { params, fragment } = decoded(link);
    expect(decoded(link)).toEqual(program.decode_link(link));
    expect(decoded(link)).toEqual(realTimingEngine(params.workload).decode_link(link));
    expect(program.encode_link(params)).toBe(fragment);
  });

  it.each(["len=32K&cap=1K&b.cap=64K", "len=32K&cpa=16K", "len=32K&b.cpa=2K", "nothing=here"])(
    "leave %j, with a key that is not one of A's, to the program build: the counting build reads A's keys and defers the rest",
    (link) => {
      const first = counting.decode_link(link) as Decoded;
      const whole = program.decode_link(link) as Decoded;
      expect(first.deferred).toBe(link);
      expect(first.params).toEqual(whole.params);
      expect(first.compare).toBeUndefined();
      expect(whole.deferred).toBeUndefined();
      // What only the whole codec says: B, or the unknown key's notice.
      expect(whole.compare !== undefined || whole.notices.length > first.notices.length).toBe(true);
      expect(realCodec().decodeLink(link)).toEqual(whole);
    },
  );

  it.each(LINKS)("count %j alike in the counting build, the questions build and the build that times it: every count and digest (or the counting build refuses a lab the schema says it leaves out)", (link) => {
    const { fragment, params } = decoded(link);
    const b = realEngineFor(params).run(fragment, true, false) as LabReport;
    expect(b.stage).toBe("counts");
    if (realCodec().countsBuild(params.lab) === "program") {
      expect(() => counting.run(fragment, true, false)).toThrow(/lab: .*read lab only/);
      return;
    }
    const a = counting.run(fragment, true, false) as LabReport;
    expect(a.stage).toBe("counts");
    expect(counts(a)).toEqual(counts(b));
    // The quiz's and the lessons' answers are counted there: the numbers on screen.
    expect(counts(realQuestionsEngine().run(fragment, true, false) as LabReport)).toEqual(counts(a));
  });

  it.each(LINKS)("time %j from the counting build's counts as from its own run: the same counts, digests and timelines", (link) => {
    const { fragment, params } = decoded(link);
    const engine = realEngineFor(params);
    const whole = engine.run(fragment, false, true) as LabReport;
    // A write-lab link is counted by the program build in the same run: what it is given is not used.
    const known = params.lab === "write" ? {} : counting.run(fragment, true, false);
    const timed = engine.time_counted(fragment, true, known) as LabReport;
    expect(timed.stage).toBe("quick");
    expect(counts(timed)).toEqual(counts(whole));
    if (timed.lab === "read" && whole.lab === "read") {
      expect(timed.runs.map((r) => r.timeline)).toEqual(whole.runs.map((r) => r.timeline));
      expect(timed.runs.every((r) => r.cpu_ns.samples > 0)).toBe(true);
    }
  });

  it.each(WORKLOADS)("the %s timing build runs its workload and refuses every other before anything runs; the program build runs none", (workload) => {
    const engine = realTimingEngine(workload);
    for (const other of WORKLOADS) {
      const { fragment } = decoded(`len=4K&rd=unbuffered,std,chained,tokio,futures&wl=${other}`);
      if (other === workload) {
        expect((engine.run(fragment, false, true) as LabReport).stage).toBe("quick");
        expect(() => program.run(fragment, true, false)).toThrow(new RegExp(`wl: this build of the engine runs no read-lab workload, not ${other}`));
      } else {
        expect(() => engine.run(fragment, false, true)).toThrow(new RegExp(`wl: this build of the engine runs the workloads ${workload}, not ${other}`));
        expect(() => engine.time_counted(fragment, true, counting.run(fragment, true, false))).toThrow(/wl: /);
      }
    }
  });

  it("every timing build has the same glue, so the timing worker's one glue loads each of them", () => {
    const glue = (workload: Workload): string => readFileSync(new URL(`../../pkg-timing/${workload}/buflab_timing.js`, import.meta.url), "utf8");
    for (const workload of WORKLOADS) expect(glue(workload), workload).toBe(glue("fixed"));
  });

  it("time_counted refuses counts of other settings, and a report that is not counts", () => {
    const [a, b] = [LINKS[1], LINKS[2]].map((link) => decoded(link ?? "").fragment) as [string, string];
    const engine = realTimingEngine("fixed");
    expect(() => engine.time_counted(a, true, counting.run(b, true, false))).toThrow(/counts: the counts are of other settings/);
    expect(() => engine.time_counted(a, true, engine.run(a, false, true))).toThrow(/counts: only a counts report/);
  });

  it("the schema says which labs the counting build runs: the read lab, not the write lab (12 KB gzipped of it)", () => {
    expect(realCodec().countsBuild("read")).toBe("counts");
    expect(realCodec().countsBuild("write")).toBe("program");
  });

  it("run takes canonical links only: one the codec would correct is refused with its notice", () => {
    for (const build of [counting, program, realTimingEngine("fixed")]) {
      expect(() => build.run("len=16K&cap=0&rd=std", true, false)).toThrow(/link: cap: .*minimum/);
      expect(() => build.run("v=9&len=16K&rd=std", true, false)).toThrow(/link: v: link version/);
    }
  });

  it.each([
    ["counting", counting],
    ["questions", realQuestionsEngine()],
  ] as const)("the %s build refuses to time, and records no timeline", (_, build) => {
    const { fragment } = decoded("len=16K&rd=std");
    expect(() => build.run(fragment, false, true)).toThrow(/counts only/);
    expect(() => build.run(fragment, false, false)).toThrow(/counts only/);
    const report = build.run(fragment, true, false) as LabReport;
    if (report.lab !== "read") throw new Error("a read-lab link gave a write-lab report");
    expect(report.runs[0]!.timeline).toBeUndefined();
  });

  it("the timing build's counts carry the timeline the timeline view draws: std's 1-byte reads, one source read per drained buffer", () => {
    const { fragment } = decoded("len=16K&rd=std");
    const report = realTimingEngine("fixed").run(fragment, true, false) as LabReport;
    if (report.lab !== "read") throw new Error("a read-lab link gave a write-lab report");
    const timeline = report.runs[0]!.timeline!;
    expect({ ...timeline, ops: timeline.ops.length }).toEqual({ shape: "single", capacity: 8192, pool: report.params.pool, streams: 1, ops: 100, truncated: true, error: null });
    let buffered = 0;
    timeline.ops.forEach((op, i) => {
      expect({ kind: op.kind, requested: op.requested, returned: op.returned, at: op.at, copied: op.copied }, `op ${i}`).toEqual({ kind: "read", requested: 1, returned: 1, at: i, copied: 1 });
      expect(op.source_reads, `op ${i}: a source read exactly when the buffer has drained`).toBe(buffered === 0 ? 1 : 0);
      buffered += op.source_bytes - op.returned;
    });
    expect(timeline.ops[0]!.reads[0]!.requested).toBe(8192);
  });

  it("a short stream's timeline, traced to its end, adds up to the run's counts", () => {
    const { fragment } = decoded("len=1K&chunk=file&rs=16&rd=unbuffered,std,chained");
    const report = realTimingEngine("fixed").run(fragment, true, false) as LabReport;
    if (report.lab !== "read") throw new Error("a read-lab link gave a write-lab report");
    for (const run of report.runs) {
      const timeline = run.timeline!;
      const sum = (f: (op: (typeof timeline.ops)[number]) => number) => timeline.ops.reduce((total, op) => total + f(op), 0);
      expect(timeline.truncated, run.reader).toBe(false);
      expect(timeline.ops.length, run.reader).toBe(65);
      expect(sum((op) => op.returned), run.reader).toBe(1024);
      expect(sum((op) => op.source_reads), run.reader).toBe(run.source_reads);
      expect(sum((op) => op.copied), run.reader).toBe(run.bytes_copied);
      expect(timeline.ops.at(-1)!.returned, run.reader).toBe(0);
    }
    expect(report.runs.map((r) => [r.reader, r.timeline!.shape, r.timeline!.capacity])).toEqual([
      ["unbuffered", "unbuffered", 0],
      ["std", "single", 8192],
      ["chained", "blocks", 8192],
    ]);
  });

  it("each build has the exports its jobs need and none of the others' (the counting build carries no deserializer: crate/src/wasm.rs)", () => {
    const timing = realTimingEngine("fixed");
    const exports = (build: object, names: string[]) => names.filter((name) => name in build);
    const programOnly = ["code", "encode_link", "fit_sweep", "calibrate_opfs"];
    const timingOnly = ["sweep_point", "sweep_report", "sweep_total"];
    const comparisons = ["verdict", "time_ratio"];
    // The questions a room, a quiz link or a lesson asks: neither the first
    // numbers nor the first full measurement download them.
    const questions = ["quiz", "lesson_choices"];
    const all = [...programOnly, ...timingOnly, "time_counted", ...questions];
    expect(exports(counting, [...all, ...comparisons])).toEqual(comparisons);
    expect(exports(timing, all)).toEqual([...timingOnly, "time_counted"]);
    // The program build answers the write lab's lesson; every quiz is the questions build's.
    expect(exports(program, [...programOnly, "time_counted", ...questions])).toEqual([...programOnly, "time_counted", "lesson_choices"]);
    expect(exports(realQuestionsEngine(), all)).toEqual(questions);
    // Reading a whole result file (a deserializer of every report) is the
    // trace build's, which reads the files a person opens; the program
    // build, which a first change of a setting waits for, is without it.
    for (const build of [counting, timing, program, realQuestionsEngine()]) expect("pair_results" in build).toBe(false);
    expect("pair_results" in realTraceEngine()).toBe(true);
  });

  it("the counting build compares times by the engine's rule: only samples that separate decide, and the ratio is the range they support", () => {
    const stats = (min: number, max: number, samples = 5) => ({ min, median: (min + max) / 2, max, mad: 0, samples, batch: 1, outliers: 0 });
    const codec = realCodec();
    expect(codec.verdict(stats(1, 2), stats(3, 4))).toBe("faster");
    expect(codec.verdict(stats(3, 4), stats(1, 2))).toBe("slower");
    expect(codec.verdict(stats(1, 3), stats(2, 4))).toBe("same");
    expect(codec.verdict(stats(1, 2, 1), stats(3, 4))).toBe("same");
    expect(codec.timeRatio(stats(1, 2), stats(4, 8))).toEqual({ low: 2, median: 4, high: 8 });
    expect(codec.timeRatio(stats(1, 2, 1), stats(4, 8))).toBeNull();
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
  it.each(["../../pkg-counts/buflab_counts_bg.wasm", "../../pkg-program/buflab_program_bg.wasm", "../../pkg-timing/fixed/buflab_timing_bg.wasm", "../../pkg-timing/lines/buflab_timing_bg.wasm"])("%s keeps the engine's loops functions of their own", (path) => {
    expect(largestFunction(readFileSync(new URL(path, import.meta.url)))).toBeLessThan(32 * 1024);
  });
});
