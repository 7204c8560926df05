//! What the async readers (`tokio`, `futures`) share: the simulated source as
//! an `AsyncRead`, a driver that polls futures without a runtime, and the
//! blocking face the workload loops call.
//!
//! - [`AsyncSource`] is the source a non-blocking socket would be: each
//!   `poll_read` first asks the source whether data is waiting
//!   ([`ObservedRead::ready`], link key `pend`) and answers `Pending` when it
//!   is not; otherwise it makes one source read, with the same chunk model
//!   and seed as the blocking readers get. An empty (interrupted) chunk,
//!   which a blocking reader retries, reaches an async reader the way a
//!   non-blocking socket reports one: a read that found nothing (it counts
//!   as a source read) and a `Pending`.
//! - [`block_on`] polls one future to completion with a waker that does
//!   nothing, asking again at once after each `Pending` (no other task can
//!   run, and the source is ready on the next ask), and counts every poll
//!   and every `Pending` in [`PollCounts`].
//! - [`Blocking`] turns each workload step into one such future of the
//!   library's own: its `Read` and `BufRead` methods are implemented, in the
//!   reader's module, by awaiting the library's `read`, `read_exact`,
//!   `read_to_end`, `fill_buf` + `consume` and `read_until`, so std's
//!   provided algorithms never run over the async reader (the way tokio-util's
//!   `SyncIoBridge` bridges a sync caller to an async reader). One future per
//!   application call: polls = app reads + Pendings.
//!
//! What the traits cannot express: there is no `bytes()` iterator in
//! tokio's or futures' `AsyncReadExt`, so the `bytes` workload is a 1-byte
//! `read` per byte (std's `Bytes` makes the same call on a reader that is not
//! std's own `BufReader`); tokio's `read_u8` polls the same way but reports
//! the end of the stream as an error.

use std::cell::Cell;
use std::future::Future;
use std::io::{self, BufRead, ErrorKind};
use std::pin::pin;
use std::task::{Context, Poll};

use crate::engine::source::ObservedRead;
use crate::engine::workload::{self, AppReader, Consume, Tally};

/// Polls and `Pending`s of every future the application awaited, over all
/// the streams of a run (the async readers' `Strategy::Shared`).
#[derive(Debug, Default)]
pub struct PollCounts {
    polls: Cell<u64>,
    pendings: Cell<u64>,
}

/// A run's poll totals, as the report gives them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Polls {
    pub polls: u64,
    pub pendings: u64,
}

impl PollCounts {
    pub fn totals(&self) -> Polls {
        Polls { polls: self.polls(), pendings: self.pendings() }
    }

    /// Polls of the application's futures: one per operation that completed
    /// at once, one more after each `Pending`.
    pub fn polls(&self) -> u64 {
        self.polls.get()
    }

    /// Polls answered `Pending`.
    pub fn pendings(&self) -> u64 {
        self.pendings.get()
    }
}

/// Polls `future` to completion: a `Pending` is polled again at once. No
/// waker is needed (the no-op one), because nothing else could make progress
/// meanwhile; the source never answers `Pending` twice for one read, so this
/// ends.
pub fn block_on<F: Future>(counts: &PollCounts, future: F) -> F::Output {
    let mut future = pin!(future);
    // futures-util's no-op waker: std's `Waker::noop` needs Rust 1.85, above
    // the workspace's rust-version.
    let mut cx = Context::from_waker(futures_util::task::noop_waker_ref());
    loop {
        counts.polls.set(counts.polls.get() + 1);
        match future.as_mut().poll(&mut cx) {
            Poll::Ready(out) => return out,
            Poll::Pending => counts.pendings.set(counts.pendings.get() + 1),
        }
    }
}

/// The simulated source as a non-blocking stream. Both libraries' `AsyncRead`
/// is implemented for it in their reader's module, over [`Self::poll_source`].
#[derive(Debug)]
pub struct AsyncSource<S> {
    source: S,
}

// No pinning is passed through to the source: `poll_source` takes `&mut self`
// and calls the source's `read` by reference, so the wrapper can move freely
// whatever the source is. (The libraries' `BufReader`s need an `Unpin` inner
// reader for the `...Ext` methods.)
impl<S> Unpin for AsyncSource<S> {}

impl<S: ObservedRead> AsyncSource<S> {
    pub fn new(source: S) -> Self {
        AsyncSource { source }
    }

    /// Tells the source where the reader's buffer is (see
    /// [`ObservedRead::set_reader_buffer`]).
    pub fn set_reader_buffer(&mut self, start: *const u8, len: usize) {
        self.source.set_reader_buffer(start, len);
    }

    /// One poll of the source: `Pending` when it is not ready or the read
    /// found an empty chunk, else the read's result.
    pub fn poll_source(&mut self, buf: &mut [u8]) -> Poll<io::Result<usize>> {
        if !self.source.ready() {
            return Poll::Pending;
        }
        match self.source.read(buf) {
            Err(e) if e.kind() == ErrorKind::Interrupted => Poll::Pending,
            done => Poll::Ready(done),
        }
    }
}

/// An async reader behind blocking calls: the application's reader for the
/// workload loops. Its `Read` and `BufRead` methods live in the reader's
/// module, each awaiting that library's own operation with [`block_on`].
pub struct Blocking<'s, R> {
    pub reader: R,
    pub counts: &'s PollCounts,
}

impl<'s, R> Blocking<'s, R> {
    pub fn new(reader: R, counts: &'s PollCounts) -> Self {
        Blocking { reader, counts }
    }

    /// Awaits `op` on the reader.
    pub fn run<'r, T, F: Future<Output = T>>(&'r mut self, op: impl FnOnce(&'r mut R) -> F) -> T {
        let counts = self.counts;
        block_on(counts, op(&mut self.reader))
    }
}

/// The buffered way, as std's `BufReader` does it: lines with `read_until`,
/// a frame header after `fill_buf` says there is more, the NUL scan in place
/// with `fill_buf` + `consume`. Each of those calls is the library's own
/// future (see the reader's `BufRead` impl).
impl<R> AppReader for Blocking<'_, R>
where
    Self: BufRead,
{
    fn line<C: Consume, T: Tally>(&mut self, line: &mut Vec<u8>, sink: &mut C, t: &mut T) -> io::Result<usize> {
        workload::line_with_read_until(self, line, sink, t)
    }

    fn frame_header<T: Tally>(&mut self, t: &mut T) -> io::Result<Option<u32>> {
        workload::frame_header_with_read_exact(self, t)
    }

    fn scan_step<C: Consume, T: Tally>(&mut self, _buf: &mut [u8], sink: &mut C, t: &mut T) -> io::Result<bool> {
        workload::scan_in_place(self, sink, t)
    }
}
