//! What the integration tests share (a `tests/common` module is not a test
//! target of its own): the readers' link value, and the proptest strategies
//! of the property tests (native only, as proptest is).

// Each test target compiles this module and uses only part of it.
#![allow(dead_code, unused_imports)]

use buflab::model::{Id, ReaderKind};

#[cfg(not(target_arch = "wasm32"))]
mod strategies;
#[cfg(not(target_arch = "wasm32"))]
pub use strategies::{chunk_model, chunk_script};

/// `rd=` with every reader, in declaration order: tests over "every reader"
/// take a new one without being edited.
pub fn every_reader() -> String {
    format!("rd={}", ReaderKind::ids().join(","))
}
