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
//! Adding a reader: a module here with a `Strategy` impl (for an async
//! library's `BufReader`, an `AsyncReader` impl: see `poll.rs`), a variant
//! of `ReaderKind` in the model, and its arm in [`visit`]. The trait and the
//! types it speaks of are in `strategy.rs`, which knows no reader. What
//! only some readers have is a provided item of [`Strategy`] that the others
//! leave as it is: copies counted by the reader itself
//! ([`Strategy::counted`]), polls of an async reader ([`Strategy::polls`]),
//! differences from std's algorithms worth a sentence on the page
//! ([`Strategy::DIFFERENCES`]), an async part of the generated program
//! ([`Strategy::ASYNC_SNIPPET`]).
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
mod strategy;
pub mod tokio;
pub mod unbuffered;

use std::io;

pub use strategy::{
    AsyncSnippet, Difference, Look, OwnCounts, Polls, ReaderConfig, ReaderDifference, ReaderInfo, SnippetPart, Strategy,
};

use super::heap::Lanes;
use super::source::{ObservedRead, Probe, Source};
use super::workload::{self, AppCounts, Consume, Spec};
use crate::model::{BlockCounts, ReaderKind, Workload};

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
