// No function in the page's code is longer than a reader can hold: every
// function, method and arrow in web/src (tests aside) spans at most
// MAX_LINES lines, a closure that builds a piece of the page included. The
// code is parsed (rolldown's parser, the one Vite builds the page with), so
// a function is what the language says it is, not a guess from braces.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAst } from "rolldown/parseAst";
import { describe, expect, it } from "vitest";

const MAX_LINES = 150;
const src = dirname(fileURLToPath(import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") && !name.includes(".test.") ? [path] : [];
  });
}

interface Span {
  name: string;
  line: number;
  lines: number;
}

/** Every function in `text` (declarations, expressions, arrows, methods), with where it starts and how many lines it spans. */
export function functionSpans(text: string, file = "x.ts"): Span[] {
  const lineAt = (offset: number): number => text.slice(0, offset).split("\n").length;
  const spans: Span[] = [];
  const visit = (node: unknown, name: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, name));
    if (node === null || typeof node !== "object") return;
    const n = node as { type?: string; start: number; end: number; id?: { name?: string }; key?: { name?: string }; body?: unknown };
    let inner = name;
    if (n.key?.name) inner = n.key.name;
    if ((n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression") && n.body) {
      inner = n.id?.name ?? name;
      spans.push({ name: inner, line: lineAt(n.start), lines: lineAt(n.end) - lineAt(n.start) + 1 });
    }
    if (n.type === "VariableDeclarator" && n.id?.name) inner = n.id.name;
    for (const [key, value] of Object.entries(n)) if (key !== "parent") visit(value, inner);
  };
  visit(parseAst(text, { lang: "ts" }, file), "(anonymous)");
  return spans;
}

describe("function size", () => {
  it("counts a function's lines from its first to its last", () => {
    const text = "const a = 1;\nexport function two() {\n  return 2;\n}\nconst arrow = () => {\n  const x = 1;\n  return x;\n};\n";
    expect(functionSpans(text)).toEqual([
      { name: "two", line: 2, lines: 3 },
      { name: "arrow", line: 5, lines: 4 },
    ]);
  });

  it(`no function in web/src spans more than ${MAX_LINES} lines`, () => {
    const long = files(src).flatMap((path) =>
      functionSpans(readFileSync(path, "utf8"), path)
        .filter((span) => span.lines > MAX_LINES)
        .map((span) => `${relative(src, path)}:${span.line} ${span.name}: ${span.lines} lines`),
    );
    expect(long).toEqual([]);
  });
});
