// The lessons (crate/src/catalog/lessons.rs), generated as data like the
// schema (crate/src/types.rs). Only the lessons panel imports them, so their
// texts load with its chunk, not before the first numbers.

import data from "./lessons.gen.json";
import type { Lesson } from "./types.gen";

export const lessons = data as Lesson[];
