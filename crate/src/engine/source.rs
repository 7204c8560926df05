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
//!   try. The schedule has its own PRNG stream: it never changes the chunks.

use std::cell::Cell;
use std::io::{self, Read};

use crate::model::{ChunkModel, PIPE_CHUNK};

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
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// `to.copy_from_slice(from)`, with one byte by assignment, as std's `Read
/// for &[u8]` does: a copy of a length known only at run time is a call to
/// memcpy (in WebAssembly a `memory.copy`), which costs more than one byte.
/// For the engine's own code (the chained reader, the counted pass's
/// source), never for a stand-in of a user's program.
#[inline]
pub fn copy(to: &mut [u8], from: &[u8]) {
    if let ([t], [f]) = (&mut *to, from) {
        *t = *f;
    } else {
        to.copy_from_slice(from);
    }
}

/// Where each read call's chunk limit comes from.
pub trait Limit {
    /// Whether a limit can be 0, a read interrupted before any byte arrived
    /// (scripts can; models never do, so their sources skip the check).
    const INTERRUPTS: bool;
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
/// (no limit).
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

/// Draws the chunk size limit for each read call: any model, or a script.
#[derive(Clone, Debug)]
pub struct Chunker {
    plan: Plan,
}

#[derive(Clone, Debug)]
enum Plan {
    Uniform(Uniform),
    AtMost(AtMost),
    /// Test and fuzz scripts: sizes used in turn, cycling; 0 stands for a
    /// read interrupted before any byte arrived.
    Script { sizes: Vec<usize>, next: usize },
}

impl Chunker {
    pub fn new(model: ChunkModel, seed: u64) -> Self {
        let plan = match (model, AtMost::of(model)) {
            (ChunkModel::Uniform { min, max }, _) => Plan::Uniform(Uniform::new(min, max, seed)),
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
}

impl Limit for Chunker {
    const INTERRUPTS: bool = true;

    fn next_limit(&mut self) -> usize {
        match &mut self.plan {
            Plan::Uniform(u) => u.next_limit(),
            Plan::AtMost(limit) => limit.0,
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
}

impl<'a> Source<'a> {
    pub fn new(data: &'a [u8], model: ChunkModel, seed: u64, probe: &'a Probe) -> Self {
        Source::with_chunker(data, Chunker::new(model, seed), probe)
    }

    pub fn with_chunker(data: &'a [u8], chunker: Chunker, probe: &'a Probe) -> Self {
        Source { data, pos: 0, chunker, probe, reader_buffer: (0, 0), pending: None }
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
}

impl Read for Source<'_> {
    // Never inlined: a source read stands for a system call, which is an
    // opaque call for the compiler too. Inlined, its body bloated the
    // caller's per-byte fast path (std's buffered 1-byte reads measured ~3×
    // slower than over a plain slice).
    #[inline(never)]
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let remaining = self.remaining();
        let n = if buf.is_empty() || remaining == 0 {
            0
        } else {
            match self.chunker.next_limit() {
                0 => {
                    self.probe.record(0, false);
                    return Err(io::Error::from(io::ErrorKind::Interrupted));
                }
                limit => buf.len().min(remaining).min(limit),
            }
        };
        // Only the counted pass reads a `Source`: the timed pass reads a
        // `Stream`, whose copy is the plain program's (`crate::bench::plain`).
        copy(&mut buf[..n], &self.data[self.pos..self.pos + n]);
        self.pos += n;
        let (lo, hi) = self.reader_buffer;
        let at = buf.as_ptr() as usize;
        let direct = !(lo <= at && at < hi);
        self.probe.record(n, direct);
        Ok(n)
    }
}

impl ObservedRead for Source<'_> {
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

impl<C: Limit, Tag> Read for Stream<'_, C, Tag> {
    #[inline]
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let remaining = self.data.len() - self.pos;
        let n = if buf.is_empty() || remaining == 0 {
            0
        } else {
            let limit = self.chunks.next_limit();
            if C::INTERRUPTS && limit == 0 {
                return Err(io::Error::from(io::ErrorKind::Interrupted));
            }
            buf.len().min(remaining).min(limit)
        };
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
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
    fn counting_bytes_wrap_at_256() {
        let d = counting_bytes(300);
        assert_eq!(d[255], 255);
        assert_eq!(d[256], 0);
        assert_eq!(d[299], 43);
    }
}
