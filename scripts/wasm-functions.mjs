// Where a wasm module's code bytes go, by Rust module:
// `node scripts/wasm-functions.mjs MODULE.wasm [ROWS] [--functions]`.
// MODULE is a build before wasm-bindgen and wasm-opt, which still has its
// name section (target/wasm32-unknown-unknown/release/buflab.wasm after a
// `cargo build --target wasm32-unknown-unknown`); the page's builds have
// none. Each function body's size is summed under `buflab::<a>::<b>` for our
// code (serde's generated code for our types under `serde:`), the crate
// name otherwise; `--functions` lists the largest functions instead.
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const [file, rows = "40"] = args.filter((a) => !a.startsWith("--"));
if (!file) {
  console.error("usage: node scripts/wasm-functions.mjs MODULE.wasm [ROWS] [--functions]");
  process.exit(2);
}
const buf = readFileSync(file);
let at = 8;
const leb = () => {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = buf[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return value;
};
const name = () => {
  const n = leb();
  const text = buf.toString("utf8", at, at + n);
  at += n;
  return text;
};
const limits = () => {
  const flags = buf[at++];
  leb();
  if (flags & 1) leb();
};

let imported = 0;
const sizes = [];
const names = new Map();
while (at < buf.length) {
  const id = buf[at++];
  const end = leb() + at;
  if (id === 2) {
    for (let i = leb(); i > 0; i--) {
      name();
      name();
      const kind = buf[at++];
      if (kind === 0) (leb(), imported++);
      else if (kind === 1) (at++, limits());
      else if (kind === 2) limits();
      else if (kind === 3) at += 2;
      else leb();
    }
  } else if (id === 10) {
    for (let i = leb(); i > 0; i--) {
      const size = leb();
      sizes.push(size);
      at += size;
    }
  } else if (id === 0 && name() === "name") {
    while (at < end) {
      const sub = buf[at++];
      const subEnd = leb() + at;
      if (sub === 1) for (let i = leb(); i > 0; i--) names.set(leb(), name());
      at = subEnd;
    }
  }
  at = end;
}
if (names.size === 0) console.error(`${file} has no name section: use the module cargo wrote, before wasm-bindgen`);

/** A legacy-mangled name's path (`_ZN6buflab4wasm4quiz17h…E` → `buflab::wasm::quiz`), readable. */
function demangle(mangled) {
  if (!mangled.startsWith("_ZN")) return mangled;
  const parts = [];
  let i = 3;
  for (;;) {
    const digits = /^\d+/.exec(mangled.slice(i));
    if (!digits) break;
    i += digits[0].length;
    parts.push(mangled.slice(i, i + Number(digits[0])));
    i += Number(digits[0]);
  }
  return parts
    .filter((p) => !/^h[0-9a-f]{16}$/.test(p))
    .join("::")
    .replace(/\$LT\$/g, "<")
    .replace(/\$GT\$/g, ">")
    .replace(/\$u20\$/g, " ")
    .replace(/\$C\$/g, ",")
    .replace(/\.\./g, "::");
}

/** Where a function's bytes are counted. */
function group(path) {
  const ours = /buflab::(\w+)::(\w+)/.exec(path);
  if (ours) return `${/serde/.test(path) ? "serde:" : ""}buflab::${ours[1]}::${ours[2]}`;
  const crate = /^_R.*?Cs\w+?_(\d+)/.exec(path);
  if (crate) return path.slice(crate.index + crate[0].length, crate.index + crate[0].length + Number(crate[1]));
  return path.replace(/^_?</, "").split(/::| /)[0];
}

const functions = sizes.map((size, i) => ({ size, path: demangle(names.get(i + imported) ?? `function ${i + imported}`) }));
const total = sizes.reduce((a, b) => a + b, 0);
console.log(`${file}: ${functions.length} functions, ${(total / 1024).toFixed(1)} KiB of code`);
if (args.includes("--functions")) {
  for (const f of functions.sort((a, b) => b.size - a.size).slice(0, Number(rows))) console.log(String(f.size).padStart(8), f.path.slice(0, 160));
} else {
  const groups = new Map();
  for (const f of functions) groups.set(group(f.path), (groups.get(group(f.path)) ?? 0) + f.size);
  for (const [g, size] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) {
    console.log(`${(size / 1024).toFixed(1).padStart(8)} KiB  ${g}`);
  }
}
