//! The catalog: what the page lists and says. The workloads' and the write
//! lab's texts, the lessons, the glossary, the schema the page builds its controls from,
//! and the Rust program a link corresponds to. Each reader's own texts live
//! in its module (`engine::readers`); the catalog gathers them.
//!
//! It sits above the model, the link codec and the engine, and below the
//! wasm glue and the CLI.

pub mod choices;
pub mod compare;
pub mod cursors;
pub mod glossary;
pub mod lessons;
pub mod metrics;
pub mod quiz;
pub mod schema;
pub mod settings;
pub mod snippet;
pub mod terms;
pub mod trace;
pub mod workloads;

pub use schema::{schema, Schema};
