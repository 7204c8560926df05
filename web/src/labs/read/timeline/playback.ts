// The timeline's playback (owns its buttons, slider and position): Back,
// Play and Forward, and a step slider (Tab to them; the slider takes arrow
// keys, Home and End). Autoplay runs once, when the timeline first comes
// into view on its first step, never with prefers-reduced-motion nor where
// the page says not to (presenter mode: the presenter steps).

import { h, setText } from "../../../shared/dom";

/** Time per step while playing. */
const PLAY_STEP_MS = 700;

export interface Playback {
  /** The buttons, the slider and the position, in the controls' row. */
  elements: HTMLElement[];
  /** Shows step `index` (0-based) of `count`. */
  show(index: number, count: number): void;
  stop(): void;
}

export interface PlaybackOptions {
  /** The step on screen (0-based) and how many there are (0: no trace). */
  index(): number;
  count(): number;
  /** Moves to step `to` (0-based, clamped by the caller). */
  moveTo(to: number): void;
  /** The caption a screen reader hears each step of, except while playing. */
  caption: HTMLElement;
  /** The view, watched for autoplay's first sight of it. */
  root: HTMLElement;
  /** False where the timeline must not play by itself. */
  autoplay(): boolean;
}

export function createPlayback({ index, count, moveTo, caption, root, autoplay }: PlaybackOptions): Playback {
  const back = h("button", { type: "button", class: "small", "aria-label": "Step back" }, "◀ Back");
  const play = h("button", { type: "button", class: "small timeline-play", "aria-pressed": "false" }, "▶ Play");
  const forward = h("button", { type: "button", class: "small", "aria-label": "Step forward" }, "Forward ▶");
  const slider = h("input", { type: "range", id: "timeline-step", min: 0, max: 0, step: 1, value: 0 });
  const position = h("output", { for: "timeline-step", class: "timeline-position" });
  let timer: ReturnType<typeof setInterval> | null = null;

  function stop(): void {
    if (timer !== null) clearInterval(timer);
    timer = null;
    setText(play, "▶ Play");
    play.setAttribute("aria-pressed", "false");
    // While playing the caption changes every step; a screen reader hears it again once stopped.
    caption.setAttribute("aria-live", "polite");
  }

  function start(): void {
    if (count() < 2) return;
    if (index() >= count() - 1) moveTo(0);
    caption.setAttribute("aria-live", "off");
    setText(play, "❚❚ Pause");
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(() => {
      if (index() >= count() - 1) stop();
      else moveTo(index() + 1);
    }, PLAY_STEP_MS);
  }

  const go = (to: number): void => {
    stop();
    moveTo(to);
  };
  back.addEventListener("click", () => go(index() - 1));
  forward.addEventListener("click", () => go(index() + 1));
  play.addEventListener("click", () => (timer === null ? start() : stop()));
  slider.addEventListener("input", () => go(Number(slider.value)));

  // Autoplay once, when the timeline first comes into view, unless motion is reduced.
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  if ("IntersectionObserver" in window) {
    let done = false;
    const seen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting) || done || count() === 0) return;
        done = true;
        seen.disconnect();
        if (!reduceMotion.matches && index() === 0 && autoplay()) start();
      },
      { threshold: 0.6 },
    );
    seen.observe(root);
  }

  return {
    elements: [h("div", { class: "buttons", role: "group", "aria-label": "Timeline playback" }, back, play, forward), h("label", { class: "timeline-field timeline-slider" }, "Step ", slider), position],
    show(at, total) {
      slider.max = String(Math.max(0, total - 1));
      slider.value = String(at);
      slider.setAttribute("aria-valuetext", `step ${at + 1} of ${total}`);
      setText(position, `${at + 1} / ${total}`);
      back.disabled = at === 0;
      forward.disabled = at >= total - 1;
      play.disabled = total < 2;
    },
    stop,
  };
}
