//! BufLab's engine: real Rust readers over simulated chunked streams, with
//! exact counts of source reads, copies and allocations, and careful timing.
//!
//! The engine is pure Rust and builds and tests natively; `wasm.rs` is the
//! only file that knows about wasm-bindgen.

pub mod bench;
pub mod content;
pub mod experiment;
pub mod lessons;
pub mod measure;
pub mod params;
pub mod read;
pub mod report;
pub mod snippet;
pub mod source;
pub mod timeline;
pub mod sweep;
pub mod workload;
pub mod write;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use experiment::{run, run_lab};
pub use params::{decode_link, Params};
pub use report::Report;

/// Counts every heap allocation of the process (natively) or module (wasm),
/// per thread, so runs can report their own allocations.
#[global_allocator]
static ALLOCATOR: measure::CountingAlloc = measure::CountingAlloc;
