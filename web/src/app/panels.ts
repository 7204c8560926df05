// The panels around the results, each a piece that owns its element: the
// lessons, About, the Glossary, the code, the native command, Calibrate,
// export and baselines come after the first numbers, each a chunk of its own
// (shared/later.ts: what the page hands them before they arrive waits for
// them, in order); the embed bar and presenter mode shape the first numbers,
// so they come with the page. Each is handed what it needs here, never the
// page's state or actions (panels/ sit below app/).

import type { Codec } from "../engine/codec";
import type { Answer, Lab, LabReport, LessonChoices, LessonId } from "../engine/types.gen";
import { byId } from "../shared/dom";
import type { LabUi } from "../shared/lab";
import { atOnce, onFirstUse, type Later } from "../shared/later";
import { linkUrl } from "../shared/url";
import { createEmbedBar, createEmbedCode, type EmbedBar, type EmbedCode } from "../panels/embed";
import type { ComparedExport } from "../panels/export";
import { createPresenterToggle, type PresenterToggle } from "../panels/presenter";
import type { Intents } from "./intents";
import type { Action, AppState } from "./state";

type Made<T extends (...args: never[]) => unknown> = Awaited<ReturnType<T>>;

export interface Panels {
  lessons: Later<Made<typeof import("../panels/lessons").createLessons>>;
  glossary: Later<Made<typeof import("../panels/glossary").createGlossary>>;
  code: Later<Made<typeof import("../panels/code").createCodePanel>>;
  native: Later<Made<typeof import("../panels/native").createNativeNote>>;
  calibrate: Later<Made<typeof import("../panels/calibrate").createCalibrate>>;
  exportTools: Later<Made<typeof import("../panels/export").createExport>>;
  baseline: Later<Made<typeof import("../panels/baseline").createBaseline>>;
  compare: Later<Made<typeof import("../labs/read/compare").createCompare>>;
  trace: Later<Made<typeof import("../panels/trace").createTrace>>;
  /** The room's answers (presenter mode at a question): loaded only when a workshop asks. */
  room: Later<Made<typeof import("../panels/room").createRoom>>;
  /** The quiz the engine writes (`quiz=on`): loaded only when a link asks. */
  quiz: Later<Made<typeof import("../panels/quiz").createQuiz>>;
  embedBar: EmbedBar;
  embedCode: EmbedCode;
  presenter: PresenterToggle;
}

export interface PanelsOptions {
  codec: Codec;
  state(): AppState;
  dispatch(action: Action): void;
  intents: Intents;
  labOf(lab: Lab): LabUi;
  /** The results: scrolled to when a lesson loads from the menu or the card. */
  results: HTMLElement;
  /** A lesson question's four choices, for the room's card (app/effects.ts asks the engine). */
  lessonChoices(lesson: LessonId, link: string, answer: Answer): Promise<LessonChoices>;
}

const urlOf = (fragment: string): string => linkUrl(location.href, fragment);

/**
 * The comparison on screen for the exports of `report` (its A): both links
 * and the comparison; its CSV and Markdown come from the comparison's own
 * code, loaded only when asked for. Null without a finished comparison.
 */
function comparedExport(state: AppState, report: LabReport, labelOf: (id: string) => string): ComparedExport | null {
  const c = state.compare;
  const result = c?.status === "done" ? c.result : null;
  if (!c || !result || report.lab !== "read") return null;
  const links = { a: urlOf(result.a.link), b: urlOf(result.b.link), both: c.source === "link" ? urlOf(c.fragment) : null };
  const format = () => import("../labs/read/compare/compare-export");
  return {
    ...links,
    comparison: result,
    csv: () => format().then((m) => m.comparisonCsv(result, links)),
    markdown: () => format().then((m) => m.comparisonMarkdown(result, links, labelOf)),
  };
}

export function createPanels({ codec, state, dispatch, intents, labOf, results, lessonChoices }: PanelsOptions): Panels {
  // Lessons load by navigating to their links (the page's hashchange handler
  // loads them). The panel comes after the first numbers, unless the link
  // opens a lesson: then its card shows beside them.
  const lessons = (state().params.lesson === null ? onFirstUse : atOnce)(() =>
    import("../panels/lessons").then((m) =>
      m.createLessons({
        menu: byId("lessons-menu"),
        card: byId("lesson-card"),
        start: byId("lesson-start"),
        results,
        codec,
        guessed: (guess) => dispatch({ type: "guessed", guess }),
        reveal: () => dispatch({ type: "reveal" }),
        openLog: () =>
          trace((panel) => {
            panel.openShipped();
            byId("trace").scrollIntoView({ block: "start" });
          }),
      }),
    ),
  );
  // Nothing calls the About panel: it simply comes with the other parts.
  onFirstUse(() => import("../panels/about").then((m) => m.createAbout(byId("about"))))(() => undefined);
  // Your own program's strace log: its panel comes with the other parts; the
  // log reader (the trace build and its worker) only when a log is opened.
  const trace = onFirstUse(() =>
    import("../panels/trace").then((m) => m.createTrace(byId("trace"), { labelOf: (id) => labOf("read").labelOf(id), urlOf })),
  );
  trace(() => undefined);
  const calibrate = onFirstUse(() =>
    Promise.all([import("../panels/calibrate"), import("../engine/calibrate-runner")]).then(([panel, runner]) =>
      panel.createCalibrate(byId("calibrate"), {
        schema: codec.schema,
        calibrate: runner.createCalibrator(),
        params: () => state().params,
        use: (sys) => intents.edit({ ...state().params, sys, sys_source: "opfs" }, false),
      }),
    ),
  );
  return {
    lessons,
    room: onFirstUse(() =>
      import("../panels/room").then((m) =>
        m.createRoom(byId("room"), {
          scan: () => dispatch({ type: "room", action: { kind: "scan" } }),
          stop: () => dispatch({ type: "room", action: { kind: "stop" } }),
          hands: (letter, count) => dispatch({ type: "room", action: { kind: "hands", letter, count } }),
          choices: lessonChoices,
        }),
      ),
    ),
    quiz: onFirstUse(() =>
      import("../panels/quiz").then((m) =>
        m.createQuiz(byId("quiz"), {
          pick: (choice) => dispatch({ type: "quiz", action: { kind: "pick", choice } }),
          next: () => dispatch({ type: "quiz", action: { kind: "next" } }),
          again: () => dispatch({ type: "quiz", action: { kind: "again" } }),
          urlOf,
        }),
      ),
    ),
    // The Glossary (the masthead's button) and the terms the headline links to it.
    glossary: onFirstUse(() => import("../panels/glossary").then((m) => m.createGlossary(byId("glossary")))),
    code: onFirstUse(() => import("../panels/code").then((m) => m.createCodePanel(byId("code"), codec))),
    native: onFirstUse(() => import("../panels/native").then((m) => m.createNativeNote(byId("native")))),
    calibrate,
    trace,
    exportTools: onFirstUse(() =>
      import("../panels/export").then((m) =>
        m.createExport(byId("export"), {
          link: (report: LabReport) => urlOf(report.link),
          compared: (report: LabReport) => comparedExport(state(), report, labOf("read").labelOf),
          labelOf: (report: LabReport) => labOf(report.lab).labelOf,
          charts: () => labOf(state().params.lab).charts(),
        }),
      ),
    ),
    // Baselines write links with the program build, so they wait for it.
    baseline: onFirstUse(() =>
      Promise.all([import("../panels/baseline"), codec.programLoaded]).then(([m]) =>
        m.createBaseline(byId("baseline"), {
          labelOf: (id) => labOf("read").labelOf(id),
          urlOf,
          pairsOf: (link) => codec.experimentPairs(link),
          paramsOf: (link) => codec.decodeLink(link).params,
          compareWith: (base, name, report) => intents.compareSaved(name, base.report, report),
        }),
      ),
    ),
    // The read lab's comparison of A and B: its control on every run, its results with a comparison.
    compare: onFirstUse(() =>
      import("../labs/read/compare").then((m) =>
        m.createCompare(byId("compare"), {
          schema: codec.schema,
          labelOf: (id) => labOf("read").labelOf(id),
          onCompare: (key, value) => intents.compareWith(key, value),
          onFiles: (files) => intents.compareFiles(files),
          onClose: () => intents.closeCompare(),
        }),
      ),
    ),
    embedBar: createEmbedBar(
      byId("embed-bar"),
      (params) => (codec.ready ? urlOf(codec.encodeLink({ ...params, embed: [] })) : null),
      () => self.crossOriginIsolated,
    ),
    embedCode: createEmbedCode(byId("embed-share"), (params) => urlOf(codec.encodeLink(params))),
    presenter: createPresenterToggle(byId("present"), {
      toggle: (on) => intents.display({ ...state().params, present: on }),
      // The students' link: the teacher's lesson and step, without presenter mode, and always asking first (predict on).
      studentsLink: () => urlOf(codec.links({ ...state().params, present: false, predict: true }).link),
      // A workshop: presenter mode and predict on, on the open lesson or the first.
      startWorkshop: () => {
        const params = state().params;
        intents.display({ ...params, present: true, predict: true });
        if (params.lesson === null) lessons((l) => l.open(l.order[0]!));
      },
    }),
  };
}
