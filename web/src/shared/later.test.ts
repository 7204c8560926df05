// The Later parts (later.ts): what the page hands a part before it has
// arrived runs in order once it has, and at once after that; a part the
// opening link needs loads without waiting for the first numbers. And the
// page is quiet for timed runs once its first numbers are painted, before
// the later parts (which wait for the first full measurement) load.

import { describe, expect, it, vi } from "vitest";
import { atOnce, onFirstUse, startLaterParts } from "./later";

/** Lets pending promise callbacks run. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe("Later parts", () => {
  it("atOnce loads at once; calls wait for the part in order, then run at once", async () => {
    const seen: string[] = [];
    let loads = 0;
    let arrive: (part: string) => void = () => undefined;
    const part = atOnce(() => {
      loads += 1;
      return new Promise<string>((resolve) => (arrive = resolve));
    });
    expect(loads).toBe(1);
    part((p) => seen.push(`${p} 1`));
    part((p) => seen.push(`${p} 2`));
    expect(part.now).toBeNull();
    expect(seen).toEqual([]);
    arrive("lab");
    await settle();
    expect(part.now).toBe("lab");
    expect(seen).toEqual(["lab 1", "lab 2"]);
    // Arrived, nothing waiting: the call runs before the caller goes on.
    part((p) => seen.push(`${p} 3`));
    expect(seen).toEqual(["lab 1", "lab 2", "lab 3"]);
    expect(loads).toBe(1);
  });

  it("a call made while earlier ones still wait runs after them", async () => {
    const seen: number[] = [];
    const part = atOnce(() => Promise.resolve("x"));
    part(() => seen.push(1));
    part(() => seen.push(2));
    // `now` may be set before the waiting calls have run; this one queues behind them.
    await Promise.resolve();
    part(() => seen.push(3));
    await settle();
    expect(seen).toEqual([1, 2, 3]);
  });

  it("the page is quiet after its load and first numbers, without the later parts; those wait for startLaterParts", async () => {
    vi.resetModules();
    const later = await import("./later");
    Object.assign(globalThis, {
      document: { readyState: "complete" },
      requestAnimationFrame: (fn: () => void) => setTimeout(fn, 0),
      requestIdleCallback: (fn: () => void) => setTimeout(fn, 0),
    });
    try {
      let quiet = false;
      void later.pageQuiet().then(() => (quiet = true));
      let loads = 0;
      const part = later.onFirstUse(() => Promise.resolve((loads += 1)));
      part(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(quiet).toBe(false);
      later.firstNumbersShown();
      await vi.waitFor(() => expect([quiet, loads]).toEqual([true, 0]));
      later.startLaterParts();
      await vi.waitFor(() => expect(loads).toBe(1));
    } finally {
      Reflect.deleteProperty(globalThis, "document");
      Reflect.deleteProperty(globalThis, "requestIdleCallback");
    }
  });

  it("afterPartsArrived waits for the release and for every part asked for by then", async () => {
    vi.resetModules();
    const later = await import("./later");
    Object.assign(globalThis, { requestAnimationFrame: (fn: () => void) => setTimeout(fn, 0) });
    let arrive: (value: string) => void = () => undefined;
    const part = later.onFirstUse(() => new Promise<string>((resolve) => (arrive = resolve)));
    part(() => undefined);
    let whole = false;
    void later.afterPartsArrived().then(() => (whole = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(whole).toBe(false);
    later.startLaterParts();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(whole).toBe(false);
    arrive("charts");
    await vi.waitFor(() => expect(whole).toBe(true));
  });

  it("onFirstUse loads only once the later parts may (startLaterParts) and the page has painted", async () => {
    // No frames in Node: afterPaint's 100 ms fallback, or this stand-in.
    Object.assign(globalThis, { requestAnimationFrame: (fn: () => void) => setTimeout(fn, 0) });
    let loads = 0;
    const part = onFirstUse(() => {
      loads += 1;
      return Promise.resolve("charts");
    });
    const seen: string[] = [];
    part((p) => seen.push(p));
    await settle();
    expect(loads).toBe(0);
    startLaterParts();
    await vi.waitFor(() => {
      expect(loads).toBe(1);
      expect(seen).toEqual(["charts"]);
    });
  });
});
