//! `Report`: the result of one experiment, as the page, the CLI's `--json` and
//! the tests see it. Field names are an interface (scripts parse the CLI's
//! JSON): add fields freely, rename none.

use serde::{Deserialize, Serialize};

use crate::measure::{AllocCounts, Stats};
use crate::params::Params;
use crate::read::chained::BlockCounts;
use crate::read::ReaderKind;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub params: Params,
    pub runs: Vec<Run>,
    pub timer: Timer,
    /// True for a quick estimate (one short sample while a control moves).
    pub quick: bool,
    /// Digest of what the application must receive, computed from the plain
    /// byte slice without any reader (see `content::expected`: the whole
    /// stream for most workloads, the payloads for `frames`, the bytes before
    /// the NUL for `scan`; with several streams, combined over them): every
    /// run's digest must equal it.
    pub source_digest: String,
    /// The canonical link fragment that reproduces this report.
    pub link: String,
}

/// One reader's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub reader: ReaderKind,
    /// Calls on the source (stand-ins for system calls), the final 0 included.
    pub source_reads: u64,
    /// Calls the application made on the reader.
    pub app_reads: u64,
    /// Bytes the application received.
    pub bytes: u64,
    /// Bytes moved between buffers inside the reader.
    pub bytes_copied: u64,
    /// Heap activity during one run (allocations, frees, bytes, peak).
    #[serde(flatten)]
    pub alloc: AllocCounts,
    /// Hash of the bytes the application received.
    pub digest: String,
    /// Measured time of one run.
    pub cpu_ns: Stats,
    /// Modelled: `source_reads × params.sys`. Not measured.
    pub modelled_io_ns: f64,
    /// The chained reader's blocks: how many were allocated and how many
    /// came from the pool instead. Absent for the other readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<BlockCounts>,
}

impl Run {
    /// Measured CPU median plus modelled I/O.
    pub fn modelled_total_ns(&self) -> f64 {
        self.cpu_ns.median + self.modelled_io_ns
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timer {
    /// The smallest step the clock was seen to take.
    pub resolution_ns: f64,
    /// Cross-origin isolated (fine timer) in a browser; always true natively.
    pub isolated: bool,
}

impl Report {
    /// True when every reader delivered exactly the stream's bytes.
    pub fn digests_agree(&self) -> bool {
        self.runs.iter().all(|r| r.digest == self.source_digest)
    }
}
