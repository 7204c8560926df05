// The embed code: the charts on screen choose the ids, and nothing from a
// link can break out of the iframe's attributes.

import { describe, expect, it } from "vitest";
import { realCodec } from "../engine/real-engine";
import { attribute, embedCode, embedFor } from "./embed";

describe("embed code", () => {
  it("embeds the charts on screen: reads and time, the sweep, or the write lab", () => {
    const codec = realCodec();
    const read = codec.decodeLink("v=1&len=64K").params;
    expect(embedFor(read, "run")).toEqual(["reads", "time"]);
    expect(embedFor(read, "timeline")).toEqual(["reads", "time"]);
    const sweep = codec.decodeLink("v=1&len=64K&sweep=cap").params;
    expect(embedFor(sweep, "sweep")).toEqual(["sweep"]);
    expect(embedFor(codec.decodeLink("v=1&lab=write").params, "run")).toEqual(["write"]);
    // The link the code carries is the engine's canonical link with embed.
    expect(codec.encodeLink({ ...read, embed: embedFor(read, "run") })).toMatch(/&embed=reads,time$/);
  });

  it("escapes what goes into attributes", () => {
    expect(attribute(`a"b<c>&d`)).toBe("a&quot;b&lt;c&gt;&amp;d");
    const code = embedCode('https://x.example/#v=1&len=1M"><script>', "BufLab: reads");
    expect(code).not.toContain("<script>");
    expect(code).toMatch(/^<iframe src="https:\/\/x\.example\/#v=1&amp;len=1M&quot;&gt;&lt;script&gt;" width="640" height="360" /);
  });
});
