// Result files and saved baselines into the comparison view, at the edge:
// each file is read no further than the engine reads (a larger one is
// refused by its size, not read whole), the engine pairs the reports in the
// trace build's worker (engine/pair.ts), and the answer is one
// `compareFile` action: the comparison, or a notice per file refused. A
// chunk of its own, loaded when first used (intents.ts).

import type { LabReport, Report } from "../engine/types.gen";
import { messageOf } from "../engine/errors";
import { pairResults } from "../engine/pair";
import type { Action } from "./state";

export interface FilesOptions {
  dispatch(action: Action): void;
  /** The timed report on screen (A against one file), or null. */
  onScreen(): LabReport | null;
  /** The largest result the engine reads, in bytes. */
  maxBytes: number;
}

/**
 * One file is B against the report on screen; two are A and B. Every file
 * refused gets its own notice: where two cannot be paired, each is read
 * alone to find which is at fault, and files good alone that still cannot be
 * paired get the pair's message.
 */
export async function compareFiles(files: readonly File[], { dispatch, onScreen, maxBytes }: FilesOptions): Promise<void> {
  const refuse = (file: string, message: string, others: { file: string; message: string }[] = []): void =>
    dispatch({ type: "compareFile", file, outcome: { kind: "refused", message, others } });
  const textOf = (file: File): Promise<string> => file.slice(0, maxBytes + 1).text();
  const [first, second] = files;
  if (!first) return;
  if (files.length > 2) return refuse(`${files.length} files`, `Open one result file (B, against the result on screen) or two (A and B), not ${files.length}: nothing was opened.`);
  try {
    if (!second) {
      const a = onScreen();
      if (a === null) return refuse(first.name, "Measure A first: a result file is compared with the timed result on screen.");
      const comparison = await pairResults(JSON.stringify(a), await textOf(first));
      return dispatch({ type: "compareFile", file: first.name, outcome: { kind: "paired", comparison } });
    }
    const texts = await Promise.all([textOf(first), textOf(second)]);
    try {
      const comparison = await pairResults(texts[0], texts[1]);
      return dispatch({ type: "compareFile", file: second.name, fileA: first.name, outcome: { kind: "paired", comparison } });
    } catch (error) {
      const alone = await Promise.all(
        texts.map((text, i) =>
          pairResults(text, text).then(
            () => null,
            (e: unknown) => ({ file: files[i]!.name, message: messageOf(e).replace(/^[AB]: /, "") }),
          ),
        ),
      );
      const bad = alone.filter((r) => r !== null);
      const [head, ...rest] = bad.length > 0 ? bad : [{ file: `${first.name} and ${second.name}`, message: messageOf(error) }];
      return refuse(head!.file, head!.message, rest);
    }
  } catch (error) {
    refuse(first.name, messageOf(error));
  }
}

/** A saved baseline's report (`name` says which) as A, against `report`, the run on screen, as B. */
export async function compareSaved(name: string, saved: Report, report: Report, dispatch: (action: Action) => void): Promise<void> {
  try {
    const comparison = await pairResults(JSON.stringify(saved), JSON.stringify(report));
    dispatch({ type: "compareFile", file: "the run on screen", fileA: name, outcome: { kind: "paired", comparison } });
  } catch (error) {
    dispatch({ type: "compareFile", file: name, outcome: { kind: "refused", message: messageOf(error) } });
  }
}
