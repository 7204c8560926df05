//! The page's TypeScript types, generated from the Rust types with ts-rs.
//!
//! Every type that crosses the wasm boundary derives `ts_rs::TS` in test
//! builds only (`#[cfg_attr(test, derive(ts_rs::TS))]`), so the model stays
//! std + serde in every build the page or the CLI runs. ts-rs reads the serde
//! attributes (renames, tags, `flatten`, `untagged`), so ids come out as
//! string unions and `ChunkModel` as a tagged union. `u64` becomes `number`:
//! serde-wasm-bindgen's JSON-compatible serializer sends numbers, and every
//! limit stays below 2^53.
//!
//! [`generated_types_are_current`] fails when `web/src/engine/types.gen.ts`
//! differs from what the types say; `npm run types` rewrites it.

use std::any::TypeId;
use std::collections::BTreeMap;

use ts_rs::{Config, TypeVisitor, TS};

use crate::catalog::Schema;
use crate::link::Decoded;
use crate::model::{Calibration, LabReport, SweepReport, Verdict};

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/engine/types.gen.ts");

/// Collects the declarations of a type and everything it refers to.
struct Collect<'a> {
    cfg: &'a Config,
    seen: Vec<TypeId>,
    /// Name → declaration, sorted by name for a stable file.
    decls: BTreeMap<String, String>,
}

impl TypeVisitor for Collect<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        if T::output_path().is_none() || self.seen.contains(&TypeId::of::<T>()) {
            return;
        }
        self.seen.push(TypeId::of::<T>());
        let docs = T::docs().unwrap_or_default();
        self.decls.insert(T::ident(self.cfg), format!("{docs}export {}", T::decl(self.cfg)));
        T::visit_dependencies(self);
    }
}

/// The whole generated file.
fn generate() -> String {
    let cfg = Config::new().with_large_int("number");
    let mut c = Collect { cfg: &cfg, seen: Vec::new(), decls: BTreeMap::new() };
    c.visit::<Schema>();
    c.visit::<Decoded>();
    c.visit::<LabReport>();
    c.visit::<SweepReport>();
    // Returned by the glue as a plain string (`wasm::verdict`).
    c.visit::<Verdict>();
    c.visit::<Calibration>();
    let mut out = String::from(
        "// Generated from the Rust types by crate/src/types.rs (ts-rs): do not edit.\n\
         // `npm run types` rewrites it; `cargo test` fails while it is stale.\n\n",
    );
    for decl in c.decls.values() {
        out.push_str(decl.trim_end());
        out.push_str("\n\n");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

#[test]
fn generated_types_are_current() {
    let want = generate();
    if std::env::var_os("BUFLAB_WRITE_TYPES").is_some() {
        std::fs::write(PATH, &want).expect("write the generated types");
        return;
    }
    let have = std::fs::read_to_string(PATH).unwrap_or_default();
    assert!(
        have == want,
        "web/src/engine/types.gen.ts is stale: run `npm run types` (BUFLAB_WRITE_TYPES=1 cargo test -p buflab --lib types)"
    );
}
