// The write lab's tables: every number behind its charts (cursors.ts,
// sink.ts), the write-cursor article's qualities per flavour
// (qualities.ts), and the final-flush demonstration (final-flush.ts). Each
// is the table kit's table (table.results: cards on narrow screens, cells
// carrying data-metric and data-value for tests and scripts).

import type { Codec } from "../../../engine/codec";
import type { WriteReport } from "../../../engine/types.gen";
import { createCursorTable } from "./cursors";
import { createFinalFlush } from "./final-flush";
import { createQualities } from "./qualities";
import { createSinkTable } from "./sink";

export interface WriteTables {
  readonly flavours: HTMLElement;
  readonly qualities: HTMLElement;
  readonly sink: HTMLElement;
  readonly finalFlush: HTMLElement;
  /** `timing`: whether times not yet in are still coming. */
  update(report: WriteReport, timing: boolean): void;
}

export function createWriteTables(codec: Codec): WriteTables {
  const labelOf = (id: string): string => codec.schema.flavours.find((f) => f.id === id)?.label ?? id;
  const pieces = [createCursorTable(codec, labelOf), createSinkTable(codec), createFinalFlush(codec)] as const;
  const [flavours, sink, finalFlush] = pieces;
  return {
    flavours: flavours.element,
    qualities: createQualities(codec),
    sink: sink.element,
    finalFlush: finalFlush.element,
    update(report, timing) {
      for (const piece of pieces) piece.update(report, timing);
    },
  };
}
