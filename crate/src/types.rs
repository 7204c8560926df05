//! The page's TypeScript types, generated from the Rust types with ts-rs,
//! and the schema and lessons the page imports as data.
//!
//! Every type that crosses the wasm boundary derives `ts_rs::TS` in test
//! builds only (`#[cfg_attr(test, derive(ts_rs::TS))]`), so the model stays
//! std + serde in every build the page or the CLI runs. ts-rs reads the serde
//! attributes (renames, tags, `flatten`, `untagged`), so ids come out as
//! string unions and `ChunkModel` as a tagged union. `u64` becomes `number`:
//! serde-wasm-bindgen's JSON-compatible serializer sends numbers, and every
//! limit stays below 2^53.
//!
//! The schema (limits, defaults, choices and their texts: [`crate::catalog::schema`])
//! is a constant of the engine, so the page imports it as data,
//! `web/src/engine/schema.gen.json`, instead of asking the wasm for it: no
//! wasm call before the controls can be built, and none of its texts or its
//! serializer in the module the first numbers wait for. The lessons
//! ([`crate::catalog::lessons::LESSONS`]) are a file of their own,
//! `lessons.gen.json`, which only the lessons panel imports, so their texts
//! load with it; so is the glossary ([`crate::catalog::glossary`]),
//! `glossary.gen.json`, which the glossary panel imports. `boot.gen.json`
//! holds what the page's boot code reads of a raw link before the codec
//! has loaded: presenter mode's key and value ([`crate::link::boot_facts`]).
//! `timing.gen.json` holds what the timing worker's own code needs of the
//! clock's rules ([`TimingFacts`]): its warm-up lasts at most the engine's
//! fresh period.
//!
//! [`generated_files_are_current`] fails when a file differs from what the
//! Rust says; `npm run types` rewrites them.

use std::any::TypeId;
use std::collections::BTreeMap;

use ts_rs::{Config, TypeVisitor, TS};

use crate::catalog::glossary::{glossary, Term};
use crate::catalog::lessons::{Lesson, LESSONS};
use crate::catalog::Schema;
use crate::catalog::snippet::Playground;
use crate::engine::compare::ResultError;
use crate::link::{Decoded, Links};
use crate::model::trace::{ReplayOptions, TraceProgress};
use crate::model::{Calibration, Comparison, LabReport, Ratio, Replay, SweepReport, TraceReport, Verdict};

const TYPES_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/engine/types.gen.ts");
const SCHEMA_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/engine/schema.gen.json");
const LESSONS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/engine/lessons.gen.json");
const GLOSSARY_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/engine/glossary.gen.json");
const BOOT_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/engine/boot.gen.json");
const TIMING_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/engine/timing.gen.json");

/// What the timing worker (web/src/engine/worker-timing.ts) reads of the
/// clock's rules, so it copies none of them.
#[derive(serde::Serialize)]
struct TimingFacts {
    /// The engine's fresh period ([`crate::engine::clock::FRESH_NS`]) in ms:
    /// the longest the worker's warm-up goes on, since past it a full
    /// measurement waits for no fresh engine anyway.
    fresh_ms: f64,
}

fn timing_facts() -> TimingFacts {
    TimingFacts { fresh_ms: crate::engine::clock::FRESH_NS / 1e6 }
}

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

/// The whole generated types file.
fn generate_types() -> String {
    let cfg = Config::new().with_large_int("number");
    let mut c = Collect { cfg: &cfg, seen: Vec::new(), decls: BTreeMap::new() };
    c.visit::<Schema>();
    c.visit::<Lesson>();
    c.visit::<Term>();
    c.visit::<Decoded>();
    // Returned by `wasm::links` and `wasm::links_of`.
    c.visit::<Links>();
    c.visit::<LabReport>();
    c.visit::<SweepReport>();
    // Returned by the glue as a plain string (`wasm::verdict`).
    c.visit::<Verdict>();
    // Returned by `wasm::time_ratio`.
    c.visit::<Ratio>();
    c.visit::<Calibration>();
    // Returned by `wasm::compare`, `wasm::pair_results` and `wasm::pair_reports`.
    c.visit::<Comparison>();
    // Thrown (as JSON in the message) by `wasm::pair_results`.
    c.visit::<ResultError>();
    // Returned by `wasm::playground`.
    c.visit::<Playground>();
    // Returned by `wasm::quiz`.
    c.visit::<crate::catalog::quiz::Quiz>();
    // Returned by `wasm::lesson_choices`.
    c.visit::<crate::catalog::choices::LessonChoices>();
    // A program's own reads (`wasm::TraceSession`).
    c.visit::<TraceProgress>();
    c.visit::<TraceReport>();
    c.visit::<ReplayOptions>();
    c.visit::<Replay>();
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

/// A constant as the page imports it (the JSON the wasm glue's serializer
/// would make: maps as objects, 64-bit integers as numbers).
fn generate_json(value: &impl serde::Serialize) -> String {
    let mut json = serde_json::to_string_pretty(value).expect("a constant of the engine serializes");
    json.push('\n');
    json
}

#[test]
fn generated_files_are_current() {
    let files = [
        (TYPES_PATH, generate_types()),
        (SCHEMA_PATH, generate_json(&crate::catalog::schema())),
        (LESSONS_PATH, generate_json(&LESSONS)),
        (GLOSSARY_PATH, generate_json(&glossary())),
        (BOOT_PATH, generate_json(&crate::link::boot_facts())),
        (TIMING_PATH, generate_json(&timing_facts())),
    ];
    for (path, want) in files {
        if std::env::var_os("BUFLAB_WRITE_TYPES").is_some() {
            std::fs::write(path, &want).expect("write a generated file");
            continue;
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "{path} is stale: run `npm run types` (BUFLAB_WRITE_TYPES=1 cargo test -p buflab --lib types)"
        );
    }
}
