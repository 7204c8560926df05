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
use serde::{Deserialize, Serialize};

use crate::source::SplitMix64;

/// The cursor flavours a person can compare (the `wf` link key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flavour {
    /// `std::io::Cursor<Vec<u8>>`.
    CursorVec,
    /// `std::io::Cursor<&mut Vec<u8>>`.
    CursorMutVec,
    /// [`WriterVec`], a minimal growable writer of our own.
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

/// Whether earlier bytes can be reached again to be rewritten.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seekable {
    /// The type implements `std::io::Seek`: seek back, write over.
    Seek,
    /// No `io::Seek`, but the written bytes can be overwritten by index
    /// (`BytesMut` derefs to `&mut [u8]`) or truncated and written again.
    ByIndex,
    /// Neither: once written, bytes are behind the writer.
    No,
}

/// What the page and the CLI say about a flavour. The qualities are seed
/// 004's; `tests/writers.rs` checks each one against the real type.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct FlavourInfo {
    pub id: Flavour,
    /// The Rust type, as written in code.
    pub label: &'static str,
    pub about: &'static str,
    /// Several handles can share one allocation (an internal reference count).
    pub refcounted: bool,
    /// Writing past the end grows the buffer instead of failing.
    pub growable: bool,
    pub seekable: Seekable,
    /// Seed 004's published time to serialize 2048 16-byte records into
    /// 32 KiB (Criterion, the author's laptop), in µs. A published figure,
    /// not a measurement of ours.
    pub seed_us: u32,
}

/// Every flavour, in seed 004's order (slowest first in its table).
pub const FLAVOURS: [FlavourInfo; 7] = [
    FlavourInfo {
        id: Flavour::CursorVec,
        label: "Cursor<Vec<u8>>",
        about: "std's Cursor owning a Vec: grows as needed and can seek back and overwrite. \
                Each write checks the position against the length and may pad a gap with zeros.",
        refcounted: false,
        growable: true,
        seekable: Seekable::Seek,
        seed_us: 102,
    },
    FlavourInfo {
        id: Flavour::CursorMutVec,
        label: "Cursor<&mut Vec<u8>>",
        about: "The same Cursor over a borrowed Vec: it behaves exactly like Cursor<Vec<u8>>, \
                and the caller keeps the Vec.",
        refcounted: false,
        growable: true,
        seekable: Seekable::Seek,
        seed_us: 98,
    },
    FlavourInfo {
        id: Flavour::WriterVec,
        label: "WriterVec",
        about: "A dozen lines of our own: a Vec that appends on every write. Growable, \
                but it has no position, so it cannot seek.",
        refcounted: false,
        growable: true,
        seekable: Seekable::No,
        seed_us: 66,
    },
    FlavourInfo {
        id: Flavour::BytesMut,
        label: "BytesMut",
        about: "bytes::BytesMut written through BufMut::writer(): reference-counted storage \
                that can be split into non-overlapping handles; grows, and written bytes can be \
                overwritten by index (it has no io::Seek).",
        refcounted: true,
        growable: true,
        seekable: Seekable::ByIndex,
        seed_us: 45,
    },
    FlavourInfo {
        id: Flavour::CursorMutSlice,
        label: "Cursor<&mut [u8]>",
        about: "std's Cursor over a borrowed fixed slice: seekable, never grows; writing at the \
                end returns 0, which write_all turns into a WriteZero error.",
        refcounted: false,
        growable: false,
        seekable: Seekable::Seek,
        seed_us: 37,
    },
    FlavourInfo {
        id: Flavour::CursorBox,
        label: "Cursor<Box<[u8]>>",
        about: "std's Cursor owning a fixed boxed slice: like Cursor<&mut [u8]>, but it owns \
                its buffer.",
        refcounted: false,
        growable: false,
        seekable: Seekable::Seek,
        seed_us: 37,
    },
    FlavourInfo {
        id: Flavour::MutSlice,
        label: "&mut [u8]",
        about: "The slice is its own cursor: each write copies and moves the slice's start \
                forward. Neither growable nor seekable; the written bytes are behind it.",
        refcounted: false,
        growable: false,
        seekable: Seekable::No,
        seed_us: 28,
    },
];

impl Flavour {
    pub fn id(self) -> &'static str {
        match self {
            Flavour::CursorVec => "cursor_vec",
            Flavour::CursorMutVec => "cursor_mut_vec",
            Flavour::WriterVec => "writer_vec",
            Flavour::BytesMut => "bytes_mut",
            Flavour::CursorMutSlice => "cursor_mut_slice",
            Flavour::CursorBox => "cursor_box",
            Flavour::MutSlice => "mut_slice",
        }
    }

    pub fn from_id(id: &str) -> Option<Flavour> {
        FLAVOURS.iter().map(|f| f.id).find(|f| f.id() == id)
    }

    pub fn info(self) -> &'static FlavourInfo {
        FLAVOURS.iter().find(|f| f.id == self).expect("every flavour is listed in FLAVOURS")
    }

    /// Every flavour, in the table's order.
    pub fn all() -> Vec<Flavour> {
        FLAVOURS.iter().map(|f| f.id).collect()
    }
}

// ---------------------------------------------------------------------------
// The workload

/// Seed 004's record: five integers, 16 bytes once encoded with fixed-width
/// integers (8 + 4 + 1 + 1 + 2).
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

/// How a run that did not finish ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteFailure {
    /// `io::ErrorKind` in Rust's spelling, e.g. `WriteZero`.
    pub kind: String,
    /// The error's own message, e.g. "failed to write whole buffer".
    pub message: String,
    /// Bytes in the buffer when the error came.
    pub bytes_written: u64,
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
pub fn serialize(
    flavour: Flavour,
    records: &[Record],
    sizes: Sizes,
    out: &mut impl FnMut(&[u8]),
) -> Result<u64, Stopped> {
    // Monomorphised per type, as in seed 004's benchmark: a `dyn Write` would
    // add an indirect call to each of the five writes per record.
    match flavour {
        Flavour::CursorVec => {
            let mut c = Cursor::new(Vec::with_capacity(sizes.init_cap));
            let done = encode_all(&mut c, records);
            finish(done, c.position(), c.get_ref(), out)
        }
        Flavour::CursorMutVec => {
            let mut v = Vec::with_capacity(sizes.init_cap);
            let mut c = Cursor::new(&mut v);
            let done = encode_all(&mut c, records);
            let pos = c.position();
            finish(done, pos, &v, out)
        }
        Flavour::WriterVec => {
            let mut w = WriterVec::with_capacity(sizes.init_cap);
            let done = encode_all(&mut w, records);
            let v = w.into_inner();
            finish(done, v.len() as u64, &v, out)
        }
        Flavour::BytesMut => {
            let mut w = BytesMut::with_capacity(sizes.init_cap).writer();
            let done = encode_all(&mut w, records);
            let b = w.into_inner();
            finish(done, b.len() as u64, &b, out)
        }
        Flavour::CursorMutSlice => {
            let mut storage = vec![0u8; sizes.buf];
            let mut c = Cursor::new(&mut storage[..]);
            let done = encode_all(&mut c, records);
            let pos = c.position();
            finish(done, pos, &storage, out)
        }
        Flavour::CursorBox => {
            let mut c = Cursor::new(vec![0u8; sizes.buf].into_boxed_slice());
            let done = encode_all(&mut c, records);
            finish(done, c.position(), c.get_ref(), out)
        }
        Flavour::MutSlice => {
            let mut storage = vec![0u8; sizes.buf];
            let mut rest: &mut [u8] = &mut storage;
            let done = encode_all(&mut rest, records);
            let written = sizes.buf - rest.len();
            finish(done, written as u64, &storage, out)
        }
    }
}

fn finish(done: io::Result<()>, pos: u64, buf: &[u8], out: &mut impl FnMut(&[u8])) -> Result<u64, Stopped> {
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
    fn flavour_ids_round_trip_and_are_unique() {
        for info in FLAVOURS {
            assert_eq!(Flavour::from_id(info.id.id()), Some(info.id));
            assert_eq!(info.id.info().label, info.label);
            let json = serde_json::to_string(&info.id).unwrap();
            assert_eq!(json, format!("\"{}\"", info.id.id()), "serde and link ids agree");
        }
        assert_eq!(Flavour::from_id("nope"), None);
    }

    #[test]
    fn records_are_fixed_content() {
        assert_eq!(records(3), records(3));
        assert_eq!(records(5)[..3], records(3)[..]);
        assert_ne!(records(2)[0], records(2)[1]);
    }
}
