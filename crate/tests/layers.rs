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

/// The code of a file without its unit tests (`#[cfg(test)] mod tests`), and
/// nothing at all for a file that is a test module itself.
fn non_test_code(rel: &Path, text: &str) -> String {
    if rel.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" && lines.peek().is_some_and(|next| next.trim_start().starts_with("mod tests")) {
            break;
        }
        // Doc comments and comments may mention anything.
        let code = line.split("//").next().unwrap_or("");
        out.push_str(code);
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
