// The web code's layers, read from the import statements themselves: a
// folder may only import from the folders its layer allows, so the shared
// widgets stay free of any lab or panel, and a lab of any panel or other
// lab; and no file reaches itself through its imports, inside a layer or
// across layers (type-only imports count: a cycle of types is a cycle of
// meaning).
//
//   main.ts      boot: app, engine, offline, shared
//   handout.ts   the printable lesson handout: app (link), engine, shared, and the room's cards page (panels/room)
//   app/         the page, its state, the link, the lab registry: anything below
//   panels/      lessons, baseline, export, code, presenter, about: shared, engine
//                (each panel declares what it is handed, e.g. panels/lessons/view.ts)
//   labs/<lab>/  one lab: its own folder, shared, engine
//   shared/      fields, chart kit, table kit, theme, dom, format: shared, engine
//   engine/      the worker bridge and generated types: engine only

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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
  handout: (t) => ["app", "engine", "panels", "shared"].includes(t),
  app: (t) => t.startsWith("labs/") || ["engine", "panels", "shared"].includes(t),
  panels: (t) => ["engine", "shared"].includes(t),
  shared: (t) => t === "engine",
  engine: (t) => t === "pkg",
  offline: () => false,
  bench: (t) => ["engine", "pkg"].includes(t),
  layers: () => false,
};

/** The file an import names: `app/state` → `app/state.ts`, a folder → its `index.ts`; null outside web/src's TypeScript. */
function fileOf(target: string): string | null {
  for (const candidate of [`${target}.ts`, join(target, "index.ts"), target]) {
    if (candidate.endsWith(".ts") && existsSync(join(src, candidate)) && statSync(join(src, candidate)).isFile()) return candidate;
  }
  return null;
}

/** The import cycles among `files` (each a strongly connected set of two or more files, or one that imports itself), as sorted lists. */
export function cyclesOf(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("web code layers", () => {
  const all = files(src).filter((f) => !f.startsWith("../"));

  it("reads the imports it checks (the reader finds every form of import)", () => {
    const text = `import { a } from "../shared/dom";\nimport type { B } from "./b";\nexport { c } from "../labs/read/c";\nconst d = await import("../panels/d");\nimport "./e.css";`;
    expect(importsOf("app/page.ts", text)).toEqual(["shared/dom", "app/b", "labs/read/c", "panels/d", "app/e.css"]);
    // Every file of the page is looked at, and shared/ is not empty.
    expect(all.filter((f) => f.startsWith("shared/")).length).toBeGreaterThan(5);
    expect(all.filter((f) => f.startsWith("labs/")).length).toBeGreaterThan(5);
  });

  it("finds a cycle, inside a folder too (the checker itself)", () => {
    const edges = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
    ]);
    expect(cyclesOf(edges)).toEqual([["a.ts", "b.ts", "c.ts"], ["e.ts"]]);
    expect(cyclesOf(new Map([["a.ts", ["b.ts"]], ["b.ts", []]]))).toEqual([]);
  });

  it("no file reaches itself through its imports (no cycle, inside a layer or across)", () => {
    const edges = new Map(
      all
        .filter((f) => !f.endsWith(".test.ts"))
        .map((f) => [f, importsOf(f, readFileSync(join(src, f), "utf8")).flatMap((t) => fileOf(t) ?? [])] as const),
    );
    expect(edges.get("app/page.ts")?.length, "the graph reads the page's imports").toBeGreaterThan(5);
    expect(cyclesOf(edges)).toEqual([]);
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
