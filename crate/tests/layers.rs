//! The engine's layers import one way only (see `src/lib.rs`):
//!
//! ```text
//! model  <  link  <  engine  <  catalog  <  api, bench  <  wasm glue, CLI
//! ```
//!
//! (`engine` may not import `link`: it sits beside it, on the model.) A file
//! may use its own layer and the ones it builds on, never one above. The
//! model depends on std and serde only, and only `wasm.rs` knows
//! wasm-bindgen. Test modules are exempt: a unit test may decode a link.
//!
//! Inside a layer too, the modules' imports have no cycle: each source file
//! is a module, and one that names another's item (a `use`, or a path in its
//! code) depends on the module that defines it, through any `pub use`
//! re-exports. A parent module counts like any other: a child that uses its
//! parent's own items and a parent that uses the child's are a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, lowest first; each names the layers it may import.
const LAYERS: &[(&str, &[&str])] = &[
    ("model", &["model"]),
    ("link", &["model", "link"]),
    ("engine", &["model", "engine"]),
    ("catalog", &["model", "link", "engine", "catalog"]),
    ("api", &["model", "link", "engine", "catalog", "api"]),
    ("bench", &["model", "link", "engine", "catalog", "api", "bench"]),
    ("types", &["model", "link", "engine", "catalog", "types"]),
    ("wasm", &["model", "link", "engine", "catalog", "api", "bench", "wasm"]),
    ("bin", &["model", "link", "engine", "catalog", "api", "bench"]),
];

/// External crates the model may use.
const MODEL_CRATES: &[&str] = &["std", "core", "alloc", "serde"];

/// The layer a source file belongs to: its first path component under src/.
fn layer_of(rel: &Path) -> String {
    let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_string()
}

/// `text` with its comments removed and its string and character literals
/// emptied (`""`, `' '`), line breaks kept: what is left is code only.
fn without_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if (c == 'r' || c == 'b') && !(i > 0 && ident(chars[i - 1])) && raw_string_start(&chars[i..]).is_some() {
            // r"…", r#"…"#, br"…": no escapes, ends at `"` and as many `#`.
            let (prefix, hashes) = raw_string_start(&chars[i..]).unwrap();
            i += prefix;
            let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            while i < chars.len() && !chars[i..].starts_with(&closing) {
                if chars[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += closing.len();
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\n' {
                    out.push('\n');
                }
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\u{..}'); a lifetime ('a) is code.
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// At the start of a raw string (`r"`, `r#"`, `br##"`): how many characters
/// open it, and its number of `#`.
fn raw_string_start(chars: &[char]) -> Option<(usize, usize)> {
    let mut i = usize::from(chars.first() == Some(&'b'));
    if chars.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    (chars.get(i + hashes) == Some(&'"')).then_some((i + hashes + 1, hashes))
}

/// The code of a file without its unit tests (`#[cfg(test)] mod tests`), and
/// nothing at all for a file that is a test module itself.
fn non_test_code(rel: &Path, text: &str) -> String {
    if rel.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let text = without_comments_and_strings(text);
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" && lines.peek().is_some_and(|next| next.trim_start().starts_with("mod tests")) {
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Every `crate::<module>` the code names.
fn crate_modules(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // e.g. `buflab_crate::`
        }
        let rest = &code[i + "crate::".len()..];
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            found.push(name);
        }
    }
    found
}

/// Crates a file's `use` lines name at their start (not its own submodules).
fn external_crates(code: &str) -> Vec<String> {
    let word = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let own: Vec<String> = code
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("pub mod ").or_else(|| l.trim_start().strip_prefix("mod ")))
        .map(word)
        .collect();
    let mut found = Vec::new();
    for line in code.lines() {
        let t = line.trim_start();
        if let Some(path) = t.strip_prefix("pub use ").or_else(|| t.strip_prefix("use ")) {
            let name = word(path);
            if !["crate", "super", "self"].contains(&name.as_str()) && !own.contains(&name) {
                found.push(name);
            }
        }
    }
    found
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every violation in one file: `file: what`.
fn violations(rel: &Path, text: &str) -> Vec<String> {
    let layer = layer_of(rel);
    let Some((_, allowed)) = LAYERS.iter().find(|(name, _)| *name == layer) else {
        return vec![format!("{}: not in any layer (add it to LAYERS and to lib.rs's list)", rel.display())];
    };
    let code = non_test_code(rel, text);
    let mut out = Vec::new();
    for module in crate_modules(&code) {
        let known = LAYERS.iter().any(|(name, _)| *name == module);
        if known && !allowed.contains(&module.as_str()) {
            out.push(format!("{}: layer `{layer}` imports `crate::{module}`", rel.display()));
        }
    }
    if layer == "model" {
        for krate in external_crates(&code) {
            if !MODEL_CRATES.contains(&krate.as_str()) {
                out.push(format!("{}: the model uses the crate `{krate}` (std + serde only)", rel.display()));
            }
        }
    }
    if layer != "wasm" && (code.contains("wasm_bindgen") || code.contains("web_sys") || code.contains("js_sys")) {
        out.push(format!("{}: only wasm.rs may know wasm-bindgen", rel.display()));
    }
    out
}

/// A module's path in the crate, from its file: `catalog/glossary.rs` is
/// `catalog::glossary`, `engine/readers/mod.rs` is `engine::readers`,
/// `lib.rs` the root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

/// The code's tokens that matter to paths: identifiers, `::` and single
/// punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
            i += 1;
        }
    }
    out
}

/// One path a `use` names: its segments, and whether the `use` is `pub`
/// (a re-export) with the name it exports.
struct UsePath {
    path: Vec<String>,
    export: Option<String>,
}

/// Every path of every `use` in `toks` (`use a::{b, c::{d as e}, f::*};`
/// gives `a::b`, `a::c::d` as `e`, `a::f`).
fn use_paths(toks: &[String]) -> Vec<UsePath> {
    fn tree(toks: &[String], i: &mut usize, prefix: &[String], public: bool, out: &mut Vec<UsePath>) {
        let mut path = prefix.to_vec();
        loop {
            match toks.get(*i).map(String::as_str) {
                Some("{") => {
                    *i += 1;
                    while toks.get(*i).is_some_and(|t| t != "}") {
                        tree(toks, i, &path, public, out);
                        if toks.get(*i).is_some_and(|t| t == ",") {
                            *i += 1;
                        }
                    }
                    *i += 1;
                    return;
                }
                Some("*") => {
                    *i += 1;
                    out.push(UsePath { path, export: None });
                    return;
                }
                Some("::") => *i += 1,
                Some(t) if t.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                    path.push(t.to_string());
                    *i += 1;
                    if toks.get(*i).is_some_and(|t| t == "::") {
                        continue;
                    }
                    let mut name = path.last().cloned().unwrap();
                    if toks.get(*i).is_some_and(|t| t == "as") {
                        name = toks.get(*i + 1).cloned().unwrap_or_default();
                        *i += 2;
                    }
                    if path.last().is_some_and(|l| l == "self") {
                        path.pop();
                        name = path.last().cloned().unwrap_or_default();
                    }
                    out.push(UsePath { path, export: public.then_some(name) });
                    return;
                }
                _ => return,
            }
        }
    }
    let mut out = Vec::new();
    for (mut i, t) in toks.iter().enumerate() {
        if t != "use" {
            continue;
        }
        let before = &toks[..i];
        let public = before.last().is_some_and(|t| t == "pub")
            || (before.last().is_some_and(|t| t == ")") && before.iter().rev().take(4).any(|t| t == "pub"));
        i += 1;
        tree(toks, &mut i, &[], public, &mut out);
    }
    out
}

/// Paths written in the code (not in a `use`) that start at a module:
/// `crate::a::b`, `super::x`, `self::y`, or a child module's name.
fn code_paths(toks: &[String], children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        let t = toks[i].as_str();
        let starts = ["crate", "super", "self"].contains(&t) || children.contains(t);
        let after_path = i > 0 && toks[i - 1] == "::";
        if !starts || after_path || toks.get(i + 1).is_none_or(|n| n != "::") {
            continue;
        }
        let mut path = vec![t.to_string()];
        let mut j = i + 1;
        let is_name = |t: Option<&String>| t.is_some_and(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_'));
        while toks.get(j).is_some_and(|n| n == "::") && is_name(toks.get(j + 1)) {
            path.push(toks[j + 1].clone());
            j += 2;
        }
        // `a::{b, c}` and `a::*` are a `use` tree's (see `use_paths`).
        let group = toks.get(j).is_some_and(|n| n == "::") && toks.get(j + 1).is_some_and(|n| n == "{" || n == "*");
        if !group {
            out.push(path);
        }
    }
    out
}

/// `path` as written in module `at` made absolute (from the crate root);
/// `None` for a path into another crate.
fn absolute(at: &[String], path: &[String], children: &BTreeSet<String>) -> Option<Vec<String>> {
    let first = path.first()?.as_str();
    let mut base: Vec<String> = match first {
        "crate" => Vec::new(),
        "self" | "super" => at.to_vec(),
        c if children.contains(c) => at.to_vec(),
        _ => return None,
    };
    let mut rest = path;
    if first == "crate" || first == "self" {
        rest = &path[1..];
    }
    while rest.first().is_some_and(|s| s == "super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The crate's modules and which module each one's code depends on.
struct Graph {
    /// Each module's file, by module path.
    files: BTreeMap<Vec<String>, String>,
    edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
}

/// The module-level import graph of `files` (path under src/, text); test
/// code and the binaries under `bin/` (other crates) are left out.
fn import_graph(files: &[(PathBuf, String)]) -> Graph {
    let mut parsed = BTreeMap::new();
    for (rel, text) in files {
        if rel.starts_with("bin") {
            continue;
        }
        let toks = tokens(&non_test_code(rel, text));
        parsed.insert(module_of(rel), (rel.display().to_string(), toks));
    }
    let modules: BTreeSet<Vec<String>> = parsed.keys().cloned().collect();
    let children_of = |m: &Vec<String>| -> BTreeSet<String> {
        let child = |c: &&Vec<String>| c.len() == m.len() + 1 && c.starts_with(m);
        modules.iter().filter(child).map(|c| c.last().unwrap().clone()).collect()
    };
    // What each module re-exports: name → the absolute path it stands for.
    let mut exports: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (m, (_, toks)) in &parsed {
        let children = children_of(m);
        for u in use_paths(toks) {
            if let (Some(name), Some(abs)) = (u.export, absolute(m, &u.path, &children)) {
                exports.entry(m.clone()).or_default().insert(name, abs);
            }
        }
    }
    // The module that defines what `path` names: its longest prefix that is a
    // module, followed through that module's re-exports.
    let resolve = |path: &[String]| -> Option<Vec<String>> {
        let mut path = path.to_vec();
        for _ in 0..16 {
            let n = (0..=path.len()).rev().find(|&n| modules.contains(&path[..n]))?;
            let module = path[..n].to_vec();
            match path.get(n).and_then(|name| exports.get(&module)?.get(name)) {
                Some(target) if target[..] != path[..=n] => {
                    let mut next = target.clone();
                    next.extend(path[n + 1..].iter().cloned());
                    path = next;
                }
                _ => return Some(module),
            }
        }
        None
    };
    let mut edges = BTreeMap::new();
    for (m, (_, toks)) in &parsed {
        let children = children_of(m);
        let named = use_paths(toks).into_iter().map(|u| u.path).chain(code_paths(toks, &children));
        let targets: BTreeSet<Vec<String>> = named
            .filter_map(|p| absolute(m, &p, &children))
            .filter_map(|abs| resolve(&abs))
            .filter(|t| t != m)
            .collect();
        edges.insert(m.clone(), targets);
    }
    Graph { files: parsed.into_iter().map(|(m, (file, _))| (m, file)).collect(), edges }
}

/// Every import cycle, one line each (`a.rs → b.rs → a.rs`): one cycle
/// through each group of modules that reach each other.
fn cycles(g: &Graph) -> Vec<String> {
    let reach = |from: &Vec<String>| -> BTreeSet<Vec<String>> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for n in g.edges.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let mut reported: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut out = Vec::new();
    for m in g.edges.keys() {
        let ahead = reach(m);
        if !ahead.contains(m) || reported.contains(m) {
            continue;
        }
        // The group: the modules `m` reaches that reach `m` back.
        let group: BTreeSet<Vec<String>> = ahead.iter().filter(|n| reach(n).contains(m)).cloned().collect();
        reported.extend(group.iter().cloned());
        // A shortest way round, from `m` back to `m`, by breadth first.
        let mut came_from: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([m.clone()]);
        'search: while let Some(at) = queue.pop_front() {
            for n in g.edges.get(&at).into_iter().flatten().filter(|n| group.contains(*n)) {
                if n == m {
                    came_from.insert(m.clone(), at.clone());
                    break 'search;
                }
                if !came_from.contains_key(n) {
                    came_from.insert(n.clone(), at.clone());
                    queue.push_back(n.clone());
                }
            }
        }
        let mut way = vec![m.clone()];
        let mut at = came_from[m].clone();
        while &at != m {
            way.push(at.clone());
            at = came_from[&at].clone();
        }
        way.push(m.clone());
        way.reverse();
        let names: Vec<&str> = way.iter().map(|w| g.files[w].as_str()).collect();
        out.push(names.join(" → "));
    }
    out
}

fn crate_files() -> Vec<(PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    sources(&src, &mut paths);
    paths.iter().map(|p| (p.strip_prefix(&src).unwrap().to_path_buf(), fs::read_to_string(p).unwrap())).collect()
}

#[test]
fn imports_go_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut bad = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap();
        if rel == Path::new("lib.rs") {
            continue;
        }
        bad.extend(violations(rel, &fs::read_to_string(path).unwrap()));
    }
    assert!(files.len() > 20, "found only {} source files", files.len());
    assert!(bad.is_empty(), "layer violations:\n{}", bad.join("\n"));
}

#[test]
fn the_checker_catches_each_kind_of_violation() {
    let upward = "use crate::link::decode;\nfn f() { crate::catalog::schema(); }\n";
    assert_eq!(violations(Path::new("engine/x.rs"), upward).len(), 2);
    assert_eq!(violations(Path::new("model/x.rs"), "use crate::engine::source::Source;\n").len(), 1);
    assert_eq!(violations(Path::new("model/x.rs"), "use bytes::BytesMut;\n").len(), 1);
    assert_eq!(violations(Path::new("catalog/x.rs"), "use wasm_bindgen::prelude::*;\n").len(), 1);
    assert_eq!(violations(Path::new("nowhere.rs"), "").len(), 1);
    // Allowed: downward imports, comments, unit tests.
    let fine = "use crate::model::Params; // crate::catalog is above\n#[cfg(test)]\nmod tests {\n    use crate::link;\n}\n";
    assert!(violations(Path::new("engine/x.rs"), fine).is_empty());
    assert!(violations(Path::new("link/tests.rs"), "use crate::catalog::schema;\n").is_empty());
}

#[test]
fn no_module_imports_itself_through_others() {
    let files = crate_files();
    let g = import_graph(&files);
    assert!(g.edges.len() > 20, "read only {} modules", g.edges.len());
    let found = cycles(&g);
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

fn graph_of(files: &[(&str, &str)]) -> Graph {
    let owned: Vec<(PathBuf, String)> = files.iter().map(|(p, t)| (PathBuf::from(p), t.to_string())).collect();
    import_graph(&owned)
}

#[test]
fn the_cycle_checker_finds_cycles_inside_a_layer() {
    // Two siblings, one by `super::` and one by `crate::`.
    let siblings = graph_of(&[
        ("catalog/mod.rs", "pub mod a;\npub mod b;\n"),
        ("catalog/a.rs", "use super::b::B;\npub struct A;\n"),
        ("catalog/b.rs", "pub struct B(crate::catalog::a::A);\n"),
    ]);
    assert_eq!(cycles(&siblings), ["catalog/a.rs → catalog/b.rs → catalog/a.rs"]);
    // A child using its parent's own item while the parent re-exports the
    // child's; and a cycle through a re-export, three modules round.
    let parent = graph_of(&[
        ("engine/r/mod.rs", "mod x;\npub use x::Thing;\npub struct Base;\n"),
        ("engine/r/x.rs", "use super::Base;\npub struct Thing;\n"),
    ]);
    assert_eq!(cycles(&parent), ["engine/r/mod.rs → engine/r/x.rs → engine/r/mod.rs"]);
    let round = graph_of(&[
        ("model/mod.rs", "pub mod a;\npub mod b;\npub mod c;\npub use c::C;\n"),
        ("model/a.rs", "use super::b::{self, B};\n"),
        ("model/b.rs", "pub fn f() -> crate::model::C { todo!() }\n"),
        ("model/c.rs", "use super::a::*;\n"),
    ]);
    assert_eq!(cycles(&round), ["model/a.rs → model/b.rs → model/c.rs → model/a.rs"]);
    // Not cycles: a parent using its children, children using each other one
    // way, a re-export of a child's item, names in comments, strings and
    // tests, and other crates' modules of the same name.
    let fine = graph_of(&[
        ("engine/r/mod.rs", "pub mod x;\nmod y;\npub use y::Y;\nfn f() { x::run(); self::y::go() }\n"),
        ("engine/r/x.rs", "use super::{Y}; // super::Z\nconst S: &str = \"use super::Z;\";\nuse ::y::Other;\n"),
        ("engine/r/y.rs", "pub struct Y;\npub struct Z;\n#[cfg(test)]\nmod tests {\n    use super::super::x;\n}\n"),
    ]);
    assert_eq!(cycles(&fine), Vec::<String>::new());
}

