//! The strace log reader against logs made up here, where the right
//! figures are known: `strace -f` output of several processes interleaved
//! at random (calls split into `<unfinished ...>` and `<... resumed>`
//! halves wherever another process's line comes between), with and
//! without `-tt`, `-T` and `-y`, data strings full of quotes, commas and
//! parentheses, cut into chunks at random bytes. And input that is not a
//! log at all: it is counted and quoted, never a panic.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::fmt::Write as _;

use buflab::engine::clock::InstantClock;
use buflab::engine::trace::{read_text, Parser, Trace};
use buflab::model::trace::{LogKind, ReplayOptions, SkipReason};
use buflab::model::{ReaderKind, TRACE};
use proptest::prelude::*;

/// One read call of the made-up program: what it asked for and got.
#[derive(Clone, Debug)]
struct Call {
    asked: u64,
    /// Bytes returned, or an error's name.
    result: Result<u64, &'static str>,
    /// The data string strace shows (escaped as strace escapes it).
    data: String,
}

/// A process: the files it opens one after the other (each on fd 3,
/// closed before the next) and the reads of each.
#[derive(Clone, Debug)]
struct Process {
    pid: u64,
    files: Vec<Vec<Call>>,
}

impl Process {
    fn path(&self, file: usize) -> String {
        format!("/data/p{}_f{file}, (x)", self.pid)
    }
}

fn data() -> impl Strategy<Value = String> {
    // What strace prints of a buffer: escapes, quotes, the characters the
    // reader must not take for the line's structure, and its `...` cut.
    let piece = prop_oneof![
        Just("\\\"".to_string()),
        Just("\\\\".to_string()),
        Just("\\n".to_string()),
        Just("\\377".to_string()),
        Just(") = 0".to_string()),
        Just(", ".to_string()),
        Just("<unfinished ...>".to_string()),
        "[a-z{}\\[\\]()<>]{0,4}",
    ];
    prop::collection::vec(piece, 0..6).prop_map(|p| p.concat())
}

fn call() -> impl Strategy<Value = Call> {
    let asked = prop_oneof![Just(1u64), Just(4096), 1u64..70_000];
    (asked, 0u8..10, any::<u64>(), data()).prop_map(|(asked, kind, r, data)| {
        let result = match kind {
            0..=4 => Ok(asked),
            5..=7 => Ok(1 + r % asked.max(1)),
            8 => Ok(0),
            _ => Err(if r % 2 == 0 { "EAGAIN" } else { "EINTR" }),
        };
        Call { asked, result: result.map(|n| n.min(asked)), data }
    })
}

fn processes() -> impl Strategy<Value = Vec<Process>> {
    prop::collection::vec(prop::collection::vec(prop::collection::vec(call(), 0..12), 1..4), 1..5)
        .prop_map(|ps| ps.into_iter().enumerate().map(|(i, files)| Process { pid: 100 + i as u64, files }).collect())
}

/// How the log was recorded.
#[derive(Clone, Copy, Debug)]
struct Flags {
    times: bool,
    durations: bool,
    paths: bool,
}

fn flags() -> impl Strategy<Value = Flags> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(times, durations, paths)| Flags { times, durations, paths })
}

/// A call's two halves as strace sees them: its entry (the name and the
/// arguments known then) and its exit (the rest).
#[derive(Clone, Debug)]
struct Halves {
    pid: u64,
    name: &'static str,
    enter: String,
    exit: String,
}

/// Every call of every process, in each process's order.
fn calls_of(p: &Process, f: Flags) -> Vec<Halves> {
    let fd = |file: usize| if f.paths { format!("3<{}>", p.path(file)) } else { "3".to_string() };
    let mut out = Vec::new();
    for (i, reads) in p.files.iter().enumerate() {
        let path = p.path(i);
        let returned = if f.paths { format!("3<{path}>") } else { "3".into() };
        out.push(Halves { pid: p.pid, name: "openat", enter: format!("AT_FDCWD, \"{path}\", O_RDONLY"), exit: format!(") = {returned}") });
        for c in reads {
            let exit = match c.result {
                Ok(n) => format!("\"{}\"..., {}) = {n}", c.data, c.asked),
                Err(e) => format!("0x7ffd0000, {}) = -1 {e} (Resource temporarily unavailable)", c.asked),
            };
            out.push(Halves { pid: p.pid, name: "read", enter: format!("{}, ", fd(i)), exit });
        }
        out.push(Halves { pid: p.pid, name: "close", enter: fd(i), exit: ") = 0".into() });
    }
    out
}

/// The log of `ps` interleaved by `schedule` (which process moves next, at
/// each step), as `strace -f` prints it.
fn log(ps: &[Process], f: Flags, schedule: &[usize], noise: bool) -> String {
    let mut queues: Vec<Vec<Halves>> = ps.iter().map(|p| calls_of(p, f)).collect();
    for q in &mut queues {
        q.reverse();
    }
    // Events: (process, call, entering?)
    let mut events: Vec<(usize, Halves, bool)> = Vec::new();
    let mut inside: Vec<Option<Halves>> = vec![None; ps.len()];
    let mut step = 0;
    loop {
        let live: Vec<usize> = (0..ps.len()).filter(|&i| inside[i].is_some() || !queues[i].is_empty()).collect();
        if live.is_empty() {
            break;
        }
        let i = live[schedule.get(step).copied().unwrap_or(0) % live.len()];
        step += 1;
        match inside[i].take() {
            Some(h) => events.push((i, h, false)),
            None => {
                let h = queues[i].pop().unwrap();
                inside[i] = Some(h.clone());
                events.push((i, h, true));
            }
        }
    }
    let mut out = String::new();
    let mut clock = 0u64;
    let mut k = 0;
    while k < events.len() {
        let (i, h, entering) = &events[k];
        clock += 17;
        let mut prefix = format!("{}", h.pid);
        if f.times {
            let _ = write!(prefix, " 10:{:02}:{:02}.{:06}", clock / 60_000_000 % 60, clock / 1_000_000 % 60, clock % 1_000_000);
        }
        let duration = if f.durations { " <0.000012>" } else { "" };
        let joined = *entering && events.get(k + 1).is_some_and(|(j, _, e)| j == i && !e);
        if joined {
            let _ = writeln!(out, "{prefix} {}({}{}{duration}", h.name, h.enter, h.exit);
            k += 2;
        } else if *entering {
            let _ = writeln!(out, "{prefix} {}({} <unfinished ...>", h.name, h.enter);
            k += 1;
        } else {
            let _ = writeln!(out, "{prefix} <... {} resumed>{}{duration}", h.name, h.exit);
            k += 1;
        }
        if noise && clock % 5 == 0 {
            let _ = writeln!(out, "{} --- SIGCHLD {{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=1}} ---", h.pid);
        }
    }
    for p in ps {
        let _ = writeln!(out, "{} +++ exited with 0 +++", p.pid);
    }
    out
}

/// Per file: (reads, bytes, failed, ends of file, short reads).
fn expected(ps: &[Process]) -> BTreeMap<String, (u64, u64, u64, u64, u64)> {
    let mut out = BTreeMap::new();
    for p in ps {
        for (i, reads) in p.files.iter().enumerate() {
            if reads.is_empty() {
                continue;
            }
            let mut e = (0, 0, 0, 0, 0);
            for c in reads {
                e.0 += 1;
                match c.result {
                    Ok(n) => {
                        e.1 += n;
                        e.3 += u64::from(n == 0);
                        e.4 += u64::from(n > 0 && n < c.asked);
                    }
                    Err(_) => e.2 += 1,
                }
            }
            out.insert(p.path(i), e);
        }
    }
    out
}

fn fed_in_pieces(text: &[u8], cuts: &[usize]) -> Trace {
    let mut parser = Parser::new();
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (text.len() + 1)).collect();
    cuts.sort_unstable();
    let mut at = 0;
    for cut in cuts {
        parser.feed(&text[at..cut]);
        at = cut;
    }
    parser.feed(&text[at..]);
    parser.finish(true)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any interleaving of the processes' lines, split calls included, any
    /// recording flags, cut into chunks anywhere: every file's figures are
    /// its own calls', nothing is skipped, and the chunking changes nothing.
    #[test]
    fn interleaved_split_and_chunked_logs_give_each_files_own_figures(
        ps in processes(),
        f in flags(),
        schedule in prop::collection::vec(any::<usize>(), 0..400),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
        noise in any::<bool>(),
    ) {
        let text = log(&ps, f, &schedule, noise);
        let whole = read_text(text.as_bytes());
        let r = &whole.report;
        prop_assert_eq!(r.kind, LogKind::Strace);
        prop_assert_eq!(r.skipped.lines, 0, "{:?}\n{}", r.skipped.examples, text);
        prop_assert_eq!(r.unfinished.orphans + r.unfinished.never_resumed, 0);
        prop_assert_eq!(r.shape.paths, f.paths);
        prop_assert_eq!(r.shape.timestamps, f.times);
        let seen: BTreeMap<String, (u64, u64, u64, u64, u64)> = r.descriptors.iter()
            .map(|d| (d.path.clone().unwrap(), (d.calls, d.bytes, d.failed, d.eof, d.short_reads)))
            .collect();
        prop_assert_eq!(&seen, &expected(&ps), "{}", text);
        let pieces = fed_in_pieces(text.as_bytes(), &cuts);
        prop_assert_eq!(&pieces.report, r);
    }

    /// The replay: unbuffered, it makes the log's answered calls; every
    /// reader at every capacity delivers the log's bytes; a buffer never
    /// makes more source reads than there were calls.
    #[test]
    fn the_replay_keeps_the_logs_bytes_and_unbuffered_its_calls(ps in processes(), cap in 1u64..20_000) {
        let text = log(&ps, Flags { times: false, durations: false, paths: true }, &[], false);
        let trace = read_text(text.as_bytes());
        let options = ReplayOptions { caps: vec![cap], readers: vec![ReaderKind::Std, ReaderKind::Chained], sweep: false, fit: false };
        for d in &trace.report.descriptors {
            let r = trace.replay(d.id, &options, &InstantClock::default()).unwrap();
            prop_assert_eq!(r.runs[0].source_reads, d.calls - d.failed);
            for run in &r.runs {
                prop_assert_eq!(run.bytes, d.bytes, "{:?}", run);
                prop_assert!(run.source_reads <= d.calls - d.failed, "{:?}", run);
            }
        }
    }

    /// Bytes that are not a log: no panic, every line counted, a few quoted.
    #[test]
    fn any_bytes_read_without_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..4000), cuts in prop::collection::vec(any::<usize>(), 0..8)) {
        let trace = fed_in_pieces(&bytes, &cuts);
        let r = &trace.report;
        // (White space and then `{` is read as a result file, not as lines.)
        let json = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
        if !json && !bytes.is_empty() {
            let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64 + u64::from(bytes.last() != Some(&b'\n'));
            prop_assert!(r.lines == lines || r.kind == LogKind::Empty, "{} lines, {}", r.lines, lines);
        }
        prop_assert!(r.skipped.examples.len() as u64 <= TRACE.quoted_lines);
        prop_assert!(r.skipped.examples.iter().all(|s| s.text.chars().count() as u64 <= TRACE.quote_chars + 1));
        prop_assert_eq!(&read_text(&bytes).report, r);
    }
}

/// Found by the fuzzer: a first chunk of white space alone was dropped,
/// so " ." in two chunks quoted "." where one chunk quoted " .".
#[test]
fn a_chunk_of_white_space_alone_is_part_of_the_log() {
    assert_eq!(fed_in_pieces(b" .", &[1]).report, read_text(b" .").report);
    assert_eq!(fed_in_pieces(b" \n x\n", &[1, 3]).report, read_text(b" \n x\n").report);
    // White space before a JSON document: still the document.
    let json = fed_in_pieces(b"\n  {\"params\": 1}", &[1, 2]).report;
    assert_eq!(json, read_text(b"\n  {\"params\": 1}").report);
    assert!(json.not_read.is_some(), "read as JSON: {json:?}");
}

#[test]
fn every_kind_of_bad_line_is_counted_and_the_first_quoted() {
    let text = "\
hello, world
1 read(3, \"abc\", 3
1 <... read resumed>\"x\", 1) = 1
1 read(3, \"abc\", 3) = 99999999999
1 read(nope, \"abc\", 3) = 3
1 frobnicate(1, 2) = 0
1 read(3, \"abc\", 3) = 3
\u{1b}[31mred\u{1b}[0m <b>not html</b>
";
    let r = read_text(text.as_bytes()).report;
    assert_eq!(r.kind, LogKind::Strace);
    assert_eq!(r.lines, 8);
    assert_eq!(r.skipped.lines, 6);
    let reasons: Vec<SkipReason> = r.skipped.examples.iter().map(|s| s.reason).collect();
    assert_eq!(reasons, [SkipReason::NotStrace, SkipReason::Truncated, SkipReason::Orphan, SkipReason::BadArguments, SkipReason::BadArguments]);
    assert_eq!(r.skipped.examples[0].text, "hello, world");
    assert_eq!((r.skipped.examples[0].line, r.skipped.examples[4].line), (1, 5));
    // An unknown call is a call, counted by name, not a skipped line.
    assert_eq!(r.syscalls.iter().find(|c| c.name == "frobnicate").map(|c| c.count), Some(1));
    assert_eq!((r.descriptors.len(), r.descriptors[0].calls), (1, 1));
    // Control characters are never passed on: the escape sequence is quoted as text without them.
    let last = read_text(text.lines().last().unwrap().as_bytes()).report;
    assert!(!last.skipped.examples[0].text.contains('\u{1b}'));
    assert_eq!(last.kind, LogKind::Unknown);
    assert_eq!(read_text(b"").report.kind, LogKind::Empty);
    assert_eq!(read_text(b"\n \n\t\n").report.kind, LogKind::Empty);
}

#[test]
fn a_line_longer_than_the_bound_keeps_its_call_when_its_length_is_in_a_string() {
    // A read whose data string (`-s 1000000`) is far past the line bound,
    // arriving in small chunks: the string is cut, the call kept.
    let mut line = String::from("1 read(3, \"");
    line += &"\\377".repeat(300_000);
    line += "\"..., 1048576) = 1048576\n";
    let mut parser = Parser::new();
    for chunk in line.as_bytes().chunks(4096) {
        parser.feed(chunk);
    }
    let r = parser.finish(true).report;
    assert_eq!((r.skipped.lines, r.read_calls), (0, 1));
    assert_eq!(r.descriptors[0].bytes, 1 << 20);
    // Past the bound outside any string: skipped as too long.
    let long = format!("1 read(3, {}\"\", 1) = 0\n", "1".repeat(TRACE.line_bytes as usize * 2));
    let mut parser = Parser::new();
    for chunk in long.as_bytes().chunks(1000) {
        parser.feed(chunk);
    }
    let r = parser.finish(true).report;
    assert_eq!(r.skipped.examples[0].reason, SkipReason::TooLong);
    assert!(r.skipped.examples[0].text.ends_with('…'));
}

#[test]
fn a_reused_descriptor_is_a_new_one_and_threads_share_theirs() {
    let text = "\
10 openat(AT_FDCWD, \"a\", O_RDONLY) = 3
10 read(3, \"x\", 1) = 1
10 close(3) = 0
10 openat(AT_FDCWD, \"b\", O_RDONLY) = 3
11 read(3, \"xy\", 2) = 2
10 read(3, \"\", 2) = 0
";
    let r = read_text(text.as_bytes()).report;
    let d: Vec<(String, u32, u64)> = r.descriptors.iter().map(|d| (d.path.clone().unwrap(), d.opening, d.calls)).collect();
    assert_eq!(d, [("a".into(), 1, 1), ("b".into(), 2, 2)], "thread 11 reads what its process opened last");
    assert_eq!(r.processes, 2);
}

#[test]
fn straces_own_count_is_read_where_the_log_carries_it() {
    let text = "\
1 read(3, \"x\", 1) = 1
1 +++ exited with 0 +++
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
  0.00    0.000000           0         1           read
------ ----------- ----------- --------- --------- ----------------
100.00    0.000000           0         1           total
";
    let r = read_text(text.as_bytes()).report;
    assert_eq!(r.skipped.lines, 0, "{:?}", r.skipped.examples);
    assert!(r.shape.summary);
    assert_eq!(r.strace_summary.len(), 1);
    assert_eq!((r.strace_summary[0].syscall.as_str(), r.strace_summary[0].calls), ("read", 1));
}

/// Reads `lines` of `shape` in 1 MiB chunks, as the command line does, and
/// returns the report and the peak heap above the start.
fn peak_heap(shape: buflab::bench::trace_log::Shape, lines: u64) -> (buflab::model::TraceReport, u64) {
    use buflab::bench::trace_log::SyntheticLog;
    use buflab::engine::heap::AllocScope;
    let mut log = SyntheticLog::new(shape, lines, 1);
    let mut chunk = Vec::with_capacity(2 << 20);
    let scope = AllocScope::start();
    let mut parser = Parser::new();
    loop {
        chunk.clear();
        let more = log.fill(&mut chunk, 1 << 20);
        parser.feed(&chunk);
        if !more {
            break;
        }
    }
    let trace = parser.finish(true);
    let report = trace.report.clone();
    drop(trace);
    (report, scope.finish().peak_bytes)
}

#[test]
fn the_heap_stays_within_its_bound_on_logs_made_to_fill_every_table() {
    use buflab::bench::trace_log::Shape;
    let bound = buflab::engine::trace::memory_bound();
    // Every read a new size, so the request sequences fill up: past a
    // million stored runs, the rest is counted but not stored.
    let (spread, peak) = peak_heap(Shape::Spread, 1100 + 1_150_000);
    println!("spread: peak {:.1} MiB of a bound of {:.1} MiB", peak as f64 / 1048576.0, bound as f64 / 1048576.0);
    assert!(peak <= bound, "{peak} > {bound}");
    assert_eq!(spread.descriptors.len() as u64, TRACE.descriptors);
    assert!(spread.more_descriptors.descriptors > 0);
    let stored: u64 = spread.descriptors.iter().map(|d| d.sequence.runs).sum();
    assert_eq!(stored, TRACE.runs_total, "the runs' bound is reached");
    assert!(spread.descriptors.iter().any(|d| !d.sequence.whole()));
    assert!(spread.descriptors.iter().all(|d| d.path.as_ref().unwrap().chars().count() as u64 <= TRACE.path_chars));
    let (mixed, peak) = peak_heap(Shape::Mixed, 300_000);
    println!("mixed: peak {:.1} MiB", peak as f64 / 1048576.0);
    assert!(peak <= bound);
    assert!(mixed.more_descriptors.descriptors > 0 && mixed.skipped.lines > 0);
}

/// The shipped log a lesson opens (`scripts/record-trace.sh` recorded it):
/// its figures, as the page and `buflab trace` show them.
#[test]
fn the_shipped_log_of_bash_reading_a_pipe_one_byte_at_a_time() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../public/traces/bash-while-read.strace");
    let trace = buflab::api::read_trace(std::fs::File::open(path).unwrap(), 1 << 12, |_| true).unwrap();
    let r = &trace.report;
    assert_eq!((r.kind, r.skipped.lines, r.unfinished.orphans), (LogKind::Strace, 0, 0));
    assert!(r.shape.pids && r.shape.paths && r.shape.timestamps);
    // bash's standard input: the pipe cat writes lines.txt into.
    let stdin: Vec<_> = r.descriptors.iter().filter(|d| d.fd == 0 && d.path.as_deref().is_some_and(|p| p.starts_with("pipe:["))).collect();
    assert_eq!(stdin.len(), 1);
    let d = stdin[0];
    assert_eq!((d.calls, d.bytes, d.eof, d.short_reads), (1057, 1056, 1, 0));
    assert_eq!((d.asked.exact.len(), d.asked.exact[0].size), (1, 1), "every read asked for 1 byte");
    assert_eq!(d.kind, buflab::model::trace::SourceKind::Pipe);
    assert!(d.about.starts_with("Every read got all it asked for"), "{}", d.about);
    // cat read the file in one go.
    let file: Vec<_> = r.descriptors.iter().filter(|d| d.path.as_deref() == Some("lines.txt")).collect();
    assert_eq!((file.len(), file[0].calls, file[0].bytes), (1, 2, 1056));
    let replay = buflab::api::trace_replay(&trace, d.id, &ReplayOptions::default(), &InstantClock::default()).unwrap();
    let reads: Vec<(ReaderKind, Option<u64>, u64)> = replay.runs.iter().map(|r| (r.reader, r.cap, r.source_reads)).collect();
    assert_eq!(reads, [
        (ReaderKind::Unbuffered, None, 1057),
        (ReaderKind::Std, Some(8192), 2),
        (ReaderKind::Std, Some(65536), 2),
        (ReaderKind::Chained, Some(8192), 2),
        (ReaderKind::Chained, Some(65536), 2),
    ]);
    assert!(replay.headline.contains("1,057 reads asking for 1 byte each would be 2 source reads through an 8 KiB std BufReader"), "{}", replay.headline);
    let sweep = replay.sweep.unwrap();
    assert_eq!(sweep.series[0].knee, Some(2048), "the knee: the smallest buffer that holds all 1,056 bytes");
    let fit = replay.fit.unwrap();
    assert_eq!(fit.link, "v=1&len=1056&chunk=file&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed");
    assert!(fit.runs.iter().all(|f| f.link == f.replay), "{:?}", fit.runs);
}
