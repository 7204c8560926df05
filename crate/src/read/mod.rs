//! Reader strategies: how the application's reads reach the source.
//!
//! Each strategy is a real reader type over the same [`Source`]; nothing here
//! models a reader's behaviour, so every count the page shows is what that
//! type really did.
//!
//! Bytes copied: std's `BufReader` is a black box, observed from outside:
//! its source is told where the reader's buffer is, so every byte the source
//! writes is known to land either there or in the application's memory
//! (the bypass). Whatever the application got in its own memory that the
//! source did not write there directly, the reader copied. The chained
//! reader counts its own copies exactly ([`chained::ChainCounts`]).

pub mod chained;

use std::io::{self, BufReader, Read};
use std::num::NonZeroUsize;

use serde::{Deserialize, Serialize};

use crate::measure::Lanes;
use crate::params::key;
use crate::source::{Probe, Source};
use crate::workload::{self, AppCounts, AppReader, Consume, FrameBuf, Spec, Workload};
use chained::{BlockCounts, BlockPool, ChainedReader};

/// The readers a person can compare (the `rd` link key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReaderKind {
    /// The source itself: every application read is a source read.
    Unbuffered,
    /// `std::io::BufReader::with_capacity(cap, source)`.
    Std,
    /// [`ChainedReader`]: pooled blocks of `cap` bytes, zero-copy ranges.
    Chained,
}

/// What the page and the CLI say about a reader.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ReaderInfo {
    pub id: ReaderKind,
    pub label: &'static str,
    pub about: &'static str,
    /// The link keys (= `Params` fields) that configure this reader; the
    /// page shows those settings only while such a reader is chosen.
    pub keys: &'static [&'static str],
}

/// Every reader, in the order the page lists them.
pub const READERS: [ReaderInfo; 3] = [
    ReaderInfo {
        id: ReaderKind::Unbuffered,
        label: "unbuffered Read",
        about: "Each application read goes straight to the source: one system call per read.",
        keys: &[],
    },
    ReaderInfo {
        id: ReaderKind::Std,
        label: "std BufReader",
        about: "std::io::BufReader fills its buffer with one large source read and hands out \
                copies of it; reads at least as large as the buffer bypass it.",
        keys: &[key::CAP],
    },
    ReaderInfo {
        id: ReaderKind::Chained,
        label: "chained zero-copy",
        about: "Our own reader after seed 002: the source fills a chain of blocks of the buffer \
                capacity, and the application borrows slices of them (read_range, read_line) \
                instead of copying; blocks read through go back to a pool for reuse.",
        keys: &[key::CAP, key::POOL],
    },
];

impl ReaderKind {
    pub fn id(self) -> &'static str {
        match self {
            ReaderKind::Unbuffered => "unbuffered",
            ReaderKind::Std => "std",
            ReaderKind::Chained => "chained",
        }
    }

    pub fn from_id(id: &str) -> Option<ReaderKind> {
        READERS.iter().map(|r| r.id).find(|k| k.id() == id)
    }

    pub fn info(self) -> &'static ReaderInfo {
        READERS.iter().find(|r| r.id == self).expect("every kind is listed in READERS")
    }
}

/// How the buffered readers are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReaderConfig {
    /// Buffer capacity (std) or block length (chained), in bytes.
    pub cap: usize,
    /// The chained reader's block pool is on.
    pub pool: bool,
}

/// One reader's run over all the streams.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Driven {
    pub app: AppCounts,
    /// Bytes moved between buffers inside the reader.
    pub bytes_copied: u64,
    /// Blocks the chained reader took (`None` for the others).
    pub blocks: Option<BlockCounts>,
}

/// Runs `spec` with one reader of `kind` per source (all sharing `probe`),
/// round-robin. `app_buf` is the application's own read buffer, allocated by
/// the caller so it is not charged to the reader; `sinks[i]` gets stream `i`.
pub fn drive_streams<C: Consume>(
    kind: ReaderKind,
    sources: Lanes<Source<'_>>,
    probe: &Probe,
    config: ReaderConfig,
    spec: &Spec,
    app_buf: &mut [u8],
    sinks: &mut [C],
) -> io::Result<Driven> {
    // Monomorphised per reader type: a `dyn Read` would add an indirect call
    // to every 1-byte read and blur the comparison.
    match kind {
        ReaderKind::Unbuffered => {
            let app = workload::drive(spec, sources, app_buf, sinks)?;
            Ok(Driven { app, bytes_copied: observed_copies(&app, probe), blocks: None })
        }
        ReaderKind::Std => {
            let readers = sources.map(|source| {
                let mut reader = BufReader::with_capacity(config.cap, source);
                // Nothing is buffered yet, so `buffer()` starts at the
                // buffer's first byte; the buffer never moves (a boxed slice).
                let start = reader.buffer().as_ptr();
                reader.get_mut().set_reader_buffer(start, config.cap);
                reader
            });
            let app = workload::drive(spec, readers, app_buf, sinks)?;
            Ok(Driven { app, bytes_copied: observed_copies(&app, probe), blocks: None })
        }
        ReaderKind::Chained => {
            let block_len = NonZeroUsize::new(config.cap).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "the chained reader needs blocks of at least 1 byte")
            })?;
            // One pool for all the streams: a block one stream has read
            // through can serve another.
            let pool = BlockPool::new(block_len, config.pool);
            let readers = sources.map(|source| ChainedReader::new(source, &pool));
            let app = workload::drive(spec, readers, app_buf, sinks)?;
            let counts = pool.counts();
            Ok(Driven { app, bytes_copied: counts.bytes_copied, blocks: Some(counts.blocks) })
        }
    }
}

/// Copies of a black-box reader: bytes that reached the application's own
/// memory without the source writing them there.
fn observed_copies(app: &AppCounts, probe: &Probe) -> u64 {
    debug_assert!(app.owned_bytes >= probe.direct_bytes(), "{app:?} direct {}", probe.direct_bytes());
    app.owned_bytes.saturating_sub(probe.direct_bytes())
}

/// Runs `workload` through a reader of `kind` over one `source` (pool on,
/// no payload reuse): the single-stream form of
/// [`drive_streams`]. `app_buf`'s length is the read size.
pub fn drive<C: Consume>(
    kind: ReaderKind,
    source: Source<'_>,
    cap: usize,
    workload: Workload,
    app_buf: &mut [u8],
    sink: &mut C,
) -> io::Result<AppCounts> {
    let probe = source.probe();
    let spec = Spec { workload, rs: app_buf.len(), len: source.remaining(), reuse: false };
    let mut sources = Lanes::with_capacity(1);
    sources.push(source);
    let config = ReaderConfig { cap, pool: true };
    Ok(drive_streams(kind, sources, probe, config, &spec, app_buf, std::slice::from_mut(sink))?.app)
}

// ---------------------------------------------------------------------------
// How each reader serves the application's operations

/// The unbuffered reader can only `read`: the provided methods.
impl AppReader for Source<'_> {}

/// std's `BufReader`: `read_until` for lines, its buffer scanned in place.
impl<R: Read> AppReader for BufReader<R> {
    fn line<C: Consume>(&mut self, line: &mut Vec<u8>, sink: &mut C, counts: &mut AppCounts) -> io::Result<usize> {
        workload::line_with_read_until(self, line, sink, counts)
    }

    fn frame_header(&mut self, counts: &mut AppCounts) -> io::Result<Option<u32>> {
        if !workload::has_more(self, counts)? {
            return Ok(None);
        }
        let mut header = [0u8; 4];
        counts.app_reads += 1;
        self.read_exact(&mut header)?;
        counts.owned_bytes += 4;
        counts.bytes += 4;
        Ok(Some(u32::from_be_bytes(header)))
    }

    fn scan_step<C: Consume>(&mut self, _buf: &mut [u8], sink: &mut C, counts: &mut AppCounts) -> io::Result<bool> {
        workload::scan_in_place(self, sink, counts)
    }
}

/// The chained reader: its zero-copy operations wherever it has one.
impl<R: Read> AppReader for ChainedReader<'_, R> {
    fn line<C: Consume>(&mut self, _line: &mut Vec<u8>, sink: &mut C, counts: &mut AppCounts) -> io::Result<usize> {
        counts.app_reads += 1;
        let n = self.read_line(|piece| sink.take(piece))?;
        counts.bytes += n as u64;
        Ok(n)
    }

    fn frame_header(&mut self, counts: &mut AppCounts) -> io::Result<Option<u32>> {
        if !workload::has_more(self, counts)? {
            return Ok(None);
        }
        counts.app_reads += 1;
        let n = self.read_be(4)?;
        counts.bytes += 4;
        Ok(Some(n))
    }

    fn frame_payload<C: Consume>(
        &mut self,
        n: usize,
        _frame: &mut FrameBuf,
        sink: &mut C,
        counts: &mut AppCounts,
    ) -> io::Result<()> {
        counts.app_reads += 1;
        self.read_range(n, |piece| sink.take(piece))?;
        counts.bytes += n as u64;
        Ok(())
    }

    fn scan_step<C: Consume>(&mut self, _buf: &mut [u8], sink: &mut C, counts: &mut AppCounts) -> io::Result<bool> {
        workload::scan_in_place(self, sink, counts)
    }
}
