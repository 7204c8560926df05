import { describe, expect, it } from "vitest";
import { unreachableWhy } from "./reach";

describe("an address students can reach", () => {
  it("names this computer, a private network, a local name and a file, and lets a public address be", () => {
    expect(unreachableWhy("http://127.0.0.1:4173/handout.html")).toMatch(/this computer itself/);
    expect(unreachableWhy("http://localhost:5173/")).toMatch(/this computer itself/);
    expect(unreachableWhy("http://[::1]:5173/")).toMatch(/this computer itself/);
    expect(unreachableWhy("http://192.168.1.20:5173/")).toMatch(/private network/);
    expect(unreachableWhy("http://10.0.0.5/")).toMatch(/private network/);
    expect(unreachableWhy("http://172.20.1.1/")).toMatch(/private network/);
    expect(unreachableWhy("http://laptop.local/")).toMatch(/local name/);
    expect(unreachableWhy("file:///home/me/buflab/dist/handout.html")).toMatch(/file:/);
    expect(unreachableWhy("https://buflab.example.org/handout.html")).toBeNull();
    expect(unreachableWhy("http://172.32.0.1/")).toBeNull();
    expect(unreachableWhy("not a url")).toMatch(/not an address/);
  });
});
