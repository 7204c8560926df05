// For the whole page's tests (page.test.ts, page.later.test.ts): startPage
// on the page's own markup with the real codec and workers that record what
// they are asked and answer when the test says. Run in happy-dom.

import { afterEach } from "vitest";
import type { ClientEvent, EngineClient, Engines, RunResult } from "../engine/client";
import type { Codec } from "../engine/codec";
import type { LabReport } from "../engine/types.gen";
import { realCountingEngine } from "../engine/real-engine";
import type { ThemeSwitch } from "../shared/theme";
import { byId, deferred, loadPageMarkup, onNodeClock } from "./dom-fixtures";
import type { startPage } from "./page";
import { codec as realCodec } from "./state-fixtures";

export { realCodec };

/**
 * Keeps the test file's window to what a browser does where whole pages
 * depend on it (call once, at the top of the file). happy-dom fires
 * `hashchange`, a task later, for a link written with
 * history.replaceState: a page would read its own link back as a link
 * pasted, or a page of the next test the link of this one; here such an
 * event reaches no page. And a page listens on the document and the window
 * for good: the listeners a test's page added are taken off after the test,
 * so a page of an earlier test hears nothing.
 */
export function pagesOneAtATime(): void {
  // The addresses written whose event is still to come, each as many times as it is to come (happy-dom fires one per change of hash).
  const written = new Map<string, number>();
  const replaceState = history.replaceState.bind(history);
  history.replaceState = (data: unknown, unused: string, url?: string | URL | null) => {
    const next = url ? new URL(url, location.href) : null;
    if (next && next.hash !== location.hash) written.set(next.href, (written.get(next.href) ?? 0) + 1);
    replaceState(data, unused, url);
  };
  window.addEventListener("hashchange", (event) => {
    const coming = written.get(event.newURL) ?? 0;
    if (coming === 0) return;
    written.set(event.newURL, coming - 1);
    event.stopImmediatePropagation();
  });
  const added: [EventTarget, string, EventListenerOrEventListenerObject, boolean | EventListenerOptions | undefined][] = [];
  for (const target of [document, window] as EventTarget[]) {
    const add = target.addEventListener.bind(target);
    target.addEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
      if (listener) added.push([target, type, listener, options]);
      add(type, listener, options);
    };
  }
  afterEach(() => {
    for (const [target, type, listener, options] of added.splice(0)) target.removeEventListener(type, listener, options);
  });
}

/** The real codec with some of its answers replaced (a getter's answer is asked each time). */
export function codecWith(changes: Partial<Record<keyof Codec, unknown>>, getters: Partial<Record<keyof Codec, () => unknown>> = {}): Codec {
  const c = Object.create(realCodec) as Codec;
  for (const [key, value] of Object.entries(changes)) Object.defineProperty(c, key, { value });
  for (const [key, get] of Object.entries(getters)) Object.defineProperty(c, key, { get });
  return c;
}

/** Workers that record what they are asked and answer when told. */
export function workers() {
  const asked: { client: string; args: unknown[]; answer: ReturnType<typeof deferred<RunResult>> }[] = [];
  const client = (name: string) =>
    ({
      run: (...args: unknown[]) => {
        const answer = deferred<RunResult>();
        asked.push({ client: name, args, answer });
        return answer.promise;
      },
      submit: () => new Promise(() => undefined),
      cancel: () => void asked.push({ client: `${name}.cancel`, args: [], answer: deferred() }),
    }) as unknown as EngineClient;
  const engines: Engines = { counter: client("counter"), timer: client("timer") };
  return { engines, asked };
}

/** The counts of `link`, as the counting worker reports them. */
export function countsOf(link: string): RunResult {
  return { report: onNodeClock(() => realCountingEngine().run(link, true, false) as LabReport), elapsedMs: 2 };
}

/**
 * A page built by `start` (page.ts's `startPage`, from the module graph the
 * test holds) on its link: its workers, its opening counts (unanswered until
 * the test answers them), the milestones reached, the engine's events, the
 * colour scheme switched, the toolbar's buttons and the status's activity.
 */
export async function openPage(start: typeof startPage, options: { link?: string; codec?: Codec } = {}) {
  loadPageMarkup();
  const codec = options.codec ?? realCodec;
  const w = workers();
  const counts = deferred<RunResult>();
  const decoded = codec.decodeLink(options.link ?? "");
  const reached: string[] = [];
  let engine: (event: ClientEvent) => void = () => undefined;
  let themeChanged: () => void = () => undefined;
  const page = await start(
    codec,
    w.engines,
    { decoded, counts: counts.promise },
    { firstNumbers: () => void reached.push("firstNumbers"), firstFull: () => void reached.push("firstFull") },
    (target) => (engine = target),
    { onChange: (changed: () => void) => (themeChanged = changed) } as unknown as ThemeSwitch,
  );
  const button = (name: string) => [...byId("actions").querySelectorAll("button")].find((b) => b.textContent === name)!;
  return {
    page,
    ...w,
    counts,
    decoded,
    reached,
    engine: (event: ClientEvent) => engine(event),
    themeChanged: () => themeChanged(),
    button,
    activity: () => byId("status").querySelector(".activity")!.textContent,
  };
}
