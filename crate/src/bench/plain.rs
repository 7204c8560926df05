//! Plain programs: what a person writes with std (and bytes, serde, bincode)
//! for each cross-checked scenario, with no BufLab type in the loop but the
//! chained reader, which is BufLab's own and has no std equivalent. They are
//! the referee for BufLab's timed pass: `crate/benches/crosscheck.rs` times
//! both with Criterion natively, and the benchmark suite times both in
//! WebAssembly.
//!
//! Each program consumes what it reads as BufLab's timed pass does (a
//! running sum of every read's length and first byte), so the two sides
//! differ only by BufLab's harness.
//!
//! The chunked source and sink here are written out on purpose instead of
//! taken from the engine: the same cuts (SplitMix64 draws, multiply-shift to
//! a range), by independent code, as a test double in a user's project
//! would be. `tests` checks that they cut and deliver exactly what BufLab's
//! source does.

use std::io::{self, BufRead, BufReader, BufWriter, Cursor, ErrorKind, Read, Write};
use std::num::NonZeroUsize;

use bincode::Options;
use bytes::{BufMut, BytesMut};
use serde::Serialize;

use crate::engine::readers::chained::{BlockPool, ChainedReader};

/// A network-like in-memory stream: each `read` returns at most the next
/// chunk size, drawn from `min..=max` with SplitMix64 seeded by `seed`.
pub struct Chunked<'a> {
    data: &'a [u8],
    pos: usize,
    min: usize,
    span: u64,
    state: u64,
}

impl<'a> Chunked<'a> {
    pub fn new(data: &'a [u8], min: usize, max: usize, seed: u64) -> Self {
        Chunked { data, pos: 0, min, span: (max - min + 1) as u64, state: seed }
    }

    fn next_chunk(&mut self) -> usize {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // Multiply-shift into the range. WebAssembly has no 64 × 64 → 128-bit
        // multiply (a `u128` product is a call of a software 128-bit
        // multiply), so there the high half comes from `z`'s 32-bit halves,
        // the same bits for a span below 2^32, as BufLab's source draws them.
        let span = self.span;
        let high = if cfg!(target_arch = "wasm32") && span <= u64::from(u32::MAX) {
            ((z >> 32) * span + (((z & u64::from(u32::MAX)) * span) >> 32)) >> 32
        } else {
            ((u128::from(z) * u128::from(span)) >> 64) as u64
        };
        self.min + high as usize
    }
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.data.len() - self.pos;
        if buf.is_empty() || left == 0 {
            return Ok(0);
        }
        let n = buf.len().min(left).min(self.next_chunk());
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// `read` calls into a buffer of `rs` bytes until one returns 0, the loop
/// the code panel shows for `wl=fixed`, over any reader.
fn reads<R: Read>(mut reader: R, rs: usize) -> u64 {
    let mut buf = vec![0u8; rs];
    let mut sum = 0u64;
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return sum,
            Ok(n) => sum = sum.wrapping_add(n as u64 + u64::from(buf[0])),
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => panic!("in memory: {e}"),
        }
    }
}

/// Reads of `rs` bytes through a `BufReader` of `cap` bytes.
pub fn reads_buffered(data: &[u8], cap: usize, rs: usize, min: usize, max: usize) -> u64 {
    reads(BufReader::with_capacity(cap, Chunked::new(data, min, max, 42)), rs)
}

/// Reads of `rs` bytes straight from the stream.
pub fn reads_unbuffered(data: &[u8], rs: usize, min: usize, max: usize) -> u64 {
    reads(Chunked::new(data, min, max, 42), rs)
}

/// Text lines with `read_until`.
pub fn lines_buffered(data: &[u8], cap: usize, min: usize, max: usize) -> u64 {
    let mut reader = BufReader::with_capacity(cap, Chunked::new(data, min, max, 42));
    let mut line = Vec::new();
    let mut sum = 0u64;
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).expect("in memory");
        if n == 0 {
            return sum;
        }
        sum = sum.wrapping_add(n as u64 + u64::from(line[0]));
    }
}

/// Length-prefixed frames through a `BufReader`: `fill_buf` to see whether
/// another frame starts, `read_exact` for the 4-byte header, a `Vec` per
/// payload.
pub fn frames_buffered(data: &[u8], cap: usize, min: usize, max: usize) -> u64 {
    let mut reader = BufReader::with_capacity(cap, Chunked::new(data, min, max, 42));
    let mut sum = 0u64;
    while !reader.fill_buf().expect("in memory").is_empty() {
        let mut header = [0u8; 4];
        reader.read_exact(&mut header).expect("a whole header");
        let mut payload = vec![0u8; u32::from_be_bytes(header) as usize];
        reader.read_exact(&mut payload).expect("a whole payload");
        sum = sum.wrapping_add(payload.len() as u64 + payload.first().map_or(0, |&b| u64::from(b)));
    }
    sum
}

/// The same frames through BufLab's chained reader used directly: `read_be`
/// for the header, `read_range` lending the payload.
pub fn frames_chained(data: &[u8], cap: usize, min: usize, max: usize) -> u64 {
    let pool = BlockPool::new(NonZeroUsize::new(cap).expect("a block of at least 1 byte"), true);
    let mut reader = ChainedReader::new(Chunked::new(data, min, max, 42), &pool);
    let mut sum = 0u64;
    while !reader.fill_buf().expect("in memory").is_empty() {
        let n = reader.read_be(4).expect("a whole header") as usize;
        reader.read_range(n, |piece| sum = sum.wrapping_add(piece.len() as u64 + u64::from(piece[0]))).expect("a whole payload");
    }
    sum
}

/// The bytes before the first NUL, scanning the buffer in place.
pub fn nul_scan(data: &[u8], cap: usize, min: usize, max: usize) -> u64 {
    let mut reader = BufReader::with_capacity(cap, Chunked::new(data, min, max, 42));
    let mut sum = 0u64;
    loop {
        let available = reader.fill_buf().expect("in memory");
        if available.is_empty() {
            return sum;
        }
        let n = available.len();
        let end = memchr::memchr(0, available);
        let before = &available[..end.unwrap_or(n)];
        if !before.is_empty() {
            sum = sum.wrapping_add(before.len() as u64 + u64::from(before[0]));
        }
        if end.is_some() {
            return sum;
        }
        reader.consume(n);
    }
}

/// A sink that accepts at most `chunk` bytes per `write` and keeps a sum.
pub struct ChunkedSink {
    chunk: usize,
    sum: u64,
}

impl Write for ChunkedSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = buf.len().min(self.chunk);
        if n > 0 {
            self.sum = self.sum.wrapping_add(n as u64 + u64::from(buf[0]));
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `data` written `ws` bytes at a time through a `BufWriter` of `cap` bytes
/// into a sink taking at most `chunk` bytes per call.
pub fn buffered_writes(data: &[u8], ws: usize, cap: usize, chunk: usize) -> u64 {
    let mut w = BufWriter::with_capacity(cap, ChunkedSink { chunk, sum: 0 });
    for piece in data.chunks(ws) {
        w.write_all(piece).expect("the sink takes everything");
    }
    w.flush().expect("the sink takes everything");
    w.get_ref().sum
}

/// The record the cursor scenarios serialize (8 + 4 + 1 + 1 + 2 bytes).
#[derive(Serialize, Clone, Copy)]
pub struct Record {
    pub timestamp: u64,
    pub value: u32,
    pub kind: u8,
    pub urgent: bool,
    pub channel: u16,
}

/// `n` records with varied fields.
pub fn records(n: u64) -> Vec<Record> {
    (0..n)
        .map(|i| Record { timestamp: i * 7919, value: i as u32 ^ 0xA5A5, kind: i as u8, urgent: i % 3 == 0, channel: i as u16 })
        .collect()
}

fn encode_all<W: Write>(mut w: W, records: &[Record]) -> io::Result<()> {
    let opts = bincode::DefaultOptions::new().with_big_endian().with_fixint_encoding();
    for r in records {
        opts.serialize_into(&mut w, r).map_err(|e| match *e {
            bincode::ErrorKind::Io(e) => e,
            other => io::Error::new(ErrorKind::InvalidData, other.to_string()),
        })?;
    }
    Ok(())
}

/// A minimal growable writer of one's own: a `Vec` that appends.
struct WriterVec(Vec<u8>);

impl Write for WriterVec {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The seven cursors, each as a program that uses only that one writes it:
/// serialize every record, return the bytes written. `cap` is the growable
/// writers' starting capacity and the fixed ones' length.
pub const CURSORS: [(&str, fn(&[Record], usize) -> u64); 7] = [
    ("cursor_vec", |recs, cap| {
        let mut c = Cursor::new(Vec::with_capacity(cap));
        encode_all(&mut c, recs).expect("grows");
        c.position()
    }),
    ("cursor_mut_vec", |recs, cap| {
        let mut v = Vec::with_capacity(cap);
        encode_all(Cursor::new(&mut v), recs).expect("grows");
        v.len() as u64
    }),
    ("writer_vec", |recs, cap| {
        let mut w = WriterVec(Vec::with_capacity(cap));
        encode_all(&mut w, recs).expect("grows");
        w.0.len() as u64
    }),
    ("bytes_mut", |recs, cap| {
        let mut w = BytesMut::with_capacity(cap).writer();
        encode_all(&mut w, recs).expect("grows");
        w.into_inner().len() as u64
    }),
    ("cursor_mut_slice", |recs, cap| {
        let mut storage = vec![0u8; cap];
        let mut c = Cursor::new(&mut storage[..]);
        encode_all(&mut c, recs).expect("fits");
        c.position()
    }),
    ("cursor_box", |recs, cap| {
        let mut c = Cursor::new(vec![0u8; cap].into_boxed_slice());
        encode_all(&mut c, recs).expect("fits");
        c.position()
    }),
    ("mut_slice", |recs, cap| {
        let mut storage = vec![0u8; cap];
        let mut rest: &mut [u8] = &mut storage;
        encode_all(&mut rest, recs).expect("fits");
        (cap - rest.len()) as u64
    }),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::source::{counting_bytes, Probe, Source};
    use crate::model::ChunkModel;

    #[test]
    fn the_plain_stream_cuts_as_the_engines_source_does() {
        let data = counting_bytes(100_000);
        let probe = Probe::default();
        let mut engine = Source::new(&data, ChunkModel::Uniform { min: 64, max: 512 }, 42, &probe);
        let mut plain = Chunked::new(&data, 64, 512, 42);
        let (mut a, mut b) = ([0u8; 1024], [0u8; 1024]);
        loop {
            let (n, m) = (engine.read(&mut a).unwrap(), plain.read(&mut b).unwrap());
            assert_eq!((n, &a[..n]), (m, &b[..m]));
            if n == 0 {
                break;
            }
        }
    }

    #[test]
    fn every_cursor_writes_every_record() {
        let recs = records(100);
        for (name, f) in CURSORS {
            assert_eq!(f(&recs, 1600), 1600, "{name}");
        }
    }
}
