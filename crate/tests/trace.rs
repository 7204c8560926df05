#![cfg(target_os = "linux")]
//! A program's own reads, from real strace logs made here: the Code panel's
//! printed programs (built and run as `tests/kernel.rs` runs them) and real
//! tools (`cat`, `wc -l`, a line-by-line Python reader) over a file and over
//! a pipe, each traced with `strace -f -C`, whose own count ends the log.
//!
//! - The log's calls per system call, summed over its descriptors, equal
//!   strace's own count of the same run.
//! - The printed programs: the reads on each opening of the stream's file
//!   are BufLab's source reads for the link; and the unbuffered program's
//!   log, replayed through a `BufReader`, makes exactly the source reads
//!   the buffered program's own log shows, for the same bytes.
//! - `buflab trace` reads a log from a pipe and prints the same figures.

mod printed;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use buflab::api;
use buflab::catalog::snippet::snippet;
use buflab::engine::measure::{InstantClock, Sampling};
use buflab::engine::trace::Trace;
use buflab::link::decode;
use buflab::model::trace::{Descriptor, LogKind, ReplayOptions, SourceKind};
use buflab::model::{Params, ReaderKind};
use printed::{build_harness, scratch, strace, stream};

/// The calls `buflab trace`'s help asks strace for.
const CALLS: &str = "trace=openat,read,readv,pread64,recvfrom,recvmsg,close";

/// `strace -f -C -y` of `command` in `dir`; returns the log's path.
fn traced(dir: &Path, name: &str, command: &mut Command) -> PathBuf {
    let log = dir.join(format!("{name}.strace"));
    let program = command.get_program().to_owned();
    let args: Vec<_> = command.get_args().map(|a| a.to_owned()).collect();
    let envs: Vec<_> = command.get_envs().filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))).collect();
    let out = Command::new(strace())
        .args(["-f", "-C", "-y", "-e", CALLS, "-o"])
        .arg(&log)
        .arg(program)
        .args(args)
        .envs(envs)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("strace runs");
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    log
}

fn read(log: &Path) -> Trace {
    api::read_trace(std::fs::File::open(log).unwrap(), 1 << 16, |_| true).unwrap()
}

/// The log's count per system call equals strace's own (`-C`) for the
/// same run, for every call strace counted.
fn agrees_with_straces_count(trace: &Trace, what: &str) {
    let r = &trace.report;
    assert_eq!(r.kind, LogKind::Strace, "{what}");
    assert!(r.shape.summary, "{what}: no -C count in the log");
    assert_eq!(r.skipped.lines, 0, "{what}: {:?}", r.skipped.examples);
    assert!(!r.strace_summary.is_empty());
    for row in &r.strace_summary {
        let ours = r.syscalls.iter().find(|c| c.name == row.syscall).map_or(0, |c| c.count);
        assert_eq!(ours, row.calls, "{what}: {} calls", row.syscall);
    }
    // And the descriptors' read calls add up to strace's count of reads.
    assert_eq!(r.more_descriptors.descriptors, 0, "{what}");
    for name in ["read", "readv", "pread64", "recvfrom", "recvmsg"] {
        let straces = r.strace_summary.iter().find(|row| row.syscall == name).map_or(0, |row| row.calls);
        let per_fd: u64 = r.descriptors.iter().flat_map(|d| &d.syscalls).filter(|c| c.name == name).map(|c| c.count).sum();
        assert_eq!(per_fd, straces, "{what}: {name}");
    }
}

/// The descriptors whose path ends with `name`, in the order of their first read.
fn named<'t>(trace: &'t Trace, name: &str) -> Vec<&'t Descriptor> {
    trace.report.descriptors.iter().filter(|d| d.path.as_deref().is_some_and(|p| p.ends_with(name))).collect()
}

fn params(link: &str) -> Params {
    let d = decode(link);
    assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
    d.params
}

fn replay(trace: &Trace, d: &Descriptor, cap: u64) -> u64 {
    let options = ReplayOptions { caps: vec![cap], readers: vec![ReaderKind::Std], sweep: false, fit: false };
    let r = api::trace_replay(trace, d.id, &options, &InstantClock::default()).unwrap();
    assert_eq!(r.runs[0].source_reads, d.sequence.calls, "{}: the unbuffered replay is the log", d.id);
    assert!(r.runs.iter().all(|run| run.bytes == d.bytes), "every reader gets the log's bytes");
    r.runs[1].source_reads
}

/// The printed programs whose unbuffered and buffered forms make the same
/// requests of the reader, so a buffer is all that tells their logs apart:
/// every workload but `scan` (whose buffered form scans the buffer in
/// place, one fill at a time, where the unbuffered one reads `rs` bytes at
/// a time), with read sizes below and above the capacity.
fn same_request_links() -> Vec<String> {
    let mut links = Vec::new();
    for wl in ["fixed", "exact", "frames"] {
        for rs in ["1", "100", "4K"] {
            links.push(format!("v=1&len=16K&chunk=file&cap=1K&rs={rs}&rd=unbuffered,std&wl={wl}"));
        }
    }
    // Their read size is not theirs to choose.
    for wl in ["bytes", "to_end", "lines"] {
        links.push(format!("v=1&len=16K&chunk=file&cap=1K&rd=unbuffered,std&wl={wl}"));
    }
    links.push("v=1&len=100000&chunk=file&cap=8K&rs=7&rd=unbuffered,std&wl=fixed".into());
    links
}

#[test]
fn the_printed_programs_logs_count_buflabs_source_reads_and_replay_into_the_buffered_programs_log() {
    let dir = scratch("trace-printed");
    let links = same_request_links();
    let all: Vec<Params> = links.iter().map(|l| params(l)).collect();
    let exe = build_harness(&dir, &all.iter().map(snippet).collect::<Vec<_>>());
    let mut table = String::new();
    for (i, (link, p)) in links.iter().zip(&all).enumerate() {
        let case = dir.join(format!("case-{i}"));
        std::fs::create_dir_all(&case).unwrap();
        stream(link, &case.join("data.bin"));
        let trace = read(&traced(&case, "run", Command::new(&exe).arg(i.to_string())));
        agrees_with_straces_count(&trace, link);
        let opened = named(&trace, "data.bin");
        assert_eq!(opened.len(), 2, "{link}: one opening per reader");
        let report = api::run(p, &InstantClock::default(), Sampling::COUNTS).unwrap();
        let logged: Vec<u64> = opened.iter().map(|d| d.calls).collect();
        let buflab: Vec<u64> = report.runs.iter().map(|r| r.source_reads).collect();
        assert_eq!(logged, buflab, "{link}");
        assert!(opened.iter().all(|d| d.bytes == p.len && d.kind == SourceKind::File));
        let replayed = replay(&trace, opened[0], p.cap);
        table += &format!("{link}: log {logged:?}, unbuffered replayed through std {replayed}\n");
        assert_eq!(replayed, opened[1].calls, "{link}\n{table}");
    }
    println!("{table}");
}

/// Text lines of varying length: `lines` of them.
fn text(lines: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..lines {
        let width = 1 + (i * 7919) % 97;
        out.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, width));
        out.push(b'\n');
    }
    out
}

/// The Python that `python3` runs (not a shim script, which would add
/// processes of its own to the log).
fn python() -> String {
    let out = Command::new("python3").args(["-c", "import sys; print(sys.executable)"]).output().expect("python3 runs");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

const PY_LINES: &str = "import sys\nn = 0\nsrc = open(sys.argv[1], 'rb') if len(sys.argv) > 1 else sys.stdin.buffer\nfor line in src:\n    n += 1\nprint(n)";

/// strace's own count of the reads on `file` alone (`-P`), from a second
/// run of the same command.
fn straces_reads_on(dir: &Path, file: &Path, command: &mut Command) -> u64 {
    let program = command.get_program().to_owned();
    let args: Vec<_> = command.get_args().map(|a| a.to_owned()).collect();
    let out = Command::new(strace())
        .args(["-f", "-c", "-e", "trace=read", "-P"])
        .arg(file)
        .arg("-o")
        .arg(dir.join("count.txt"))
        .arg(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("strace runs");
    assert!(out.status.success());
    let count = read(&dir.join("count.txt"));
    count.report.strace_summary.iter().find(|r| r.syscall == "read").map_or(0, |r| r.calls)
}

#[test]
fn real_tools_over_a_file_counted_as_strace_counts_them() {
    let dir = scratch("trace-tools-file");
    let data = text(20_000);
    let file = dir.join("data.txt");
    std::fs::write(&file, &data).unwrap();
    let python = python();
    let tools: [(&str, Vec<&str>); 3] = [
        ("cat", vec!["cat", "data.txt"]),
        ("wc", vec!["wc", "-l", "data.txt"]),
        ("python", vec![&python, "-c", PY_LINES, "data.txt"]),
    ];
    for (name, argv) in tools {
        let command = || {
            let mut c = Command::new(argv[0]);
            c.args(&argv[1..]);
            c
        };
        let trace = read(&traced(&dir, name, &mut command()));
        agrees_with_straces_count(&trace, name);
        let opened = named(&trace, "data.txt");
        assert_eq!(opened.len(), 1, "{name}");
        let d = opened[0];
        assert_eq!((d.bytes, d.kind, d.pieces_shown()), (data.len() as u64, SourceKind::File, 0), "{name}");
        assert!(d.eof >= 1, "{name} reads to the end");
        assert_eq!(d.calls, straces_reads_on(&dir, &file, &mut command()), "{name}: strace -c -P counts the reads on the file");
        // A file answers whole requests: the replay can only join them.
        let options = ReplayOptions::default();
        let r = api::trace_replay(&trace, d.id, &options, &InstantClock::default()).unwrap();
        assert_eq!(r.runs[0].source_reads, d.calls, "{name}");
        assert!(r.runs.iter().all(|run| run.bytes == d.bytes && run.source_reads <= d.calls), "{name}: {:?}", r.runs);
        let fit = r.fit.expect("a file's bytes have a nearest link");
        assert!(fit.link.contains("chunk=file"), "{name}: {}", fit.link);
        println!("{name}: {} reads of data.txt; {}", d.calls, r.headline);
    }
}

/// A writer that sends 200 lines of 1,000 bytes, one `write` each, a
/// millisecond apart: a reader that waits for it sees them one by one (or a
/// few joined, if it fell behind), never a part of one (each is under the
/// pipe's atomic 4 KiB).
const PACED: &str = "import sys, time\nfor i in range(200):\n    sys.stdout.buffer.write(b'x' * 999 + b'\\n')\n    sys.stdout.flush()\n    time.sleep(0.001)";

#[test]
fn real_tools_over_a_pipe_show_how_the_bytes_arrived() {
    let dir = scratch("trace-tools-pipe");
    let data = text(20_000);
    std::fs::write(dir.join("data.txt"), &data).unwrap();
    let python = python();
    let py = format!("cat data.txt | {python} -c \"$PY\"");
    let paced = format!("{python} -c \"$PACED\" | wc -l");
    for (name, script, bytes) in [
        ("wc", "cat data.txt | wc -l", data.len() as u64),
        ("python", py.as_str(), data.len() as u64),
        ("paced", paced.as_str(), 200_000),
    ] {
        let mut command = Command::new("sh");
        command.args(["-c", script]).env("PY", PY_LINES).env("PACED", PACED);
        let trace = read(&traced(&dir, name, &mut command));
        agrees_with_straces_count(&trace, name);
        // The reader's end of the pipe: its standard input, with every byte.
        let piped: Vec<&Descriptor> =
            trace.report.descriptors.iter().filter(|d| d.fd == 0 && d.kind == SourceKind::Pipe && d.bytes == bytes).collect();
        assert_eq!(piped.len(), 1, "{name}: {:#?}", trace.report.descriptors.iter().map(|d| (d.fd, &d.path, d.bytes)).collect::<Vec<_>>());
        let d = piped[0];
        assert!(d.eof >= 1);
        let options = ReplayOptions { sweep: false, ..ReplayOptions::default() };
        let r = api::trace_replay(&trace, d.id, &options, &InstantClock::default()).unwrap();
        assert_eq!(r.runs[0].source_reads, d.calls, "{name}: the unbuffered replay makes the log's calls");
        assert!(r.runs.iter().all(|run| run.bytes == d.bytes));
        assert_eq!(r.read_limit, Some(65536.max(d.max_returned)), "{name}: a pipe holds 64 KiB");
        if name == "paced" {
            // Whole writes, one or a few at a time: every read a multiple of 1,000.
            assert!(d.returned.exact.iter().all(|e| e.size % 1000 == 0), "{name}: {:?}", d.returned.exact);
            assert!(d.pieces_shown() > 0 && d.about.contains("arrived in pieces"), "{}", d.about);
            // A buffer cannot read what has not arrived: as many source reads as pieces.
            assert!(r.runs.iter().all(|run| run.source_reads == d.calls), "{:?}", r.runs);
            let fit = r.fit.expect("200,000 bytes have a nearest link");
            assert!(fit.link.contains("chunk=1000") || fit.link.contains("chunk=1000-"), "{}", fit.link);
        }
        println!("{name}: {} reads, {} pieces shown; {}", d.calls, d.pieces_shown(), r.headline);
    }
}
