//! BufLab's engine: real Rust readers over simulated chunked streams, with
//! exact counts of source reads, copies and allocations, and careful timing.
//!
//! Layers, each importing only the ones above it in this list
//! (`tests/layers.rs` fails when one reaches down the wrong way, and on an
//! import cycle between any two modules, in one layer too):
//!
//! - [`model`]: plain data (ids, `Params`, limits, `Report`); std + serde only;
//! - [`link`]: the link codec, over the model;
//! - [`engine`]: source, readers, workloads, the write lab, measurement,
//!   experiments, sweeps, the timeline; over the model (never the link codec
//!   or the catalog);
//! - [`catalog`]: what the page lists and says, the schema, the generated
//!   program; over all of the above;
//! - [`api`] and [`bench`]: the runs with their links, the benchmark suite;
//! - `wasm` (the only file that knows wasm-bindgen) and the CLI in `bin/`.

pub mod model;

pub mod link;

pub mod engine;

pub mod catalog;

pub mod api;
pub mod bench;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

#[cfg(test)]
mod types;

pub use api::{run, run_lab};
pub use model::{Params, Report};

/// Counts every heap allocation of the process (natively) or module (wasm),
/// per thread, so runs can report their own allocations.
#[global_allocator]
static ALLOCATOR: engine::heap::CountingAlloc = engine::heap::CountingAlloc;
