//! What the page says about the write lab: the cursor flavours with the
//! write-cursor article's qualities and published times, the sink's two ways
//! to write, and the final flush's endings. `tests/writers.rs` checks each
//! quality against the real type.

use serde::Serialize;

use crate::model::{Ending, Flavour, WriteMode};

/// Whether earlier bytes can be reached again to be rewritten.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
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
#[cfg_attr(test, derive(ts_rs::TS))]
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
    /// The write-cursor article's published time to serialize 2048 16-byte records into
    /// 32 KiB (Criterion, the author's laptop), in µs. A published figure,
    /// not a measurement of ours.
    pub seed_us: u32,
}

/// Every flavour, in the write-cursor article's order (slowest first in its table).
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

/// Why today's times do not follow the write-cursor article's order (its
/// slice cursors fastest, Cursor<Vec<u8>> slowest), found in the generated
/// code natively (callgrind, `crate/examples/insns.rs`);
/// `tests/cursor_insns.rs` measures the instructions per record and the
/// memcpy calls and pins what this says. The page shows it beside the
/// article's table.
pub const ARTICLE_ORDER: &str = "Why today's order differs from the article's: a growable writer copies each field \
     with a length the compiler knows, so the copy is inlined as a store, while a slice writer copies \
     min(field, room left), a length known only at run time, so each of a record's five fields is a call \
     to memcpy, about 4× WriterVec's instructions per record natively. Cursor<Vec<u8>> inlines its copies \
     too, but its position bookkeeping on every write costs about twice WriterVec's instructions.";

#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WriteModeInfo {
    pub id: WriteMode,
    pub label: &'static str,
    pub about: &'static str,
}

/// Both modes, in the order shown.
pub const WRITE_MODES: [WriteModeInfo; 2] = [
    WriteModeInfo {
        id: WriteMode::Direct,
        label: "direct writes",
        about: "Each write_all goes straight to the sink: at least one system call per write.",
    },
    WriteModeInfo {
        id: WriteMode::BufWriter,
        label: "std BufWriter",
        about: "std::io::BufWriter collects writes in its buffer and hands the sink a full buffer \
                at a time; writes at least as large as the buffer pass straight through.",
    },
];

#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EndingInfo {
    pub id: Ending,
    pub label: &'static str,
    pub about: &'static str,
}

pub const ENDINGS: [EndingInfo; 4] = [
    EndingInfo {
        id: Ending::Direct,
        label: "direct writes",
        about: "No buffer: the write_all that carries the last byte returns the error.",
    },
    EndingInfo {
        id: Ending::Dropped,
        label: "BufWriter, dropped",
        about: "The BufWriter goes out of scope unflushed; its Drop flushes and must ignore the error.",
    },
    EndingInfo {
        id: Ending::Flush,
        label: "BufWriter, flush()",
        about: "An explicit flush() at the end returns the error.",
    },
    EndingInfo {
        id: Ending::IntoInner,
        label: "BufWriter, into_inner()",
        about: "into_inner() flushes and returns the error (with the writer, to retry).",
    },
];


/// What the page says about `f`.
pub fn flavour(f: Flavour) -> &'static FlavourInfo {
    FLAVOURS.iter().find(|i| i.id == f).expect("every flavour is listed in FLAVOURS")
}

/// What the page says about `m`.
pub fn write_mode(m: WriteMode) -> &'static WriteModeInfo {
    WRITE_MODES.iter().find(|i| i.id == m).expect("every mode is listed in WRITE_MODES")
}

/// What the page says about `e`.
pub fn ending(e: Ending) -> &'static EndingInfo {
    ENDINGS.iter().find(|i| i.id == e).expect("every ending is listed in ENDINGS")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Id;

    #[test]
    fn every_choice_is_listed_once_in_declaration_order() {
        assert_eq!(FLAVOURS.iter().map(|f| f.id).collect::<Vec<_>>(), Flavour::all());
        assert_eq!(WRITE_MODES.iter().map(|m| m.id).collect::<Vec<_>>(), WriteMode::all());
        assert_eq!(ENDINGS.iter().map(|e| e.id).collect::<Vec<_>>(), Ending::all());
        assert_eq!(flavour(Flavour::BytesMut).label, "BytesMut");
    }
}
