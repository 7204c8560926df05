//! Seven in-memory writers ("cursors") that `std::io::Write` can serialize
//! into, and the record workload that seed 004 runs through them.
//!
//! Every flavour is the real type, driven by the real serializer (serde +
//! bincode 1, fixed-width big-endian integers); nothing here imitates a type's
//! behaviour. What must stay true:
//! - every flavour that finishes holds exactly the bytes of [`encode_by_hand`]
//!   (the correctness check the page shows, and the property tests);
//! - a fixed flavour whose buffer is too small ends with an `io::Error` of kind
//!   `WriteZero`, reported as a [`WriteFailure`], never a panic;
//! - each run creates its own buffer (as seed 004's benchmark does), so its
//!   allocation, and for growable flavours its growth, is part of the run.

use std::io::{self, Cursor, ErrorKind, Write};

use bincode::Options;
use bytes::{BufMut, BytesMut};

use crate::engine::source::SplitMix64;
use crate::model::{Flavour, Record, WriteFailure, RECORD_BYTES};

// ---------------------------------------------------------------------------
// The workload

/// The records a run serializes. Fixed content (a SplitMix64 stream from a
/// constant), so every flavour, platform and run writes the same bytes.
pub fn records(n: usize) -> Vec<Record> {
    let mut rng = SplitMix64::new(0x5EED_0004);
    (0..n)
        .map(|_| {
            let bits = rng.next_u64();
            Record {
                timestamp: rng.next_u64(),
                value: bits as u32,
                kind: (bits >> 32) as u8,
                urgent: (bits >> 40) & 1 == 1,
                channel: (bits >> 48) as u16,
            }
        })
        .collect()
}

/// bincode 1 as seed 004 configures it: fixed-width big-endian integers, no
/// size limit.
pub fn options() -> impl Options + Copy {
    bincode::DefaultOptions::new().with_big_endian().with_fixint_encoding()
}

/// The bytes every flavour must produce, written out field by field without
/// serde or bincode: the independent reference for the identical-bytes check.
pub fn encode_by_hand(records: &[Record], out: &mut impl FnMut(&[u8])) {
    for r in records {
        let mut b = [0u8; RECORD_BYTES as usize];
        b[0..8].copy_from_slice(&r.timestamp.to_be_bytes());
        b[8..12].copy_from_slice(&r.value.to_be_bytes());
        b[12] = r.kind;
        b[13] = u8::from(r.urgent);
        b[14..16].copy_from_slice(&r.channel.to_be_bytes());
        out(&b);
    }
}

/// Serializes every record, one `serialize_into` call each (as seed 004 does),
/// and stops at the first error.
pub fn encode_all<W: Write>(w: &mut W, records: &[Record]) -> io::Result<()> {
    let opts = options();
    for r in records {
        opts.serialize_into(&mut *w, r).map_err(into_io)?;
    }
    Ok(())
}

// `bincode::Error` is a boxed `ErrorKind`; `map_err` hands it over as it is.
#[allow(clippy::boxed_local)]
fn into_io(e: bincode::Error) -> io::Error {
    match *e {
        bincode::ErrorKind::Io(e) => e,
        other => io::Error::new(ErrorKind::InvalidData, other.to_string()),
    }
}

// ---------------------------------------------------------------------------
// WriterVec

/// Seed 004's idea of a minimal growable writer: a `Vec` that appends. No
/// position, so no seeking; `write` never writes less than it is given.
#[derive(Debug, Default)]
pub struct WriterVec(Vec<u8>);

impl WriterVec {
    pub fn new() -> Self {
        WriterVec(Vec::new())
    }

    pub fn with_capacity(n: usize) -> Self {
        WriterVec(Vec::with_capacity(n))
    }

    pub fn into_inner(self) -> Vec<u8> {
        self.0
    }
}

impl Write for WriterVec {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// One run

/// Buffer sizes for one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Capacity the growable flavours start with (0: no allocation up front).
    pub init_cap: usize,
    /// Length of the fixed flavours' buffer.
    pub buf: usize,
}

/// A run that stopped early, as the writer left it: the error and how far
/// it got. Turned into a [`WriteFailure`] outside the measured run, so the
/// report's strings are not counted as the run's allocations.
#[derive(Debug)]
pub struct Stopped {
    pub error: io::Error,
    pub bytes_written: u64,
}

impl From<&Stopped> for WriteFailure {
    fn from(s: &Stopped) -> Self {
        WriteFailure { kind: format!("{:?}", s.error.kind()), message: s.error.to_string(), bytes_written: s.bytes_written }
    }
}

/// Serializes `records` through a fresh writer of `flavour` and hands the
/// bytes it holds to `out` before the buffer is dropped (the digest in a
/// verified run, `black_box` in a timed one). Returns the bytes written.
pub fn serialize<F: FnMut(&[u8])>(flavour: Flavour, records: &[Record], sizes: Sizes, out: &mut F) -> Result<u64, Stopped> {
    // Monomorphised per type, as in the article's benchmark: a `dyn Write`
    // would add an indirect call to each of the five writes per record. Each
    // flavour is a function of its own, never inlined here, so it compiles
    // as it would in a program that uses that one writer, not as one shared
    // body.
    match flavour {
        Flavour::CursorVec => cursor_vec(records, sizes, out),
        Flavour::CursorMutVec => cursor_mut_vec(records, sizes, out),
        Flavour::WriterVec => writer_vec(records, sizes, out),
        Flavour::BytesMut => bytes_mut(records, sizes, out),
        Flavour::CursorMutSlice => cursor_mut_slice(records, sizes, out),
        Flavour::CursorBox => cursor_box(records, sizes, out),
        Flavour::MutSlice => mut_slice(records, sizes, out),
    }
}

#[inline(never)]
fn cursor_vec<F: FnMut(&[u8])>(records: &[Record], sizes: Sizes, out: &mut F) -> Result<u64, Stopped> {
    let mut c = Cursor::new(Vec::with_capacity(sizes.init_cap));
    let done = encode_all(&mut c, records);
    finish(done, c.position(), c.get_ref(), out)
}

#[inline(never)]
fn cursor_mut_vec<F: FnMut(&[u8])>(records: &[Record], sizes: Sizes, out: &mut F) -> Result<u64, Stopped> {
    let mut v = Vec::with_capacity(sizes.init_cap);
    let mut c = Cursor::new(&mut v);
    let done = encode_all(&mut c, records);
    let pos = c.position();
    finish(done, pos, &v, out)
}

#[inline(never)]
fn writer_vec<F: FnMut(&[u8])>(records: &[Record], sizes: Sizes, out: &mut F) -> Result<u64, Stopped> {
    let mut w = WriterVec::with_capacity(sizes.init_cap);
    let done = encode_all(&mut w, records);
    let v = w.into_inner();
    finish(done, v.len() as u64, &v, out)
}

#[inline(never)]
fn bytes_mut<F: FnMut(&[u8])>(records: &[Record], sizes: Sizes, out: &mut F) -> Result<u64, Stopped> {
    let mut w = BytesMut::with_capacity(sizes.init_cap).writer();
    let done = encode_all(&mut w, records);
    let b = w.into_inner();
    finish(done, b.len() as u64, &b, out)
}

#[inline(never)]
fn cursor_mut_slice<F: FnMut(&[u8])>(records: &[Record], sizes: Sizes, out: &mut F) -> Result<u64, Stopped> {
    let mut storage = vec![0u8; sizes.buf];
    let mut c = Cursor::new(&mut storage[..]);
    let done = encode_all(&mut c, records);
    let pos = c.position();
    finish(done, pos, &storage, out)
}

#[inline(never)]
fn cursor_box<F: FnMut(&[u8])>(records: &[Record], sizes: Sizes, out: &mut F) -> Result<u64, Stopped> {
    let mut c = Cursor::new(vec![0u8; sizes.buf].into_boxed_slice());
    let done = encode_all(&mut c, records);
    finish(done, c.position(), c.get_ref(), out)
}

#[inline(never)]
fn mut_slice<F: FnMut(&[u8])>(records: &[Record], sizes: Sizes, out: &mut F) -> Result<u64, Stopped> {
    let mut storage = vec![0u8; sizes.buf];
    let mut rest: &mut [u8] = &mut storage;
    let done = encode_all(&mut rest, records);
    let written = sizes.buf - rest.len();
    finish(done, written as u64, &storage, out)
}

fn finish<F: FnMut(&[u8])>(done: io::Result<()>, pos: u64, buf: &[u8], out: &mut F) -> Result<u64, Stopped> {
    match done {
        Ok(()) => {
            out(&buf[..pos as usize]);
            Ok(pos)
        }
        Err(error) => Err(Stopped { error, bytes_written: pos }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_encodes_to_16_big_endian_bytes() {
        let r = Record { timestamp: 0x0102_0304_0506_0708, value: 0x090A_0B0C, kind: 0x0D, urgent: true, channel: 0x0E0F };
        let bytes = options().serialize(&r).unwrap();
        assert_eq!(bytes, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 14, 15]);
        let mut by_hand = Vec::new();
        encode_by_hand(&[r], &mut |b| by_hand.extend_from_slice(b));
        assert_eq!(by_hand, bytes);
        assert_eq!(options().serialized_size(&r).unwrap(), RECORD_BYTES);
    }

    #[test]
    fn records_are_fixed_content() {
        assert_eq!(records(3), records(3));
        assert_eq!(records(5)[..3], records(3)[..]);
        assert_ne!(records(2)[0], records(2)[1]);
    }
}
