//! Every limit, the job-size rules, and strict validation of [`Params`].
//!
//! This is the one place that owns the numbers: the link decoder clamps to
//! them, [`Params::check`] rejects by them, and the page builds its controls
//! from them (through the catalog's schema). Messages name the link key of
//! the offending value, so the page and the CLI can point at it.

use std::fmt;

use serde::Serialize;

use super::chunk::ChunkModel;
use super::id::Id;
use super::params::{sweep_point_count, Params, Record, Sweep, SweepAxis, WriteParams, RECORD_BYTES};
use super::size::{format_size, GIB, KIB, MIB};

/// The link key each field is known by; messages and notices name these.
pub mod key {
    pub const VERSION: &str = "v";
    pub const LEN: &str = "len";
    pub const CHUNK: &str = "chunk";
    pub const SEED: &str = "seed";
    pub const CAP: &str = "cap";
    pub const READ_SIZE: &str = "rs";
    pub const SYS: &str = "sys";
    pub const SYS_KIB: &str = "syskib";
    pub const RATE: &str = "rate";
    pub const WORK: &str = "work";
    pub const PEND: &str = "pend";
    pub const SYS_SOURCE: &str = "syssrc";
    pub const READERS: &str = "rd";
    pub const WORKLOAD: &str = "wl";
    pub const STREAMS: &str = "streams";
    pub const POOL: &str = "pool";
    pub const REUSE: &str = "reuse";
    pub const LINE: &str = "line";
    pub const FRAME: &str = "frame";
    pub const NUL: &str = "nul";
    pub const PRESENT: &str = "present";
    pub const PREDICT: &str = "predict";
    pub const QUIZ: &str = "quiz";
    pub const QUIZ_SEED: &str = "qseed";
    pub const LAB: &str = "lab";
    pub const RECORDS: &str = "recs";
    pub const INIT_CAP: &str = "icap";
    pub const FIXED_BUF: &str = "buf";
    pub const FLAVOURS: &str = "wf";
    pub const WRITE_LEN: &str = "wlen";
    pub const WRITE_SIZE: &str = "ws";
    pub const WRITE_CAP: &str = "wcap";
    pub const SINK: &str = "sink";
    pub const SWEEP: &str = "sweep";
    pub const FROM: &str = "from";
    pub const TO: &str = "to";
    pub const VIEW: &str = "view";
    pub const STEP: &str = "step";
    pub const EMBED: &str = "embed";
    pub const LESSON: &str = "lesson";
}

/// An inclusive range of allowed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Bounds {
    pub min: u64,
    pub max: u64,
}

impl Bounds {
    pub const fn new(min: u64, max: u64) -> Bounds {
        Bounds { min, max }
    }

    pub fn contains(&self, v: u64) -> bool {
        (self.min..=self.max).contains(&v)
    }

    pub fn clamp(&self, v: u64) -> u64 {
        v.clamp(self.min, self.max)
    }
}

/// Every numeric limit, in one place.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Limits {
    /// Stream length in bytes.
    pub len: Bounds,
    /// Buffer capacity / block length in bytes.
    pub cap: Bounds,
    /// Application read size in bytes.
    pub rs: Bounds,
    /// Chunk sizes of the chunk models in bytes.
    pub chunk: Bounds,
    /// Modelled cost of one source read in ns.
    pub sys: Bounds,
    /// Modelled cost per KiB a source read returns, in ns.
    pub sys_kib: Bounds,
    /// Arrival rate of the source's pieces in bytes per second, when set
    /// (0 turns arrival in time off). At least 1 KiB/s, so the longest
    /// stream arrives within a day of modelled time.
    pub rate: Bounds,
    /// Modelled ns the application spends per piece of data it receives.
    pub work: Bounds,
    /// Percentage of source reads an async reader finds not yet ready
    /// (`Pending` first). Up to 100: the source answers `Pending` at most
    /// once before each read, so even 100 % only adds one poll per source
    /// read and no link can keep a reader polling forever.
    pub pend: Bounds,
    /// PRNG seed; at most 2^53 − 1 so JavaScript numbers hold it exactly.
    pub seed: Bounds,
    /// Write lab: records serialized per run.
    pub records: Bounds,
    /// Write lab: initial capacity of the growable cursors in bytes.
    pub init_cap: Bounds,
    /// Write lab: length of the fixed cursors' buffer in bytes.
    pub buf: Bounds,
    /// Write lab: bytes written to the sink.
    pub wlen: Bounds,
    /// Write lab: application write size in bytes.
    pub ws: Bounds,
    /// Write lab: `BufWriter` capacity in bytes.
    pub wcap: Bounds,
    /// Independent streams read round-robin (see also [`MAX_JOB_BYTES`]).
    pub streams: Bounds,
    /// `lines` workload: line lengths in bytes, newline excluded.
    pub line: Bounds,
    /// `frames` workload: payload lengths in bytes.
    pub frame: Bounds,
    /// `scan` workload: position of the NUL byte (at or past the end: none).
    pub nul: Bounds,
    /// The buffer timeline's step on screen, from 1 to the operations it
    /// records ([`TIMELINE_OPS`]).
    pub step: Bounds,
    /// The quiz's seed (`qseed`): which reader each question asks about and
    /// the order of its choices; as `seed`, at most 2^53 − 1.
    pub qseed: Bounds,
}

/// Application operations the buffer timeline records per reader: enough to
/// see a buffer fill, drain and refill a few times, small enough for every
/// report to carry.
pub const TIMELINE_OPS: u64 = 100;

pub const LIMITS: Limits = Limits {
    len: Bounds::new(KIB, 64 * MIB),
    cap: Bounds::new(1, 4 * MIB),
    rs: Bounds::new(1, MIB),
    chunk: Bounds::new(1, 64 * MIB),
    sys: Bounds::new(0, 10_000_000),
    sys_kib: Bounds::new(0, 10_000_000),
    rate: Bounds::new(KIB, 64 * GIB),
    work: Bounds::new(0, 10_000_000),
    pend: Bounds::new(0, 100),
    seed: Bounds::new(0, (1 << 53) - 1),
    records: Bounds::new(1, MIB),
    init_cap: Bounds::new(0, 16 * MIB),
    buf: Bounds::new(0, 16 * MIB),
    wlen: Bounds::new(KIB, 64 * MIB),
    ws: Bounds::new(1, MIB),
    wcap: Bounds::new(1, 4 * MIB),
    streams: Bounds::new(1, 1000),
    line: Bounds::new(0, 64 * KIB),
    frame: Bounds::new(0, MIB),
    nul: Bounds::new(0, 64 * MIB),
    step: Bounds::new(1, TIMELINE_OPS),
    qseed: Bounds::new(0, (1 << 53) - 1),
};

/// One job's bound with several streams: stream length × streams (the bytes
/// read, hence the time) and buffer capacity × streams (the buffers alive at
/// once, one per stream) are each at most this. Streams share one copy of
/// the content, so memory stays near `len + 2 × cap × streams` whatever the
/// workload, well inside a wasm32 heap.
pub const MAX_JOB_BYTES: u64 = 64 * MIB;

/// The most streams allowed with streams of `len` bytes and buffers of `cap`
/// bytes (at least 1: `len` and `cap` alone are within [`MAX_JOB_BYTES`]).
pub fn max_streams(len: u64, cap: u64) -> u64 {
    let by_len = MAX_JOB_BYTES / len.max(1);
    let by_cap = MAX_JOB_BYTES / cap.max(1);
    by_len.min(by_cap).clamp(LIMITS.streams.min, LIMITS.streams.max)
}

/// Why [`max_streams`] is what it is, for a notice or an error.
pub fn streams_cap_reason(len: u64, cap: u64) -> String {
    let (what, size) = if len >= cap { ("stream length", len) } else { ("buffer capacity", cap) };
    format!(
        "stream length × streams and buffer capacity × streams may each be at most {}, \
         so a {what} of {} allows at most {} streams",
        format_size(MAX_JOB_BYTES),
        format_size(size),
        max_streams(len, cap)
    )
}

/// The most heap one write-lab job may hold at once, whatever the link says.
/// [`write_job_bytes`] at the limits stays below it (a unit test checks), so
/// the limits above are what bounds memory.
pub const MAX_WRITE_JOB_BYTES: u64 = 128 * MIB;

/// An upper estimate of the heap a write-lab job holds at its peak: the
/// records and the largest cursor buffer (a growable one may reach twice the
/// output while it doubles), or the sink's data plus the `BufWriter` buffer,
/// whichever is larger (the two parts run one after the other).
pub fn write_job_bytes(w: &WriteParams) -> u64 {
    let output = w.records * RECORD_BYTES;
    let records_in_memory = w.records * std::mem::size_of::<Record>() as u64;
    let cursor_buffer = w.buf.max(w.init_cap).max(2 * output);
    let cursors = records_in_memory + cursor_buffer;
    let sink = w.len + w.cap;
    cursors.max(sink)
}

/// Most streams `buflab real` reads at once: every pipe and every TCP
/// connection has a writer thread of its own.
pub const MAX_REAL_STREAMS: u64 = 64;

/// Most points one sweep may have: a range wider than this is cut at `to`,
/// with a notice. 24 doublings cover 1 B to 8 MiB.
pub const MAX_SWEEP_POINTS: u64 = 24;

/// Most points a two-axis sweep may have (8 × 8, say): a grid wider than this
/// is cut at the second axis' `to` first, with a notice.
pub const MAX_GRID_POINTS: u64 = 64;

/// What reading an `strace` log keeps, whatever its length: the log is
/// untrusted, so every table the reader grows has a bound here. Past a
/// bound the figures say so (a count of what was not kept), never silently.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TraceLimits {
    /// Longest line kept, outside its quoted strings (a line that spans the
    /// chunks it arrives in is gathered; each string keeps its first
    /// `string_bytes`). Longer lines are skipped and counted.
    pub line_bytes: u64,
    /// Bytes kept of each quoted string of a gathered line: a path is at
    /// most 4096 bytes (`PATH_MAX`); read data is never needed.
    pub string_bytes: u64,
    /// Characters of a path a descriptor keeps (the end of a longer one,
    /// after "…").
    pub path_chars: u64,
    /// Skipped lines quoted, and the characters quoted of each.
    pub quoted_lines: u64,
    pub quote_chars: u64,
    /// Descriptors with figures of their own; past these, totals only.
    pub descriptors: u64,
    /// Open descriptors followed, per process and number (past it, one is
    /// forgotten for each new one, and counted).
    pub open_fds: u64,
    /// Processes (threads) told apart for the count of processes.
    pub pids: u64,
    /// Split calls waiting for their second half, and the bytes kept of each.
    pub pending: u64,
    pub pending_bytes: u64,
    /// System call names counted by name, and error names per descriptor.
    pub syscall_names: u64,
    pub error_names: u64,
    /// Exact sizes a histogram counts by size (besides its power-of-two buckets).
    pub exact_sizes: u64,
    /// Slices of a descriptor's calls over time.
    pub slices: u64,
    /// Runs of equal (asked, returned) pairs the replay keeps per
    /// descriptor and in all (12 bytes each). A run holds any number of
    /// equal calls, so a program that asks for the same size every time
    /// needs a handful whatever its length; past the bound the replay
    /// covers the calls before it, and says how many.
    pub runs_per_descriptor: u64,
    pub runs_total: u64,
    /// Largest read the replay's program asks for; larger asks are
    /// replayed as asks of this size, and counted.
    pub replay_ask: u64,
    /// Largest JSON input read (`buflab real --json`'s report).
    pub json_bytes: u64,
    /// Capacities a replay sweeps (powers of two).
    pub sweep_caps: Bounds,
}

pub const TRACE: TraceLimits = TraceLimits {
    line_bytes: 64 * KIB,
    string_bytes: 4 * KIB,
    path_chars: 240,
    quoted_lines: 5,
    quote_chars: 120,
    descriptors: 1024,
    open_fds: 4 * KIB,
    pids: 64 * KIB,
    pending: 1024,
    pending_bytes: 4 * KIB + 256,
    syscall_names: 64,
    error_names: 16,
    exact_sizes: 32,
    slices: 128,
    runs_per_descriptor: 256 * KIB,
    runs_total: MIB,
    replay_ask: 64 * MIB,
    json_bytes: 4 * MIB,
    sweep_caps: Bounds::new(16, MIB),
};

/// The largest power of two at or below `n` (`n` ≥ 1).
pub const fn pow2_floor(n: u64) -> u64 {
    1 << (63 - n.leading_zeros())
}

/// The powers of two inside `b`.
const fn pow2_bounds(b: Bounds) -> Bounds {
    Bounds::new(b.min.next_power_of_two(), pow2_floor(b.max))
}

impl SweepAxis {
    /// The powers of two the axis may take (inside [`LIMITS`]).
    pub const fn bounds(self) -> Bounds {
        pow2_bounds(match self {
            SweepAxis::Cap => LIMITS.cap,
            SweepAxis::Rs => LIMITS.rs,
            SweepAxis::Chunk => LIMITS.chunk,
            SweepAxis::Len => LIMITS.len,
            SweepAxis::Streams => LIMITS.streams,
            SweepAxis::Rate => LIMITS.rate,
        })
    }
}

/// Why params were rejected: the link key of the offending value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    pub key: &'static str,
    pub message: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

impl std::error::Error for ParamError {}

fn check_bounds(key: &'static str, v: u64, b: Bounds) -> Result<(), ParamError> {
    if b.contains(v) {
        Ok(())
    } else {
        Err(ParamError { key, message: format!("{v} is outside {}..={}", b.min, b.max) })
    }
}

fn check_chunk(key: &'static str, c: ChunkModel) -> Result<(), ParamError> {
    match c {
        ChunkModel::Uniform { min, max } => {
            check_bounds(key, min as u64, LIMITS.chunk)?;
            check_bounds(key, max as u64, LIMITS.chunk)?;
            if min > max {
                return Err(ParamError { key, message: format!("range {min}-{max} is empty") });
            }
            Ok(())
        }
        ChunkModel::Fixed { size } => check_bounds(key, size as u64, LIMITS.chunk),
        ChunkModel::File | ChunkModel::Pipe => Ok(()),
    }
}

/// Rejects an empty list or one that names a choice twice.
fn check_list<T: Id>(key: &'static str, list: &[T], what: &str) -> Result<(), ParamError> {
    if list.is_empty() {
        return Err(ParamError { key, message: format!("no {what} chosen") });
    }
    for (i, item) in list.iter().enumerate() {
        if list[..i].contains(item) {
            return Err(ParamError { key, message: format!("{} is listed twice", item.id()) });
        }
    }
    Ok(())
}

impl Params {
    /// Strict validation against [`LIMITS`] and the job-size rules, for
    /// structured input (the worker's params, JSON); the link decoder never
    /// produces params that fail it.
    pub fn check(&self) -> Result<(), ParamError> {
        check_bounds(key::LEN, self.len, LIMITS.len)?;
        check_bounds(key::CAP, self.cap, LIMITS.cap)?;
        check_bounds(key::READ_SIZE, self.rs, LIMITS.rs)?;
        check_bounds(key::SYS, self.sys, LIMITS.sys)?;
        check_bounds(key::SYS_KIB, self.sys_kib, LIMITS.sys_kib)?;
        if self.rate != 0 {
            check_bounds(key::RATE, self.rate, LIMITS.rate)?;
        }
        check_bounds(key::WORK, self.work, LIMITS.work)?;
        check_bounds(key::PEND, self.pend, LIMITS.pend)?;
        check_bounds(key::SEED, self.seed, LIMITS.seed)?;
        check_bounds(key::STEP, self.step, LIMITS.step)?;
        check_bounds(key::QUIZ_SEED, self.qseed, LIMITS.qseed)?;
        check_chunk(key::CHUNK, self.chunk)?;
        check_list(key::READERS, &self.readers, "reader")?;
        self.check_write()?;
        self.check_workload_keys()?;
        self.check_sweep()
    }

    /// The write lab's settings (checked whichever lab is shown: a link
    /// carries both).
    fn check_write(&self) -> Result<(), ParamError> {
        let w = &self.write;
        check_bounds(key::RECORDS, w.records, LIMITS.records)?;
        check_bounds(key::INIT_CAP, w.init_cap, LIMITS.init_cap)?;
        check_bounds(key::FIXED_BUF, w.buf, LIMITS.buf)?;
        check_bounds(key::WRITE_LEN, w.len, LIMITS.wlen)?;
        check_bounds(key::WRITE_SIZE, w.ws, LIMITS.ws)?;
        check_bounds(key::WRITE_CAP, w.cap, LIMITS.wcap)?;
        check_chunk(key::SINK, w.sink)?;
        check_list(key::FLAVOURS, &w.flavours, "cursor flavour")?;
        let bytes = write_job_bytes(w);
        if bytes > MAX_WRITE_JOB_BYTES {
            return Err(ParamError {
                key: key::LAB,
                message: format!(
                    "the write lab would hold {} at once, over {}",
                    format_size(bytes),
                    format_size(MAX_WRITE_JOB_BYTES)
                ),
            });
        }
        Ok(())
    }

    /// Streams and the workloads' own settings.
    fn check_workload_keys(&self) -> Result<(), ParamError> {
        check_bounds(key::STREAMS, self.streams, LIMITS.streams)?;
        if self.streams > max_streams(self.len, self.cap) {
            return Err(ParamError {
                key: key::STREAMS,
                message: format!("{} streams: {}", self.streams, streams_cap_reason(self.len, self.cap)),
            });
        }
        for (name, range, bounds) in [(key::LINE, self.line, LIMITS.line), (key::FRAME, self.frame, LIMITS.frame)] {
            check_bounds(name, range.min, bounds)?;
            check_bounds(name, range.max, bounds)?;
            if range.min > range.max {
                return Err(ParamError { key: name, message: format!("range {}-{} is empty", range.min, range.max) });
            }
        }
        check_bounds(key::NUL, self.nul, LIMITS.nul)
    }

    /// The sweep, if any.
    fn check_sweep(&self) -> Result<(), ParamError> {
        let Some(s) = self.sweep else { return Ok(()) };
        check_range(s.axis, s.from, s.to)?;
        if let Some(a) = s.across {
            check_range(a.axis, a.from, a.to)?;
            if a.axis == s.axis {
                return Err(ParamError { key: key::SWEEP, message: format!("{} is swept twice", a.axis.id()) });
            }
            if s.point_count() > MAX_GRID_POINTS {
                let n = s.point_count();
                return Err(ParamError {
                    key: key::TO,
                    message: format!("{n} points; a two-axis sweep has at most {MAX_GRID_POINTS}"),
                });
            }
        }
        if !s.fits(self) {
            let p = s.apply(self, s.to, s.across.map(|a| a.to));
            return Err(ParamError {
                key: key::TO,
                message: format!("the point {}: {}", s.describe_last(), streams_cap_reason(p.len, p.cap)),
            });
        }
        Ok(())
    }
}

/// One axis' range: inside its bounds, powers of two, ascending, not too many points.
fn check_range(axis: SweepAxis, from: u64, to: u64) -> Result<(), ParamError> {
    let bounds = axis.bounds();
    check_bounds(key::FROM, from, bounds)?;
    check_bounds(key::TO, to, bounds)?;
    for (name, v) in [(key::FROM, from), (key::TO, to)] {
        if !v.is_power_of_two() {
            return Err(ParamError { key: name, message: format!("{v} is not a power of two") });
        }
    }
    if from > to {
        return Err(ParamError { key: key::FROM, message: format!("{from} is above to = {to}") });
    }
    let n = sweep_point_count(from, to);
    if n > MAX_SWEEP_POINTS {
        return Err(ParamError { key: key::TO, message: format!("{n} points; a sweep has at most {MAX_SWEEP_POINTS}") });
    }
    Ok(())
}

impl Sweep {
    /// True when every point keeps to the job-size rule: every axis' job
    /// size grows with its value, so the last point (both axes at `to`)
    /// fitting means every point fits.
    pub fn fits(&self, base: &Params) -> bool {
        let p = self.apply(base, self.to, self.across.map(|a| a.to));
        p.streams <= max_streams(p.len, p.cap)
    }

    /// The last point, as `cap = 64K` or `cap = 64K, rs = 8`.
    pub fn describe_last(&self) -> String {
        let mut out = format!("{} = {}", self.axis.id(), format_size(self.to));
        if let Some(a) = self.across {
            out += &format!(", {} = {}", a.axis.id(), format_size(a.to));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::params::{Flavour, LenRange, ReaderKind};

    #[test]
    fn default_params_are_valid() {
        assert_eq!(Params::default().check(), Ok(()));
    }

    #[test]
    fn strict_check_rejects_with_the_key() {
        let mut p = Params { cap: 0, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "cap");
        p = Params { readers: vec![], ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "rd");
        p = Params { readers: vec![ReaderKind::Std, ReaderKind::Std], ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "rd");
        p = Params { chunk: ChunkModel::Uniform { min: 9, max: 3 }, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "chunk");
        p = Params { frame: LenRange { min: 9, max: 3 }, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "frame");
        p = Params { line: LenRange { min: 0, max: LIMITS.line.max + 1 }, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "line");
        p = Params { streams: 0, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "streams");
        p = Params { streams: 65, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "streams");
        p = Params { pend: 101, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "pend");
    }

    #[test]
    fn strict_check_rejects_write_values_with_the_key() {
        let with = |w: WriteParams| Params { write: w, ..Params::default() }.check().unwrap_err().key;
        let def = WriteParams::default;
        assert_eq!(with(WriteParams { records: 0, ..def() }), "recs");
        assert_eq!(with(WriteParams { init_cap: 17 << 20, ..def() }), "icap");
        assert_eq!(with(WriteParams { buf: 17 << 20, ..def() }), "buf");
        assert_eq!(with(WriteParams { flavours: vec![], ..def() }), "wf");
        assert_eq!(with(WriteParams { flavours: vec![Flavour::CursorBox; 2], ..def() }), "wf");
        assert_eq!(with(WriteParams { len: 0, ..def() }), "wlen");
        assert_eq!(with(WriteParams { ws: 0, ..def() }), "ws");
        assert_eq!(with(WriteParams { cap: 0, ..def() }), "wcap");
        assert_eq!(with(WriteParams { sink: ChunkModel::Uniform { min: 5, max: 1 }, ..def() }), "sink");
        assert_eq!(with(WriteParams { sink: ChunkModel::Fixed { size: 0 }, ..def() }), "sink");
    }

    #[test]
    fn the_limits_bound_a_write_jobs_memory() {
        let worst = WriteParams {
            records: LIMITS.records.max,
            init_cap: LIMITS.init_cap.max,
            buf: LIMITS.buf.max,
            flavours: Flavour::all(),
            len: LIMITS.wlen.max,
            ws: LIMITS.ws.max,
            cap: LIMITS.wcap.max,
            sink: ChunkModel::File,
        };
        assert!(write_job_bytes(&worst) <= MAX_WRITE_JOB_BYTES, "{}", write_job_bytes(&worst));
        assert_eq!(Params { write: worst, ..Params::default() }.check(), Ok(()));
    }

    #[test]
    fn streams_are_bounded_by_the_job_size() {
        assert_eq!(max_streams(MIB, 8 * KIB), 64);
        assert_eq!(max_streams(KIB, 4 * MIB), 16);
        assert_eq!(max_streams(64 * KIB, 8 * KIB), 1000);
        assert_eq!(max_streams(LIMITS.len.max, LIMITS.cap.max), 1);
    }

    #[test]
    fn sweep_axes_are_bounded_by_powers_of_two_inside_the_limits() {
        assert_eq!(SweepAxis::Cap.bounds(), Bounds::new(1, 4 * MIB));
        assert_eq!(SweepAxis::Streams.bounds(), Bounds::new(1, 512));
        for axis in SweepAxis::all() {
            let (from, to) = axis.default_range();
            assert!(axis.bounds().contains(from) && axis.bounds().contains(to), "{axis:?}");
        }
    }

    #[test]
    fn a_two_axis_sweep_has_at_most_the_grids_points() {
        use crate::model::params::Across;
        // 8 capacities (64 B to 8 KiB) across 8 read sizes (1 B to 128 B): 64 points.
        let grid = |rs_to: u64| Params {
            sweep: Some(Sweep { across: Some(Across { axis: SweepAxis::Rs, from: 1, to: rs_to }), ..Sweep::one(SweepAxis::Cap, 64, 8 * KIB) }),
            ..Params::default()
        };
        assert_eq!(grid(128).check(), Ok(()));
        // Nine read sizes: 72 points, one column too many.
        let refused = grid(256).check().unwrap_err();
        assert_eq!((refused.key, refused.message.as_str()), (key::TO, "72 points; a two-axis sweep has at most 64"));
    }

    #[test]
    fn a_sweep_has_at_most_its_points() {
        // An axis whose bounds hold more than the points a sweep may have.
        let axis = SweepAxis::all().into_iter().find(|a| sweep_point_count(a.bounds().min, a.bounds().max) > MAX_SWEEP_POINTS).unwrap();
        let from = axis.bounds().min;
        let with = |points: u64| Params { sweep: Some(Sweep::one(axis, from, from << (points - 1))), ..Params::default() }.check();
        assert_eq!(with(MAX_SWEEP_POINTS), Ok(()), "{axis:?}");
        let refused = with(MAX_SWEEP_POINTS + 1).unwrap_err();
        assert_eq!((refused.key, refused.message), (key::TO, format!("25 points; a sweep has at most {MAX_SWEEP_POINTS}")));
    }

    /// The ranges README.md's key tables give (`| key | meaning | … |`: the
    /// link format, sweeps, the write lab, the workloads), by key: a row
    /// whose values cell states one range (`1K – 64M`, `0–64 KiB`,
    /// `1 to 100`, `0 – 2^53−1`); a cell with several (`chunk`'s presets)
    /// states none.
    fn readme_ranges(readme: &str) -> std::collections::BTreeMap<String, (u64, u64)> {
        let number = |text: &str| if text == "2^53\u{2212}1" { Some((1 << 53) - 1) } else { crate::model::size::parse_size(text).ok().flatten() };
        let mut ranges = std::collections::BTreeMap::new();
        let mut in_key_table = false;
        for line in readme.lines() {
            if !line.starts_with('|') {
                in_key_table = false;
                continue;
            }
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            in_key_table |= cells[0] == "key";
            let key = cells[0].strip_prefix('`').and_then(|k| k.strip_suffix('`')).filter(|k| !k.contains('`'));
            let (Some(key), true) = (key, in_key_table) else { continue };
            let values = cells[cells.len() - 1].replace(" \u{2013} ", "\u{2013}").replace(" to ", "\u{2013}");
            let words: Vec<&str> = values.split_whitespace().collect();
            let found: Vec<(u64, u64)> = words
                .iter()
                .enumerate()
                .filter_map(|(i, word)| {
                    let (low, high) = word.trim_end_matches([',', ';', '.', ')']).split_once('\u{2013}')?;
                    // A unit after the number ("0–64 KiB").
                    let unit = words.get(i + 1).filter(|u| ["KiB", "MiB", "GiB"].contains(u)).copied().unwrap_or("");
                    Some((number(low)?, number(&format!("{high}{unit}")).or_else(|| number(high))?))
                })
                .collect();
            if let [range] = found[..] {
                ranges.insert(key.to_owned(), range);
            }
        }
        ranges
    }

    /// Every limit is the range README.md gives its key (a contract: link
    /// format v1), and every range README gives a key is that key's limit;
    /// only `chunk` (bounded by the job's size, its row lists presets) and
    /// `qseed` (any seed; README gives its default) have no range there.
    /// The job's size is the one README states under `streams`.
    #[test]
    fn the_limits_are_the_ranges_the_readme_documents() {
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
        let documented = readme_ranges(&readme);
        // The link key of each limit whose field is named otherwise.
        let key_of = |field: &str| match field {
            "sys_kib" => key::SYS_KIB,
            "records" => key::RECORDS,
            "init_cap" => key::INIT_CAP,
            other => other,
        }
        .to_owned();
        let limits = serde_json::to_value(LIMITS).unwrap();
        let mut limited = Vec::new();
        for (field, bounds) in limits.as_object().unwrap() {
            let key = key_of(field);
            let bounds = (bounds["min"].as_u64().unwrap(), bounds["max"].as_u64().unwrap());
            match documented.get(&key) {
                Some(&range) => assert_eq!(range, bounds, "README's range for `{key}`"),
                None => assert!(["chunk", "qseed"].contains(&field.as_str()), "README gives `{key}` no range"),
            }
            limited.push(key);
        }
        for key in documented.keys() {
            assert!(limited.contains(key), "README gives `{key}` a range, and the model no limit");
        }
        assert!(documented.len() >= 20, "{documented:?}");
        assert!(readme.contains(&format!("capacity × streams each at most {}", format_size(MAX_JOB_BYTES).replace('M', " MiB"))));
    }

    /// A write job's heap: the records in memory (16 bytes each) and the
    /// largest cursor buffer (twice the 16-byte output while a growable one
    /// doubles, or `buf`/`icap` if larger), or the sink's data plus its
    /// buffer, whichever is larger.
    #[test]
    fn a_write_jobs_heap_is_its_larger_part() {
        assert_eq!(std::mem::size_of::<crate::model::params::Record>(), 16);
        let w = |records, buf, init_cap, len, cap| WriteParams { records, buf, init_cap, len, cap, ..WriteParams::default() };
        // 1000 records: 16,000 bytes in memory + a 32,000-byte doubled buffer.
        assert_eq!(write_job_bytes(&w(1000, 0, 0, 1024, 1)), 48_000);
        assert_eq!(write_job_bytes(&w(1, 65_536, 0, 1024, 1)), 16 + 65_536);
        assert_eq!(write_job_bytes(&w(1, 0, 100_000, 1024, 1)), 16 + 100_000);
        // The sink's side: 1 MiB of data and a 4 KiB buffer.
        assert_eq!(write_job_bytes(&w(1, 0, 0, 1_048_576, 4096)), 1_052_672);
    }

    #[test]
    fn pow2_floor_is_the_largest_power_of_two_at_or_below() {
        assert_eq!([1, 2, 3, 4, 1000, 1024, 1025].map(pow2_floor), [1, 2, 2, 4, 512, 1024, 1024]);
        assert_eq!(pow2_floor(u64::MAX), 1 << 63);
    }

    #[test]
    fn the_streams_rule_says_which_size_limits_the_streams() {
        assert_eq!(
            streams_cap_reason(MIB, 8 * KIB),
            "stream length × streams and buffer capacity × streams may each be at most 64M, so a stream length of 1M allows at most 64 streams"
        );
        assert!(streams_cap_reason(KIB, 4 * MIB).ends_with("so a buffer capacity of 4M allows at most 16 streams"));
    }

    #[test]
    fn a_param_error_reads_key_then_message() {
        let e = ParamError { key: "len", message: "0 is outside 1024..=67108864".into() };
        assert_eq!(e.to_string(), "len: 0 is outside 1024..=67108864");
    }

    #[test]
    fn a_sweeps_last_point_names_each_axis_at_its_end() {
        use crate::model::params::Across;
        let one = Sweep::one(SweepAxis::Cap, 16, 64 * KIB);
        assert_eq!(one.describe_last(), "cap = 64K");
        let two = Sweep { across: Some(Across { axis: SweepAxis::Rs, from: 1, to: 8 }), ..one };
        assert_eq!(two.describe_last(), "cap = 64K, rs = 8");
    }
}
