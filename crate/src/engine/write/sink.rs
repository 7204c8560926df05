//! The simulated chunked sink: the write-side mirror of [`crate::engine::source`].
//!
//! A [`Sink`] accepts at most `min(offered, c)` bytes per `write` call, where
//! `c` is the next limit from the same [`Chunker`] the source uses (so a chunk
//! model and seed mean the same thing in both directions). Every call is
//! counted, because each stands for a system call.
//!
//! Invariants kept here:
//! - a write never accepts more than offered, and accepts at least one byte
//!   of a non-empty buffer unless it fails (a scripted 0 limit fails with
//!   `Interrupted`, as `write(2)` does on a signal, so callers retry);
//! - accepted bytes go to the [`Consume`] in order, so the digest of what the
//!   sink received can be compared with what the application wrote;
//! - a sink built with [`Sink::failing_at`] refuses, every time, any write
//!   that would accept the byte at that offset: a device that fills up just
//!   before the end of the stream.

use std::cell::Cell;
use std::io::{self, ErrorKind, Write};

use crate::engine::source::{Chunker, Limit};
use crate::engine::workload::Consume;

/// The message of the error a failing sink returns.
pub const REFUSED: &str = "simulated: the sink refused the write that holds the stream's last byte";

/// Counters shared between a sink and the harness that drives it.
#[derive(Debug, Default)]
pub struct SinkProbe {
    writes: Cell<u64>,
    flushes: Cell<u64>,
    accepted: Cell<u64>,
    /// Bytes the sink took straight from the application's own buffer.
    direct_bytes: Cell<u64>,
    /// Address range of the application's data.
    app_window: Cell<(usize, usize)>,
}

impl SinkProbe {
    /// `write` calls on the sink: accepted, interrupted, refused and empty ones.
    pub fn writes(&self) -> u64 {
        self.writes.get()
    }

    /// `flush` calls on the sink.
    pub fn flushes(&self) -> u64 {
        self.flushes.get()
    }

    /// Bytes the sink accepted.
    pub fn accepted(&self) -> u64 {
        self.accepted.get()
    }

    /// Accepted bytes that came straight from the application's buffer (a
    /// `BufWriter` passes writes at least as large as its buffer through);
    /// the rest was copied into a writer's buffer first.
    pub fn direct_bytes(&self) -> u64 {
        self.direct_bytes.get()
    }

    /// Tells the probe where the application's data lives, so a writer that
    /// passes it through can be told apart from one that copies it. Observed,
    /// not modelled: `BufWriter` is a black box here.
    pub fn set_app_window(&self, data: &[u8]) {
        let start = data.as_ptr() as usize;
        self.app_window.set((start, start + data.len()));
    }

    fn record(&self, offered: &[u8], n: usize) {
        self.accepted.set(self.accepted.get() + n as u64);
        let (lo, hi) = self.app_window.get();
        let start = offered.as_ptr() as usize;
        if n > 0 && start >= lo && start + n <= hi {
            self.direct_bytes.set(self.direct_bytes.get() + n as u64);
        }
    }
}

/// A chunked sink that hands what it accepts to `C`.
#[derive(Debug)]
pub struct Sink<'a, C: Consume> {
    chunker: Chunker,
    probe: &'a SinkProbe,
    consume: C,
    /// Bytes accepted so far.
    pos: u64,
    /// Refuse any write that would accept the byte at this offset.
    fail_at: Option<u64>,
}

impl<'a, C: Consume> Sink<'a, C> {
    pub fn new(chunker: Chunker, probe: &'a SinkProbe, consume: C) -> Self {
        Sink { chunker, probe, consume, pos: 0, fail_at: None }
    }

    /// A sink that refuses any write reaching offset `at` (for `at` = stream
    /// length − 1: the write with the stream's last byte).
    pub fn failing_at(mut self, at: u64) -> Self {
        self.fail_at = Some(at);
        self
    }

    pub fn into_consume(self) -> C {
        self.consume
    }
}

impl<C: Consume> Write for Sink<'_, C> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.probe.writes.set(self.probe.writes.get() + 1);
        if buf.is_empty() {
            return Ok(0);
        }
        let n = match self.chunker.next_limit() {
            0 => return Err(io::Error::from(ErrorKind::Interrupted)),
            limit => buf.len().min(limit),
        };
        if self.fail_at.is_some_and(|at| self.pos + n as u64 > at) {
            return Err(io::Error::other(REFUSED));
        }
        self.consume.take(&buf[..n]);
        self.pos += n as u64;
        self.probe.record(buf, n);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.probe.flushes.set(self.probe.flushes.get() + 1);
        Ok(())
    }
}

/// The timed pass's sink: takes at most the next chunk per write, as a
/// [`Sink`] with the same model and seed does, and hands it on; it counts
/// nothing and never refuses.
#[derive(Debug)]
pub struct Drain<L, C> {
    chunks: L,
    consume: C,
}

impl<L: Limit, C: Consume> Drain<L, C> {
    pub fn new(chunks: L, consume: C) -> Self {
        Drain { chunks, consume }
    }

    pub fn into_consume(self) -> C {
        self.consume
    }
}

impl<L: Limit, C: Consume> Write for Drain<L, C> {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let limit = self.chunks.next_limit();
        if L::INTERRUPTS && limit == 0 {
            return Err(io::Error::from(ErrorKind::Interrupted));
        }
        let n = buf.len().min(limit);
        self.consume.take(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::workload::DigestSink;
    use crate::model::ChunkModel;

    #[test]
    fn a_write_accepts_at_most_the_chunk_limit_and_every_call_counts() {
        let probe = SinkProbe::default();
        let mut sink = Sink::new(Chunker::new(ChunkModel::Fixed { size: 4 }, 0), &probe, DigestSink::default());
        assert_eq!(sink.write(&[1; 10]).unwrap(), 4);
        assert_eq!(sink.write(&[1; 3]).unwrap(), 3);
        assert_eq!(sink.write(&[]).unwrap(), 0);
        sink.flush().unwrap();
        assert_eq!((probe.writes(), probe.flushes(), probe.accepted()), (3, 1, 7));
    }

    #[test]
    fn a_scripted_zero_is_an_interrupted_write() {
        let probe = SinkProbe::default();
        let mut sink = Sink::new(Chunker::scripted(vec![0, 2]), &probe, DigestSink::default());
        assert_eq!(sink.write(&[1; 5]).unwrap_err().kind(), ErrorKind::Interrupted);
        assert_eq!(sink.write(&[1; 5]).unwrap(), 2);
        sink.write_all(&[1; 5]).unwrap();
        assert_eq!(probe.accepted(), 7);
    }

    #[test]
    fn a_failing_sink_refuses_the_last_byte_every_time() {
        let probe = SinkProbe::default();
        let mut sink = Sink::new(Chunker::new(ChunkModel::File, 0), &probe, DigestSink::default()).failing_at(9);
        assert_eq!(sink.write(&[1; 9]).unwrap(), 9);
        for _ in 0..2 {
            let e = sink.write(&[1; 1]).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Other);
            assert_eq!(e.to_string(), REFUSED);
        }
        assert_eq!(probe.accepted(), 9);
    }

    #[test]
    fn bytes_from_the_application_window_count_as_direct() {
        let data = [7u8; 32];
        let probe = SinkProbe::default();
        probe.set_app_window(&data);
        let mut sink = Sink::new(Chunker::new(ChunkModel::File, 0), &probe, DigestSink::default());
        sink.write_all(&data[..10]).unwrap();
        let copy = data;
        sink.write_all(&copy[..6]).unwrap();
        assert_eq!(probe.direct_bytes(), 10);
        assert_eq!(probe.accepted(), 16);
    }
}
