//! A program's own reads, from an `strace` log: per file descriptor, the
//! read calls, the bytes, the sizes asked for and returned, and what a
//! buffer would have made of them (the replay). The engine's
//! `engine::trace` reads a log into a [`TraceReport`] and replays it into a
//! [`Replay`]; `buflab trace --json` prints both and the page reads the
//! generated TypeScript types. Field names are an interface: add, never
//! rename.
//!
//! A log is untrusted input: every bound on what reading it keeps is in
//! [`super::limits::TRACE`], and each figure says when a bound cut it.

use serde::{Deserialize, Serialize};

use super::chunk::ChunkModel;
use super::id::Id;
use super::params::{Params, ReaderKind};
use super::real::{CallCounter, ReadSizes, RealSource};
use super::report::BlockCounts;

/// What the input turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum LogKind {
    /// Lines of `strace` output (at least one system call understood).
    Strace,
    /// `buflab real --json`'s report: its runs, one descriptor each.
    Real,
    /// Nothing but blank lines, or nothing at all.
    Empty,
    /// Text in which no line is a system call `strace` printed.
    Unknown,
}

impl Id for LogKind {}

/// How the log was recorded, as far as its lines show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LogShape {
    /// Lines start with a process id (`strace -f`).
    pub pids: bool,
    /// Lines carry a time (`-t`, `-tt`, `-ttt` or `-r`).
    pub timestamps: bool,
    /// Calls end with the time spent in them (`-T`).
    pub durations: bool,
    /// Descriptors carry the path they refer to (`-y`: `read(3</etc/hosts>, …`).
    pub paths: bool,
    /// The log ends with strace's own count of the calls (`-c` or `-C`).
    pub summary: bool,
}

/// A name and how many times it was seen (a system call, an error).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NamedCount {
    pub name: String,
    pub count: u64,
}

/// Calls `strace -f` split in two (`read(3, <unfinished ...>` and later
/// `<... read resumed>…`) because another thread's line came between.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Unfinished {
    /// Halves joined into one call.
    pub joined: u64,
    /// Second halves without a first (the log starts after it, or the first
    /// was dropped); counted as skipped lines.
    pub orphans: u64,
    /// First halves never resumed (the process exited or was killed, or
    /// the log ends first).
    pub never_resumed: u64,
}

/// Why a line was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Not a line strace prints.
    NotStrace,
    /// A system call line that ends before its result (the log was cut off).
    Truncated,
    /// A read call whose descriptor or size could not be read.
    BadArguments,
    /// The second half of a split call whose first half never came.
    Orphan,
    /// Longer than the longest line kept (outside its strings).
    TooLong,
}

impl Id for SkipReason {}

/// One skipped line, quoted (shortened; never interpreted).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkippedLine {
    /// 1-based line number in the input.
    pub line: u64,
    pub reason: SkipReason,
    /// The line's first characters, as text (invalid UTF-8 replaced).
    pub text: String,
    /// Why it was skipped, in words (the catalog's, filled in by `crate::api`).
    #[serde(default)]
    pub why: String,
}

/// Lines the reader did not use.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Skipped {
    pub lines: u64,
    /// The first few ([`super::limits::TraceLimits::quoted_lines`]).
    pub examples: Vec<SkippedLine>,
}

/// One row of strace's own count (`-c`/`-C`), as the log prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SummaryRow {
    pub syscall: String,
    pub calls: u64,
    pub errors: u64,
}

/// What a descriptor refers to, as far as the log says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// A path that is not a device: a regular file, as far as the log shows.
    File,
    Pipe,
    Socket,
    /// A path under `/dev` (a terminal, `/dev/zero`, …).
    Device,
    /// Anything else `-y` names (`anon_inode:…`).
    Other,
    /// The log does not say.
    Unknown,
}

impl Id for SourceKind {}

/// Where a descriptor's name comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum NamedBy {
    /// The `openat` (or `open`, `creat`) call that returned it.
    Open,
    /// `-y`'s annotation on the calls that use it.
    Annotation,
    /// A call that made it: `socket`, `accept`, `pipe`, `dup`.
    Call,
    /// `buflab real`'s report: its source and reader.
    Real,
    /// Nothing: the descriptor was open before the log starts (standard
    /// input, an inherited pipe), and `-y` was not used.
    Nothing,
}

impl Id for NamedBy {}

/// A range of sizes and how many calls fell in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Bucket {
    /// Smallest size in the bucket.
    pub from: u64,
    /// Largest size in the bucket.
    pub to: u64,
    pub count: u64,
}

/// One exact size and how many calls had it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SizeCount {
    pub size: u64,
    pub count: u64,
}

/// A histogram of sizes: power-of-two buckets (0, 1, 2–3, 4–7, …; empty
/// ones left out) and the exact sizes seen first, up to
/// [`super::limits::TraceLimits::exact_sizes`] of them, most frequent first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Sizes {
    /// Calls counted.
    pub calls: u64,
    pub min: u64,
    pub max: u64,
    pub buckets: Vec<Bucket>,
    pub exact: Vec<SizeCount>,
    /// Calls whose size is not in `exact` (sizes first seen after the list
    /// was full).
    pub other: u64,
}

/// Part of a descriptor's calls, in call order: the pattern over time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Slice {
    /// Index of the slice's first call among the descriptor's calls.
    pub first_call: u64,
    pub calls: u64,
    pub bytes: u64,
    pub short_reads: u64,
    pub eof: u64,
    pub failed: u64,
    /// Smallest and largest size returned by a call that returned data (0
    /// when none did).
    pub min_returned: u64,
    pub max_returned: u64,
    /// Seconds from the log's first timestamp to the slice's first call
    /// (logs with timestamps only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub at_s: Option<f64>,
}

/// What the replay of a descriptor covers: the calls its request sequence
/// holds against all the calls it could have held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Sequence {
    /// Runs of equal (asked, returned) pairs stored.
    pub runs: u64,
    /// Calls and bytes in the stored runs.
    pub calls: u64,
    pub bytes: u64,
    /// Calls and bytes the replay could use (reads that returned data or
    /// end of file; not positional reads, not failed calls).
    pub of_calls: u64,
    pub of_bytes: u64,
}

impl Sequence {
    /// The stored runs hold every call the replay could use.
    pub fn whole(&self) -> bool {
        self.calls == self.of_calls
    }
}

/// A `buflab real` run as a descriptor: what it was and what its model said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RealFigures {
    pub source: RealSource,
    pub reader: ReaderKind,
    pub counted_by: CallCounter,
    /// Sizes of the calls that returned data (the report keeps no more).
    pub bytes_per_read: ReadSizes,
    /// The simulated run's source reads for the same link.
    pub model_read_calls: u64,
    pub model_chunk: ChunkModel,
}

/// One file descriptor's reads. A descriptor number reused after a `close`
/// (or seen naming another file) is a new [`Descriptor`], with the next
/// `opening`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Descriptor {
    /// Index in [`TraceReport::descriptors`].
    pub id: u32,
    /// The descriptor number (-1 for a `buflab real` run).
    pub fd: i64,
    /// Which opening of this number it is in the process that opened it:
    /// 1 for the first the log shows, 2 after it was closed and reused, …
    /// (0: past the bound on counted numbers).
    pub opening: u32,
    /// The path it was opened with, or `-y`'s name (`pipe:[1234]`),
    /// shortened to [`super::limits::TraceLimits::path_chars`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub path: Option<String>,
    /// `-y`'s name for it when that differs from `path` (a resolved path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub resolved: Option<String>,
    pub named_by: NamedBy,
    pub kind: SourceKind,
    /// The first process (thread) that read it, and how many read it.
    pub pid: u64,
    pub pids: u64,
    /// Read calls of every kind, failed ones included.
    pub calls: u64,
    /// The calls per system call (`read`, `readv`, `pread64`, `recvfrom`, …).
    pub syscalls: Vec<NamedCount>,
    /// Bytes returned.
    pub bytes: u64,
    /// Sizes asked for, over the calls that did not fail.
    pub asked: Sizes,
    /// Sizes returned, over the calls that did not fail (0: end of file).
    pub returned: Sizes,
    /// Sizes returned by the short reads, but those right before an end
    /// of file: the sizes of the pieces the data arrived in.
    pub short_sizes: Sizes,
    /// Calls that returned less than they asked for, but not 0.
    pub short_reads: u64,
    /// Of those, the ones right before an end of file: a file's last
    /// partial read, not a sign of data arriving in pieces.
    pub short_at_end: u64,
    /// Calls that asked for bytes and got 0: end-of-file probes (for a
    /// socket, the peer's close).
    pub eof: u64,
    /// Calls that asked for 0 bytes.
    pub empty_asks: u64,
    /// Failed calls by error (`EAGAIN`, `EINTR`, `ERESTARTSYS`, `?` for a
    /// call that never returned, …).
    pub errors: Vec<NamedCount>,
    pub failed: u64,
    /// `pread64`/`preadv` calls: each reads at an offset of its own, so the
    /// replay leaves them out.
    pub positional: u64,
    /// Seconds inside the read calls (`-T`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub in_calls_s: Option<f64>,
    /// Seconds from the log's first timestamp to the first and last call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub first_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub last_s: Option<f64>,
    /// The calls in order, in at most [`super::limits::TraceLimits::slices`]
    /// slices of `slice_calls` calls each.
    pub over_time: Vec<Slice>,
    pub slice_calls: u64,
    /// What the replay has of it.
    pub sequence: Sequence,
    /// Largest size a call returned.
    pub max_returned: u64,
    /// `buflab real` runs only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub real: Option<RealFigures>,
    /// What the log shows about the source, in a sentence (the catalog's
    /// words, filled in by `crate::api`).
    #[serde(default)]
    pub about: String,
    /// Its name in words: "fd 3 (2nd opening) data.bin · pid 12" (the
    /// catalog's, filled in by `crate::api`).
    #[serde(default)]
    pub label: String,
}

impl Descriptor {
    /// Short reads that show data arriving in pieces: all but a file's last
    /// partial read before its end.
    pub fn pieces_shown(&self) -> u64 {
        self.short_reads - self.short_at_end
    }

    /// Calls that returned data or end of file.
    pub fn answered(&self) -> u64 {
        self.calls - self.failed
    }
}

/// Descriptors past [`super::limits::TraceLimits::descriptors`]: only their
/// totals are kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MoreDescriptors {
    pub descriptors: u64,
    pub calls: u64,
    pub bytes: u64,
}

/// A log read into figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TraceReport {
    pub kind: LogKind,
    /// The whole input was read (false: cancelled, the figures are the
    /// first `bytes` bytes').
    pub complete: bool,
    /// Input bytes and lines read.
    pub bytes: u64,
    pub lines: u64,
    pub shape: LogShape,
    /// System calls understood (a split call counts once).
    pub calls: u64,
    /// Of which read calls, on any descriptor.
    pub read_calls: u64,
    /// Calls per system call, every call understood, most frequent first
    /// (at most [`super::limits::TraceLimits::syscall_names`] names; the
    /// rest in `other_syscalls`).
    pub syscalls: Vec<NamedCount>,
    pub other_syscalls: u64,
    /// Processes (threads) seen, exact up to
    /// [`super::limits::TraceLimits::pids`], then "at least".
    pub processes: u64,
    pub signals: u64,
    pub exits: u64,
    pub unfinished: Unfinished,
    /// Descriptors with at least one read call, in the order of their first.
    pub descriptors: Vec<Descriptor>,
    pub more_descriptors: MoreDescriptors,
    /// Open descriptors the reader stopped following, to keep within
    /// [`super::limits::TraceLimits::open_fds`]: a later read on one of
    /// them starts a new descriptor, named only if `-y` names it.
    pub forgotten_fds: u64,
    pub skipped: Skipped,
    /// strace's own count, where the log carries one (`-c`, `-C`).
    pub strace_summary: Vec<SummaryRow>,
    /// A `buflab real` report's link (its calibrated run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub real_link: Option<String>,
    /// Why a JSON input could not be read as `buflab real`'s report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub not_read: Option<String>,
}

/// How far reading has come, for a progress bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TraceProgress {
    pub bytes: u64,
    pub lines: u64,
    pub read_calls: u64,
    pub descriptors: u64,
    pub skipped: u64,
}

/// One reader over a descriptor's replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReplayRun {
    pub reader: ReaderKind,
    /// Buffer capacity (block length for the chained reader); `None`
    /// unbuffered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub cap: Option<u64>,
    /// Calls on the source, the stand-in for the system calls the program
    /// would have made.
    pub source_reads: u64,
    /// Calls the program made on the reader.
    pub app_reads: u64,
    /// Bytes the program received.
    pub bytes: u64,
    /// Bytes moved between buffers inside the reader.
    pub bytes_copied: u64,
    /// The chained reader's blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub blocks: Option<BlockCounts>,
}

/// A capacity's replay for each buffered reader, in a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReplaySeries {
    pub reader: ReaderKind,
    /// One per capacity of [`ReplaySweep::caps`].
    pub source_reads: Vec<u64>,
    pub bytes_copied: Vec<u64>,
    /// Where a bigger capacity stops paying in source reads (the smallest
    /// capacity within 5 % of the sweep's best, as every BufLab sweep says).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub knee: Option<u64>,
}

/// The replay at every power-of-two capacity of a range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReplaySweep {
    pub caps: Vec<u64>,
    pub series: Vec<ReplaySeries>,
    /// The unbuffered replay's source reads, for scale.
    pub unbuffered: u64,
}

/// How the nearest link's model was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FitReason {
    /// No read returned less than it asked (but before the end): `file`.
    WholeRequests,
    /// Every short read returned the same size: `fixed`.
    OneSize,
    /// Short reads of at most a pipe's 64 KiB, most of them exactly that: `pipe`.
    PipeSized,
    /// Short reads of several sizes: `uniform` over their range.
    SizeRange,
}

impl Id for FitReason {}

/// One reader's source reads: the replay's and the nearest link's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FitRun {
    pub reader: ReaderKind,
    pub replay: u64,
    /// The link's count, as it runs (for the link's `len`).
    pub link: u64,
    /// `link × scale / replay`: 1 is an exact fit.
    pub ratio: f64,
}

/// The BufLab link nearest to a descriptor's pattern, and how near.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LinkFit {
    pub reason: FitReason,
    pub params: Params,
    /// The link (filled in by `crate::api`; the engine does not know the codec).
    pub link: String,
    /// The descriptor's bytes over the link's `len` (the link's counts are
    /// multiplied by it before they are compared): 1 unless the bytes fall
    /// outside the links' length limits.
    pub scale: f64,
    pub runs: Vec<FitRun>,
    /// The fit in a sentence (the catalog's words, filled in by `crate::api`).
    #[serde(default)]
    pub about: String,
}

/// What a buffer would have made of a descriptor's reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Replay {
    pub descriptor: u32,
    /// The runs asked for: unbuffered first, then each buffered reader at
    /// each capacity.
    pub runs: Vec<ReplayRun>,
    pub sequence: Sequence,
    /// Pieces the source delivered: stretches of bytes that end where a
    /// read came back short or at an end of file.
    pub pieces: u64,
    /// Most bytes a single read may get from this source: a pipe's
    /// 64 KiB (or its largest read in the log, if larger); `None`: what
    /// is asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub read_limit: Option<u64>,
    /// Calls that asked for more than
    /// [`super::limits::TraceLimits::replay_ask`]: replayed as asks of that size.
    pub asks_cut: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub sweep: Option<ReplaySweep>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub fit: Option<LinkFit>,
    /// The replay in a sentence (the catalog's words, filled in by `crate::api`).
    #[serde(default)]
    pub headline: String,
}

/// What to replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default)]
pub struct ReplayOptions {
    /// Capacities for std's `BufReader` and the chained reader.
    pub caps: Vec<u64>,
    /// Buffered readers to replay through (unbuffered is always replayed).
    pub readers: Vec<ReaderKind>,
    /// Also sweep the capacities of [`super::limits::TraceLimits::sweep_caps`].
    pub sweep: bool,
    /// Also find the nearest link (at the first of `caps`).
    pub fit: bool,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions { caps: vec![8 * 1024, 64 * 1024], readers: vec![ReaderKind::Std, ReaderKind::Chained], sweep: true, fit: true }
    }
}
