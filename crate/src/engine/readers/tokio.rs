//! `tokio::io::BufReader` over the simulated source as an `AsyncRead`, polled
//! without a runtime (tokio with only its `io-util` feature, which builds for
//! wasm32-unknown-unknown). Every workload step awaits tokio's own future
//! (`read`, `read_exact`, `read_to_end`, `fill_buf` + `consume`,
//! `read_until`), so the counts are what tokio's types really do. A black
//! box, like std's: its copies are observed from its source.
//!
//! Where it differs from std over the same chunks: `read_to_end` (see
//! [`Tokio::DIFFERENCES`]; `tests/async_readers.rs` pins the figures).
//! Its bypass rule is std's: a read of at least the capacity into an empty
//! buffer goes straight to the source.
//!
//! This module owns what is this reader's own ([`AsyncReader`]) and names
//! its library's operations (`impl_async_buf_reader!`); the rest of its
//! `Strategy` is every async reader's (`poll.rs`).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use ::tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, BufReader, ReadBuf};

use super::poll::{impl_async_buf_reader, AsyncReader, AsyncSource};
use super::{AsyncSnippet, Difference, ReaderInfo};
use crate::engine::source::ObservedRead;
use crate::model::{key, Params, ReaderKind, Shape, Workload};

pub struct Tokio;

impl AsyncReader for Tokio {
    const INFO: ReaderInfo = ReaderInfo {
        id: ReaderKind::Tokio,
        label: "tokio BufReader",
        about: "tokio::io::BufReader over the source as an AsyncRead, each read a future polled to completion \
                without a runtime: the same buffer and bypass rule as std, plus a poll per read and one more per \
                Pending.",
        keys: &[key::CAP, key::PEND],
        shape: Shape::Single,
    };
    const DIFFERENCES: &'static [Difference] = &[Difference {
        workload: Workload::ToEnd,
        text: "read_to_end: tokio asks for all of the Vec's free space in every read, skipping the buffer only \
               while that space is at least the capacity (the last bytes go through the buffer and are copied), \
               and then checks for the end with a 32-byte read through the buffer, where std's reads start at \
               8 KiB and double and copy nothing: 1 MiB from a pipe takes tokio 17 source reads against std's 20. \
               From a file both take 2, as std's File reads what is left of the file in one call.",
    }];
    const ASYNC_SNIPPET: AsyncSnippet = AsyncSnippet {
        module: "with_tokio",
        traits: "tokio::io",
        consume: "consume",
        dependency: "tokio = { version = \"1\", features = [\"rt\", \"net\", \"fs\", \"io-util\"] }",
        opens_its_own: true,
    };

    type BufReader<S: ObservedRead> = BufReader<AsyncSource<S>>;

    fn snippet_main(_: &Params, _call: &str) -> String {
        "    // tokio::io::BufReader on a current-thread runtime: the same buffer as std's; each
    // .await may return Pending while nothing can be read yet (the runtime then runs
    // other tasks and polls again once it is woken).
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let n = runtime.block_on(async {
        let mut reader = tokio::io::BufReader::with_capacity(CAP, with_tokio::open().await?);
        with_tokio::app(&mut reader).await
    })?;
    println!(\"tokio BufReader: {n} bytes\");
"
        .to_string()
    }
}

/// The source as tokio sees it. The bytes land in the caller's memory: the
/// slice the source fills is the unfilled part of tokio's `ReadBuf`
/// (initialised first: the source writes through `&mut [u8]`).
impl<S: ObservedRead> AsyncRead for AsyncSource<S> {
    fn poll_read(self: Pin<&mut Self>, _cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.poll_source(buf.initialize_unfilled()) {
            Poll::Ready(Ok(n)) => {
                buf.advance(n);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => Poll::Pending,
        }
    }
}

// Each operation is tokio's own.
impl_async_buf_reader!(BufReader, AsyncReadExt, AsyncBufReadExt, AsyncBufReadExt::consume);
