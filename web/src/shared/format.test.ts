import { describe, expect, it } from "vitest";
import { bytesLabel, bytesRangeLabel, formatBinaryBytes, formatBytes, formatCount, formatNs, formatNsShort, formatRatio, formatRatioRange, plural, timeUnit } from "./format";

describe("formatting", () => {
  it("writes counts exactly, with thousands separators", () => {
    expect(formatCount(1048577)).toBe("1,048,577");
    expect(formatCount(0)).toBe("0");
  });

  it("groups digits exactly as Intl.NumberFormat en-US does, without loading Intl on the first numbers' path", () => {
    const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
    const values = [0, -0, 1, 999, 1000, 1234.5, -1234.5, 2.5, -2.5, 0.4, -0.4, 2 ** 53, 1e21, 1e300, -1e300, NaN, Infinity, -Infinity];
    // Deterministic pseudo-random values of every magnitude, fractions and signs included.
    let x = 42;
    for (let i = 0; i < 2000; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      values.push(((x / 2 ** 31 - 0.3) * 10 ** (i % 22)) / (i % 3 === 0 ? 1 : 7));
    }
    for (const v of values) expect(formatCount(v), String(v)).toBe(intl.format(v));
  });

  it("writes times with three significant digits in a fitting unit", () => {
    expect(formatNs(0)).toBe("0 ns");
    expect(formatNs(12.34)).toBe("12.3 ns");
    expect(formatNs(5000)).toBe("5.00 µs");
    expect(formatNs(1234567)).toBe("1.23 ms");
    expect(formatNs(157_286_550)).toBe("157 ms");
    expect(formatNs(2.5e9)).toBe("2.50 s");
    expect(formatNs(Number.NaN)).toBe("–");
  });

  it("picks the unit from the magnitude", () => {
    expect(timeUnit(999)).toEqual({ scale: 1, unit: "ns" });
    expect(timeUnit(1000)).toEqual({ scale: 1e3, unit: "µs" });
    expect(timeUnit(3e7)).toEqual({ scale: 1e6, unit: "ms" });
  });

  it("writes approximate byte counts in binary units for chart labels", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1,023 B");
    expect(formatBytes(8320)).toBe("8.13 KiB");
    expect(formatBytes(1 << 20)).toBe("1.00 MiB");
    expect(formatBytes(132_341_824)).toBe("126 MiB");
    expect(formatBytes(3 * 2 ** 30)).toBe("3.00 GiB");
  });

  it("writes ratios briefly", () => {
    expect(formatRatio(100.4)).toBe("100×");
    expect(formatRatio(12.6)).toBe("13×");
    expect(formatRatio(2.345)).toBe("2.3×");
  });

  it("writes a ratio's range once per unit, and once when both ends print alike", () => {
    expect(formatRatioRange(40.2, 60.4)).toBe("40–60×");
    expect(formatRatioRange(2.7, 5.7)).toBe("2.7–5.7×");
    expect(formatRatioRange(8.5, 12.4)).toBe("8.5–12×");
    expect(formatRatioRange(58.7, 59.3)).toBe("59×");
  });

  it("drops only trailing decimal zeros in short times", () => {
    expect(formatNsShort(5000)).toBe("5 µs");
    expect(formatNsShort(100_000)).toBe("100 µs");
    expect(formatNsShort(1500)).toBe("1.5 µs");
    expect(formatNsShort(1234)).toBe("1.23 µs");
    // A step measured just under a unit's boundary reads in the larger unit (WebKit's 1 ms timer, measured as 999,990 ns).
    expect(formatNsShort(999_990)).toBe("1 ms");
    expect(formatNs(999_990)).toBe("1.00 ms");
    expect(formatNs(999.7)).toBe("1.00 µs");
  });

  it("names byte sizes with binary units", () => {
    expect(bytesLabel("8K")).toBe("8 KiB");
    expect(bytesLabel("1M")).toBe("1 MiB");
    expect(bytesLabel("512")).toBe("512 B");
  });

  it("writes byte ranges with one unit where both ends share it", () => {
    expect(bytesRangeLabel("64", "512")).toBe("64–512 B");
    expect(bytesRangeLabel("1K", "4K")).toBe("1–4 KiB");
    expect(bytesRangeLabel("256", "2K")).toBe("256 B–2 KiB");
  });
});

describe("binary byte labels", () => {
  it("are short and exact at binary steps", () => {
    expect([0, 100, 262144, 786432, 1048576, 1572864].map(formatBinaryBytes)).toEqual(["0 B", "100 B", "256 KiB", "768 KiB", "1 MiB", "1.5 MiB"]);
  });

  it("writes a count with its noun, plural unless the count is one", () => {
    expect([plural(1, "read"), plural(0, "read"), plural(2, "source read"), plural(1048577, "byte")]).toEqual(["1 read", "0 reads", "2 source reads", "1,048,577 bytes"]);
  });
});
