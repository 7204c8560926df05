//! `futures::io::BufReader` (from futures-util) over the simulated source as
//! an `AsyncRead`, polled without an executor. Every workload step awaits
//! futures-util's own future (`read`, `read_exact`, `read_to_end`,
//! `fill_buf` + `consume_unpin`, `read_until`), so the counts are what its
//! types really do. A black box, like std's: its copies are observed from
//! its source.
//!
//! Where it differs from std over the same chunks: `read_to_end` (see
//! [`Futures::DIFFERENCES`]; `tests/async_readers.rs` pins the
//! figures). Its bypass rule is std's: a read of at least the capacity into
//! an empty buffer goes straight to the source.
//!
//! This module owns what is this reader's own ([`AsyncReader`]) and names
//! its library's operations (`impl_async_buf_reader!`); the rest of its
//! `Strategy` is every async reader's (`poll.rs`).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, BufReader};

use super::poll::{impl_async_buf_reader, AsyncReader, AsyncSource};
use super::{AsyncSnippet, Difference, ReaderInfo};
use crate::engine::source::ObservedRead;
use crate::model::{key, Params, ReaderKind, Shape, Workload};

pub struct Futures;

impl AsyncReader for Futures {
    const INFO: ReaderInfo = ReaderInfo {
        id: ReaderKind::Futures,
        label: "futures BufReader",
        about: "futures::io::BufReader (futures-util) over the source as an AsyncRead, each read a future polled \
                to completion without an executor: the same buffer and bypass rule as std, plus a poll per read \
                and one more per Pending.",
        keys: &[key::CAP, key::PEND],
        shape: Shape::Single,
    };
    const DIFFERENCES: &'static [Difference] = &[Difference {
        workload: Workload::ToEnd,
        text: "read_to_end: futures zero-fills all of the Vec's free space (again after every Pending) and \
               asks for all of it in every read (through the buffer, copying, once that space is below the \
               capacity), and to see the end of a full Vec it doubles the Vec, where std probes with 32 bytes on \
               the stack: 1 MiB from a file takes futures 2 source reads and a reallocation to 2 MiB, std 2 \
               source reads and none (from a pipe, futures 17 and std 20).",
    }];
    const ASYNC_SNIPPET: AsyncSnippet = AsyncSnippet {
        module: "with_futures",
        traits: "futures::io",
        consume: "consume_unpin",
        dependency: "futures = \"0.3\"",
        opens_its_own: false,
    };

    type BufReader<S: ObservedRead> = BufReader<AsyncSource<S>>;

    fn snippet_main(_: &Params, _call: &str) -> String {
        "    // futures::io::BufReader over AllowStdIo, driven by futures' own executor. AllowStdIo
    // makes blocking calls inside poll, which is fine for one task, as here; a server
    // would give it a non-blocking stream instead.
    let n = futures::executor::block_on(async {
        let mut reader = futures::io::BufReader::with_capacity(CAP, futures::io::AllowStdIo::new(open()?));
        with_futures::app(&mut reader).await
    })?;
    println!(\"futures BufReader: {n} bytes\");
"
        .to_string()
    }
}

/// The source as futures-util sees it: the caller's slice, filled in place.
impl<S: ObservedRead> AsyncRead for AsyncSource<S> {
    fn poll_read(self: Pin<&mut Self>, _cx: &mut Context<'_>, buf: &mut [u8]) -> Poll<io::Result<usize>> {
        self.get_mut().poll_source(buf)
    }
}

// Each operation is futures-util's own.
impl_async_buf_reader!(BufReader, AsyncReadExt, AsyncBufReadExt, AsyncBufReadExt::consume_unpin);
