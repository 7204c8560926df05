//! `buflab trace LOG`: a program's own reads from its strace log, per
//! descriptor, and what a buffer would have made of them (the replay).

use std::io::Write as _;
use std::process::ExitCode;

use buflab::catalog::trace::{grouped, label, size_words};
use buflab::engine::clock::InstantClock;
use buflab::engine::readers::info;
use buflab::engine::trace::Trace;
use buflab::model::trace::{Descriptor, LogKind, ReplayOptions, Sizes};
use buflab::model::{parse_size, Replay, TraceReport};
use clap::Args;

/// `buflab trace`.
#[derive(Args, Debug)]
#[command(after_help = TRACE_AFTER_HELP)]
pub struct TraceArgs {
    /// The log: a file, or '-' for standard input. Also reads `buflab real --json`'s report.
    log: String,
    /// Replay every descriptor with this number (each opening of it).
    #[arg(long, conflicts_with = "path")]
    fd: Option<i64>,
    /// Replay every descriptor whose path contains this text.
    #[arg(long)]
    path: Option<String>,
    /// Capacities to replay through std's BufReader and the chained reader.
    #[arg(long, value_delimiter = ',', default_value = "8K,64K")]
    cap: Vec<String>,
    /// Print {"log": <the log's report>, "replays": [<replay>, …]} as JSON.
    #[arg(long)]
    json: bool,
}

const TRACE_AFTER_HELP: &str = "\
Record a log with strace (-f follows threads and children; -y names each descriptor; -tt and -T add
times):
  strace -f -y -e trace=openat,read,readv,pread64,recvfrom,recvmsg,close -o prog.strace PROGRAM
Without --fd or --path the descriptor with the most read calls is replayed: the program's own
requests, in order, through an unbuffered reader, std's BufReader and the chained reader at each
--cap, over a source that delivers what the log shows was delivered (cut after every read that came
back short). Then every capacity from 16 bytes to 1 MiB (the knee), and the nearest BufLab link.

Examples:
  buflab trace prog.strace
  buflab trace --fd 0 --cap 4K,64K prog.strace
  strace -f -o /dev/stdout -e trace=read cat data.bin 2>&1 >/dev/null | buflab trace -";

/// Input is read in chunks of this many bytes.
const CHUNK: usize = 1 << 20;

pub fn run(args: TraceArgs) -> ExitCode {
    let caps: Result<Vec<u64>, String> = args
        .cap
        .iter()
        .map(|c| match parse_size(c) {
            Ok(Some(n)) => Ok(n),
            Ok(None) => Err(format!("--cap: '{c}' is not a size")),
            Err(e) => Err(format!("--cap: {e}")),
        })
        .collect();
    let caps = match caps {
        Ok(caps) => caps,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let read = if args.log == "-" {
        buflab::api::read_trace(std::io::stdin().lock(), CHUNK, |_| true)
    } else {
        match std::fs::File::open(&args.log) {
            Ok(file) => buflab::api::read_trace(file, CHUNK, |_| true),
            Err(e) => Err(e),
        }
    };
    let trace = match read {
        Ok(trace) => trace,
        Err(e) => {
            eprintln!("error: {}: {e}", args.log);
            return ExitCode::FAILURE;
        }
    };
    let chosen = chosen(&trace.report, args.fd, args.path.as_deref());
    if (args.fd.is_some() || args.path.is_some()) && chosen.is_empty() {
        eprintln!("error: no descriptor with reads matches {}", match (args.fd, &args.path) {
            (Some(fd), _) => format!("--fd {fd}"),
            (_, Some(p)) => format!("--path {p:?}"),
            _ => unreachable!(),
        });
        return ExitCode::FAILURE;
    }
    let options = ReplayOptions { caps, ..ReplayOptions::default() };
    let clock = InstantClock::default();
    let mut replays = Vec::new();
    for &id in &chosen {
        match buflab::api::trace_replay(&trace, id, &options, &clock) {
            Ok(r) => replays.push(r),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let out = if args.json {
        let json = serde_json::json!({ "log": trace.report, "replays": replays });
        serde_json::to_string_pretty(&json).expect("a trace report serializes") + "\n"
    } else {
        text(&trace, &replays)
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitCode::SUCCESS
}

/// The descriptors to replay: those `--fd` or `--path` names, else the one
/// with the most read calls (none for a `buflab real` report, which keeps
/// no request sequence).
fn chosen(r: &TraceReport, fd: Option<i64>, path: Option<&str>) -> Vec<u32> {
    let replayable = |d: &&Descriptor| d.sequence.calls > 0;
    let matching: Vec<u32> = match (fd, path) {
        (Some(fd), _) => r.descriptors.iter().filter(replayable).filter(|d| d.fd == fd).map(|d| d.id).collect(),
        (_, Some(p)) => r
            .descriptors
            .iter()
            .filter(replayable)
            .filter(|d| d.path.as_deref().is_some_and(|x| x.contains(p)) || d.resolved.as_deref().is_some_and(|x| x.contains(p)))
            .map(|d| d.id)
            .collect(),
        _ => r.descriptors.iter().filter(replayable).max_by_key(|d| (d.calls, std::cmp::Reverse(d.id))).map(|d| d.id).into_iter().collect(),
    };
    matching
}

/// "1 piece", "2 pieces".
fn plural(n: u64, one: &str) -> String {
    format!("{} {one}{}", grouped(n), if n == 1 { "" } else { "s" })
}

/// "16 KiB ×6, 1,696 bytes ×1, 0 ×1 (+3 more)".
fn sizes(s: &Sizes, most: usize) -> String {
    if s.calls == 0 {
        return if s.max > 0 { format!("{}–{}", size_words(s.min), size_words(s.max)) } else { "–".into() };
    }
    let mut parts: Vec<String> = s.exact.iter().take(most).map(|e| format!("{} ×{}", short_size(e.size), grouped(e.count))).collect();
    let rest = s.exact.len().saturating_sub(most) as u64 + u64::from(s.other > 0);
    if rest > 0 {
        parts.push(format!("… ({}–{})", short_size(s.min), short_size(s.max)));
    }
    parts.join(", ")
}

/// A size for a table cell: "0", "1,696", "16K".
fn short_size(n: u64) -> String {
    match n {
        n if n >= 1024 && n % 1024 == 0 => buflab::model::format_size(n),
        n => grouped(n),
    }
}

fn shape(r: &TraceReport) -> String {
    let mut how = Vec::new();
    if r.shape.pids {
        how.push(format!("{} process{} or thread{} (-f)", grouped(r.processes), if r.processes == 1 { "" } else { "es" }, if r.processes == 1 { "" } else { "s" }));
    }
    if r.shape.timestamps {
        how.push("times (-t)".to_string());
    }
    if r.shape.durations {
        how.push("time in calls (-T)".to_string());
    }
    if r.shape.paths {
        how.push("paths (-y)".to_string());
    }
    if how.is_empty() { String::new() } else { format!("; {}", how.join(", ")) }
}

fn text(trace: &Trace, replays: &[Replay]) -> String {
    let r = &trace.report;
    let mut out = String::new();
    let read = if r.complete { "" } else { " (reading stopped: these are the figures of the part read)" };
    match r.kind {
        LogKind::Empty => return format!("the log is empty{read}\n"),
        LogKind::Unknown if r.not_read.is_some() => {
            return format!("not a log: JSON that is not `buflab real --json`'s report ({})\n", r.not_read.as_deref().unwrap_or(""));
        }
        LogKind::Real => out += &format!("buflab real's report: {} runs; its link: {}\n", r.descriptors.len(), r.real_link.as_deref().unwrap_or("")),
        LogKind::Unknown => out += &format!("not an strace log: no line of its {} is a system call strace printed{read}\n", grouped(r.lines)),
        LogKind::Strace => out += &format!(
            "strace log: {} lines, {} system calls, {} reads on {} descriptors{}{read}\n",
            grouped(r.lines),
            grouped(r.calls),
            grouped(r.read_calls),
            grouped(r.descriptors.len() as u64 + r.more_descriptors.descriptors),
            shape(r),
        ),
    }
    let u = &r.unfinished;
    if u.joined + u.orphans + u.never_resumed > 0 {
        out += &format!("split calls (-f): {} joined, {} second halves without a first, {} never resumed\n", grouped(u.joined), grouped(u.orphans), grouped(u.never_resumed));
    }
    if r.skipped.lines > 0 {
        out += &format!("skipped {} lines; the first:\n", grouped(r.skipped.lines));
        for s in &r.skipped.examples {
            out += &format!("  line {} ({}): {:?}\n", grouped(s.line), s.why, s.text);
        }
    }
    if !r.strace_summary.is_empty() {
        let ours = |name: &str| r.syscalls.iter().find(|c| c.name == name).map_or(0, |c| c.count);
        let rows: Vec<String> = r
            .strace_summary
            .iter()
            .map(|row| {
                let here = ours(&row.syscall);
                let agree = if here == row.calls { "same" } else { "differs" };
                format!("{} {} (read here: {}, {agree})", row.syscall, grouped(row.calls), grouped(here))
            })
            .collect();
        out += &format!("strace's own count (-c/-C): {}\n", rows.join("; "));
    }
    if r.more_descriptors.descriptors > 0 {
        let m = &r.more_descriptors;
        out += &format!(
            "{} more descriptors past the first {}: {} reads, {} (totals only)\n",
            grouped(m.descriptors),
            r.descriptors.len(),
            grouped(m.calls),
            size_words(m.bytes)
        );
    }
    if r.descriptors.is_empty() {
        return out;
    }
    out += "\n";
    let mut by_calls: Vec<&Descriptor> = r.descriptors.iter().collect();
    by_calls.sort_by_key(|d| (std::cmp::Reverse(d.calls), d.id));
    const SHOWN: usize = 20;
    let rows: Vec<Vec<String>> = by_calls
        .iter()
        .take(SHOWN)
        .map(|d| {
            vec![
                label(d),
                grouped(d.calls),
                grouped(d.bytes),
                sizes(&d.asked, 2),
                sizes(&d.returned, 2),
                grouped(d.short_reads),
                grouped(d.eof),
                grouped(d.failed),
            ]
        })
        .collect();
    out += &super::layout(&["descriptor", "reads", "bytes", "asked", "returned", "short", "EOF", "failed"], &rows);
    if by_calls.len() > SHOWN {
        out += &format!("… and {} more (--json lists them all)\n", by_calls.len() - SHOWN);
    }
    for replay in replays {
        out += "\n";
        out += &replay_text(&r.descriptors[replay.descriptor as usize], replay);
    }
    out
}

fn replay_text(d: &Descriptor, r: &Replay) -> String {
    let mut out = format!("{}\n  {}\n", label(d), d.about);
    out += &format!("  asked:    {}\n  returned: {}\n", sizes(&d.asked, 6), sizes(&d.returned, 6));
    if let Some(t) = d.in_calls_s {
        out += &format!("  time in its read calls (-T): {:.6} s\n", t);
    }
    let limit = r.read_limit.map_or(String::new(), |l| format!("; a read gets at most {} (a pipe)", size_words(l)));
    out += &format!(
        "  replay: the program's {} over {}{limit}{}\n",
        plural(r.sequence.calls, "request"),
        plural(r.pieces, "piece"),
        if r.asks_cut > 0 { format!("; {} asks cut to 64 MiB", grouped(r.asks_cut)) } else { String::new() },
    );
    let rows: Vec<Vec<String>> = r
        .runs
        .iter()
        .map(|run| {
            vec![
                format!("    {}", info(run.reader).label),
                run.cap.map_or("–".into(), short_size),
                grouped(run.source_reads),
                grouped(run.app_reads),
                grouped(run.bytes_copied),
            ]
        })
        .collect();
    out += &super::layout(&["    reader", "cap", "source reads", "app reads", "bytes copied"], &rows);
    if let Some(sweep) = &r.sweep {
        for s in &sweep.series {
            let points: Vec<String> = sweep.caps.iter().zip(&s.source_reads).map(|(c, n)| format!("{}:{}", short_size(*c), grouped(*n))).collect();
            let knee = s.knee.map_or("no knee".into(), |k| format!("knee at {}", size_words(k)));
            out += &format!("  sweep, {} source reads by capacity ({knee}): {}\n", info(s.reader).label, points.join(" "));
        }
    }
    out += &format!("  {}\n", r.headline);
    if let Some(fit) = &r.fit {
        out += &format!("  {}\n  link: #{}\n", fit.about, fit.link);
    }
    out
}
