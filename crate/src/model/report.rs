//! What a run produces: `Report` (the read lab), `WriteReport` (the write
//! lab) and the figures inside them. Field names are an interface (scripts
//! parse the CLI's JSON; the page reads the generated TypeScript types): add
//! fields freely, rename none.

use serde::{Deserialize, Serialize};

use super::id::Id;
use super::params::{Flavour, Lab, Params, ReaderKind};
use super::timeline::Timeline;

/// Time per run over the samples, in ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Stats {
    pub min: f64,
    pub median: f64,
    pub max: f64,
    /// Median absolute deviation from the median.
    pub mad: f64,
    pub samples: u32,
    /// Runs per sample.
    pub batch: u64,
    /// Samples further than 3 scaled MADs (1.4826 × MAD, the normal-equivalent
    /// spread) from the median. Counted and shown, never dropped: they are
    /// part of what was measured.
    pub outliers: u32,
}

/// Heap activity of one thread during one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AllocCounts {
    /// `alloc` calls, plus `realloc` calls that moved or grew a block.
    pub allocations: u64,
    pub frees: u64,
    /// Bytes requested by those allocations.
    pub alloc_bytes: u64,
    /// Highest live heap bytes above the level at the start of the run.
    pub peak_bytes: u64,
    /// `realloc` calls, growing or shrinking (a growing one is also counted in
    /// `allocations`). A growable buffer that starts too small shows here.
    #[serde(default)]
    pub reallocs: u64,
}

/// Blocks handed out by the chained reader's pool during a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BlockCounts {
    /// Blocks that had to be allocated.
    pub allocated: u64,
    /// Blocks handed out again from the pool instead.
    pub reused: u64,
}

/// How far a report's timing has come. Counts are exact at every stage;
/// only the times get better.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Exact counts and digests; nothing timed yet (times are zero, with no samples).
    Counts,
    /// One short timing sample: a quick estimate while a control moves.
    Quick,
    /// The full measurement: warm-up, several samples, statistics.
    #[default]
    Full,
}

impl Id for Stage {}

/// How two measured times compare, claimed only beyond their noise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every sample of the first is below every sample of the second.
    Faster,
    /// Every sample of the first is above every sample of the second.
    Slower,
    /// The samples overlap (or there are too few to tell): the same within noise.
    Same,
}

impl Id for Verdict {}

/// How many times one measured time is another, as far as the samples say:
/// every ratio between a sample of one and a sample of the other lies in
/// `low..=high`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Ratio {
    /// The other's fastest sample over this one's slowest: the least the samples allow.
    pub low: f64,
    /// The medians' ratio.
    pub median: f64,
    /// The other's slowest sample over this one's fastest: the most the samples allow.
    pub high: f64,
}

/// The comparisons read `min`, `median`, `max` and `samples` only: the page
/// hands the counting build those four figures (wasm.rs `compared`).
impl Stats {
    /// How `self` compares with `other`: faster or slower only when their
    /// samples separate (min to max) and each side has at least two. The
    /// medians never decide: two spreads that overlap are the same within
    /// noise however far apart their medians are.
    pub fn verdict(&self, other: &Stats) -> Verdict {
        if self.samples < 2 || other.samples < 2 {
            Verdict::Same
        } else if self.max < other.min {
            Verdict::Faster
        } else if self.min > other.max {
            Verdict::Slower
        } else {
            Verdict::Same
        }
    }

    /// How many times `other`'s time is `self`'s, as the range the samples
    /// support (min against max). `None` with fewer than two samples on a
    /// side (one sample has no spread to bound the ratio) or a time that is
    /// not above zero. `low > 1` exactly when [`Stats::verdict`] says
    /// `Faster`, and `high < 1` exactly when it says `Slower`.
    pub fn ratio(&self, other: &Stats) -> Option<Ratio> {
        let positive = |s: &Stats| s.samples >= 2 && s.min > 0.0 && s.min.is_finite() && s.max.is_finite();
        if !(positive(self) && positive(other)) {
            return None;
        }
        Some(Ratio { low: other.min / self.max, median: other.median / self.median, high: other.max / self.min })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Timer {
    /// The smallest step the clock was seen to take.
    pub resolution_ns: f64,
    /// Cross-origin isolated (fine timer) in a browser; always true natively.
    pub isolated: bool,
    /// Whether this step is coarse enough that a full measurement's samples
    /// are lengthened to it, so measuring takes longer (the engine's rule,
    /// `engine::clock::samples_lengthened`). Reports without it: false.
    #[serde(default)]
    pub samples_lengthened: bool,
}

/// The format of a report (read, write, comparison) as this build writes
/// it, for files read back later: a report whose `format` is higher was
/// written by a newer BufLab. Raised only when a field changes meaning
/// (fields are added freely); reports without the field are format 1.
pub const REPORT_FORMAT: u32 = 1;

/// What kind of place a result was measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum MachineKind {
    /// The native command line (`buflab`).
    Native,
    /// A browser's web worker (the page).
    Browser,
}

impl Id for MachineKind {}

/// Where a result was measured, as far as the place can tell: what a
/// colleague needs to read its times. Counts never depend on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Machine {
    pub kind: MachineKind,
    /// The browser's `navigator.userAgent`; `None` natively.
    #[serde(default)]
    pub user_agent: Option<String>,
    /// Natively, the operating system and architecture (`linux x86_64`);
    /// a browser says it in its user agent, if at all.
    #[serde(default)]
    pub os: Option<String>,
    /// The CPU's model name (natively from /proc/cpuinfo); browsers do not tell.
    #[serde(default)]
    pub cpu: Option<String>,
    /// Logical cores (`available_parallelism`, `navigator.hardwareConcurrency`).
    #[serde(default)]
    pub cores: Option<u32>,
    /// Cross-origin isolated (a browser's fine timer); always true natively.
    pub isolated: bool,
    /// The smallest step the clock was seen to take, in ns.
    pub timer_step_ns: f64,
    /// The build that measured: BufLab's version, native or wasm32, and
    /// release or debug (`buflab 0.1.0, wasm32, release`).
    pub build: String,
}

impl Machine {
    /// The build this code is: version, target and profile.
    pub fn this_build() -> String {
        format!(
            "buflab {}, {}, {}",
            env!("CARGO_PKG_VERSION"),
            if cfg!(target_arch = "wasm32") { "wasm32" } else { std::env::consts::ARCH },
            if cfg!(debug_assertions) { "debug" } else { "release" }
        )
    }

    /// One line for a person: "native, linux x86_64, Intel(R) Xeon(R) …, 2 cores, timer step 20 ns".
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = vec![self.kind.id().to_string()];
        parts.extend(self.os.clone());
        parts.extend(self.user_agent.clone());
        parts.extend(self.cpu.clone());
        parts.extend(self.cores.map(|c| format!("{c} core{}", if c == 1 { "" } else { "s" })));
        if self.kind == MachineKind::Browser {
            parts.push(if self.isolated { "cross-origin isolated".into() } else { "not isolated".into() });
        }
        parts.push(format!("timer step {}", format_step(self.timer_step_ns)));
        parts.push(self.build.clone());
        parts.join(", ")
    }
}

/// A timer step for a person: `20 ns`, `5 µs`, `100 µs`.
pub fn format_step(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.0} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.0} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// The read lab's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Report {
    pub params: Params,
    pub runs: Vec<Run>,
    pub timer: Timer,
    /// True for a quick estimate (one short sample while a control moves).
    pub quick: bool,
    /// How far the timing has come: counts only, a quick estimate, or the
    /// full measurement.
    #[serde(default)]
    pub stage: Stage,
    /// Digest of what the application must receive, computed from the plain
    /// byte slice without any reader (the whole stream for most workloads,
    /// the payloads for `frames`, the bytes before the NUL for `scan`; with
    /// several streams, combined over them): every run's digest must equal it.
    pub source_digest: String,
    /// The canonical link fragment that reproduces this report.
    pub link: String,
    /// Always `read`: tells a read report from a [`WriteReport`].
    #[serde(default)]
    #[cfg_attr(test, ts(type = "\"read\""))]
    pub lab: Lab,
    /// The time to copy the stream's bytes once (`len` × `streams`, one
    /// `copy_from_slice` into a buffer of that length), sampled as the
    /// readers are, in the same run: the floor that any reader's time
    /// stands on, here. Absent without timing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub copy_ns: Option<Stats>,
    /// Where it was measured. Absent in reports the engine has not yet
    /// handed out (the glue and the command line fill it in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub machine: Option<Machine>,
    /// [`REPORT_FORMAT`] of the build that wrote it; absent: 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub format: Option<u32>,
}

/// One reader's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
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
    /// Modelled: `source_reads × params.sys + source_bytes × params.sys_kib
    /// / 1024`. Not measured.
    pub modelled_io_ns: f64,
    /// Bytes the source reads returned, summed over the streams.
    #[serde(default)]
    pub source_bytes: u64,
    /// A source that lives in time (link key `rate`): how the reader met
    /// the arriving pieces. Absent without a rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub arrival: Option<ArrivalCounts>,
    /// The chained reader's blocks: how many were allocated and how many
    /// came from the pool instead. Absent for the other readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub blocks: Option<BlockCounts>,
    /// The async readers: polls of the futures the application awaited
    /// (one per operation, plus one more after each `Pending`). Absent for
    /// the blocking readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub polls: Option<u64>,
    /// The async readers: polls answered `Pending` (the source was not yet
    /// ready, link key `pend`, or a read found an empty chunk). Each costs a
    /// poll, never a source read. Absent for the blocking readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub pendings: Option<u64>,
    /// The buffer timeline: the first application operations of stream 1,
    /// recorded in a separate untimed pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub timeline: Option<Timeline>,
    /// The CPU median as a multiple of the report's copy floor
    /// ([`Report::copy_ns`]): "× copy", a time that carries roughly across
    /// machines. Absent without timing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub cpu_x_copy: Option<f64>,
}

/// How a reader met a source living in time: its modelled clock, in exact
/// counts of what it did (see `engine::source::Arrival`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ArrivalCounts {
    /// Source reads that found nothing arrived and waited for the next piece.
    pub waits: u64,
    /// Modelled time those reads waited, in ns.
    pub waited_ns: f64,
    /// Source reads that returned bytes of more than one piece: pieces the
    /// kernel held joined because the reader was behind.
    pub joined: u64,
    /// The reader's modelled clock at the end, in ns: its source reads
    /// (`sys`, `sys_kib`), the application's work per piece (`work`) and
    /// the waiting. The writer's pace alone needs `len ÷ rate`.
    pub elapsed_ns: f64,
}

impl Run {
    /// Measured CPU median plus modelled I/O.
    pub fn modelled_total_ns(&self) -> f64 {
        self.cpu_ns.median + self.modelled_io_ns
    }
}

impl Report {
    /// True when every reader delivered exactly the stream's bytes.
    pub fn digests_agree(&self) -> bool {
        self.runs.iter().all(|r| r.digest == self.source_digest)
    }

    /// Sets the copy floor and every run's time in multiples of it.
    pub fn set_copy_floor(&mut self, copy_ns: Stats) {
        for run in &mut self.runs {
            run.cpu_x_copy = x_copy(run.cpu_ns.median, &copy_ns);
        }
        self.copy_ns = (copy_ns.samples > 0).then_some(copy_ns);
    }
}

/// `ns` as a multiple of a copy floor; `None` without a floor or a time.
pub fn x_copy(ns: f64, copy_ns: &Stats) -> Option<f64> {
    (copy_ns.samples > 0 && copy_ns.median > 0.0 && ns > 0.0 && ns.is_finite()).then(|| ns / copy_ns.median)
}

// ---------------------------------------------------------------------------
// The write lab

/// How the application reaches the sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum WriteMode {
    /// Every `write_all` goes to the sink.
    Direct,
    /// `std::io::BufWriter::with_capacity(cap, sink)`.
    #[serde(rename = "bufwriter")]
    BufWriter,
}

impl Id for WriteMode {}

/// How the application finishes writing to a sink that refuses the last byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// No buffer: the failing `write_all` itself returns the error.
    Direct,
    /// `BufWriter` dropped without a flush: `Drop` flushes and ignores errors.
    Dropped,
    /// `BufWriter::flush()` at the end.
    Flush,
    /// `BufWriter::into_inner()` at the end.
    IntoInner,
}

impl Id for Ending {}

/// How a cursor run that did not finish ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WriteFailure {
    /// `io::ErrorKind` in Rust's spelling, e.g. `WriteZero`.
    pub kind: String,
    /// The error's own message, e.g. "failed to write whole buffer".
    pub message: String,
    /// Bytes in the buffer when the error came.
    pub bytes_written: u64,
}

/// What the application learned when the sink refused the last byte.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FinalFlush {
    pub ending: Ending,
    /// The call that returned the error to the application (`write_all`,
    /// `flush`, `into_inner`); `None` when the error was lost.
    pub reported_by: Option<String>,
    /// The error's message as the application saw it.
    pub error: Option<String>,
    /// Bytes the sink accepted.
    pub bytes_at_sink: u64,
    /// Bytes the application handed over that never reached the sink.
    pub bytes_lost: u64,
    /// `write` calls on the sink, the refused ones included.
    pub sink_writes: u64,
}

/// The write lab's result: the cursors, `BufWriter` over a chunked sink, and
/// the final-flush demonstration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WriteReport {
    /// Always `write`.
    #[cfg_attr(test, ts(type = "\"write\""))]
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
    /// How far the timing has come (see [`Report::stage`]).
    #[serde(default)]
    pub stage: Stage,
    /// The canonical link fragment that reproduces this report.
    pub link: String,
}

/// One cursor flavour's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
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
#[cfg_attr(test, derive(ts_rs::TS))]
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

/// The report of whichever lab the params select. Serialized without a
/// wrapper; the `lab` field tells them apart.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(untagged)]
pub enum LabReport {
    Read(Report),
    Write(WriteReport),
}

// ---------------------------------------------------------------------------
// Metrics

/// A number the page shows for one run of either lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MetricId {
    SourceReads,
    AppReads,
    Polls,
    Bytes,
    BytesCopied,
    Allocations,
    Reallocs,
    PeakBytes,
    PoolBlocks,
    CpuMedianNs,
    ModelledIoNs,
    ModelledTotalNs,
    Digest,
    AppWrites,
    SinkWrites,
    SinkFlushes,
}

impl Id for MetricId {}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(min: f64, max: f64, samples: u32) -> Stats {
        Stats { min, median: (min + max) / 2.0, max, samples, ..Stats::default() }
    }

    #[test]
    fn a_verdict_needs_samples_that_separate() {
        assert_eq!(stats(1.0, 2.0, 5).verdict(&stats(3.0, 4.0, 5)), Verdict::Faster);
        assert_eq!(stats(3.0, 4.0, 5).verdict(&stats(1.0, 2.0, 5)), Verdict::Slower);
        // 1.02× apart but overlapping: the same within noise.
        assert_eq!(stats(1.0, 1.1, 10).verdict(&stats(1.02, 1.12, 10)), Verdict::Same);
        // One sample each (a quick estimate) proves nothing, however far apart.
        assert_eq!(stats(1.0, 1.0, 1).verdict(&stats(9.0, 9.0, 1)), Verdict::Same);
        assert_eq!(Stats::default().verdict(&stats(3.0, 4.0, 5)), Verdict::Same, "counts only: no times");
    }

    /// Spreads that overlap while each median lies outside the other's
    /// spread: a rule that looked at medians (or at one side's median against
    /// the other's min or max) would call these faster and slower.
    #[test]
    fn overlapping_spreads_are_the_same_whatever_the_medians() {
        let a = Stats { min: 10.0, median: 11.0, max: 20.0, samples: 5, ..Stats::default() };
        let b = Stats { min: 15.0, median: 24.0, max: 25.0, samples: 5, ..Stats::default() };
        assert!(a.median < b.min && b.median > a.max, "the medians separate");
        assert_eq!(a.verdict(&b), Verdict::Same);
        assert_eq!(b.verdict(&a), Verdict::Same);
        // Touching spreads (a's slowest sample equals b's fastest) do not separate either.
        let c = Stats { min: 20.0, median: 22.0, max: 23.0, samples: 5, ..Stats::default() };
        assert_eq!(a.verdict(&c), Verdict::Same);
        assert_eq!(c.verdict(&a), Verdict::Same);
    }

    /// Two samples a side are the fewest that decide; one on either side,
    /// the other well sampled, decides nothing (each side's count is checked).
    #[test]
    fn two_samples_a_side_decide_and_one_on_either_side_does_not() {
        assert_eq!(stats(1.0, 2.0, 2).verdict(&stats(3.0, 4.0, 2)), Verdict::Faster);
        assert_eq!(stats(3.0, 4.0, 2).verdict(&stats(1.0, 2.0, 2)), Verdict::Slower);
        assert_eq!(stats(1.0, 2.0, 5).verdict(&stats(3.0, 3.0, 1)), Verdict::Same);
        assert_eq!(stats(3.0, 3.0, 1).verdict(&stats(1.0, 2.0, 5)), Verdict::Same);
        assert!(stats(1.0, 2.0, 2).ratio(&stats(3.0, 4.0, 2)).is_some());
    }

    #[test]
    fn a_ratio_spans_what_the_samples_allow() {
        let fast = Stats { min: 2.0, median: 2.5, max: 3.0, samples: 5, ..Stats::default() };
        let slow = Stats { min: 120.0, median: 150.0, max: 180.0, samples: 5, ..Stats::default() };
        assert_eq!(fast.ratio(&slow), Some(Ratio { low: 40.0, median: 60.0, high: 90.0 }));
        let back = slow.ratio(&fast).unwrap();
        assert_eq!((back.low, back.high), (2.0 / 180.0, 3.0 / 120.0));
        assert_eq!(fast.ratio(&stats(2.0, 3.0, 1)), None, "one sample bounds nothing");
        assert_eq!(Stats::default().ratio(&slow), None, "counts only: no times");
        // A fastest sample of zero (a timer too coarse for the run) bounds no ratio: no infinite "most".
        let zero = Stats { min: 0.0, median: 1.0, max: 2.0, samples: 5, ..Stats::default() };
        assert_eq!(zero.ratio(&slow), None);
        assert_eq!(slow.ratio(&zero), None);
    }

    /// The ratio's range and the verdict are one rule: faster exactly when
    /// the least ratio the samples allow is above 1.
    #[test]
    fn the_ratio_agrees_with_the_verdict() {
        let spreads = [(1.0, 2.0), (1.5, 3.0), (2.0, 2.0), (2.5, 4.0), (3.0, 9.0), (4.5, 5.0), (9.5, 10.0)];
        for &(amin, amax) in &spreads {
            for &(bmin, bmax) in &spreads {
                let (a, b) = (stats(amin, amax, 3), stats(bmin, bmax, 3));
                let r = a.ratio(&b).unwrap();
                assert!(r.low <= r.median && r.median <= r.high, "{r:?}");
                assert_eq!(a.verdict(&b) == Verdict::Faster, r.low > 1.0, "{a:?} {b:?}");
                assert_eq!(a.verdict(&b) == Verdict::Slower, r.high < 1.0, "{a:?} {b:?}");
            }
        }
    }

    fn run(reader: ReaderKind, median: f64, modelled_io_ns: f64, digest: &str) -> Run {
        Run {
            reader,
            source_reads: 0,
            app_reads: 0,
            bytes: 0,
            bytes_copied: 0,
            alloc: AllocCounts::default(),
            digest: digest.into(),
            cpu_ns: Stats { median, samples: 5, ..Stats::default() },
            modelled_io_ns,
            source_bytes: 0,
            arrival: None,
            blocks: None,
            polls: None,
            pendings: None,
            timeline: None,
            cpu_x_copy: None,
        }
    }

    fn read_report(runs: Vec<Run>, source_digest: &str) -> Report {
        Report {
            params: Params::default(),
            runs,
            timer: Timer { resolution_ns: 20.0, isolated: true, samples_lengthened: false },
            quick: false,
            stage: Stage::Full,
            source_digest: source_digest.into(),
            link: String::new(),
            lab: Lab::Read,
            copy_ns: None,
            machine: None,
            format: None,
        }
    }

    #[test]
    fn the_modelled_total_is_the_cpu_median_plus_the_modelled_io() {
        assert_eq!(run(ReaderKind::Std, 300.0, 200.0, "d").modelled_total_ns(), 500.0);
        assert_eq!(run(ReaderKind::Std, 300.0, 0.0, "d").modelled_total_ns(), 300.0);
    }

    #[test]
    fn digests_agree_only_when_every_run_delivered_the_sources_digest() {
        let agree = read_report(vec![run(ReaderKind::Unbuffered, 1.0, 0.0, "abc"), run(ReaderKind::Std, 1.0, 0.0, "abc")], "abc");
        assert!(agree.digests_agree());
        let one_off = read_report(vec![run(ReaderKind::Unbuffered, 1.0, 0.0, "abc"), run(ReaderKind::Std, 1.0, 0.0, "abd")], "abc");
        assert!(!one_off.digests_agree(), "one reader delivered other bytes");
        assert!(!read_report(vec![run(ReaderKind::Std, 1.0, 0.0, "abc")], "xyz").digests_agree());
    }

    #[test]
    fn a_copy_floor_puts_each_runs_median_in_multiples_of_it() {
        let mut report = read_report(vec![run(ReaderKind::Unbuffered, 300.0, 0.0, "d"), run(ReaderKind::Std, 60.0, 0.0, "d")], "d");
        let floor = Stats { min: 100.0, median: 120.0, max: 140.0, samples: 5, ..Stats::default() };
        report.set_copy_floor(floor);
        assert_eq!(report.copy_ns, Some(floor));
        assert_eq!(report.runs[0].cpu_x_copy, Some(2.5));
        assert_eq!(report.runs[1].cpu_x_copy, Some(0.5));
        // A floor without samples (no timing): no floor, and no multiples.
        let mut untimed = read_report(vec![run(ReaderKind::Std, 60.0, 0.0, "d")], "d");
        untimed.set_copy_floor(Stats { median: 120.0, ..Stats::default() });
        assert_eq!(untimed.copy_ns, None);
        assert_eq!(untimed.runs[0].cpu_x_copy, None);
    }

    #[test]
    fn a_time_in_copies_needs_a_timed_floor_above_zero_and_a_finite_time_above_zero() {
        let floor = Stats { min: 100.0, median: 120.0, max: 140.0, samples: 5, ..Stats::default() };
        assert_eq!(x_copy(300.0, &floor), Some(2.5));
        assert_eq!(x_copy(300.0, &Stats { samples: 0, ..floor }), None, "an untimed floor");
        assert_eq!(x_copy(300.0, &Stats { median: 0.0, ..floor }), None, "a floor of zero");
        assert_eq!(x_copy(300.0, &Stats { median: -1.0, ..floor }), None, "a floor below zero");
        assert_eq!(x_copy(0.0, &floor), None, "an untimed run");
        assert_eq!(x_copy(-30.0, &floor), None);
        assert_eq!(x_copy(f64::INFINITY, &floor), None);
        assert_eq!(x_copy(f64::NAN, &floor), None);
    }

    #[test]
    fn a_timer_step_reads_in_the_largest_unit_it_fills() {
        assert_eq!(format_step(20.0), "20 ns");
        assert_eq!(format_step(999.0), "999 ns");
        assert_eq!(format_step(1e3), "1 µs");
        assert_eq!(format_step(5e3), "5 µs");
        assert_eq!(format_step(100e3), "100 µs");
        assert_eq!(format_step(1e6), "1 ms");
        assert_eq!(format_step(16e6), "16 ms");
    }

    #[test]
    fn this_build_names_the_version_the_target_and_the_profile() {
        let build = Machine::this_build();
        let profile = if cfg!(debug_assertions) { "debug" } else { "release" };
        assert_eq!(build, format!("buflab {}, {}, {profile}", env!("CARGO_PKG_VERSION"), std::env::consts::ARCH));
    }

    #[test]
    fn a_machine_is_described_in_one_line_with_its_cores_counted_in_words() {
        let native = Machine {
            kind: MachineKind::Native,
            user_agent: None,
            os: Some("linux x86_64".into()),
            cpu: Some("Some CPU".into()),
            cores: Some(2),
            isolated: true,
            timer_step_ns: 20.0,
            build: "buflab 0.1.0, x86_64, release".into(),
        };
        assert_eq!(native.describe(), "native, linux x86_64, Some CPU, 2 cores, timer step 20 ns, buflab 0.1.0, x86_64, release");
        let one = Machine { cores: Some(1), ..native.clone() };
        assert!(one.describe().contains(", 1 core, "), "{}", one.describe());
        let browser = Machine {
            kind: MachineKind::Browser,
            user_agent: Some("Agent/1".into()),
            os: None,
            cpu: None,
            cores: None,
            isolated: false,
            timer_step_ns: 100e3,
            build: "b".into(),
        };
        assert_eq!(browser.describe(), "browser, Agent/1, not isolated, timer step 100 µs, b");
        assert_eq!(Machine { isolated: true, ..browser }.describe(), "browser, Agent/1, cross-origin isolated, timer step 100 µs, b");
    }

    fn flavour(digest: Option<&str>, failed: bool) -> FlavourRun {
        FlavourRun {
            flavour: Flavour::CursorVec,
            bytes: 0,
            alloc: AllocCounts::default(),
            digest: digest.map(Into::into),
            error: failed.then(|| WriteFailure { kind: "WriteZero".into(), message: "failed to write whole buffer".into(), bytes_written: 0 }),
            cpu_ns: None,
        }
    }

    fn sink(mode: WriteMode, digest: &str) -> SinkRun {
        SinkRun {
            mode,
            app_writes: 0,
            sink_writes: 0,
            sink_flushes: 0,
            bytes: 0,
            bytes_copied: 0,
            alloc: AllocCounts::default(),
            digest: digest.into(),
            cpu_ns: Stats::default(),
            modelled_io_ns: 0.0,
        }
    }

    fn write_report(flavours: Vec<FlavourRun>, sinks: Vec<SinkRun>) -> WriteReport {
        WriteReport {
            lab: Lab::Write,
            params: Params::default(),
            flavours,
            reference_digest: "ref".into(),
            reference_bytes: 0,
            sink: sinks,
            sink_digest: "data".into(),
            final_flush: Vec::new(),
            timer: Timer { resolution_ns: 20.0, isolated: true, samples_lengthened: false },
            quick: false,
            stage: Stage::Full,
            link: String::new(),
        }
    }

    #[test]
    fn write_bytes_agree_when_every_finished_flavour_and_both_sinks_match_and_a_failed_flavour_is_passed_over() {
        let sinks = || vec![sink(WriteMode::Direct, "data"), sink(WriteMode::BufWriter, "data")];
        assert!(write_report(vec![flavour(Some("ref"), false), flavour(Some("ref"), false)], sinks()).bytes_agree());
        assert!(write_report(vec![flavour(Some("ref"), false), flavour(None, true)], sinks()).bytes_agree(), "a failed run has no digest to agree");
        assert!(!write_report(vec![flavour(Some("ref"), false), flavour(Some("other"), false)], sinks()).bytes_agree());
        assert!(!write_report(vec![flavour(None, false)], sinks()).bytes_agree(), "a finished run without a digest");
        let one_sink_off = vec![sink(WriteMode::Direct, "data"), sink(WriteMode::BufWriter, "lost")];
        assert!(!write_report(vec![flavour(Some("ref"), false)], one_sink_off).bytes_agree(), "the buffered sink lost bytes");
    }
}
