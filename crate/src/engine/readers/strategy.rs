//! What every reader is, as the rest of BufLab sees it: the [`Strategy`] a
//! reader's module implements, and the words, settings and counts it hands
//! over. The readers and the dispatch over them (`mod.rs`) build on this;
//! it knows none of them.

use std::io;

use serde::Serialize;

use crate::engine::source::ObservedRead;
use crate::engine::workload::AppReader;
use crate::model::{BlockCounts, Params, ReaderKind, Shape, Workload};

/// What the page and the CLI say about a reader.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReaderInfo {
    pub id: ReaderKind,
    pub label: &'static str,
    pub about: &'static str,
    /// The link keys (= `Params` fields) that configure this reader; the
    /// page shows those settings only while such a reader is chosen.
    pub keys: &'static [&'static str],
    /// What its buffer looks like (the buffer timeline draws it so).
    pub shape: Shape,
}

/// Where a reader's algorithm differs from std's `BufReader` over the same
/// chunks, in one sentence the page shows when that workload runs (a test of
/// the reader's pins the figures the sentence quotes).
#[derive(Clone, Copy, Debug)]
pub struct Difference {
    pub workload: Workload,
    pub text: &'static str,
}

/// A [`Difference`] with the reader it belongs to, as the schema lists them.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReaderDifference {
    pub reader: ReaderKind,
    pub workload: Workload,
    pub text: &'static str,
}

/// What the buffer timeline may look at between operations.
#[derive(Debug)]
pub enum Look<'a> {
    /// No buffer.
    Nothing,
    /// A single buffer's unread bytes (their address places them in the
    /// buffer, which the source was told about).
    Unread(&'a [u8]),
    /// The blocks, in stream order: each block's address (its identity: a
    /// pooled block comes back with the same one) and its unread range.
    Blocks(Vec<(usize, usize, usize)>),
}

/// How the buffered readers are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReaderConfig {
    /// Buffer capacity (or block length), in bytes.
    pub cap: usize,
    /// The chained reader's block pool is on.
    pub pool: bool,
}

impl ReaderConfig {
    pub fn of(p: &Params) -> ReaderConfig {
        ReaderConfig { cap: p.cap as usize, pool: p.pool }
    }
}

/// The generated program's part for one reader (see `catalog::snippet`).
#[derive(Clone, Copy, Debug)]
pub struct SnippetPart {
    /// Items the program imports from `std::io` for this reader.
    pub imports: &'static [&'static str],
    /// It is a `BufRead`: the program gives it a workload's buffered loop
    /// where the workload has one.
    pub buffered: bool,
    /// Not a std type: it only appears in comments, so the program still
    /// compiles with std alone.
    pub described_only: bool,
    /// The program needs the `CAP` constant.
    pub uses_cap: bool,
}

/// The generated program's part for an async reader: the workload's loop as
/// an `async fn` in a module of its own, over the library's traits.
#[derive(Clone, Copy, Debug)]
pub struct AsyncSnippet {
    /// The module holding the loop (`app`) and, if the reader needs one, its
    /// async `open`.
    pub module: &'static str,
    /// The path of the library's io module (`AsyncRead`, `AsyncBufReadExt`, …).
    pub traits: &'static str,
    /// How that library spells `consume` on an `Unpin` reader.
    pub consume: &'static str,
    /// Its line of Cargo.toml's `[dependencies]`.
    pub dependency: &'static str,
    /// The module opens the file or socket itself (the library's own async
    /// types); otherwise `main` wraps the program's std `open()`.
    pub opens_its_own: bool,
}

/// Everything about one reader.
pub trait Strategy {
    const INFO: ReaderInfo;
    const SNIPPET: SnippetPart;

    /// Shared by the readers of all the streams of one run (the chained
    /// reader's block pool); `()` for readers that share nothing.
    type Shared;
    /// The reader over a source of type `S`.
    type Reader<'s, S: ObservedRead + 's>: AppReader
    where
        Self: 's;

    fn shared(config: ReaderConfig) -> io::Result<Self::Shared>;

    /// A reader over `source`. A reader with a buffer of its own tells the
    /// source where it is ([`ObservedRead::set_reader_buffer`]).
    fn build<'s, S: ObservedRead + 's>(shared: &'s Self::Shared, config: ReaderConfig, source: S) -> Self::Reader<'s, S>;

    /// Copies, direct bytes and blocks as the reader counted them itself;
    /// `None` for a black box, whose copies are observed from its source.
    fn counted(_shared: &Self::Shared) -> Option<OwnCounts> {
        None
    }

    /// Polls and `Pending`s of an async reader's futures; `None` for a
    /// blocking reader.
    fn polls(_shared: &Self::Shared) -> Option<Polls> {
        None
    }

    /// Where its algorithms differ from std's `BufReader`, per workload.
    const DIFFERENCES: &'static [Difference] = &[];

    /// An async reader's part of the generated program; `None`: its lines
    /// call the program's blocking loop.
    const ASYNC_SNIPPET: Option<AsyncSnippet> = None;

    /// What the reader holds now, for the buffer timeline (never called on
    /// the measured paths).
    fn look<'r, S: ObservedRead>(reader: &'r Self::Reader<'_, S>) -> Look<'r>;

    /// The lines of the program's `main` that build this reader over
    /// `open()?` and call the workload's function `call` on it.
    fn snippet_main(p: &Params, call: &str) -> String;
}

/// What a reader counted itself: the readers sharing the chained reader's
/// block pool count their copies, the bytes the source wrote straight into
/// the caller's memory, and their blocks (see [`Strategy::counted`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwnCounts {
    pub blocks: BlockCounts,
    /// Bytes copied out of blocks into the caller's memory (`Read::read`,
    /// `read_to_end`, `read_until`). `read_range`, `read_line`, `peek`,
    /// `fill_buf` and the integer reads copy nothing.
    pub bytes_copied: u64,
    /// Bytes the source wrote straight into the caller's memory (reads of a
    /// block or more with nothing buffered, and `read_to_end`).
    pub bytes_direct: u64,
}

/// A run's poll totals for an async reader, as the report gives them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Polls {
    pub polls: u64,
    pub pendings: u64,
}
