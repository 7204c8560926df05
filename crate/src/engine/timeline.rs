//! The buffer timeline: what one reader did, application operation by
//! application operation, for the first [`TRACE_OPS`] operations of a run.
//!
//! Recorded in a separate, untimed pass with the run's own params (chunking,
//! seed, capacity, read size, workload), over stream 1 only, with its own
//! reader and block pool. The measured runs stay as they are: nothing here
//! changes `Source`, the readers or the workload loops. The pass wraps them
//! instead:
//! - [`Logged`] wraps the source and logs each read call: bytes requested,
//!   bytes returned, and where they landed (the reader's buffer, which block
//!   and at what offset, or the application's own memory);
//! - [`Traced`] wraps the reader and passes each application operation to
//!   the reader's own code (its `Read` methods and `AppReader` steps
//!   delegate, so a `BufReader` still takes its own paths), then looks at the
//!   buffer through the reader's strategy (`Strategy::look`);
//! - after [`TRACE_OPS`] operations `Traced` refuses the next one with an
//!   error that ends `workload::drive` early; the pass never reads the whole
//!   stream unless one operation does (`read_to_end`).
//!
//! One difference from the measured run: `Read::bytes()` over the wrapper
//! reads through `read` with a 1-byte buffer instead of std's private
//! `BufReader` fast path; both serve the byte from the buffer and refill it
//! with one source read of the capacity, so the source reads are the same.

use std::cell::{Cell, RefCell};
use std::io::{self, ErrorKind, Read};
use std::mem::MaybeUninit;

use super::heap::Lanes;
use super::readers::OwnCounts;
use super::readers::{self, Look, ReaderConfig, Strategy, Visit};
use super::source::{file_read_to_end, file_read_to_string, stream_seed, Arrival, FileRead, ObservedRead, Probe, Source};
use super::workload::{self, AppCounts, AppReader, Consume, FrameBuf, Spec, Tally, Ticking};
use crate::model::{Kernel, Op, OpKind, Params, Piece, ReaderKind, Shape, SourceRead, Span, Timeline, Workload};

/// Application operations recorded per reader (the model's
/// [`TIMELINE_OPS`](crate::model::TIMELINE_OPS), which bounds the link's `step`).
pub const TRACE_OPS: usize = crate::model::TIMELINE_OPS as usize;
/// Source reads listed per operation (all are counted): a `read_to_end` or an
/// unbuffered line makes many.
pub const TRACE_READS: usize = 16;
/// Pieces listed per operation (all are counted).
pub const TRACE_PIECES: usize = 8;
/// Bytes of each operation's data kept for the page to show.
pub const TRACE_HEAD: usize = 8;

/// Records the timeline of `kind` for `params` over `data` (the run's
/// content), stream 1 only. Never fails: an error the application's run
/// would also meet ends the trace and is kept in [`Timeline::error`].
pub fn record(params: &Params, kind: ReaderKind, data: &[u8]) -> Timeline {
    record_with(params, kind, data, TRACE_OPS, &mut |_| {})
}

/// [`record`] with room for `max_ops` operations, also giving every byte the
/// application received to `seen` (tests compare whole traces with runs).
pub fn record_with(
    params: &Params,
    kind: ReaderKind,
    data: &[u8],
    max_ops: usize,
    seen: &mut dyn FnMut(&[u8]),
) -> Timeline {
    let shape = readers::info(kind).shape;
    let rec = Recorder::new(shape, params.cap as usize, params.pool, max_ops);
    let outcome = readers::visit(kind, Trace { params, data, rec: &rec, seen });
    let truncated = rec.full.get();
    let error = match outcome {
        Err(_) if truncated => None,
        Err(e) => Some(e.to_string()),
        Ok(_) => None,
    };
    Timeline {
        shape,
        capacity: if shape == Shape::Unbuffered { 0 } else { params.cap },
        pool: params.pool,
        streams: params.streams,
        ops: rec.ops.into_inner(),
        truncated,
        error,
    }
}

/// The traced run of one reader's strategy.
struct Trace<'a, 's> {
    params: &'a Params,
    data: &'a [u8],
    rec: &'a Recorder,
    seen: &'s mut dyn FnMut(&[u8]),
}

impl Visit for Trace<'_, '_> {
    type Output = io::Result<AppCounts>;

    fn visit<T: Strategy>(self) -> io::Result<AppCounts> {
        let Trace { params, data, rec, seen } = self;
        let probe = &rec.probe;
        let source = Source::of_stream(data, params, 0, probe);
        // The kernel's side, followed alongside the source's own.
        *rec.kernel.borrow_mut() = Arrival::of(params, stream_seed(params.seed, 0), data.len());
        let spec = Spec { workload: params.workload, rs: params.rs as usize, len: data.len(), reuse: params.reuse };
        let mut app_buf = vec![0u8; params.rs as usize];
        let mut sinks = [Ticking { inner: TraceSink { rec, seen }, probe }];
        let config = ReaderConfig::of(params);
        let shared = T::shared(config)?;
        let counts = || T::counted(&shared).unwrap_or_default();
        let takes = || {
            let blocks = counts().blocks;
            blocks.allocated + blocks.reused
        };
        let source = Logged { source, rec, takes: &takes };
        let reader = T::build(&shared, config, source);
        let meter = match T::counted(&shared) {
            Some(_) => Meter::Counted(Box::new(counts)),
            None => Meter::Probe(probe),
        };
        let traced = Traced { inner: reader, look: T::look::<Logged>, rec, meter, next_byte: params.workload == Workload::Bytes };
        drive_one(&spec, traced, &mut app_buf, &mut sinks)
    }
}

fn drive_one<R: AppReader>(
    spec: &Spec,
    reader: R,
    app_buf: &mut [u8],
    sinks: &mut [Ticking<'_, TraceSink<'_, '_>>],
) -> io::Result<AppCounts> {
    let mut readers = Lanes::with_capacity(1);
    readers.push(reader);
    let mut counts = AppCounts::default();
    workload::drive(spec, readers, app_buf, sinks, &mut counts)?;
    Ok(counts)
}

// ---------------------------------------------------------------------------
// The recorder, shared by the wrapped source, the wrapped reader and the sink

struct Recorder {
    /// Operations to record before refusing the next.
    max_ops: usize,
    shape: Shape,
    cap: usize,
    pool: bool,
    /// A single-buffer reader's buffer, `[lo, hi)` addresses, as the reader
    /// told its source.
    buffer: Cell<(usize, usize)>,
    /// The memory the current `read`-like call was handed, `[lo, hi)`.
    app_range: Cell<(usize, usize)>,
    /// Inside the source's `read_to_end`: every read goes to the caller's Vec.
    to_end: Cell<bool>,
    /// Chained blocks seen: (address, id).
    blocks: RefCell<Vec<(usize, u32)>>,
    next_block: Cell<u32>,
    /// Blocks the reader had taken at the last source read.
    takes: Cell<u64>,
    // The operation being recorded.
    reads: RefCell<Vec<SourceRead>>,
    read_count: Cell<u64>,
    read_bytes: Cell<u64>,
    pieces: RefCell<Vec<Piece>>,
    piece_count: Cell<u64>,
    head: RefCell<Vec<u8>>,
    /// Stream offset of the next byte the application receives.
    at: Cell<u64>,
    ops: RefCell<Vec<Op>>,
    full: Cell<bool>,
    /// An operation is being recorded.
    in_op: Cell<bool>,
    /// The traced source's counts (and, living in time, the reader's clock).
    probe: Probe,
    /// A source living in time: its arrivals, followed by the reader's
    /// clock and the bytes its reads returned (`source_pos`).
    kernel: RefCell<Option<Arrival>>,
    source_pos: Cell<u64>,
}

impl Recorder {
    fn new(shape: Shape, cap: usize, pool: bool, max_ops: usize) -> Recorder {
        Recorder {
            max_ops,
            shape,
            cap,
            pool,
            buffer: Cell::new((0, 0)),
            app_range: Cell::new((0, 0)),
            to_end: Cell::new(false),
            blocks: RefCell::new(Vec::new()),
            next_block: Cell::new(0),
            takes: Cell::new(0),
            reads: RefCell::new(Vec::new()),
            read_count: Cell::new(0),
            read_bytes: Cell::new(0),
            pieces: RefCell::new(Vec::new()),
            piece_count: Cell::new(0),
            head: RefCell::new(Vec::new()),
            at: Cell::new(0),
            ops: RefCell::new(Vec::new()),
            full: Cell::new(false),
            in_op: Cell::new(false),
            probe: Probe::default(),
            kernel: RefCell::new(None),
            source_pos: Cell::new(0),
        }
    }

    /// The block holding address `at`, and the offset in it, if any.
    fn block_of(&self, at: usize) -> Option<(u32, u64)> {
        match self.shape {
            Shape::Unbuffered => None,
            Shape::Single => {
                let (lo, hi) = self.buffer.get();
                (lo <= at && at < hi).then(|| (0, (at - lo) as u64))
            }
            Shape::Blocks => self
                .blocks
                .borrow()
                .iter()
                .find(|&&(base, _)| base <= at && at < base + self.cap)
                .map(|&(base, id)| (id, (at - base) as u64)),
        }
    }

    /// The id of the chained block at `base`, registering a new one.
    fn block_id(&self, base: usize) -> u32 {
        if let Some(&(_, id)) = self.blocks.borrow().iter().find(|&&(b, _)| b == base) {
            return id;
        }
        let id = self.next_block.get();
        self.next_block.set(id + 1);
        self.blocks.borrow_mut().push((base, id));
        id
    }

    /// A block the reader has just allocated at `base` (without the pool):
    /// a new id, whatever the allocator's earlier blocks at that address.
    fn new_block(&self, base: usize) -> u32 {
        let cap = self.cap;
        self.blocks.borrow_mut().retain(|&(b, _)| b + cap <= base || base + cap <= b);
        self.block_id(base)
    }

    /// Where a source read into `buf` lands; `taken`: the reader took a
    /// block since the previous read.
    fn landing(&self, at: usize, taken: bool) -> Option<(u32, u64)> {
        let (lo, hi) = self.app_range.get();
        match self.shape {
            Shape::Unbuffered => None,
            Shape::Single => self.block_of(at),
            Shape::Blocks if self.to_end.get() || (lo <= at && at < hi) => None,
            // Without the pool every block taken is a fresh allocation, which
            // may or may not get the address of one freed earlier in the
            // same operation: it is a new block either way.
            Shape::Blocks if taken && !self.pool => Some((self.new_block(at), 0)),
            // The chained reader fills only its tail block, from its free end:
            // an address in no known block is the start of a fresh one, and
            // a pooled block comes back with its address.
            Shape::Blocks => Some(self.block_of(at).unwrap_or_else(|| (self.block_id(at), 0))),
        }
    }

    /// One source read call of `requested` bytes into memory at `at`;
    /// `takes`: the blocks the reader has taken so far.
    fn source_read(&self, at: usize, requested: usize, result: &io::Result<usize>, takes: u64) {
        let taken = takes != self.takes.replace(takes);
        let (block, offset) = match self.landing(at, taken) {
            Some((id, offset)) => (Some(id), offset),
            None => (None, 0),
        };
        let returned = *result.as_ref().unwrap_or(&0) as u64;
        self.source_pos.set(self.source_pos.get() + returned);
        self.read_count.set(self.read_count.get() + 1);
        self.read_bytes.set(self.read_bytes.get() + returned);
        let mut reads = self.reads.borrow_mut();
        if reads.len() < TRACE_READS {
            let interrupted = matches!(result, Err(e) if e.kind() == ErrorKind::Interrupted);
            reads.push(SourceRead { requested: requested as u64, returned, interrupted, block, offset });
        }
    }

    /// What the kernel holds after an operation, for a source that lives in
    /// time; `before`: the probe's waiting when the operation began.
    fn kernel_after(&self, before: crate::engine::source::Waiting) -> Option<Kernel> {
        let mut kernel = self.kernel.borrow_mut();
        let arrival = kernel.as_mut()?;
        let clock = arrival.costs().clock_ps(&self.probe);
        let held = arrival.observe(self.source_pos.get(), clock);
        let now = self.probe.waiting();
        Some(Kernel {
            bytes: held.bytes,
            pieces: held.pieces,
            clock_ns: held.clock_ps as f64 / 1000.0,
            waits: now.waits - before.waits,
            joined: now.joined - before.joined,
        })
    }

    fn piece(&self, bytes: &[u8]) {
        if !self.in_op.get() {
            // A `read`-like call's bytes, handed over after it returned
            // (`Traced::received` noted them).
            return;
        }
        self.piece_count.set(self.piece_count.get() + 1);
        let mut head = self.head.borrow_mut();
        let room = TRACE_HEAD - head.len().min(TRACE_HEAD);
        head.extend_from_slice(&bytes[..bytes.len().min(room)]);
        let mut pieces = self.pieces.borrow_mut();
        if pieces.len() < TRACE_PIECES {
            let (block, offset) = match self.block_of(bytes.as_ptr() as usize) {
                Some((id, offset)) => (Some(id), offset),
                None => (None, 0),
            };
            pieces.push(Piece { len: bytes.len() as u64, block, offset });
        }
    }
}

/// `n` bytes in words: "1 byte", "300 bytes", "8 KiB".
fn bytes(n: u64) -> String {
    const KIB: u64 = 1024;
    match n {
        1 => "1 byte".to_string(),
        n if n >= KIB * KIB && n % (KIB * KIB) == 0 => format!("{} MiB", n / (KIB * KIB)),
        n if n >= KIB && n % KIB == 0 => format!("{} KiB", n / KIB),
        n => format!("{n} bytes"),
    }
}

/// Block names for a list of ids: "block 0", "blocks 0 and 1", "blocks 0, 1 and 2".
fn blocks(ids: &[u32]) -> String {
    match ids {
        [one] => format!("block {one}"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(u32::to_string).collect();
            format!("blocks {} and {last}", init.join(", "))
        }
        [] => "no block".to_string(),
    }
}

/// One line of plain words for `op` of a reader of `shape`: what the
/// application asked, where the bytes came from, what was copied, what stays
/// buffered.
pub fn caption(op: &Op, shape: Shape) -> String {
    let call = match op.kind {
        OpKind::Read => "read",
        OpKind::ReadExact => "read_exact",
        OpKind::NextByte => "bytes().next()",
        OpKind::ReadToEnd => "read_to_end",
        OpKind::Line => "a line",
        OpKind::FrameHeader => "a frame header",
        OpKind::FramePayload => "a frame payload",
        OpKind::Scan => "a scan step",
    };
    let mut parts = vec![match op.requested {
        Some(n) => format!("app asked {} ({call})", bytes(n)),
        None => format!("app asked for {call}"),
    }];
    if op.interrupted {
        parts.push("the source read was interrupted (an empty chunk), so the app asks again".to_string());
        return parts.join("; ");
    }
    let reads =
        if op.source_reads == 1 { "one source read".to_string() } else { format!("{} source reads", op.source_reads) };
    let mut filled: Vec<u32> = op.reads.iter().filter_map(|r| r.block).collect();
    filled.dedup();
    parts.push(match shape {
        Shape::Unbuffered if op.source_reads == 0 => "no source read".to_string(),
        _ if op.source_reads == 0 => "served from the buffer, no source read".to_string(),
        Shape::Unbuffered => format!("{reads} returned {} straight into the app's memory", bytes(op.source_bytes)),
        _ if op.bypass && filled.is_empty() => {
            format!("the buffer is skipped: {reads} wrote {} straight into the app's memory", bytes(op.source_bytes))
        }
        _ if op.bypass => format!(
            "{reads} returned {}, part into the buffer and part straight into the app's memory",
            bytes(op.source_bytes)
        ),
        Shape::Single => match op.reads.first() {
            Some(r) if op.source_reads == 1 => {
                format!(
                    "the buffer was empty: one source read asked {} and got {}",
                    bytes(r.requested),
                    bytes(r.returned)
                )
            }
            _ => format!("{reads} filled the buffer with {}", bytes(op.source_bytes)),
        },
        Shape::Blocks => format!("{reads} put {} into {}", bytes(op.source_bytes), blocks(&filled)),
    });
    let mut lent: Vec<u32> = op.pieces.iter().filter_map(|p| p.block).collect();
    lent.dedup();
    if op.returned == 0 && op.kind != OpKind::Scan {
        parts.push("got 0 bytes: end of stream".to_string());
    } else if op.copied > 0 {
        parts.push(format!("got {}, {} copied", bytes(op.returned), bytes(op.copied)));
    } else if !lent.is_empty() && shape == Shape::Single {
        parts.push(format!("looked at {} in place in the buffer, nothing copied", bytes(op.returned)));
    } else if !lent.is_empty() {
        let slices = if op.piece_count == 1 { "1 slice".to_string() } else { format!("{} slices", op.piece_count) };
        parts.push(format!("got {} as {slices} of {}, nothing copied", bytes(op.returned), blocks(&lent)));
    } else {
        parts.push(format!("got {}, nothing copied", bytes(op.returned)));
    }
    if shape != Shape::Unbuffered {
        parts.push(if op.buffered == 0 {
            "the buffer is empty".to_string()
        } else {
            format!("{} left in the buffer", bytes(op.buffered))
        });
    }
    if let Some(k) = op.kernel {
        if k.waits > 0 {
            parts.push(if k.waits == 1 {
                "the source read waited for the next piece to arrive".to_string()
            } else {
                format!("{} source reads waited for the next piece", k.waits)
            });
        }
        if k.joined > 0 {
            parts.push("pieces arrived while the reader was busy, and one source read got them joined".to_string());
        }
        parts.push(match k.pieces {
            0 => "nothing waits in the kernel".to_string(),
            1 => format!("1 piece ({}) waits in the kernel", bytes(k.bytes)),
            n => format!("{n} pieces ({}) wait in the kernel", bytes(k.bytes)),
        });
    }
    parts.join("; ")
}

/// The error that ends the traced run after [`TRACE_OPS`] operations.
fn full() -> io::Error {
    io::Error::other("the timeline has all the operations it keeps")
}

// ---------------------------------------------------------------------------
// The wrapped source

/// The run's [`Source`], logging each read call.
struct Logged<'a> {
    source: Source<'a>,
    rec: &'a Recorder,
    /// Blocks the reader has taken so far (a chained reader's pool's
    /// allocations and reuses; 0 for other readers).
    takes: &'a dyn Fn() -> u64,
}

impl Read for Logged<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let result = self.source.read(buf);
        self.rec.source_read(buf.as_ptr() as usize, buf.len(), &result, (self.takes)());
        result
    }

    /// Readers hand `read_to_end` down to their source with the caller's
    /// `Vec`: every read it makes lands in the application's memory. The
    /// source's algorithm runs unchanged: a file's ([`file_read_to_end`]) or
    /// std's provided one, over [`ToEnd`].
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        self.rec.to_end.set(true);
        let result = if self.source.is_file() { file_read_to_end(self, buf) } else { ToEnd(self).read_to_end(buf) };
        self.rec.to_end.set(false);
        result
    }

    fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
        self.rec.to_end.set(true);
        let result = if self.source.is_file() { file_read_to_string(self, buf) } else { ToEnd(self).read_to_string(buf) };
        self.rec.to_end.set(false);
        result
    }
}

impl FileRead for Logged<'_> {
    fn remaining(&self) -> usize {
        self.source.remaining()
    }

    fn read_uninit(&mut self, buf: &mut [MaybeUninit<u8>]) -> io::Result<usize> {
        let result = self.source.read_uninit(buf);
        self.rec.source_read(buf.as_ptr() as usize, buf.len(), &result, (self.takes)());
        result
    }
}

/// [`Logged`] inside a generic `read_to_end`, so std's provided
/// `read_to_end` drives [`Logged::read`].
struct ToEnd<'x, 'a>(&'x mut Logged<'a>);

impl Read for ToEnd<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

/// A reader with a buffer of its own says where it is; the source counts
/// with it, and the recorder places source reads and slices in it.
impl ObservedRead for Logged<'_> {
    fn set_reader_buffer(&mut self, start: *const u8, len: usize) {
        self.source.set_reader_buffer(start, len);
        self.rec.buffer.set((start as usize, start as usize + len));
    }

    fn ready(&mut self) -> bool {
        self.source.ready()
    }
}

// ---------------------------------------------------------------------------
// The wrapped reader

/// Where a reader's copies and direct bytes are counted.
enum Meter<'m> {
    /// Observed from the source (a black-box reader: see `readers::observed_copies`).
    Probe(&'m Probe),
    /// Counted by the reader itself.
    Counted(Box<dyn Fn() -> OwnCounts + 'm>),
}

impl Meter<'_> {
    fn direct(&self) -> u64 {
        match self {
            Meter::Probe(probe) => probe.direct_bytes(),
            Meter::Counted(counts) => counts().bytes_direct,
        }
    }

    fn copied(&self) -> u64 {
        match self {
            Meter::Probe(_) => 0,
            Meter::Counted(counts) => counts().bytes_copied,
        }
    }
}

impl Recorder {
    /// What the reader holds, as spans of its blocks.
    fn spans(&self, look: Look<'_>) -> Vec<Span> {
        match look {
            Look::Nothing => Vec::new(),
            Look::Unread(unread) => {
                // The unread part `pos..filled` of the one buffer; its address gives `pos`.
                let start = (unread.as_ptr() as usize).saturating_sub(self.buffer.get().0) as u64;
                vec![Span { block: 0, start, end: start + unread.len() as u64 }]
            }
            Look::Blocks(blocks) => blocks
                .into_iter()
                .map(|(base, start, end)| Span { block: self.block_id(base), start: start as u64, end: end as u64 })
                .collect(),
        }
    }
}

/// A reader whose application operations are recorded.
struct Traced<'r, R> {
    inner: R,
    /// The reader's strategy's [`Strategy::look`].
    look: for<'x> fn(&'x R) -> Look<'x>,
    rec: &'r Recorder,
    meter: Meter<'r>,
    /// The `bytes` workload: each `read` is a `bytes().next()`.
    next_byte: bool,
}

/// What an operation gave the application.
struct Outcome {
    returned: u64,
    /// Bytes written into the application's own memory (for copies).
    owned: u64,
    calls: u64,
}

impl<R> Traced<'_, R> {
    fn buffer(&self) -> Vec<Span> {
        self.rec.spans((self.look)(&self.inner))
    }

    /// Runs one operation `f` on the reader and records it. `app` is the
    /// address range of the memory a `read`-like call hands the reader;
    /// `outcome` reads what the operation gave from its result.
    fn op<T>(
        &mut self,
        kind: OpKind,
        requested: Option<u64>,
        app: (usize, usize),
        f: impl FnOnce(&mut R) -> io::Result<T>,
        outcome: impl FnOnce(&io::Result<T>) -> Outcome,
    ) -> io::Result<T> {
        let rec = self.rec;
        if rec.ops.borrow().len() >= rec.max_ops {
            rec.full.set(true);
            return Err(full());
        }
        rec.reads.borrow_mut().clear();
        rec.pieces.borrow_mut().clear();
        rec.head.borrow_mut().clear();
        rec.read_count.set(0);
        rec.read_bytes.set(0);
        rec.piece_count.set(0);
        rec.app_range.set(app);
        let (direct0, copied0) = (self.meter.direct(), self.meter.copied());
        let waiting0 = rec.probe.waiting();

        rec.in_op.set(true);
        let result = f(&mut self.inner);
        rec.in_op.set(false);
        rec.app_range.set((0, 0));
        let Outcome { returned, owned, calls } = outcome(&result);
        let direct = self.meter.direct() - direct0;
        let copied = match self.meter {
            // Bytes the application got in its own memory that the source
            // did not write there: the reader copied them.
            Meter::Probe(_) => owned.saturating_sub(direct),
            Meter::Counted(_) => self.meter.copied() - copied0,
        };
        let reads = rec.reads.take();
        let bypass = rec.shape != Shape::Unbuffered && reads.iter().any(|r| r.block.is_none());
        let buffer = self.buffer();
        let mut op = Op {
            kind,
            requested,
            returned,
            at: rec.at.get(),
            head: rec.head.take(),
            calls,
            source_reads: rec.read_count.get(),
            source_bytes: rec.read_bytes.get(),
            reads,
            copied,
            direct,
            bypass,
            interrupted: matches!(&result, Err(e) if e.kind() == ErrorKind::Interrupted),
            pieces: rec.pieces.take(),
            piece_count: rec.piece_count.get(),
            buffered: buffer.iter().map(|s| s.end - s.start).sum(),
            buffer,
            caption: String::new(),
            kernel: rec.kernel_after(waiting0),
        };
        op.caption = caption(&op, rec.shape);
        rec.at.set(rec.at.get() + returned);
        rec.ops.borrow_mut().push(op);
        result
    }

    /// An operation of the workload's own step (`AppReader`), measured by
    /// what it added to the application's counts; the caller's tally gets
    /// the same.
    fn step<T, Y: Tally>(
        &mut self,
        kind: OpKind,
        requested: Option<u64>,
        tally: &mut Y,
        f: impl FnOnce(&mut R, &mut AppCounts) -> io::Result<T>,
    ) -> io::Result<T> {
        let after = Cell::new(AppCounts::default());
        let run = |r: &mut R| {
            let mut c = AppCounts::default();
            let result = f(r, &mut c);
            after.set(c);
            result
        };
        let result = self.op(kind, requested, (0, 0), run, |_| {
            let a = after.get();
            Outcome { returned: a.bytes, owned: a.owned_bytes, calls: a.app_reads }
        });
        tally.add(&after.get());
        result
    }
}

fn read_outcome(r: &io::Result<usize>) -> Outcome {
    let n = *r.as_ref().unwrap_or(&0) as u64;
    Outcome { returned: n, owned: n, calls: 1 }
}

/// The address range of `buf`, for telling where a source read lands.
fn range_of(buf: &[u8]) -> (usize, usize) {
    let lo = buf.as_ptr() as usize;
    (lo, lo + buf.len())
}

impl<R: Read> Traced<'_, R> {
    /// A `read`-like operation filled `got` of the application's memory: the
    /// workload hands it to its sink only after the call returns, so the
    /// operation's piece and head are noted here (when it was recorded).
    fn received(&self, recorded_before: usize, got: &[u8]) {
        let mut ops = self.rec.ops.borrow_mut();
        if ops.len() == recorded_before {
            return;
        }
        let op = ops.last_mut().expect("an operation was recorded");
        op.head = got[..got.len().min(TRACE_HEAD)].to_vec();
        if !got.is_empty() {
            op.pieces = vec![Piece { len: got.len() as u64, block: None, offset: 0 }];
            op.piece_count = 1;
        }
    }
}

impl<R: Read> Read for Traced<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let kind = if self.next_byte { OpKind::NextByte } else { OpKind::Read };
        let before = self.rec.ops.borrow().len();
        let result = self.op(kind, Some(buf.len() as u64), range_of(buf), |r| r.read(buf), read_outcome);
        if let Ok(n) = result {
            self.received(before, &buf[..n]);
        }
        result
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let n = buf.len() as u64;
        let before = self.rec.ops.borrow().len();
        let result = self.op(
            OpKind::ReadExact,
            Some(n),
            range_of(buf),
            |r| r.read_exact(buf),
            |res| {
                let got = if res.is_ok() { n } else { 0 };
                Outcome { returned: got, owned: got, calls: 1 }
            },
        );
        if result.is_ok() {
            self.received(before, buf);
        }
        result
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let (before, start) = (self.rec.ops.borrow().len(), buf.len());
        let result = self.op(OpKind::ReadToEnd, None, (0, 0), |r| r.read_to_end(buf), read_outcome);
        if result.is_ok() {
            self.received(before, &buf[start..]);
        }
        result
    }
}

/// Each workload step goes to the reader's own step, as one operation.
impl<R: AppReader> AppReader for Traced<'_, R> {
    fn line<C: Consume, T: Tally>(&mut self, line: &mut Vec<u8>, sink: &mut C, t: &mut T) -> io::Result<usize> {
        self.step(OpKind::Line, None, t, |r, c| r.line(line, sink, c))
    }

    fn frame_header<T: Tally>(&mut self, t: &mut T) -> io::Result<Option<u32>> {
        self.step(OpKind::FrameHeader, Some(4), t, |r, c| r.frame_header(c))
    }

    fn frame_payload<C: Consume, T: Tally>(
        &mut self,
        n: usize,
        frame: &mut FrameBuf,
        sink: &mut C,
        t: &mut T,
    ) -> io::Result<()> {
        self.step(OpKind::FramePayload, Some(n as u64), t, |r, c| r.frame_payload(n, frame, sink, c))
    }

    fn scan_step<C: Consume, T: Tally>(&mut self, buf: &mut [u8], sink: &mut C, t: &mut T) -> io::Result<bool> {
        // Only the unbuffered reader reads into the buffer; the others scan theirs.
        let requested = (self.rec.shape == Shape::Unbuffered).then_some(buf.len() as u64);
        self.step(OpKind::Scan, requested, t, |r, c| r.scan_step(buf, sink, c))
    }
}

/// The application's sink: every piece it receives is recorded.
struct TraceSink<'r, 's> {
    rec: &'r Recorder,
    seen: &'s mut dyn FnMut(&[u8]),
}

impl Consume for TraceSink<'_, '_> {
    fn take(&mut self, bytes: &[u8]) {
        self.rec.piece(bytes);
        (self.seen)(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::content;
    use crate::link;
    use crate::model::Id;

    fn params(link: &str) -> Params {
        let d = link::decode(link);
        assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
        d.params
    }

    fn trace(link: &str, kind: ReaderKind) -> (Timeline, Vec<u8>, Vec<u8>) {
        let p = params(link);
        let data = content::generate(&p);
        let mut seen = Vec::new();
        let t = record_with(&p, kind, &data, TRACE_OPS, &mut |b| seen.extend_from_slice(b));
        (t, seen, data)
    }

    #[test]
    fn std_one_byte_reads_hit_the_source_once_per_buffer_fill() {
        let (t, _, _) = trace("#v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=1&wl=fixed", ReaderKind::Std);
        assert_eq!((t.ops.len(), t.truncated, t.capacity), (TRACE_OPS, true, 8192));
        let first = &t.ops[0];
        assert_eq!(first.source_reads, 1, "{first:?}");
        let fill = first.reads[0];
        assert_eq!((fill.requested, fill.block, fill.offset), (8192, Some(0), 0), "one read of the whole buffer");
        assert!((64..=512).contains(&fill.returned));
        let mut buffered = fill.returned;
        for (i, op) in t.ops.iter().enumerate() {
            assert_eq!(
                (op.kind, op.requested, op.returned, op.copied, op.bypass),
                (OpKind::Read, Some(1), 1, 1, false),
                "op {i}"
            );
            // A source read exactly when the buffer had drained.
            let drained = buffered == 0 || i == 0;
            assert_eq!(op.source_reads, u64::from(drained), "op {i}: {op:?}");
            if drained && i > 0 {
                buffered = op.reads[0].returned;
            }
            buffered -= 1;
            assert_eq!(op.buffered, buffered, "op {i}");
            assert_eq!(op.buffer.len(), 1, "std has one buffer");
        }
        assert!(t.ops[1].caption.contains("served from the buffer, no source read"), "{}", t.ops[1].caption);
    }

    #[test]
    fn std_reads_at_least_the_capacity_bypass_the_buffer_and_copy_nothing() {
        let (t, _, _) = trace("#v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=16K&wl=fixed", ReaderKind::Std);
        assert_eq!(t.ops.len(), TRACE_OPS);
        for op in &t.ops {
            assert!(op.bypass && op.copied == 0 && op.buffered == 0, "{op:?}");
            assert_eq!(op.direct, op.returned);
            assert!(op.reads.iter().all(|r| r.block.is_none() && r.requested == 16 * 1024), "{op:?}");
            assert!(op.caption.contains("skipped"), "{}", op.caption);
        }
    }

    #[test]
    fn chained_reader_lends_slices_of_its_blocks() {
        for wl in ["frames", "lines", "scan"] {
            let (t, _, _) = trace(&format!("#v=1&len=64K&chunk=worst&seed=7&cap=256&wl={wl}"), ReaderKind::Chained);
            let mut lent = 0;
            for op in &t.ops {
                assert_eq!(op.copied, 0, "{wl}: {op:?}");
                assert!(op.pieces.iter().all(|p| p.block.is_some() && p.offset + p.len <= 256), "{wl}: {op:?}");
                if op.piece_count as usize <= TRACE_PIECES && op.kind != OpKind::FrameHeader {
                    assert_eq!(op.pieces.iter().map(|p| p.len).sum::<u64>(), op.returned, "{wl}: {op:?}");
                }
                assert!(
                    op.buffer.iter().all(|s| s.start < s.end && s.end <= 256),
                    "{wl}: blocks in the chain hold bytes"
                );
                lent += op.piece_count;
            }
            assert!(lent > 0, "{wl}");
            if wl != "scan" {
                // A scan step looks at one block's bytes; a line or payload can span blocks.
                assert!(t.ops.iter().any(|o| o.piece_count > 1), "{wl}: some operation spans source reads or blocks");
            }
        }
    }

    #[test]
    fn without_the_pool_each_new_block_gets_a_new_id() {
        let link = "#v=1&len=64K&chunk=64-512&seed=1&cap=64&rs=1&wl=fixed";
        let (on, _, _) = trace(link, ReaderKind::Chained);
        let (off, _, _) = trace(&format!("{link}&pool=off"), ReaderKind::Chained);
        let ids = |t: &Timeline| t.ops.iter().flat_map(|o| o.buffer.iter().map(|s| s.block)).max();
        assert_eq!(ids(&on), Some(0), "the pool hands the same block out again");
        assert!(ids(&off).unwrap() > 0, "without the pool every block is a new allocation");
    }

    #[test]
    fn the_traced_bytes_are_the_first_bytes_of_the_stream() {
        for w in Workload::all().into_iter().filter(|&w| w != Workload::Frames) {
            for chunk in ["worst", "64-512", "file", "1"] {
                for kind in [ReaderKind::Unbuffered, ReaderKind::Std, ReaderKind::Chained] {
                    let link = format!("#v=1&len=20K&chunk={chunk}&seed=3&cap=100&rs=7&wl={}&nul=5000", w.id());
                    let (t, seen, data) = trace(&link, kind);
                    assert!(!t.ops.is_empty() && t.ops.len() <= TRACE_OPS && t.error.is_none(), "{link} {kind:?}");
                    assert_eq!(seen[..], data[..seen.len()], "{link} {kind:?}");
                    assert_eq!(t.ops.iter().map(|o| o.returned).sum::<u64>(), seen.len() as u64, "{link} {kind:?}");
                    let mut at = 0;
                    for op in &t.ops {
                        assert_eq!(op.at, at);
                        let n = (op.returned as usize).min(TRACE_HEAD);
                        assert_eq!(op.head[..], data[at as usize..at as usize + n], "{link} {kind:?} {op:?} {t:?}");
                        at += op.returned;
                    }
                }
            }
        }
    }

    #[test]
    fn a_short_stream_is_traced_to_its_end() {
        let (t, seen, data) = trace("#v=1&len=1K&chunk=file&cap=8K&rs=16&wl=fixed", ReaderKind::Std);
        assert_eq!((t.ops.len(), t.truncated), (65, false), "64 reads of 16 bytes and the final read that returns 0");
        assert_eq!(seen, data);
        let last = t.ops.last().unwrap();
        assert_eq!((last.returned, last.source_reads), (0, 1));
        assert!(last.caption.contains("end of stream"), "{}", last.caption);
    }
}
