// Comparisons in the real page: a link with `b.` keys shows A and B side by
// side with a verdict, measured in alternating rounds in the timing worker;
// an A/A link says "same within noise"; a malformed result file gets a
// notice and loses nothing; a mistyped key gets a notice naming the nearest
// known key. Short streams keep each comparison quick.

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { downloaded, metric, pngSize, settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");
const { open } = usePages({ acceptDownloads: true });

/** Waits for the comparison's table (its rounds done), and returns its rows as {metric, reader, a, b, outcome}. */
async function compared(page: Page): Promise<{ metric: string; reader: string; a: string; b: string; outcome: string }[]> {
  // Done (its table) or failed: a failure's words make the test's message.
  await page.waitForFunction(
    () => document.querySelector("#compare .compare-table tbody tr") !== null || /failed|stopped/.test(document.querySelector("#compare .compare-status")?.textContent ?? ""),
    undefined,
    { timeout: 90_000 },
  );
  expect(await page.locator("#compare .compare-status").count(), (await page.locator("#compare").textContent()) ?? "").toBe(0);
  return page.$$eval("#compare .compare-table tbody tr", (rows) =>
    rows.map((tr) => ({
      metric: tr.getAttribute("data-metric") ?? "",
      reader: tr.querySelector("th")?.firstChild?.textContent ?? "",
      a: tr.querySelector("td.a")?.firstChild?.textContent ?? "",
      b: tr.querySelector("td.b")?.firstChild?.textContent ?? "",
      outcome: tr.getAttribute("data-outcome") ?? "",
    })),
  );
}

describe("compare", () => {
  it("a b. link shows A and B side by side with exact counts and a verdict, and keeps its link", async () => {
    const page = await open(`${baseUrl}#v=1&len=64K&chunk=file&rs=1&rd=std&cap=1K&b.cap=64K`);
    await settled(page);
    const rows = await compared(page);
    const reads = rows.find((r) => r.metric === "source_reads");
    expect(reads).toBeDefined();
    // A is the settings on screen: its count is the one the single run shows.
    expect(Number(reads!.a.replace(/\D/g, ""))).toBe(await metric(page, "std", "source_reads"));
    // A larger buffer makes fewer source reads: an exact count, so a real difference.
    expect(Number(reads!.b.replace(/\D/g, ""))).toBeLessThan(Number(reads!.a.replace(/\D/g, "")));
    expect(reads!.outcome).toBe("less");
    await expect.poll(() => page.locator("#compare .compare-changed").textContent()).toContain("cap 1K → 64K");
    const verdicts = await page.locator("#compare .compare-verdicts li").allTextContents();
    expect(verdicts.length).toBe(1);
    expect(verdicts[0]).toMatch(/faster|slower|same within noise/);
    // Every spread says what it is.
    const spreads = await page.locator("#compare .spread").allTextContents();
    expect(spreads.length).toBeGreaterThan(0);
    for (const s of spreads) expect(s).toMatch(/^(MAD|min–max|CI|sample range) /);
    expect(await page.evaluate(() => location.hash)).toContain("b.cap=64K");

    // The charts pair A and B: one figure per metric, A's bar above B's on one scale, named by their settings.
    const legend = (await page.locator("#compare .pair-legend").textContent()) ?? "";
    expect(legend).toContain("A: cap 1K");
    expect(legend).toContain("B: cap 64K");
    expect(await page.locator("#compare figure.pair-chart").evaluateAll((f) => f.map((x) => x.getAttribute("data-metric")))).toEqual([
      "source_reads",
      "cpu_median_ns",
      "bytes_copied",
      "allocations",
    ]);
    const barWidth = (metric: string, side: "a" | "b") => page.locator(`#compare figure[data-metric="${metric}"] .pair-row[data-side="${side}"] .pair-bar`).evaluate((e) => e.getBoundingClientRect().width);
    const trackWidth = await page.locator('#compare figure[data-metric="source_reads"] .pair-track').first().evaluate((e) => e.getBoundingClientRect().width);
    // One (log) scale: A's count (the larger) fills the track; B's bar is as much shorter as its count's log is smaller.
    const [barA, barB] = [await barWidth("source_reads", "a"), await barWidth("source_reads", "b")];
    expect(barA).toBeCloseTo(trackWidth, 0);
    const [countA, countB] = [Number(reads!.a.replace(/\D/g, "")), Number(reads!.b.replace(/\D/g, ""))];
    expect(barB).toBeLessThan(barA);
    expect(Math.abs(barB - (trackWidth * Math.log1p(countB)) / Math.log1p(countA))).toBeLessThan(2);
    expect(await page.locator('#compare figure[data-metric="source_reads"] .pair-outcome').textContent()).toBe("less");
    // A time bar shows its spread as a whisker and says what it is; its words are the table's (the engine's).
    const time = page.locator('#compare figure[data-metric="cpu_median_ns"]');
    expect(await time.locator(".pair-whisker").count()).toBe(2);
    for (const s of await time.locator(".spread").allTextContents()) expect(s).toMatch(/^MAD ± /);
    const cpuRow = rows.find((r) => r.metric === "cpu_median_ns")!;
    const words = { faster: "B faster", slower: "B slower", same: "same within noise" } as Record<string, string>;
    expect(await time.locator(".pair-outcome").textContent()).toBe(words[cpuRow.outcome]);
  });

  it("fits a 390 px phone and a 1280 px screen: the page never scrolls sideways (docs/compare-*.png)", async () => {
    for (const [width, height] of [
      [1280, 720],
      [390, 844],
    ] as const) {
      const page = await open(`${baseUrl}#v=1&len=64K&chunk=poor&rd=unbuffered,std&cap=1K&b.cap=64K`, width, height);
      await compared(page);
      await settled(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
      await page.locator("#compare").scrollIntoViewIfNeeded();
      await page.locator("#compare").screenshot({ path: shot(`compare-${width}.png`) });
      await page.close();
    }
  });

  it("an A/A link says same within noise", async () => {
    const page = await open(`${baseUrl}#v=1&len=64K&chunk=poor&rd=std&b.v=1`);
    const rows = await compared(page);
    await expect.poll(() => page.locator("#compare .compare-changed").textContent()).toContain("A/A");
    // Counts of one experiment tie; its time is the same within noise.
    for (const r of rows.filter((r) => r.metric !== "cpu_median_ns" && r.metric !== "modelled_total_ns")) expect(r.outcome, r.metric).toMatch(/tie|not_compared/);
    expect(rows.find((r) => r.metric === "cpu_median_ns")?.outcome).toBe("same");
    expect((await page.locator("#compare .compare-verdicts li").allTextContents()).join(" ")).toContain("same within noise");
  });

  it("the Compare control makes B from the settings on screen, and its link reproduces it", async () => {
    const page = await open(`${baseUrl}#v=1&len=64K&chunk=poor&rd=std&cap=1K`);
    await settled(page);
    await page.locator("#compare-key").selectOption("cap");
    await page.locator("#compare-value").fill("16K");
    await page.locator("#compare-b").click();
    await compared(page);
    expect(await page.evaluate(() => location.hash)).toContain("b.cap=16K");
    // A bad B value is validated as any link's: a notice names b.cap, and A is kept.
    await page.locator("#compare-value").fill("banana");
    await page.locator("#compare-b").click();
    await page.locator('.notice[data-key="b.cap"]').waitFor();
    expect(await page.evaluate(() => location.hash)).toContain("cap=1K");
  });

  it("a malformed result file gets a notice and loses nothing", async () => {
    const page = await open(`${baseUrl}#v=1&len=64K&chunk=poor&rd=std`);
    await settled(page);
    const before = await page.evaluate(() => location.hash);
    const reads = await metric(page, "std", "source_reads");
    for (const [name, text] of [
      ["cut.json", '{"kind":"read","runs":[{"reader":"std"'],
      ["other.json", '{"hello":"world"}'],
      ["text.json", "not json at all <script>alert(1)</script>"],
    ] as const) {
      await page.locator("#compare-file").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
      const notice = page.locator(`.notice.file[data-key="${name}"]`);
      await notice.waitFor();
      expect((await notice.textContent())?.length).toBeGreaterThan(20);
    }
    // Nothing was lost: the same settings, the same result, no comparison, no markup run.
    expect(await page.evaluate(() => location.hash)).toBe(before);
    expect(await metric(page, "std", "source_reads")).toBe(reads);
    expect(await page.locator("#compare .compare-table").count()).toBe(0);
    expect(await page.locator(".notice script").count()).toBe(0);
  });

  it("a result file exported from this page opens as B beside the result on screen, with both machines named", async () => {
    const page = await open(`${baseUrl}#v=1&len=64K&chunk=poor&rd=std`);
    await settled(page);
    // The page's own JSON export: the file a colleague's browser would send.
    const { bytes } = await downloaded(page, "#export-json");
    await page.locator("#compare-file").setInputFiles({ name: "theirs.json", mimeType: "application/json", buffer: bytes });
    const rows = await compared(page);
    expect(rows.find((r) => r.metric === "source_reads")?.outcome).toBe("tie");
    await expect.poll(() => page.locator("#compare .compare-machines").textContent()).toMatch(/A measured on .*; B on /);
  });

  it("two result files picked together open as A and B side by side, each named", async () => {
    const exported = async (link: string): Promise<Buffer> => {
      const page = await open(`${baseUrl}#${link}`);
      await settled(page);
      const { bytes } = await downloaded(page, "#export-json");
      await page.close();
      return bytes;
    };
    const mine = await exported("v=1&len=64K&chunk=file&rs=1&rd=std&cap=1K");
    const theirs = await exported("v=1&len=64K&chunk=file&rs=1&rd=std&cap=64K");
    const page = await open(`${baseUrl}#v=1&len=64K&chunk=poor&rd=unbuffered`);
    await settled(page);
    await page.locator("#compare-file").setInputFiles([
      { name: "mine.json", mimeType: "application/json", buffer: mine },
      { name: "theirs.json", mimeType: "application/json", buffer: theirs },
    ]);
    const rows = await compared(page);
    expect(await page.locator("#compare .compare-title").textContent()).toBe("A: mine.json · B: theirs.json");
    // A is the first file, not the result on screen (which runs the unbuffered reader only).
    expect(new Set(rows.map((r) => r.reader))).toEqual(new Set(["std BufReader"]));
    expect(rows.find((r) => r.metric === "source_reads")?.outcome).toBe("less");
    const legend = (await page.locator("#compare .pair-legend").textContent()) ?? "";
    expect(legend).toContain("A: mine.json");
    expect(legend).toContain("B: theirs.json");
    await expect.poll(() => page.locator("#compare .compare-machines").textContent()).toMatch(/A measured on .*; B on /);
  });

  it("files dropped on the page: each bad one gets its own notice (garbage, a huge file, too many), the page stays and nothing changes", async () => {
    const page = await open(`${baseUrl}#v=1&len=64K&chunk=poor&rd=std`);
    await settled(page);
    const before = await page.evaluate(() => location.href);
    const reads = await metric(page, "std", "source_reads");
    /** Drops files made in the page (sizes in bytes, filled with garbage) on the results, as a person's drag would. */
    const drop = (files: { name: string; bytes: number }[]) =>
      page.evaluate((files) => {
        const data = new DataTransfer();
        for (const f of files) {
          const bytes = new Uint8Array(f.bytes);
          for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i * 7919) & 0xff;
          bytes.set(new TextEncoder().encode('{"link":"v=1", <b>bold</b>').subarray(0, bytes.length));
          data.items.add(new File([bytes], f.name, { type: "application/json" }));
        }
        const target = document.getElementById("results") ?? document.body;
        const over = new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true });
        target.dispatchEvent(over);
        const dropped = new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true });
        target.dispatchEvent(dropped);
        // Both cancelled: the browser neither shows a no-drop cursor nor opens the file in the page's place.
        return over.defaultPrevented && dropped.defaultPrevented;
      }, files);
    expect(await drop([
      { name: "garbage.json", bytes: 5000 },
      { name: "huge.json", bytes: (32 << 20) + 4096 },
    ])).toBe(true);
    const garbage = page.locator('.notice.file[data-key="garbage.json"]');
    const huge = page.locator('.notice.file[data-key="huge.json"]');
    await garbage.waitFor({ timeout: 30_000 });
    await huge.waitFor({ timeout: 30_000 });
    expect((await garbage.textContent())?.length).toBeGreaterThan(20);
    expect(await huge.textContent()).toMatch(/MiB|MB|bytes|large/i);
    expect(await page.locator(".notice b").count()).toBe(0);
    await drop([
      { name: "one.json", bytes: 10 },
      { name: "two.json", bytes: 10 },
      { name: "three.json", bytes: 10 },
    ]);
    await page.locator('.notice.file[data-key="3 files"]').waitFor();
    // The last selection's notices replaced the earlier ones; the page, its link and its result are as they were.
    expect(await garbage.count()).toBe(0);
    expect(await page.evaluate(() => location.href)).toBe(before);
    expect(await metric(page, "std", "source_reads")).toBe(reads);
    expect(await page.locator("#compare .compare-table").count()).toBe(0);
  });

  it("a result file made by `buflab --json` opens as B beside the page's, with both machines named and the counts agreeing", async () => {
    const link = "v=1&len=64K&chunk=poor&rs=1&rd=unbuffered,std";
    // The CLI's own JSON, made here: `npm test` names the CLI it built (BUFLAB_CLI); else cargo builds it.
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const args = ["--quick", "--json", link];
    const [command, commandArgs] = process.env.BUFLAB_CLI ? [process.env.BUFLAB_CLI, args] : ["cargo", ["run", "-q", "-p", "buflab", "--", ...args]];
    const native = execFileSync(command, commandArgs, { cwd: root, encoding: "utf8", maxBuffer: 16 << 20 });
    const cli = JSON.parse(native) as { machine: { kind: string }; runs: { reader: string; source_reads: number }[] };
    expect(cli.machine.kind).toBe("native");

    const page = await open(`${baseUrl}#${link}`);
    await settled(page);
    await page.locator("#compare-file").setInputFiles({ name: "native.json", mimeType: "application/json", buffer: Buffer.from(native) });
    const rows = await compared(page);
    // The same experiment: every count agrees with the CLI's, and with the page's own.
    const reads = rows.filter((r) => r.metric === "source_reads");
    expect(reads.map((r) => r.outcome)).toEqual(["tie", "tie"]);
    for (const run of cli.runs) {
      const shown = reads.find((r) => r.reader.startsWith(run.reader));
      expect(Number(shown?.b.replace(/\D/g, "")), run.reader).toBe(run.source_reads);
      expect(await metric(page, run.reader, "source_reads"), run.reader).toBe(run.source_reads);
    }
    const machines = (await page.locator("#compare .compare-machines").textContent()) ?? "";
    expect(machines).toMatch(/^A measured on .*Mozilla.*; B on .*(Linux|linux|native)/);
    expect(await page.locator("#compare .compare-title").textContent()).toContain("native.json");
  });

  it("while comparing, the exports carry both links: CSV and Markdown are the comparison's table, JSON adds it, a chart's PNG names B", async () => {
    const page = await open(`${baseUrl}#v=1&len=64K&chunk=file&rs=1&rd=std&cap=1K`);
    await settled(page);
    // A chart's PNG alone, and the room its caption takes below the chart (the image is twice the chart's size).
    const captionOf = async (): Promise<number> => {
      const shown = await page.locator("#charts figure.chart canvas").first().evaluate((c) => c.clientHeight);
      return pngSize((await downloaded(page, "#export-png-0")).bytes).height - 2 * shown;
    };
    await page.locator(".export-pngs button").first().waitFor({ state: "attached" });
    const alone = await captionOf();
    await page.locator("#compare-key").selectOption("cap");
    await page.locator("#compare-value").fill("64K");
    await page.locator("#compare-b").click();
    const rows = await compared(page);
    const both = await page.evaluate(() => location.href);
    expect(both).toContain("b.cap=64K");

    const csv = (await downloaded(page, "#export-csv")).bytes.toString("utf8");
    const lines = csv.trim().split("\r\n");
    expect(lines).toContain(`# link: ${both}`);
    expect(lines.find((l) => l.startsWith("# link A: "))).toMatch(/cap=1K/);
    expect(lines.find((l) => l.startsWith("# link B: "))).toMatch(/cap=64K/);
    const table = lines.filter((l) => !l.startsWith("# "));
    expect(table[0]).toMatch(/^reader_a,reader_b,metric,a,b,difference,ratio,outcome,/);
    const reads = table.find((l) => l.startsWith("std,std,source_reads,"))!.split(",");
    const shownReads = rows.find((r) => r.metric === "source_reads")!;
    expect([reads[3], reads[4], reads[7]]).toEqual([shownReads.a.replace(/\D/g, ""), shownReads.b.replace(/\D/g, ""), "less"]);

    const md = (await downloaded(page, "#export-md")).bytes.toString("utf8");
    expect(md).toContain(`<${both}>`);
    expect(md).toContain("cap 1K → 64K");
    expect(md).toContain("| Reader | Metric | A | B | B − A | B ÷ A | Says |");

    const json = JSON.parse((await downloaded(page, "#export-json")).bytes.toString("utf8")) as {
      report: { link: string };
      compared: { link: string; a_link: string; b_link: string; comparison: { kind: string } };
    };
    expect(json.compared.link).toBe(both);
    expect(json.compared.b_link).toMatch(/cap=64K/);
    expect(json.compared.comparison.kind).toBe("compare");
    expect(json.report.link).toMatch(/cap=1K/);
    // The chart is A's: its PNG has one line more under it, naming the comparison's link.
    expect(await captionOf()).toBe(alone + 2 * 15);
  });

  it("a b. link with a sweep shows both sweeps on the sweep view's charts and the knee of each, as `buflab` finds them for A and B alone", async () => {
    const a = "v=1&len=4K&chunk=512&rs=1&rd=std&sweep=cap&from=16&to=2K";
    // The CLI's own sweeps of A and of B, each alone (`npm test` names the CLI it built: BUFLAB_CLI; else cargo builds it).
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const native = (link: string): { reader: string; metric: string; value: number }[] => {
      const args = ["--counts", "--json", link];
      const [command, commandArgs] = process.env.BUFLAB_CLI ? [process.env.BUFLAB_CLI, args] : ["cargo", ["run", "-q", "-p", "buflab", "--", ...args]];
      return (JSON.parse(execFileSync(command, commandArgs, { cwd: root, encoding: "utf8", maxBuffer: 16 << 20 })) as { knees: { reader: string; metric: string; value: number }[] }).knees;
    };
    const [kneesA, kneesB] = [native(a), native(a.replace("chunk=512", "chunk=128"))];

    const page = await open(`${baseUrl}#${a}&b.chunk=128`);
    await page.waitForFunction(
      () => document.querySelector('.sweep-pair-knees li[data-metric="source_reads"]') !== null || /failed|stopped/.test(document.querySelector(".sweep-pair-status")?.textContent ?? ""),
      undefined,
      { timeout: 90_000 },
    );
    expect(await page.locator("#view-sweep").isVisible()).toBe(true);
    expect(await page.locator(".sweep-pair-changed").textContent()).toContain("chunk 512 → 128");
    // Counts are exact: each side's knee of every count is the one the CLI finds for that side alone.
    for (const metric of ["source_reads", "bytes_copied", "allocations"]) {
      const item = page.locator(`.sweep-pair-knees li[data-reader="std"][data-metric="${metric}"]`);
      const value = (knees: typeof kneesA) => String(knees.find((k) => k.reader === "std" && k.metric === metric)?.value);
      expect([await item.getAttribute("data-a"), await item.getAttribute("data-b")], metric).toEqual([value(kneesA), value(kneesB)]);
    }
    const reads = page.locator('.sweep-pair-knees li[data-reader="std"][data-metric="source_reads"]');
    expect(await reads.textContent()).toBe("std, source reads: A's knee: 512 bytes; B's knee: 128 bytes (B ÷ A = 0.25): B's knee comes earlier (exact counts, so the difference is real)");
    expect(await reads.getAttribute("data-outcome")).toBe("less");
    // The time knees are the page's own measurements: compared, and said in words either way.
    expect(await page.locator('.sweep-pair-knees li[data-metric="time"]').getAttribute("data-outcome")).toMatch(/^(same|less|more|not_compared)$/);
    // Every chart pairs A's lines and B's.
    await expect.poll(() => page.locator('#sweep .sweep-chart canvas[data-sides="A,B"]').count()).toBe(4);
    expect(await page.evaluate(() => location.hash)).toMatch(/sweep=cap.*b\.chunk=128/);
    // The exports carry both sweeps: the CSV A's rows and B's with both links and the knees, the JSON the comparison.
    const csv = (await downloaded(page, "#sweep-export-csv")).bytes.toString("utf8");
    expect(csv).toMatch(/^# BufLab sweeps compared, A against B, of cap\r\n/);
    expect(csv).toMatch(/\r\n# B link: [^\r]*chunk=128[^\r]*\r\n# comparison link: [^\r]*b\.chunk=128/);
    expect(csv).toContain("# knee: std, source reads: A's knee: 512 bytes; B's knee: 128 bytes");
    const sides = csv.split("\r\n").filter((l) => /^[AB],cap,/.test(l)).map((l) => l[0]);
    expect([sides.filter((s) => s === "A").length, sides.filter((s) => s === "B").length]).toEqual([8, 8]);
    const json = JSON.parse((await downloaded(page, "#sweep-export-json")).bytes.toString("utf8")) as { b_link: string; comparison: { knees: unknown[] } };
    expect(json.b_link).toContain("chunk=128");
    expect(json.comparison.knees.length).toBeGreaterThan(0);
  });

  it("a mistyped key gets a notice naming the nearest known key, and the link still runs", async () => {
    const page = await open(`${baseUrl}#v=1&len=64K&cpa=16K`);
    const notice = page.locator('.notice[data-key="cpa"]');
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toContain("cap");
    await settled(page);
  });
});
