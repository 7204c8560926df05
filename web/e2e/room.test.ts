// The room's answers in headless Chromium with a fake camera: the test
// draws the handout's own answer cards (handout.html?cards) into a 1280×720
// picture — several cards at different sizes, turned to different letters,
// slightly tilted, one partly covered, and a marker that is no card — writes
// it as a Y4M file, and hands it to a Chromium of its own as its camera
// (--use-file-for-fake-video-capture). In presenter mode at a lesson's
// question, Scan the room reads the cards; the page says which cards have
// answered and never what; Reveal shows the room's histogram beside the real
// answer. A refused camera falls back to counting hands, with the same
// histogram. The detector's frames per second at 1280×720 are logged.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { markerCells } from "../src/panels/room/marker";
import { watch } from "./browser";
import { CHROMIUM } from "./chromium";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");
const WIDTH = 1280;
const HEIGHT = 720;
const LESSON = "#v=1&len=1M&chunk=pipe&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&lesson=one-byte";

/** A card in the picture: its number, where its centre is, its side in px, the letter on top, a tilt and a skew in degrees. */
interface Placed {
  card: number;
  x: number;
  y: number;
  size: number;
  letter: "A" | "B" | "C" | "D";
  tilt: number;
  skew: number;
  /** A grey hand over this share of the card's left side. */
  covered?: number;
}

// Six cards read: A twice, B twice, C once, D once. Card 7 is half covered (not read); marker 45 is no card.
const ROOM: Placed[] = [
  { card: 1, x: 170, y: 190, size: 250, letter: "A", tilt: 4, skew: 3 },
  { card: 2, x: 470, y: 170, size: 180, letter: "B", tilt: -8, skew: 0 },
  { card: 3, x: 740, y: 200, size: 220, letter: "C", tilt: 10, skew: -4 },
  { card: 4, x: 1060, y: 190, size: 200, letter: "D", tilt: -5, skew: 5 },
  { card: 5, x: 200, y: 530, size: 160, letter: "B", tilt: 14, skew: 2 },
  { card: 6, x: 480, y: 540, size: 260, letter: "A", tilt: -12, skew: -3 },
  { card: 7, x: 800, y: 530, size: 220, letter: "C", tilt: 0, skew: 0, covered: 0.55 },
];
const UNKNOWN = { id: 45, x: 1100, y: 540, size: 150 };
const EXPECTED = { A: 2, B: 2, C: 1, D: 1 };
const ANSWERED = [1, 2, 3, 4, 5, 6];

const ROTATION = { A: 0, B: -90, C: 180, D: 90 } as const;

const axeSource = (createRequire(import.meta.url)("axe-core") as { source: string }).source;

/** axe-core's serious and critical findings inside #room (evaluated through the debugger protocol: the CSP allows no inline script). */
async function roomProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Found = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run(context: Element): Promise<{ violations: Found[] }> } }).axe;
    const { violations } = await axe.run(document.getElementById("room")!);
    return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

/** The picture of the room as RGBA, drawn in the handout's page from its own card SVGs. */
async function drawRoom(page: Page): Promise<Uint8Array> {
  await page.goto(`${baseUrl}handout.html?cards`);
  await page.locator("svg.room-card[data-card='40']").waitFor();
  await page.screenshot({ path: shot("room-cards-1280.png") });
  const cells = markerCells(UNKNOWN.id);
  const rgba = await page.evaluate(
    async ({ room, unknown, cells, rotation, width, height }) => {
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const g = canvas.getContext("2d")!;
      g.fillStyle = "#b8b2a8"; // a classroom's wall
      g.fillRect(0, 0, width, height);
      for (const p of room) {
        const svg = document.querySelector(`svg.room-card[data-card='${p.card}']`)!;
        const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
        const img = new Image(p.size, p.size);
        img.src = url;
        await img.decode();
        g.save();
        g.translate(p.x, p.y);
        g.rotate(((rotation[p.letter] + p.tilt) * Math.PI) / 180);
        g.transform(1, 0, Math.tan((p.skew * Math.PI) / 180), 1, 0, 0);
        g.drawImage(img, -p.size / 2, -p.size / 2, p.size, p.size);
        if (p.covered) {
          g.fillStyle = "#8a6f5a";
          g.fillRect(-p.size / 2, -p.size / 2, p.size * p.covered, p.size);
        }
        g.restore();
      }
      // A marker of the same dictionary that is no card, on a white square.
      const n = cells.length;
      const cell = unknown.size / (n + 2);
      g.fillStyle = "#fff";
      g.fillRect(unknown.x - unknown.size / 2, unknown.y - unknown.size / 2, unknown.size, unknown.size);
      g.fillStyle = "#000";
      cells.forEach((row, y) => row.forEach((white, x) => white || g.fillRect(unknown.x - unknown.size / 2 + (x + 1) * cell, unknown.y - unknown.size / 2 + (y + 1) * cell, cell + 0.5, cell + 0.5)));
      // Out as base64: an array of 3.7 million numbers takes the protocol a minute.
      const bytes = g.getImageData(0, 0, width, height).data;
      let text = "";
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    },
    { room: ROOM, unknown: UNKNOWN, cells, rotation: ROTATION, width: WIDTH, height: HEIGHT },
  );
  return new Uint8Array(Buffer.from(rgba, "base64"));
}

/** RGBA as a Y4M file of `frames` equal frames (4:2:0, full-range BT.601: C420jpeg). */
function y4m(rgba: Uint8Array, width: number, height: number, frames: number): Buffer {
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  for (let i = 0; i < width * height; i++) y[i] = Math.round(0.299 * rgba[i * 4]! + 0.587 * rgba[i * 4 + 1]! + 0.114 * rgba[i * 4 + 2]!);
  for (let row = 0; row < height / 2; row++) {
    for (let col = 0; col < width / 2; col++) {
      let r = 0;
      let gr = 0;
      let b = 0;
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
        const p = ((row * 2 + dy) * width + col * 2 + dx) * 4;
        r += rgba[p]!;
        gr += rgba[p + 1]!;
        b += rgba[p + 2]!;
      }
      r /= 4;
      gr /= 4;
      b /= 4;
      u[row * (width / 2) + col] = Math.round(128 - 0.168736 * r - 0.331264 * gr + 0.5 * b);
      v[row * (width / 2) + col] = Math.round(128 + 0.5 * r - 0.418688 * gr - 0.081312 * b);
    }
  }
  const frame = Buffer.concat([Buffer.from("FRAME\n"), y, u, v]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`), ...Array.from({ length: frames }, () => frame)]);
}

const dir = mkdtempSync(join(tmpdir(), "buflab-room-"));
const camera = join(dir, "room.y4m");
const browsers: Browser[] = [];

/** A Chromium of this file's own, with `args` (the camera flags). */
async function browserWith(args: string[]): Promise<Browser> {
  const browser = await chromium.launch({ ...CHROMIUM, args: [...(CHROMIUM.args ?? []), ...args] });
  browsers.push(browser);
  return browser;
}

async function presenting(browser: Browser, problems: string[]): Promise<Page> {
  const page = watch(await browser.newPage({ viewport: { width: 1280, height: 720 } }), problems);
  await page.goto(`${baseUrl}${LESSON}&present=on&predict=on`);
  await page.locator("#room").waitFor({ state: "visible", timeout: 60_000 });
  // The choices come with the lesson's results.
  await page.locator("#room-choices li[data-letter]").first().waitFor({ timeout: 60_000 });
  return page;
}

/** The histogram Reveal shows: each letter's count, and which letter is marked as the answer. */
async function histogramOf(page: Page): Promise<{ counts: Record<string, number>; real: string[] }> {
  await page.locator("#room-histogram").waitFor({ state: "visible" });
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>("#room-histogram .room-row")];
    return {
      counts: Object.fromEntries(rows.map((r) => [r.dataset["letter"]!, Number(r.querySelector(".room-count")!.textContent)])),
      real: rows.filter((r) => r.classList.contains("room-real")).map((r) => r.dataset["letter"]!),
    };
  });
}

/** The letter of the real answer among the choices (read after Reveal, where the page marks it). */
const realLetter = (page: Page): Promise<string[]> => page.locator("#room-choices li.room-real").evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset["letter"]!));

beforeAll(async () => {
  const maker = await browserWith([]);
  const page = await maker.newPage({ viewport: { width: 1280, height: 900 } });
  writeFileSync(camera, y4m(await drawRoom(page), WIDTH, HEIGHT, 2));
  await page.close();
});

afterAll(async () => {
  for (const b of browsers) await b.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the room, read by a camera", () => {
  it("reads the cards: which have answered while asking, the histogram beside the real answer after Reveal", async () => {
    const problems: string[] = [];
    const browser = await browserWith(["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-video-capture=${camera}`]);
    const page = await presenting(browser, problems);
    await expect(page.locator("#room .room-privacy").textContent()).resolves.toContain("never stored or sent");
    await page.click("#room-scan");
    await expect
      .poll(() => page.locator("#room-status").textContent(), { timeout: 30_000 })
      .toBe(`6 cards have answered: cards ${ANSWERED.slice(0, -1).join(", ")} and ${ANSWERED.at(-1)}.`);
    // Who answered, never what: no histogram while the question asks.
    await expect(page.locator("#room-histogram").isVisible()).resolves.toBe(false);
    // Nor what each choice is, which would give the answer away.
    expect(await page.locator("#room-choices .room-what").count()).toBe(0);
    // Let the detector run a while at 1280×720, for its rate.
    await page.waitForTimeout(3_000);
    const frames = await page.evaluate(() => performance.getEntriesByName("buflab:room-frame").map((e) => e.duration));
    const sorted = [...frames].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(`room detector at ${WIDTH}×${HEIGHT}: ${frames.length} frames, median ${median.toFixed(1)} ms a frame (${(1000 / median).toFixed(1)} frames/s; the machine is shared)`);
    expect(frames.length).toBeGreaterThan(3);
    await page.screenshot({ path: shot("room-scanning-1280.png") });

    await page.click('#lesson-card [data-action="reveal"]');
    const { counts, real } = await histogramOf(page);
    expect(counts).toEqual(EXPECTED);
    expect(real).toEqual(await realLetter(page));
    expect(real).toHaveLength(1);
    // After Reveal each choice says what run it is (the engine's real runs): the lesson's own for the answer, the run without the buffer for another.
    const whats = await page.locator("#room-choices .room-what").allTextContents();
    expect(whats).toHaveLength(4);
    expect(whats.filter((w) => /no buffer/.test(w)), whats.join(" | ")).toHaveLength(1);
    expect(await page.locator("#room-choices li.room-real .room-what").textContent()).toMatch(/as the lesson runs it|as this experiment runs it/);
    // The camera stopped at Reveal: the scan button is gone and so is the stop button.
    await expect(page.locator("#room-stop").isVisible()).resolves.toBe(false);
    await page.locator("#room-histogram").scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot("room-revealed-1280.png") });
    expect(problems).toEqual([]);
  });
});

describe("the room without a camera", () => {
  it("a refused camera is said, and the hands typed per letter make the histogram", async () => {
    const problems: string[] = [];
    const browser = await browserWith(["--use-fake-device-for-media-stream", "--deny-permission-prompts"]);
    const page = await presenting(browser, problems);
    await page.click("#room-scan");
    await expect.poll(() => page.locator("#room-status").textContent(), { timeout: 20_000 }).toBe("The camera was refused: count the raised hands for each letter instead.");
    await expect(page.locator("#room-hands").getAttribute("open")).resolves.not.toBeNull();
    for (const [letter, count] of Object.entries({ A: 3, B: 0, C: 7, D: 1 })) await page.fill(`#room-hands-${letter}`, String(count));
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.screenshot({ path: shot("room-hands-1920.png") });
    await page.click('#lesson-card [data-action="reveal"]');
    const { counts, real } = await histogramOf(page);
    expect(counts).toEqual({ A: 3, B: 0, C: 7, D: 1 });
    expect(real).toEqual(await realLetter(page));
    expect(await roomProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("without any camera flag, counting hands alone gives the histogram", async () => {
    const problems: string[] = [];
    const browser = await browserWith([]);
    const page = await presenting(browser, problems);
    expect(await roomProblems(page)).toEqual([]);
    await page.click("#room-hands summary");
    await page.fill("#room-hands-B", "12");
    await page.fill("#room-hands-D", "4");
    await page.click('#lesson-card [data-action="reveal"]');
    const { counts } = await histogramOf(page);
    expect(counts).toEqual({ A: 0, B: 12, C: 0, D: 4 });
    // On a 390 px phone the room fits the screen's width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator("#room-histogram").scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, "sideways overflow at 390 px").toBeLessThanOrEqual(0);
    await page.screenshot({ path: shot("room-revealed-390.png") });
    expect(problems).toEqual([]);
  });
});

describe("students who follow", () => {
  it("the presenter's QR code carries the lesson and its step, asking first, without presenter mode", async () => {
    const problems: string[] = [];
    const browser = await browserWith([]);
    const page = watch(await browser.newPage({ viewport: { width: 1280, height: 720 } }), problems);
    // Presenter mode without predict, on the timeline lesson at its own step.
    const timeline = "#v=1&len=1M&chunk=poor&seed=42&cap=256&rs=8&sys=150&rd=unbuffered,std&wl=fixed&view=timeline&step=33&lesson=buffer-timeline";
    await page.goto(`${baseUrl}${timeline}&present=on`);
    await page.click("#qr-button");
    const carried = (await page.locator("#qr-panel svg.qr").getAttribute("data-qr"))!;
    const fragment = new URLSearchParams(carried.split("#")[1]);
    expect(fragment.get("lesson")).toBe("buffer-timeline");
    expect(fragment.get("step")).toBe("33");
    expect(fragment.get("predict")).toBe("on");
    expect(fragment.get("present")).toBeNull();
    expect(problems).toEqual([]);
  });
});
