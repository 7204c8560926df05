//! The simulated chunked stream: the stand-in for a socket, pipe or file.
//!
//! A [`Source`] serves a fixed byte string through [`std::io::Read`]. Each call
//! is answered with at most `min(requested, remaining, c)` bytes, where `c` is
//! the next chunk size a [`Chunker`] draws from the link's [`ChunkModel`]. Every call is counted,
//! including zero-length requests and the final call that returns 0, because
//! each one stands for a system call.
//!
//! Invariants kept here:
//! - a read never returns more than requested or more than remains;
//! - a read with a non-empty buffer returns 0 only at end of stream (a
//!   scripted empty chunk fails with `Interrupted` instead, as `read(2)`
//!   does on a signal, so callers retry rather than stop);
//! - the chunk sequence depends only on the model and the seed, never on the
//!   platform: the PRNG is [`SplitMix64`], written out below, so a link gives
//!   the same chunks natively and in every browser;
//! - a source with a [`Pending`] schedule (link key `pend`) may say it is not
//!   ready ([`ObservedRead::ready`]) at most once before each read, so an
//!   async reader that asks again at once always gets its chunk on the next
//!   try. The schedule has its own PRNG stream: it never changes the chunks;
//! - a source with an [`Arrival`] (link key `rate`) lives in time: its
//!   pieces arrive at the link's rate, the reader's clock is the modelled
//!   cost of what it did (counted in the shared [`Probe`]), and a read gets
//!   what has arrived and is unread, up to what it asks and up to
//!   [`KERNEL_BUFFER`], or waits for the next piece. Deterministic: the
//!   clock is integer picoseconds from exact counts;
//! - a source of the `file` model answers `read_to_end` and `read_to_string`
//!   as std's `File` does (see [`file_read_to_end`]): the calls a program
//!   makes on a real file are the calls made here. The other models get
//!   std's generic algorithms, as a pipe or a socket does.

use std::cell::Cell;
use std::io::{self, Read};
use std::mem::MaybeUninit;

use crate::model::{ChunkModel, Params, PIPE_CHUNK};

/// SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast, and fully specified,
/// so the chunk sequence of a seed is part of the link contract. A library
/// PRNG could change its range reduction between versions and silently change
/// what an old link shows.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` by multiply-shift (bias below 2^-32 for the sizes used
    /// here, and no rejection loop, so every draw costs one step).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        mul_hi(self.next_u64(), n)
    }
}

/// `(x * n) >> 64`, the high half of the 128-bit product. WebAssembly has no
/// 64 × 64 → 128-bit multiply: there a `u128` product is a call to
/// `__multi3`, a whole 128 × 128-bit multiply in software, once per read
/// call over a `uniform` chunking. For `n` below 2^32 (every chunk span and
/// range here) [`mul_hi_narrow`] gives the same bits with two 64-bit
/// multiplies; natively one instruction does it.
#[inline]
pub fn mul_hi(x: u64, n: u64) -> u64 {
    if cfg!(target_arch = "wasm32") && n <= u64::from(u32::MAX) {
        mul_hi_narrow(x, n)
    } else {
        ((u128::from(x) * u128::from(n)) >> 64) as u64
    }
}

/// [`mul_hi`] for `n < 2^32`, from the 32-bit halves of `x`: with
/// `x = hi·2^32 + lo`, `(x·n) >> 64 = (hi·n + (lo·n >> 32)) >> 32`, and neither
/// product nor their sum leaves 64 bits.
#[inline]
pub fn mul_hi_narrow(x: u64, n: u64) -> u64 {
    debug_assert!(n <= u64::from(u32::MAX));
    let (hi, lo) = (x >> 32, x & u64::from(u32::MAX));
    (hi * n + ((lo * n) >> 32)) >> 32
}

/// The longest copy [`copy`] does by fixed-size moves.
pub const SHORT_COPY: usize = 16;

/// `to.copy_from_slice(from)`, with up to [`SHORT_COPY`] bytes copied by fixed-size
/// moves (one byte by assignment, as std's `Read for &[u8]` does): a copy
/// of a length known only at run time is a call to memcpy (in WebAssembly a
/// `memory.copy`, a call out of the wasm code), which costs more than a few
/// bytes. For the engine's own code (the chained reader, the counted pass's
/// source and digest), never for a stand-in of a user's program. Always
/// inlined: the counting build optimizes for size, and as a call of its own
/// it cost more than the copies it saves.
#[inline(always)]
pub fn copy(to: &mut [u8], from: &[u8]) {
    match from.len() {
        n if n != to.len() || n > SHORT_COPY => to.copy_from_slice(from),
        1 => to[0] = from[0],
        n if n >= 8 => ends::<8>(to, from),
        n if n >= 4 => ends::<4>(to, from),
        n if n >= 2 => ends::<2>(to, from),
        _ => {}
    }
}

/// Copies a slice of `W..=2W` bytes as its first `W` and its last `W`
/// (they overlap when it is shorter than `2W`): two moves of a size known
/// when compiling.
#[inline(always)]
fn ends<const W: usize>(to: &mut [u8], from: &[u8]) {
    // Array moves: `copy_from_slice` of a fixed length is still a call of
    // core's copy in the counting build.
    if let (Some(to), Some(from)) = (to.first_chunk_mut::<W>(), from.first_chunk::<W>()) {
        *to = *from;
    }
    if let (Some(to), Some(from)) = (to.last_chunk_mut::<W>(), from.last_chunk::<W>()) {
        *to = *from;
    }
}

/// Where each read call's chunk limit comes from.
pub trait Limit {
    /// Whether a limit can be 0, a read interrupted before any byte arrived
    /// (scripts can; models never do, so their sources skip the check).
    const INTERRUPTS: bool;
    /// The stream is a regular file: it knows its size, so `read_to_end`
    /// and `read_to_string` take [`file_read_to_end`]'s path.
    const WHOLE_FILE: bool = false;
    /// The most the next read call may return; 0 means "interrupted".
    fn next_limit(&mut self) -> usize;
}

/// Seeded sizes drawn uniformly from `lo..lo + span`: the `a-b` model.
#[derive(Clone, Debug)]
pub struct Uniform {
    lo: usize,
    span: u64,
    rng: SplitMix64,
}

impl Uniform {
    pub fn new(min: usize, max: usize, seed: u64) -> Uniform {
        let (lo, hi) = (min.max(1), max.max(min).max(1));
        Uniform { lo, span: (hi - lo) as u64 + 1, rng: SplitMix64::new(seed) }
    }
}

impl Limit for Uniform {
    const INTERRUPTS: bool = false;
    #[inline]
    fn next_limit(&mut self) -> usize {
        self.lo + self.rng.below(self.span) as usize
    }
}

/// The same limit for every read: `fixed k`, `pipe` (64 KiB) and `file`
/// (no limit; the timed pass reads a file through [`WholeFile`], which also
/// knows it is one).
#[derive(Clone, Copy, Debug)]
pub struct AtMost(pub usize);

impl AtMost {
    /// The limit of a model that has one size (`None` for `uniform`).
    pub fn of(model: ChunkModel) -> Option<AtMost> {
        match model {
            ChunkModel::Uniform { .. } => None,
            // Models never yield 0: an empty chunk reads as end of stream.
            ChunkModel::Fixed { size } => Some(AtMost(size.max(1))),
            ChunkModel::File => Some(AtMost(usize::MAX)),
            ChunkModel::Pipe => Some(AtMost(PIPE_CHUNK)),
        }
    }
}

impl Limit for AtMost {
    const INTERRUPTS: bool = false;
    #[inline]
    fn next_limit(&mut self) -> usize {
        self.0
    }
}

/// A regular file (`file`): every read gets all it asks for, and the stream
/// knows its size, as `File::read_to_end` asks the kernel for it.
#[derive(Clone, Copy, Debug)]
pub struct WholeFile;

impl Limit for WholeFile {
    const INTERRUPTS: bool = false;
    const WHOLE_FILE: bool = true;
    #[inline]
    fn next_limit(&mut self) -> usize {
        usize::MAX
    }
}

/// The timed pass's chunks for a source that lives in time: the sizes the
/// reads of a counted pass returned, in order (run-length encoded: the
/// unbuffered reader's million 1-byte reads are one run). Replayed by the
/// same reader and workload, each read gets what it got there.
#[derive(Clone, Debug)]
pub struct Replay<'r> {
    runs: &'r [(u32, u32)],
    next: usize,
    size: u32,
    left: u32,
}

impl<'r> Replay<'r> {
    pub fn new(runs: &'r [(u32, u32)]) -> Replay<'r> {
        Replay { runs, next: 0, size: 0, left: 0 }
    }
}

impl Limit for Replay<'_> {
    const INTERRUPTS: bool = false;
    #[inline]
    fn next_limit(&mut self) -> usize {
        while self.left == 0 {
            match self.runs.get(self.next) {
                Some(&(size, count)) => (self.size, self.left, self.next) = (size, count, self.next + 1),
                // Past the log (it is never): no limit.
                None => return usize::MAX,
            }
        }
        self.left -= 1;
        self.size as usize
    }
}

/// Records the sizes a [`Source`]'s reads return, for a [`Replay`]: only
/// the calls that draw a chunk (bytes asked for and bytes left), as
/// [`Stream`] draws one.
pub struct Recorded<'a, 'l> {
    pub source: Source<'a>,
    pub log: &'l std::cell::RefCell<Vec<(u32, u32)>>,
}

impl Recorded<'_, '_> {
    fn note(&self, asked: bool, n: usize) {
        if !asked {
            return;
        }
        let mut log = self.log.borrow_mut();
        match log.last_mut() {
            Some((size, count)) if *size as usize == n && *count < u32::MAX => *count += 1,
            _ => log.push((n as u32, 1)),
        }
    }
}

impl Read for Recorded<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let asked = !buf.is_empty() && self.source.remaining() > 0;
        let n = self.source.read(buf)?;
        self.note(asked, n);
        Ok(n)
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        Generic(self).read_to_end(buf)
    }

    fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
        Generic(self).read_to_string(buf)
    }
}

impl ObservedRead for Recorded<'_, '_> {
    fn set_reader_buffer(&mut self, start: *const u8, len: usize) {
        self.source.set_reader_buffer(start, len);
    }

    fn ready(&mut self) -> bool {
        self.source.ready()
    }
}

/// Draws the chunk size limit for each read call: any model, or a script.
#[derive(Clone, Debug)]
pub struct Chunker {
    plan: Plan,
}

#[derive(Clone, Debug)]
enum Plan {
    Uniform(Uniform),
    AtMost(AtMost),
    /// `file`: no limit, and a known size.
    File,
    /// Test and fuzz scripts: sizes used in turn, cycling; 0 stands for a
    /// read interrupted before any byte arrived.
    Script { sizes: Vec<usize>, next: usize },
}

impl Chunker {
    pub fn new(model: ChunkModel, seed: u64) -> Self {
        let plan = match (model, AtMost::of(model)) {
            (ChunkModel::Uniform { min, max }, _) => Plan::Uniform(Uniform::new(min, max, seed)),
            (ChunkModel::File, _) => Plan::File,
            (_, Some(limit)) => Plan::AtMost(limit),
            (_, None) => unreachable!("only uniform has no single limit"),
        };
        Chunker { plan }
    }

    /// A scripted chunker, like std's `ShortReader` test double: each read
    /// gets the next size from `sizes` (cycling); a 0 makes that read fail
    /// with `ErrorKind::Interrupted`, the empty chunk a signal can cause.
    /// A script with no non-zero size (empty included) would never make
    /// progress; it behaves like [`ChunkModel::File`] instead.
    pub fn scripted(sizes: Vec<usize>) -> Self {
        if sizes.iter().all(|&n| n == 0) {
            return Chunker::new(ChunkModel::File, 0);
        }
        Chunker { plan: Plan::Script { sizes, next: 0 } }
    }

    /// Whether it stands for a regular file (see [`Limit::WHOLE_FILE`]).
    pub fn is_file(&self) -> bool {
        matches!(self.plan, Plan::File)
    }
}

impl Limit for Chunker {
    const INTERRUPTS: bool = true;

    #[inline]
    fn next_limit(&mut self) -> usize {
        match &mut self.plan {
            Plan::Uniform(u) => u.next_limit(),
            Plan::AtMost(limit) => limit.0,
            Plan::File => usize::MAX,
            Plan::Script { sizes, next } => {
                let n = sizes[*next % sizes.len()];
                *next = (*next + 1) % sizes.len();
                n
            }
        }
    }
}

/// Counters shared between a source and the harness that drives it. Cells,
/// not atomics: one run is single-threaded, and a `Cell` update costs what a
/// plain add costs. With several streams, all their sources share one probe,
/// so the counts are totals over the streams.
#[derive(Debug, Default)]
pub struct Probe {
    source_reads: Cell<u64>,
    source_bytes: Cell<u64>,
    /// Bytes the source wrote anywhere but into the reader's own buffer.
    direct_bytes: Cell<u64>,
    /// Pieces of data the application received ([`Ticking`] counts them):
    /// each costs the link's `work` on the reader's clock.
    pieces_taken: Cell<u64>,
    /// Arrival in time: reads that found nothing arrived and waited for
    /// the next piece, the modelled time they waited (ps), and reads that
    /// returned bytes of more than one piece (pieces the kernel joined).
    waits: Cell<u64>,
    waited_ps: Cell<u64>,
    joined: Cell<u64>,
    /// `buflab real`: the application really spends `work` ns per piece.
    #[cfg(not(target_arch = "wasm32"))]
    spin: Cell<Option<Spin>>,
}

/// What [`Probe::arrival`] reports of a run that lived in time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Waiting {
    pub waits: u64,
    pub waited_ps: u64,
    pub joined: u64,
}

/// The application's work per piece in a real run, kept as the model's
/// clock keeps it: after its `k`-th piece the program waits, busy, until
/// `k × work` plus the time its source reads took (waiting included) has
/// passed since the run began. The program's own cost between reads (the
/// reader's call, the sink, a slow build) is part of the work rather than
/// added to it, and a program the machine set aside for a while catches up
/// instead of falling behind for good, so its clock follows the model's:
/// source reads, then `work` per piece. A piece never takes less than one
/// clock reading (about 25 ns).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug)]
struct Spin {
    work_ns: u64,
    start: std::time::Instant,
    /// Time spent in source reads so far, and when the current one began.
    reading: std::time::Duration,
    read_began: Option<std::time::Instant>,
    pieces: u64,
}

impl Probe {
    /// Read calls made on the source, including zero-length ones and the
    /// final one that returned 0.
    pub fn source_reads(&self) -> u64 {
        self.source_reads.get()
    }

    /// Bytes the source handed out.
    pub fn source_bytes(&self) -> u64 {
        self.source_bytes.get()
    }

    /// Bytes the source wrote outside the reader's own buffer (see
    /// [`Source::set_reader_buffer`]): straight into memory the application
    /// owns, as std's large-read bypass and `read_to_end` do.
    pub fn direct_bytes(&self) -> u64 {
        self.direct_bytes.get()
    }

    /// One read call that returned `n` bytes (0 for an interrupted call);
    /// `direct`: written outside the reader's own buffer. Sources record
    /// every call they serve; a wrapper around a real source records the
    /// real source's calls the same way (`engine::real::Counted`).
    #[inline]
    pub fn record(&self, n: usize, direct: bool) {
        self.source_reads.set(self.source_reads.get() + 1);
        self.source_bytes.set(self.source_bytes.get() + n as u64);
        if direct {
            self.direct_bytes.set(self.direct_bytes.get() + n as u64);
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(mut spin) = self.spin.get() {
            if let Some(began) = spin.read_began.take() {
                spin.reading += began.elapsed();
            }
            self.spin.set(Some(spin));
        }
    }

    /// A real source read begins (its time counts as reading, not work).
    #[inline]
    pub fn read_begins(&self) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(mut spin) = self.spin.get() {
            spin.read_began = Some(std::time::Instant::now());
            self.spin.set(Some(spin));
        }
    }

    /// Pieces of data the application received so far.
    pub fn pieces_taken(&self) -> u64 {
        self.pieces_taken.get()
    }

    /// One piece of data the application received (and, in a real run with
    /// work, the work it spends on it).
    #[inline]
    pub fn took(&self) {
        self.pieces_taken.set(self.pieces_taken.get() + 1);
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(mut spin) = self.spin.get() {
            spin.pieces += 1;
            self.spin.set(Some(spin));
            let until = spin.reading + std::time::Duration::from_nanos(spin.work_ns.saturating_mul(spin.pieces));
            while spin.start.elapsed() < until {
                std::hint::spin_loop();
            }
        }
    }

    /// A real run: the application spends `work_ns` per piece it receives,
    /// for real (see [`Spin`]). 0 spends nothing.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn spend_work(&self, work_ns: u64) {
        let spin = (work_ns > 0).then(|| Spin {
            work_ns,
            start: std::time::Instant::now(),
            reading: std::time::Duration::ZERO,
            read_began: None,
            pieces: 0,
        });
        self.spin.set(spin);
    }

    /// The waiting of a run that lived in time (zeros otherwise).
    pub fn waiting(&self) -> Waiting {
        Waiting { waits: self.waits.get(), waited_ps: self.waited_ps.get(), joined: self.joined.get() }
    }

    fn waited(&self, ps: u64) {
        self.waits.set(self.waits.get() + 1);
        self.waited_ps.set(self.waited_ps.get() + ps);
    }

    fn joined_pieces(&self) {
        self.joined.set(self.joined.get() + 1);
    }
}

/// What the kernel holds for a reader in the arrival model, at most: Linux's
/// default pipe, [`PIPE_PAGES`] pages of [`PAGE`] bytes (see [`Pipe`]). A
/// loopback TCP socket's receive buffer starts at 128 KiB (`tcp_rmem`),
/// about half of it window for data: about the same.
pub const KERNEL_BUFFER: usize = PIPE_CHUNK;
/// A pipe's pages and their size (Linux: `pipe_max_size` 64 KiB by default).
pub const PIPE_PAGES: usize = 16;
pub const PAGE: u64 = 4096;

/// The kernel's buffer between a paced writer and the reader, as a Linux
/// pipe keeps it (`fs/pipe.c`, `pipe_write`, `pipe_read`): up to 16 pages.
/// A write of a piece first tries to append its last `len % 4096` bytes'
/// worth (the whole of a piece under 4 KiB) to the newest page, when the
/// pipe is not empty and that page has the room; the rest goes into new
/// pages, 4 KiB each, as long as a page is free, and a writer with no free
/// page waits for one (a piece under 4 KiB is written whole, into a new
/// page). A read takes bytes from the oldest pages and frees each page it
/// empties. So the pipe holds 16 pages of whole pieces: with 1–4 KiB pieces
/// about 40 KiB, with 64–512-byte ones about 62 KiB. The model's writer
/// writes a piece the moment it has arrived and the moment a page frees.
#[derive(Clone, Debug)]
struct Pipe {
    /// The pages, a ring from `head`, `count` of them: each page's offset of
    /// its first unread byte and its unread bytes.
    pages: [(u16, u16); PIPE_PAGES],
    head: usize,
    count: usize,
    /// Unread bytes in the pipe.
    bytes: u64,
    /// Stream bytes written into the pipe so far.
    entered: u64,
    /// Bytes of the piece being written that are not in the pipe yet (0:
    /// the next piece has not begun).
    piece_left: u64,
    /// Draws the pieces' sizes again, as the writer writes them.
    sizes: Chunker,
    len: u64,
}

impl Pipe {
    fn new(sizes: Chunker, len: u64) -> Pipe {
        Pipe { pages: [(0, 0); PIPE_PAGES], head: 0, count: 0, bytes: 0, entered: 0, piece_left: 0, sizes, len }
    }

    fn page(&mut self, i: usize) -> &mut (u16, u16) {
        &mut self.pages[(self.head + i) % PIPE_PAGES]
    }

    /// The writer writes what has arrived (the stream's first `arrived`
    /// bytes, whole pieces) until it is written or no page is free.
    fn write(&mut self, arrived: u64) {
        loop {
            if self.piece_left == 0 {
                if self.entered >= arrived {
                    return;
                }
                let size = (self.sizes.next_limit().max(1) as u64).min(self.len - self.entered);
                self.piece_left = size;
                // The tail's worth (a small piece whole) joins the newest page if it fits.
                let merged = size % PAGE;
                if merged != 0 && self.count > 0 {
                    let last = self.count - 1;
                    let (offset, unread) = *self.page(last);
                    if u64::from(offset) + u64::from(unread) + merged <= PAGE {
                        self.page(last).1 += merged as u16;
                        self.fill(merged);
                    }
                }
                continue;
            }
            if self.count == PIPE_PAGES {
                return; // the writer waits for a page
            }
            let n = self.piece_left.min(PAGE);
            let at = self.count;
            self.count += 1;
            *self.page(at) = (0, n as u16);
            self.fill(n);
        }
    }

    fn fill(&mut self, n: u64) {
        self.bytes += n;
        self.entered += n;
        self.piece_left -= n;
    }

    /// A read of up to `want` bytes from the oldest pages; returns how many.
    fn read(&mut self, want: u64) -> u64 {
        let mut got = 0;
        while got < want && self.count > 0 {
            let front = self.page(0);
            let n = u64::from(front.1).min(want - got);
            front.0 += n as u16;
            front.1 -= n as u16;
            got += n;
            if front.1 == 0 {
                self.head = (self.head + 1) % PIPE_PAGES;
                self.count -= 1;
            }
        }
        self.bytes -= got;
        got
    }
}

/// Picoseconds per second.
const PS: u128 = 1_000_000_000_000;

/// The reader's costs, in ps: per source read (`sys`), per byte a read
/// returns (`sys_kib` / 1024) and per piece of data the application
/// receives (`work`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Costs {
    pub read_ps: u64,
    pub kib_ps: u64,
    pub piece_ps: u64,
}

impl Costs {
    pub fn of(p: &Params) -> Costs {
        Costs { read_ps: p.sys * 1000, kib_ps: p.sys_kib * 1000, piece_ps: p.work * 1000 }
    }

    /// The reader's clock (ps): the cost of everything it has done, plus
    /// the time it waited.
    pub fn clock_ps(&self, probe: &Probe) -> u64 {
        self.read_ps * probe.source_reads()
            + self.kib_ps * probe.source_bytes() / 1024
            + self.piece_ps * probe.pieces_taken()
            + probe.waited_ps.get()
    }
}

/// Arrival in time (link key `rate`): the stream's pieces, their sizes drawn
/// by the chunk model and seed (the sizes a real writer writes,
/// `engine::real::native`), arrive one after the other at `rate` bytes per
/// second: piece `i` is complete at `(bytes through piece i) / rate`. A read
/// at the reader's clock `t` gets the bytes that have arrived by `t` and are
/// unread, at most what it asks and at most [`KERNEL_BUFFER`]; with none, it
/// waits until the next piece arrives (the clock jumps there) and takes
/// what arrived then. What the kernel holds beyond its buffer stands for
/// a writer blocked on a full buffer that refills it at once.
///
/// A reader faster than the rate waits before almost every read and gets
/// one piece per read, as a link without `rate` models; a reader slower
/// than the rate finds pieces waiting and gets them joined, as much as it
/// asks.
#[derive(Clone, Debug)]
pub struct Arrival {
    rate: u64,
    costs: Costs,
    /// The writer's side: draws the sizes of the pieces still to arrive.
    writer: Chunker,
    /// Bytes of the pieces that have arrived; pieces that have arrived.
    arrived: u64,
    pieces_arrived: u64,
    /// The next piece to arrive: where it ends in the stream and when (ps).
    next_end: u64,
    next_at_ps: u64,
    /// The reader's side: the same sizes drawn again, to know where the
    /// piece holding the next unread byte ends; pieces read to their end.
    reader: Chunker,
    read_end: u64,
    pieces_read: u64,
    /// What the kernel holds between them.
    pipe: Pipe,
    len: u64,
}

/// What the kernel holds for a source living in time (the timeline shows it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// Bytes arrived and not yet read.
    pub bytes: u64,
    /// Pieces with bytes arrived and not yet read.
    pub pieces: u64,
    /// The reader's clock (ps).
    pub clock_ps: u64,
}

impl Arrival {
    /// The arrival model of `params` for a stream of `len` bytes whose
    /// chunks are seeded with `seed`; `None` without a rate, and for a
    /// regular file, which has all its bytes.
    pub fn of(params: &Params, seed: u64, len: usize) -> Option<Arrival> {
        if !params.lives_in_time() {
            return None;
        }
        let chunker = Chunker::new(params.chunk, seed);
        let mut a = Arrival {
            rate: params.rate,
            costs: Costs::of(params),
            writer: chunker.clone(),
            pipe: Pipe::new(chunker.clone(), len as u64),
            arrived: 0,
            pieces_arrived: 0,
            next_end: 0,
            next_at_ps: 0,
            reader: chunker,
            read_end: 0,
            pieces_read: 0,
            len: len as u64,
        };
        a.draw_next();
        a.read_end = if len == 0 { u64::MAX } else { a.reader_piece(0) };
        Some(a)
    }

    /// Draws the next piece to arrive (none past the end).
    fn draw_next(&mut self) {
        if self.arrived >= self.len {
            self.next_at_ps = u64::MAX;
            return;
        }
        let size = (self.writer.next_limit().max(1) as u64).min(self.len - self.arrived);
        self.next_end = self.arrived + size;
        // At most 64 MiB × 10^12 / 1 KiB/s: within 64 bits after the division.
        self.next_at_ps = (u128::from(self.next_end) * PS).div_ceil(u128::from(self.rate)) as u64;
    }

    /// The end of the piece that starts at `from`, on the reader's side.
    fn reader_piece(&mut self, from: u64) -> u64 {
        from + (self.reader.next_limit().max(1) as u64).min(self.len - from)
    }

    /// Every piece that has arrived by `t_ps`.
    fn arrive(&mut self, t_ps: u64) {
        while self.next_at_ps <= t_ps {
            self.arrived = self.next_end;
            self.pieces_arrived += 1;
            self.draw_next();
        }
    }

    /// How many bytes a read of up to `want` bytes (both above 0) at `pos`
    /// returns, waiting first if nothing has arrived.
    fn grant(&mut self, pos: u64, want: usize, probe: &Probe) -> usize {
        let now = self.costs.clock_ps(probe);
        self.arrive(now);
        self.pipe.write(self.arrived);
        if self.pipe.bytes == 0 {
            // A read that blocks until the next piece arrives.
            let at = self.next_at_ps;
            probe.waited(at - now);
            self.arrive(at);
            self.pipe.write(self.arrived);
        }
        let n = self.pipe.read(want as u64);
        debug_assert!(n > 0 && self.pipe.entered - self.pipe.bytes == pos + n, "the pipe hands over the stream in order");
        let end = pos + n;
        if end > self.read_end {
            probe.joined_pieces();
        }
        self.read_to(end);
        n as usize
    }

    /// The reader has read every byte before `end`: every piece that ends
    /// there or before has been read to its end.
    fn read_to(&mut self, end: u64) {
        while self.read_end <= end {
            self.pieces_read += 1;
            if self.read_end >= self.len {
                self.read_end = u64::MAX;
                break;
            }
            self.read_end = self.reader_piece(self.read_end);
        }
    }

    /// What the kernel holds for a reader that has read `pos` bytes, at its
    /// clock `clock_ps` (both never smaller than at the last call): the
    /// buffer timeline follows a copy of the source's arrival with it.
    pub fn observe(&mut self, pos: u64, clock_ps: u64) -> Held {
        self.arrive(clock_ps);
        self.read_to(pos);
        Held { bytes: self.arrived.saturating_sub(pos), pieces: self.pieces_arrived.saturating_sub(self.pieces_read), clock_ps }
    }

    /// The reader's costs.
    pub fn costs(&self) -> Costs {
        self.costs
    }
}


/// When a source is not yet ready: the `pend` percentage of reads, drawn
/// with a seed. A read it delays gets one "not ready" answer, then the chunk.
#[derive(Clone, Debug)]
struct Pending {
    /// Percentage of reads (0–100) that find the source not ready first.
    percent: u64,
    rng: SplitMix64,
    /// The next read was already answered "not ready" once.
    delayed: bool,
}

impl Pending {
    /// Salt for the schedule's PRNG, so its draws are not the chunk draws of
    /// the same seed.
    const SALT: u64 = 0x5045_4E44_494E_4721; // "PENDING!"

    fn new(percent: u64, seed: u64) -> Pending {
        Pending { percent: percent.min(100), rng: SplitMix64::new(seed ^ Pending::SALT), delayed: false }
    }

    /// Whether the next read finds data waiting; `false` at most once per
    /// read: after a `false` the next ask is `true` (and the read follows,
    /// as an async reader reads whenever it is told the source is ready),
    /// and the ask after that draws afresh. Kept here rather than reset by
    /// `read`, so a source's `read` does not change with a schedule (the
    /// timed pass's [`Stream`] has the same schedule and an untouched `read`).
    fn ready(&mut self) -> bool {
        if self.percent == 0 {
            return true;
        }
        if self.delayed {
            self.delayed = false;
            return true;
        }
        self.delayed = self.rng.below(100) < self.percent;
        !self.delayed
    }
}

/// A source a reader wraps. A buffered reader tells it where its own buffer
/// lives, so a counting source can class each write as "into the reader's
/// buffer" (copied out later) or "straight into the application's memory".
/// Sources that count nothing ignore it.
pub trait ObservedRead: Read {
    /// It overrides `read_to_end` and `read_to_string` in a way that changes
    /// the calls it makes (std's `File`, and a [`Source`] of the `file`
    /// model): a wrapper that counts calls hands those over whole rather
    /// than let std's generic algorithm run over its own `read`.
    fn own_read_to_end(&self) -> bool {
        false
    }

    fn set_reader_buffer(&mut self, _start: *const u8, _len: usize) {}

    /// Whether data is waiting for the next read, as a readable socket's is.
    /// Only an async reader asks (a blocking read simply waits): `false` is
    /// one `Pending`, and asking again gets `true`, so a reader that asks
    /// before every read can never be kept waiting twice for one read.
    fn ready(&mut self) -> bool {
        true
    }
}

impl ObservedRead for &[u8] {}

/// A chunked stream over `data`.
#[derive(Debug)]
pub struct Source<'a> {
    data: &'a [u8],
    /// Bytes already served; `pos <= data.len()`.
    pos: usize,
    chunker: Chunker,
    probe: &'a Probe,
    /// Address range `[lo, hi)` of the buffer of the reader that wraps this
    /// source; empty when the reader has none (the unbuffered reader).
    reader_buffer: (usize, usize),
    /// When an async reader finds the source not ready; `None`: always ready.
    pending: Option<Pending>,
    /// Arrival in time; `None`: each read gets one fresh chunk.
    arrival: Option<Arrival>,
}

impl<'a> Source<'a> {
    pub fn new(data: &'a [u8], model: ChunkModel, seed: u64, probe: &'a Probe) -> Self {
        Source::with_chunker(data, Chunker::new(model, seed), probe)
    }

    pub fn with_chunker(data: &'a [u8], chunker: Chunker, probe: &'a Probe) -> Self {
        Source { data, pos: 0, chunker, probe, reader_buffer: (0, 0), pending: None, arrival: None }
    }

    /// The same source, living in time (see [`Arrival`]); `None` leaves it
    /// as it is.
    pub fn with_arrival(mut self, arrival: Option<Arrival>) -> Self {
        self.arrival = arrival;
        self
    }

    /// The source of stream `index` of an experiment: the link's chunks,
    /// `Pending` schedule and arrival in time, each seeded for the stream.
    pub fn of_stream(data: &'a [u8], params: &Params, index: usize, probe: &'a Probe) -> Self {
        let seed = stream_seed(params.seed, index);
        Source::new(data, params.chunk, seed, probe)
            .with_pending(params.pend, seed)
            .with_arrival(Arrival::of(params, seed, data.len()))
    }



    /// The same source, not ready before `percent` % of its reads (link key
    /// `pend`), drawn from `seed` (the stream's seed: each stream has its own
    /// schedule). 0 leaves the source always ready.
    pub fn with_pending(mut self, percent: u64, seed: u64) -> Self {
        self.pending = (percent > 0).then(|| Pending::new(percent, seed));
        self
    }

    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    pub fn probe(&self) -> &'a Probe {
        self.probe
    }

    /// Whether it stands for a regular file (the `file` model): see
    /// [`file_read_to_end`].
    pub fn is_file(&self) -> bool {
        self.chunker.is_file()
    }
}

impl Source<'_> {
    /// One read call of up to `want` bytes: the bytes it may return, or
    /// `None` for a scripted interruption (counted, as `read(2)`'s `EINTR` is).
    #[inline]
    fn grant(&mut self, want: usize) -> Option<usize> {
        let remaining = self.remaining();
        if want == 0 || remaining == 0 {
            return Some(0);
        }
        if let Some(arrival) = self.arrival.as_mut() {
            return Some(arrival.grant(self.pos as u64, want, self.probe));
        }
        match self.chunker.next_limit() {
            0 => {
                self.probe.record(0, false);
                None
            }
            limit => Some(want.min(remaining).min(limit)),
        }
    }

    /// Records one call that wrote `n` bytes at `at`.
    #[inline]
    fn served(&mut self, at: usize, n: usize) {
        self.pos += n;
        let (lo, hi) = self.reader_buffer;
        let direct = !(lo <= at && at < hi);
        self.probe.record(n, direct);
    }
}

impl Read for Source<'_> {
    // Never inlined: a source read stands for a system call, which is an
    // opaque call for the compiler too; inlined, its body would bloat the
    // caller's per-byte fast path.
    #[inline(never)]
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.grant(buf.len()).ok_or_else(|| io::Error::from(io::ErrorKind::Interrupted))?;
        // Only the counted pass reads a `Source`: the timed pass reads a
        // `Stream`, whose copy is the plain program's (`crate::bench::plain`).
        copy(&mut buf[..n], &self.data[self.pos..self.pos + n]);
        self.served(buf.as_ptr() as usize, n);
        Ok(n)
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        if self.is_file() {
            file_read_to_end(self, buf)
        } else {
            Generic(self).read_to_end(buf)
        }
    }

    fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
        if self.is_file() {
            file_read_to_string(self, buf)
        } else {
            Generic(self).read_to_string(buf)
        }
    }
}

impl FileRead for Source<'_> {
    fn remaining(&self) -> usize {
        Source::remaining(self)
    }

    fn read_uninit(&mut self, buf: &mut [MaybeUninit<u8>]) -> io::Result<usize> {
        let n = self.grant(buf.len()).ok_or_else(|| io::Error::from(io::ErrorKind::Interrupted))?;
        buf[..n].write_copy_of_slice(&self.data[self.pos..self.pos + n]);
        self.served(buf.as_ptr() as usize, n);
        Ok(n)
    }
}

impl ObservedRead for Source<'_> {
    fn own_read_to_end(&self) -> bool {
        self.is_file()
    }

    /// Readers stay black boxes: std's `BufReader` is observed, not modelled.
    /// Its buffer is the only memory it ever asks the source to fill besides
    /// the caller's, which is why this works for every workload, including
    /// `Read::bytes()`, whose destination byte lives inside std.
    fn set_reader_buffer(&mut self, start: *const u8, len: usize) {
        let lo = start as usize;
        self.reader_buffer = (lo, lo + len);
    }

    fn ready(&mut self) -> bool {
        self.pending.as_mut().map_or(true, Pending::ready)
    }
}

/// The timed pass's source: the same bytes in the same chunks as a
/// [`Source`] with the same model and seed, and nothing else (no counters,
/// no reader-buffer check), as a program's own socket or file would be.
/// `Tag` makes its type, and the type of a reader over it, particular to one
/// loop (see `engine::timed`).
///
/// An async reader over it meets the same `Pending` schedule as over the
/// `Source` (link key `pend`), so the timed pass polls as often as the
/// counted pass counts; a blocking reader never asks, and `read` does not
/// look at the schedule.
pub struct Stream<'a, C, Tag> {
    data: &'a [u8],
    pos: usize,
    chunks: C,
    pending: Option<Pending>,
    _tag: std::marker::PhantomData<fn() -> Tag>,
}

impl<'a, C: Limit, Tag> Stream<'a, C, Tag> {
    pub fn new(data: &'a [u8], chunks: C) -> Self {
        Stream { data, pos: 0, chunks, pending: None, _tag: std::marker::PhantomData }
    }

    /// The same stream, not ready before `percent` % of its reads, drawn as
    /// [`Source::with_pending`] draws them for the same `seed`.
    pub fn with_pending(mut self, percent: u64, seed: u64) -> Self {
        self.pending = (percent > 0).then(|| Pending::new(percent, seed));
        self
    }
}

impl<C: Limit, Tag> Stream<'_, C, Tag> {
    /// The bytes one read call of up to `want` bytes returns, or `None` for
    /// a scripted interruption.
    #[inline]
    fn grant(&mut self, want: usize) -> Option<usize> {
        let remaining = self.data.len() - self.pos;
        if want == 0 || remaining == 0 {
            return Some(0);
        }
        let limit = self.chunks.next_limit();
        if C::INTERRUPTS && limit == 0 {
            return None;
        }
        Some(want.min(remaining).min(limit))
    }
}

impl<C: Limit, Tag> Read for Stream<'_, C, Tag> {
    #[inline]
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.grant(buf.len()).ok_or_else(|| io::Error::from(io::ErrorKind::Interrupted))?;
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        if C::WHOLE_FILE {
            file_read_to_end(self, buf)
        } else {
            Generic(self).read_to_end(buf)
        }
    }

    fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
        if C::WHOLE_FILE {
            file_read_to_string(self, buf)
        } else {
            Generic(self).read_to_string(buf)
        }
    }
}

impl<C: Limit, Tag> FileRead for Stream<'_, C, Tag> {
    fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    #[inline]
    fn read_uninit(&mut self, buf: &mut [MaybeUninit<u8>]) -> io::Result<usize> {
        let n = self.grant(buf.len()).ok_or_else(|| io::Error::from(io::ErrorKind::Interrupted))?;
        buf[..n].write_copy_of_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// A reader seen only through its `read`: std's provided algorithms
/// (`read_to_end`'s 8 KiB-and-doubling reads, …) over it, as over a pipe or
/// a socket, which override none of them in a way that changes the calls.
pub struct Generic<'r, R>(pub &'r mut R);

impl<R: Read> Read for Generic<'_, R> {
    #[inline]
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

/// A stream that stands for a regular file: it knows how much is left, and
/// it can read into memory not yet initialised, as `read(2)` (std's
/// `read_buf` on a `File`) does.
pub trait FileRead: Read {
    /// Bytes from the position to the end: what `File` learns from the
    /// kernel (`fstat`'s size less `lseek`'s position).
    fn remaining(&self) -> usize;
    /// One read call into `buf`, as [`Read::read`] but into memory that need
    /// not be initialised; returns how many leading bytes it wrote.
    fn read_uninit(&mut self, buf: &mut [MaybeUninit<u8>]) -> io::Result<usize>;
}

/// `Read::read_to_end` as std's `File` answers it (`library/std/src/fs.rs`,
/// `impl Read for &File`): reserve the bytes left in the file, then std's
/// `io::default_read_to_end` with that size as its hint. The hint lifts the
/// cap on each read to the size rounded up past 1 KiB to a multiple of
/// 8 KiB, so a file is read in one call, and a Vec filled exactly to its
/// capacity is checked for the end with a 32-byte read on the stack. On a
/// file with bytes left that is 2 calls (1 when nothing is left), through a
/// `BufReader` too (its `read_to_end` hands its buffer over, then calls its
/// reader's). This is std's algorithm for a size hint, written out because
/// std does not export it; a test (`crate/tests/kernel.rs`) holds it to a
/// real file's `read(2)` calls.
pub fn file_read_to_end<F: FileRead + ?Sized>(file: &mut F, buf: &mut Vec<u8>) -> io::Result<usize> {
    /// std's `io::DEFAULT_BUF_SIZE` (not a public item).
    const DEFAULT_BUF_SIZE: usize = 8 * 1024;
    /// The end probe's size in `default_read_to_end`.
    const PROBE_SIZE: usize = 32;

    fn probe<F: FileRead + ?Sized>(file: &mut F, buf: &mut Vec<u8>) -> io::Result<usize> {
        let mut probe = [0u8; PROBE_SIZE];
        loop {
            match file.read(&mut probe) {
                Ok(n) => {
                    buf.extend_from_slice(&probe[..n]);
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    let size = file.remaining();
    buf.try_reserve(size)?;
    let (start_len, start_cap) = (buf.len(), buf.capacity());
    let max_read_size =
        size.checked_add(1024).and_then(|s| s.checked_next_multiple_of(DEFAULT_BUF_SIZE)).unwrap_or(DEFAULT_BUF_SIZE);
    // An empty file with no room in the Vec: one small read before any growth.
    if size == 0 && buf.capacity() - buf.len() < PROBE_SIZE && probe(file, buf)? == 0 {
        return Ok(0);
    }
    loop {
        // A Vec filled exactly: see whether the file ended before growing it.
        if buf.len() == buf.capacity() && buf.capacity() == start_cap && probe(file, buf)? == 0 {
            return Ok(buf.len() - start_len);
        }
        if buf.len() == buf.capacity() {
            buf.try_reserve(PROBE_SIZE)?;
        }
        let spare = buf.spare_capacity_mut();
        let want = spare.len().min(max_read_size);
        let n = loop {
            match file.read_uninit(&mut spare[..want]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                result => break result?,
            }
        };
        // SAFETY: `read_uninit` initialised the first `n` bytes of the spare
        // capacity, which follow the `len` initialised ones.
        unsafe { buf.set_len(buf.len() + n) };
        if n == 0 {
            return Ok(buf.len() - start_len);
        }
    }
}

/// `Read::read_to_string` as std's `File` answers it: [`file_read_to_end`]
/// onto the string's bytes, kept only if they are UTF-8 (std's
/// `default_read_to_string`).
pub fn file_read_to_string<F: FileRead + ?Sized>(file: &mut F, buf: &mut String) -> io::Result<usize> {
    let mut bytes = std::mem::take(buf).into_bytes();
    let old = bytes.len();
    let result = file_read_to_end(file, &mut bytes);
    let valid = std::str::from_utf8(&bytes[old..]).is_ok();
    if !valid {
        bytes.truncate(old);
    }
    // SAFETY: `bytes[..old]` came from a `String`, and the rest was just
    // checked (or cut off).
    *buf = unsafe { String::from_utf8_unchecked(bytes) };
    match result {
        Ok(_) if !valid => Err(io::Error::new(io::ErrorKind::InvalidData, "stream did not contain valid UTF-8")),
        result => result,
    }
}

impl<C: Limit, Tag> ObservedRead for Stream<'_, C, Tag> {
    fn ready(&mut self) -> bool {
        self.pending.as_mut().map_or(true, Pending::ready)
    }
}

/// The chunk seed of stream `index` of an experiment seeded with `seed`.
/// Stream 0 uses the seed itself, so a one-stream experiment keeps the chunks
/// (and counts) links had before streams existed; the others get unrelated
/// seeds, so the streams' chunkings are independent.
pub fn stream_seed(seed: u64, index: usize) -> u64 {
    if index == 0 {
        seed
    } else {
        SplitMix64::new(seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
    }
}

/// The default stream content: 0, 1, …, 255 repeating.
pub fn counting_bytes(len: usize) -> Vec<u8> {
    (0..len).map(|i| i as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_reference_vector() {
        // First outputs for seed 0 from the reference implementation; a change
        // here changes every shared link's chunks.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    // proptest is a native dev-dependency only; the edge values below run everywhere.
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        // The draws must not depend on the target: wasm32 takes the narrow form.
        #[test]
        fn the_narrow_high_product_is_the_128_bit_one(x: u64, n in 1..=u64::from(u32::MAX)) {
            proptest::prop_assert_eq!(mul_hi_narrow(x, n), ((u128::from(x) * u128::from(n)) >> 64) as u64);
        }
    }

    #[test]
    fn a_short_copy_is_the_slice_copy() {
        let from: Vec<u8> = (1..=40).collect();
        for n in 0..=40 {
            let mut to = vec![0u8; n];
            copy(&mut to, &from[..n]);
            assert_eq!(to, &from[..n], "{n} bytes");
        }
    }

    #[test]
    fn the_narrow_high_product_at_the_extremes() {
        for x in [0, 1, u64::from(u32::MAX), 1 << 32, u64::MAX - 1, u64::MAX] {
            for n in [1, 2, 100, u64::from(u32::MAX) - 1, u64::from(u32::MAX)] {
                assert_eq!(mul_hi_narrow(x, n), ((u128::from(x) * u128::from(n)) >> 64) as u64, "{x} × {n}");
            }
        }
    }

    #[test]
    fn uniform_chunks_stay_in_range_and_cover_the_range() {
        let mut c = Chunker::new(ChunkModel::Uniform { min: 3, max: 6 }, 7);
        let draws: Vec<usize> = (0..1000).map(|_| c.next_limit()).collect();
        assert!(draws.iter().all(|&n| (3..=6).contains(&n)));
        for n in 3..=6 {
            assert!(draws.contains(&n), "{n} never drawn");
        }
    }

    #[test]
    fn source_never_returns_more_than_requested_or_remaining() {
        let data = counting_bytes(10);
        let probe = Probe::default();
        let mut s = Source::new(&data, ChunkModel::Fixed { size: 4 }, 1, &probe);
        let mut buf = [0u8; 3];
        assert_eq!(s.read(&mut buf).unwrap(), 3);
        assert_eq!(s.read(&mut buf[..0]).unwrap(), 0, "empty request");
        let mut big = [0u8; 100];
        assert_eq!(s.read(&mut big).unwrap(), 4);
        assert_eq!(s.read(&mut big).unwrap(), 3);
        assert_eq!(&big[..3], &[7, 8, 9]);
        assert_eq!(s.read(&mut big).unwrap(), 0, "end of stream");
        assert_eq!(probe.source_reads(), 5, "every call counts");
        assert_eq!(probe.source_bytes(), 10);
    }

    #[test]
    fn a_stream_cuts_the_bytes_as_the_source_does() {
        let data = counting_bytes(5000);
        for model in [ChunkModel::Uniform { min: 3, max: 300 }, ChunkModel::Fixed { size: 7 }, ChunkModel::File, ChunkModel::Pipe] {
            let probe = Probe::default();
            let mut source = Source::new(&data, model, 9, &probe);
            let mut stream = match AtMost::of(model) {
                Some(limit) => Box::new(Stream::<_, ()>::new(&data, limit)) as Box<dyn Read>,
                None => Box::new(Stream::<_, ()>::new(&data, Chunker::new(model, 9))),
            };
            let (mut a, mut b) = ([0u8; 400], [0u8; 400]);
            loop {
                let (n, m) = (source.read(&mut a).unwrap(), stream.read(&mut b).unwrap());
                assert_eq!((n, &a[..n]), (m, &b[..m]), "{model:?}");
                if n == 0 {
                    break;
                }
            }
        }
        let mut c = Chunker::new(ChunkModel::Uniform { min: 3, max: 300 }, 9);
        let mut u = Uniform::new(3, 300, 9);
        assert!((0..1000).all(|_| c.next_limit() == u.next_limit()), "one draw, two types");
    }

    #[test]
    fn a_pending_schedule_says_not_ready_at_most_once_per_read_and_keeps_the_chunks() {
        let data = counting_bytes(100_000);
        let chunks = |pend: u64| {
            let probe = Probe::default();
            let mut s = Source::new(&data, ChunkModel::Uniform { min: 1, max: 300 }, 9, &probe).with_pending(pend, 9);
            let (mut sizes, mut not_ready, mut buf) = (Vec::new(), 0u64, [0u8; 512]);
            loop {
                if !s.ready() {
                    not_ready += 1;
                    assert!(s.ready(), "asked again, the source is ready");
                }
                match s.read(&mut buf).unwrap() {
                    0 => break,
                    n => sizes.push(n),
                }
            }
            (sizes, not_ready, probe.source_reads())
        };
        // The timed pass's stream: the same schedule, read for read.
        let schedule = |s: &mut dyn FnMut() -> (bool, usize)| {
            let mut delayed = Vec::new();
            loop {
                let (waited, n) = s();
                delayed.push(waited);
                if n == 0 {
                    return delayed;
                }
            }
        };
        for pend in [0, 30, 100] {
            let probe = Probe::default();
            let mut source = Source::new(&data, ChunkModel::Uniform { min: 1, max: 300 }, 9, &probe).with_pending(pend, 9);
            let mut stream = Stream::<_, ()>::new(&data, Uniform::new(1, 300, 9)).with_pending(pend, 9);
            let mut buf = [0u8; 512];
            let by_source = schedule(&mut || {
                let waited = !source.ready() && source.ready();
                (waited, source.read(&mut buf).unwrap())
            });
            let by_stream = schedule(&mut || {
                let waited = !stream.ready() && stream.ready();
                (waited, stream.read(&mut buf).unwrap())
            });
            assert_eq!(by_source, by_stream, "pend={pend}");
        }
        let (plain, none, reads) = chunks(0);
        assert_eq!(none, 0);
        for pend in [1, 30, 100] {
            let (sizes, not_ready, pend_reads) = chunks(pend);
            assert_eq!(sizes, plain, "pend={pend} leaves the chunks alone");
            assert_eq!(pend_reads, reads);
            if pend == 100 {
                assert_eq!(not_ready, reads, "every read is delayed once");
            } else {
                let share = not_ready as f64 / reads as f64 * 100.0;
                assert!((share - pend as f64).abs() < 5.0, "pend={pend}: {share:.1} %");
            }
        }
    }

    #[test]
    fn a_file_reads_to_end_as_stds_file_does_and_the_other_models_as_a_generic_reader() {
        let data = counting_bytes(1 << 20);
        // (model, source reads for 1 MiB into a Vec sized to it)
        for (model, reads) in [(ChunkModel::File, 2), (ChunkModel::Pipe, 20), (ChunkModel::Fixed { size: 1 << 24 }, 9)] {
            let probe = Probe::default();
            let mut source = Source::new(&data, model, 1, &probe);
            let mut got = Vec::with_capacity(data.len());
            assert_eq!(source.read_to_end(&mut got).unwrap(), data.len());
            assert_eq!((probe.source_reads(), got == data), (reads, true), "{model:?}");
            assert_eq!(probe.direct_bytes(), data.len() as u64, "straight into the Vec");
        }
        // An empty Vec: File reserves the size first, so still 2 calls and one
        // allocation of exactly the file's size.
        let probe = Probe::default();
        let mut got = Vec::new();
        Source::new(&data[..100_000], ChunkModel::File, 1, &probe).read_to_end(&mut got).unwrap();
        assert_eq!((probe.source_reads(), got.capacity()), (2, 100_000));
        // Nothing left: the one read that finds the end.
        let probe = Probe::default();
        let mut source = Source::new(&data[..10], ChunkModel::File, 1, &probe);
        source.read_exact(&mut [0u8; 10]).unwrap();
        assert_eq!(source.read_to_end(&mut Vec::new()).unwrap(), 0);
        assert_eq!(probe.source_reads(), 2);
        // The timed pass's stream makes the same calls (its reads are not
        // counted, so count them around it).
        struct Counting<'a, R>(&'a mut R, u64);
        impl<R: FileRead> Read for Counting<'_, R> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.1 += 1;
                self.0.read(buf)
            }
        }
        impl<R: FileRead> FileRead for Counting<'_, R> {
            fn remaining(&self) -> usize {
                self.0.remaining()
            }
            fn read_uninit(&mut self, buf: &mut [MaybeUninit<u8>]) -> io::Result<usize> {
                self.1 += 1;
                self.0.read_uninit(buf)
            }
        }
        let mut stream = Stream::<_, ()>::new(&data, WholeFile);
        let mut counting = Counting(&mut stream, 0);
        let mut got = Vec::with_capacity(data.len());
        file_read_to_end(&mut counting, &mut got).unwrap();
        assert_eq!((counting.1, got == data), (2, true));
    }

    #[test]
    fn a_file_reads_to_a_string_only_if_it_is_utf8() {
        let text = b"hello\nworld\n";
        let probe = Probe::default();
        let mut s = String::from("> ");
        Source::new(text, ChunkModel::File, 1, &probe).read_to_string(&mut s).unwrap();
        assert_eq!((s.as_str(), probe.source_reads()), ("> hello\nworld\n", 2));
        let mut s = String::from("> ");
        let err = Stream::<_, ()>::new(&[b'a', 0xFF][..], WholeFile).read_to_string(&mut s).unwrap_err();
        assert_eq!((err.kind(), s.as_str()), (io::ErrorKind::InvalidData, "> "));
    }

    /// The sizes one reader's reads get from a source of `params` living in
    /// time, the application taking each read's bytes as one piece.
    fn arrival_reads(params: &Params, want: usize) -> (Vec<usize>, Waiting) {
        let data = counting_bytes(params.len as usize);
        let probe = Probe::default();
        let mut source = Source::of_stream(&data, params, 0, &probe);
        let mut buf = vec![0u8; want];
        let mut sizes = Vec::new();
        loop {
            let n = source.read(&mut buf).unwrap();
            assert_eq!(&buf[..n], &data[sizes.iter().sum::<usize>()..][..n], "the stream's bytes, in order");
            probe.took();
            if n == 0 {
                return (sizes, probe.waiting());
            }
            sizes.push(n);
        }
    }

    fn poor(len: u64) -> Params {
        Params { len, chunk: ChunkModel::Uniform { min: 64, max: 512 }, sys: 150, ..Params::default() }
    }

    #[test]
    fn a_reader_that_always_waits_gets_one_piece_per_read_as_without_a_rate() {
        // 1 KiB/s: every piece arrives long after the reader took the last.
        let slow = Params { rate: 1024, ..poor(200_000) };
        let (sizes, waiting) = arrival_reads(&slow, 1024);
        let (plain, _) = arrival_reads(&poor(200_000), 1024);
        assert_eq!(sizes, plain, "the same pieces, one per read");
        assert_eq!((waiting.waits, waiting.joined), (sizes.len() as u64, 0), "every read waited, none got two pieces");
        // The last piece arrives at len ÷ rate: the reader waited for it.
        assert!(waiting.waited_ps >= 195 * 1_000_000_000_000, "{}", waiting.waited_ps);
    }

    #[test]
    fn a_reader_behind_a_fast_writer_gets_what_it_asks_up_to_the_kernels_buffer() {
        // 64 GiB/s and 10 µs of work per piece: everything has arrived after the first read.
        let fast = Params { rate: 64 << 30, work: 10_000, ..poor(1 << 20) };
        let (sizes, waiting) = arrival_reads(&fast, 8192);
        assert_eq!(waiting.waits, 1, "only the first read, at the stream's start, waits");
        assert!(sizes[1..sizes.len() - 1].iter().all(|&n| n == 8192), "{sizes:?}");
        // A pipe's 16 pages of whole 64–512-byte pieces: a little under 64 KiB.
        let (sizes, _) = arrival_reads(&fast, 1 << 20);
        assert!(sizes[1..].iter().all(|&n| n <= KERNEL_BUFFER) && sizes[2] > 60_000, "{sizes:?}");
        // Pieces of 3 KiB leave each page a KiB short: 16 pieces, 48 KiB.
        let (sizes, _) = arrival_reads(&Params { chunk: ChunkModel::Fixed { size: 3072 }, ..fast.clone() }, 1 << 20);
        assert_eq!(sizes[2], 16 * 3072, "{sizes:?}");
        // 100-byte pieces fill a page 40 at a time: 16 × 4,000 bytes.
        let (sizes, _) = arrival_reads(&Params { chunk: ChunkModel::Fixed { size: 100 }, ..fast.clone() }, 1 << 20);
        assert_eq!(sizes[2], 16 * 4000, "{sizes:?}");
    }

    #[test]
    fn a_reader_that_works_slower_than_the_rate_finds_pieces_joined() {
        // 100 ns per byte of work against 16 MiB/s: the reader falls behind.
        let behind = Params { rate: 16 << 20, work: 100 * 512, ..poor(1 << 20) };
        let (sizes, waiting) = arrival_reads(&behind, 512);
        assert!(waiting.joined > sizes.len() as u64 / 2, "{waiting:?} over {} reads", sizes.len());
        // The same reader at a quarter of its pace keeps up.
        let (_, keeping_up) = arrival_reads(&Params { rate: 1 << 20, ..behind.clone() }, 512);
        assert_eq!(keeping_up.joined, 0);
        // And the model is a function of the link: run again, the same reads.
        assert_eq!(arrival_reads(&behind, 512).0, sizes);
    }

    #[test]
    fn a_file_has_all_its_bytes_whatever_the_rate() {
        let file = Params { chunk: ChunkModel::File, rate: 1024, len: 10_000, ..Params::default() };
        assert!(Arrival::of(&file, 1, 10_000).is_none());
        assert!(Arrival::of(&Params { rate: 0, ..poor(10_000) }, 1, 10_000).is_none());
    }

    #[test]
    fn a_replay_limits_each_read_to_the_logged_size() {
        let log = [(5u32, 2u32), (1, 1), (7, 3)];
        let mut r = Replay::new(&log);
        let got: Vec<usize> = (0..7).map(|_| r.next_limit()).collect();
        assert_eq!(got, [5, 5, 1, 7, 7, 7, usize::MAX]);
    }

    #[test]
    fn the_arrival_cost_model_weighs_reads_bytes_and_pieces() {
        let p = Params { sys: 100, sys_kib: 1024, work: 10, ..Params::default() };
        let probe = Probe::default();
        probe.record(2048, false);
        probe.record(0, false);
        probe.took();
        // 2 reads × 100 ns + 2048 bytes × 1 ns + 1 piece × 10 ns.
        assert_eq!(Costs::of(&p).clock_ps(&probe), (200 + 2048 + 10) * 1000);
    }

    #[test]
    fn counting_bytes_wrap_at_256() {
        let d = counting_bytes(300);
        assert_eq!(d[255], 255);
        assert_eq!(d[256], 0);
        assert_eq!(d[299], 43);
    }
}
