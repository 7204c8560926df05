// Accessibility, by axe-core (WCAG 2.0–2.2 A and AA rules), over every view a
// person meets, in one page visited in turn: the default page, a 390 px
// phone, the dark scheme, the glossary and the lesson list (dialogs over the
// page), the write lab, the timeline, the sweep view's heatmap (its table a
// keyboard can scroll), presenter mode with predict-then-reveal before and
// after Reveal, and the printed handout. Zero violations of any impact.
//
// axe's source is evaluated in the page through the debugger protocol
// (playwright's `evaluate`): the page's Content-Security-Policy allows no
// inline script, so `addScriptTag` would be refused.

import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { settled, usePages } from "./browser";

const baseUrl = inject("baseUrl");
const { open } = usePages({ reducedMotion: "reduce" });
const axeSource = (createRequire(import.meta.url)("axe-core") as { source: string }).source;

/** The WCAG rule sets checked: 2.0, 2.1 and 2.2, levels A and AA. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe's violations on the page as it is now, one line each ("view: impact id: help at selectors"). */
async function axe(page: Page, view: string): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] })).violations;
  }, TAGS);
  return violations.map((v) => `${view}: ${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Loads `url` afresh in `page` (a hash alone would not reload it). */
async function visit(page: Page, url: string): Promise<void> {
  await page.goto("about:blank");
  await page.goto(url);
}

describe("accessibility (axe-core, WCAG 2.2 AA)", () => {
  it("finds no violation in any view: page, phone, dark, dialogs, write lab, timeline, heatmap, presenter mode before and after Reveal, handout", async () => {
    const found: string[] = [];
    const checked: string[] = [];
    const check = async (page: Page, view: string) => {
      checked.push(view);
      found.push(...(await axe(page, view)));
    };
    const page = await open(baseUrl, 1280, 900);
    await settled(page);
    await check(page, "default page");

    // A lesson's own link (the list's first), for presenter mode below.
    const lesson = await page.locator("#lesson-list li a.lesson-title").first().getAttribute("href");
    expect(lesson).toMatch(/lesson=/);

    await page.locator("#glossary-button").click();
    await page.waitForFunction(() => document.getElementById("glossary-panel")?.matches(":popover-open") === true);
    await check(page, "glossary");
    await page.keyboard.press("Escape");

    await page.locator("#lessons-button").click();
    await page.locator("#lesson-menu").waitFor({ state: "visible" });
    await check(page, "lesson list");
    await page.keyboard.press("Escape");
    await page.locator("#lesson-menu").waitFor({ state: "hidden" });

    await page.emulateMedia({ colorScheme: "dark" });
    await check(page, "dark scheme");
    await page.emulateMedia({ colorScheme: "light" });

    await page.setViewportSize({ width: 390, height: 844 });
    await check(page, "390 px phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    await visit(page, `${baseUrl}#v=1&lab=write`);
    await settled(page, "write");
    await check(page, "write lab");

    await visit(page, `${baseUrl}#v=1&len=256K&chunk=worst&rd=unbuffered,std,chained&wl=frames&view=timeline`);
    await settled(page);
    await page.locator("#timeline").waitFor({ state: "visible" });
    await check(page, "timeline");

    // The knee-grid lesson's heatmap: beside its lesson card the sweep's table is wider than its box at 1280 px.
    await visit(page, `${baseUrl}#v=1&len=256K&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=std,chained&wl=fixed&sweep=cap,chunk&from=32,64&to=4K,1K&lesson=knee-grid`);
    await page.waitForFunction(() => document.querySelector("#sweep .sweep-progress-row")?.getAttribute("data-state") === "done", undefined, { timeout: 90_000 });
    await page.locator("#sweep-heatmap").waitFor({ state: "visible" });
    // The sweep's table scrolls sideways here (909 px in an 808 px box, mostly; axe flags its scroll box when it does
    // and a keyboard cannot reach it): the box takes focus, as the single run's table's does, whether or not it overflows now.
    const scroller = page.locator(".sweep-table-wrap > .table-scroll");
    await expect(scroller.getAttribute("tabindex")).resolves.toBe("0");
    await expect(scroller.getAttribute("role")).resolves.toBe("region");
    await check(page, "heatmap");

    await page.setViewportSize({ width: 1280, height: 720 });
    await visit(page, `${baseUrl}${lesson}&present=on&predict=on`);
    await page.waitForFunction(() => document.body.classList.contains("predicting") && document.getElementById("results")?.classList.contains("has-report") === true, undefined, { timeout: 60_000 });
    await check(page, "presenter mode, before Reveal");
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => !document.body.classList.contains("predicting"));
    await settled(page);
    await check(page, "presenter mode, after Reveal");

    await visit(page, `${baseUrl}handout.html`);
    await page.locator("#handout-lessons li").first().waitFor();
    await check(page, "handout");
    await page.close();

    expect(checked.length).toBe(11);
    expect(found).toEqual([]);
  });
});
