//! `std::io::BufWriter` over a chunked [`Sink`]: the write-side mirror of the
//! read experiments.
//!
//! The application writes its data `ws` bytes at a time with `write_all`,
//! either straight to the sink or through `BufWriter::with_capacity(cap, …)`,
//! and ends with `flush()`. The sink counts its calls; nothing about
//! `BufWriter` is modelled.
//!
//! The second half shows where an error on the final flush goes: with a sink
//! that refuses the write holding the stream's last byte, a `BufWriter` that
//! is simply dropped swallows the error (its `Drop` cannot return one), while
//! `flush()` and `into_inner()` hand it to the application.

use std::io::{self, BufWriter, Write};

use super::sink::{Sink, SinkProbe};
use crate::engine::source::Chunker;
use crate::engine::workload::CountSink;
use crate::model::{Ending, FinalFlush, WriteMode};

/// Writes `data` in pieces of `ws` bytes through `mode` into `sink`, then
/// flushes, and gives the sink back (to read what arrived). `on_write` is
/// called once per `write_all` the application makes (the counted pass
/// counts them; the timed pass passes a closure that does nothing).
pub fn drive<W: Write>(mode: WriteMode, data: &[u8], ws: usize, cap: usize, sink: W, on_write: impl FnMut()) -> io::Result<W> {
    match mode {
        WriteMode::Direct => direct(data, ws, sink, on_write),
        WriteMode::BufWriter => buffered(data, ws, cap, sink, on_write),
    }
}

/// Every `write_all` straight to the sink.
pub fn direct<W: Write>(data: &[u8], ws: usize, mut sink: W, mut on_write: impl FnMut()) -> io::Result<W> {
    for piece in data.chunks(ws) {
        on_write();
        sink.write_all(piece)?;
    }
    sink.flush()?;
    Ok(sink)
}

/// Through `BufWriter::with_capacity(cap, sink)`.
pub fn buffered<W: Write>(data: &[u8], ws: usize, cap: usize, sink: W, mut on_write: impl FnMut()) -> io::Result<W> {
    let mut w = BufWriter::with_capacity(cap, sink);
    for piece in data.chunks(ws) {
        on_write();
        w.write_all(piece)?;
    }
    w.flush()?;
    w.into_inner().map_err(io::IntoInnerError::into_error)
}

// ---------------------------------------------------------------------------
// The final flush

/// Runs `ending` against a sink that refuses the write holding the last byte
/// of `data` (which must not be empty).
pub fn final_flush(ending: Ending, data: &[u8], ws: usize, cap: usize, chunker: Chunker) -> FinalFlush {
    debug_assert!(!data.is_empty());
    let probe = SinkProbe::default();
    let sink = Sink::new(chunker, &probe, CountSink::default()).failing_at(data.len() as u64 - 1);
    let outcome: Result<(), (&str, io::Error)> = (|| {
        let write_all = |w: &mut dyn Write| -> Result<(), (&'static str, io::Error)> {
            for piece in data.chunks(ws) {
                w.write_all(piece).map_err(|e| ("write_all", e))?;
            }
            Ok(())
        };
        match ending {
            Ending::Direct => {
                let mut w = sink;
                write_all(&mut w)?;
                w.flush().map_err(|e| ("flush", e))
            }
            Ending::Dropped => {
                let mut w = BufWriter::with_capacity(cap, sink);
                write_all(&mut w)?;
                drop(w);
                Ok(())
            }
            Ending::Flush => {
                let mut w = BufWriter::with_capacity(cap, sink);
                write_all(&mut w)?;
                w.flush().map_err(|e| ("flush", e))
            }
            Ending::IntoInner => {
                let mut w = BufWriter::with_capacity(cap, sink);
                write_all(&mut w)?;
                w.into_inner().map(drop).map_err(|e| ("into_inner", e.into_error()))
            }
        }
    })();
    let (reported_by, error) = match outcome {
        Ok(()) => (None, None),
        Err((call, e)) => (Some(call.to_string()), Some(e.to_string())),
    };
    FinalFlush {
        ending,
        reported_by,
        error,
        bytes_at_sink: probe.accepted(),
        bytes_lost: data.len() as u64 - probe.accepted(),
        sink_writes: probe.writes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::source::counting_bytes;
    use crate::engine::workload::{digest_of, DigestSink};
    use crate::model::ChunkModel;

    #[test]
    fn both_modes_deliver_the_data_and_bufwriter_cuts_the_calls() {
        let data = counting_bytes(10_000);
        let mut calls = Vec::new();
        for mode in [WriteMode::Direct, WriteMode::BufWriter] {
            let probe = SinkProbe::default();
            let sink = Sink::new(Chunker::new(ChunkModel::File, 0), &probe, DigestSink::default());
            let mut app_writes = 0;
            let sink = drive(mode, &data, 10, 1000, sink, || app_writes += 1).unwrap();
            assert_eq!(sink.into_consume().hex(), digest_of(&data));
            assert_eq!(app_writes, 1000);
            assert_eq!(probe.flushes(), 1);
            calls.push(probe.writes());
        }
        assert_eq!(calls, [1000, 10]);
    }

    #[test]
    fn an_error_on_the_final_flush_is_lost_on_drop_but_reported_by_flush_and_into_inner() {
        let data = counting_bytes(4096);
        let run = |ending| final_flush(ending, &data, 16, 1024, Chunker::new(ChunkModel::File, 0));
        let dropped = run(Ending::Dropped);
        assert_eq!(dropped.reported_by, None, "Drop cannot return the error");
        assert_eq!(dropped.bytes_lost, 1024, "the whole last buffer never arrived");
        let flushed = run(Ending::Flush);
        assert_eq!(flushed.reported_by.as_deref(), Some("flush"));
        assert_eq!(flushed.error.as_deref(), Some(super::super::sink::REFUSED));
        assert_eq!(run(Ending::IntoInner).reported_by.as_deref(), Some("into_inner"));
        let direct = run(Ending::Direct);
        assert_eq!(direct.reported_by.as_deref(), Some("write_all"));
        assert_eq!(direct.bytes_lost, 16);
    }
}
