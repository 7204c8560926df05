// Number formatting for the results. Counts are exact integers; times pick a
// unit so that three significant digits show.

/**
 * `n` rounded to an integer with thousands separators, as en-US writes it
 * (1048577 → "1,048,577"; what `Intl.NumberFormat("en-US",
 * { maximumFractionDigits: 0 })` writes, which the tests hold it to). Plain
 * string work: Intl's first use in a fresh tab loads its locale data, on the
 * first numbers' path.
 */
export function formatCount(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  if (!Number.isFinite(n)) return `${sign}∞`;
  // The shortest digits that read back as the number, padded with zeros
  // (what both print; from 1e21 on, toString writes an exponent instead).
  const shortest = Math.round(Math.abs(n)).toString();
  const exp = /^(\d)(?:\.(\d+))?e\+(\d+)$/.exec(shortest);
  const digits = exp ? exp[1]! + (exp[2] ?? "") + "0".repeat(Number(exp[3]) - (exp[2] ?? "").length) : shortest;
  return sign + digits.replace(/\B(?=(\d{3})+$)/g, ",");
}

/** A count and its noun, the noun plural unless the count is one (`plural(2, "read")` → "2 reads"). */
export const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;

const TIME_UNITS: [number, string][] = [
  [1e9, "s"],
  [1e6, "ms"],
  [1e3, "µs"],
  [1, "ns"],
];

/** The unit a time in ns reads best in. */
export function timeUnit(ns: number): { scale: number; unit: string } {
  const abs = Math.abs(ns);
  for (const [scale, unit] of TIME_UNITS) {
    if (abs >= scale) return { scale, unit };
  }
  return { scale: 1, unit: "ns" };
}

/** Three significant digits, e.g. 1234567 ns → "1.23 ms", 0 → "0 ns". */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return "–";
  if (ns === 0) return "0 ns";
  // Rounded before the unit is chosen: 999,990 ns is "1 ms", not "1000 µs".
  const rounded = Math.abs(ns) < 1e12 ? Number(ns.toPrecision(3)) : ns;
  const { scale, unit } = timeUnit(rounded);
  return `${formatSignificant(rounded / scale)} ${unit}`;
}

export function formatSignificant(value: number, digits = 3): string {
  const abs = Math.abs(value);
  if (abs >= 10 ** digits) return formatCount(value);
  const decimals = abs === 0 ? 0 : Math.max(0, digits - 1 - Math.floor(Math.log10(abs)));
  return value.toFixed(decimals);
}

/** "×123" style ratio, e.g. 100.4 → "100×", 2.345 → "2.3×". */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return "∞×";
  if (ratio >= 100) return `${formatCount(ratio)}×`;
  if (ratio >= 10) return `${ratio.toFixed(0)}×`;
  return `${ratio.toFixed(1)}×`;
}

/**
 * A ratio as a range the samples support: "40–60×", or one figure when both
 * ends print the same ("59×").
 */
export function formatRatioRange(low: number, high: number): string {
  const a = formatRatio(low);
  const b = formatRatio(high);
  return a === b ? a : `${a.slice(0, -1)}–${b}`;
}

/** Like formatNs, without trailing zeros: 5000 → "5 µs", 1500 → "1.5 µs". */
export function formatNsShort(ns: number): string {
  return formatNs(ns)
    .replace(/(\.\d*?)0+(?= )/, "$1")
    .replace(/\.(?= )/, "");
}

/** A byte count from the engine's size notation: "8K" → "8 KiB", "512" → "512 B". */
export function bytesLabel(size: string): string {
  const match = /^(\d+)([KMG])$/.exec(size);
  return match ? `${match[1]} ${match[2]}iB` : `${size} B`;
}

/** A byte range in the engine's size notation, sharing the unit when it can: "64–512 B", "1–4 KiB", "256 B–2 KiB". */
export function bytesRangeLabel(min: string, max: string): string {
  const a = bytesLabel(min);
  const b = bytesLabel(max);
  const unitA = a.split(" ")[1];
  const unitB = b.split(" ")[1];
  return unitA === unitB ? `${a.split(" ")[0]}–${b}` : `${a}–${b}`;
}

const BYTE_UNITS: [number, string][] = [
  [2 ** 30, "GiB"],
  [2 ** 20, "MiB"],
  [2 ** 10, "KiB"],
];

/** An approximate byte count for chart labels, three significant digits: 1048576 → "1.00 MiB", 8320 → "8.13 KiB", 0 → "0 B". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return "–";
  for (const [scale, unit] of BYTE_UNITS) {
    if (Math.abs(n) >= scale) return `${formatSignificant(n / scale)} ${unit}`;
  }
  return `${formatCount(n)} B`;
}

/**
 * A byte count in the largest binary unit that keeps it short and exact
 * where it can: 262144 → "256 KiB", 786432 → "768 KiB", 1048576 → "1 MiB",
 * 1572864 → "1.5 MiB", 100 → "100 B". For axes ticked at binary steps.
 */
export function formatBinaryBytes(n: number): string {
  if (!Number.isFinite(n)) return "–";
  for (const [scale, unit] of BYTE_UNITS) {
    if (Math.abs(n) >= scale) return `${+(n / scale).toFixed(2)} ${unit}`;
  }
  return `${formatCount(n)} B`;
}

/** A time range: "19.8–25.2 ms" when both ends share a unit, else "980 µs–1.02 ms". */
export function formatNsRange(min: number, max: number): string {
  const a = formatNs(min);
  const b = formatNs(max);
  const unitA = a.split(" ")[1];
  const unitB = b.split(" ")[1];
  return unitA === unitB ? `${a.split(" ")[0]}–${b}` : `${a}–${b}`;
}

/** What stands in for a time not yet measured: coming (`timing`), or not coming (stopped before it). */
export function untimedText(timing: boolean): string {
  return timing ? "timing…" : "not timed";
}

/** "a", "a and b", "a, b and c". */
export function listText(items: string[]): string {
  if (items.length < 2) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
