// The page says what its numbers are: exact counts arrive before any timing,
// the status always describes the results on screen (never "Done" over
// results of other settings), and a heavy link shows its counts and its
// progress instead of old results under an old badge. Speed targets live in
// `npm run bench`; these tests check order and honesty, not speed.

import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { enter, settled, usePages } from "./browser";

const baseUrl = inject("baseUrl");

/** What the status bar and the results said, each time either changed. */
interface Seen {
  stage: string | undefined;
  activity: string | null | undefined;
  badge: string | null | undefined;
  stale: boolean;
  hash: string;
}

/** A run request the page sent to a worker: its stage and link, and the counts it carried (of which stage and link). */
interface Sent {
  stage: string;
  link: string;
  counted: { stage: string; link: string } | null;
}

declare global {
  interface Window {
    __seen: Seen[];
    __sent: Sent[];
  }
}

// Installed before the page's own scripts, so the first results are seen too.
const { open } = usePages({}, (context) =>
  context.addInitScript(() => {
    window.__sent = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: never[]) {
      const { type, job: m } = message as { type?: string; job?: { kind: string; stage: string; link: string; counted?: { stage: string; link: string } } };
      if (type === "job" && m?.kind === "run") window.__sent.push({ stage: m.stage, link: m.link, counted: m.counted ? { stage: m.counted.stage, link: m.counted.link } : null });
      return post.call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
    window.__seen = [];
    new MutationObserver(() => {
      const status = document.querySelector<HTMLElement>(".status");
      const results = document.getElementById("results");
      if (!status || !results) return;
      const seen: Seen = {
        stage: status.dataset["stage"],
        activity: status.querySelector(".activity")?.textContent,
        badge: status.querySelector(".badge")?.textContent,
        stale: results.classList.contains("stale"),
        hash: location.hash,
      };
      const last = window.__seen.at(-1);
      if (!last || (["stage", "activity", "badge", "stale", "hash"] as const).some((k) => last[k] !== seen[k])) window.__seen.push(seen);
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }),
);

const seen = (page: Page): Promise<Seen[]> => page.evaluate(() => window.__seen);
const rank = (stage: string | undefined): number => ["counts", "quick", "full"].indexOf(stage ?? "");

/** The stages the results took, for one link, in the order they were shown. */
function stagesOf(log: Seen[], hash: string): string[] {
  const stages = log.filter((s) => s.hash === hash && !s.stale && rank(s.stage) >= 0).map((s) => s.stage!);
  return stages.filter((s, i) => s !== stages[i - 1]);
}

function neverDoneOverStale(log: Seen[]): void {
  const lies = log.filter((s) => s.activity === "Done" && s.stale);
  expect(lies, "the status said Done over results of other settings").toEqual([]);
}

describe("counts first, and a status that describes what is shown", () => {
  it("a new page shows the exact counts first, then the full measurement (no quick estimate in between to delay it)", async () => {
    const page = await open(baseUrl);
    await settled(page);
    const log = await seen(page);
    const hash = new URL(page.url()).hash;
    expect(stagesOf(log, hash)).toEqual(["counts", "full"]);
    // While only counts were shown, the timing was announced as coming.
    expect(log.find((s) => s.stage === "counts" && s.hash === hash)?.activity).toBe("Exact counts; timing…");
    expect(log.find((s) => s.stage === "counts" && s.hash === hash)?.badge).toBe("exact counts, not timed yet");
    neverDoneOverStale(log);
    await page.close();
  });

  it("the timing worker is handed the counts of the settings it times, Measure again's too, and does not count them again", async () => {
    const page = await open(baseUrl);
    await settled(page);
    await enter(page, "Buffer capacity", "16K", "cap=16K");
    // Measure again after Done: new counts, and the timing of those (the full
    // report on screen was handed over once, the engine refused it, and the
    // old times stayed on screen under "Done").
    const before = await page.evaluate(() => window.__sent.length);
    await page.getByRole("button", { name: "Measure again" }).click();
    await page.waitForFunction((n) => window.__sent.length >= n + 2, before);
    await settled(page);
    await expect(page.locator("#notices .alert:not([hidden])").count()).resolves.toBe(0);
    const sent = await page.evaluate(() => window.__sent);
    const timed = sent.filter((m) => m.stage !== "counts");
    expect(timed.map((m) => m.stage)).toEqual(["full", "full", "full"]);
    for (const m of timed) expect(m.counted, m.link).toEqual({ stage: "counts", link: m.link });
    expect(sent.filter((m) => m.stage === "counts").every((m) => m.counted === null)).toBe(true);
    await page.close();
  });

  it("a changed setting shows its counts before any time, and never Done over the old results", async () => {
    const page = await open(baseUrl);
    await settled(page);
    await page.evaluate(() => {
      window.__seen = [];
    });
    await enter(page, "Buffer capacity", "16K", "cap=16K");
    const log = await seen(page);
    const hash = new URL(page.url()).hash;
    const stages = stagesOf(log, hash);
    expect(stages[0]).toBe("counts");
    expect(stages.at(-1)).toBe("full");
    neverDoneOverStale(log);
    // The old results, while still on screen, were labelled as such.
    for (const s of log.filter((x) => x.stale)) expect(s.badge ?? "").toMatch(/^earlier settings: /);
    await page.close();
  });

  it("a heavy link pasted into an open tab shows its counts and its progress, not old results under the old badge", async () => {
    const page = await open(baseUrl);
    await settled(page);
    const heavy = "#v=1&len=64M&chunk=worst&seed=42&cap=8K&rs=1&sys=150&rd=std&wl=fixed";
    await page.evaluate((h) => {
      window.__seen = [];
      location.hash = h;
    }, heavy);
    // Its exact counts arrive while the timing is still to come.
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>(".status")?.dataset["stage"] === "counts",
      undefined,
      { timeout: 30_000 },
    );
    await expect(page.locator(".status .activity").textContent()).resolves.toBe("Exact counts; timing…");
    const log = await seen(page);
    // Until then the old results were marked stale and said so, and the status never claimed Done.
    neverDoneOverStale(log);
    expect(log.filter((s) => s.stale).every((s) => s.activity !== "Done" && (s.badge ?? "").startsWith("earlier settings: "))).toBe(true);
    expect(log.some((s) => s.stale && s.activity === "Counting…")).toBe(true);
    // Its source reads are on screen before any timing ended.
    const reads = Number(await page.locator('table.results tbody tr[data-reader="std"] td[data-metric="source_reads"]').getAttribute("data-value"));
    expect(reads).toBeGreaterThan(100_000);
    await page.getByRole("button", { name: "Stop" }).click();
    await page.waitForFunction(() => document.getElementById("results")?.getAttribute("aria-busy") === "false");
    await page.close();
  });
});
