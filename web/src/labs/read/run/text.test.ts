// The sentences the page writes about a result, checked against the real
// engine's codec (sizes and presets come from it) and a real report shape.

import { beforeAll, describe, expect, it } from "vitest";
import { describeTimer, explainTimer } from "../../../app/status";
import type { Codec } from "../../../engine/codec";
import { realCodec } from "../../../engine/real-engine";
import type { Params, ReaderKind, Report, Run } from "../../../engine/types.gen";
import { oneTwoFiveSteps } from "../../../shared/fields/number";
import { summarize, summarizeMemory, summarizePolls } from "./headline";
import { describeParams } from "./table";

let codec: Codec;
beforeAll(() => {
  codec = realCodec();
});

const labels: Record<string, string> = { unbuffered: "unbuffered Read", std: "std BufReader", chained: "chained zero-copy" };
const labelOf = (id: string): string => labels[id] ?? id;
const buffered = (id: string): boolean => codec.schema.readers.find((r) => r.id === id)?.shape !== "unbuffered";

function run(reader: ReaderKind, source_reads: number, cpu: number, io: number): Run {
  return {
    reader,
    source_reads,
    app_reads: 1048577,
    bytes: 1048576,
    source_bytes: 1048576,
    bytes_copied: 0,
    allocations: 0,
    frees: 0,
    alloc_bytes: 0,
    peak_bytes: 0,
    reallocs: 0,
    digest: "x",
    cpu_ns: { min: cpu, median: cpu, max: cpu, mad: 0, samples: 5, batch: 1, outliers: 0 },
    modelled_io_ns: io,
  };
}

function report(runs: Run[]): Report {
  return {
    params: codec.schema.defaults,
    runs,
    timer: { resolution_ns: 5000, isolated: true, samples_lengthened: false },
    quick: false,
    stage: "full",
    source_digest: "x",
    link: "",
    lab: "read",
  };
}

describe("result sentences", () => {
  it("compares the reader with the fewest source reads against the one with the most", () => {
    const text = summarize(report([run("unbuffered", 1048577, 20e6, 157e6), run("std", 3641, 8e6, 0.5e6)]), labelOf, buffered, codec);
    expect(text).toBe(
      "std BufReader made 288× fewer source reads than unbuffered Read (3,641 vs 1,048,577) and took 21× less time per run with modelled I/O (8.50 ms vs 177 ms).",
    );
  });

  it("says when the buffer saves no system calls", () => {
    const text = summarize(report([run("unbuffered", 1025, 1e6, 0), run("std", 1025, 1e6, 0)]), labelOf, buffered, codec);
    expect(text).toContain("same number of source reads (1,025)");
    expect(text).toContain("the buffer saves no system calls");
  });

  it("never says the buffer saves nothing when every reader compared is buffered", () => {
    // A single run of std and chained over a poor network.
    const text = summarize(report([run("std", 3641, 1e6, 0), run("chained", 3641, 1e6, 0)]), labelOf, buffered, codec);
    expect(text).toBe(
      "std BufReader and chained zero-copy made the same number of source reads (3,641 for 1,048,577 application reads): at these settings neither buffer saves more system calls than the other.",
    );
    expect(text).not.toContain("saves no system calls");
  });

  it("counts the async readers as buffered: equal counts with std are not a buffer that saves nothing", () => {
    const text = summarize(report([run("std", 3641, 1e6, 0), run("tokio", 3641, 1e6, 0)]), labelOf, buffered, codec);
    expect(text).toBe(
      "std BufReader and tokio made the same number of source reads (3,641 for 1,048,577 application reads): at these settings neither buffer saves more system calls than the other.",
    );
  });

  it("counts the async readers' Pendings as polls, never as source reads", () => {
    const tokio = { ...run("tokio", 3641, 1e6, 0), polls: 1_050_384, pendings: 1807 };
    const futures = { ...run("futures", 3641, 1e6, 0), polls: 1_048_577, pendings: 0 };
    expect(summarizePolls(report([run("std", 3641, 1e6, 0), tokio, futures]), labelOf)).toBe(
      "Polls of the async readers' futures: tokio 1,050,384 (1,807 Pending); each Pending costs a poll, never a source read.",
    );
    expect(summarizePolls(report([run("std", 3641, 1e6, 0), futures]), labelOf)).toBe("");
    // Readers that waited alike are named together, in one short sentence (the async lesson's headline fits three lines).
    const alike = { ...tokio, reader: "futures" as const };
    expect(summarizePolls(report([run("std", 3641, 1e6, 0), tokio, alike]), labelOf)).toBe(
      "The async readers each polled 1,050,384 times, 1,807 of them Pending: a poll each, never a source read.",
    );
  });

  it("with three buffered readers alike, says none saves more than another", () => {
    const text = summarize(report([run("std", 3641, 1e6, 0), run("tokio", 3641, 1e6, 0), run("futures", 3641, 1e6, 0)]), labelOf, buffered, codec);
    expect(text).toBe(
      "std BufReader, tokio and futures made the same 3,641 source reads for 1,048,577 application reads: no buffer saves more system calls than another.",
    );
  });

  it("says when fewer reads still cost more time (the buffer's extra copy)", () => {
    const text = summarize(report([run("unbuffered", 20, 1e6, 0), run("std", 10, 3e6, 0)]), labelOf, buffered, codec);
    expect(text).toContain("but took 3.0× more time");
  });

  it("claims a time only from the full measurement, and only where the samples separate", () => {
    const counts = { ...report([run("unbuffered", 1048577, 0, 157e6), run("std", 3641, 0, 0.5e6)]), stage: "counts" as const };
    expect(summarize(counts, labelOf, buffered, codec)).toBe(
      "std BufReader made 288× fewer source reads than unbuffered Read (3,641 vs 1,048,577).",
    );
    const quick = { ...report([run("unbuffered", 1048577, 20e6, 157e6), run("std", 3641, 8e6, 0.5e6)]), stage: "quick" as const };
    expect(summarize(quick, labelOf, buffered, codec)).not.toContain("time");
    // 1.02× apart, spreads overlapping: the same within noise, not "slower".
    const spread = (r: Run, lo: number, hi: number): Run => ({ ...r, cpu_ns: { ...r.cpu_ns, min: lo, max: hi } });
    const close = report([spread(run("unbuffered", 20, 1.02e6, 0), 0.95e6, 1.1e6), spread(run("std", 10, 1e6, 0), 0.96e6, 1.08e6)]);
    expect(summarize(close, labelOf, buffered, codec)).toContain("in the same time per run with modelled I/O, within the noise");
  });

  it("never calls a time faster when the spreads overlap, however far apart the medians", () => {
    // Each median lies outside the other's spread, but the spreads overlap:
    // a rule that compared medians (or a median with the other's min or max)
    // would say "less time".
    const stats = (min: number, median: number, max: number): Run["cpu_ns"] => ({ min, median, max, mad: 0, samples: 5, batch: 1, outliers: 0 });
    const slow = { ...run("unbuffered", 1025, 0, 0), cpu_ns: stats(0.8e6, 1.3e6, 1.4e6) };
    const fast = { ...run("std", 10, 0, 0), cpu_ns: stats(0.1e6, 0.2e6, 1e6) };
    expect(fast.cpu_ns.median).toBeLessThan(slow.cpu_ns.min);
    expect(slow.cpu_ns.median).toBeGreaterThan(fast.cpu_ns.max);
    expect(codec.verdict(fast.cpu_ns, slow.cpu_ns)).toBe("same");
    expect(codec.verdict(slow.cpu_ns, fast.cpu_ns)).toBe("same");
    expect(summarize(report([slow, fast]), labelOf, buffered, codec)).toBe(
      "std BufReader made 103× fewer source reads than unbuffered Read (10 vs 1,025) in the same time per run with modelled I/O, within the noise of the samples (200 µs vs 1.30 ms).",
    );
  });

  it("gives a time ratio as the range the samples support", () => {
    // The headline's "59× less time" moved between 40× and 60× from load to
    // load: with spreads, it says the range every pair of samples falls in.
    const spread = (r: Run, lo: number, hi: number): Run => ({ ...r, cpu_ns: { ...r.cpu_ns, min: lo, max: hi } });
    const text = summarize(
      report([spread(run("unbuffered", 1048577, 20e6, 157e6), 18e6, 25e6), spread(run("std", 3641, 3e6, 0), 2.5e6, 4e6)]),
      labelOf,
      buffered,
      codec,
    );
    // (157 + 18) / 4 = 44 to (157 + 25) / 2.5 = 73.
    expect(text).toBe(
      "std BufReader made 288× fewer source reads than unbuffered Read (3,641 vs 1,048,577) and took 44–73× less time per run with modelled I/O (3.00 ms vs 177 ms).",
    );
    expect(codec.timeRatio(run("std", 1, 2, 0).cpu_ns, run("std", 1, 8, 0).cpu_ns)).toEqual({ low: 4, median: 4, high: 4 });
    expect(codec.timeRatio({ ...run("std", 1, 2, 0).cpu_ns, samples: 1 }, run("std", 1, 8, 0).cpu_ns)).toBeNull();
  });

  it("describes one reader alone", () => {
    expect(summarize(report([run("std", 3641, 1e6, 0)]), labelOf, buffered, codec)).toMatch(/^std BufReader made 3,641 source reads for 1,048,577 application reads/);
  });

  it("adds a sentence on memory when allocations differ a lot, and none when they do not", () => {
    const std = { ...run("std", 16251, 1e6, 0), allocations: 1918, bytes_copied: 1048576 };
    const chained = { ...run("chained", 16251, 1e6, 0), allocations: 3, bytes_copied: 0 };
    expect(summarizeMemory(report([std, chained]), labelOf)).toBe(
      "chained zero-copy made 3 allocations per run against 1,918 for std BufReader and copied 0 bytes against 1,048,576.",
    );
    expect(summarizeMemory(report([run("unbuffered", 1, 1, 0), { ...run("std", 1, 1, 0), allocations: 1 }]), labelOf)).toBe("");
  });

  it("names the workload, its settings, the pool and the streams in the caption when they apply", () => {
    const frames: Params = { ...codec.schema.defaults, workload: "frames", readers: ["std", "chained"], pool: false, streams: 16, len: 65536 };
    expect(describeParams(frames, codec)).toBe(
      "16 streams of 64 KiB read round-robin, length-prefixed frames, poor network, chunks of 64–512 B, payloads of 64 B–1 KiB, 8 KiB buffer, block pool off",
    );
    expect(describeParams({ ...codec.schema.defaults, workload: "scan", nul: 1 << 30 }, codec)).toContain("reads of 1 B, no NUL");
  });

  it("offers as sweep axes only the settings the experiment uses, by the settings strip's rule", () => {
    const offered = (p: Params): string[] => codec.schema.sweep_axes.filter((a) => codec.uses(p, a.key)).map((a) => a.id);
    const d = codec.schema.defaults;
    expect(offered(d)).toEqual(["cap", "rs", "chunk", "len", "streams", "rate"]);
    // Frames read headers and payloads, never `rs`: the strip hides read size, the sweep does not offer it.
    expect(offered({ ...d, workload: "frames" })).toEqual(["cap", "chunk", "len", "streams", "rate"]);
    // No reader with a buffer: no capacity.
    expect(offered({ ...d, readers: ["unbuffered"] })).toEqual(["rs", "chunk", "len", "streams", "rate"]);
    expect(codec.uses({ ...d, readers: ["unbuffered", "chained"] }, "pool")).toBe(true);
    expect(codec.uses({ ...d, readers: ["std"] }, "pool")).toBe(false);
  });

  it("describes the experiment in the table caption with binary units and the preset's name", () => {
    expect(describeParams(codec.schema.defaults, codec)).toBe(
      "1 MiB stream, poor network, chunks of 64–512 B, reads of 1 B, 8 KiB buffer",
    );
    expect(describeParams({ ...codec.schema.defaults, chunk: { kind: "fixed", size: 100 } }, codec)).toContain("chunks of 100 B");
  });

  it("states the timer, whether the worker was isolated, and whether its step lengthened the samples", () => {
    // `samples_lengthened` is the engine's rule (clock.rs), as the reports carry it.
    const fine = { resolution_ns: 5000, isolated: true, samples_lengthened: false };
    const coarseIsolated = { resolution_ns: 20000, isolated: true, samples_lengthened: true };
    expect(describeTimer(fine)).toBe("timer 5 µs, isolated");
    expect(describeTimer({ resolution_ns: 100000, isolated: false, samples_lengthened: true })).toBe("timer 100 µs, not isolated: samples lengthened");
    // While it measures, why that takes longer (Firefox's and WebKit's 1 ms step: 200 ms samples).
    expect(describeTimer({ resolution_ns: 1e6, isolated: false, samples_lengthened: true }, true)).toBe("timer 1 ms, not isolated: samples lengthened, so measuring takes longer");
    expect(describeTimer(fine, true)).toBe("timer 5 µs, isolated");
    // Isolated but coarse (Firefox's and WebKit's 20 µs: samples of 20 ms, not 5): said too, and why while measuring.
    expect(describeTimer(coarseIsolated)).toBe("timer 20 µs, isolated but coarse: samples lengthened");
    expect(describeTimer(coarseIsolated, true)).toBe("timer 20 µs, isolated but coarse: samples lengthened, so measuring takes longer");
    // The rule, not the step, decides: a step the engine does not lengthen for is not called coarse.
    expect(describeTimer({ resolution_ns: 20000, isolated: true, samples_lengthened: false }, true)).toBe("timer 20 µs, isolated");
    // Each is explained where it appears: the step, and what isolation is.
    expect(explainTimer(fine)).toMatch(/ticks in 5 µs steps\. Isolated: .*cross-origin isolated[^]*clock\.$/);
    expect(explainTimer(coarseIsolated)).toMatch(/ticks in 20 µs steps\. Isolated: .*still coarse, so BufLab lengthens each sample/);
    expect(explainTimer({ resolution_ns: 100000, isolated: false, samples_lengthened: true })).toMatch(/100 µs steps, because this page is not cross-origin isolated/);
  });

  it("offers 0 and 1-2-5 steps within the cost limits", () => {
    expect(oneTwoFiveSteps({ min: 0, max: 100 })).toEqual([0, 1, 2, 5, 10, 20, 50, 100]);
    const steps = oneTwoFiveSteps(codec.schema.limits.sys);
    expect(steps[0]).toBe(codec.schema.limits.sys.min);
    expect(steps.at(-1)).toBeLessThanOrEqual(codec.schema.limits.sys.max);
    expect(steps.every((v, i) => i === 0 || v > steps[i - 1]!)).toBe(true);
  });
});
