//! What the async readers (`tokio`, `futures`) share: the simulated source as
//! an `AsyncRead`, a driver that polls futures without a runtime, the
//! blocking face the workload loops call, and the whole of their
//! [`Strategy`] but for what each reader's module owns ([`AsyncReader`]: its
//! words, its part of the generated program, and its library's `BufReader`
//! as an [`AsyncBufReader`]).
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
//!   library's own: its `Read` and `BufRead` methods are implemented over the
//!   [`AsyncBufReader`] the reader's module implements, by awaiting the
//!   library's `read`, `read_exact`, `read_to_end`, `fill_buf` + `consume`
//!   and `read_until`, so std's
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
use std::io::{self, BufRead, ErrorKind, Read};
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use super::strategy::{AsyncSnippet, Difference, Look, Polls, ReaderConfig, ReaderInfo, SnippetPart, Strategy};
use crate::engine::source::ObservedRead;
use crate::engine::workload::Buffered;
use crate::model::Params;

/// What is an async reader's own, in its module: its words, its part of the
/// generated program, and its library's `BufReader`. The rest of its
/// [`Strategy`] is the same for every async reader (the impl below).
pub trait AsyncReader {
    const INFO: ReaderInfo;
    /// See [`Strategy::DIFFERENCES`].
    const DIFFERENCES: &'static [Difference];
    /// See [`Strategy::ASYNC_SNIPPET`].
    const ASYNC_SNIPPET: AsyncSnippet;

    /// The library's `BufReader` over the source.
    type BufReader<S: ObservedRead>: AsyncBufReader<Source = S>;

    /// See [`Strategy::snippet_main`].
    fn snippet_main(p: &Params, call: &str) -> String;
}

/// An async library's `BufReader` over [`AsyncSource`]: each operation is
/// the library's own future, which [`Blocking`] awaits for the workload
/// loops.
pub trait AsyncBufReader: Unpin {
    type Source: ObservedRead;

    fn with_capacity(cap: usize, source: AsyncSource<Self::Source>) -> Self;
    fn source_mut(&mut self) -> &mut AsyncSource<Self::Source>;
    /// The unread bytes in the buffer.
    fn buffer(&self) -> &[u8];

    fn read<'a>(&'a mut self, buf: &'a mut [u8]) -> impl Future<Output = io::Result<usize>> + 'a;
    /// `read_exact`; what it returns on success is the library's to choose.
    fn read_exact<'a>(&'a mut self, buf: &'a mut [u8]) -> impl Future<Output = io::Result<impl Sized>> + 'a;
    fn read_to_end<'a>(&'a mut self, buf: &'a mut Vec<u8>) -> impl Future<Output = io::Result<usize>> + 'a;
    fn fill_buf(&mut self) -> impl Future<Output = io::Result<&[u8]>>;
    fn consume(&mut self, amt: usize);
    fn read_until<'a>(&'a mut self, byte: u8, buf: &'a mut Vec<u8>) -> impl Future<Output = io::Result<usize>> + 'a;
}

/// [`AsyncBufReader`] for a library's `BufReader<AsyncSource<S>>`, each
/// operation the library's own: `$read` and `$buf_read` are its
/// `AsyncReadExt` and `AsyncBufReadExt` (tokio and futures-util name the
/// operations alike) and `$consume` the function that consumes on an
/// `Unpin` reader. The reader's module invokes it with its library's names.
macro_rules! impl_async_buf_reader {
    ($buf_reader:ident, $read:ident, $buf_read:ident, $consume:path) => {
        const _: () = {
            use std::future::Future;
            use std::io;

            use $crate::engine::readers::poll::{AsyncBufReader, AsyncSource};
            use $crate::engine::source::ObservedRead;

            impl<S: ObservedRead> AsyncBufReader for $buf_reader<AsyncSource<S>> {
                type Source = S;

                fn with_capacity(cap: usize, source: AsyncSource<S>) -> Self {
                    $buf_reader::with_capacity(cap, source)
                }

                fn source_mut(&mut self) -> &mut AsyncSource<S> {
                    self.get_mut()
                }

                fn buffer(&self) -> &[u8] {
                    $buf_reader::buffer(self)
                }

                fn read<'a>(&'a mut self, buf: &'a mut [u8]) -> impl Future<Output = io::Result<usize>> + 'a {
                    $read::read(self, buf)
                }

                fn read_exact<'a>(
                    &'a mut self,
                    buf: &'a mut [u8],
                ) -> impl Future<Output = io::Result<impl Sized>> + 'a {
                    $read::read_exact(self, buf)
                }

                fn read_to_end<'a>(&'a mut self, buf: &'a mut Vec<u8>) -> impl Future<Output = io::Result<usize>> + 'a {
                    $read::read_to_end(self, buf)
                }

                fn fill_buf(&mut self) -> impl Future<Output = io::Result<&[u8]>> {
                    $buf_read::fill_buf(self)
                }

                fn consume(&mut self, amt: usize) {
                    $consume(self, amt)
                }

                fn read_until<'a>(
                    &'a mut self,
                    byte: u8,
                    buf: &'a mut Vec<u8>,
                ) -> impl Future<Output = io::Result<usize>> + 'a {
                    $buf_read::read_until(self, byte, buf)
                }
            }
        };
    };
}
pub(crate) use impl_async_buf_reader;

impl<A: AsyncReader> Strategy for A {
    const INFO: ReaderInfo = <A as AsyncReader>::INFO;
    // Nothing from std: the program's async module uses the library
    // (ASYNC_SNIPPET).
    const SNIPPET: SnippetPart = SnippetPart { imports: &[], buffered: true, described_only: false, uses_cap: true };
    const DIFFERENCES: &'static [Difference] = <A as AsyncReader>::DIFFERENCES;
    const ASYNC_SNIPPET: Option<AsyncSnippet> = Some(<A as AsyncReader>::ASYNC_SNIPPET);

    type Shared = PollCounts;
    type Reader<'s, S: ObservedRead + 's>
        = Blocking<'s, A::BufReader<S>>
    where
        Self: 's;

    fn shared(_: ReaderConfig) -> io::Result<PollCounts> {
        Ok(PollCounts::default())
    }

    fn build<'s, S: ObservedRead + 's>(
        counts: &'s PollCounts,
        config: ReaderConfig,
        source: S,
    ) -> Blocking<'s, A::BufReader<S>> {
        let mut reader = A::BufReader::<S>::with_capacity(config.cap, AsyncSource::new(source));
        // Nothing is buffered yet, so `buffer()` starts at the buffer's first
        // byte; the buffer never moves (a boxed slice).
        let start = reader.buffer().as_ptr();
        reader.source_mut().set_reader_buffer(start, config.cap);
        Blocking { reader, counts }
    }

    fn polls(counts: &PollCounts) -> Option<Polls> {
        Some(counts.totals())
    }

    fn look<'r, S: ObservedRead>(reader: &'r Blocking<'_, A::BufReader<S>>) -> Look<'r> {
        Look::Unread(reader.reader.buffer())
    }

    fn snippet_main(p: &Params, call: &str) -> String {
        <A as AsyncReader>::snippet_main(p, call)
    }
}

/// Polls and `Pending`s of every future the application awaited, over all
/// the streams of a run (the async readers' `Strategy::Shared`).
#[derive(Debug, Default)]
pub struct PollCounts {
    polls: Cell<u64>,
    pendings: Cell<u64>,
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
    let mut cx = Context::from_waker(Waker::noop());
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
/// workload loops. Each of its `Read` and `BufRead` methods awaits the
/// library's own operation with [`block_on`].
pub struct Blocking<'s, R> {
    reader: R,
    counts: &'s PollCounts,
}

impl<'s, R> Blocking<'s, R> {
    /// Awaits `op` on the reader.
    fn run<'r, T, F: Future<Output = T>>(&'r mut self, op: impl FnOnce(&'r mut R) -> F) -> T {
        let counts = self.counts;
        block_on(counts, op(&mut self.reader))
    }
}

impl<R: AsyncBufReader> Read for Blocking<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.run(|r| r.read(buf))
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        self.run(|r| r.read_exact(buf)).map(|_| ())
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        self.run(|r| r.read_to_end(buf))
    }
}

impl<R: AsyncBufReader> BufRead for Blocking<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.run(|r| r.fill_buf())
    }

    fn consume(&mut self, amt: usize) {
        self.reader.consume(amt);
    }

    fn read_until(&mut self, byte: u8, buf: &mut Vec<u8>) -> io::Result<usize> {
        self.run(|r| r.read_until(byte, buf))
    }
}

/// The buffered way, as std's `BufReader` takes it; each call underneath is
/// the library's own future.
impl<R: AsyncBufReader> Buffered for Blocking<'_, R> {}
