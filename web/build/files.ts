// What the build plugins share: the files under a folder, recursively.

import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Every file under `dir`, at any depth, as a path starting with `dir`. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const path = join(dir, item.name);
    return item.isDirectory() ? filesUnder(path) : [path];
  });
}
