//! What a buffer would have made of a descriptor's reads: the program's
//! own requests, replayed through the engine's readers over a source that
//! delivers what the log shows the real one delivered.
//!
//! The source ([`TraceSource`]) is the descriptor's bytes cut where the log
//! shows the data ran out: after every read that came back short (it got
//! all there was), and at every end of file (a read that returned 0: the
//! source answers 0 there until the program's requests have gone past
//! that point of the log, as a file answers 0 at its end until more is
//! written to it). A full read shows no cut: the
//! source had at least what was asked, so consecutive full reads are one
//! stretch a larger read may take whole. A read never crosses a cut, and
//! on a pipe never takes more than the pipe holds ([`read_limit`]). Under
//! these rules the unbuffered replay makes exactly the log's calls (each
//! request meets the same cut the real one did), which a test checks.
//!
//! The program ([`drive`]) makes the log's requests in order: for each
//! call that got `r` bytes, it asks the reader for what the call asked,
//! less what it has got, until it has the same `r` bytes, so it stays at
//! the log's position in the stream (a buffered reader may hand over less
//! per call than the kernel did, never more: it cannot read past a cut).
//! A call that got 0 is one request that gets 0. Failed calls (`EAGAIN`,
//! `EINTR`) and positional reads (`pread64`) are not replayed.
//!
//! Counting is BufLab's everywhere: the source is wrapped in
//! [`Counted`](crate::engine::real::Counted), which records every call the
//! reader makes on it; each reader is built by its own strategy
//! ([`readers::visit`]).

use std::cell::Cell;
use std::io::{self, ErrorKind, Read};

use super::fds::Run;
use crate::engine::experiment::{self, Timelines};
use crate::engine::clock::{Clock, Sampling};
use crate::engine::readers::{self, ReaderConfig, Strategy, Visit};
use crate::engine::real::Counted;
use crate::engine::source::{ObservedRead, Probe};
use crate::engine::sweep::knee;
use crate::model::trace::{Descriptor, FitReason, FitRun, LinkFit, Replay, ReplayOptions, ReplayRun, ReplaySeries, ReplaySweep, SourceKind, TraceReport};
use crate::model::{ChunkModel, Id, ParamError, Params, ReaderKind, Workload, LIMITS, PIPE_CHUNK, TRACE};

/// The most one read may get from a descriptor's source: for a pipe, what a
/// pipe holds (Linux's default 64 KiB, or the largest read the log shows,
/// if the program's pipe was made larger); otherwise no limit.
pub fn read_limit(kind: SourceKind, max_returned: u64) -> Option<u64> {
    (kind == SourceKind::Pipe).then(|| max_returned.max(PIPE_CHUNK as u64))
}

/// A descriptor's source as the log shows it delivered (see the module's
/// documentation). It holds no bytes: the log has at most the first few of
/// each read, and no count depends on them.
#[derive(Debug)]
pub struct TraceSource<'r> {
    runs: &'r [Run],
    /// The run being delivered, and how many of its bytes have been.
    run: usize,
    at: u64,
    limit: usize,
    /// The run the program's current request belongs to (the driver sets
    /// it): an end of file holds until the program has gone past it.
    program_at: &'r Cell<usize>,
}

impl<'r> TraceSource<'r> {
    pub fn new(runs: &'r [Run], limit: Option<u64>, program_at: &'r Cell<usize>) -> TraceSource<'r> {
        let limit = limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
        TraceSource { runs, run: 0, at: 0, limit, program_at }
    }

    /// Whether run `i` is an end of file the program has not gone past.
    fn holds(&self, i: usize) -> bool {
        let r = self.runs[i];
        r.returned == 0 && r.asked > 0 && self.program_at.get() <= i
    }

    fn next_run(&mut self) {
        self.run += 1;
        self.at = 0;
    }

    /// One read call of up to `want` bytes: how many it gets.
    fn take(&mut self, want: usize) -> usize {
        if want == 0 {
            return 0;
        }
        let want = want.min(self.limit) as u64;
        let mut got = 0;
        while got < want {
            let Some(&r) = self.runs.get(self.run) else { break };
            if r.returned == 0 {
                if self.holds(self.run) {
                    break; // the end of file cuts the stream, and answers 0
                }
                // An empty request, or an end of file the program is past.
                self.next_run();
                continue;
            }
            let piece = u64::from(r.returned);
            let total = piece * u64::from(r.count);
            let short = r.returned < r.asked;
            let room = if short { piece - self.at % piece } else { total - self.at };
            let n = room.min(want - got);
            got += n;
            self.at += n;
            let cut = short && self.at % piece == 0;
            if self.at == total {
                self.next_run();
            }
            if cut {
                break;
            }
        }
        got as usize
    }
}

impl Read for TraceSource<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Ok(self.take(buf.len()))
    }
}

impl ObservedRead for TraceSource<'_> {}

/// The largest request the replay's program makes, and how many calls
/// asked for more than [`TRACE`]`.replay_ask` (replayed as asks of that).
fn asks(runs: &[Run]) -> (usize, u64) {
    let most = TRACE.replay_ask;
    let largest = runs.iter().map(|r| u64::from(r.asked)).max().unwrap_or(0);
    let cut = runs.iter().filter(|r| u64::from(r.asked) > most).map(|r| u64::from(r.count)).sum();
    (largest.min(most) as usize, cut)
}

/// One reader `kind` (buffer capacity `cap`) over the descriptor's source,
/// driven by its own requests.
pub fn drive(runs: &[Run], limit: Option<u64>, kind: ReaderKind, cap: u64) -> io::Result<ReplayRun> {
    struct Go<'a> {
        runs: &'a [Run],
        limit: Option<u64>,
        cap: u64,
    }
    impl Visit for Go<'_> {
        type Output = io::Result<ReplayRun>;
        fn visit<T: Strategy>(self) -> io::Result<ReplayRun> {
            let probe = Probe::default();
            let config = ReaderConfig { cap: self.cap as usize, pool: true };
            let shared = T::shared(config)?;
            let mut buf = vec![0u8; asks(self.runs).0];
            let program_at = Cell::new(0);
            let source = Counted::new(TraceSource::new(self.runs, self.limit, &program_at), &probe, None);
            let mut reader = T::build(&shared, config, source);
            let (mut app_reads, mut bytes) = (0u64, 0u64);
            for (i, r) in self.runs.iter().enumerate() {
                program_at.set(i);
                let asked = u64::from(r.asked);
                let want = u64::from(r.returned);
                for _ in 0..r.count {
                    let mut got = 0;
                    loop {
                        let room = (asked - got).min(buf.len() as u64) as usize;
                        app_reads += 1;
                        let n = read_through(&mut reader, &mut buf[..room])? as u64;
                        got += n;
                        if n == 0 || got >= want {
                            break;
                        }
                    }
                    debug_assert_eq!(got, want, "the replay stays at the log's position");
                    bytes += got;
                }
            }
            let counted = T::counted(&shared);
            let bytes_copied = match counted {
                Some(c) => c.bytes_copied,
                // A black box: what the program got that the source did not
                // write into the program's memory itself, the reader copied.
                None => bytes.saturating_sub(probe.direct_bytes()),
            };
            let buffered = T::INFO.id != ReaderKind::Unbuffered;
            Ok(ReplayRun {
                reader: T::INFO.id,
                cap: buffered.then_some(self.cap),
                source_reads: probe.source_reads(),
                app_reads,
                bytes,
                bytes_copied,
                blocks: counted.map(|c| c.blocks),
            })
        }
    }
    readers::visit(kind, Go { runs, limit, cap: cap.max(1) })
}

/// A read that retries when interrupted, as a program's loop would.
fn read_through(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            result => return result,
        }
    }
}

/// A log read to its end (or as far as it was fed): its figures, and what
/// the replay needs of each descriptor.
#[derive(Clone, Debug)]
pub struct Trace {
    pub report: TraceReport,
    /// Per descriptor: its request sequence (a prefix, when a bound cut it).
    sequences: Vec<Vec<Run>>,
    /// Per descriptor: the most one read may get (a pipe's capacity).
    limits: Vec<Option<u64>>,
}

impl Trace {
    pub(super) fn new(report: TraceReport, sequences: Vec<Vec<Run>>, limits: Vec<Option<u64>>) -> Trace {
        Trace { report, sequences, limits }
    }

    /// Descriptor `id`'s request sequence.
    pub fn runs(&self, id: u32) -> Option<&[Run]> {
        self.sequences.get(id as usize).map(Vec::as_slice)
    }

    /// The heap the sequences hold, in bytes.
    pub fn sequence_bytes(&self) -> usize {
        self.sequences.iter().map(|s| s.capacity() * std::mem::size_of::<Run>()).sum()
    }
}

/// The capacities a sweep replays: the powers of two of [`TRACE`]`.sweep_caps`.
pub fn sweep_caps() -> Vec<u64> {
    let b = TRACE.sweep_caps;
    std::iter::successors(Some(b.min.next_power_of_two()), |c| c.checked_mul(2)).take_while(|&c| c <= b.max).collect()
}

fn refused(key: &'static str, message: String) -> ParamError {
    ParamError { key, message }
}

impl Trace {
    /// Checks `options` against the limits.
    fn check(&self, id: u32, options: &ReplayOptions) -> Result<(), ParamError> {
        if id as usize >= self.report.descriptors.len() {
            return Err(refused("descriptor", format!("the log has {} descriptors; {id} is not one", self.report.descriptors.len())));
        }
        if options.caps.is_empty() || options.caps.len() > 8 {
            return Err(refused("cap", format!("1 to 8 capacities, not {}", options.caps.len())));
        }
        if let Some(&bad) = options.caps.iter().find(|&&c| !LIMITS.cap.contains(c)) {
            return Err(refused("cap", format!("{bad} is outside {}..={}", LIMITS.cap.min, LIMITS.cap.max)));
        }
        if options.readers.len() > ReaderKind::all().len() {
            return Err(refused("rd", "too many readers".into()));
        }
        Ok(())
    }

    /// Replays descriptor `id` through the unbuffered reader and each of
    /// `options.readers` at each of `options.caps`, with the capacity sweep
    /// and the nearest link if asked. `clock` only serves the link's
    /// counted run (nothing here is timed).
    pub fn replay(&self, id: u32, options: &ReplayOptions, clock: &dyn Clock) -> Result<Replay, ParamError> {
        self.check(id, options)?;
        let d = &self.report.descriptors[id as usize];
        let runs = &self.sequences[id as usize];
        let limit = self.limits[id as usize];
        let failed = |e: io::Error| refused("replay", e.to_string());
        let mut out = vec![drive(runs, limit, ReaderKind::Unbuffered, 1).map_err(failed)?];
        let buffered: Vec<ReaderKind> = options.readers.iter().copied().filter(|&r| r != ReaderKind::Unbuffered).collect();
        for &reader in &buffered {
            for &cap in &options.caps {
                out.push(drive(runs, limit, reader, cap).map_err(failed)?);
            }
        }
        let sweep = if options.sweep { Some(self.sweep(id, &buffered).map_err(failed)?) } else { None };
        let fit = if options.fit { self.fit(d, &out, options.caps[0], clock)? } else { None };
        Ok(Replay {
            descriptor: id,
            runs: out,
            sequence: d.sequence,
            pieces: pieces(runs),
            read_limit: limit,
            asks_cut: asks(runs).1,
            sweep,
            fit,
            headline: String::new(),
        })
    }

    /// The replay of descriptor `id` through `readers` at every capacity of
    /// [`sweep_caps`], with each reader's knee.
    pub fn sweep(&self, id: u32, readers: &[ReaderKind]) -> io::Result<ReplaySweep> {
        let runs = &self.sequences[id as usize];
        let limit = self.limits[id as usize];
        let caps = sweep_caps();
        let mut series = Vec::new();
        for &reader in readers {
            let mut source_reads = Vec::with_capacity(caps.len());
            let mut bytes_copied = Vec::with_capacity(caps.len());
            for &cap in &caps {
                let run = drive(runs, limit, reader, cap)?;
                source_reads.push(run.source_reads);
                bytes_copied.push(run.bytes_copied);
            }
            let metric: Vec<f64> = source_reads.iter().map(|&n| n as f64).collect();
            let knee = knee(&metric).map(|i| caps[i]);
            series.push(ReplaySeries { reader, source_reads, bytes_copied, knee });
        }
        let unbuffered = drive(runs, limit, ReaderKind::Unbuffered, 1)?.source_reads;
        Ok(ReplaySweep { caps, series, unbuffered })
    }

    /// The BufLab link nearest to descriptor `d`'s pattern at capacity
    /// `cap`, with its counts against the replay's (`replayed`); `None`
    /// when the replay has fewer bytes than a link's shortest stream.
    fn fit(&self, d: &Descriptor, replayed: &[ReplayRun], cap: u64, clock: &dyn Clock) -> Result<Option<LinkFit>, ParamError> {
        let Some((reason, chunk)) = nearest_model(d) else { return Ok(None) };
        if d.sequence.bytes < LIMITS.len.min {
            return Ok(None); // a link cannot carry so few bytes
        }
        let figures = &d.asked;
        let rs = figures.exact.first().map_or(figures.max, |e| e.size);
        let bytes = d.sequence.bytes;
        let len = LIMITS.len.clamp(bytes);
        let params = Params {
            len,
            chunk,
            cap,
            rs: LIMITS.rs.clamp(rs),
            readers: vec![ReaderKind::Unbuffered, ReaderKind::Std],
            workload: Workload::Fixed,
            ..Params::default()
        };
        let report = experiment::run_with(&params, clock, Sampling::COUNTS, Timelines::Skip)?;
        let scale = bytes as f64 / len as f64;
        let runs = report
            .runs
            .iter()
            .filter_map(|run| {
                let replay = replayed.iter().find(|r| r.reader == run.reader && r.cap.is_none_or(|c| c == cap))?;
                let ratio = if replay.source_reads == 0 { 0.0 } else { run.source_reads as f64 * scale / replay.source_reads as f64 };
                Some(FitRun { reader: run.reader, replay: replay.source_reads, link: run.source_reads, ratio })
            })
            .collect();
        Ok(Some(LinkFit { reason, params, link: String::new(), scale, runs, about: String::new() }))
    }
}

/// The chunk model nearest to what a descriptor's reads show, and why;
/// `None` without data.
pub fn nearest_model(d: &Descriptor) -> Option<(FitReason, ChunkModel)> {
    if d.sequence.bytes == 0 {
        return None;
    }
    let shorts = &d.short_sizes;
    if shorts.calls == 0 {
        return Some((FitReason::WholeRequests, ChunkModel::File));
    }
    let clamp = |n: u64| LIMITS.chunk.clamp(n) as usize;
    if shorts.exact.len() == 1 && shorts.other == 0 {
        return Some((FitReason::OneSize, ChunkModel::Fixed { size: clamp(shorts.min) }));
    }
    let pipe = PIPE_CHUNK as u64;
    let at_pipe = shorts.exact.iter().find(|e| e.size == pipe).map_or(0, |e| e.count);
    if shorts.max <= pipe && at_pipe * 2 >= shorts.calls {
        return Some((FitReason::PipeSized, ChunkModel::Pipe));
    }
    Some((FitReason::SizeRange, ChunkModel::Uniform { min: clamp(shorts.min.max(1)), max: clamp(shorts.max) }))
}

/// Stretches of bytes the source delivers: one per short read and per run
/// of full reads before a cut.
fn pieces(runs: &[Run]) -> u64 {
    let mut pieces = 0;
    let mut open = false;
    for r in runs {
        match (r.returned, r.returned < r.asked) {
            (0, _) => {
                pieces += u64::from(open);
                open = false;
            }
            (_, true) => {
                pieces += u64::from(r.count);
                open = false;
            }
            (_, false) => open = true,
        }
    }
    pieces + u64::from(open)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(asked: u32, returned: u32, count: u32) -> Run {
        Run { asked, returned, count }
    }

    /// What the source gives each ask, the program at run `at` of each.
    fn takes(runs: &[Run], limit: Option<u64>, asks: &[(usize, usize)]) -> Vec<usize> {
        let program_at = Cell::new(0);
        let mut s = TraceSource::new(runs, limit, &program_at);
        asks.iter()
            .map(|&(at, a)| {
                program_at.set(at);
                TraceSource::take(&mut s, a)
            })
            .collect()
    }

    #[test]
    fn full_reads_join_and_short_reads_cut() {
        // 10 × 1 byte in full, then a short read of 5, then an end of file.
        let runs = [run(1, 1, 10), run(100, 5, 1), run(100, 0, 1)];
        assert_eq!(takes(&runs, None, &[(0, 8), (0, 8), (1, 8), (2, 8), (2, 8)]), [8, 7, 0, 0, 0]);
        assert_eq!(takes(&runs, None, &[(0, 100), (2, 100), (3, 100)]), [15, 0, 0]);
        // A short run: every piece is cut.
        let runs = [run(4096, 100, 3)];
        assert_eq!(takes(&runs, None, &[(0, 8192), (0, 50), (0, 8192), (0, 8192), (1, 8192)]), [100, 50, 50, 100, 0]);
        // A pipe holds at most its capacity.
        let runs = [run(1, 1, 200_000)];
        let ask = 1 << 20;
        assert_eq!(takes(&runs, read_limit(SourceKind::Pipe, 1), &[(0, ask), (0, ask), (0, ask), (0, ask)]), [65536, 65536, 65536, 3392]);
        // An end of file in the middle answers 0 until the program is past
        // it (however often it is asked), then the stream goes on.
        let runs = [run(10, 10, 1), run(10, 0, 2), run(0, 0, 5), run(10, 10, 1)];
        assert_eq!(takes(&runs, None, &[(0, 100), (1, 0), (1, 100), (1, 100), (1, 100), (2, 100), (3, 100)]), [10, 0, 0, 0, 0, 10, 0]);
    }

    #[test]
    fn unbuffered_makes_the_logs_calls_and_a_bufreader_fills_its_buffer() {
        // 2,097,152 reads of 1 byte from a file, then its end.
        let runs = [run(1, 1, 2_097_152), run(1, 0, 1)];
        let unbuffered = drive(&runs, None, ReaderKind::Unbuffered, 1).unwrap();
        assert_eq!((unbuffered.source_reads, unbuffered.app_reads, unbuffered.bytes), (2_097_153, 2_097_153, 2_097_152));
        let std = drive(&runs, None, ReaderKind::Std, 8192).unwrap();
        assert_eq!((std.source_reads, std.app_reads, std.bytes_copied), (257, 2_097_153, 2_097_152));
        let chained = drive(&runs, None, ReaderKind::Chained, 8192).unwrap();
        assert_eq!(chained.source_reads, 257);
    }

    #[test]
    fn a_buffer_cannot_join_what_arrived_in_pieces() {
        // A pipe whose writer wrote 100 bytes at a time, read 4 KiB at a time.
        let runs = [run(4096, 100, 1000), run(4096, 0, 1)];
        for (kind, cap) in [(ReaderKind::Unbuffered, 1), (ReaderKind::Std, 8192), (ReaderKind::Chained, 65536)] {
            assert_eq!(drive(&runs, None, kind, cap).unwrap().source_reads, 1001, "{kind:?}");
        }
        // Large reads bypass std's buffer.
        let runs = [run(65536, 65536, 16), run(65536, 0, 1)];
        let std = drive(&runs, None, ReaderKind::Std, 8192).unwrap();
        assert_eq!((std.source_reads, std.bytes_copied), (17, 0));
    }

    #[test]
    fn an_empty_request_before_an_end_of_file_does_not_move_the_end() {
        // std's BufReader fills its buffer even for an empty read: at the
        // end it meets the end of file, which must still be there for the
        // program's own probe.
        let runs = [run(10, 10, 1), run(0, 0, 1), run(10, 0, 1), run(10, 10, 1), run(10, 0, 1)];
        for (kind, cap) in [(ReaderKind::Unbuffered, 1), (ReaderKind::Std, 4), (ReaderKind::Std, 64), (ReaderKind::Chained, 8)] {
            let r = drive(&runs, None, kind, cap).unwrap();
            assert_eq!(r.bytes, 20, "{kind:?} {cap}");
        }
        assert_eq!(drive(&runs, None, ReaderKind::Unbuffered, 1).unwrap().source_reads, 5);
    }

    #[test]
    fn pieces_are_counted_between_cuts() {
        assert_eq!(pieces(&[run(1, 1, 10), run(100, 5, 1), run(100, 0, 1)]), 1);
        assert_eq!(pieces(&[run(4096, 100, 3), run(1, 1, 2)]), 4);
        assert_eq!(pieces(&[]), 0);
    }

    #[test]
    fn sweep_caps_are_powers_of_two_in_the_bounds() {
        let caps = sweep_caps();
        assert_eq!((caps[0], *caps.last().unwrap()), (TRACE.sweep_caps.min, TRACE.sweep_caps.max));
        assert!(caps.windows(2).all(|w| w[1] == 2 * w[0]));
    }
}
