// The sweep's axes (the schema's sweep_axes) and their values in words.

import type { Codec } from "../../../engine/codec";
import type { SweepAxis, SweepAxisInfo } from "../../../engine/types.gen";
import { bytesLabel, formatCount } from "../../../shared/format";

export interface Axes {
  readonly all: readonly SweepAxisInfo[];
  /** The axis with id `id` (the first for an unknown one). */
  infoOf(id: SweepAxis): SweepAxisInfo;
  /** A value as the axis writes it: "512", "64K", "8". */
  formatValue(axis: SweepAxisInfo, v: number): string;
  /** A value in words, for sentences: "512 B", "64 KiB", "8", "2 MiB/s". */
  valueWords(axis: SweepAxisInfo, v: number): string;
  /** An axis at a value in words: "buffer capacity 512 B". */
  axisWords(axis: SweepAxisInfo, v: number): string;
}

export function axesOf(codec: Codec): Axes {
  const all = codec.schema.sweep_axes;
  const valueWords = (axis: SweepAxisInfo, v: number): string => (axis.bytes ? bytesLabel(codec.formatSize(v)) : formatCount(v)) + axis.per;
  return {
    all,
    infoOf: (id) => all.find((a) => a.id === id) ?? all[0]!,
    formatValue: (axis, v) => (axis.bytes ? codec.formatSize(v) : String(v)),
    valueWords,
    axisWords: (axis, v) => `${axis.label.toLowerCase()} ${valueWords(axis, v)}`,
  };
}
