//! `Params`, its limits and defaults, validation, and the link codec.
//!
//! This module is the one place that owns every limit, default and link key.
//! Two doors lead in:
//! - [`decode_link`] reads an untrusted URL fragment and never fails: a value
//!   that is missing, malformed or out of range is replaced (defaulted or
//!   clamped) and a [`Notice`] names the key and what was used instead;
//! - [`Params::check`] is the strict door for structured input (the worker's
//!   JSON, the CLI's `--params`): it rejects with a [`ParamError`].
//!
//! Link format v1 is a product contract: keys keep their meaning forever, new
//! keys may be added, unknown keys are ignored.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::lessons::{Lesson, LessonId, LESSONS};
use crate::read::{ReaderKind, READERS};
use crate::source::{ChunkModel, PRESETS};
use crate::workload::{Workload, WORKLOADS};
use crate::write::bufwriter::{EndingInfo, WriteModeInfo, ENDINGS, WRITE_MODES};
use crate::write::cursors::{Flavour, FlavourInfo, FLAVOURS, RECORD_BYTES};

/// The link format version this build writes (and the only one it reads).
pub const LINK_VERSION: u32 = 1;

/// A fragment longer than this is refused whole (untrusted input).
pub const MAX_LINK_BYTES: usize = 8 * 1024;

/// Keys that never change a result: presenter mode and the lesson a link was
/// opened from. Two links that differ only in these describe the same
/// experiment (the page's baseline comparison and "settings changed since the
/// lesson" both rely on this list).
pub const DISPLAY_KEYS: &[&str] = &[key::PRESENT, key::LESSON];

/// The link keys.
pub mod key {
    pub const VERSION: &str = "v";
    pub const LEN: &str = "len";
    pub const CHUNK: &str = "chunk";
    pub const SEED: &str = "seed";
    pub const CAP: &str = "cap";
    pub const READ_SIZE: &str = "rs";
    pub const SYS: &str = "sys";
    pub const READERS: &str = "rd";
    pub const WORKLOAD: &str = "wl";

    // The write lab (absent `lab` means the read lab, so older links keep
    // their meaning).
    pub const LAB: &str = "lab";
    pub const RECORDS: &str = "recs";
    pub const INIT_CAP: &str = "icap";
    pub const FIXED_BUF: &str = "buf";
    pub const FLAVOURS: &str = "wf";
    pub const WRITE_LEN: &str = "wlen";
    pub const WRITE_SIZE: &str = "ws";
    pub const WRITE_CAP: &str = "wcap";
    pub const SINK: &str = "sink";
    // Added with the chained reader and the seed 001/002 workloads. They
    // appear in a link only when they differ from their defaults, so links
    // written before them keep their canonical form.
    pub const STREAMS: &str = "streams";
    pub const POOL: &str = "pool";
    pub const REUSE: &str = "reuse";
    pub const LINE: &str = "line";
    pub const FRAME: &str = "frame";
    pub const NUL: &str = "nul";
    // Added with the lessons: which lesson the link opens (the panel selects
    // it); absent in every link that is not a lesson's.
    pub const LESSON: &str = "lesson";
    // Presenter mode (issue 6): a display setting, not part of the
    // experiment; in a link only when on.
    pub const PRESENT: &str = "present";
    // Sweeps (see `crate::sweep`): absent `sweep` (or `off`) means none, so
    // older links keep their canonical form.
    pub const SWEEP: &str = "sweep";
    pub const FROM: &str = "from";
    pub const TO: &str = "to";
}

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;
const GIB: u64 = 1024 * MIB;

/// An inclusive range of allowed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bounds {
    pub min: u64,
    pub max: u64,
}

impl Bounds {
    const fn new(min: u64, max: u64) -> Bounds {
        Bounds { min, max }
    }

    pub fn contains(&self, v: u64) -> bool {
        (self.min..=self.max).contains(&v)
    }

    pub fn clamp(&self, v: u64) -> u64 {
        v.clamp(self.min, self.max)
    }
}

/// Every numeric limit, in one place. The page builds its controls from this
/// (through the wasm `schema()`), so no limit is written twice.
#[derive(Clone, Copy, Debug, Serialize)]
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
}

pub const LIMITS: Limits = Limits {
    len: Bounds::new(KIB, 64 * MIB),
    cap: Bounds::new(1, 4 * MIB),
    rs: Bounds::new(1, MIB),
    chunk: Bounds::new(1, 64 * MIB),
    sys: Bounds::new(0, 10_000_000),
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
};

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
    let records_in_memory = w.records * std::mem::size_of::<crate::write::cursors::Record>() as u64;
    let cursor_buffer = w.buf.max(w.init_cap).max(2 * output);
    let cursors = records_in_memory + cursor_buffer;
    let sink = w.len + w.cap;
    cursors.max(sink)
}

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
fn streams_cap_reason(len: u64, cap: u64) -> String {
    let (what, size) = if len >= cap { ("stream length", len) } else { ("buffer capacity", cap) };
    format!(
        "stream length × streams and buffer capacity × streams may each be at most {}, \
         so a {what} of {} allows at most {} streams",
        format_size(MAX_JOB_BYTES),
        format_size(size),
        max_streams(len, cap)
    )
}

/// An inclusive range of lengths (line lengths, frame payload lengths).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LenRange {
    pub min: u64,
    pub max: u64,
}

fn format_len_range(r: LenRange) -> String {
    if r.min == r.max {
        format_size(r.min)
    } else {
        format!("{}-{}", format_size(r.min), format_size(r.max))
    }
}

fn on_off(flag: bool) -> &'static str {
    if flag {
        "on"
    } else {
        "off"
    }
}

/// One whole experiment. Field names are an interface (the report JSON and the
/// worker protocol carry them); add fields, rename none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
/// Unknown fields are ignored, as unknown link keys are (serde-wasm-bindgen
/// reads only declared fields, and native JSON behaves the same way).
#[serde(default)]
pub struct Params {
    /// Stream length in bytes.
    pub len: u64,
    pub chunk: ChunkModel,
    pub seed: u64,
    /// Buffer capacity in bytes.
    pub cap: u64,
    /// Application read size in bytes.
    pub rs: u64,
    /// Modelled ns per source read.
    pub sys: u64,
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
    /// Which lab the page shows and `run` runs (`lab`; absent: read).
    pub lab: Lab,
    /// The write lab's settings.
    pub write: WriteParams,
    /// The lesson this experiment was opened from (`lesson`), if any. It
    /// only selects the lesson in the page's panel; runs ignore it.
    pub lesson: Option<LessonId>,
    /// Presenter mode (`present`): large type, high contrast, secondary
    /// panels hidden. Changes only how the page looks, never a result.
    pub present: bool,
    /// A sweep over one axis (`sweep`, `from`, `to`); `None`: no sweep.
    pub sweep: Option<Sweep>,
}

/// The two halves of BufLab.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lab {
    /// Readers over a chunked source.
    #[default]
    Read,
    /// Seed 004's cursors, and `BufWriter` over a chunked sink.
    Write,
}

impl Lab {
    pub fn id(self) -> &'static str {
        match self {
            Lab::Read => "read",
            Lab::Write => "write",
        }
    }
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct LabInfo {
    pub id: Lab,
    pub label: &'static str,
    pub about: &'static str,
}

/// The labs, in the order the page's switch shows them.
pub const LABS: [LabInfo; 2] = [
    LabInfo {
        id: Lab::Read,
        label: "Read",
        about: "Readers over a chunked source: unbuffered Read against std BufReader.",
    },
    LabInfo {
        id: Lab::Write,
        label: "Write",
        about: "Seed 004's seven write cursors serializing records, and std BufWriter over a chunked sink.",
    },
];

/// The write lab's settings. Field names are an interface, like [`Params`]'s.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct WriteParams {
    /// Records serialized per run (`recs`).
    pub records: u64,
    /// Capacity the growable cursors start with, in bytes (`icap`); 0 makes
    /// them grow from nothing, reallocating on the way.
    pub init_cap: u64,
    /// Length of the fixed cursors' buffer in bytes (`buf`); too small ends
    /// in a `WriteZero` error.
    pub buf: u64,
    /// Cursor flavours compared, in the order shown; no repeats (`wf`).
    pub flavours: Vec<Flavour>,
    /// Bytes the application writes to the sink (`wlen`).
    pub len: u64,
    /// Application write size in bytes (`ws`).
    pub ws: u64,
    /// `BufWriter` capacity in bytes (`wcap`).
    pub cap: u64,
    /// Most bytes the sink accepts per write call (`sink`); the shared
    /// `seed` draws uniform sizes.
    pub sink: ChunkModel,
}

impl Default for WriteParams {
    /// Seed 004's benchmark: 2048 records of 16 bytes into 32 KiB, all seven
    /// flavours; and 1 MiB written 16 bytes at a time to a file-like sink,
    /// direct and through an 8 KiB `BufWriter`.
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

impl Default for Params {
    /// The experiment the page opens with: seed 000's 1 MiB read one byte at a
    /// time, unbuffered against an 8 KiB std `BufReader`, over a poor network.
    fn default() -> Self {
        Params {
            len: MIB,
            chunk: ChunkModel::Uniform { min: 64, max: 512 },
            seed: 42,
            cap: 8 * KIB,
            rs: 1,
            sys: 150,
            readers: vec![ReaderKind::Unbuffered, ReaderKind::Std],
            workload: Workload::Fixed,
            lab: Lab::Read,
            write: WriteParams::default(),
            streams: 1,
            pool: true,
            reuse: false,
            line: LenRange { min: 8, max: 120 },
            frame: LenRange { min: 64, max: KIB },
            nul: 512 * KIB,
            lesson: None,
            present: false,
            sweep: None,
        }
    }
}

/// Why structured params were rejected.
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
        Err(ParamError {
            key,
            message: format!("{v} is outside {}..={}", format_size(b.min), format_size(b.max)),
        })
    }
}

/// A chunk model within [`LIMITS`]`.chunk`, reported under `key`.
fn check_chunk(key: &'static str, chunk: ChunkModel) -> Result<(), ParamError> {
    match chunk {
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

impl Params {
    /// Strict validation against [`LIMITS`].
    pub fn check(&self) -> Result<(), ParamError> {
        check_bounds(key::LEN, self.len, LIMITS.len)?;
        check_bounds(key::CAP, self.cap, LIMITS.cap)?;
        check_bounds(key::READ_SIZE, self.rs, LIMITS.rs)?;
        check_bounds(key::SYS, self.sys, LIMITS.sys)?;
        check_bounds(key::SEED, self.seed, LIMITS.seed)?;
        match self.chunk {
            ChunkModel::Uniform { min, max } => {
                check_bounds(key::CHUNK, min as u64, LIMITS.chunk)?;
                check_bounds(key::CHUNK, max as u64, LIMITS.chunk)?;
                if min > max {
                    return Err(ParamError {
                        key: key::CHUNK,
                        message: format!("range {min}-{max} is empty"),
                    });
                }
            }
            ChunkModel::Fixed { size } => check_bounds(key::CHUNK, size as u64, LIMITS.chunk)?,
            ChunkModel::File | ChunkModel::Pipe => {}
        }
        if self.readers.is_empty() {
            return Err(ParamError { key: key::READERS, message: "no reader chosen".into() });
        }
        for (i, r) in self.readers.iter().enumerate() {
            if self.readers[..i].contains(r) {
                return Err(ParamError {
                    key: key::READERS,
                    message: format!("{} is listed twice", r.id()),
                });
            }
        }
        self.check_write()?;
        self.check_added_keys()?;
        self.check_sweep()
    }

    /// Strict validation of the write lab's settings (checked whichever lab
    /// is shown: a link carries both).
    fn check_write(&self) -> Result<(), ParamError> {
        let w = &self.write;
        check_bounds(key::RECORDS, w.records, LIMITS.records)?;
        check_bounds(key::INIT_CAP, w.init_cap, LIMITS.init_cap)?;
        check_bounds(key::FIXED_BUF, w.buf, LIMITS.buf)?;
        check_bounds(key::WRITE_LEN, w.len, LIMITS.wlen)?;
        check_bounds(key::WRITE_SIZE, w.ws, LIMITS.ws)?;
        check_bounds(key::WRITE_CAP, w.cap, LIMITS.wcap)?;
        check_chunk(key::SINK, w.sink)?;
        if w.flavours.is_empty() {
            return Err(ParamError { key: key::FLAVOURS, message: "no cursor flavour chosen".into() });
        }
        for (i, f) in w.flavours.iter().enumerate() {
            if w.flavours[..i].contains(f) {
                return Err(ParamError { key: key::FLAVOURS, message: format!("{} is listed twice", f.id()) });
            }
        }
        let bytes = write_job_bytes(w);
        if bytes > MAX_WRITE_JOB_BYTES {
            return Err(ParamError {
                key: key::LAB,
                message: format!("the write lab would hold {} at once, over {}", format_size(bytes), format_size(MAX_WRITE_JOB_BYTES)),
            });
        }
        Ok(())
    }

    /// The keys added with the chained reader and the new workloads.
    fn check_added_keys(&self) -> Result<(), ParamError> {
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

    /// The added keys whose values differ from the defaults, each as
    /// `&key=value`, in a fixed order.
    fn added_link_keys(&self) -> String {
        let d = Params::default();
        let mut out = String::new();
        let mut push = |k: &str, v: String| {
            out.push('&');
            out.push_str(k);
            out.push('=');
            out.push_str(&v);
        };
        if self.streams != d.streams {
            push(key::STREAMS, self.streams.to_string());
        }
        if self.pool != d.pool {
            push(key::POOL, on_off(self.pool).into());
        }
        if self.reuse != d.reuse {
            push(key::REUSE, on_off(self.reuse).into());
        }
        if self.line != d.line {
            push(key::LINE, format_len_range(self.line));
        }
        if self.frame != d.frame {
            push(key::FRAME, format_len_range(self.frame));
        }
        if self.nul != d.nul {
            push(key::NUL, format_size(self.nul));
        }
        if self.present != d.present {
            push(key::PRESENT, on_off(self.present).into());
        }
        out
    }

    /// The write lab's part of the link: `lab=write` and every write key when
    /// the write lab is shown; only the write keys when the read lab is shown
    /// with write settings that differ from the defaults; nothing otherwise,
    /// so read links stay as they were.
    fn write_link(&self) -> String {
        let w = &self.write;
        if self.lab == Lab::Read && *w == WriteParams::default() {
            return String::new();
        }
        let lab = if self.lab == Lab::Write { format!("&{}={}", key::LAB, Lab::Write.id()) } else { String::new() };
        let flavours: Vec<&str> = w.flavours.iter().map(|f| f.id()).collect();
        format!(
            "{lab}&{}={}&{}={}&{}={}&{}={}&{}={}&{}={}&{}={}&{}={}",
            key::RECORDS,
            format_size(w.records),
            key::INIT_CAP,
            format_size(w.init_cap),
            key::FIXED_BUF,
            format_size(w.buf),
            key::FLAVOURS,
            flavours.join(","),
            key::WRITE_LEN,
            format_size(w.len),
            key::WRITE_SIZE,
            format_size(w.ws),
            key::WRITE_CAP,
            format_size(w.cap),
            key::SINK,
            format_chunk(w.sink),
        )
    }

    /// Parses and checks structured params (JSON).
    pub fn from_json(json: &str) -> Result<Params, ParamError> {
        let p: Params = serde_json::from_str(json)
            .map_err(|e| ParamError { key: "params", message: e.to_string() })?;
        p.check()?;
        Ok(p)
    }

    /// The canonical link fragment (without `#`).
    pub fn to_link(&self) -> String {
        let readers: Vec<&str> = self.readers.iter().map(|r| r.id()).collect();
        let link = format!(
            "{}={LINK_VERSION}&{}={}&{}={}&{}={}&{}={}&{}={}&{}={}&{}={}&{}={}",
            key::VERSION,
            key::LEN,
            format_size(self.len),
            key::CHUNK,
            format_chunk(self.chunk),
            key::SEED,
            self.seed,
            key::CAP,
            format_size(self.cap),
            key::READ_SIZE,
            format_size(self.rs),
            key::SYS,
            self.sys,
            key::READERS,
            readers.join(","),
            key::WORKLOAD,
            self.workload.id(),
        );
        link + &self.added_link_keys() + &self.write_link() + &self.sweep_link() + &self.lesson_link()
    }

    /// `&lesson=<id>` when the params came from a lesson; nothing otherwise.
    /// Last in the link, so a lesson's link reads as its experiment plus a name.
    fn lesson_link(&self) -> String {
        self.lesson.map_or_else(String::new, |l| format!("&{}={}", key::LESSON, l.id()))
    }
}

// ---------------------------------------------------------------------------
// Sizes

/// Parses a size: decimal digits with an optional binary suffix K, M or G
/// (any case, optionally followed by `B` or `iB`). `Ok(None)` means the number
/// is well formed but does not fit in 64 bits.
pub fn parse_size(text: &str) -> Result<Option<u64>, String> {
    let t = text.trim();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, suffix) = t.split_at(digits_end);
    if digits.is_empty() {
        return Err(format!("'{}' is not a size", shorten(text)));
    }
    let unit = match suffix.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => KIB,
        "m" | "mb" | "mib" => MIB,
        "g" | "gb" | "gib" => GIB,
        _ => return Err(format!("'{}' has an unknown unit (use K, M or G)", shorten(text))),
    };
    // Digits only, so the sole parse failure left is overflow.
    Ok(digits.parse::<u64>().ok().and_then(|n| n.checked_mul(unit)))
}

/// Formats a size with the largest binary suffix that divides it exactly.
pub fn format_size(n: u64) -> String {
    for (unit, suffix) in [(GIB, "G"), (MIB, "M"), (KIB, "K")] {
        if n >= unit && n % unit == 0 {
            return format!("{}{suffix}", n / unit);
        }
    }
    n.to_string()
}

fn format_chunk(c: ChunkModel) -> String {
    if let Some(name) = c.preset_name() {
        return name.to_string();
    }
    match c {
        ChunkModel::Uniform { min, max } => {
            format!("{}-{}", format_size(min as u64), format_size(max as u64))
        }
        ChunkModel::Fixed { size } => format_size(size as u64),
        ChunkModel::File => "file".into(),
        ChunkModel::Pipe => "pipe".into(),
    }
}

/// Untrusted text quoted back in a notice: at most 40 characters.
fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().nth(40).is_some() {
        s.push('…');
    }
    s
}

// ---------------------------------------------------------------------------
// Link decoding

/// A replaced or ignored link value, shown on the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// The link key concerned ("link" for the fragment as a whole).
    pub key: String,
    pub message: String,
}

/// What a link decodes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decoded {
    pub params: Params,
    pub notices: Vec<Notice>,
    /// The canonical fragment for `params`.
    pub fragment: String,
}

struct Decoder {
    notices: Vec<Notice>,
}

impl Decoder {
    fn notice(&mut self, key: &str, message: String) {
        self.notices.push(Notice { key: key.to_string(), message });
    }

    /// A size within `bounds`: clamped when out of range, `default` when
    /// unreadable.
    fn size(&mut self, key: &str, raw: &str, bounds: Bounds, default: u64) -> u64 {
        match parse_size(raw) {
            Ok(Some(v)) if bounds.contains(v) => v,
            Ok(parsed) => {
                let v = parsed.map_or(bounds.max, |v| bounds.clamp(v));
                let why = if parsed.is_some_and(|p| p < bounds.min) { "below" } else { "above" };
                self.notice(
                    key,
                    format!(
                        "{} is {why} the {} {}; using {}",
                        shorten(raw),
                        if why == "below" { "minimum" } else { "maximum" },
                        format_size(if why == "below" { bounds.min } else { bounds.max }),
                        format_size(v)
                    ),
                );
                v
            }
            Err(why) => {
                self.notice(key, format!("{why}; using {}", format_size(default)));
                default
            }
        }
    }

    /// A plain count (no unit suffix) within `bounds`.
    fn count(&mut self, key: &str, raw: &str, bounds: Bounds, default: u64) -> u64 {
        if raw.trim().chars().any(|c| !c.is_ascii_digit()) || raw.trim().is_empty() {
            self.notice(key, format!("'{}' is not a whole number; using {default}", shorten(raw)));
            return default;
        }
        let v = raw.trim().parse::<u64>().unwrap_or(u64::MAX);
        if bounds.contains(v) {
            return v;
        }
        let used = bounds.clamp(v);
        self.notice(key, format!("{} is outside {}..={}; using {used}", shorten(raw), bounds.min, bounds.max));
        used
    }

    fn chunk(&mut self, raw: &str, default: ChunkModel) -> ChunkModel {
        let t = raw.trim().to_ascii_lowercase();
        if let Some(c) = ChunkModel::preset(&t) {
            return c;
        }
        match t.as_str() {
            "file" => return ChunkModel::File,
            "pipe" => return ChunkModel::Pipe,
            _ => {}
        }
        let bounds = LIMITS.chunk;
        if let Some((a, b)) = t.split_once('-') {
            if parse_size(a).is_ok() && parse_size(b).is_ok() {
                let lo = self.size(key::CHUNK, a, bounds, bounds.min) as usize;
                let hi = self.size(key::CHUNK, b, bounds, bounds.min) as usize;
                if lo > hi {
                    self.notice(key::CHUNK, format!("range {} is reversed; using {hi}-{lo}", shorten(raw)));
                    return ChunkModel::Uniform { min: hi, max: lo };
                }
                return ChunkModel::Uniform { min: lo, max: hi };
            }
        } else if parse_size(&t).is_ok() {
            let size = self.size(key::CHUNK, &t, bounds, bounds.min) as usize;
            return ChunkModel::Fixed { size };
        }
        let names: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
        self.notice(
            key::CHUNK,
            format!(
                "'{}' is not a chunk model (a-b, k, file, pipe, {}); using {}",
                shorten(raw),
                names.join(", "),
                format_chunk(default)
            ),
        );
        default
    }

    fn readers(&mut self, raw: &str, default: &[ReaderKind]) -> Vec<ReaderKind> {
        let mut out = Vec::new();
        let mut unknown = Vec::new();
        for name in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match ReaderKind::from_id(&name.to_ascii_lowercase()) {
                Some(k) if !out.contains(&k) => out.push(k),
                Some(_) => {}
                None => unknown.push(shorten(name)),
            }
        }
        let known: Vec<&str> = READERS.iter().map(|r| r.id.id()).collect();
        if out.is_empty() {
            let ids: Vec<&str> = default.iter().map(|r| r.id()).collect();
            self.notice(
                key::READERS,
                format!("'{}' names no known reader (known: {}); using {}", shorten(raw), known.join(", "), ids.join(",")),
            );
            return default.to_vec();
        }
        if !unknown.is_empty() {
            self.notice(
                key::READERS,
                format!("unknown reader '{}' ignored (known: {})", unknown.join(","), known.join(", ")),
            );
        }
        out
    }

    fn lab(&mut self, raw: &str, default: Lab) -> Lab {
        match raw.trim().to_ascii_lowercase().as_str() {
            "read" => Lab::Read,
            "write" => Lab::Write,
            _ => {
                let known: Vec<&str> = LABS.iter().map(|l| l.id.id()).collect();
                self.notice(
                    key::LAB,
                    format!("'{}' is not a lab (known: {}); using {}", shorten(raw), known.join(", "), default.id()),
                );
                default
            }
        }
    }

    /// on/off (also 1/0, true/false, yes/no).
    fn flag(&mut self, key: &str, raw: &str, default: bool) -> bool {
        match raw.trim().to_ascii_lowercase().as_str() {
            "on" | "1" | "true" | "yes" => true,
            "off" | "0" | "false" | "no" => false,
            _ => {
                self.notice(key, format!("'{}' is not on or off; using {}", shorten(raw), on_off(default)));
                default
            }
        }
    }

    /// The sink's chunk model: the `chunk` grammar, with notices naming `sink`.
    fn sink(&mut self, raw: &str, default: ChunkModel) -> ChunkModel {
        let before = self.notices.len();
        let model = self.chunk(raw, default);
        for n in &mut self.notices[before..] {
            n.key = key::SINK.to_string();
        }
        model
    }

    fn flavours(&mut self, raw: &str, default: &[Flavour]) -> Vec<Flavour> {
        let mut out = Vec::new();
        let mut unknown = Vec::new();
        for name in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match Flavour::from_id(&name.to_ascii_lowercase()) {
                Some(f) if !out.contains(&f) => out.push(f),
                Some(_) => {}
                None => unknown.push(shorten(name)),
            }
        }
        let known: Vec<&str> = FLAVOURS.iter().map(|f| f.id.id()).collect();
        if out.is_empty() {
            let ids: Vec<&str> = default.iter().map(|f| f.id()).collect();
            self.notice(
                key::FLAVOURS,
                format!("'{}' names no known cursor flavour (known: {}); using {}", shorten(raw), known.join(", "), ids.join(",")),
            );
            return default.to_vec();
        }
        if !unknown.is_empty() {
            self.notice(
                key::FLAVOURS,
                format!("unknown cursor flavour '{}' ignored (known: {})", unknown.join(","), known.join(", ")),
            );
        }
        out
    }

    /// A length range `a-b` (or a single length `k`, meaning `k-k`) of sizes
    /// within `bounds`; a reversed range is swapped, with a notice.
    fn len_range(&mut self, key: &str, raw: &str, bounds: Bounds, default: LenRange) -> LenRange {
        let t = raw.trim();
        let (a, b) = t.split_once('-').unwrap_or((t, t));
        if parse_size(a).is_err() || parse_size(b).is_err() {
            self.notice(
                key,
                format!("'{}' is not a length range (a-b, such as 64-1K); using {}", shorten(raw), format_len_range(default)),
            );
            return default;
        }
        let lo = self.size(key, a, bounds, default.min);
        let hi = if a == b { lo } else { self.size(key, b, bounds, default.max) };
        if lo > hi {
            self.notice(key, format!("range {} is reversed; using {}", shorten(raw), format_len_range(LenRange { min: hi, max: lo })));
            return LenRange { min: hi, max: lo };
        }
        LenRange { min: lo, max: hi }
    }

    /// A lesson id; an unknown one is dropped with a notice (the experiment
    /// itself is whatever the other keys say).
    fn lesson(&mut self, raw: &str) -> Option<LessonId> {
        let found = LessonId::from_id(&raw.trim().to_ascii_lowercase());
        if found.is_none() {
            let known: Vec<&str> = LESSONS.iter().map(|l| l.id.id()).collect();
            self.notice(
                key::LESSON,
                format!("'{}' is not a lesson (known: {}); no lesson selected", shorten(raw), known.join(", ")),
            );
        }
        found
    }

    fn workload(&mut self, raw: &str, default: Workload) -> Workload {
        Workload::from_id(&raw.trim().to_ascii_lowercase()).unwrap_or_else(|| {
            let known: Vec<&str> = WORKLOADS.iter().map(|w| w.id.id()).collect();
            self.notice(
                key::WORKLOAD,
                format!(
                    "'{}' is not a workload (known: {}); using {}",
                    shorten(raw),
                    known.join(", "),
                    default.id()
                ),
            );
            default
        })
    }
}

/// The fragment part of a link, a bare fragment, or a whole URL.
fn fragment_of(link: &str) -> &str {
    let link = link.trim();
    match link.find('#') {
        Some(i) => &link[i + 1..],
        None => link.strip_prefix('?').unwrap_or(link),
    }
}

/// Decodes an untrusted link (a URL, `#fragment` or bare fragment). Never
/// fails and never panics: every problem becomes a [`Notice`].
pub fn decode_link(link: &str) -> Decoded {
    let defaults = Params::default();
    let mut d = Decoder { notices: Vec::new() };
    let fragment = fragment_of(link);

    if fragment.len() > MAX_LINK_BYTES {
        d.notice(
            "link",
            format!("the link is {} bytes, over the {MAX_LINK_BYTES}-byte limit; using defaults", fragment.len()),
        );
        return finish(defaults, d);
    }
    if fragment.trim() == "reset" {
        return finish(defaults, d);
    }

    // Percent-decoding and `+` as space, by the URL standard's rules.
    let pairs: Vec<(String, String)> = form_urlencoded::parse(fragment.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();

    let mut p = defaults.clone();
    let known = [
        key::VERSION,
        key::LEN,
        key::CHUNK,
        key::SEED,
        key::CAP,
        key::READ_SIZE,
        key::SYS,
        key::READERS,
        key::WORKLOAD,
        key::LAB,
        key::RECORDS,
        key::INIT_CAP,
        key::FIXED_BUF,
        key::FLAVOURS,
        key::WRITE_LEN,
        key::WRITE_SIZE,
        key::WRITE_CAP,
        key::SINK,
        key::STREAMS,
        key::POOL,
        key::REUSE,
        key::LINE,
        key::FRAME,
        key::NUL,
        key::LESSON,
        key::PRESENT,
    ];
    for name in known {
        let values: Vec<&str> =
            pairs.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect();
        let raw = match values.as_slice() {
            [] => continue,
            [one] => *one,
            _ => {
                d.notice(name, format!("given {} times; using the default", values.len()));
                continue;
            }
        };
        match name {
            key::VERSION => {
                if raw.trim() != LINK_VERSION.to_string() {
                    d.notice(
                        name,
                        format!("link version '{}' is not {LINK_VERSION}; reading it as {LINK_VERSION}", shorten(raw)),
                    );
                }
            }
            key::LEN => p.len = d.size(name, raw, LIMITS.len, defaults.len),
            key::CHUNK => p.chunk = d.chunk(raw, defaults.chunk),
            key::SEED => p.seed = d.count(name, raw, LIMITS.seed, defaults.seed),
            key::CAP => p.cap = d.size(name, raw, LIMITS.cap, defaults.cap),
            key::READ_SIZE => p.rs = d.size(name, raw, LIMITS.rs, defaults.rs),
            key::SYS => p.sys = d.count(name, raw, LIMITS.sys, defaults.sys),
            key::READERS => p.readers = d.readers(raw, &defaults.readers),
            key::WORKLOAD => p.workload = d.workload(raw, defaults.workload),
            key::LAB => p.lab = d.lab(raw, defaults.lab),
            key::RECORDS => p.write.records = d.size(name, raw, LIMITS.records, defaults.write.records),
            key::INIT_CAP => p.write.init_cap = d.size(name, raw, LIMITS.init_cap, defaults.write.init_cap),
            key::FIXED_BUF => p.write.buf = d.size(name, raw, LIMITS.buf, defaults.write.buf),
            key::FLAVOURS => p.write.flavours = d.flavours(raw, &defaults.write.flavours),
            key::WRITE_LEN => p.write.len = d.size(name, raw, LIMITS.wlen, defaults.write.len),
            key::WRITE_SIZE => p.write.ws = d.size(name, raw, LIMITS.ws, defaults.write.ws),
            key::WRITE_CAP => p.write.cap = d.size(name, raw, LIMITS.wcap, defaults.write.cap),
            key::SINK => p.write.sink = d.sink(raw, defaults.write.sink),
            key::STREAMS => p.streams = d.count(name, raw, LIMITS.streams, defaults.streams),
            key::POOL => p.pool = d.flag(name, raw, defaults.pool),
            key::REUSE => p.reuse = d.flag(name, raw, defaults.reuse),
            key::LINE => p.line = d.len_range(name, raw, LIMITS.line, defaults.line),
            key::FRAME => p.frame = d.len_range(name, raw, LIMITS.frame, defaults.frame),
            key::NUL => p.nul = d.size(name, raw, LIMITS.nul, defaults.nul),
            key::LESSON => p.lesson = d.lesson(raw),
            key::PRESENT => p.present = d.flag(name, raw, defaults.present),
            _ => unreachable!("every known key has an arm"),
        }
    }
    d.sweep(&pairs, &mut p);
    // After every key: the cap on streams depends on len and cap.
    let most = max_streams(p.len, p.cap);
    if p.streams > most {
        d.notice(key::STREAMS, format!("{} streams is too many: {}; using {most}", p.streams, streams_cap_reason(p.len, p.cap)));
        p.streams = most;
    }
    // After streams is settled: the sweep's range depends on it.
    d.fit_sweep(&mut p);
    finish(p, d)
}

fn finish(params: Params, d: Decoder) -> Decoded {
    debug_assert_eq!(params.check(), Ok(()), "decoding must produce valid params");
    Decoded { fragment: params.to_link(), params, notices: d.notices }
}

/// What the page needs to build its controls: limits, defaults, choices.
#[derive(Debug, Serialize)]
pub struct Schema {
    pub version: u32,
    pub defaults: Params,
    pub limits: Limits,
    pub readers: &'static [crate::read::ReaderInfo],
    pub workloads: &'static [crate::workload::WorkloadInfo],
    pub presets: &'static [crate::source::Preset],
    pub max_link_bytes: usize,
    /// Link keys that change how the page looks or what it points at, never a
    /// result ([`DISPLAY_KEYS`]).
    pub display_keys: &'static [&'static str],
    /// The labs the page's switch offers.
    pub labs: &'static [LabInfo],
    /// The write lab's cursor flavours, with seed 004's qualities.
    pub flavours: &'static [FlavourInfo],
    /// The sink experiment's two ways to write.
    pub write_modes: &'static [WriteModeInfo],
    /// The final-flush demonstration's endings.
    pub endings: &'static [EndingInfo],
    /// Encoded size of one record in the cursor experiment.
    pub record_bytes: u64,
    /// See [`MAX_JOB_BYTES`]: stream length × streams and buffer capacity ×
    /// streams are each at most this.
    pub max_job_bytes: u64,
    /// The lessons panel: one guided experiment per seed, each with its link.
    pub lessons: &'static [Lesson],
    /// The axes a sweep can run along, with their power-of-two bounds.
    pub sweep_axes: &'static [SweepAxisInfo],
    /// Most points one sweep may have.
    pub max_sweep_points: u64,
    /// How close to a sweep's best a point must be to count as its knee (0.05: within 5 %).
    pub knee_tolerance: f64,
}

pub fn schema() -> Schema {
    Schema {
        version: LINK_VERSION,
        defaults: Params::default(),
        limits: LIMITS,
        readers: &READERS,
        workloads: &WORKLOADS,
        presets: &PRESETS,
        max_link_bytes: MAX_LINK_BYTES,
        display_keys: DISPLAY_KEYS,
        labs: &LABS,
        flavours: &FLAVOURS,
        write_modes: &WRITE_MODES,
        endings: &ENDINGS,
        record_bytes: RECORD_BYTES,
        max_job_bytes: MAX_JOB_BYTES,
        lessons: &LESSONS,
        sweep_axes: &SWEEP_AXES,
        max_sweep_points: MAX_SWEEP_POINTS,
        knee_tolerance: crate::sweep::KNEE_TOLERANCE,
    }
}

// ---------------------------------------------------------------------------
// Sweeps: one axis stepped through powers of two (`crate::sweep` runs them).

/// Most points one sweep may have: a range wider than this is cut at `to`,
/// with a notice. 24 doublings cover 1 B to 8 MiB.
pub const MAX_SWEEP_POINTS: u64 = 24;

/// The largest power of two at or below `n` (`n` ≥ 1).
const fn pow2_floor(n: u64) -> u64 {
    1 << (63 - n.leading_zeros())
}

/// The powers of two inside `b`.
const fn pow2_bounds(b: Bounds) -> Bounds {
    Bounds::new(b.min.next_power_of_two(), pow2_floor(b.max))
}

/// What a sweep steps through. Serialized as its link id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
}

impl SweepAxis {
    pub fn id(self) -> &'static str {
        match self {
            SweepAxis::Cap => "cap",
            SweepAxis::Rs => "rs",
            SweepAxis::Chunk => "chunk",
            SweepAxis::Len => "len",
            SweepAxis::Streams => "streams",
        }
    }

    pub fn from_id(id: &str) -> Option<SweepAxis> {
        SWEEP_AXES.iter().map(|a| a.id).find(|a| a.id() == id)
    }

    pub fn info(self) -> &'static SweepAxisInfo {
        SWEEP_AXES.iter().find(|a| a.id == self).expect("every axis has an info entry")
    }

    /// `base` with this axis set to `value` (and no sweep of its own).
    pub fn apply(self, base: &Params, value: u64) -> Params {
        let mut p = Params { sweep: None, ..base.clone() };
        match self {
            SweepAxis::Cap => p.cap = value,
            SweepAxis::Rs => p.rs = value,
            SweepAxis::Chunk => p.chunk = ChunkModel::Fixed { size: value as usize },
            SweepAxis::Len => p.len = value,
            SweepAxis::Streams => p.streams = value,
        }
        p
    }

    /// True when the point `value` keeps to the job-size rule
    /// ([`max_streams`]). Every axis' job size grows with its value, so the
    /// largest point fitting means every point fits.
    pub fn fits(self, base: &Params, value: u64) -> bool {
        let p = self.apply(base, value);
        p.streams <= max_streams(p.len, p.cap)
    }
}

/// One sweep axis, for the page's sweep controls.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SweepAxisInfo {
    pub id: SweepAxis,
    pub label: &'static str,
    pub about: &'static str,
    /// The powers of two the axis may take (inside [`LIMITS`]).
    pub bounds: Bounds,
    /// The range a sweep of this axis gets when the link gives none.
    pub from: u64,
    pub to: u64,
    /// True when the axis is in bytes (shown with K/M suffixes).
    pub bytes: bool,
    /// True when "where a bigger value stops paying" (the knee) means
    /// something along this axis; a longer stream or more streams only
    /// cost more.
    pub knee: bool,
}

/// The sweep axes, in the order the page offers them.
pub const SWEEP_AXES: [SweepAxisInfo; 5] = [
    SweepAxisInfo {
        id: SweepAxis::Cap,
        label: "Buffer capacity",
        about: "Doubles the buffer (the chained reader's block length) from point to point: where does a bigger buffer stop paying?",
        bounds: pow2_bounds(LIMITS.cap),
        from: 16,
        to: 64 * KIB,
        bytes: true,
        knee: true,
    },
    SweepAxisInfo {
        id: SweepAxis::Rs,
        label: "Read size",
        about: "Doubles the application's read size: small reads lean on the buffer, reads larger than it skip it.",
        bounds: pow2_bounds(LIMITS.rs),
        from: 1,
        to: 64 * KIB,
        bytes: true,
        knee: true,
    },
    SweepAxisInfo {
        id: SweepAxis::Chunk,
        label: "Chunk size",
        about: "Doubles a fixed chunk size (the model `fixed v`): the most bytes one source read can return.",
        bounds: pow2_bounds(LIMITS.chunk),
        from: 16,
        to: 64 * KIB,
        bytes: true,
        knee: true,
    },
    SweepAxisInfo {
        id: SweepAxis::Len,
        label: "Stream length",
        about: "Doubles the stream length: counts and time should grow in step with it.",
        bounds: pow2_bounds(LIMITS.len),
        from: 16 * KIB,
        to: 4 * MIB,
        bytes: true,
        knee: false,
    },
    SweepAxisInfo {
        id: SweepAxis::Streams,
        label: "Streams",
        about: "Doubles the number of streams read round-robin, each with its own buffer (seed 000: many streams, many buffers).",
        bounds: pow2_bounds(LIMITS.streams),
        from: 1,
        to: 64,
        bytes: false,
        knee: false,
    },
];

/// A sweep: `axis` stepped through the powers of two from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sweep {
    pub axis: SweepAxis,
    pub from: u64,
    pub to: u64,
}

impl Sweep {
    /// The axis values, ascending: every power of two from `from` to `to`.
    pub fn values(&self) -> Vec<u64> {
        let mut out = Vec::new();
        let mut v = self.from.max(1);
        while v <= self.to {
            out.push(v);
            match v.checked_mul(2) {
                Some(next) => v = next,
                None => break,
            }
        }
        out
    }
}

/// Points in the power-of-two range `from..=to`.
fn sweep_point_count(from: u64, to: u64) -> u64 {
    (to.max(1).ilog2() as u64 + 1).saturating_sub(from.max(1).ilog2() as u64)
}

impl Params {
    /// Strict validation of the sweep, if any.
    fn check_sweep(&self) -> Result<(), ParamError> {
        let Some(s) = self.sweep else { return Ok(()) };
        let info = s.axis.info();
        check_bounds(key::FROM, s.from, info.bounds)?;
        check_bounds(key::TO, s.to, info.bounds)?;
        for (name, v) in [(key::FROM, s.from), (key::TO, s.to)] {
            if !v.is_power_of_two() {
                return Err(ParamError { key: name, message: format!("{v} is not a power of two") });
            }
        }
        if s.from > s.to {
            return Err(ParamError { key: key::FROM, message: format!("{} is above to = {}", s.from, s.to) });
        }
        let n = sweep_point_count(s.from, s.to);
        if n > MAX_SWEEP_POINTS {
            return Err(ParamError { key: key::TO, message: format!("{n} points; a sweep has at most {MAX_SWEEP_POINTS}") });
        }
        if !s.axis.fits(self, s.to) {
            let p = s.axis.apply(self, s.to);
            return Err(ParamError {
                key: key::TO,
                message: format!("the point {} = {}: {}", s.axis.id(), format_size(s.to), streams_cap_reason(p.len, p.cap)),
            });
        }
        Ok(())
    }

    /// `&sweep=…&from=…&to=…`, or nothing without a sweep.
    fn sweep_link(&self) -> String {
        match self.sweep {
            None => String::new(),
            Some(s) => format!(
                "&{}={}&{}={}&{}={}",
                key::SWEEP,
                s.axis.id(),
                key::FROM,
                format_size(s.from),
                key::TO,
                format_size(s.to)
            ),
        }
    }
}

/// `p` with its sweep fitted to the rest of `p` the way a link's would be
/// (rounded, cut to the point limit and the job-size rule), with notices
/// naming `from`/`to`. For the page, when a setting such as `len` changes
/// under a sweep. The rest of `p` must be valid.
pub fn fit_sweep(p: &Params) -> Result<Decoded, ParamError> {
    let base = Params { sweep: None, ..p.clone() };
    base.check()?;
    Ok(decode_link(&(base.to_link() + &p.sweep_link())))
}

impl Decoder {
    /// The single value of `name` in the link; `None` when absent, or given
    /// more than once (with a notice).
    fn single<'a>(&mut self, pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
        let values: Vec<&str> = pairs.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect();
        match values.as_slice() {
            [] => None,
            [one] => Some(*one),
            _ => {
                self.notice(name, format!("given {} times; using the default", values.len()));
                None
            }
        }
    }

    /// A range end: a size within the axis' bounds, rounded to the nearest
    /// power of two (a tie goes down).
    fn sweep_end(&mut self, name: &str, raw: Option<&str>, info: &SweepAxisInfo, default: u64) -> u64 {
        let Some(raw) = raw else { return default };
        let v = self.size(name, raw, info.bounds, default);
        if v.is_power_of_two() {
            return v;
        }
        let down = pow2_floor(v);
        let up = down * 2;
        let rounded = if v - down <= up - v { down } else { up };
        self.notice(name, format!("{} is not a power of two; using {}", format_size(v), format_size(rounded)));
        rounded
    }

    /// `sweep`, `from` and `to`; the range is fitted to the job-size rule
    /// later, in [`Decoder::fit_sweep`], once `streams` is settled.
    fn sweep(&mut self, pairs: &[(String, String)], p: &mut Params) {
        let axis_raw = self.single(pairs, key::SWEEP);
        let from_raw = self.single(pairs, key::FROM);
        let to_raw = self.single(pairs, key::TO);
        let axis = match axis_raw.map(|a| a.trim().to_ascii_lowercase()) {
            None => None,
            Some(a) if a == "off" || a.is_empty() => None,
            Some(a) => match SweepAxis::from_id(&a) {
                Some(axis) => Some(axis),
                None => {
                    let known: Vec<&str> = SWEEP_AXES.iter().map(|a| a.id.id()).collect();
                    self.notice(
                        key::SWEEP,
                        format!("'{}' is not a sweep axis (known: {}, off); no sweep", shorten(&a), known.join(", ")),
                    );
                    None
                }
            },
        };
        let Some(axis) = axis else {
            for (name, raw) in [(key::FROM, from_raw), (key::TO, to_raw)] {
                if raw.is_some() {
                    self.notice(name, "ignored: there is no sweep (set sweep to an axis)".into());
                }
            }
            p.sweep = None;
            return;
        };
        let info = axis.info();
        let mut from = self.sweep_end(key::FROM, from_raw, info, info.from);
        let mut to = self.sweep_end(key::TO, to_raw, info, info.to);
        if from > to {
            self.notice(key::FROM, format!("from {} is above to {}; swapped", format_size(from), format_size(to)));
            std::mem::swap(&mut from, &mut to);
        }
        p.sweep = Some(Sweep { axis, from, to });
    }

    /// Cuts the sweep's range to at most [`MAX_SWEEP_POINTS`] points and to
    /// points that keep the job-size rule, with notices naming `to`.
    fn fit_sweep(&mut self, p: &mut Params) {
        let Some(mut s) = p.sweep else { return };
        if sweep_point_count(s.from, s.to) > MAX_SWEEP_POINTS {
            let to = s.from << (MAX_SWEEP_POINTS - 1);
            self.notice(
                key::TO,
                format!("{} points is too many (at most {MAX_SWEEP_POINTS}); using to = {}", sweep_point_count(s.from, s.to), format_size(to)),
            );
            s.to = to;
        }
        if !s.axis.fits(p, s.to) {
            let mut to = s.to;
            while to > 1 && !s.axis.fits(p, to) {
                to /= 2;
            }
            let q = s.axis.apply(p, s.to);
            let dropped = sweep_point_count(to, s.to) - 1;
            self.notice(
                key::TO,
                format!(
                    "{} point{} past {} = {} dropped: {}",
                    dropped,
                    if dropped == 1 { "" } else { "s" },
                    s.axis.id(),
                    format_size(to),
                    streams_cap_reason(q.len, q.cap)
                ),
            );
            s.to = to;
            if s.from > to {
                s.from = to;
            }
        }
        p.sweep = Some(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(d: &Decoded) -> Vec<&str> {
        d.notices.iter().map(|n| n.key.as_str()).collect()
    }

    #[test]
    fn default_params_are_valid_and_round_trip() {
        let p = Params::default();
        assert_eq!(p.check(), Ok(()));
        let d = decode_link(&p.to_link());
        assert_eq!(d.params, p);
        assert!(d.notices.is_empty(), "{:?}", d.notices);
    }

    #[test]
    fn design_example_link_decodes() {
        let d = decode_link("#v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert_eq!(d.params.len, 1 << 20);
        assert_eq!(d.params.chunk, ChunkModel::Uniform { min: 64, max: 512 });
        assert_eq!(d.params.cap, 8192);
        assert_eq!(d.fragment, "v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed");
    }

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("8K"), Ok(Some(8192)));
        assert_eq!(parse_size("8kib"), Ok(Some(8192)));
        assert_eq!(parse_size(" 1M "), Ok(Some(1 << 20)));
        assert_eq!(parse_size("2G"), Ok(Some(2 << 30)));
        assert_eq!(parse_size("64"), Ok(Some(64)));
        assert_eq!(parse_size("99999999999999999999"), Ok(None));
        assert_eq!(parse_size("17179869184G"), Ok(None));
        for bad in ["", "K", "-1", "1.5K", "8Q", "NaN", "Infinity", "0x10"] {
            assert!(parse_size(bad).is_err(), "{bad:?} should not parse");
        }
    }

    #[test]
    fn format_size_uses_exact_suffixes_only() {
        assert_eq!(format_size(8192), "8K");
        assert_eq!(format_size(1536), "1536");
        assert_eq!(format_size(3 << 20), "3M");
        assert_eq!(format_size(0), "0");
    }

    #[test]
    fn bad_values_fall_back_with_a_notice_naming_the_key() {
        let d = decode_link("v=1&cap=banana&len=-5&rs=0&seed=NaN&rd=nope&wl=x&chunk=zz");
        assert_eq!(keys(&d), ["len", "chunk", "seed", "cap", "rs", "rd", "wl"]);
        let def = Params::default();
        assert_eq!(d.params.cap, def.cap);
        assert_eq!(d.params.len, def.len);
        assert_eq!(d.params.rs, LIMITS.rs.min, "0 clamps up to the minimum");
        assert_eq!(d.params.readers, def.readers);
        assert_eq!(d.params.check(), Ok(()));
    }

    #[test]
    fn out_of_range_values_clamp() {
        let d = decode_link("len=1G&cap=0&rs=99999999999999999999999&sys=99999999999");
        assert_eq!(d.params.len, LIMITS.len.max);
        assert_eq!(d.params.cap, LIMITS.cap.min);
        assert_eq!(d.params.rs, LIMITS.rs.max);
        assert_eq!(d.params.sys, LIMITS.sys.max);
        assert_eq!(keys(&d), ["len", "cap", "rs", "sys"]);
        assert!(d.notices[0].message.contains("maximum 64M"), "{:?}", d.notices[0]);
    }

    #[test]
    fn duplicate_keys_fall_back_to_the_default() {
        let d = decode_link("cap=4K&cap=16K");
        assert_eq!(d.params.cap, Params::default().cap);
        assert_eq!(keys(&d), ["cap"]);
    }

    #[test]
    fn percent_encoding_and_plus_are_decoded() {
        let d = decode_link("#rd=unbuffered%2Cstd&chunk=%20100+");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert_eq!(d.params.chunk, ChunkModel::Fixed { size: 100 });
    }

    #[test]
    fn whole_urls_and_unknown_keys_are_accepted() {
        let d = decode_link("https://example.org/buflab/?x=1#v=1&cap=16K&future=yes");
        assert!(d.notices.is_empty());
        assert_eq!(d.params.cap, 16384);
    }

    #[test]
    fn reversed_chunk_range_is_swapped() {
        let d = decode_link("chunk=512-64");
        assert_eq!(d.params.chunk, ChunkModel::Uniform { min: 64, max: 512 });
        assert_eq!(keys(&d), ["chunk"]);
    }

    #[test]
    fn oversized_links_are_refused_whole() {
        let link = format!("cap=16K&pad={}", "x".repeat(MAX_LINK_BYTES));
        let d = decode_link(&link);
        assert_eq!(d.params, Params::default());
        assert_eq!(keys(&d), ["link"]);
    }

    #[test]
    fn reset_gives_defaults() {
        assert_eq!(decode_link("#reset").params, Params::default());
    }

    #[test]
    fn added_keys_round_trip_and_stay_out_of_default_links() {
        assert!(!Params::default().to_link().contains("streams"), "{}", Params::default().to_link());
        let link = "v=1&len=256K&chunk=worst&seed=2&cap=1K&rs=1&sys=150&rd=std,chained&wl=frames\
                    &streams=8&pool=off&reuse=on&line=0-4K&frame=1-128&nul=1000";
        let d = decode_link(link);
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert_eq!(d.params.streams, 8);
        assert!(!d.params.pool && d.params.reuse);
        assert_eq!(d.params.line, LenRange { min: 0, max: 4096 });
        assert_eq!(d.params.frame, LenRange { min: 1, max: 128 });
        assert_eq!(d.params.nul, 1000);
        assert_eq!(d.fragment, link);
        assert_eq!(decode_link("frame=100").params.frame, LenRange { min: 100, max: 100 });
        assert_eq!(decode_link("pool=0&reuse=YES").params.pool, false);
        assert!(decode_link("pool=0&reuse=YES").params.reuse);
    }

    #[test]
    fn bad_added_values_fall_back_with_notices_naming_the_key() {
        let d = decode_link("streams=0&pool=maybe&reuse=2&line=x&frame=2M-1&nul=-1");
        assert_eq!(keys(&d), ["streams", "pool", "reuse", "line", "frame", "frame", "nul"]);
        let def = Params::default();
        assert_eq!(d.params.streams, 1, "0 clamps up to 1");
        assert_eq!((d.params.pool, d.params.reuse, d.params.line, d.params.nul), (def.pool, def.reuse, def.line, def.nul));
        assert_eq!(d.params.frame, LenRange { min: 1, max: MIB }, "clamped, then swapped");
        assert_eq!(d.params.check(), Ok(()));
    }

    #[test]
    fn streams_are_capped_by_the_job_size_with_a_notice() {
        // 1 MiB streams: 64 of them make 64 MiB.
        let d = decode_link("len=1M&streams=1000");
        assert_eq!(d.params.streams, 64);
        assert_eq!(keys(&d), ["streams"]);
        assert!(d.notices[0].message.contains("at most 64 streams"), "{:?}", d.notices[0]);
        // Large buffers bind first: 4 MiB × 16 = 64 MiB.
        let d = decode_link("len=1K&cap=4M&streams=1000");
        assert_eq!(d.params.streams, 16);
        assert!(d.notices[0].message.contains("a buffer capacity of 4M allows at most 16"), "{:?}", d.notices[0]);
        assert_eq!(decode_link("len=64K&cap=8K&streams=1000").params.streams, 1000);
        assert_eq!(max_streams(LIMITS.len.max, LIMITS.cap.max), 1);
        let p = Params { streams: 65, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "streams");
    }

    #[test]
    fn schema_keys_name_real_link_keys() {
        let known = [key::READ_SIZE, key::CAP, key::POOL, key::REUSE, key::LINE, key::FRAME, key::NUL];
        for k in READERS.iter().flat_map(|r| r.keys).chain(WORKLOADS.iter().flat_map(|w| w.keys)) {
            assert!(known.contains(k), "{k}");
        }
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
        assert!(Params::from_json(r#"{"cap": -1}"#).is_err());
        assert!(Params::from_json(r#"{"readers": ["nope"]}"#).is_err());
        assert_eq!(Params::from_json(r#"{"cap": 4096}"#).unwrap().cap, 4096);
        p = Params { frame: LenRange { min: 9, max: 3 }, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "frame");
        p = Params { line: LenRange { min: 0, max: LIMITS.line.max + 1 }, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "line");
        p = Params { streams: 0, ..Params::default() };
        assert_eq!(p.check().unwrap_err().key, "streams");
    }

    // ---- the write lab

    #[test]
    fn read_links_stay_as_they_were_and_lab_write_adds_the_write_keys() {
        assert!(!Params::default().to_link().contains("lab="), "absent lab means read");
        let d = decode_link("#v=1&lab=write");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert_eq!(d.params.lab, Lab::Write);
        assert_eq!(d.params.write, WriteParams::default());
        assert_eq!(
            d.fragment,
            "v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&lab=write\
             &recs=2K&icap=32K&buf=32K&wf=cursor_vec,cursor_mut_vec,writer_vec,bytes_mut,cursor_mut_slice,cursor_box,mut_slice\
             &wlen=1M&ws=16&wcap=8K&sink=file"
        );
        assert_eq!(decode_link(&d.fragment).params, d.params);
    }

    #[test]
    fn changed_write_settings_survive_a_switch_back_to_the_read_lab() {
        let p = Params { write: WriteParams { init_cap: 0, ..WriteParams::default() }, ..Params::default() };
        let link = p.to_link();
        assert!(!link.contains("lab="), "{link}");
        assert!(link.contains("&icap=0&"), "{link}");
        assert_eq!(decode_link(&link).params, p);
    }

    #[test]
    fn write_keys_decode_with_suffixes_and_lists() {
        let d = decode_link("lab=WRITE&recs=100&icap=0&buf=1K&wf=mut_slice,+bytes_mut&wlen=64K&ws=4K&wcap=1M&sink=worst");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        let w = &d.params.write;
        assert_eq!((w.records, w.init_cap, w.buf, w.len, w.ws, w.cap), (100, 0, 1024, 65536, 4096, 1 << 20));
        assert_eq!(w.flavours, [Flavour::MutSlice, Flavour::BytesMut]);
        assert_eq!(w.sink, ChunkModel::preset("worst").unwrap());
    }

    #[test]
    fn bad_write_values_fall_back_with_a_notice_naming_the_key() {
        let d = decode_link("lab=both&recs=0&icap=lots&buf=99G&wf=nope&wlen=1&ws=0&wcap=x&sink=zz");
        assert_eq!(keys(&d), ["lab", "recs", "icap", "buf", "wf", "wlen", "ws", "wcap", "sink"]);
        let def = WriteParams::default();
        let w = &d.params.write;
        assert_eq!(d.params.lab, Lab::Read);
        assert_eq!(w.records, LIMITS.records.min);
        assert_eq!(w.init_cap, def.init_cap);
        assert_eq!(w.buf, LIMITS.buf.max);
        assert_eq!(w.flavours, def.flavours);
        assert_eq!(w.len, LIMITS.wlen.min);
        assert_eq!(w.ws, LIMITS.ws.min);
        assert_eq!(w.cap, def.cap);
        assert_eq!(w.sink, def.sink);
        assert!(d.notices.last().unwrap().message.contains("not a chunk model"));
        assert_eq!(d.params.check(), Ok(()));
    }

    #[test]
    fn unknown_flavours_are_named_and_the_rest_kept() {
        let d = decode_link("wf=writer_vec,Cursor<Vec>,writer_vec");
        assert_eq!(d.params.write.flavours, [Flavour::WriterVec]);
        assert_eq!(keys(&d), ["wf"]);
        assert!(d.notices[0].message.contains("Cursor<Vec>"), "{:?}", d.notices);
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
        assert!(Params::from_json(r#"{"lab": "sideways"}"#).is_err());
        assert!(Params::from_json(r#"{"write": {"flavours": ["nope"]}}"#).is_err());
        let p = Params::from_json(r#"{"lab": "write", "write": {"records": 10}}"#).unwrap();
        assert_eq!((p.lab, p.write.records, p.write.buf), (Lab::Write, 10, WriteParams::default().buf));
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
    fn lesson_key_round_trips_and_unknown_lessons_are_named() {
        let d = decode_link("v=1&len=64K&lesson=one-byte");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert_eq!(d.params.lesson, Some(LessonId::OneByte));
        assert!(d.fragment.ends_with("&lesson=one-byte"), "{}", d.fragment);
        assert_eq!(decode_link(&d.fragment).params, d.params);
        assert_eq!(decode_link("lesson=%20Cursors%20").params.lesson, Some(LessonId::Cursors));
        for bad in ["nope", "", "<b>x</b>", "one-byte,cursors"] {
            let d = decode_link(&format!("len=64K&lesson={bad}"));
            assert_eq!(keys(&d), ["lesson"], "{bad:?}");
            assert!(d.notices[0].message.contains("not a lesson"), "{:?}", d.notices[0]);
            assert_eq!(d.params, decode_link("len=64K").params, "the rest of the link still applies");
        }
        assert!(!Params::default().to_link().contains("lesson"));
        assert_eq!(Params::from_json(r#"{"lesson": "no-help"}"#).unwrap().lesson, Some(LessonId::NoHelp));
        assert!(Params::from_json(r#"{"lesson": "nope"}"#).is_err());
        let json = serde_json::to_value(schema()).unwrap();
        assert_eq!(json["lessons"][0]["id"], "one-byte");
        assert_eq!(json["defaults"]["lesson"], serde_json::Value::Null);
    }

    #[test]
    fn display_keys_change_no_part_of_the_experiment() {
        let plain = decode_link("v=1&cap=16K&rs=4");
        let shown = decode_link("v=1&cap=16K&rs=4&present=on&lesson=one-byte");
        assert!(shown.notices.is_empty(), "{:?}", shown.notices);
        assert_ne!(plain.params, shown.params);
        // With the display keys' fields reset, the two are the same experiment.
        assert_eq!(Params { present: false, lesson: None, ..shown.params.clone() }, plain.params);
        assert_eq!(DISPLAY_KEYS, [key::PRESENT, key::LESSON]);
        assert_eq!(serde_json::to_value(schema()).unwrap()["display_keys"], serde_json::json!(["present", "lesson"]));
    }

    #[test]
    fn presenter_mode_round_trips_and_stays_out_of_default_links() {
        assert!(!Params::default().to_link().contains("present"));
        let d = decode_link("v=1&cap=16K&present=on");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert!(d.params.present);
        assert!(d.fragment.ends_with("&present=on"), "{}", d.fragment);
        assert_eq!(decode_link(&d.fragment).params, d.params);
        assert!(!decode_link("present=off").params.present);
        assert!(decode_link("lab=write&present=YES").params.present);
        let bad = decode_link("present=big");
        assert_eq!(keys(&bad), ["present"]);
        assert!(!bad.params.present);
        assert!(bad.notices[0].message.contains("not on or off"), "{:?}", bad.notices);
        assert!(Params::from_json(r#"{"present": true}"#).unwrap().present);
    }

    #[test]
    fn the_schema_lists_the_labs_and_flavours() {
        let s = schema();
        assert_eq!(s.labs.iter().map(|l| l.id).collect::<Vec<_>>(), [Lab::Read, Lab::Write]);
        assert_eq!(s.flavours.len(), 7);
        assert_eq!(s.record_bytes, 16);
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["defaults"]["write"]["records"], 2048);
        assert_eq!(json["flavours"][3]["seekable"], "by_index");
    }
}
