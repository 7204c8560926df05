// A workshop in a teacher's hands and a student's, in headless Chromium: the
// clicker's PageDown moves the lesson whatever was touched last (a slider, a
// checkbox, a text field) and closes the QR code rather than reveal what is
// behind it; a lesson's answer is the one of its own link, whatever the
// settings became; no lesson's answer is in the page's text before its
// Reveal (folded parts and the handout included); and a student's Reveal on
// a phone keeps the answer in view.

import { type Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { listedLessons, settled, usePages } from "./browser";
import { shot } from "./screenshots";
import lessonList from "../src/engine/lessons.gen.json";

/** How many lessons the path has (the engine's list). */
const LESSON_COUNT = lessonList.length;

const baseUrl = inject("baseUrl");
const { open } = usePages();

/** Each lesson's link as the page's list gives it, in the path's order. */
let links = new Map<string, string>();

beforeAll(async () => {
  links = await listedLessons(await open(baseUrl));
});

const ids = (): string[] => [...links.keys()];
const lessonOf = (page: Page): Promise<string | undefined> => page.evaluate(() => document.getElementById("lesson-card")?.dataset["lesson"]);

async function onLesson(page: Page, id: string): Promise<void> {
  await page.waitForFunction((id) => document.getElementById("lesson-card")?.dataset["lesson"] === id && location.hash.includes(`lesson=${id}`), id);
}

/** The page's text as shown, with the lesson card's and the lesson list's folded and hidden parts. */
function allText(page: Page): Promise<string> {
  return page.evaluate(() =>
    [document.body.innerText, ...["#lesson-card", "#lesson-menu", "#handout-lessons"].map((s) => document.querySelector(s)?.textContent ?? "")].join("\n"),
  );
}

/** Waits until the lesson's own results are in (the single run's report, or its finished sweep). */
async function resultsIn(page: Page, id: string): Promise<void> {
  const sweep = id === "buffer-size" || id === "knee-grid";
  await page.waitForFunction(
    (sweep) => (sweep ? document.querySelector(".status .activity")?.textContent === "Done" : document.getElementById("results")?.classList.contains("has-report") === true),
    sweep,
    { timeout: 90_000 },
  );
}

describe("the clicker in a teacher's hand", () => {
  it("PageDown moves the lesson after the capacity slider, a reader's checkbox or a text field was touched; PageUp goes back", async () => {
    const [first, second, third, fourth] = ids();
    const page = await open(`${baseUrl}${links.get(first!)}&present=on`, 1280, 720);
    await settled(page);

    const slider = page.getByRole("slider", { name: "Buffer capacity" });
    await slider.focus();
    const before = await slider.inputValue();
    await page.keyboard.press("PageDown");
    await onLesson(page, second!);
    // The slider kept its value: the key went to the lesson, not to it.
    expect(await page.evaluate(() => location.hash)).toContain("cap=8K");
    expect(before.length).toBeGreaterThan(0);

    await page.locator("#controls input[type=checkbox]").first().focus();
    await page.keyboard.press("PageDown");
    await onLesson(page, third!);

    await page.locator("#controls input[type=text]").first().focus();
    await page.keyboard.press("PageDown");
    await onLesson(page, fourth!);
    await page.locator("#controls input[type=text]").first().focus();
    await page.keyboard.press("PageUp");
    await onLesson(page, third!);
    expect(await page.evaluate(() => location.hash)).toContain("present=on");
    await page.close();
  });

  it("PageDown after the capacity slider was moved by hand still goes on, and the lesson after it opens on its own settings", async () => {
    const [first, second] = ids();
    const page = await open(`${baseUrl}${links.get(first!)}&present=on`, 1280, 720);
    await settled(page);
    const slider = page.getByRole("slider", { name: "Buffer capacity" });
    await slider.scrollIntoViewIfNeeded();
    const box = (await slider.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.waitForFunction(() => !location.hash.includes("cap=8K"));
    await page.keyboard.press("PageDown");
    await onLesson(page, second!);
    await settled(page);
    await page.screenshot({ path: shot("classroom-pagedown-after-slider-1280x720.png") });
    await page.close();
  });

  it("while the QR code is shown, PageDown closes it and neither reveals nor moves on", async () => {
    const [first] = ids();
    const page = await open(`${baseUrl}${links.get(first!)}&present=on&predict=on`, 1280, 720);
    await page.waitForFunction(() => document.body.classList.contains("predicting"));
    await page.click("#qr-button");
    await page.locator("#qr-panel svg.qr").waitFor();
    await page.keyboard.press("PageDown");
    await page.waitForFunction(() => !document.getElementById("qr-panel")?.matches(":popover-open"));
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.body.classList.contains("predicting"))).toBe(true);
    expect(await lessonOf(page)).toBe(first);
    await page.close();
  });
});

describe("the answer is the lesson's", () => {
  it("after the capacity was changed, Reveal gives the answer of the lesson's own link, as its explanation does", async () => {
    const [first] = ids();
    const page = await open(`${baseUrl}${links.get(first!)}&predict=on`, 1280, 900);
    await page.waitForFunction(() => document.getElementById("results")?.classList.contains("has-report") === true, undefined, { timeout: 60_000 });
    const capacity = page.getByRole("textbox", { name: "Buffer capacity" });
    await capacity.fill("64");
    await capacity.press("Enter");
    await page.waitForFunction(() => location.hash.includes("cap=64"));
    await page.waitForFunction(() => /Done|Exact counts/.test(document.querySelector(".status")?.textContent ?? ""), undefined, { timeout: 60_000 });
    await page.click('#lesson-card [data-action="reveal"]');
    await expect.poll(() => page.locator("#lesson-card .lesson-answer").textContent()).toBe("Answer: 129 source reads.");
    await expect(page.locator("#lesson-card .lesson-answer-why").textContent()).resolves.toContain("129 source reads");
    await page.close();
  });

  it("a lesson link opened cold with its capacity changed answers the lesson's own question, and the page keeps the link's settings", async () => {
    const [first] = ids();
    const changed = links.get(first!)!.replace(/([#&])cap=[^&]*/, "$1cap=64");
    expect(changed).toContain("cap=64");
    const page = await open(`${baseUrl}${changed}&predict=on`, 1280, 900);
    await page.waitForFunction(() => document.getElementById("results")?.classList.contains("has-report") === true, undefined, { timeout: 60_000 });
    await page.click('#lesson-card [data-action="reveal"]');
    await expect.poll(() => page.locator("#lesson-card .lesson-answer").textContent(), { timeout: 60_000 }).toBe("Answer: 129 source reads.");
    expect(await page.evaluate(() => location.hash)).toContain("cap=64");
    await page.close();
  });
});

describe("no answer before its Reveal", () => {
  it("across every lesson, folded parts included, no lesson's answer is in the page's text before that lesson's Reveal; lesson 9's headline agrees with its card", async () => {
    // Each lesson's answer, as its card gives it after Reveal.
    const answers: { id: string; number: string; unit: string }[] = [];
    const texts = new Map<string, { before: string; after: string; own: string }>();
    for (const id of ids()) {
      const page = await open(`${baseUrl}${links.get(id)}&predict=on`, 1280, 900);
      await page.waitForFunction(() => document.body.classList.contains("predicting"));
      await resultsIn(page, id);
      await page.waitForTimeout(300);
      const before = await allText(page);
      await page.click('#lesson-card [data-action="reveal"]');
      await page.waitForFunction(() => /^Answer: [\d,.]+ /.test(document.querySelector("#lesson-card .lesson-answer")?.textContent ?? ""), undefined, { timeout: 90_000 });
      const line = (await page.locator("#lesson-card .lesson-answer").textContent())!;
      const [, number, unit] = /^Answer: ([\d,.]+) (.+)\.$/.exec(line)!;
      answers.push({ id, number: number!, unit: unit! });
      if (id === "buffer-timeline") {
        await page.waitForFunction(() => /application read/.test(document.getElementById("headline")?.textContent ?? ""));
        const headline = (await page.locator("#headline").textContent())!;
        expect(headline, "the timeline's headline counts what one fill serves as the card does").toContain(`${number} application reads`);
      }
      // The lesson's own results (its table's counts), which may coincide with a later lesson's answer.
      const own = await page.evaluate(() => (document.querySelector(".results-main") as HTMLElement | null)?.innerText ?? "");
      texts.set(id, { before, after: await allText(page), own });
      await page.close();
    }
    expect(answers.length).toBe(LESSON_COUNT);
    // A count quoted with its unit ("32 application reads"), or a number of four digits or more anywhere.
    const marks = (a: (typeof answers)[number]): string[] => [`${a.number} ${a.unit}`, ...(a.number.replace(/,/g, "").length >= 4 ? [a.number] : [])];
    for (const [i, id] of ids().entries()) {
      const { before, after, own } = texts.get(id)!;
      for (const later of answers.slice(i)) {
        for (const mark of marks(later)) expect(before.includes(mark), `"${mark}" (lesson ${later.id}'s answer) before lesson ${id}'s Reveal`).toBe(false);
      }
      // After its Reveal a lesson shows its own counts; no other later answer is given away.
      for (const later of answers.slice(i + 1)) {
        for (const mark of marks(later)) {
          if (!own.includes(mark)) expect(after.includes(mark), `"${mark}" (lesson ${later.id}'s answer) after lesson ${id}'s Reveal`).toBe(false);
        }
      }
    }
    // The handout, printed before the session: no answer at all.
    const handout = await open(`${baseUrl}handout.html`, 1280, 900);
    await handout.locator("#handout-lessons li").first().waitFor();
    const printed = await allText(handout);
    for (const a of answers) for (const mark of marks(a)) expect(printed.includes(mark), `"${mark}" (lesson ${a.id}'s answer) on the handout`).toBe(false);
    await handout.close();
  });
});

describe("a student's phone", () => {
  it("Reveal on a 390×844 phone keeps the answer card in view", async () => {
    const id = "async-bufreader";
    const page = await open(`${baseUrl}${links.get(id)}&predict=on`, 390, 844);
    await page.waitForFunction(() => document.getElementById("results")?.classList.contains("has-report") === true, undefined, { timeout: 60_000 });
    await page.locator("#lesson-guess").scrollIntoViewIfNeeded();
    await page.fill("#lesson-guess", "2000");
    const scrolledBefore = await page.evaluate(() => scrollY);
    await page.click('#lesson-card [data-action="reveal"]');
    await expect.poll(() => page.locator("#lesson-card .lesson-answer").textContent()).toBe("Answer: 3,641 source reads.");
    await page.waitForTimeout(800);
    const box = (await page.locator("#lesson-card .lesson-answer").boundingBox())!;
    expect(box.y, `answer at ${box.y} px (scrolled from ${scrolledBefore} to ${await page.evaluate(() => scrollY)})`).toBeGreaterThanOrEqual(-1);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await page.screenshot({ path: shot("classroom-phone-revealed-390x844.png") });
    await page.close();
  });
});

describe("starting a workshop", () => {
  it("one control turns on presenter mode and predict on the first lesson and opens the handout", async () => {
    const page = await open(baseUrl, 1280, 720);
    await settled(page);
    const [handout] = await Promise.all([page.context().waitForEvent("page"), page.click("#workshop-start")]);
    await page.waitForFunction(() => /present=on/.test(location.hash) && /predict=on/.test(location.hash) && /lesson=one-byte/.test(location.hash));
    await page.waitForFunction(() => document.documentElement.classList.contains("presenting") && document.body.classList.contains("predicting"));
    await handout.waitForLoadState();
    expect(new URL(handout.url()).pathname).toMatch(/handout\.html$/);
    await handout.close();
    await page.close();
  });

  it("the handout's links ask first (predict=on), warn that 127.0.0.1 is out of the students' reach, print, and lead back; the answer key gives every answer", async () => {
    const page = await open(`${baseUrl}handout.html`, 1280, 900);
    await page.locator("#handout-lessons li").first().waitFor();
    for (const href of await page.locator("#handout-lessons .handout-link a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))) {
      expect(href).toMatch(/&predict=on$/);
    }
    await expect(page.locator("#handout-warning").textContent()).resolves.toContain("127.0.0.1 is this computer itself");
    await expect(page.locator("#handout-print").isVisible()).resolves.toBe(true);
    expect(await page.locator("#handout-back").getAttribute("href")).toBe("./");
    await page.screenshot({ path: shot("classroom-handout-1280.png"), fullPage: true });
    await page.emulateMedia({ media: "print" });
    expect(await page.locator("#handout-print").isVisible()).toBe(false);
    await page.screenshot({ path: shot("classroom-handout-print.png"), fullPage: true });
    await page.close();

    const key = await open(`${baseUrl}handout.html?answers`, 1280, 900);
    await key.locator("#handout-lessons li").first().waitFor();
    const answers = await key.locator("#handout-lessons .handout-answer").allTextContents();
    expect(answers.length).toBe(links.size);
    expect(answers.join("\n")).toContain("3,641 source reads");
    expect(answers.join("\n")).toContain("129 source reads");
    await key.close();
  });
});

describe("the presenter's screen", () => {
  it("B blanks the screen and brings it back; the clicker's forward brings it back too", async () => {
    const [first] = ids();
    const page = await open(`${baseUrl}${links.get(first!)}&present=on`, 1280, 720);
    await settled(page);
    const blanked = () => page.evaluate(() => getComputedStyle(document.body, "::after").backgroundColor === "rgb(0, 0, 0)" && document.documentElement.classList.contains("blanked"));
    await page.keyboard.press("b");
    await expect.poll(blanked).toBe(true);
    await page.screenshot({ path: shot("classroom-blank-1280x720.png") });
    await page.keyboard.press("b");
    await expect.poll(blanked).toBe(false);
    await page.keyboard.press("b");
    await expect.poll(blanked).toBe(true);
    await page.keyboard.press("PageDown");
    await expect.poll(blanked).toBe(false);
    expect(await lessonOf(page)).toBe(first);
    await page.close();
  });

  it("after the last lesson the clicker shows an end slide; back returns to the last lesson", async () => {
    const last = ids().at(-1)!;
    const page = await open(`${baseUrl}${links.get(last)}&present=on`, 1280, 720);
    await onLesson(page, last);
    await page.locator("#lesson-card .lesson-card-title").first().waitFor();
    await page.keyboard.press("PageDown");
    await page.locator("#lesson-end").waitFor({ state: "visible" });
    await expect(page.locator("#lesson-end").textContent()).resolves.toContain("That was the last lesson");
    expect(await page.locator("#answer-key-link").getAttribute("href")).toBe("./handout.html?answers");
    await page.screenshot({ path: shot("classroom-end-1280x720.png") });
    await page.keyboard.press("PageUp");
    await page.locator("#lesson-end").waitFor({ state: "hidden" });
    expect(await lessonOf(page)).toBe(last);
    await page.close();
  });
});
