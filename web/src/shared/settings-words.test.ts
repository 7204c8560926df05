// The settings line of exports in words: labels from the schema's settings
// table, values with their units, only the settings the experiment uses,
// and no link key anywhere (the link beside it is the exact form). A
// setting's change between two runs in the same words.

import { describe, expect, it } from "vitest";
import schemaData from "../engine/schema.gen.json";
import type { Params, Schema } from "../engine/types.gen";
import { settingChange, settingsInWords } from "./settings-words";

const schema = schemaData as Schema;
const base: Params = schema.defaults;

describe("the settings in words", () => {
  it("says each setting the read lab uses by its label, with its value in words", () => {
    const params: Params = { ...base, len: 1 << 20, chunk: { kind: "uniform", min: 64, max: 512 }, cap: 8192, rs: 1, sys: 150, readers: ["unbuffered", "std"], workload: "fixed", seed: 42, streams: 1 };
    expect(settingsInWords(params)).toBe(
      "Buffer capacity: 8 KiB; Read size: 1 byte; Chunking: poor network, 64–512 bytes per read; Readers: unbuffered Read and std BufReader; " +
        "Stream length: 1 MiB; Seed: 42; Streams: 1; Workload: fixed-size reads; Cost per source read: 150 ns (modelled)",
    );
  });

  it("says the I/O model's cost per KiB, arrival rate and work where they are set, and a rate sweep per second", () => {
    const paced = settingsInWords({ ...base, rate: 32 << 20, work: 6400, sys_kib: 40 });
    expect(paced).toContain("Cost per KiB read: 40 ns (modelled); Arrival rate: 32 MiB per second; Work per piece received: 6,400 ns");
    expect(settingsInWords(base)).not.toMatch(/Arrival rate|Work per piece|Cost per KiB/);
    expect(settingChange("rate", base, { ...base, rate: 2 << 20 })).toBe("arrival rate off (each read gets one fresh piece) → 2 MiB per second");
    const swept = settingsInWords({ ...base, rate: 32 << 20, sweep: { axis: "cap", from: 512, to: 65536, across: { axis: "rate", from: 2 << 20, to: 32 << 20 } } });
    expect(swept).toMatch(/; Sweep: Buffer capacity from 512 bytes to 64 KiB, by Arrival rate from 2 MiB per second to 32 MiB per second$/);
  });

  it("leaves out what the experiment does not use and names what it does", () => {
    // Without a buffered reader there is no capacity; frames bring their payload lengths; the chained reader its pool.
    const frames = settingsInWords({ ...base, readers: ["unbuffered"], workload: "frames", frame: { min: 64, max: 1024 } });
    expect(frames).not.toContain("Buffer capacity");
    expect(frames).toContain("Payload lengths: 64–1 KiB");
    expect(frames).not.toContain("Block pool");
    expect(settingsInWords({ ...base, readers: ["chained"], pool: false })).toContain("Block pool: off");
    expect(settingsInWords({ ...base, chunk: { kind: "file" } })).toContain("Chunking: a regular file (every read in full)");
  });

  it("says the write lab's settings in its own labels, and a sweep's axis and range", () => {
    const write = settingsInWords({ ...base, lab: "write" });
    expect(write).toMatch(/^Cursors compared: Cursor<Vec<u8>>, .* and &mut \[u8\]; Records: 2,048; /);
    expect(write).toContain("Cost per sink write: ");
    expect(write).not.toContain("Read size");
    const swept = settingsInWords({ ...base, sweep: { axis: "cap", from: 16, to: 65536, across: { axis: "rs", from: 1, to: 8 } } });
    expect(swept).toMatch(/; Sweep: Buffer capacity from 16 bytes to 64 KiB, by Read size from 1 byte to 8 bytes$/);
  });

  it("writes no link key", () => {
    for (const lab of ["read", "write"] as const) {
      expect(settingsInWords({ ...base, lab })).not.toMatch(/\b(len|chunk|cap|rs|rd|wl|sys|wf|recs|icap|wlen|ws|wcap)=/);
    }
  });
});

describe("a setting's change in words", () => {
  it("says the setting by its label, lower-cased inside the sentence, and each side's value in words", () => {
    expect(settingChange("cap", { ...base, cap: 8192 }, { ...base, cap: 16384 })).toBe("buffer capacity 8 KiB → 16 KiB");
    expect(settingChange("rs", { ...base, rs: 1 }, { ...base, rs: 4096 })).toBe("read size 1 byte → 4 KiB");
    expect(settingChange("rd", { ...base, readers: ["unbuffered", "std"] }, { ...base, readers: ["std", "chained"] })).toBe(
      "readers unbuffered Read and std BufReader → std BufReader and chained zero-copy",
    );
    expect(settingChange("chunk", base, { ...base, chunk: { kind: "file" } })).toMatch(/^chunking .* per read → a regular file \(every read in full\)$/);
    // A label whose first word has capitals of its own keeps them.
    expect(settingChange("nul", { ...base, len: 4096, nul: 1000 }, { ...base, len: 4096, nul: 4096 })).toBe("NUL position at byte 1,000 → none (the whole stream is scanned)");
    expect(settingChange("wcap", { ...base, lab: "write" }, { ...base, lab: "write", write: { ...base.write, cap: 64 } })).toMatch(/^BufWriter capacity .* → 64 bytes$/);
  });

  it("says a sweep's change by its axes and ranges, whichever of its keys changed", () => {
    const swept: Params = { ...base, sweep: { axis: "cap", from: 16, to: 65536, across: { axis: "rs", from: 1, to: 8 } } };
    const said = "sweep none → buffer capacity from 16 bytes to 64 KiB, by read size from 1 byte to 8 bytes";
    for (const key of schema.sweep_keys) expect(settingChange(key, { ...base, sweep: null }, swept)).toBe(said);
  });

  it("has no words where it cannot tell", () => {
    // Display keys, the link's version, a key of another lab, an unknown key.
    for (const key of [...schema.display_keys, "v", "wcap", "zz", "constructor", "__proto__"]) {
      expect(settingChange(key, base, { ...base, cap: 1, present: true, view: "timeline" })).toBeNull();
    }
    // The same words on both sides; runs of two labs.
    expect(settingChange("cap", base, { ...base })).toBeNull();
    expect(settingChange("seed", base, { ...base, lab: "write", seed: 7 })).toBeNull();
  });
});
