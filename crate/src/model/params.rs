//! `Params`: one whole experiment, and the ids of the choices it names.
//!
//! Field names are an interface (the report JSON, the worker protocol and
//! the generated TypeScript types carry them): add fields, rename none.
//! Defaults live here, in the `Default` impls; limits and validation in
//! [`super::limits`]; the link codec in `crate::link`.

use serde::{Deserialize, Serialize};

use super::chunk::ChunkModel;
use super::id::Id;
use super::size::{KIB, MIB};

/// The readers a person can compare (the `rd` link key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ReaderKind {
    /// The source itself: every application read is a source read.
    Unbuffered,
    /// `std::io::BufReader::with_capacity(cap, source)`.
    Std,
    /// BufLab's chained zero-copy reader: pooled blocks of `cap` bytes.
    Chained,
    /// `tokio::io::BufReader::with_capacity(cap, source)`, polled without a runtime.
    Tokio,
    /// `futures::io::BufReader::with_capacity(cap, source)` (futures-util), polled
    /// without an executor.
    Futures,
}

impl Id for ReaderKind {}

/// The workloads a person can pick (the `wl` link key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// `read` calls of the read size until one returns 0.
    Fixed,
    /// `read_exact` records of the read size; the last one is the remainder.
    Exact,
    /// `Read::bytes()`, one byte per call.
    Bytes,
    /// `read_to_end` into a `Vec` sized from the stream's length, then a scan.
    ToEnd,
    /// Text lines: `read_until(b'\n')`, or one byte at a time without a buffer.
    Lines,
    /// 4-byte big-endian length + payload.
    Frames,
    /// Count the bytes before the first NUL.
    Scan,
}

impl Id for Workload {}

/// Where `sys`, the cost of one source read, came from (the `syssrc` link
/// key). Only a label: a run uses `sys` as it is, whoever set it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum SysSource {
    /// Set by hand: a model value.
    #[default]
    Manual,
    /// Calibrated by `buflab real` over a regular file (page cache warm).
    File,
    /// Calibrated by `buflab real` over a pipe.
    Pipe,
    /// Calibrated by `buflab real` over a loopback TCP connection.
    Tcp,
    /// Calibrated in a browser: one read call into its Origin Private File
    /// System (`FileSystemSyncAccessHandle`) per source read.
    Opfs,
}

impl Id for SysSource {}

/// The two halves of BufLab.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Lab {
    /// Readers over a chunked source.
    #[default]
    Read,
    /// The write cursors, and `BufWriter` over a chunked sink.
    Write,
}

impl Id for Lab {}

impl Lab {
    /// The result views the lab offers, the one a link opens without `view`
    /// first (the page's tabs show them in this order).
    pub const fn views(self) -> &'static [View] {
        match self {
            Lab::Read => &[View::Run, View::Sweep, View::Timeline],
            Lab::Write => &[View::Run],
        }
    }
}

/// The cursor flavours a person can compare (the `wf` link key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Flavour {
    /// `std::io::Cursor<Vec<u8>>`.
    CursorVec,
    /// `std::io::Cursor<&mut Vec<u8>>`.
    CursorMutVec,
    /// `WriterVec`, a minimal growable writer of BufLab's own.
    WriterVec,
    /// `bytes::BytesMut` through `BufMut::writer()`.
    BytesMut,
    /// `std::io::Cursor<&mut [u8]>`.
    CursorMutSlice,
    /// `std::io::Cursor<Box<[u8]>>`.
    CursorBox,
    /// `&mut [u8]` itself: the slice shrinks from the front as it is written.
    MutSlice,
}

impl Id for Flavour {}

/// A lesson's id: the value of the `lesson` link key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum LessonId {
    OneByte,
    NoHelp,
    AsyncBufreader,
    BytesVsToEnd,
    ChainedWorst,
    Cursors,
    FastSender,
    BufferSize,
    KneeGrid,
    BufferTimeline,
    OwnLog,
}

impl Id for LessonId {}

/// The result view the page shows (the `view` link key). It changes only
/// how the page looks, never a result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum View {
    /// One measurement: its charts and its table.
    #[default]
    Run,
    /// The sweep along one or two axes.
    Sweep,
    /// The buffer timeline, one application operation per step.
    Timeline,
}

impl Id for View {}

impl View {
    /// The view a link without `view` opens: the sweep when it carries one,
    /// else the single run.
    pub fn implied(p: &Params) -> View {
        if p.sweep.is_some() {
            View::Sweep
        } else {
            View::Run
        }
    }

    /// The view the page shows for `p`: its `view` where its lab offers it,
    /// else the lab's first (a write-lab link with `view=sweep` shows the run).
    pub fn shown(p: &Params) -> View {
        let views = p.lab.views();
        if views.contains(&p.view) {
            p.view
        } else {
            views[0]
        }
    }
}

/// What an embedded page shows (the `embed` link key): the page without its
/// masthead, settings and panels, for a slide or a blog post. It changes only
/// how the page looks, never a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Embed {
    /// The read lab's source reads chart.
    Reads,
    /// The read lab's time per run chart.
    Time,
    /// The read lab's bytes copied chart.
    Copied,
    /// The read lab's allocations chart.
    Allocs,
    /// The sweep's charts (the link's sweep).
    Sweep,
    /// The write lab's charts.
    Write,
    /// The write lab's reallocations chart (per cursor).
    Reallocs,
    /// The buffer timeline (the step on screen).
    Timeline,
}

impl Id for Embed {}

/// An inclusive range of lengths (line lengths, frame payload lengths).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LenRange {
    pub min: u64,
    pub max: u64,
}

/// One whole experiment. Unknown fields are ignored, as unknown link keys
/// are (serde-wasm-bindgen reads only declared fields, and native JSON
/// behaves the same way).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default)]
pub struct Params {
    /// Stream length in bytes.
    pub len: u64,
    pub chunk: ChunkModel,
    /// Seed of the chunk sizes and of the stream's content.
    pub seed: u64,
    /// Buffer capacity (the chained reader's block length) in bytes.
    pub cap: u64,
    /// Application read size in bytes.
    pub rs: u64,
    /// Modelled ns per source read.
    pub sys: u64,
    /// Modelled ns per KiB a source read returns, on top of `sys`: a real
    /// `read(2)` copies every byte it returns, so a large read costs more.
    pub sys_kib: u64,
    /// Bytes per second at which the source's pieces arrive (the writer's
    /// pace); 0: no arrival in time, each read gets one fresh piece (a
    /// reader that is always waiting). See `engine::source::Arrival`.
    pub rate: u64,
    /// Modelled ns the application spends on each piece of data it receives
    /// (parsing, computing), between its reads. It advances the reader's
    /// clock against `rate`; `buflab real` spends it for real.
    pub work: u64,
    /// Percentage of source reads before which the source is not yet ready:
    /// an async reader's first poll gets `Pending`, the next one the chunk.
    /// Seeded from `seed`; blocking readers never see it (their read waits).
    pub pend: u64,
    /// Where `sys` came from: set by hand, or calibrated on a real source.
    pub sys_source: SysSource,
    /// Readers compared, in the order shown; no repeats.
    pub readers: Vec<ReaderKind>,
    pub workload: Workload,
    /// Independent sources, each with its own reader, read round-robin.
    pub streams: u64,
    /// The chained reader's block pool: consumed blocks are handed out again.
    pub pool: bool,
    /// `frames`, std and unbuffered readers: one reused payload buffer instead
    /// of a new `Vec` per frame.
    pub reuse: bool,
    /// `lines`: line lengths, newline excluded.
    pub line: LenRange,
    /// `frames`: payload lengths.
    pub frame: LenRange,
    /// `scan`: position of the one NUL byte; at or past the end, there is none.
    pub nul: u64,
    /// Which lab the page shows and a run runs.
    pub lab: Lab,
    /// The write lab's settings (carried whichever lab is shown).
    pub write: WriteParams,
    /// The lesson this experiment was opened from, if any. It only selects
    /// the lesson on the page; runs ignore it.
    pub lesson: Option<LessonId>,
    /// Presenter mode: large type, high contrast, secondary panels hidden.
    /// Changes only how the page looks, never a result.
    pub present: bool,
    /// Predict, then reveal: the page hides the lesson's answer until the
    /// person asks for it. Changes only how the page looks, never a result.
    pub predict: bool,
    /// The quiz the engine writes from this experiment's results
    /// (`catalog::quiz`). Changes only what the page shows, never a result.
    pub quiz: bool,
    /// The quiz's seed: the same seed, the same quiz, in every browser and
    /// the CLI. Apart from `seed` (the data's), so a room can get a new quiz
    /// on the same results. Never changes a result.
    pub qseed: u64,
    /// A sweep over one or two axes; `None`: no sweep.
    pub sweep: Option<Sweep>,
    /// The result view the page shows. Changes only how the page looks,
    /// never a result.
    pub view: View,
    /// The buffer timeline's step on screen, from 1 (the page shows the
    /// trace's last step when it has fewer). Changes only how the page
    /// looks, never a result.
    pub step: u64,
    /// Embedded: only these charts, a headline and a link to the full page;
    /// empty: the whole page. Changes only how the page looks.
    pub embed: Vec<Embed>,
}

impl Default for Params {
    /// The experiment the page opens with: the BufRead article's 1 MiB read
    /// one byte at a time, unbuffered against an 8 KiB std `BufReader`, over a
    /// poor network.
    fn default() -> Self {
        Params {
            len: MIB,
            chunk: ChunkModel::Uniform { min: 64, max: 512 },
            seed: 42,
            cap: 8 * KIB,
            rs: 1,
            sys: 150,
            sys_kib: 0,
            rate: 0,
            work: 0,
            pend: 0,
            sys_source: SysSource::Manual,
            readers: vec![ReaderKind::Unbuffered, ReaderKind::Std],
            workload: Workload::Fixed,
            streams: 1,
            pool: true,
            reuse: false,
            line: LenRange { min: 8, max: 120 },
            frame: LenRange { min: 64, max: KIB },
            nul: 512 * KIB,
            lab: Lab::Read,
            write: WriteParams::default(),
            lesson: None,
            present: false,
            predict: false,
            quiz: false,
            qseed: 1,
            sweep: None,
            view: View::Run,
            step: 1,
            embed: Vec::new(),
        }
    }
}

impl Params {
    /// The source lives in time (`rate` set): its pieces arrive at a pace
    /// and the reader's clock decides what each read finds. A regular file
    /// has all its bytes, so `chunk=file` never does.
    pub fn lives_in_time(&self) -> bool {
        self.rate > 0 && self.chunk != ChunkModel::File
    }

    /// The single run these settings measure: every field that only changes
    /// how the page looks (the link's display keys) reset, and no sweep. Two
    /// settings with the same `experiment()` give the same report.
    pub fn experiment(&self) -> Params {
        // The display fields as a link without their keys has them.
        Params { sweep: None, ..self.shown_as(&Params::default()) }
    }

    /// These settings shown as `display` is: every field the display keys
    /// set taken from `display` (a comparison's B shows as its A does).
    pub fn shown_as(&self, display: &Params) -> Params {
        Params {
            sys_source: display.sys_source,
            lesson: display.lesson,
            present: display.present,
            predict: display.predict,
            quiz: display.quiz,
            qseed: display.qseed,
            view: display.view,
            step: display.step,
            embed: display.embed.clone(),
            ..self.clone()
        }
    }
}

/// The write lab's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default)]
pub struct WriteParams {
    /// Records serialized per run.
    pub records: u64,
    /// Capacity the growable cursors start with, in bytes; 0 makes them grow
    /// from nothing, reallocating on the way.
    pub init_cap: u64,
    /// Length of the fixed cursors' buffer in bytes; too small ends in a
    /// `WriteZero` error.
    pub buf: u64,
    /// Cursor flavours compared, in the order shown; no repeats.
    pub flavours: Vec<Flavour>,
    /// Bytes the application writes to the sink.
    pub len: u64,
    /// Application write size in bytes.
    pub ws: u64,
    /// `BufWriter` capacity in bytes.
    pub cap: u64,
    /// Most bytes the sink accepts per write call; the shared `seed` draws
    /// uniform sizes.
    pub sink: ChunkModel,
}

impl Default for WriteParams {
    /// The write-cursor article's benchmark: 2048 records of 16 bytes into
    /// 32 KiB, all seven flavours; and 1 MiB written 16 bytes at a time to a
    /// file-like sink, direct and through an 8 KiB `BufWriter`.
    fn default() -> Self {
        WriteParams {
            records: 2048,
            init_cap: 32 * KIB,
            buf: 32 * KIB,
            flavours: Flavour::all(),
            len: MIB,
            ws: 16,
            cap: 8 * KIB,
            sink: ChunkModel::File,
        }
    }
}

/// The record the write lab serializes: five integers, 16 bytes once
/// encoded with fixed-width integers (8 + 4 + 1 + 1 + 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub timestamp: u64,
    pub value: u32,
    pub kind: u8,
    pub urgent: bool,
    pub channel: u16,
}

/// Encoded size of one [`Record`].
pub const RECORD_BYTES: u64 = 16;

/// What a sweep steps through. Serialized as its link id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum SweepAxis {
    /// Buffer capacity / block length (`cap`).
    Cap,
    /// Application read size (`rs`).
    Rs,
    /// Chunk size: the value v means the chunk model `fixed v`.
    Chunk,
    /// Stream length (`len`).
    Len,
    /// Independent streams (`streams`).
    Streams,
    /// The pieces' arrival rate in bytes per second (`rate`).
    Rate,
}

impl Id for SweepAxis {}

impl SweepAxis {
    /// `base` with this axis set to `value` (and no sweep of its own).
    pub fn apply(self, base: &Params, value: u64) -> Params {
        let mut p = Params { sweep: None, ..base.clone() };
        match self {
            SweepAxis::Cap => p.cap = value,
            SweepAxis::Rs => p.rs = value,
            SweepAxis::Chunk => p.chunk = ChunkModel::Fixed { size: value as usize },
            SweepAxis::Len => p.len = value,
            SweepAxis::Streams => p.streams = value,
            SweepAxis::Rate => p.rate = value,
        }
        p
    }

    /// True when the axis is in bytes (shown with K/M suffixes).
    pub fn in_bytes(self) -> bool {
        self != SweepAxis::Streams
    }

    /// True when "where a bigger value stops paying" (the knee) means
    /// something along this axis; a longer stream or more streams only cost
    /// more.
    pub fn has_knee(self) -> bool {
        matches!(self, SweepAxis::Cap | SweepAxis::Rs | SweepAxis::Chunk)
    }

    /// The range a sweep of this axis gets when the link gives none.
    pub fn default_range(self) -> (u64, u64) {
        match self {
            SweepAxis::Cap | SweepAxis::Chunk => (16, 64 * KIB),
            SweepAxis::Rs => (1, 64 * KIB),
            SweepAxis::Len => (16 * KIB, 4 * MIB),
            SweepAxis::Streams => (1, 64),
            SweepAxis::Rate => (MIB, 64 * MIB),
        }
    }
}

/// A sweep: `axis` stepped through the powers of two from `from` to `to`;
/// with `across`, a two-axis sweep: at every value of `axis`, the second axis
/// stepped through its own range (a grid of points, `axis` down the rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Sweep {
    pub axis: SweepAxis,
    pub from: u64,
    pub to: u64,
    /// The second axis of a two-axis sweep (the grid's columns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub across: Option<Across>,
}

/// The second axis of a two-axis sweep: `axis` stepped through the powers of
/// two from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Across {
    pub axis: SweepAxis,
    pub from: u64,
    pub to: u64,
}

impl Sweep {
    /// A one-axis sweep.
    pub fn one(axis: SweepAxis, from: u64, to: u64) -> Sweep {
        Sweep { axis, from, to, across: None }
    }

    /// The first axis' values, ascending: every power of two from `from` to `to`.
    pub fn values(&self) -> Vec<u64> {
        pow2_values(self.from, self.to)
    }

    /// The second axis' values, ascending (empty for a one-axis sweep).
    pub fn across_values(&self) -> Vec<u64> {
        self.across.map(|a| pow2_values(a.from, a.to)).unwrap_or_default()
    }

    /// Every point, in the order they run: `(value, across value)`, the
    /// second axis varying fastest (row by row of the grid).
    pub fn grid(&self) -> Vec<(u64, Option<u64>)> {
        let across = self.across_values();
        let mut out = Vec::new();
        for v in self.values() {
            if across.is_empty() {
                out.push((v, None));
            }
            out.extend(across.iter().map(|&a| (v, Some(a))));
        }
        out
    }

    /// How many points the sweep has.
    pub fn point_count(&self) -> u64 {
        sweep_point_count(self.from, self.to) * self.across.map_or(1, |a| sweep_point_count(a.from, a.to))
    }

    /// `base` at one point of the sweep (and no sweep of its own).
    pub fn apply(&self, base: &Params, value: u64, across: Option<u64>) -> Params {
        let p = self.axis.apply(base, value);
        match (self.across, across) {
            (Some(a), Some(v)) => a.axis.apply(&p, v),
            _ => p,
        }
    }
}

/// Every power of two from `from` to `to`, ascending.
fn pow2_values(from: u64, to: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut v = from.max(1);
    while v <= to {
        out.push(v);
        match v.checked_mul(2) {
            Some(next) => v = next,
            None => break,
        }
    }
    out
}

/// Points in the power-of-two range `from..=to`.
pub fn sweep_point_count(from: u64, to: u64) -> u64 {
    (to.max(1).ilog2() as u64 + 1).saturating_sub(from.max(1).ilog2() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_match_serde() {
        fn check<T: Id + Serialize + std::fmt::Debug>() {
            let ids = T::ids();
            for (i, id) in ids.iter().enumerate() {
                assert!(!ids[..i].contains(id), "{id} twice");
                let v = T::from_id(id).unwrap();
                assert_eq!(serde_json::to_value(v).unwrap(), *id, "serde and link ids agree");
                assert_eq!(v.id(), *id);
            }
            assert_eq!(T::from_id("nope"), None);
        }
        check::<ReaderKind>();
        check::<Workload>();
        check::<Lab>();
        check::<Flavour>();
        check::<LessonId>();
        check::<SweepAxis>();
        check::<View>();
        check::<Embed>();
        check::<SysSource>();
        assert_eq!(Workload::ToEnd.id(), "to_end");
        assert_eq!(LessonId::from_id("one-byte"), Some(LessonId::OneByte));
        assert_eq!(Flavour::all().len(), 7);
    }

    #[test]
    fn sweep_values_are_the_powers_of_two_of_the_range() {
        assert_eq!(Sweep::one(SweepAxis::Cap, 16, 128).values(), [16, 32, 64, 128]);
        assert_eq!(sweep_point_count(16, 128), 4);
        assert_eq!(sweep_point_count(1, 1), 1);
    }

    #[test]
    fn a_two_axis_sweep_runs_its_grid_row_by_row() {
        let s = Sweep { across: Some(Across { axis: SweepAxis::Rs, from: 1, to: 4 }), ..Sweep::one(SweepAxis::Cap, 16, 32) };
        assert_eq!(s.grid(), [(16, Some(1)), (16, Some(2)), (16, Some(4)), (32, Some(1)), (32, Some(2)), (32, Some(4))]);
        assert_eq!(s.point_count(), 6);
        let p = s.apply(&Params::default(), 32, Some(4));
        assert_eq!((p.cap, p.rs, p.sweep), (32, 4, None));
        assert_eq!(Sweep::one(SweepAxis::Cap, 16, 32).grid(), [(16, None), (32, None)]);
    }
}
