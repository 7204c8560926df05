// The quiz the engine writes (`quiz=on`) in headless Chromium: a person
// answers every question (the first from the results table on screen, one
// on purpose wrong), each pick is graded at once with its explanation and
// a link, the double-capacity question's link opens a real run whose table
// shows the graded answer, and the score at the end counts the right picks.
// A bad `quiz` value is a notice naming the key. A student's page (a
// lesson's link with predict=on, as the presenter's QR code gives it) says
// where the link was taken and offers the next lesson. Screenshots:
// quiz-score-1280.png, quiz-390.png.

import { type Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { metric, settled, usePages } from "./browser";
import { shot } from "./screenshots";

const baseUrl = inject("baseUrl");
const { open } = usePages();

const LINK = "v=1&len=64K&chunk=poor&seed=42&cap=1K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&quiz=on&qseed=3";

/** The reader ids of the results table whose row label the text names. */
async function readerNamed(page: Page, text: string): Promise<string> {
  for (const row of await page.locator("#table table.results tbody tr").all()) {
    const label = (await row.locator("th, td").first().textContent())?.trim() ?? "";
    if (label !== "" && text.includes(label)) return (await row.getAttribute("data-reader")) ?? "";
  }
  throw new Error(`no reader of the table is named in: ${text}`);
}

const plain = (s: string): string => s.replace(/,/g, "");

describe("the quiz", () => {
  it("grades each pick with an explanation and a link, and scores the room's quiz at the end", async () => {
    const page = await open(`${baseUrl}#${LINK}`);
    await settled(page);
    const quiz = page.locator("#quiz");
    await quiz.locator("#quiz-question").waitFor({ timeout: 60_000 });
    const progress = (await quiz.locator(".quiz-progress").textContent()) ?? "";
    const total = Number(/of (\d+)/.exec(progress)?.[1]);
    expect(total).toBeGreaterThanOrEqual(3);

    // Question 1: how many source reads; the right answer is the table's count.
    const question = (await quiz.locator("#quiz-question").textContent()) ?? "";
    expect(question).toMatch(/How many source reads/);
    const reads = await metric(page, await readerNamed(page, question), "source_reads");
    const choices = quiz.locator(".quiz-choice");
    expect(await choices.count()).toBeGreaterThanOrEqual(2);
    const texts = (await choices.allTextContents()).map((t) => plain(t.slice(1).trim()));
    expect(texts.filter((t) => t === String(reads))).toHaveLength(1);
    await choices.nth(texts.indexOf(String(reads))).click();
    await expect.poll(() => quiz.locator("#quiz-why").textContent()).toMatch(/^Right\./);
    expect(await quiz.locator(".quiz-choice[disabled]").count()).toBe(await choices.count());
    let right = 1;

    // The rest: one on purpose wrong (the first choice without the mark), the others as graded.
    for (let i = 1; i < total; i++) {
      await quiz.locator("#quiz-next").click();
      await expect.poll(() => quiz.locator(".quiz-progress").textContent()).toBe(`Question ${i + 1} of ${total}`);
      const text = (await quiz.locator("#quiz-question").textContent()) ?? "";
      await quiz.locator(".quiz-choice").first().click();
      const why = (await quiz.locator("#quiz-why").textContent()) ?? "";
      const wasRight = why.startsWith("Right.");
      if (wasRight) right++;
      else expect(why).toMatch(/^Not quite: the answer is [A-D], /);
      const href = (await quiz.locator("#quiz-why-link").getAttribute("href")) ?? "";
      expect(href.startsWith(`${baseUrl}#v=1&`) && !href.includes("quiz")).toBe(true);
      if (/How many does it make with its buffer at 2K/.test(text)) {
        // The explanation's link is the real run at double capacity: its table shows the graded answer.
        expect(href).toContain("cap=2K");
        const answer = plain(/A real run at 2K makes ([\d,]+) source reads/.exec(why)?.[1] ?? "");
        const run = await open(href);
        await settled(run);
        expect(String(await metric(run, await readerNamed(run, text), "source_reads"))).toBe(answer);
        await run.close();
      }
    }
    await quiz.locator("#quiz-next").click();
    await expect.poll(() => quiz.locator("#quiz-score").textContent()).toBe(`Score: ${right} of ${total}`);
    await page.screenshot({ path: shot("quiz-score-1280.png") });
  });

  it("hides the results, which hold the answer, until the question is answered; then shows them, and says what each choice is", async () => {
    const page = await open(`${baseUrl}#${LINK}`);
    await settled(page);
    const quiz = page.locator("#quiz");
    await quiz.locator("#quiz-question").waitFor({ timeout: 60_000 });
    const question = (await quiz.locator("#quiz-question").textContent()) ?? "";
    const reads = await metric(page, await readerNamed(page, question), "source_reads");
    const shown = reads.toLocaleString("en-US");
    // The page's visible text outside the quiz (whose choices offer the answer among others).
    const outside = (): Promise<string> =>
      page.evaluate(() => {
        const q = document.getElementById("quiz")!;
        q.style.display = "none";
        const text = document.body.innerText;
        q.style.display = "";
        return text;
      });
    const hasNumber = (text: string): boolean => new RegExp(`(^|[^\\d,.])${shown}([^\\d,]|$)`).test(text);
    expect(hasNumber(await outside()), `${shown} before the question is answered`).toBe(false);
    expect(await page.locator("#table").isVisible()).toBe(false);
    expect(await page.locator("#charts").isVisible()).toBe(false);
    await page.screenshot({ path: shot("quiz-asking-1280.png") });
    const choices = quiz.locator(".quiz-choice");
    const texts = (await choices.allTextContents()).map((t) => plain(t.slice(1).trim()));
    await choices.nth(texts.indexOf(String(reads))).click();
    await expect.poll(async () => hasNumber(await outside()), { timeout: 10_000 }).toBe(true);
    expect(await page.locator("#table").isVisible()).toBe(true);
    // Each choice says what it is: the run that gives its count.
    const whats = await quiz.locator(".quiz-what").allTextContents();
    expect(whats).toHaveLength(await choices.count());
    expect(whats.every((w) => w.length > 0) && whats.some((w) => /as this experiment runs it/.test(w)), whats.join(" | ")).toBe(true);
    // The next question hides them again until it is answered.
    await quiz.locator("#quiz-next").click();
    await expect.poll(() => page.locator("#table").isVisible()).toBe(false);
  });

  it("is the same quiz for the same link, and a bad value is a notice naming the key", async () => {
    const first = async (link: string): Promise<string[]> => {
      const page = await open(`${baseUrl}#${link}`, 390, 844);
      await page.locator("#quiz-question").waitFor({ timeout: 60_000 });
      const texts = await page.locator(".quiz-choice").allTextContents();
      await page.close();
      return texts;
    };
    expect(await first(LINK)).toEqual(await first(LINK));
    const bad = await open(`${baseUrl}#${LINK.replace("quiz=on", "quiz=maybe")}`, 390, 844);
    await expect.poll(() => bad.locator("#notices").textContent()).toContain("quiz");
    expect(await bad.locator("#quiz").isHidden()).toBe(true);
    const phone = await open(`${baseUrl}#${LINK}`, 390, 844);
    await phone.locator("#quiz-question").waitFor({ timeout: 60_000 });
    await phone.screenshot({ path: shot("quiz-390.png"), fullPage: false });
  });
});

describe("a student's page", () => {
  it("says which lesson and step the teacher's link was taken at, and offers the next lesson", async () => {
    const link = "v=1&len=1M&chunk=pipe&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&predict=on&view=timeline&step=4&lesson=one-byte";
    const page = await open(`${baseUrl}#${link}`, 390, 844);
    const follow = page.locator("#lesson-follow");
    await expect.poll(() => follow.textContent()).toMatch(/^This link opens lesson 1 of \d+, at step 4 of the buffer timeline\. It does not follow the teacher/);
    const next = page.locator("#lesson-follow-next");
    expect(await next.textContent()).toMatch(/^Next: .+ ▶$/);
    await next.click();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain("lesson=no-help");
    await expect.poll(() => follow.textContent()).toMatch(/^This link opens lesson 2 of /);
    // The presenter's own screen has no such line.
    const presenter = await open(`${baseUrl}#${link}&present=on`);
    await presenter.locator("#lesson-card").waitFor();
    expect(await presenter.locator("#lesson-follow").isHidden()).toBe(true);
  });
});
