//! Real I/O: what a link's readers did over real sources, and what a
//! calibration measured. `buflab real` reads kernel sources (a regular file,
//! a pipe, a loopback TCP connection); the page's Calibrate reads a file in
//! the browser's Origin Private File System. Field names are an interface
//! (the CLI's `--json` output, the worker's messages): add, never rename.

use serde::{Deserialize, Serialize};

use super::chunk::ChunkModel;
use super::id::Id;
use super::params::{Params, ReaderKind, SysSource};
use super::report::{Report, Stats, Timer};

/// A kind of real kernel source `buflab real` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum RealSource {
    /// The stream in a temporary regular file, read back while the page
    /// cache still holds it.
    File,
    /// An anonymous pipe; a writer thread writes the stream in pieces that
    /// follow the link's chunk model.
    Pipe,
    /// A loopback TCP connection; a server thread writes the stream in pieces
    /// that follow the link's chunk model (the BufRead article's setting).
    Tcp,
}

impl Id for RealSource {}

impl RealSource {
    /// The source a chunk model stands for: `chunk=file` a regular file,
    /// `chunk=pipe` a pipe, the network-like models a TCP connection.
    pub fn of_chunk(chunk: ChunkModel) -> RealSource {
        match chunk {
            ChunkModel::File => RealSource::File,
            ChunkModel::Pipe => RealSource::Pipe,
            ChunkModel::Uniform { .. } | ChunkModel::Fixed { .. } => RealSource::Tcp,
        }
    }

    /// The chunk model whose simulated run this source is set beside. A
    /// regular file answers every request in full, which is `chunk=file`
    /// whatever the link says; a pipe's and a socket's writer follows the
    /// link's own model.
    pub fn model(self, link_chunk: ChunkModel) -> ChunkModel {
        match self {
            RealSource::File => ChunkModel::File,
            RealSource::Pipe | RealSource::Tcp => link_chunk,
        }
    }

    /// Where a `sys` calibrated on this source comes from.
    pub fn sys_source(self) -> SysSource {
        match self {
            RealSource::File => SysSource::File,
            RealSource::Pipe => SysSource::Pipe,
            RealSource::Tcp => SysSource::Tcp,
        }
    }
}

/// Sizes of the read calls that returned data (the final call that returned
/// 0 is left out: it would make every minimum 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReadSizes {
    pub min: u64,
    pub median: f64,
    pub max: u64,
}

/// The simulated run a real run is set beside: the same reader and workload
/// over the in-memory source cut by [`RealSource::model`]'s chunk model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelSide {
    pub chunk: ChunkModel,
    /// Source reads the simulated source served, the final 0 included.
    pub read_calls: u64,
    pub bytes_per_read: ReadSizes,
    /// Measured CPU time of the simulated run (median), in ns.
    pub cpu_ns: f64,
    /// CPU median + modelled I/O (`read_calls × sys`): the simulated total.
    pub total_ns: f64,
}

/// One reader over one real source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RealRun {
    pub source: RealSource,
    pub reader: ReaderKind,
    /// Read system calls the program made on the real source, the final one
    /// that returned 0 included: the kernel's count for the reading thread
    /// (`counted_by: kernel`, `syscr`), else the wrapper's (`wrapper`: over
    /// TCP, whose `recv(2)` the kernel does not count as a read, or where
    /// the kernel gives no count).
    pub read_calls: u64,
    /// Who counted `read_calls`.
    pub counted_by: CallCounter,
    /// The kernel's count (`syscr` of the reading thread over the counted
    /// pass); `None` where it is unavailable (not Linux, or a socket).
    pub kernel_read_calls: Option<u64>,
    /// Calls the reader made on the source as a wrapper around it saw them:
    /// a `read_to_end` or `read_to_string` handed to the source is one,
    /// however many `read(2)` calls the source's override made.
    /// `bytes_per_read` is over these calls.
    pub wrapper_calls: u64,
    /// Minor page faults of the reading thread over the counted pass (the
    /// kernel mapping in memory the run touched first: buffers, Vecs);
    /// `None` where unavailable.
    pub minor_faults: Option<u64>,
    /// The memory system calls the allocator made in the reading thread over
    /// the counted pass, counted by `strace` in a second, traced run of the
    /// same command (`buflab real` fills it in); `None` where they could not
    /// be counted ([`RealReport::alloc_calls_unavailable`] says why).
    #[serde(default)]
    pub alloc_calls: Option<AllocCalls>,
    /// Bytes the application received.
    pub bytes: u64,
    /// What each call that returned data got (the wrapper's calls).
    pub bytes_per_read: ReadSizes,
    /// Wall time of one run, from the first read to the workload's end;
    /// opening the source and starting its writer are not in it.
    pub wall_ns: Stats,
    /// Wall time per read call: the median over the samples of each
    /// sample's time ÷ that sample's own read calls (a pipe's or a socket's
    /// calls vary from run to run).
    pub ns_per_read: f64,
    /// Hash of the bytes the application received; equals the simulated
    /// run's.
    pub digest: String,
    pub model: ModelSide,
    /// `wall_ns.median / model.total_ns`: real time against the model's.
    pub ratio: f64,
    /// What `sys` would have to be for the model to give the real time:
    /// (`wall_ns.median` − the simulated CPU time) ÷ `read_calls`.
    pub sys_ns: f64,
}

/// The system calls that give a process memory or take it back, as the
/// allocator makes them: glibc's `malloc` grows its main heap with `brk`,
/// serves large blocks (128 KiB and more by default) with `mmap`, moves a
/// grown one with `mremap`, and gives memory back with `brk` (the heap's
/// top) or `munmap`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocCalls {
    pub brk: u64,
    pub mmap: u64,
    pub munmap: u64,
    pub mremap: u64,
}

impl AllocCalls {
    pub fn total(&self) -> u64 {
        self.brk + self.mmap + self.munmap + self.mremap
    }
}

/// Who counted a real run's read calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum CallCounter {
    /// The kernel (`syscr` in `/proc/thread-self/io`).
    Kernel,
    /// A wrapper around the source.
    Wrapper,
}

/// Which real run a calibrated `sys` comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalibratedFrom {
    pub source: RealSource,
    pub reader: ReaderKind,
}

/// `buflab real`'s report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RealReport {
    /// Per source kind (file, pipe, tcp), per reader in the link's order.
    pub real: Vec<RealRun>,
    /// The link's own simulated run: CPU measured, I/O modelled.
    pub simulated: Report,
    /// `sys` in whole ns from the run in `calibrated_from`, at least 0.
    pub calibrated_sys: u64,
    /// The link's own source kind ([`RealSource::of_chunk`]) and, over it,
    /// the reader that made the most read calls (the least noisy estimate).
    pub calibrated_from: CalibratedFrom,
    /// The link with `sys` set to `calibrated_sys` and `syssrc` naming the
    /// source it was measured on.
    pub link: String,
    /// Why the runs' `alloc_calls` are `None` (no `strace`, tracing not
    /// permitted, not Linux); `None` when they were counted.
    #[serde(default)]
    pub alloc_calls_unavailable: Option<String>,
}

impl RealReport {
    /// The link's params with `sys` set to the calibrated value and
    /// `sys_source` naming the source it was measured on.
    pub fn calibrated_params(&self) -> Params {
        Params {
            sys: self.calibrated_sys,
            sys_source: self.calibrated_from.source.sys_source(),
            ..self.simulated.params.clone()
        }
    }

    /// True when every real run delivered exactly the stream's bytes.
    pub fn digests_agree(&self) -> bool {
        self.simulated.digests_agree() && self.real.iter().all(|r| r.digest == self.simulated.source_digest)
    }
}

/// A calibration of `sys` in the browser: unbuffered reads of the link's
/// read size, each one real call into the browser's file system.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Calibration {
    /// What was read (`opfs` in the browser).
    pub source: SysSource,
    /// Bytes asked for per call (the link's read size).
    pub read_size: u64,
    /// Bytes in the file read back (a prefix of the link's stream).
    pub file_bytes: u64,
    /// Real read calls in the timed samples (the probe and the check not
    /// counted).
    pub calls: u64,
    /// Time of one real read call; each sample reads the whole file and
    /// counts as one run of `batch` calls.
    pub ns_per_call: Stats,
    /// Time of one read of the same size over the in-memory source.
    pub in_memory_ns: f64,
    /// `ns_per_call.median − in_memory_ns`, whole ns, within `sys`'s limits.
    pub sys: u64,
    /// The bytes read back equal the stream's.
    pub bytes_ok: bool,
    pub timer: Timer,
}
