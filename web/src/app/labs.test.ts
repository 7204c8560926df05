// @vitest-environment happy-dom
// The lab registry: the read lab made with the page, the write lab's module
// loaded at once on a write-lab link (the read lab made only after it, so
// the page goes straight to the write lab) and on first use otherwise; and
// no lab is shown before it has arrived.

import { beforeEach, describe, expect, it, vi } from "vitest";
import type { LabContext, LabUi } from "../shared/lab";
import { startLaterParts } from "../shared/later";
import { createLabs, labOf } from "./labs";

const made = vi.hoisted(() => ({ order: [] as string[] }));
vi.mock("../labs/read", () => ({
  createReadLab: (context: unknown) => (made.order.push("read"), { id: "read", context }),
}));
vi.mock("../labs/write", () => ({
  createWriteLab: (context: unknown) => (made.order.push("write"), { id: "write", context }),
}));

// A part that never arrives fails its test within seconds (every part here arrives in milliseconds).
vi.setConfig({ testTimeout: 5_000, hookTimeout: 5_000 });

const context = { codec: {} } as unknown as LabContext;
const arrival = (later: (use: (lab: LabUi) => void, failed: (e: unknown) => void) => void) =>
  new Promise<LabUi>((resolve, reject) => later(resolve, reject));

beforeEach(() => {
  made.order = [];
});

describe("the labs", () => {
  it("on a write-lab link: the write lab at once, and the read lab made after it", async () => {
    // Before the later parts may load: the write lab's module comes at once all the same.
    const labs = createLabs(context, "write");
    const read = await arrival(labs.read);
    expect(made.order).toEqual(["write", "read"]);
    expect(read.id).toBe("read");
    expect(labOf(labs, "write").id).toBe("write");
  });

  it("on a read-lab link: the read lab at once, with the page's context; the write lab only once used, after the first numbers", async () => {
    const labs = createLabs(context, "read");
    const read = await arrival(labs.read);
    expect(read).toMatchObject({ id: "read", context });
    expect(labOf(labs, "read")).toBe(read);
    expect(() => labOf(labs, "write")).toThrow("The write lab is shown before its code has loaded.");
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(made.order).toEqual(["read"]);
    const write = arrival(labs.write);
    startLaterParts();
    expect(await write).toMatchObject({ id: "write", context });
    expect(labOf(labs, "write")).toBe(await write);
    expect(made.order).toEqual(["read", "write"]);
  });
});
