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

use serde::{Deserialize, Serialize};

use super::sink::{Sink, SinkProbe};
use crate::source::Chunker;
use crate::workload::{Consume, CountSink};

/// How the application reaches the sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteMode {
    /// Every `write_all` goes to the sink.
    Direct,
    /// `std::io::BufWriter::with_capacity(cap, sink)`.
    #[serde(rename = "bufwriter")]
    BufWriter,
}

#[derive(Clone, Copy, Debug, Serialize)]
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

impl WriteMode {
    pub fn id(self) -> &'static str {
        match self {
            WriteMode::Direct => "direct",
            WriteMode::BufWriter => "bufwriter",
        }
    }

    pub fn info(self) -> &'static WriteModeInfo {
        WRITE_MODES.iter().find(|m| m.id == self).expect("every mode is listed in WRITE_MODES")
    }
}

/// Writes `data` in pieces of `ws` bytes through `mode` into `sink`, then
/// flushes. Returns the application's `write_all` calls and the sink's
/// consumer (to read the digest of what arrived).
pub fn drive<C: Consume>(mode: WriteMode, data: &[u8], ws: usize, cap: usize, sink: Sink<'_, C>) -> io::Result<(u64, C)> {
    let mut app_writes = 0u64;
    match mode {
        WriteMode::Direct => {
            let mut w = sink;
            for piece in data.chunks(ws) {
                app_writes += 1;
                w.write_all(piece)?;
            }
            w.flush()?;
            Ok((app_writes, w.into_consume()))
        }
        WriteMode::BufWriter => {
            let mut w = BufWriter::with_capacity(cap, sink);
            for piece in data.chunks(ws) {
                app_writes += 1;
                w.write_all(piece)?;
            }
            w.flush()?;
            let sink = w.into_inner().map_err(io::IntoInnerError::into_error)?;
            Ok((app_writes, sink.into_consume()))
        }
    }
}

// ---------------------------------------------------------------------------
// The final flush

/// How the application finishes writing to a sink that refuses the last byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// No buffer: the failing `write_all` itself returns the error.
    Direct,
    /// `BufWriter` dropped without a flush: `Drop` flushes and ignores errors.
    Dropped,
    /// `BufWriter::flush()` at the end.
    Flush,
    /// `BufWriter::into_inner()` at the end.
    IntoInner,
}

#[derive(Clone, Copy, Debug, Serialize)]
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

/// What the application learned when the sink refused the last byte.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalFlush {
    pub ending: Ending,
    /// The call that returned the error to the application (`write_all`,
    /// `flush`, `into_inner`); `None` when the error was lost.
    pub reported_by: Option<String>,
    /// The error's message as the application saw it.
    pub error: Option<String>,
    /// Bytes the sink accepted.
    pub bytes_at_sink: u64,
    /// Bytes the application handed over that never reached the sink.
    pub bytes_lost: u64,
    /// `write` calls on the sink, the refused ones included.
    pub sink_writes: u64,
}

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
    use crate::source::{counting_bytes, ChunkModel};
    use crate::workload::{digest_of, DigestSink};

    #[test]
    fn both_modes_deliver_the_data_and_bufwriter_cuts_the_calls() {
        let data = counting_bytes(10_000);
        let mut calls = Vec::new();
        for mode in [WriteMode::Direct, WriteMode::BufWriter] {
            let probe = SinkProbe::default();
            let sink = Sink::new(Chunker::new(ChunkModel::File, 0), &probe, DigestSink::default());
            let (app_writes, digest) = drive(mode, &data, 10, 1000, sink).unwrap();
            assert_eq!(digest.hex(), digest_of(&data));
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
