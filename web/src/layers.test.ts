// The web code's layers, read from the import statements themselves: a
// folder may only import from the folders its layer allows, so the shared
// widgets stay free of any lab or panel, and a lab of any panel or other lab.
//
//   main.ts      boot: app, engine, offline, shared
//   handout.ts   the printable lesson handout: app (link), engine, shared
//   app/         the page, its state, the link, the lab registry: anything below
//   panels/      lessons, baseline, export, code, presenter, about: app (state, link), shared, engine
//   labs/<lab>/  one lab: its own folder, shared, engine
//   shared/      fields, chart kit, table kit, theme, dom, format: shared, engine
//   engine/      the worker bridge and generated types: engine only

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = dirname(fileURLToPath(import.meta.url));

/** Every .ts file under `dir`, as paths relative to web/src. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [relative(src, path)] : [];
  });
}

/** The relative module paths a file imports (static, dynamic and `export … from`), resolved against web/src. */
export function importsOf(file: string, text: string): string[] {
  const found: string[] = [];
  const patterns = [/\bimport\s+(?:type\s+)?[^'"`;]*?from\s*["']([^"']+)["']/g, /\bexport\s+[^'"`;]*?from\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, /\bimport\s*["']([^"']+)["']/g];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const target = match[1]!;
      if (target.startsWith(".")) found.push(relative(src, resolve(src, dirname(file), target)));
    }
  }
  return found;
}

/** The layer a path under web/src belongs to: "labs/read" for a lab, else its first folder (or the file for main.ts). */
function layerOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] === "labs") return `labs/${parts[1]}`;
  return parts.length > 1 ? parts[0]! : path.replace(/\.ts$/, "");
}

/** Which layers each layer may import from (besides itself). */
const ALLOWED: Record<string, (target: string) => boolean> = {
  main: (t) => ["app", "engine", "offline", "shared"].includes(t),
  handout: (t) => ["app", "engine", "shared"].includes(t),
  app: (t) => t.startsWith("labs/") || ["engine", "panels", "shared"].includes(t),
  panels: (t) => ["app", "engine", "shared"].includes(t),
  shared: (t) => t === "engine",
  engine: (t) => t === "pkg",
  offline: () => false,
  bench: (t) => ["engine", "pkg"].includes(t),
  layers: () => false,
};

describe("web code layers", () => {
  const all = files(src).filter((f) => !f.startsWith("../"));

  it("reads the imports it checks (the reader finds every form of import)", () => {
    const text = `import { a } from "../shared/dom";\nimport type { B } from "./b";\nexport { c } from "../labs/read/c";\nconst d = await import("../panels/d");\nimport "./e.css";`;
    expect(importsOf("app/page.ts", text)).toEqual(["shared/dom", "app/b", "labs/read/c", "panels/d", "app/e.css"]);
    // Every file of the page is looked at, and shared/ is not empty.
    expect(all.filter((f) => f.startsWith("shared/")).length).toBeGreaterThan(5);
    expect(all.filter((f) => f.startsWith("labs/")).length).toBeGreaterThan(5);
  });

  it("shared/ imports nothing from a lab, a panel or the app", () => {
    const wrong = all
      .filter((f) => f.startsWith("shared/"))
      .flatMap((f) => importsOf(f, readFileSync(join(src, f), "utf8")).map((t) => `${f} → ${t}`))
      .filter((edge) => /→ (labs|panels|app)\//.test(edge));
    expect(wrong).toEqual([]);
  });

  it("every import follows the layers (a lab never imports a panel or another lab)", () => {
    const wrong: string[] = [];
    for (const file of all) {
      if (file.endsWith(".test.ts")) continue;
      const from = layerOf(file);
      for (const target of importsOf(file, readFileSync(join(src, file), "utf8"))) {
        const to = layerOf(target.startsWith("../pkg") ? "pkg/x" : target);
        if (to === from) continue;
        const allowed = from.startsWith("labs/") ? ["shared", "engine"].includes(to) : (ALLOWED[from]?.(to) ?? false);
        if (!allowed) wrong.push(`${file} (${from}) → ${target} (${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
