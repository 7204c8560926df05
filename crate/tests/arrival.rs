#![cfg(target_os = "linux")]
//! The arrival model against the kernel: `buflab real` (its pipe and
//! loopback TCP sources, the writer paced at the link's `rate`, the
//! application spending the link's `work` on each piece for real) beside
//! the model's source reads for the same link.
//!
//! - The buffer-size lesson's link at capacities 512, 2K, 8K and 64K, paced
//!   at three rates: the reader always waiting (0.15 times the program's
//!   pace; the quick check's 0.05 times), comparable (1.26 times its pace: the writer a little faster) and
//!   the writer far ahead (3.4 times). The kernel's count of read calls is
//!   within the tolerance of the model's at each point ([`TOLERANCE`]).
//! - Every other count a lesson quotes over a pipe or a socket, in the
//!   lesson's own world: a pipe written as fast as it takes data for the
//!   writer-ahead lessons; for the lessons whose reader waits for every piece
//!   (a link without `rate` models that reader), the same link with a writer
//!   paced far below the reader, over the first 16 to 64 KiB of the stream
//!   in a second: a piece every 2 to 4 ms (one for each of the worst
//!   network's tiny pieces), so that a test build's 1-byte reads and a busy
//!   machine's late wake-ups still leave the reader waiting. There the model's count with the rate must be the model's
//!   count without it (checked), and the kernel's must be the model's.
//!
//! Every test run checks the buffer-size lesson's three worlds on its first
//! 128 KiB through std's BufReader (the quick check, a few seconds); the whole lesson and the
//! other lessons' counts are an opt-in test (about 90 s, `--ignored`). One
//! real run at a time: the worlds are made of timing, and two runs side by
//! side on a 2-core machine would disturb each other.

use std::fmt::Write as _;

use buflab::catalog::lessons::{lesson, Lesson};
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::engine::real::native::run_over;
use buflab::link::{decode, encode};
use buflab::model::{format_size, ChunkModel, Id, LessonId, Params, ReaderKind, RealReport, RealSource, Run, KIB, MIB};

/// How far the kernel's count may lie from the model's: 20 % of the model's
/// count, and never less than 8 reads, around the model's counts for the
/// link at any rate within [`PACE_SLACK`] of its own.
///
/// Why a band of rates: a paced writer on a machine doing other things is
/// woken late now and then and catches up (at four times its rate), so over
/// the stretch of a run that decides a count its pace is the link's only
/// within some slack, and where the reader and the writer are comparable the
/// model's count is steep in the rate. The band is the model's own answer
/// to "what if the pace were a little off": computed, not typed. Where one
/// world holds, it is narrow.
///
/// Why 20 % and 8 reads: what one read can take when the writer is far ahead
/// is the kernel's (the model's pipe of 16 pages holds about 40 KiB of
/// 1–4 KiB pieces; a loopback socket takes more: 18 to 29 reads at 64 KiB
/// where the model says 25), and the first reads, while the backlog builds,
/// race the writer: a few reads either way. A reader or writer stalled for
/// milliseconds by a busy machine joins the pieces the model delivers one by
/// one meanwhile: on a machine shared by five builds, up to 15 % fewer reads
/// in the reader-waiting world (docs/benchmarks.md). The worlds this test
/// tells apart differ by far more: at 8 KiB, 130 reads with the writer far
/// ahead against 405 with the reader waiting.
pub const TOLERANCE: f64 = 0.20;
pub const TOLERANCE_READS: u64 = 8;
pub const PACE_SLACK: f64 = 0.15;

/// The tolerance over a socket where the writer is only a little ahead of
/// the reader (the comparable rate): 30 %. A socket delivers what TCP has
/// sent, and TCP sends as its receive window and acknowledgements allow:
/// while the backlog builds slowly, a read can find up to a window's worth
/// less than the writer wrote, so the first reads after every stall of a
/// busy machine are smaller than the model's. Seen: up to +16 % at 8 KiB
/// over three runs on a machine shared by five builds.
pub const SOCKET_TOLERANCE: f64 = 0.30;

/// Runs of a point, at most: a point outside the tolerance runs again. A
/// machine shared with other work stalls a thread now and then for
/// milliseconds (beside each run, how late the writer woke from its sleeps,
/// 9 in 10), and a run stalled at the wrong moment is not the world its link
/// describes; a model that is wrong is wrong every time.
pub const ATTEMPTS: usize = 3;

fn params_of(link: &str) -> Params {
    let d = decode(link);
    assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
    Params { sweep: None, lesson: None, ..d.params }
}

/// `buflab real` over a pipe and loopback TCP, counted (a paced run is not timed).
fn real(p: &Params) -> RealReport {
    run_over(p, &InstantClock::default(), Sampling::COUNTS, Sampling::QUICK, &[RealSource::Pipe, RealSource::Tcp], &[])
        .unwrap_or_else(|e| panic!("{}: {e}", encode(p)))
}

fn counts(p: &Params) -> Vec<Run> {
    buflab::api::run(p, &InstantClock::default(), Sampling::COUNTS).unwrap().runs
}

/// One point: the model's source reads and the band around them, and the
/// kernel's read calls (over TCP, the wrapper's count of `recv` calls: the
/// kernel's `syscr` leaves them out).
struct Point {
    what: String,
    source: RealSource,
    reader: ReaderKind,
    model: u64,
    /// The model's counts at rates within [`PACE_SLACK`], widened by the tolerance.
    band: (u64, u64),
    /// The tolerance used for the band.
    tolerance: f64,
    kernel: u64,
    /// How late the writer woke from its sleeps, 9 in 10, in µs (`None`: not paced).
    late_p90_us: Option<u64>,
    attempt: usize,
    /// Asserted; else printed only ([`NOT_ASSERTED`]).
    asserted: bool,
}

impl Point {
    fn within(&self) -> bool {
        (self.band.0..=self.band.1).contains(&self.kernel)
    }

    /// Within the tolerance, or not asserted.
    fn passes(&self) -> bool {
        self.within() || !self.asserted
    }
}

/// The points printed and not asserted: 64 KiB when the writer is only a
/// little faster than the reader. The model's backlog builds for most of
/// the run before a read can take 64 KiB (at 1.26 times the pace, about
/// 25 ms); a real one is reset by every stall of a busy machine, and over a
/// socket its size is also TCP's receive window, which grows and shrinks
/// with the reader (autotuning): not a fixed buffer. At 512 to 8 KiB the
/// backlog builds in a few milliseconds, and there the model holds.
const NOT_ASSERTED: &str = "comparable at 64 KiB";

/// The model's source reads of each reader at `p`, and the lowest and
/// highest at rates within [`PACE_SLACK`] of `p`'s: `steps` rates each side
/// (the full check 3, the quick one 1: the ends of the band, where the
/// count is monotonic in the rate as it is at these points).
fn bands(p: &Params, steps: u32) -> Vec<(ReaderKind, u64, (u64, u64))> {
    let at = counts(p);
    let n = f64::from(steps);
    let rates: Vec<u64> = if p.rate == 0 {
        vec![]
    } else {
        (0..=2 * steps).filter(|&i| i != steps).map(|i| (p.rate as f64 * (1.0 - PACE_SLACK + PACE_SLACK * f64::from(i) / n)) as u64).collect()
    };
    let around: Vec<Vec<Run>> = rates.iter().map(|&rate| counts(&Params { rate, ..p.clone() })).collect();
    at.iter()
        .enumerate()
        .map(|(i, run)| {
            let all: Vec<u64> = around.iter().map(|runs| runs[i].source_reads).chain([run.source_reads]).collect();
            (run.reader, run.source_reads, (*all.iter().min().unwrap(), *all.iter().max().unwrap()))
        })
        .collect()
}

/// A band widened by `tolerance` (and at least [`TOLERANCE_READS`]) each way.
fn widened((lo, hi): (u64, u64), tolerance: f64) -> (u64, u64) {
    let widen = |n: u64| ((n as f64 * tolerance).ceil() as u64).max(TOLERANCE_READS);
    (lo.saturating_sub(widen(lo)), hi + widen(hi))
}

/// The machine's scheduling noise: how late this thread wakes from a
/// 300 µs sleep, 99 times in 100, in µs (400 sleeps, about 0.15 s).
fn wake_late_p99_us() -> u64 {
    let mut late: Vec<u64> = (0..400)
        .map(|_| {
            let start = std::time::Instant::now();
            std::thread::sleep(std::time::Duration::from_micros(300));
            start.elapsed().as_micros().saturating_sub(300) as u64
        })
        .collect();
    late.sort_unstable();
    late[late.len() * 99 / 100]
}

/// A machine whose threads wake this late (99 times in 100) cannot make the
/// comparable world: a writer only a little ahead of its reader loses its
/// lead at every stall of a millisecond or more. There the comparable points
/// are printed, not asserted, and the test says so; the other two worlds
/// are asserted on any machine. (Shared with five builds, a 300 µs sleep
/// here woke up to 5–12 ms late 99 times in 100: docs/benchmarks.md.)
const BUSY_US: u64 = 1000;

/// How a world's points over a socket are checked.
#[derive(Clone, Copy, PartialEq)]
enum Socket {
    Tolerance,
    Comparable,
    NotAsserted,
}

/// `buflab real` of `p` over a pipe and TCP, the points of `readers`, run
/// again while a point is outside its band (at most [`ATTEMPTS`] runs);
/// `socket`: how the TCP points are checked.
fn points_of(what: &str, p: &Params, readers: &[ReaderKind], socket: Socket, steps: u32) -> Vec<Point> {
    let bands = bands(p, steps);
    let mut last = Vec::new();
    for attempt in 1..=ATTEMPTS {
        let r = real(p);
        assert!(r.digests_agree(), "{what}: every real run delivers the stream's bytes");
        last = r
            .real
            .iter()
            .filter(|run| readers.contains(&run.reader))
            .map(|run| {
                let (_, model, band) = *bands.iter().find(|b| b.0 == run.reader).unwrap();
                assert_eq!(model, run.model.read_calls, "{what}: the report's model side is the model");
                let tcp = run.source == RealSource::Tcp;
                let tolerance = if tcp && socket == Socket::Comparable { SOCKET_TOLERANCE } else { TOLERANCE };
                Point {
                    what: what.to_string(),
                    source: run.source,
                    reader: run.reader,
                    model,
                    band: widened(band, tolerance),
                    tolerance,
                    kernel: run.read_calls,
                    late_p90_us: run.writer_late_ns.map(|l| l.p90_ns / 1000),
                    attempt,
                    asserted: !(tcp && socket == Socket::NotAsserted),
                }
            })
            .collect();
        if last.iter().all(Point::passes) {
            break;
        }
    }
    last
}

fn points(what: &str, p: &Params, readers: &[ReaderKind]) -> Vec<Point> {
    points_of(what, p, readers, Socket::Tolerance, 3)
}

fn table(points: &[Point]) -> String {
    let mut out = String::from(
        "| point | source | reader | model | band (tolerance) | kernel | kernel − model | writer woke late (p90) | run |\n\
         | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for pt in points {
        let diff = pt.kernel as f64 - pt.model as f64;
        let mark = match (pt.asserted, pt.within()) {
            (_, true) => String::new(),
            (true, false) => " ✗".to_string(),
            (false, false) => format!(" (not asserted: {NOT_ASSERTED}, or a busy machine)"),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {}–{} ({:.0} %) | {} | {:+.0} ({:+.1} %){mark} | {} | {} |",
            pt.what,
            pt.source.id(),
            pt.reader.id(),
            pt.model,
            pt.band.0,
            pt.band.1,
            pt.tolerance * 100.0,
            pt.kernel,
            diff,
            diff / pt.model as f64 * 100.0,
            pt.late_p90_us.map_or_else(|| "–".to_string(), |us| format!("{us} µs")),
            pt.attempt,
        );
    }
    out
}

/// The program's pace on a link: bytes per second it handles when it never
/// waits (`work` per `rs`-byte record).
fn pace(p: &Params) -> f64 {
    p.rs as f64 / (p.work as f64 * 1e-9)
}

/// The suggestion of `lesson` named `text`, as params.
fn suggestion(lesson: &Lesson, text: &str) -> Params {
    params_of(lesson.suggestions.iter().find(|s| s.text == text).unwrap_or_else(|| panic!("no suggestion {text}")).link)
}

/// A lesson whose reader waits for every piece, made real: the first
/// `len` bytes of its stream with a writer that delivers them in a second.
/// The model's count is the same with that rate as without one where a read
/// can take a whole piece.
fn waiting(what: &str, p: Params, len: u64, readers: &[ReaderKind]) -> Vec<Point> {
    let prefix = Params { len, readers: readers.to_vec(), ..p };
    let paced = Params { rate: len, ..prefix.clone() };
    let with = counts(&paced);
    assert!(with.iter().all(|r| r.arrival.is_some_and(|a| a.joined == 0)), "{what}: the reader always waits at 64 KiB/s");
    if prefix.cap as usize >= prefix.chunk.max_piece() {
        let reads = |runs: &[Run]| runs.iter().map(|r| r.source_reads).collect::<Vec<_>>();
        assert_eq!(reads(&counts(&prefix)), reads(&with), "{what}: one piece per read, with a rate or without");
    }
    points(&format!("{what}, first {} at {}/s", format_size(len), format_size(len)), &paced, readers)
}

/// One real run at a time, whichever tests run (`--include-ignored` runs
/// both side by side otherwise): the worlds are made of timing.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// How much slower than the program the writer is in the reader-waiting
/// world: the full check's 0.15 times its pace, a piece every 0.7 to 2.8 ms;
/// the quick check's 0.05 times, a piece every 2 to 8 ms, so that on a
/// short stream a reader stalled for a few milliseconds by a busy machine
/// still finds one piece at a time (at 0.15 and 128 KiB, one run in three
/// on a machine at load 12 came out 27 % under the model: pieces joined
/// behind a stalled reader).
const WAITING_FULL: f64 = 0.15;
const WAITING_QUICK: f64 = 0.05;

/// The buffer-size lesson's link `base` over a pipe and TCP at capacities
/// 512, 2K, 8K and 64K, paced at three rates: the reader always waiting
/// (`waiting` times the program's pace), comparable (1.26 times) and the
/// writer far ahead (3.4 times); `busy`: the comparable world is printed
/// only; `steps`: [`bands`]'.
fn buffer_size_worlds(base: &Params, readers: &[ReaderKind], busy: bool, waiting: f64, steps: u32) -> Vec<(&'static str, Vec<Point>)> {
    let program = pace(base);
    let mut worlds = Vec::new();
    for (world, times) in [("reader waiting", waiting), ("comparable", 1.26), ("writer far ahead", 3.4)] {
        let rate = (program * times) as u64;
        let mut all = Vec::new();
        for cap in [512, 2 * KIB, 8 * KIB, 64 * KIB] {
            let p = Params { rate, cap, ..base.clone() };
            let what = format!(
                "buffer-size{}, {world} ({:.1} MiB/s), cap {}",
                if base.len == params_of(lesson(LessonId::BufferSize).link).len { String::new() } else { format!(" (first {})", format_size(base.len)) },
                rate as f64 / MIB as f64,
                format_size(cap)
            );
            let socket = match (world, cap) {
                ("comparable", c) if c == 64 * KIB || busy => Socket::NotAsserted,
                ("comparable", _) => Socket::Comparable,
                _ => Socket::Tolerance,
            };
            let pipe_asserted = !(world == "comparable" && (busy || cap == 64 * KIB));
            let pts = points_of(&what, &p, readers, socket, steps);
            all.extend(pts.into_iter().map(|pt| Point { asserted: pt.asserted && (pipe_asserted || pt.source == RealSource::Tcp), ..pt }));
        }
        worlds.push((world, all));
    }
    worlds
}

/// The machine's noise, said; whether it is busy.
fn busy_machine() -> bool {
    let noise = wake_late_p99_us();
    let busy = noise > BUSY_US;
    println!(
        "this machine: a 300 µs sleep wakes up to {noise} µs late, 99 times in 100{}",
        if busy { " (busy: the comparable world is printed, not asserted)" } else { "" }
    );
    busy
}

/// Prints the worlds' tables and asserts every asserted point is within its band.
fn check(worlds: &[(&str, Vec<Point>)]) {
    let all: Vec<&Point> = worlds.iter().flat_map(|(_, pts)| pts).collect();
    let mut report = String::new();
    for (world, pts) in worlds {
        let _ = writeln!(report, "\n{world}:\n\n{}", table(pts));
    }
    println!("{report}");
    let off: Vec<&&Point> = all.iter().filter(|p| !p.passes()).collect();
    let again = all.iter().filter(|p| p.attempt > 1).count();
    println!("{} points, {} outside the tolerance, {} after a second or third run", all.len(), off.len(), again);
    if std::env::var_os("BUFLAB_ARRIVAL_REPORT_ONLY").is_none() {
        assert!(off.is_empty(), "{} of {} points outside the tolerance:\n{report}", off.len(), all.len());
    }
}

/// The quick check's stream: the buffer-size lesson's first 128 KiB. It
/// keeps the worlds apart where they differ by more than the tolerance (at
/// 8 KiB, 17 reads with the writer far ahead against 52 with the reader
/// waiting; at 64 KiB, 5 against 52) in an eighth of the time.
const QUICK_LEN: u64 = 128 * KIB;

/// The quick check, part of every test run (about 5 s in a test build on a
/// busy machine, most of it the model's counts): the buffer-size lesson's
/// first [`QUICK_LEN`] through std's BufReader, the three worlds at the four
/// capacities over a pipe and TCP; the whole lesson and every other
/// lesson's counts are the long check below.
#[test]
fn the_buffer_size_lessons_worlds_over_real_pipes_and_sockets_are_the_models_within_the_tolerance() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let busy = busy_machine();
    let base = Params { len: QUICK_LEN, ..params_of(lesson(LessonId::BufferSize).link) };
    check(&buffer_size_worlds(&base, &[ReaderKind::Std], busy, WAITING_QUICK, 1));
}

/// The long check (about 90 s; opt in: `cargo test -p buflab --test arrival
/// -- --ignored --nocapture`): the buffer-size lesson's whole link through
/// both its readers, and every other count a lesson quotes over a pipe or a
/// socket, each in its own world.
#[test]
#[ignore = "about 90 s of paced real I/O; run with --ignored"]
fn lesson_counts_over_real_pipes_and_sockets_are_the_models_within_the_tolerance() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let busy = busy_machine();

    // The buffer-size lesson: capacity against rate, both worlds and between.
    let base = params_of(lesson(LessonId::BufferSize).link);
    let mut worlds = buffer_size_worlds(&base, &[ReaderKind::Std, ReaderKind::Chained], busy, WAITING_FULL, 3);

    // The writer-ahead lessons: fast-sender at its own rate, and pipes kept full.
    let mut ahead = Vec::new();
    let fast = lesson(LessonId::FastSender);
    ahead.extend(points("fast-sender", &params_of(fast.link), &[ReaderKind::Std, ReaderKind::Unbuffered]));
    let one = params_of(lesson(LessonId::OneByte).link);
    ahead.extend(points("one-byte, pipe kept full", &Params { readers: vec![ReaderKind::Std], ..one }, &[ReaderKind::Std]));
    let to_end = suggestion(lesson(LessonId::AsyncBufreader), "chunking pipe and the workload read_to_end");
    let async_readers = [ReaderKind::Std, ReaderKind::Tokio, ReaderKind::Futures];
    // A pipe kept full is what `chunk=pipe` means; the socket is not one (its reads return what TCP delivered).
    ahead.extend(points("async-bufreader, pipe kept full, read_to_end", &to_end, &async_readers).into_iter().filter(|p| p.source == RealSource::Pipe));
    worlds.push(("lessons, writer ahead", ahead));

    // The lessons whose reader waits for every piece.
    let mut waits = Vec::new();
    waits.extend(waiting("one-byte, poor network", suggestion(lesson(LessonId::OneByte), "chunking poor (64–512 bytes)"), 64 * KIB, &[ReaderKind::Std]));
    waits.extend(waiting("fast-sender, a pace the program keeps up with", suggestion(fast, "the sender at 2 MiB/s"), 64 * KIB, &[ReaderKind::Std]));
    waits.extend(waiting("async-bufreader", params_of(lesson(LessonId::AsyncBufreader).link), 64 * KIB, &async_readers));
    waits.extend(waiting("chained-worst", params_of(lesson(LessonId::ChainedWorst).link), 16 * KIB, &[ReaderKind::Std, ReaderKind::Chained]));
    waits.extend(waiting("buffer-timeline", params_of(lesson(LessonId::BufferTimeline).link), 64 * KIB, &[ReaderKind::Std]));
    // knee-grid: the counts its second point quotes (256 KiB, fixed 64-byte
    // and 1 KiB pieces, at 4 KiB).
    let grid = params_of(lesson(LessonId::KneeGrid).link);
    for size in [64, 1024] {
        let p = Params { chunk: ChunkModel::Fixed { size }, cap: 4 * KIB, ..grid.clone() };
        waits.extend(waiting(&format!("knee-grid, {size}-byte pieces, cap 4K"), p, 32 * KIB, &[ReaderKind::Std]));
    }
    worlds.push(("lessons, reader waiting", waits));

    check(&worlds);
}
