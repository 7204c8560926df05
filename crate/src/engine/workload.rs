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

use super::heap::Lanes;
use super::source::{copy, Probe, SHORT_COPY};
use crate::model::{Id, ParamError, Params, Workload};

/// Whether this build of the engine runs `workload`: a workload's loops
/// (the counted pass's, the timed pass's, the timeline's) are compiled in
/// only with its cargo feature `wl-<id>`. Natively and in the counting build
/// every workload is; each of the page's timing builds runs one, so a link
/// fetches the loops it runs and no others (crate/Cargo.toml, `[features]`).
pub fn served(workload: Workload) -> bool {
    match workload {
        Workload::Fixed => cfg!(feature = "wl-fixed"),
        Workload::Exact => cfg!(feature = "wl-exact"),
        Workload::Bytes => cfg!(feature = "wl-bytes"),
        Workload::ToEnd => cfg!(feature = "wl-to_end"),
        Workload::Lines => cfg!(feature = "wl-lines"),
        Workload::Frames => cfg!(feature = "wl-frames"),
        Workload::Scan => cfg!(feature = "wl-scan"),
    }
}

/// Refuses, before anything runs, a workload this build does not run
/// ([`served`]), naming the ones it does.
pub fn check_served(workload: Workload) -> Result<(), ParamError> {
    if served(workload) {
        return Ok(());
    }
    let runs: Vec<&str> = Workload::all().into_iter().filter(|&w| served(w)).map(Id::id).collect();
    let runs = if runs.is_empty() { "no read-lab workload".to_string() } else { format!("the workloads {}", runs.join(", ")) };
    Err(ParamError { key: "wl", message: format!("this build of the engine runs {runs}, not {}", workload.id()) })
}

/// The error of a loop asked for a workload this build does not run (the
/// runs check [`served`] first, so only a caller that skipped it sees this).
pub fn unserved(workload: Workload) -> io::Error {
    io::Error::new(ErrorKind::Unsupported, format!("this build of the engine does not run the {} workload", workload.id()))
}

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

impl Spec {
    /// The workload `params` describe, over streams of `len` bytes, with
    /// the application's reads of `params.rs` bytes.
    pub fn of(params: &Params, len: usize) -> Spec {
        Spec { workload: params.workload, rs: params.rs as usize, len, reuse: params.reuse }
    }
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

/// What the application's operations add up to. The counted pass tallies
/// into [`AppCounts`]; the timed pass into `()`, whose methods are empty, so
/// its loops carry no bookkeeping the user's program would not have.
pub trait Tally {
    /// One call the application made on the reader.
    fn call(&mut self);
    /// `n` bytes the reader wrote into the application's own memory.
    fn owned(&mut self, n: usize);
    /// `n` bytes the application received (owned or borrowed).
    fn got(&mut self, n: usize);
    /// Counts taken elsewhere (the buffer timeline measures each step on its own).
    fn add(&mut self, counts: &AppCounts);
}

impl Tally for AppCounts {
    #[inline]
    fn call(&mut self) {
        self.app_reads += 1;
    }
    #[inline]
    fn owned(&mut self, n: usize) {
        self.owned_bytes += n as u64;
    }
    #[inline]
    fn got(&mut self, n: usize) {
        self.bytes += n as u64;
    }
    fn add(&mut self, c: &AppCounts) {
        self.app_reads += c.app_reads;
        self.bytes += c.bytes;
        self.owned_bytes += c.owned_bytes;
    }
}

/// The timed pass counts nothing.
impl Tally for () {
    #[inline(always)]
    fn call(&mut self) {}
    #[inline(always)]
    fn owned(&mut self, _: usize) {}
    #[inline(always)]
    fn got(&mut self, _: usize) {}
    #[inline(always)]
    fn add(&mut self, _: &AppCounts) {}
}

/// Receives the bytes the application read.
pub trait Consume {
    fn take(&mut self, bytes: &[u8]);
}

/// A sink that tells the probe of every piece the application receives, so
/// the reader's clock charges the application's work on it (and a real
/// run spends it).
pub struct Ticking<'p, C> {
    pub inner: C,
    pub probe: &'p Probe,
}

impl<C: Consume> Consume for Ticking<'_, C> {
    #[inline]
    fn take(&mut self, bytes: &[u8]) {
        self.inner.take(bytes);
        self.probe.took();
    }
}

impl<C: Consume + ?Sized> Consume for &mut C {
    #[inline]
    fn take(&mut self, bytes: &[u8]) {
        (**self).take(bytes)
    }
}

/// Hashes everything received: the correctness check.
///
/// Single bytes (a 1-byte read's) are gathered first and hashed a few hundred
/// at a time: an `Xxh3::update` call per byte cost more than the read being
/// counted. The digest is the same either way: a streaming hash does not
/// depend on how its input is cut.
pub struct DigestSink {
    hash: Xxh3,
    staged: [u8; STAGE],
    len: usize,
}

/// Short slices (up to [`SHORT_COPY`] bytes, the copies [`copy`] does by
/// fixed-size moves) gathered before they are hashed: an `Xxh3::update` per
/// few-byte read cost about a quarter of the counted pass in WebAssembly.
const STAGE: usize = 256;

impl Default for DigestSink {
    fn default() -> Self {
        DigestSink { hash: Xxh3::new(), staged: [0; STAGE], len: 0 }
    }
}

impl DigestSink {
    pub fn value(&self) -> u64 {
        let mut hash = self.hash.clone();
        hash.update(&self.staged[..self.len]);
        hash.digest()
    }

    /// The digest as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.value())
    }

    /// [`Consume::take`] of anything but one byte with room for it: kept out
    /// of the 1-byte reads' loops.
    #[inline(never)]
    fn take_slice(&mut self, bytes: &[u8]) {
        let n = bytes.len();
        if n <= SHORT_COPY {
            if self.len + n > STAGE {
                self.hash.update(&self.staged[..self.len]);
                self.len = 0;
            }
            copy(&mut self.staged[self.len..self.len + n], bytes);
            self.len += n;
            return;
        }
        self.hash.update(&self.staged[..self.len]);
        self.len = 0;
        self.hash.update(bytes);
    }
}

impl Consume for DigestSink {
    #[inline]
    fn take(&mut self, bytes: &[u8]) {
        if let ([byte], true) = (bytes, self.len < STAGE) {
            self.staged[self.len] = *byte;
            self.len += 1;
        } else {
            self.take_slice(bytes);
        }
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
/// does better. Each method adds what it did to the tally `t`.
pub trait AppReader: Read {
    /// Reads one line, through its `\n` or to the end of the stream, and
    /// gives it to `sink`. Returns its length; 0 means the stream has ended.
    ///
    /// Provided: one byte per `read` call, the only way without a buffer not
    /// to take bytes that belong to the next line.
    fn line<C: Consume, T: Tally>(&mut self, line: &mut Vec<u8>, sink: &mut C, t: &mut T) -> io::Result<usize> {
        line.clear();
        let mut byte = [0u8; 1];
        loop {
            t.call();
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
        t.owned(line.len());
        t.got(line.len());
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
    fn frame_header<T: Tally>(&mut self, t: &mut T) -> io::Result<Option<u32>> {
        let mut header = [0u8; 4];
        loop {
            t.call();
            match self.read(&mut header[..1]) {
                Ok(0) => return Ok(None),
                Ok(_) => break,
                Err(e) if interrupted(&e) => continue,
                Err(e) => return Err(e),
            }
        }
        t.call();
        self.read_exact(&mut header[1..])?;
        t.owned(4);
        t.got(4);
        Ok(Some(u32::from_be_bytes(header)))
    }

    /// Reads a frame's `n`-byte payload and gives it to `sink`.
    ///
    /// Provided: `read_exact` into a fresh `Vec` per frame, as code that
    /// hands each payload on by value does (seed 002's bufio example
    /// allocates one per packet), or into `frame.buf` when reuse is on.
    fn frame_payload<C: Consume, T: Tally>(
        &mut self,
        n: usize,
        frame: &mut FrameBuf,
        sink: &mut C,
        t: &mut T,
    ) -> io::Result<()> {
        t.call();
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
        t.owned(n);
        t.got(n);
        Ok(())
    }

    /// One step of the NUL scan: gives the bytes before the NUL to `sink`.
    /// Returns whether to go on (no NUL yet, stream not ended).
    ///
    /// Provided: one `read` of the read size into the application's buffer.
    fn scan_step<C: Consume, T: Tally>(&mut self, buf: &mut [u8], sink: &mut C, t: &mut T) -> io::Result<bool> {
        t.call();
        let n = match self.read(buf) {
            Ok(n) => n,
            Err(e) if interrupted(&e) => return Ok(true),
            Err(e) => return Err(e),
        };
        t.owned(n);
        Ok(scan_piece(&buf[..n], sink, t).is_none())
    }
}

/// Gives `piece` up to its first NUL to `sink`; `Some(i)` when the NUL is at
/// `i`. An empty piece is the end of the stream and also ends the scan.
fn scan_piece<C: Consume, T: Tally>(piece: &[u8], sink: &mut C, t: &mut T) -> Option<usize> {
    if piece.is_empty() {
        return Some(0);
    }
    let end = memchr::memchr(0, piece);
    let before = &piece[..end.unwrap_or(piece.len())];
    if !before.is_empty() {
        sink.take(before);
    }
    t.got(before.len());
    end
}

/// A reader that takes the buffered way at every step, as std's `BufReader`
/// does: lines with `read_until`, a frame header once `fill_buf` says a byte
/// is left, the NUL scan in place with `fill_buf` + `consume`. A reader opts
/// in with an empty impl; its [`AppReader`] is then the one below.
pub trait Buffered: BufRead {}

impl<R: Buffered> AppReader for R {
    fn line<C: Consume, T: Tally>(&mut self, line: &mut Vec<u8>, sink: &mut C, t: &mut T) -> io::Result<usize> {
        line_with_read_until(self, line, sink, t)
    }

    fn frame_header<T: Tally>(&mut self, t: &mut T) -> io::Result<Option<u32>> {
        frame_header_with_read_exact(self, t)
    }

    fn scan_step<C: Consume, T: Tally>(&mut self, _buf: &mut [u8], sink: &mut C, t: &mut T) -> io::Result<bool> {
        scan_in_place(self, sink, t)
    }
}

/// [`AppReader::line`] for a reader with a buffer: `read_until`.
pub fn line_with_read_until<B: BufRead, C: Consume, T: Tally>(
    reader: &mut B,
    line: &mut Vec<u8>,
    sink: &mut C,
    t: &mut T,
) -> io::Result<usize> {
    line.clear();
    t.call();
    let n = reader.read_until(b'\n', line)?;
    t.owned(n);
    t.got(n);
    if n > 0 {
        sink.take(line);
    }
    Ok(n)
}

/// [`AppReader::frame_header`] for a reader with a buffer: whether a byte is
/// left (`fill_buf`, so a clean end costs no copy), then `read_exact` of the
/// whole header.
pub fn frame_header_with_read_exact<B: BufRead, T: Tally>(reader: &mut B, t: &mut T) -> io::Result<Option<u32>> {
    if !has_more(reader, t)? {
        return Ok(None);
    }
    let mut header = [0u8; 4];
    t.call();
    reader.read_exact(&mut header)?;
    t.owned(4);
    t.got(4);
    Ok(Some(u32::from_be_bytes(header)))
}

/// True when at least one more byte can be had; false at the end of stream.
/// Retries interrupted reads, as `read_exact` does.
pub fn has_more<B: BufRead, T: Tally>(reader: &mut B, t: &mut T) -> io::Result<bool> {
    t.call();
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
pub fn scan_in_place<B: BufRead, C: Consume, T: Tally>(reader: &mut B, sink: &mut C, t: &mut T) -> io::Result<bool> {
    t.call();
    let available = match reader.fill_buf() {
        Ok(buf) => buf,
        Err(e) if interrupted(&e) => return Ok(true),
        Err(e) => return Err(e),
    };
    let n = available.len();
    match scan_piece(available, sink, t) {
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

/// How many streams a loop serves, as a type. One stream's loop is a plain
/// loop with no round-robin code beside it, so its reader's methods have one
/// caller, as in the single-stream program (`engine::timed` relies on it).
pub trait Arity {
    const ONE: bool;
}

/// Exactly one stream.
pub enum One {}

/// Any number of streams, read round-robin.
pub enum Many {}

impl Arity for One {
    const ONE: bool = true;
}

impl Arity for Many {
    const ONE: bool = false;
}

/// One stream's reader and the workload's state for it.
struct Lane<R, S> {
    reader: R,
    state: S,
    done: bool,
}

/// Rounds per call of [`rounds`]: a call costs next to nothing beside them.
const ROUNDS: usize = 1024;

/// Takes one step on each live stream in turn until every stream is done.
/// `step` gets the stream's reader, state and sink, and says whether the
/// stream has more to do; `state` makes each stream's state.
fn round_robin<A: Arity, R, S, C>(
    mut readers: Lanes<R>,
    mut state: impl FnMut() -> S,
    sinks: &mut [C],
    mut step: impl FnMut(&mut R, &mut S, &mut C) -> io::Result<bool>,
) -> io::Result<()> {
    if A::ONE {
        // The reader and its state are locals and the loop is plain.
        assert_eq!((readers.len(), sinks.len()), (1, 1), "one stream");
        let (Some(mut reader), [sink]) = (readers.pop(), sinks) else { unreachable!() };
        let mut own = state();
        while step(&mut reader, &mut own, sink)? {}
        return Ok(());
    }
    let mut lanes = readers.map(|reader| Lane { reader, state: state(), done: false });
    let mut live = lanes.len();
    while live > 0 {
        live = rounds(&mut lanes, sinks, &mut step, live)?;
    }
    Ok(())
}

/// Up to [`ROUNDS`] rounds of [`round_robin`]; returns the streams still
/// live. A function of its own, called again and again, because V8 replaces
/// a wasm function's unoptimized code only at its next call: a pass that
/// loops in one call would run its whole first time unoptimized, and the
/// counted pass (every link's first numbers) runs once per link, cold
/// (docs/benchmarks.md, "Counts").
#[inline(never)]
fn rounds<R, S, C>(
    lanes: &mut [Lane<R, S>],
    sinks: &mut [C],
    step: &mut impl FnMut(&mut R, &mut S, &mut C) -> io::Result<bool>,
    mut live: usize,
) -> io::Result<usize> {
    for _ in 0..ROUNDS {
        if live == 0 {
            break;
        }
        for (lane, sink) in lanes.iter_mut().zip(sinks.iter_mut()) {
            if lane.done {
                continue;
            }
            if !step(&mut lane.reader, &mut lane.state, sink)? {
                lane.done = true;
                live -= 1;
            }
        }
    }
    Ok(live)
}

/// Runs `spec` over one reader per stream, round-robin, adding what the
/// application did to `t`. `app_buf` is the application's read buffer (its
/// length is the read size), `sinks[i]` receives what stream `i` delivered.
/// The readers are dropped before this returns, so their buffers are freed
/// inside the caller's allocation scope.
///
/// Each workload is a function of its own, so the timed pass can run one
/// over a reader type no other loop uses: a `read` with one caller compiles
/// as it does in the user's program, where a shared one runs slower
/// (docs/benchmarks.md, "The timed loops kept apart"). Never inlined: its
/// loops are calls of [`rounds`], so it is small enough that the optimizer
/// would fold every reader's into one large function, which Chromium
/// compiles and optimizes as a whole.
#[inline(never)]
pub fn drive<R: AppReader, C: Consume, T: Tally>(
    spec: &Spec,
    readers: Lanes<R>,
    app_buf: &mut [u8],
    sinks: &mut [C],
    t: &mut T,
) -> io::Result<()> {
    assert_eq!(readers.len(), sinks.len(), "one sink per stream");
    // Only the workloads this build runs (`served`) have an arm.
    match spec.workload {
        #[cfg(feature = "wl-fixed")]
        Workload::Fixed => fixed::<Many, _, _, _>(readers, app_buf, sinks, t),
        #[cfg(feature = "wl-exact")]
        Workload::Exact => exact::<Many, _, _, _>(readers, spec.len, app_buf, sinks, t),
        #[cfg(feature = "wl-bytes")]
        Workload::Bytes => bytes::<Many, _, _, _>(readers, sinks, t),
        #[cfg(feature = "wl-to_end")]
        Workload::ToEnd => to_end::<Many, _, _, _>(readers, spec.len, sinks, t),
        #[cfg(feature = "wl-lines")]
        Workload::Lines => lines::<Many, _, _, _>(readers, sinks, t),
        #[cfg(feature = "wl-frames")]
        Workload::Frames => frames::<Many, _, _, _>(readers, spec.reuse, sinks, t),
        #[cfg(feature = "wl-scan")]
        Workload::Scan => scan::<Many, _, _, _>(readers, app_buf, sinks, t),
        #[allow(unreachable_patterns)]
        other => {
            let _ = (readers, app_buf, sinks, t);
            Err(unserved(other))
        }
    }
}

/// `read` calls of the read size until one returns 0.
pub fn fixed<A: Arity, R: Read, C: Consume, T: Tally>(readers: Lanes<R>, app_buf: &mut [u8], sinks: &mut [C], t: &mut T) -> io::Result<()> {
    round_robin::<A, _, _, _>(readers, || (), sinks, |reader, (), sink| {
        t.call();
        match reader.read(app_buf) {
            Ok(0) => Ok(false),
            Ok(n) => {
                t.owned(n);
                t.got(n);
                sink.take(&app_buf[..n]);
                Ok(true)
            }
            Err(e) if interrupted(&e) => Ok(true),
            Err(e) => Err(e),
        }
    })
}

/// `read_exact` records of the read size; the last one is what is left of
/// `len` (the application knows the length, as with a file).
pub fn exact<A: Arity, R: Read, C: Consume, T: Tally>(
    readers: Lanes<R>,
    len: usize,
    app_buf: &mut [u8],
    sinks: &mut [C],
    t: &mut T,
) -> io::Result<()> {
    round_robin::<A, _, _, _>(readers, || len, sinks, |reader, left, sink| {
        let n = app_buf.len().min(*left);
        if n == 0 {
            return Ok(false);
        }
        t.call();
        reader.read_exact(&mut app_buf[..n])?;
        t.owned(n);
        t.got(n);
        sink.take(&app_buf[..n]);
        *left -= n;
        Ok(*left > 0)
    })
}

/// `Read::bytes()`, one byte per call. The iterator owns its reader, so
/// std's BufReader gets its `bytes()` fast path, as in a real program.
pub fn bytes<A: Arity, R: Read, C: Consume, T: Tally>(readers: Lanes<R>, sinks: &mut [C], t: &mut T) -> io::Result<()> {
    round_robin::<A, _, _, _>(readers.map(Read::bytes), || (), sinks, |bytes, (), sink| {
        t.call();
        match bytes.next() {
            None => Ok(false),
            Some(Ok(b)) => {
                t.owned(1);
                t.got(1);
                sink.take(&[b]);
                Ok(true)
            }
            Some(Err(e)) => Err(e),
        }
    })
}

/// `read_to_end` into a `Vec` sized from the known length, as the article
/// sized it from the file's metadata; dropped after the scan, like one file's.
pub fn to_end<A: Arity, R: Read, C: Consume, T: Tally>(readers: Lanes<R>, len: usize, sinks: &mut [C], t: &mut T) -> io::Result<()> {
    round_robin::<A, _, _, _>(readers, || (), sinks, |reader, (), sink| {
        let mut all = Vec::with_capacity(len);
        t.call();
        let n = reader.read_to_end(&mut all)?;
        t.owned(n);
        t.got(n);
        if n > 0 {
            sink.take(&all);
        }
        Ok(false)
    })
}

/// Text lines, through each reader's own way ([`AppReader::line`]).
pub fn lines<A: Arity, R: AppReader, C: Consume, T: Tally>(readers: Lanes<R>, sinks: &mut [C], t: &mut T) -> io::Result<()> {
    round_robin::<A, _, _, _>(readers, Vec::new, sinks, |reader, line, sink| Ok(reader.line(line, sink, t)? > 0))
}

/// Length-prefixed frames: a header, then its payload.
pub fn frames<A: Arity, R: AppReader, C: Consume, T: Tally>(readers: Lanes<R>, reuse: bool, sinks: &mut [C], t: &mut T) -> io::Result<()> {
    round_robin::<A, _, _, _>(readers, || FrameBuf { reuse, buf: Vec::new() }, sinks, |reader, frame, sink| {
        match reader.frame_header(t)? {
            None => Ok(false),
            Some(n) => {
                reader.frame_payload(n as usize, frame, sink, t)?;
                Ok(true)
            }
        }
    })
}

/// The bytes before the first NUL, one scan step at a time.
pub fn scan<A: Arity, R: AppReader, C: Consume, T: Tally>(readers: Lanes<R>, app_buf: &mut [u8], sinks: &mut [C], t: &mut T) -> io::Result<()> {
    round_robin::<A, _, _, _>(readers, || (), sinks, |reader, (), sink| reader.scan_step(app_buf, sink, t))
}

// proptest is a native dev-dependency only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    proptest::proptest! {
        // Staged or hashed at once, a byte string gives one digest however it is cut.
        #[test]
        fn a_digest_does_not_depend_on_how_the_bytes_were_cut(
            bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..2000),
            cuts in proptest::collection::vec(0usize..40, 1..200),
        ) {
            let mut sink = DigestSink::default();
            let (mut at, mut i) = (0, 0);
            while at < bytes.len() {
                let cut = cuts[i % cuts.len()];
                if cut == 0 {
                    sink.take(&[]);
                }
                let n = cut.max(1).min(bytes.len() - at);
                sink.take(&bytes[at..at + n]);
                at += n;
                i += 1;
            }
            proptest::prop_assert_eq!(sink.hex(), digest_of(&bytes));
        }
    }
}
