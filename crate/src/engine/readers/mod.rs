//! Reader strategies: how the application's reads reach the source.
//!
//! Each strategy is a real reader type over the same source; nothing here
//! models a reader's behaviour, so every count the page shows is what that
//! type really did. One module per reader owns everything about it, through
//! [`Strategy`]: what the page says about it, how it is built over a source,
//! how it serves each workload step ([`AppReader`]), what the buffer timeline
//! may look at, and its part of the generated Rust program. [`visit`] is the
//! one place that turns a [`ReaderKind`] into its strategy's type, so every
//! run is monomorphised per reader, as the user's own program would be.
//!
//! Adding a reader: a module here with a `Strategy` impl, a variant of
//! `ReaderKind` in the model, and its arm in [`visit`]. What only some
//! readers have is a provided item of [`Strategy`] that the others leave as it
//! is: copies counted by the reader itself ([`Strategy::counted`]), polls of
//! an async reader ([`Strategy::polls`]), differences from std's algorithms
//! worth a sentence on the page ([`Strategy::DIFFERENCES`]), an async part of
//! the generated program ([`Strategy::ASYNC_SNIPPET`]).
//!
//! Bytes copied: a black-box reader (std's `BufReader`) is observed from
//! outside: its source is told where the reader's buffer is, so every byte
//! the source writes is known to land either there or in the application's
//! memory (the bypass). Whatever the application got in its own memory that
//! the source did not write there directly, the reader copied. A reader of
//! BufLab's own counts its copies itself ([`Strategy::counted`]).

pub mod bufreader;
pub mod chained;
pub mod futures;
pub mod poll;
pub mod tokio;
pub mod unbuffered;

use std::io;

use serde::Serialize;

use super::measure::Lanes;
use super::source::{ObservedRead, Probe, Source};
use super::workload::{self, AppCounts, AppReader, Consume, Spec};
use crate::model::{BlockCounts, Params, ReaderKind, Shape, Workload};
use chained::ChainCounts;
use poll::Polls;

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
    fn counted(_shared: &Self::Shared) -> Option<ChainCounts> {
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

/// Something to do with a reader's strategy type.
pub trait Visit {
    type Output;
    fn visit<T: Strategy>(self) -> Self::Output;
}

/// Runs `v` with the strategy of `kind`: the one dispatch from a reader's id
/// to its type.
pub fn visit<V: Visit>(kind: ReaderKind, v: V) -> V::Output {
    match kind {
        ReaderKind::Unbuffered => v.visit::<unbuffered::Unbuffered>(),
        ReaderKind::Std => v.visit::<bufreader::Std>(),
        ReaderKind::Chained => v.visit::<chained::Chained>(),
        ReaderKind::Tokio => v.visit::<self::tokio::Tokio>(),
        ReaderKind::Futures => v.visit::<self::futures::Futures>(),
    }
}

/// What the page says about `kind`.
pub fn info(kind: ReaderKind) -> ReaderInfo {
    struct Info;
    impl Visit for Info {
        type Output = ReaderInfo;
        fn visit<T: Strategy>(self) -> ReaderInfo {
            T::INFO
        }
    }
    visit(kind, Info)
}

/// Where `kind`'s algorithms differ from std's (see [`Strategy::DIFFERENCES`]).
pub fn differences(kind: ReaderKind) -> impl Iterator<Item = ReaderDifference> {
    struct Differences;
    impl Visit for Differences {
        type Output = &'static [Difference];
        fn visit<T: Strategy>(self) -> &'static [Difference] {
            T::DIFFERENCES
        }
    }
    visit(kind, Differences).iter().map(move |d| ReaderDifference { reader: kind, workload: d.workload, text: d.text })
}

/// One reader's run over all the streams.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Driven {
    pub app: AppCounts,
    /// Bytes moved between buffers inside the reader.
    pub bytes_copied: u64,
    /// Blocks the chained reader took (`None` for the others).
    pub blocks: Option<BlockCounts>,
    /// Polls of the async readers' futures (`None` for the others).
    pub polls: Option<Polls>,
}

/// Runs `spec` with one reader of `kind` per source (all sharing `probe`),
/// round-robin. `app_buf` is the application's own read buffer, allocated by
/// the caller so it is not charged to the reader; `sinks[i]` gets stream `i`.
pub fn drive_streams<S: ObservedRead, C: Consume>(
    kind: ReaderKind,
    sources: Lanes<S>,
    probe: &Probe,
    config: ReaderConfig,
    spec: &Spec,
    app_buf: &mut [u8],
    sinks: &mut [C],
) -> io::Result<Driven> {
    struct Drive<'x, S, C> {
        sources: Lanes<S>,
        probe: &'x Probe,
        config: ReaderConfig,
        spec: &'x Spec,
        app_buf: &'x mut [u8],
        sinks: &'x mut [C],
    }
    impl<S: ObservedRead, C: Consume> Visit for Drive<'_, S, C> {
        type Output = io::Result<Driven>;
        fn visit<T: Strategy>(self) -> io::Result<Driven> {
            let shared = T::shared(self.config)?;
            let config = self.config;
            let readers = self.sources.map(|source| T::build(&shared, config, source));
            let mut app = AppCounts::default();
            workload::drive(self.spec, readers, self.app_buf, self.sinks, &mut app)?;
            let polls = T::polls(&shared);
            Ok(match T::counted(&shared) {
                Some(counts) => Driven { app, bytes_copied: counts.bytes_copied, blocks: Some(counts.blocks), polls },
                None => Driven { app, bytes_copied: observed_copies(&app, self.probe), blocks: None, polls },
            })
        }
    }
    visit(kind, Drive { sources, probe, config, spec, app_buf, sinks })
}

/// Runs `workload` through a reader of `kind` over one `source` (pool on,
/// no payload reuse): the single-stream form of [`drive_streams`].
/// `app_buf`'s length is the read size.
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

/// Copies of a black-box reader: bytes that reached the application's own
/// memory without the source writing them there.
fn observed_copies(app: &AppCounts, probe: &Probe) -> u64 {
    debug_assert!(app.owned_bytes >= probe.direct_bytes(), "{app:?} direct {}", probe.direct_bytes());
    app.owned_bytes.saturating_sub(probe.direct_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Id;

    #[test]
    fn every_kind_has_its_strategy() {
        for kind in ReaderKind::all() {
            assert_eq!(info(kind).id, kind);
        }
    }
}
