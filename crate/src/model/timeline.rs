//! The buffer timeline's data: one reader's first application operations,
//! what each caused at the source and what the buffer held after it. The
//! engine's `timeline` module records it.

use serde::{Deserialize, Serialize};

/// What a reader keeps between the application's operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// No buffer: every application read is a source read.
    Unbuffered,
    /// One buffer of the capacity, filled by the source and drained by the
    /// application.
    Single,
    /// A chain of blocks of the capacity, lent to the application as slices.
    Blocks,
}

/// One reader's first operations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Timeline {
    /// The reader's kind of buffer.
    pub shape: Shape,
    /// The buffer's capacity (the chained reader: the block length); 0 for a
    /// reader without a buffer.
    pub capacity: u64,
    /// The chained reader's block pool was on.
    pub pool: bool,
    /// The traced stream is stream 1 of this many (each has its own reader;
    /// the trace follows the first alone).
    pub streams: u64,
    pub ops: Vec<Op>,
    /// The application had more to do after the last recorded operation.
    pub truncated: bool,
    /// The error that ended the application's run early, if one did.
    pub error: Option<String>,
}

impl Timeline {
    /// The operations (0-based) whose source read went into the buffer, not
    /// past it: where the buffer fills (the page's `fillSteps` says the same).
    pub fn fills(&self) -> Vec<usize> {
        self.ops
            .iter()
            .enumerate()
            .filter(|(_, op)| op.source_reads > 0 && !op.bypass && op.reads.iter().any(|r| r.block.is_some()))
            .map(|(i, _)| i)
            .collect()
    }
}

/// What the application called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum OpKind {
    /// `read(buf)`.
    Read,
    /// `read_exact(buf)`.
    ReadExact,
    /// `bytes().next()`.
    NextByte,
    /// `read_to_end(vec)`.
    ReadToEnd,
    /// One text line (`read_until`, the chained `read_line`, or byte reads).
    Line,
    /// A frame's 4-byte length.
    FrameHeader,
    /// A frame's payload.
    FramePayload,
    /// One step of the NUL scan (`fill_buf` + `consume`, or a `read`).
    Scan,
}

/// One application operation and what it caused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Op {
    pub kind: OpKind,
    /// Bytes asked for; `None` when the call takes what there is (a line, a
    /// scan of the buffer, `read_to_end`).
    pub requested: Option<u64>,
    /// Bytes the application received.
    pub returned: u64,
    /// Offset in the stream of the first byte received.
    pub at: u64,
    /// The first bytes received (a few).
    pub head: Vec<u8>,
    /// Calls on the reader this operation made (an unbuffered line makes one
    /// per byte).
    pub calls: u64,
    /// Source reads this operation caused, and the bytes they returned.
    pub source_reads: u64,
    pub source_bytes: u64,
    /// The first few of them.
    pub reads: Vec<SourceRead>,
    /// Bytes the reader copied between buffers.
    pub copied: u64,
    /// Bytes the source wrote straight into the application's memory.
    pub direct: u64,
    /// A buffered reader let the source write past its buffer into the
    /// application's memory (std's large-read path).
    pub bypass: bool,
    /// The call failed with `Interrupted` (an empty chunk) and is retried.
    pub interrupted: bool,
    /// Pieces handed to the application: the chained reader lends slices of
    /// its blocks; std copies into the caller's buffer (no block).
    pub pieces: Vec<Piece>,
    pub piece_count: u64,
    /// The buffer after the operation.
    pub buffer: Vec<Span>,
    /// Bytes buffered after the operation (sum of the spans).
    pub buffered: u64,
    /// The operation in one line of plain words (the page's caption, the
    /// CLI's `--timeline` line).
    pub caption: String,
    /// A source that lives in time (link key `rate`): what the kernel holds
    /// after the operation, at the reader's clock. Absent without a rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub kernel: Option<Kernel>,
}

/// What the kernel holds for a reader whose source lives in time, after one
/// operation: pieces that have arrived and wait to be read.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Kernel {
    /// Bytes arrived and not yet read.
    pub bytes: u64,
    /// Pieces with bytes arrived and not yet read.
    pub pieces: u64,
    /// The reader's modelled clock, in ns since the stream began.
    pub clock_ns: f64,
    /// This operation's source reads that found nothing and waited for the next piece.
    pub waits: u64,
    /// This operation's source reads that returned bytes of more than one piece.
    pub joined: u64,
}

/// One read call on the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SourceRead {
    pub requested: u64,
    pub returned: u64,
    /// An empty chunk: the call failed with `Interrupted`.
    pub interrupted: bool,
    /// The block the bytes went into, at `offset`; `None`: the application's
    /// own memory (unbuffered reads, bypasses, `read_to_end`).
    pub block: Option<u32>,
    pub offset: u64,
}

/// A piece of data handed to the application.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Piece {
    pub len: u64,
    /// Lent from this block at `offset`; `None`: the application's memory.
    pub block: Option<u32>,
    pub offset: u64,
}

/// Unread bytes `start..end` of a block of `capacity` bytes. A single-buffer
/// reader has one block, id 0, its buffer; the chained reader's ids follow
/// block identity (a block back from the pool keeps its id; without the pool
/// a new block gets a new id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Span {
    pub block: u32,
    pub start: u64,
    pub end: u64,
}
