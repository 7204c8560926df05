//! How the application reads: the loops that drive a reader.
//!
//! A workload hands every byte it receives to a [`Consume`]: the verified run
//! uses [`DigestSink`] (hashes every byte), timed runs use [`CountSink`] (only
//! keeps the optimizer honest), so hashing never shows up in the timings.
//!
//! With several streams (the `streams` link key) each stream has its own
//! reader and its own sink, and the workload takes one *step* on each live
//! stream in turn (round-robin), the way a server serves many connections:
//! one step is one application-level operation (a read call, a record, a
//! line, a frame, one buffer's worth of scanning).
//!
//! What a step does may depend on the reader: a buffered reader can look for a
//! newline inside its buffer, an unbuffered one cannot. [`AppReader`] holds
//! those differences; its provided methods are the plain-`Read` way (what the
//! unbuffered reader does), and buffered readers override them.

use std::io::{self, BufRead, ErrorKind, Read};

use xxhash_rust::xxh3::Xxh3;

use super::measure::Lanes;
use crate::model::Workload;

/// A workload with the settings it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub workload: Workload,
    /// The application's read size (`fixed`, `exact`, and the unbuffered
    /// reader's `scan`); the length of the buffer the caller passes.
    pub rs: usize,
    /// Bytes in each stream: `to_end` sizes its `Vec` from it, `exact` stops
    /// after it (the application knows the length, as with a file).
    pub len: usize,
    /// `frames`: read payloads into one reused buffer instead of a new `Vec`
    /// per frame (std and unbuffered readers; the chained one copies nothing).
    pub reuse: bool,
}

/// What the application did, summed over the streams.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AppCounts {
    /// Calls the application made on the reader, the final one included.
    pub app_reads: u64,
    /// Bytes the application received (owned or borrowed); for `scan`, the
    /// bytes before the NUL.
    pub bytes: u64,
    /// Bytes the reader wrote into the application's own memory (a read
    /// buffer, a `Vec`, a header array). Bytes the application only looked
    /// at in the reader's buffer (`fill_buf`, `read_range`, `read_line`) are
    /// not owned. For a black-box reader, owned bytes the source did not
    /// write there directly must have been copied by the reader.
    pub owned_bytes: u64,
}

/// Receives the bytes the application read.
pub trait Consume {
    fn take(&mut self, bytes: &[u8]);
}

/// Hashes everything received: the correctness check.
#[derive(Default)]
pub struct DigestSink(Xxh3);

impl DigestSink {
    pub fn value(&self) -> u64 {
        self.0.digest()
    }

    /// The digest as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.value())
    }
}

impl Consume for DigestSink {
    #[inline]
    fn take(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

/// The digest of a whole byte string, as [`DigestSink`] would give it.
pub fn digest_of(bytes: &[u8]) -> String {
    let mut d = DigestSink::default();
    d.take(bytes);
    d.hex()
}

/// One digest for several streams: with one stream, that stream's digest
/// (so one-stream links keep the digests they always had); with more, the
/// hash of the streams' digests in stream order, so a byte delivered to the
/// wrong stream changes it even though every stream carries the same bytes.
pub fn combined_digest(per_stream: &[u64]) -> String {
    match per_stream {
        [one] => format!("{one:016x}"),
        many => {
            let mut h = Xxh3::new();
            for d in many {
                h.update(&d.to_le_bytes());
            }
            format!("{:016x}", h.digest())
        }
    }
}

/// Looks at one byte of each read so the reads cannot be optimized away.
#[derive(Default)]
pub struct CountSink(pub u64);

impl Consume for CountSink {
    #[inline]
    fn take(&mut self, bytes: &[u8]) {
        let first = bytes.first().copied().unwrap_or(0);
        self.0 = self.0.wrapping_add(bytes.len() as u64 + u64::from(first));
    }
}

fn interrupted(e: &io::Error) -> bool {
    e.kind() == ErrorKind::Interrupted
}

/// The `frames` workload's payload buffer for readers that copy payloads out.
#[derive(Debug, Default)]
pub struct FrameBuf {
    /// Reuse `buf` for every payload instead of a new `Vec` per frame.
    pub reuse: bool,
    pub buf: Vec<u8>,
}

/// How a reader serves the application operations whose best form depends on
/// the reader. The provided methods are the plain-[`Read`] way, all an
/// unbuffered reader can do; buffered readers override what their buffer
/// does better. Each method adds what it did to `counts`.
pub trait AppReader: Read {
    /// Reads one line, through its `\n` or to the end of the stream, and
    /// gives it to `sink`. Returns its length; 0 means the stream has ended.
    ///
    /// Provided: one byte per `read` call, the only way without a buffer not
    /// to take bytes that belong to the next line.
    fn line<C: Consume>(&mut self, line: &mut Vec<u8>, sink: &mut C, counts: &mut AppCounts) -> io::Result<usize> {
        line.clear();
        let mut byte = [0u8; 1];
        loop {
            counts.app_reads += 1;
            match self.read(&mut byte) {
                Ok(0) => break,
                Ok(_) => {
                    line.push(byte[0]);
                    if byte[0] == b'\n' {
                        break;
                    }
                }
                Err(e) if interrupted(&e) => continue,
                Err(e) => return Err(e),
            }
        }
        counts.owned_bytes += line.len() as u64;
        counts.bytes += line.len() as u64;
        if !line.is_empty() {
            sink.take(line);
        }
        Ok(line.len())
    }

    /// The next frame's payload length, or `None` at a clean end of stream
    /// (not one byte of a header left). An end inside a header is an
    /// `UnexpectedEof` error.
    ///
    /// Provided: the first header byte on its own (0 bytes there is the clean
    /// end), then `read_exact` for the other three.
    fn frame_header(&mut self, counts: &mut AppCounts) -> io::Result<Option<u32>> {
        let mut header = [0u8; 4];
        loop {
            counts.app_reads += 1;
            match self.read(&mut header[..1]) {
                Ok(0) => return Ok(None),
                Ok(_) => break,
                Err(e) if interrupted(&e) => continue,
                Err(e) => return Err(e),
            }
        }
        counts.app_reads += 1;
        self.read_exact(&mut header[1..])?;
        counts.owned_bytes += 4;
        counts.bytes += 4;
        Ok(Some(u32::from_be_bytes(header)))
    }

    /// Reads a frame's `n`-byte payload and gives it to `sink`.
    ///
    /// Provided: `read_exact` into a fresh `Vec` per frame, as code that
    /// hands each payload on by value does (seed 002's bufio example
    /// allocates one per packet), or into `frame.buf` when reuse is on.
    fn frame_payload<C: Consume>(
        &mut self,
        n: usize,
        frame: &mut FrameBuf,
        sink: &mut C,
        counts: &mut AppCounts,
    ) -> io::Result<()> {
        counts.app_reads += 1;
        if frame.reuse {
            if frame.buf.len() < n {
                frame.buf.resize(n, 0);
            }
            let payload = &mut frame.buf[..n];
            self.read_exact(payload)?;
            sink.take(payload);
        } else {
            let mut payload = vec![0u8; n];
            self.read_exact(&mut payload)?;
            sink.take(&payload);
        }
        counts.owned_bytes += n as u64;
        counts.bytes += n as u64;
        Ok(())
    }

    /// One step of the NUL scan: gives the bytes before the NUL to `sink`.
    /// Returns whether to go on (no NUL yet, stream not ended).
    ///
    /// Provided: one `read` of the read size into the application's buffer.
    fn scan_step<C: Consume>(&mut self, buf: &mut [u8], sink: &mut C, counts: &mut AppCounts) -> io::Result<bool> {
        counts.app_reads += 1;
        let n = match self.read(buf) {
            Ok(n) => n,
            Err(e) if interrupted(&e) => return Ok(true),
            Err(e) => return Err(e),
        };
        counts.owned_bytes += n as u64;
        Ok(scan_piece(&buf[..n], sink, counts).is_none())
    }
}

/// Gives `piece` up to its first NUL to `sink`; `Some(i)` when the NUL is at
/// `i`. An empty piece is the end of the stream and also ends the scan.
fn scan_piece<C: Consume>(piece: &[u8], sink: &mut C, counts: &mut AppCounts) -> Option<usize> {
    if piece.is_empty() {
        return Some(0);
    }
    let end = memchr::memchr(0, piece);
    let before = &piece[..end.unwrap_or(piece.len())];
    if !before.is_empty() {
        sink.take(before);
    }
    counts.bytes += before.len() as u64;
    end
}

/// [`AppReader::line`] for a reader with a buffer: `read_until`.
pub fn line_with_read_until<B: BufRead, C: Consume>(
    reader: &mut B,
    line: &mut Vec<u8>,
    sink: &mut C,
    counts: &mut AppCounts,
) -> io::Result<usize> {
    line.clear();
    counts.app_reads += 1;
    let n = reader.read_until(b'\n', line)?;
    counts.owned_bytes += n as u64;
    counts.bytes += n as u64;
    if n > 0 {
        sink.take(line);
    }
    Ok(n)
}

/// True when at least one more byte can be had; false at the end of stream.
/// Retries interrupted reads, as `read_exact` does.
pub fn has_more<B: BufRead>(reader: &mut B, counts: &mut AppCounts) -> io::Result<bool> {
    counts.app_reads += 1;
    loop {
        match reader.fill_buf() {
            Ok(buf) => return Ok(!buf.is_empty()),
            Err(e) if interrupted(&e) => continue,
            Err(e) => return Err(e),
        }
    }
}

/// [`AppReader::scan_step`] for a reader with a buffer: scan the buffer in
/// place (`fill_buf`), then `consume` what was scanned. Nothing is copied.
pub fn scan_in_place<B: BufRead, C: Consume>(reader: &mut B, sink: &mut C, counts: &mut AppCounts) -> io::Result<bool> {
    counts.app_reads += 1;
    let available = match reader.fill_buf() {
        Ok(buf) => buf,
        Err(e) if interrupted(&e) => return Ok(true),
        Err(e) => return Err(e),
    };
    let n = available.len();
    match scan_piece(available, sink, counts) {
        Some(at) => {
            reader.consume(at.saturating_add(1).min(n));
            Ok(false)
        }
        None => {
            reader.consume(n);
            Ok(true)
        }
    }
}

/// One stream's reader and the workload's state for it.
struct Lane<R, S> {
    reader: R,
    state: S,
    done: bool,
}

/// Takes one step on each live stream in turn until every stream is done.
/// `step` gets the stream's index, reader and state, and says whether the
/// stream has more to do.
fn round_robin<R, S>(
    lanes: &mut [Lane<R, S>],
    mut step: impl FnMut(usize, &mut R, &mut S) -> io::Result<bool>,
) -> io::Result<()> {
    if let [lane] = lanes {
        // One stream: a plain loop, as the single-stream program would be.
        while step(0, &mut lane.reader, &mut lane.state)? {}
        lane.done = true;
        return Ok(());
    }
    let mut live = lanes.len();
    while live > 0 {
        for (i, lane) in lanes.iter_mut().enumerate() {
            if lane.done {
                continue;
            }
            if !step(i, &mut lane.reader, &mut lane.state)? {
                lane.done = true;
                live -= 1;
            }
        }
    }
    Ok(())
}

fn lanes<R, S>(readers: Lanes<R>, mut state: impl FnMut() -> S) -> Lanes<Lane<R, S>> {
    readers.map(|reader| Lane { reader, state: state(), done: false })
}

/// Runs `spec` over one reader per stream, round-robin. `app_buf` is the
/// application's read buffer (its length is the read size), `sinks[i]`
/// receives what stream `i` delivered. The readers are dropped before this
/// returns, so their buffers are freed inside the caller's allocation scope.
pub fn drive<R: AppReader, C: Consume>(
    spec: &Spec,
    readers: Lanes<R>,
    app_buf: &mut [u8],
    sinks: &mut [C],
) -> io::Result<AppCounts> {
    assert_eq!(readers.len(), sinks.len(), "one sink per stream");
    let mut counts = AppCounts::default();
    let c = &mut counts;
    match spec.workload {
        Workload::Fixed => {
            round_robin(&mut lanes(readers, || ()), |i, reader, ()| {
                c.app_reads += 1;
                match reader.read(app_buf) {
                    Ok(0) => Ok(false),
                    Ok(n) => {
                        c.owned_bytes += n as u64;
                        c.bytes += n as u64;
                        sinks[i].take(&app_buf[..n]);
                        Ok(true)
                    }
                    Err(e) if interrupted(&e) => Ok(true),
                    Err(e) => Err(e),
                }
            })?;
        }
        Workload::Exact => {
            round_robin(&mut lanes(readers, || spec.len), |i, reader, left| {
                let n = app_buf.len().min(*left);
                if n == 0 {
                    return Ok(false);
                }
                c.app_reads += 1;
                reader.read_exact(&mut app_buf[..n])?;
                c.owned_bytes += n as u64;
                c.bytes += n as u64;
                sinks[i].take(&app_buf[..n]);
                *left -= n;
                Ok(*left > 0)
            })?;
        }
        Workload::Bytes => {
            // The iterator owns its reader, so std's BufReader gets its
            // `bytes()` fast path, as in a real program.
            round_robin(&mut lanes(readers.map(Read::bytes), || ()), |i, bytes, ()| {
                c.app_reads += 1;
                match bytes.next() {
                    None => Ok(false),
                    Some(Ok(b)) => {
                        c.owned_bytes += 1;
                        c.bytes += 1;
                        sinks[i].take(&[b]);
                        Ok(true)
                    }
                    Some(Err(e)) => Err(e),
                }
            })?;
        }
        Workload::ToEnd => {
            round_robin(&mut lanes(readers, || ()), |i, reader, ()| {
                // Sized from the known length, as seed 001 sized it from the
                // file's metadata; dropped after the scan, like one file's.
                let mut all = Vec::with_capacity(spec.len);
                c.app_reads += 1;
                let n = reader.read_to_end(&mut all)?;
                c.owned_bytes += n as u64;
                c.bytes += n as u64;
                if n > 0 {
                    sinks[i].take(&all);
                }
                Ok(false)
            })?;
        }
        Workload::Lines => {
            round_robin(&mut lanes(readers, Vec::new), |i, reader, line| {
                Ok(reader.line(line, &mut sinks[i], c)? > 0)
            })?;
        }
        Workload::Frames => {
            let reuse = spec.reuse;
            round_robin(&mut lanes(readers, || FrameBuf { reuse, buf: Vec::new() }), |i, reader, frame| {
                match reader.frame_header(c)? {
                    None => Ok(false),
                    Some(n) => {
                        reader.frame_payload(n as usize, frame, &mut sinks[i], c)?;
                        Ok(true)
                    }
                }
            })?;
        }
        Workload::Scan => {
            round_robin(&mut lanes(readers, || ()), |i, reader, ()| reader.scan_step(app_buf, &mut sinks[i], c))?;
        }
    }
    Ok(counts)
}
