// Result files and saved baselines into the comparison view (compare-files.ts):
// real exported results of real quick runs, real `File`s, and the engine's
// own pairing. Only engine/pair.ts, which pairs in a worker of the trace
// build, is stood in: by the trace build loaded here, the same
// `pair_results` (one test has its worker fail to load once).

import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { pairResults } from "../engine/pair";
import { realCodec, realQuickRun } from "../engine/real-engine";
import type { Comparison, LabReport, Report } from "../engine/types.gen";
import { compareFiles, compareSaved } from "./compare-files";
import type { Action } from "./state";

vi.mock("../engine/pair", async () => {
  const { realPairResults } = await import("../engine/real-engine");
  return { pairResults: vi.fn(async (a: string, b: string) => realPairResults(a, b)) };
});

const A = "v=1&len=64K&chunk=file&seed=42&cap=1K&rs=1&sys=150&rd=unbuffered,std&wl=fixed";
const B = "v=1&len=64K&chunk=file&seed=42&cap=64K&rs=1&sys=150&rd=unbuffered,std&wl=fixed";
/** The largest result the engine reads, as the page passes it (intents.ts). */
const maxBytes = realCodec().schema.compare.max_result_bytes;

/** A read-lab run of A's link and of B's. */
let reportA: Report;
let reportB: Report;
/** A result as the page's JSON export writes it. */
const exported = (report: LabReport): string => JSON.stringify({ link: report.link, exported_at: "2026-11-29T00:00:00Z", report });
const file = (text: string, name: string): File => new File([text], name, { type: "application/json" });

beforeAll(() => {
  reportA = realQuickRun(A) as Report;
  reportB = realQuickRun(B) as Report;
});

let dispatched: Action[];
beforeEach(() => {
  dispatched = [];
  vi.mocked(pairResults).mockClear();
});
const dispatch = (action: Action): void => void dispatched.push(action);
const options = (onScreen: LabReport | null) => ({ dispatch, onScreen: () => onScreen, maxBytes });

/** A comparison of A's experiment with B's: the two links, and cap the one setting that differs. */
const aWithB = (): Comparison =>
  expect.objectContaining({
    kind: "compare",
    link: `${A}&b.cap=64K`,
    a: expect.objectContaining({ link: A }),
    b: expect.objectContaining({ link: B }),
    changed: [expect.objectContaining({ key: "cap", a: "1K", b: "64K" })],
  }) as Comparison;

const NOT_JSON = "not a BufLab result: not JSON (expected ident at line 1 column 2)";
const CUT_SHORT = "the file ends early (line 1, column 40): it was cut short, copy or save it again";
const TOO_LARGE = `the file is ${maxBytes + 1} bytes, over the 32 MiB a result may have`;

describe("one result file", () => {
  it("is B against the timed result on screen as A", async () => {
    await compareFiles([file(exported(reportB), "b.json")], options(reportA));
    expect(dispatched).toEqual([{ type: "compareFile", file: "b.json", outcome: { kind: "paired", comparison: aWithB() } }]);
  });

  it("with no result on screen is refused, and nothing is paired", async () => {
    await compareFiles([file(exported(reportB), "b.json")], options(null));
    expect(dispatched).toEqual([
      { type: "compareFile", file: "b.json", outcome: { kind: "refused", message: "Measure A first: a result file is compared with the timed result on screen.", others: [] } },
    ]);
    expect(pairResults).not.toHaveBeenCalled();
  });

  it("that is not a result is refused with the engine's message, which names it B", async () => {
    await compareFiles([file("notes, not JSON", "notes.txt")], options(reportA));
    expect(dispatched).toEqual([{ type: "compareFile", file: "notes.txt", outcome: { kind: "refused", message: `B: ${NOT_JSON}`, others: [] } }]);
  });

  it("larger than the engine reads is refused by its size, read no further than one byte past the limit", async () => {
    const big = new File([new Uint8Array(maxBytes + (8 << 20))], "big.json");
    await compareFiles([big], options(reportA));
    expect(dispatched).toEqual([{ type: "compareFile", file: "big.json", outcome: { kind: "refused", message: `B: ${TOO_LARGE}`, others: [] } }]);
  });
});

describe("two result files", () => {
  it("are A and B, in the order opened", async () => {
    await compareFiles([file(exported(reportA), "a.json"), file(exported(reportB), "b.json")], options(null));
    expect(dispatched).toEqual([{ type: "compareFile", file: "b.json", fileA: "a.json", outcome: { kind: "paired", comparison: aWithB() } }]);
  });

  it("that cannot be paired: each refused file gets its own notice, the first opened leading", async () => {
    const cut = exported(reportB).slice(0, 40);
    await compareFiles([file("notes, not JSON", "notes.txt"), file(cut, "cut.json")], options(reportA));
    expect(dispatched).toEqual([
      { type: "compareFile", file: "notes.txt", outcome: { kind: "refused", message: NOT_JSON, others: [{ file: "cut.json", message: CUT_SHORT }] } },
    ]);
  });

  it("that cannot be paired for one of them: only that one is refused, whichever side it is", async () => {
    await compareFiles([file(exported(reportA), "a.json"), file("notes, not JSON", "notes.txt")], options(null));
    await compareFiles([file("notes, not JSON", "notes.txt"), file(exported(reportB), "b.json")], options(null));
    const notJson = { type: "compareFile", file: "notes.txt", outcome: { kind: "refused", message: NOT_JSON, others: [] } };
    expect(dispatched).toEqual([notJson, notJson]);
  });

  it("one larger than the engine reads is refused by its size", async () => {
    const big = new File([new Uint8Array(maxBytes + (8 << 20))], "big.json");
    await compareFiles([file(exported(reportA), "a.json"), big], options(null));
    expect(dispatched).toEqual([{ type: "compareFile", file: "big.json", outcome: { kind: "refused", message: TOO_LARGE, others: [] } }]);
  });

  it("each good alone but still not paired get the pair's message, both named", async () => {
    const failed = "The result reader did not load: its worker failed to load";
    vi.mocked(pairResults).mockRejectedValueOnce(new Error(failed));
    await compareFiles([file(exported(reportA), "a.json"), file(exported(reportB), "b.json")], options(null));
    expect(dispatched).toEqual([{ type: "compareFile", file: "a.json and b.json", outcome: { kind: "refused", message: failed, others: [] } }]);
  });
});

describe("other selections", () => {
  it("of no file opens nothing and says nothing", async () => {
    await compareFiles([], options(reportA));
    expect(dispatched).toEqual([]);
  });

  it("of three files or more opens none of them", async () => {
    const three = [file(exported(reportA), "a.json"), file(exported(reportB), "b.json"), file(exported(reportB), "c.json")];
    await compareFiles(three, options(reportA));
    expect(dispatched).toEqual([
      {
        type: "compareFile",
        file: "3 files",
        outcome: { kind: "refused", message: "Open one result file (B, against the result on screen) or two (A and B), not 3: nothing was opened.", others: [] },
      },
    ]);
    expect(pairResults).not.toHaveBeenCalled();
  });
});

describe("a saved baseline", () => {
  it("is A against the run on screen as B", async () => {
    await compareSaved("baseline 1", reportA, reportB, dispatch);
    expect(dispatched).toEqual([{ type: "compareFile", file: "the run on screen", fileA: "baseline 1", outcome: { kind: "paired", comparison: aWithB() } }]);
  });

  it("the engine will not read is refused, named by the baseline", async () => {
    const emptied = { ...reportA, runs: [] };
    await compareSaved("baseline 2", emptied, reportB, dispatch);
    expect(dispatched).toEqual([
      { type: "compareFile", file: "baseline 2", outcome: { kind: "refused", message: "A: its runs are not the readers its settings name" } },
    ]);
  });
});
