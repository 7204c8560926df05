// Interaction to next paint for every control of the page, read by the page's
// own Event Timing observer (PerformanceObserver `event` entries, duration
// threshold 16 ms, the figure Core Web Vitals' INP is made of): each control
// is used as a person would (a click, a key on a slider, a value typed and
// Enter, an option chosen), and its figure is the longest interaction its use
// made. Twice: on the default link, and while a heavy link
// (HEAVY_LINK: 64 MiB read a byte at a time by five readers) counts, opened
// again before each control so that it is still counting when the control
// is used. For scale, in the same run: a page whose one button does nothing
// (the floor: what this machine's browser takes to handle a click and paint).

import { waitIn } from "./page-wait.mjs";

/** The link whose count takes seconds: every control must stay quick while it runs. */
export const HEAVY_LINK = "#v=1&len=64M&rs=1&rd=unbuffered,std,chained,tokio,futures";

/** Event Timing's floor for reporting an entry, and the one the brief of issue 35 names. */
const THRESHOLD_MS = 16;

/** Registers the observer before the page's own scripts. */
function observeEvents() {
  const seen = [];
  window.benchEvents = seen;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.interactionId) seen.push({ id: e.interactionId, name: e.name, start: e.startTime, duration: e.duration });
    }
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
}

/**
 * The page's controls, each with how a person uses it. Names are the
 * accessible names the page gives them; controls behind "More settings" are
 * used after it is opened.
 */
function controls(page) {
  const slider = (name) => async () => {
    const s = page.getByRole("slider", { name, exact: true });
    await s.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowLeft");
  };
  const typed = (name, value) => async () => {
    const box = page.getByRole("textbox", { name, exact: true });
    const was = await box.inputValue();
    await box.fill(value);
    await box.press("Enter");
    await box.fill(was);
    await box.press("Enter");
  };
  const click = (locator) => async () => locator().click();
  const twice = (locator) => async () => {
    await locator().click();
    await page.waitForTimeout(150);
    await locator().click();
  };
  const select = (locator) => async () => {
    const s = locator();
    const values = await s.evaluate((el) => [...el.options].map((o) => o.value));
    const was = await s.inputValue();
    await s.selectOption(values.find((v) => v !== was));
    await page.waitForTimeout(150);
    await s.selectOption(was);
  };
  const popover = (name) => async () => {
    await page.getByRole("button", { name, exact: true }).click();
    await page.waitForTimeout(150);
    await page.keyboard.press("Escape");
  };
  const more = async () => {
    const details = page.locator("#controls details.more-settings");
    if (!(await details.evaluate((d) => d.open))) await details.locator("summary").click();
  };
  return [
    ["Buffer capacity (slider)", slider("Buffer capacity")],
    ["Buffer capacity (typed)", typed("Buffer capacity", "16K")],
    ["Read size (slider)", slider("Read size")],
    ["Read size (typed)", typed("Read size", "2")],
    ["Chunking", select(() => page.locator("#controls select").first())],
    ["Readers (a checkbox)", twice(() => page.getByRole("checkbox", { name: "chained" }))],
    ["More settings", async () => {
      await page.locator("#controls details.more-settings summary").click();
      await page.waitForTimeout(150);
      await page.locator("#controls details.more-settings summary").click();
    }],
    ["Workload (More settings)", async () => {
      await more();
      await select(() => page.locator("#controls details.more-settings select").first())();
    }],
    ["Measure again", click(() => page.getByRole("button", { name: "Measure again", exact: true }))],
    ["Stop", async () => {
      await page.getByRole("button", { name: "Measure again", exact: true }).click();
      // On a quick machine the default link's measurement can be done before Stop is reached: then there is nothing to stop.
      await page.getByRole("button", { name: "Stop", exact: true }).click({ timeout: 1000 }).catch(() => undefined);
    }],
    ["Reset", click(() => page.getByRole("button", { name: "Reset", exact: true }))],
    ["Copy link", click(() => page.getByRole("button", { name: "Copy link", exact: true }))],
    ["Write lab / Read lab", async () => {
      await page.locator("#lab-tab-write").click();
      await page.waitForTimeout(300);
      await page.locator("#lab-tab-read").click();
    }],
    ["Sweep / Timeline / Single run", async () => {
      for (const id of ["#view-tab-sweep", "#view-tab-timeline", "#view-tab-run"]) {
        await page.locator(id).click();
        await page.waitForTimeout(300);
      }
    }],
    ["Presenter mode", twice(() => page.locator("#present-toggle"))],
    ["Colour scheme", async () => {
      for (const name of ["Dark", "Light", "System"]) {
        await page.getByRole("radio", { name, exact: true }).click();
        await page.waitForTimeout(150);
      }
    }],
    ["Lessons", popover("Lessons")],
    ["About", popover("About")],
  ];
}

/** The longest interaction in each control's use: on the default page, or with `link` opened again before each control. */
async function perControl(browser, url, link) {
  const again = link !== "";
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, permissions: ["clipboard-write"] });
  await context.addInitScript(observeEvents);
  const page = await context.newPage();
  // The default page, whole (its later parts are among the controls), then the link.
  await page.goto(url);
  await waitIn(page, () => performance.getEntriesByName("buflab:parts").length > 0, undefined, 120_000);
  await waitIn(page, () => document.querySelector(".status")?.dataset.stage === "full", undefined, 120_000);
  const figures = [];
  for (const [name, use] of controls(page)) {
    if (again) {
      // The heavy link again, from the address bar: it counts while the control is used.
      await page.evaluate((link) => {
        location.hash = link.slice(1);
      }, link);
      await waitIn(page, () => document.querySelector(".status .activity")?.textContent?.startsWith("Counting"), undefined, 30_000);
      await page.waitForTimeout(200);
    } else {
      await waitIn(page, () => document.querySelector(".status")?.dataset.stage === "full", undefined, 120_000).catch(() => undefined);
    }
    const from = await page.evaluate(() => performance.now());
    await use();
    // Event Timing reports an interaction once its next paint is done.
    await page.waitForTimeout(400);
    const to = await page.evaluate(() => performance.now());
    const worst = await page.evaluate(([from, to]) => {
      const byId = new Map();
      for (const e of window.benchEvents.filter((e) => e.start >= from && e.start < to)) byId.set(e.id, Math.max(byId.get(e.id) ?? 0, e.duration));
      return Math.max(0, ...byId.values());
    }, [from, to]);
    figures.push({ name, inp: worst });
  }
  await context.close();
  return figures;
}

/** The floor: a page whose one button does nothing, clicked 7 times; the longest of its interactions (0: none reached the threshold). */
async function floorMs(browser) {
  const page = await browser.newPage();
  await page.setContent("<button id=b>floor</button>");
  await page.evaluate(observeEvents);
  for (let i = 0; i < 7; i++) {
    await page.click("#b");
    await page.waitForTimeout(100);
  }
  await page.waitForTimeout(300);
  const worst = await page.evaluate(() => Math.max(0, ...window.benchEvents.map((e) => e.duration)));
  await page.close();
  return worst;
}

/**
 * Every control's interaction to next paint (ms; below THRESHOLD_MS reads 0)
 * on the default link and while HEAVY_LINK counts, and the floor page's.
 */
export async function interactionFigures(browser, url) {
  const floor = await floorMs(browser);
  const quiet = await perControl(browser, url, "");
  const heavy = await perControl(browser, url, HEAVY_LINK);
  return { floor, threshold: THRESHOLD_MS, controls: quiet.map((q, i) => ({ name: q.name, quiet: q.inp, heavy: heavy[i].inp })) };
}

/** The figures as markdown table rows, each beside the target. */
export function interactionLines(figures) {
  const ms = (x) => (x < figures.threshold ? `< ${figures.threshold} ms` : `${Math.round(x)} ms`);
  const worst = (key) => Math.max(...figures.controls.map((c) => c[key]));
  return [
    `| interaction to next paint (Event Timing, 1280×800; the longest interaction of each control's use) | default link | while \`${HEAVY_LINK}\` counts | target |`,
    "| --- | ---: | ---: | ---: |",
    ...figures.controls.map((c) => `| ${c.name} | ${ms(c.quiet)} | ${ms(c.heavy)} | ≤ 200 ms |`),
    `| **every control (the worst)** | **${ms(worst("quiet"))}** | **${ms(worst("heavy"))}** | ≤ 200 ms |`,
    `| for scale, this machine's floor: a page whose one button does nothing | ${ms(figures.floor)} | | |`,
  ];
}
