//! `Report`: the result of one experiment, as the page, the CLI's `--json` and
//! the tests see it. Field names are an interface (scripts parse the CLI's
//! JSON): add fields freely, rename none.

use serde::{Deserialize, Serialize};

use crate::measure::{AllocCounts, Stats};
use crate::params::{Lab, Params};
use crate::read::chained::BlockCounts;
use crate::read::ReaderKind;
use crate::timeline::Timeline;
use crate::write::bufwriter::{FinalFlush, WriteMode};
use crate::write::cursors::{Flavour, WriteFailure};

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
    /// Always `read`: tells a read report from a [`WriteReport`].
    #[serde(default)]
    pub lab: Lab,
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
    /// The buffer timeline: the first application operations of stream 1,
    /// recorded in a separate untimed pass (bounded, see `timeline`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Timeline>,
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

// ---------------------------------------------------------------------------
// The write lab

/// The write lab's result: seed 004's cursors, `BufWriter` over a chunked
/// sink, and the final-flush demonstration. Field names are an interface.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WriteReport {
    /// Always `write`.
    pub lab: Lab,
    pub params: Params,
    /// One per chosen flavour, in the order asked for.
    pub flavours: Vec<FlavourRun>,
    /// Digest of the records encoded by hand (fixed-width big-endian): every
    /// finished flavour's digest must equal it.
    pub reference_digest: String,
    /// Bytes the records encode to (records × 16).
    pub reference_bytes: u64,
    /// Direct writes, then `BufWriter`.
    pub sink: Vec<SinkRun>,
    /// Digest of the data the application writes to the sink.
    pub sink_digest: String,
    /// Where an error on the last write goes, per way of ending.
    pub final_flush: Vec<FinalFlush>,
    pub timer: Timer,
    pub quick: bool,
    /// The canonical link fragment that reproduces this report.
    pub link: String,
}

/// One cursor flavour's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlavourRun {
    pub flavour: Flavour,
    /// Bytes in the buffer at the end (or when the error came).
    pub bytes: u64,
    /// Heap activity of one run: the buffer, its growth (`reallocs`).
    #[serde(flatten)]
    pub alloc: AllocCounts,
    /// Hash of the bytes written; `None` when the run failed.
    pub digest: Option<String>,
    /// Why the run stopped early (a fixed buffer too small: `WriteZero`).
    pub error: Option<WriteFailure>,
    /// Measured time of one run; `None` when the run failed (not timed).
    pub cpu_ns: Option<Stats>,
}

/// One way of writing to the sink.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SinkRun {
    pub mode: WriteMode,
    /// `write_all` calls the application made.
    pub app_writes: u64,
    /// `write` calls on the sink (stand-ins for system calls).
    pub sink_writes: u64,
    /// `flush` calls on the sink.
    pub sink_flushes: u64,
    /// Bytes the sink accepted.
    pub bytes: u64,
    /// Bytes copied into the writer's buffer before reaching the sink.
    pub bytes_copied: u64,
    #[serde(flatten)]
    pub alloc: AllocCounts,
    /// Hash of the bytes the sink received.
    pub digest: String,
    pub cpu_ns: Stats,
    /// Modelled: `sink_writes × params.sys`. Not measured.
    pub modelled_io_ns: f64,
}

impl WriteReport {
    /// True when every flavour that finished wrote exactly the reference
    /// bytes and both sink runs delivered exactly the data.
    pub fn bytes_agree(&self) -> bool {
        self.flavours
            .iter()
            .all(|f| f.error.is_some() || f.digest.as_deref() == Some(self.reference_digest.as_str()))
            && self.sink.iter().all(|s| s.digest == self.sink_digest)
    }
}

/// What `run_lab` returns: the report of whichever lab the params select.
/// Serialized without a wrapper; the `lab` field tells them apart.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum LabReport {
    Read(Report),
    Write(WriteReport),
}
