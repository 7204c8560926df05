//! The engine: the simulated source, the readers, the workloads, the write
//! lab, measurement, experiments, sweeps and the buffer timeline. Pure Rust,
//! the same natively and in wasm; `real` also reads real sources (kernel
//! ones natively, any file store through a trait).
//!
//! It builds on the model only: it never imports the link codec or the
//! catalog (`tests/layers.rs` checks), so reports it makes leave their `link`
//! empty and the façade in `crate::api` fills it in.

pub mod clock;
pub mod compare;
pub mod content;
pub mod experiment;
pub mod heap;
#[cfg(not(target_arch = "wasm32"))]
pub mod machine;
pub mod readers;
pub mod real;
pub mod source;
pub mod sweep;
pub mod timed;
pub mod timeline;
pub mod trace;
pub mod workload;
pub mod write;
