//! `buflab`: the native command line over the same `Params` and `Report` as
//! the page. Paste a link from the page to reproduce its counts.

use std::process::ExitCode;

use buflab::catalog::cursors::{ending, flavour, write_mode};
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::model::{
    format_size, AllocCalls, CallCounter, Id, Lab, ParamError, ReaderKind, Report, Shape, Stats, SweepAxis, WriteMode, WriteReport,
};
use clap::{Args, Parser, Subcommand};

// `buflab trace`: a file of its own (src/bin/trace.rs would be a binary of its own).
#[path = "buflab/trace.rs"]
mod trace;

/// Runs a BufLab experiment natively and prints the report.
///
/// Invalid link values fall back to defaults; a notice on stderr names each one.
#[derive(Parser, Debug)]
#[command(name = "buflab", version, after_help = AFTER_HELP, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Runs the link's readers and workload over real kernel sources (a
    /// regular file, a pipe, a loopback TCP connection) beside its simulated
    /// run, and calibrates `sys` from the real time per read call.
    Real(RealArgs),
    /// Writes the bytes the link's source delivers (the stream its readers
    /// read), so the program `--code` prints can run on the same bytes.
    Stream(StreamArgs),
    /// Compares two links: both counted exactly, then timed in alternating
    /// rounds of one measurement (the same table a comparison link, one
    /// with `b.` keys, prints).
    Compare(CompareArgs),
    /// Reads a program's strace log: per file descriptor, its read calls,
    /// bytes and sizes, and what a buffer would have made of them (the
    /// program's own requests replayed through BufLab's readers).
    Trace(trace::TraceArgs),
    /// Prints the quiz the engine writes for a link (`quiz=on` on the page):
    /// questions answered by the link's real runs, each with a link to the
    /// run that shows why.
    Quiz(QuizArgs),
}

/// `buflab quiz`.
#[derive(Args, Debug)]
struct QuizArgs {
    /// A BufLab link, its #fragment or a bare fragment (defaults if omitted);
    /// its `qseed` picks the quiz.
    link: Option<String>,
    /// Print the quiz as JSON (what the page shows).
    #[arg(long)]
    json: bool,
}

/// `buflab compare`.
#[derive(Args, Debug)]
#[command(after_help = COMPARE_AFTER_HELP)]
struct CompareArgs {
    /// A's link (its #fragment, or a bare fragment); with --files, A's exported result.
    a: String,
    /// B's link; with --files, B's exported result.
    b: String,
    /// A and B are two exported results (`buflab --json`, the page's JSON
    /// export), measured separately: paired as they are, nothing run.
    #[arg(long, conflicts_with_all = ["quick", "counts"])]
    files: bool,
    /// Print the comparison as JSON.
    #[arg(long)]
    json: bool,
    /// A quick comparison: 7 short rounds instead of 21.
    #[arg(long)]
    quick: bool,
    /// The exact counts alone, no timing.
    #[arg(long, conflicts_with = "quick")]
    counts: bool,
}

const COMPARE_AFTER_HELP: &str = "\
Counts are exact, so any difference is real. Times: A and B in alternating rounds (A first, then
B first, in turn); B is called faster or slower only where the 95% confidence interval of the
median per-round ratio B ÷ A lies beyond 1 by more than 5%, otherwise the same within noise.
Two exported results (--files) were measured separately: their times are called faster or
slower only beyond 3×, and in ns not at all across two machines.
Two sweeps (a sweep on A, B's keys changing something else) run their points in alternating
order and compare the knee of each: a knee of a count is exact, so knees at different values
differ for real; two time knees differ only where the later side clearly (all samples more than
5%) gains between the two knees and its time relative to the other's falls there beyond 3× (the
factor of separately timed measurements); otherwise the same within noise.

Examples:
  buflab compare 'len=1M&chunk=poor&cap=8K&rs=1&rd=std' 'len=1M&chunk=poor&cap=64K&rs=1&rd=std'
  buflab '#v=1&len=1M&chunk=poor&cap=8K&rs=1&rd=std&b.cap=64K'      # the same, as one link
  buflab compare --json 'rd=std' 'rd=chained'
  buflab '#v=1&len=1M&chunk=poor&rs=1&sweep=cap&from=16&to=64K&b.chunk=good'   # two sweeps: the knee of each
  buflab --json 'rd=std' > mine.json; buflab compare --files mine.json theirs.json";

/// `buflab stream`.
#[derive(Args, Debug)]
#[command(after_help = STREAM_AFTER_HELP)]
struct StreamArgs {
    /// A BufLab link (read lab), its #fragment or a bare fragment (defaults if omitted).
    link: Option<String>,
    /// The file to write (standard output if omitted).
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// One file per stream of the link (`streams`): FILE's name with -1, -2, … before its extension.
    #[arg(long, requires = "out")]
    streams: bool,
}

const STREAM_AFTER_HELP: &str = "\
Every stream of a link carries the same bytes (its workload's content: 0..=255 repeating, text
lines, length-prefixed frames or one NUL); the chunk model only cuts them differently.

Examples:
  buflab stream --out data.bin '#v=1&len=1M&chunk=file&wl=lines'
  buflab --code '#v=1&len=1M&chunk=file&wl=lines' > main.rs && rustc -O main.rs && ./main
  buflab stream --streams --out data.bin 'len=64K&streams=3'   # data-1.bin, data-2.bin, data-3.bin";

/// `buflab real`.
#[derive(Args, Debug)]
#[command(after_help = REAL_AFTER_HELP)]
struct RealArgs {
    /// A BufLab link (read lab), its #fragment or a bare fragment (defaults if omitted).
    link: Option<String>,
    /// Print {"real": [...], "simulated": <report>, "calibrated_sys": ..., "link": ...} as JSON.
    #[arg(long)]
    json: bool,
    /// One timing sample per run instead of 5 to 7 (and a quick simulated run).
    #[arg(long)]
    quick: bool,
}

const REAL_AFTER_HELP: &str = "\
Each reader reads the link's stream from: file (a temporary regular file; the page cache is warm, so
this is read(2) from memory), pipe and tcp (a writer thread writes pieces that follow the link's
chunk model and seed; the kernel decides how they reach the reader). Read calls are the kernel's count
for the reading thread (syscr, Linux; over tcp, whose recv(2) it does not count, a wrapper's); times are
wall times of whole runs, median and spread.

Examples:
  buflab real
  buflab real --json '#v=1&len=1M&chunk=file&rs=1&cap=8K&rd=unbuffered,std'";

const AFTER_HELP: &str = "\
A link with 'sweep=cap&from=16&to=64K' (axes cap, rs, chunk, len, streams) runs a sweep: one table
row per point and reader, then the knees; --json prints the sweep report. Two axes,
'sweep=cap,rs&from=1K,1&to=8K,8', run every pair: one matrix per reader and metric (rows: the
first axis, columns: the second), the knees along the first axis per column; --json lists one
point per pair.

Examples:
  buflab '#v=1&len=1M&chunk=100&cap=8K&rs=1&rd=unbuffered,std'
  buflab --json 'https://…/#v=1&len=1M&chunk=worst'
  buflab --code 'wl=frames&rd=std,chained'";

/// Running one link (the default command).
#[derive(Args, Debug)]
struct RunArgs {
    /// A BufLab link, its #fragment, or a bare fragment such as
    /// 'len=1M&chunk=100&cap=8K&rs=1&rd=unbuffered,std' (defaults if omitted);
    /// 'lab=write&recs=2K&icap=32K&buf=32K' runs the write lab.
    link: Option<String>,
    /// Print the report as JSON (the page's report format).
    #[arg(long)]
    json: bool,
    /// One short timing sample instead of a full measurement.
    #[arg(long)]
    quick: bool,
    /// The exact counts alone, no timing (times print as 0).
    #[arg(long, conflicts_with = "quick")]
    counts: bool,
    /// After the table, print each reader's buffer timeline: its first
    /// application operations, the fill level after each, in plain words.
    #[arg(long)]
    timeline: bool,
    /// Print the Rust program the link corresponds to, instead of running it.
    #[arg(long, conflicts_with_all = ["json", "quick", "timeline", "bench"])]
    code: bool,
    /// With --code: the program in its self-contained form, which makes the
    /// link's bytes itself and prints its source reads (the Rust Playground's).
    #[arg(long, requires = "code")]
    self_contained: bool,
    /// Print the Rust Playground address of the self-contained program (or
    /// why there is none), instead of running the link.
    #[arg(long, conflicts_with_all = ["json", "quick", "timeline", "bench", "code"])]
    playground: bool,
    /// Run the benchmark suite (crate/src/bench/mod.rs) and print it as JSON.
    #[arg(long, conflicts_with_all = ["link", "json", "quick", "timeline"])]
    bench: bool,
    /// Time one scenario of the suite, by name, as the first thing this
    /// process times, and print it as JSON (the order check, `npm run bench`).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["link", "json", "quick", "timeline", "code", "bench"])]
    bench_one: Option<String>,
    /// With --bench-one: run every other scenario of the suite first.
    #[arg(long, requires = "bench_one")]
    after_others: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Real(args)) => real(args),
        Some(Command::Stream(args)) => stream(args),
        Some(Command::Compare(args)) => compare_command(args),
        Some(Command::Trace(args)) => trace::run(args),
        Some(Command::Quiz(args)) => quiz(args),
        None => run(cli.run),
    }
}

fn quiz(args: QuizArgs) -> ExitCode {
    let decoded = buflab::link::decode(args.link.as_deref().unwrap_or(""));
    for n in &decoded.notices {
        eprintln!("notice: {}: {}", n.key, n.message);
    }
    let quiz = match buflab::catalog::quiz::quiz(&decoded.params) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("buflab: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&quiz).expect("a quiz always serializes"));
        return ExitCode::SUCCESS;
    }
    if let Some(note) = &quiz.note {
        println!("{note}");
    }
    for (n, q) in quiz.questions.iter().enumerate() {
        println!("{}. {}", n + 1, q.text);
        for (i, c) in q.choices.iter().enumerate() {
            println!("   {}) {c}", (b'A' + i as u8) as char);
        }
        println!("   answer: {}) {}  {}", (b'A' + q.answer as u8) as char, q.choices[q.answer], q.why);
        println!("   see: {}\n", q.link);
    }
    ExitCode::SUCCESS
}

fn run(args: RunArgs) -> ExitCode {
    if args.bench {
        let suite = buflab::bench::run_suite(&InstantClock::default());
        println!("{}", serde_json::to_string_pretty(&suite).expect("a suite report always serializes"));
        return ExitCode::SUCCESS;
    }
    if let Some(name) = &args.bench_one {
        let Some(result) = buflab::bench::bench_one(name, args.after_others, &InstantClock::default()) else {
            eprintln!("error: the suite has no scenario called {name:?}");
            return ExitCode::from(2);
        };
        println!("{}", serde_json::to_string(&result).expect("a result always serializes"));
        return ExitCode::SUCCESS;
    }

    let decoded = buflab::link::decode(args.link.as_deref().unwrap_or(""));
    for n in &decoded.notices {
        eprintln!("notice: {}: {}", n.key, n.message);
    }
    if args.code && args.self_contained {
        return match buflab::catalog::snippet::self_contained(&decoded.params) {
            Ok(program) => {
                print!("{program}");
                ExitCode::SUCCESS
            }
            Err(why) => {
                eprintln!("buflab: no self-contained program: {why}");
                ExitCode::FAILURE
            }
        };
    }
    if args.code {
        print!("{}", buflab::catalog::snippet::snippet(&decoded.params));
        return ExitCode::SUCCESS;
    }
    if args.playground {
        let playground = buflab::catalog::snippet::playground(&decoded.params);
        if let Some(url) = playground.url {
            println!("{url}");
            return ExitCode::SUCCESS;
        }
        eprintln!("buflab: no Playground address: {}", playground.reason.unwrap_or_default());
        return ExitCode::FAILURE;
    }
    let sampling = Sampling::chosen(args.counts, args.quick, Sampling::FULL);
    let clock = InstantClock::default();
    if let Some(b) = &decoded.compare {
        if is_sweep_comparison(&decoded.params, &b.params) {
            let sampling = Sampling::chosen(args.counts, args.quick, buflab::engine::sweep::SAMPLING);
            return compare_sweeps(&decoded.params, &b.params, sampling, args.json);
        }
        return compare(&decoded.params, &b.params, sampling, args.json);
    }
    if decoded.params.sweep.is_some() && decoded.params.lab == Lab::Read {
        let sampling = Sampling::chosen(args.counts, args.quick, buflab::engine::sweep::SAMPLING);
        return sweep(&decoded.params, &clock, sampling, args.json);
    }
    match decoded.params.lab {
        Lab::Read => {
            let code = finish(
                buflab::api::run(&decoded.params, &clock, sampling),
                args.json,
                if args.timeline { table_and_timeline } else { table },
                Report::digests_agree,
                "a reader delivered different bytes than the source",
            );
            if !args.json {
                print!("{}", page_faults(&decoded.params, args.link.as_deref()));
            }
            code
        }
        Lab::Write => finish(
            buflab::api::run_write(&decoded.params, &clock, sampling),
            args.json,
            write_tables,
            WriteReport::bytes_agree,
            "a writer produced different bytes than the reference",
        ),
    }
}

/// Prints a lab's report (a table, or JSON) and turns its correctness check
/// into the exit code.
fn finish<R: serde::Serialize>(
    result: Result<R, ParamError>,
    json: bool,
    render: fn(&R) -> String,
    correct: fn(&R) -> bool,
    mismatch: &str,
) -> ExitCode {
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("buflab: {e}");
            return ExitCode::FAILURE;
        }
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report).expect("a report always serializes"));
    } else {
        print!("{}", render(&report));
    }
    if correct(&report) {
        ExitCode::SUCCESS
    } else {
        eprintln!("buflab: {mismatch} (digest mismatch)");
        ExitCode::FAILURE
    }
}

fn ns(t: f64) -> String {
    match t {
        t if t >= 1e9 => format!("{:.2} s", t / 1e9),
        t if t >= 1e6 => format!("{:.2} ms", t / 1e6),
        t if t >= 1e3 => format!("{:.1} µs", t / 1e3),
        t => format!("{t:.0} ns"),
    }
}

/// A measured time, or "–" for stats with no samples (`--counts`).
fn timed(stats: &Stats, show: impl Fn(&Stats) -> String) -> String {
    if stats.samples == 0 {
        "–".to_string()
    } else {
        show(stats)
    }
}

fn table(r: &Report) -> String {
    let header = [
        "reader", "source reads", "app reads", "bytes", "copied", "allocs", "alloc bytes", "peak heap",
        "cpu median", "cpu min–max", "× copy†", "modelled I/O", "total*", "digest",
    ];
    let rows: Vec<Vec<String>> = r
        .runs
        .iter()
        .map(|run| {
            vec![
                run.reader.id().to_string(),
                run.source_reads.to_string(),
                run.app_reads.to_string(),
                run.bytes.to_string(),
                run.bytes_copied.to_string(),
                run.alloc.allocations.to_string(),
                run.alloc.alloc_bytes.to_string(),
                run.alloc.peak_bytes.to_string(),
                timed(&run.cpu_ns, |s| ns(s.median)),
                timed(&run.cpu_ns, |s| format!("{}–{}", ns(s.min), ns(s.max))),
                run.cpu_x_copy.map_or_else(|| "–".into(), |x| format!("{x:.1}×")),
                ns(run.modelled_io_ns),
                ns(run.modelled_total_ns()),
                run.digest.clone(),
            ]
        })
        .collect();
    let p = &r.params;
    let mut out = format!(
        "#{}\n{} stream, chunks {}, buffer {}, reads of {}, modelled {} ns per source read\n\n",
        r.link,
        format_size(p.len),
        r.link.split('&').find_map(|kv| kv.strip_prefix("chunk=")).unwrap_or("?"),
        format_size(p.cap),
        format_size(p.rs),
        p.sys,
    );
    out += &format!(
        "workload {}, {}{}\n\n",
        p.workload.id(),
        if p.streams == 1 { "1 stream".to_string() } else { format!("{} streams read round-robin", p.streams) },
        if p.readers.contains(&ReaderKind::Chained) {
            format!(", chained block pool {}", if p.pool { "on" } else { "off" })
        } else {
            String::new()
        },
    );
    out += &layout(&header, &rows);
    for run in &r.runs {
        if let Some(b) = run.blocks {
            out += &format!(
                "\n{}: {} block{} of {} allocated, {} handed out again from the pool.",
                run.reader.id(),
                b.allocated,
                if b.allocated == 1 { "" } else { "s" },
                format_size(p.cap),
                b.reused
            );
        }
    }
    for run in &r.runs {
        if let (Some(polls), Some(pendings)) = (run.polls, run.pendings) {
            out += &format!(
                "\n{}: {polls} polls of its futures, {pendings} of them answered Pending (pend = {} %).",
                run.reader.id(),
                p.pend
            );
        }
    }
    if r.runs.iter().any(|run| run.blocks.is_some() || run.polls.is_some()) {
        out.push('\n');
    }
    let floor = match &r.copy_ns {
        Some(c) => format!(
            "† × copy: the CPU median over this run's copy floor, copying the stream's bytes once ({} median, \
             {}–{}, sampled beside the readers).\n",
            ns(c.median),
            ns(c.min),
            ns(c.max)
        ),
        None => String::new(),
    };
    out += &format!(
        "\n* total = measured CPU median + modelled I/O (source reads × {} ns).\n{floor}\
         timer resolution {}, {} sample(s) × batch; digests {}.\n",
        p.sys,
        ns(r.timer.resolution_ns),
        r.runs.first().map_or(0, |run| run.cpu_ns.samples),
        if r.digests_agree() { "agree with the source" } else { "DIFFER from the source" },
    );
    out
}

/// The table, then each reader's buffer timeline (`--timeline`).
fn table_and_timeline(r: &Report) -> String {
    let mut out = table(r);
    for run in &r.runs {
        if let Some(t) = &run.timeline {
            out += &timeline_text(run.reader, t);
        }
    }
    out
}

/// One reader's timeline as text: per operation a gauge of the buffer's fill
/// level after it, and its caption.
fn timeline_text(reader: ReaderKind, t: &buflab::model::Timeline) -> String {
    const GAUGE: u64 = 16;
    let mut out = format!(
        "\n{} timeline: {}, stream 1 of {}, first {} operations{}\n",
        reader.id(),
        match t.shape {
            Shape::Unbuffered => "no buffer".to_string(),
            Shape::Blocks => format!("blocks of {}", format_size(t.capacity)),
            Shape::Single => format!("buffer of {}", format_size(t.capacity)),
        },
        t.streams,
        t.ops.len(),
        if t.truncated { " (more followed)" } else { "" },
    );
    for (i, op) in t.ops.iter().enumerate() {
        let gauge = if t.capacity == 0 {
            " ".repeat(GAUGE as usize + 10)
        } else {
            // Chained: the blocks in the chain side by side would not fit a
            // line; the gauge shows bytes buffered against one block.
            let full = (op.buffered.min(t.capacity) * GAUGE).div_ceil(t.capacity);
            format!("[{}{}] {:>7}", "#".repeat(full as usize), ".".repeat((GAUGE - full) as usize), op.buffered)
        };
        out += &format!("{i:>4} {gauge}  {}\n", op.caption);
    }
    if let Some(e) = &t.error {
        out += &format!("     the run ended with an error: {e}\n");
    }
    out
}

/// Lays out rows under a header: first column left, the rest right-aligned.
fn layout(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, &w))| {
                let pad = " ".repeat(w - c.chars().count());
                if i == 0 { format!("{c}{pad}") } else { format!("{pad}{c}") }
            })
            .collect();
        padded.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(header.to_vec());
    for row in rows {
        out += &line(row.iter().map(String::as_str).collect());
    }
    out
}

// ---------------------------------------------------------------------------
// Comparisons

/// `buflab compare A B`: two links, each read as any link (B whole, not
/// relative to A), then the same comparison a `b.` link runs; or, with
/// `--files`, two exported results paired as they are.
fn compare_command(args: CompareArgs) -> ExitCode {
    if args.files {
        let read = |path: &str| std::fs::read(path).map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
        let (a, b) = match (read(&args.a), read(&args.b)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("buflab: {e}");
                return ExitCode::FAILURE;
            }
        };
        let paired = buflab::api::pair_results(&a, &b).map_err(|e| ParamError { key: "file", message: e.message });
        return finish(paired, args.json, comparison_table, |_| true, "");
    }
    let mut sides = Vec::new();
    for (side, link) in [("A", &args.a), ("B", &args.b)] {
        let decoded = buflab::link::decode(link);
        for n in &decoded.notices {
            eprintln!("notice: {side}: {}: {}", n.key, n.message);
        }
        if decoded.compare.is_some() {
            eprintln!("notice: {side}: its b. keys are ignored: `compare` takes A and B as two links");
        }
        sides.push(decoded.params);
    }
    if is_sweep_comparison(&sides[0], &sides[1]) {
        let sampling = Sampling::chosen(args.counts, args.quick, buflab::engine::sweep::SAMPLING);
        return compare_sweeps(&sides[0], &sides[1], sampling, args.json);
    }
    compare(&sides[0], &sides[1], Sampling::chosen(args.counts, args.quick, Sampling::FULL), args.json)
}

/// A comparison of two sweeps: the read lab with a sweep on both sides (one
/// side without, `b.sweep=off`, compares the single runs, as the page does).
fn is_sweep_comparison(a: &buflab::Params, b: &buflab::Params) -> bool {
    a.lab == Lab::Read && b.lab == Lab::Read && a.sweep.is_some() && b.sweep.is_some()
}

/// Runs two sweeps in alternating order and prints each side's table, then
/// the knee of each side, paired (or the JSON of it all).
fn compare_sweeps(a: &buflab::Params, b: &buflab::Params, sampling: Sampling, json: bool) -> ExitCode {
    let result = buflab::api::compare_sweeps(a, b, &InstantClock::default(), sampling, |side, i, n, point| {
        if !json {
            let across = point.across.map(|a| format!(", {}", format_size(a))).unwrap_or_default();
            eprintln!("{side}: point {}/{n}: {}{across}", i + 1, format_size(point.value));
        }
    });
    finish(result, json, sweep_comparison_table, |c| c.a.digests_agree && c.b.digests_agree, "a reader delivered different bytes than the source")
}

/// A comparison's first lines: its link, A's and B's, and what differs in
/// words (or that B is the same `what` as A).
fn comparison_head(links: [&str; 3], changed: &[buflab::model::Changed], lab: buflab::model::Lab, what: &str) -> String {
    let [link, a, b] = links;
    let mut out = format!("#{link}\nA: #{a}\nB: #{b}\n");
    if changed.is_empty() {
        out += &format!("B is the same {what} as A (an A/A comparison).\n");
    } else {
        let words: Vec<String> = changed.iter().map(|ch| buflab::catalog::compare::changed_words(lab, ch)).collect();
        out += &format!("B differs from A in: {}.\n", words.join("; "));
    }
    out
}

/// A sweep comparison as text: the links, what differs, A's sweep, B's
/// sweep, then the knees of A and B side by side in the engine's words.
fn sweep_comparison_table(c: &buflab::model::SweepComparison) -> String {
    let mut out = comparison_head([&c.link, &c.a.link, &c.b.link], &c.changed, c.a.params.lab, "sweep");
    out += "Points run in alternating order (A then B, then B then A).\n";
    for (side, r) in [("A", &c.a), ("B", &c.b)] {
        out += &format!("\n── {side} ──\n{}", sweep_table(r));
    }
    out += "\n── Knees, A against B ──\n";
    if c.knees.is_empty() {
        out += &format!("no knee along {}: a bigger value only costs more.\n", c.a.sweep.axis.id());
    }
    for k in &c.knees {
        out += &format!("{}\n", k.says);
    }
    out
}

/// Runs a comparison and prints its table (or JSON).
fn compare(a: &buflab::Params, b: &buflab::Params, sampling: Sampling, json: bool) -> ExitCode {
    finish(
        buflab::api::compare(a, b, &InstantClock::default(), sampling),
        json,
        comparison_table,
        |c| c.a.digests_agree() && c.b.digests_agree(),
        "a reader delivered different bytes than the source",
    )
}

/// One spread in a cell, with what it is: `A ±21.0 µs MAD`, `B ÷ A 0.98–1.03 99% CI`.
fn spread_text(side: &str, metric: buflab::model::MetricId, s: buflab::model::Spread, timing: &buflab::model::Timing) -> String {
    use buflab::catalog::compare::{figure, ratio, spread};
    use buflab::model::{SpreadKind, Timing};
    let label = spread(s.kind).label;
    match (s.kind, timing) {
        (SpreadKind::Mad, _) => format!("{side} ±{} {label}", figure(metric, (s.high - s.low) / 2.0)),
        (SpreadKind::RatioInterval, Timing::Alternating { confidence, .. }) => {
            format!("{side} {}–{} {:.0}% {label}", ratio(s.low), ratio(s.high), confidence * 100.0)
        }
        _ => format!("{side} {}–{} {label}", ratio(s.low), ratio(s.high)),
    }
}

/// A comparison as a table: per pair of readers and metric, A, B, B − A,
/// B ÷ A, what that means, and each spread with what it is; then the time
/// rows' sentences, where each side was measured, and the notes.
fn comparison_table(c: &buflab::model::Comparison) -> String {
    use buflab::catalog::compare::{figure, ratio, SPREADS};
    use buflab::catalog::metrics::METRICS;
    use buflab::model::{Compared, Timing};
    let mut out = comparison_head([&c.link, &c.a.link, &c.b.link], &c.changed, c.a.params.lab, "experiment");
    out += &match c.timing {
        Timing::Untimed => "Counts only (no times).\n".to_string(),
        Timing::Alternating { rounds, margin, .. } => {
            format!("Times: {rounds} alternating rounds; faster or slower only beyond 1 ± {:.0}%.\n", margin * 100.0)
        }
        Timing::Separate { same_machine, factor } => format!(
            "Times: measured separately{}; called only beyond {factor}×.\n",
            if same_machine { ", at different times" } else { ", on two machines (ns not compared)" }
        ),
    };
    out.push('\n');
    let words = |o: buflab::model::Outcome| o.id().replace('_', " ");
    let row = |who: &str, what: &str, m: &Compared| {
        let cell = |v: Option<f64>| v.map_or_else(|| "–".to_string(), |v| figure(m.metric, v));
        let spreads: Vec<String> = [("A", m.a_spread), ("B", m.b_spread), ("B ÷ A", m.ratio_spread)]
            .into_iter()
            .filter_map(|(side, s)| s.map(|s| spread_text(side, m.metric, s, &c.timing)))
            .collect();
        vec![
            who.to_string(),
            what.to_string(),
            cell(m.a),
            cell(m.b),
            cell(m.difference),
            m.ratio.map_or_else(|| "–".into(), ratio),
            match m.x_copy_outcome {
                Some(o) => format!("{} (× copy: {})", words(m.outcome), words(o)),
                None => words(m.outcome),
            },
            spreads.join("; "),
        ]
    };
    let reader = |k: Option<ReaderKind>| k.map_or("–", |k| k.id());
    let who = |p: &buflab::model::PairedRun| {
        if p.a == p.b {
            reader(p.a).to_string()
        } else {
            format!("{} / {}", reader(p.a), reader(p.b))
        }
    };
    let mut rows = Vec::new();
    for pair in &c.readers {
        if pair.metrics.is_empty() {
            let side = if pair.a.is_some() { "A" } else { "B" };
            rows.push(vec![who(pair), format!("(only {side} runs it)"), String::new(), String::new(), String::new(), String::new(), String::new(), String::new()]);
        }
        for m in &pair.metrics {
            rows.push(row(&who(pair), METRICS[m.metric as usize].short, m));
        }
    }
    if let Some(copy) = &c.copy {
        rows.push(row("copy floor", "copy time", copy));
    }
    out += &layout(&["reader", "metric", "A", "B", "B − A", "B ÷ A", "outcome", "spreads (what each is)"], &rows);
    let x = |v: Option<f64>| v.map_or_else(|| "–".to_string(), |v| format!("{}×", ratio(v)));
    let copies: Vec<String> = c
        .readers
        .iter()
        .flat_map(|p| p.metrics.iter().filter(|m| m.a_x_copy.is_some() || m.b_x_copy.is_some()).map(move |m| (p, m)))
        .map(|(p, m)| format!("{}: A {}, B {}", who(p), x(m.a_x_copy), x(m.b_x_copy)))
        .collect();
    if !copies.is_empty() {
        out += &format!("\nCPU time as multiples of each side's copy floor (× copy): {}.\n", copies.join("; "));
    }
    out.push('\n');
    for pair in &c.readers {
        for m in pair.metrics.iter().filter(|m| m.ratio_spread.is_some() || m.x_copy_outcome.is_some()) {
            out += &format!("{} {}: {}.\n", who(pair), METRICS[m.metric as usize].short, m.says);
        }
    }
    if let Some(copy) = &c.copy {
        out += &format!("copy floor: {}.\n", copy.says);
    }
    for (side, machine) in [("A", &c.a.machine), ("B", &c.b.machine)] {
        if let Some(m) = machine {
            out += &format!("{side} measured on: {}.\n", m.describe());
        }
    }
    out.push('\n');
    for note in &c.notes {
        out += &format!("{note}\n");
    }
    let spreads: Vec<String> = SPREADS.iter().map(|s| format!("{}: {}", s.label, s.about.trim_end_matches('.'))).collect();
    out += &format!(
        "Spreads: {}.\nDigests {}.\n",
        spreads.join("; "),
        if c.a.digests_agree() && c.b.digests_agree() { "agree with the source on both sides" } else { "DIFFER from the source" },
    );
    out
}

// ---------------------------------------------------------------------------
// Real I/O

/// The kernel sources exist in native builds only (integration tests build
/// this binary for wasm32 too).
#[cfg(target_arch = "wasm32")]
fn real(_: RealArgs) -> ExitCode {
    eprintln!("buflab: real I/O needs a native build");
    ExitCode::FAILURE
}

#[cfg(not(target_arch = "wasm32"))]
fn real(args: RealArgs) -> ExitCode {
    use buflab::engine::real::native::REAL_SAMPLING;
    use buflab::model::RealReport;
    let decoded = buflab::link::decode(args.link.as_deref().unwrap_or(""));
    for n in &decoded.notices {
        eprintln!("notice: {}: {}", n.key, n.message);
    }
    let (sampling, real) = if args.quick { (Sampling::QUICK, Sampling::QUICK) } else { (Sampling::FULL, REAL_SAMPLING) };
    let clock = InstantClock::default();
    let report = buflab::api::run_real(&decoded.params, &clock, sampling, real).map(|mut r| {
        real_alloc_calls(&mut r, args.link.as_deref());
        r
    });
    finish(
        report,
        args.json,
        real_table,
        RealReport::digests_agree,
        "a reader over a real source delivered different bytes than the stream",
    )
}

/// Allocation's kernel cost natively: each reader's minor page faults per
/// run, the allocator's `brk`/`mmap`/`munmap` calls behind them (this
/// command again under `strace`), and why the page shows none.
#[cfg(not(target_arch = "wasm32"))]
fn page_faults(params: &buflab::model::Params, link: Option<&str>) -> String {
    use buflab::engine::real::native::{page_faults, FAULT_RUNS};
    let faults = match page_faults(params) {
        Ok(f) => f,
        Err(e) => return format!("\npage faults: {e}\n"),
    };
    let mut args = vec!["--counts"];
    args.extend(link);
    let calls = traced_alloc_calls(&args);
    let each: Vec<String> = faults
        .iter()
        .map(|(kind, n)| {
            let faults = n.map_or_else(|| "unavailable".into(), |n| n.to_string());
            let runs: Vec<AllocCalls> = calls
                .iter()
                .flatten()
                .filter(|(label, _)| label.split_once('/').is_some_and(|(k, run)| k == kind.id() && run != "0"))
                .map(|(_, c)| *c)
                .collect();
            match median_calls(&runs) {
                Some(c) if runs.len() == FAULT_RUNS => format!("{} {faults} minor faults, {}", kind.id(), alloc_calls_text(&c)),
                _ => format!("{} {faults} minor faults", kind.id()),
            }
        })
        .collect();
    let unavailable = match &calls {
        Ok(_) => String::new(),
        Err(why) => format!(" (brk/mmap/munmap calls unavailable: {why})"),
    };
    format!(
        "\nNatively, per run (the kernel's counts for this thread, median of {FAULT_RUNS} timed runs after one; \
         the allocator's calls counted by strace in a second run of this command): {}{unavailable}.\n\
         A fault maps in a page the run touched first: glibc gives freed heap memory back to the kernel (brk \
         lowers the heap's top, munmap returns a large block) and the next run's allocations take it again \
         (brk, mmap) and fault it in. A wasm heap never shrinks, so the page shows none of this.\n",
        each.join("; ")
    )
}

/// Each call's median over `runs`; `None` for no runs.
fn median_calls(runs: &[AllocCalls]) -> Option<AllocCalls> {
    if runs.is_empty() {
        return None;
    }
    let median = |f: fn(&AllocCalls) -> u64| {
        let mut v: Vec<u64> = runs.iter().map(f).collect();
        v.sort_unstable();
        v[v.len() / 2]
    };
    Some(AllocCalls { brk: median(|c| c.brk), mmap: median(|c| c.mmap), munmap: median(|c| c.munmap), mremap: median(|c| c.mremap) })
}

fn alloc_calls_text(c: &AllocCalls) -> String {
    let mut text = format!("{} brk, {} mmap, {} munmap", c.brk, c.mmap, c.munmap);
    if c.mremap > 0 {
        text += &format!(", {} mremap", c.mremap);
    }
    text
}

/// The allocator's system calls in each marked section (`kernel::marked`)
/// of this program run again with `args` under `strace`, which traces
/// only those calls and the marks (`--seccomp-bpf`: the rest run
/// untrapped). `Err` says why they could not be counted: no `strace`,
/// tracing not permitted, not Linux, or this is already the traced run.
#[cfg(not(target_arch = "wasm32"))]
fn traced_alloc_calls(args: &[&str]) -> Result<Vec<(String, AllocCalls)>, String> {
    use buflab::engine::real::kernel::{alloc_calls_between_marks, MARKS_ENV, TRACED_CALLS};
    use std::process::{Command, Stdio};
    if !cfg!(target_os = "linux") {
        return Err("they are counted with strace on Linux only".into());
    }
    if std::env::var_os(MARKS_ENV).is_some() {
        return Err("this is the traced run".into());
    }
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let trace = std::env::temp_dir().join(format!("buflab-alloc-{}.trace", std::process::id()));
    let out = Command::new("strace")
        .args(["-f", "-qq", "--seccomp-bpf", "-s", "128", "-e", TRACED_CALLS, "-o"])
        .arg(&trace)
        .arg(exe)
        .args(args)
        .env(MARKS_ENV, "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    let text = std::fs::read_to_string(&trace);
    let _ = std::fs::remove_file(&trace);
    match out {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err("strace is not installed (bash scripts/setup.sh installs it)".into())
        }
        Err(e) => return Err(format!("strace: {e}")),
        Ok(o) if !o.status.success() && text.as_deref().map_or(true, str::is_empty) => {
            let stderr = String::from_utf8_lossy(&o.stderr);
            return Err(format!("strace failed: {}", stderr.lines().next().unwrap_or("no message")));
        }
        Ok(_) => {}
    }
    let sections = alloc_calls_between_marks(&text.map_err(|e| format!("strace's trace: {e}"))?);
    if sections.is_empty() {
        return Err("the traced run marked no runs".into());
    }
    Ok(sections)
}

/// `buflab real`'s allocator calls per counted pass, from this command run
/// again (`--quick`) under `strace`.
#[cfg(not(target_arch = "wasm32"))]
fn real_alloc_calls(report: &mut buflab::model::RealReport, link: Option<&str>) {
    use buflab::engine::real::native::alloc_label;
    let mut args = vec!["real", "--quick"];
    args.extend(link);
    match traced_alloc_calls(&args) {
        Ok(sections) => {
            for run in &mut report.real {
                let label = alloc_label(run.source, run.reader);
                run.alloc_calls = sections.iter().find(|(l, _)| *l == label).map(|(_, c)| *c);
            }
            if report.real.iter().any(|r| r.alloc_calls.is_none()) {
                report.alloc_calls_unavailable = Some("the traced run did not mark every run".into());
            }
        }
        Err(why) => report.alloc_calls_unavailable = Some(why),
    }
}

#[cfg(target_arch = "wasm32")]
fn page_faults(_: &buflab::model::Params, _: Option<&str>) -> String {
    String::new()
}

/// `buflab stream`: the link's stream bytes, to a file, files or stdout.
fn stream(args: StreamArgs) -> ExitCode {
    use std::io::Write;
    let decoded = buflab::link::decode(args.link.as_deref().unwrap_or(""));
    for n in &decoded.notices {
        eprintln!("notice: {}: {}", n.key, n.message);
    }
    let p = &decoded.params;
    let data = buflab::engine::content::generate(p);
    let written = match (&args.out, args.streams) {
        (None, _) => std::io::stdout().lock().write_all(&data),
        (Some(path), false) => std::fs::write(path, &data),
        (Some(path), true) => (1..=p.streams as usize).try_for_each(|i| std::fs::write(numbered(path, i), &data)),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("buflab: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `data.bin` → `data-3.bin` (stream 3); `data` → `data-3`.
fn numbered(path: &std::path::Path, stream: usize) -> std::path::PathBuf {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{stream}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{stream}"),
    };
    path.with_file_name(name)
}

#[cfg(not(target_arch = "wasm32"))]
fn sizes(s: &buflab::model::ReadSizes) -> String {
    format!("{}–{}–{}", s.min, s.median, s.max)
}

#[cfg(not(target_arch = "wasm32"))]
fn real_table(r: &buflab::model::RealReport) -> String {
    // A paced run's wall time is the pace and the work: no time to set beside the model's.
    let paced = buflab::engine::real::native::paced(&r.simulated.params);
    let timed = |s: String| if paced { "–".to_string() } else { s };
    let header = [
        "source", "reader", "read calls‡", "wrapper calls", "bytes/read min–med–max", "minor faults", "alloc calls§", "wall median",
        "wall min–max", "per read", "model reads", "model bytes/read", "model total*", "real/model", "sys fit†", "writer late¶", "digest",
    ];
    let rows: Vec<Vec<String>> = r
        .real
        .iter()
        .map(|run| {
            vec![
                run.source.id().to_string(),
                run.reader.id().to_string(),
                match run.counted_by {
                    CallCounter::Kernel => run.read_calls.to_string(),
                    CallCounter::Wrapper => format!("{} (wrapper)", run.read_calls),
                },
                run.wrapper_calls.to_string(),
                sizes(&run.bytes_per_read),
                run.minor_faults.map_or_else(|| "n/a".into(), |n| n.to_string()),
                run.alloc_calls.map_or_else(|| "n/a".into(), |c| alloc_calls_text(&c)),
                ns(run.wall_ns.median),
                format!("{}–{}", ns(run.wall_ns.min), ns(run.wall_ns.max)),
                ns(run.ns_per_read),
                run.model.read_calls.to_string(),
                sizes(&run.model.bytes_per_read),
                timed(ns(run.model.total_ns)),
                timed(format!("{:.2}", run.ratio)),
                timed(format!("{:.0} ns", run.sys_ns)),
                run.writer_late_ns.map_or_else(|| "–".into(), |l| ns(l.p90_ns as f64)),
                if run.digest == r.simulated.source_digest { "ok".into() } else { "WRONG".into() },
            ]
        })
        .collect();
    let p = &r.simulated.params;
    let chunk = r.simulated.link.split('&').find_map(|kv| kv.strip_prefix("chunk=")).unwrap_or("?");
    let pace = if p.rate > 0 {
        format!("paced at {}/s (link key rate), as the model's pieces arrive", format_size(p.rate))
    } else {
        "as fast as the kernel takes them (no rate: the model's reader is always waiting)".to_string()
    };
    let work = if p.work > 0 { format!("; the application spends {} ns on each piece it receives", p.work) } else { String::new() };
    let mut out = format!(
        "#{}\nreal I/O: {} stream, workload {}, reads of {}, buffer {}{work}\npipe and tcp writers write chunk={chunk} pieces {pace}\n\n",
        r.simulated.link,
        format_size(p.len),
        p.workload.id(),
        format_size(p.rs),
        format_size(p.cap),
    );
    out += &layout(&header, &rows);
    let samples = r.real.first().map_or(0, |run| run.wall_ns.samples);
    let timed = if buflab::engine::real::native::paced(p) {
        "the counted run's wall time (a paced run is not timed again: its time is the pace and the work)".to_string()
    } else {
        format!("{samples} sample(s)")
    };
    out += &format!(
        "\nfile: a temporary regular file just written, so the page cache is warm (read(2) from memory, no disk).\n\
         pipe, tcp: a writer thread writes pieces sized by the chunk model; the kernel joins them as it likes\n\
         (tcp: loopback, Nagle off). Model reads: the model's source reads for the same chunks, rate and work.\n\
         Wall time: first read to the workload's end, {timed}; opening the\n\
         source and starting its writer are not in it.\n\
         ‡ read calls: the kernel's count of read(2) calls by the reading thread (syscr in /proc/thread-self/io),\n\
         std's overrides on File included; over tcp (recv(2), which syscr does not count) or off Linux, the\n\
         wrapper's. Wrapper calls: calls the reader made on the source as a wrapper sees them (a read_to_end\n\
         handed to the source is one); bytes/read is over these. Minor faults: the reading thread's, counted pass.\n\
         § alloc calls: the allocator's brk/mmap/munmap calls in the reading thread over the counted pass, counted\n\
         by strace in a second, quick run of this command{}.\n\
         * model: the same reader over the in-memory source cut by chunk=file (file) or the link's chunks (pipe,\n\
         tcp): measured CPU median + model reads × sys ({} ns) + bytes × syskib ({} ns per KiB).\n\
         † sys fit: (wall median − model CPU) ÷ read calls. ¶ writer late: how late a paced writer woke from\n\
         its sleeps, 9 times in 10 (the model's writer is never late).\n",
        r.alloc_calls_unavailable.as_ref().map(|why| format!(" (unavailable: {why})")).unwrap_or_default(),
        p.sys,
        p.sys_kib,
    );
    out += &fits_table(r);
    out += &format!(
        "\ncalibrated: sys {} ns per read call + {} ns per KiB, fitted over the real {} (the link's own source kind).\n\
         #{}\n\nThe simulated run of the link (CPU measured, I/O modelled):\n\n",
        r.calibrated_sys,
        r.calibrated_sys_kib,
        r.calibrated_from.source.id(),
        r.link,
    );
    out += &table(&r.simulated);
    out += &format!(
        "\nDigests over real sources {}.\n",
        if r.digests_agree() { "agree with the stream's" } else { "DIFFER from the stream's" }
    );
    out
}

/// The cost fits: each read size's time per call against the line's.
#[cfg(not(target_arch = "wasm32"))]
fn fits_table(r: &buflab::model::RealReport) -> String {
    let mut out = String::from("\nCost per read call against its size (unbuffered reads of each size, less the copy from memory):\n\n");
    let header = ["source", "asked", "bytes/call", "ns/call", "line", "sys", "per KiB", "residual"];
    let rows: Vec<Vec<String>> = r
        .fits
        .iter()
        .flat_map(|f| {
            f.points.iter().enumerate().map(move |(i, pt)| {
                let first = i == 0;
                vec![
                    if first { f.source.id().to_string() } else { String::new() },
                    format_size(pt.asked),
                    format!("{:.0}", pt.bytes_per_call),
                    format!("{:.0}", pt.ns_per_call),
                    format!("{:.0}", pt.fitted_ns),
                    if first { format!("{:.0} ns", f.sys_ns) } else { String::new() },
                    if first { format!("{:.0} ns", f.ns_per_kib) } else { String::new() },
                    if first { format!("{:.0} %", f.residual * 100.0) } else { String::new() },
                ]
            })
        })
        .collect();
    out += &layout(&header, &rows);
    out += "The line: sys + bytes × per KiB ÷ 1024, least squares weighted by 1 ÷ time²; residual: the root mean\n\
            square of (measured − line) ÷ measured over the sizes.\n";
    out
}

// ---------------------------------------------------------------------------
// The write lab

fn write_tables(r: &WriteReport) -> String {
    let w = &r.params.write;
    let mut out = format!(
        "#{}\n{} records × 16 B = {} B; growable cursors start at {}, fixed buffers are {}\n\n",
        r.link,
        w.records,
        r.reference_bytes,
        format_size(w.init_cap),
        format_size(w.buf),
    );
    let rows: Vec<Vec<String>> = r
        .flavours
        .iter()
        .map(|f| {
            let info = flavour(f.flavour);
            let (median, range) = match &f.cpu_ns {
                Some(s) => (ns(s.median), format!("{}–{}", ns(s.min), ns(s.max))),
                None => ("–".into(), "–".into()),
            };
            let outcome = match (&f.error, &f.digest) {
                (Some(e), _) => format!("{}: {} after {} B", e.kind, e.message, e.bytes_written),
                (None, Some(d)) if *d == r.reference_digest => "identical".into(),
                (None, _) => "DIFFERENT BYTES".into(),
            };
            vec![
                info.label.to_string(),
                median,
                range,
                format!("{} µs", info.seed_us),
                f.bytes.to_string(),
                f.alloc.allocations.to_string(),
                f.alloc.reallocs.to_string(),
                outcome,
            ]
        })
        .collect();
    out += &layout(
        &["cursor", "cpu median", "cpu min–max", "article", "bytes", "allocs", "reallocs", "bytes check"],
        &rows,
    );

    out += &format!(
        "\nBufWriter over a sink: {} written {} B at a time, sink {}, BufWriter capacity {}, modelled {} ns per sink write\n\n",
        format_size(w.len),
        w.ws,
        r.link.split('&').find_map(|kv| kv.strip_prefix("sink=")).unwrap_or("?"),
        format_size(w.cap),
        r.params.sys,
    );
    let rows: Vec<Vec<String>> = r
        .sink
        .iter()
        .map(|s| {
            vec![
                write_mode(s.mode).label.to_string(),
                s.app_writes.to_string(),
                s.sink_writes.to_string(),
                s.sink_flushes.to_string(),
                s.bytes_copied.to_string(),
                s.alloc.allocations.to_string(),
                timed(&s.cpu_ns, |t| ns(t.median)),
                ns(s.modelled_io_ns),
                ns(s.cpu_ns.median + s.modelled_io_ns),
                if s.digest == r.sink_digest { "identical".into() } else { "DIFFERENT BYTES".into() },
            ]
        })
        .collect();
    out += &layout(
        &["writer", "app writes", "sink writes", "flushes", "copied", "allocs", "cpu median", "modelled I/O", "total*", "bytes check"],
        &rows,
    );

    out += "\nA sink that refuses the write holding the last byte:\n\n";
    let rows: Vec<Vec<String>> = r
        .final_flush
        .iter()
        .map(|f| {
            let label = ending(f.ending).label;
            vec![
                label.to_string(),
                f.reported_by.clone().map_or_else(|| "nobody: LOST".to_string(), |call| format!("{call}()")),
                f.bytes_at_sink.to_string(),
                f.bytes_lost.to_string(),
            ]
        })
        .collect();
    out += &layout(&["ending", "error reported by", "bytes at sink", "bytes lost"], &rows);

    let samples = r.flavours.iter().find_map(|f| f.cpu_ns.map(|s| s.samples)).unwrap_or(0);
    let direct = r.sink.iter().find(|s| s.mode == WriteMode::Direct).map_or(0, |s| s.sink_writes);
    out += &format!(
        "\n* total = measured CPU median + modelled I/O (sink writes × {} ns); direct made {} sink writes.\n\
         timer resolution {}, {} sample(s) × batch; bytes {}.\n",
        r.params.sys,
        direct,
        ns(r.timer.resolution_ns),
        samples,
        if r.bytes_agree() { "identical to the reference" } else { "DIFFER from the reference" },
    );
    out
}

// ---------------------------------------------------------------------------
// Sweeps

fn sweep(params: &buflab::Params, clock: &InstantClock, sampling: Sampling, json: bool) -> ExitCode {
    let report = buflab::api::run_sweep(params, clock, sampling, |i, n, point| {
        if !json {
            let across = point.across.map(|a| format!(", {}", format_size(a))).unwrap_or_default();
            eprintln!("point {}/{n}: {}{across}", i + 1, format_size(point.value));
        }
    });
    finish(report, json, sweep_table, |r| r.digests_agree, "a reader delivered different bytes than the source")
}

/// An axis value as the page shows it: `8K` for sizes, `8` for streams.
fn format_value(axis: SweepAxis, value: u64) -> String {
    if axis.in_bytes() {
        format_size(value)
    } else {
        value.to_string()
    }
}

fn sweep_table(r: &buflab::model::SweepReport) -> String {
    if r.sweep.across.is_some() {
        return grid_table(r);
    }
    let axis = r.sweep.axis;
    let header = [axis.id(), "reader", "source reads", "copied", "allocs", "cpu median", "modelled I/O", "total*", "bytes"];
    let mut rows = Vec::new();
    for point in &r.points {
        for run in &point.report.runs {
            rows.push(vec![
                format_value(axis, point.value),
                run.reader.id().to_string(),
                run.source_reads.to_string(),
                run.bytes_copied.to_string(),
                run.alloc.allocations.to_string(),
                timed(&run.cpu_ns, |s| ns(s.median)),
                ns(run.modelled_io_ns),
                ns(run.modelled_total_ns()),
                if run.digest == point.report.source_digest { "ok".into() } else { "WRONG".into() },
            ]);
        }
    }
    let mut out = format!(
        "#{}\nsweep of {} ({}) from {} to {}, {} points\n\n",
        r.link,
        buflab::catalog::schema::sweep_axis(axis).label.to_lowercase(),
        axis.id(),
        format_value(axis, r.sweep.from),
        format_value(axis, r.sweep.to),
        r.values.len()
    );
    out += &layout(&header, &rows);
    out += "\n";
    out += &knee_lines(r);
    out += &sweep_footer(r);
    out
}

/// A two-axis sweep: per reader and metric, a matrix with the first axis
/// down the rows and the second across the columns; a knee is marked `*`.
fn grid_table(r: &buflab::model::SweepReport) -> String {
    use buflab::model::Metric;
    let (axis, across) = (r.sweep.axis, r.sweep.across.expect("a two-axis sweep").axis);
    let label = |a: SweepAxis| buflab::catalog::schema::sweep_axis(a).label.to_lowercase();
    let mut out = format!(
        "#{}\nsweep of {} ({}) {} to {} by {} ({}) {} to {}: {} × {} = {} points\n",
        r.link,
        label(axis),
        axis.id(),
        format_value(axis, r.sweep.from),
        format_value(axis, r.sweep.to),
        label(across),
        across.id(),
        format_value(across, r.across_values[0]),
        format_value(across, *r.across_values.last().expect("a range has a point")),
        r.values.len(),
        r.across_values.len(),
        r.total,
    );
    let Some(first) = r.points.first() else { return out };
    let metrics = [(Metric::SourceReads, "source reads"), (Metric::BytesCopied, "bytes copied"), (Metric::Time, "total time*")];
    for (ri, run0) in first.report.runs.iter().enumerate() {
        for (metric, what) in metrics {
            let corner = format!("{} \\ {}", axis.id(), across.id());
            let mut header = vec![corner];
            header.extend(r.across_values.iter().map(|&a| format_value(across, a)));
            let rows: Vec<Vec<String>> = r
                .values
                .iter()
                .map(|&v| {
                    let mut row = vec![format_value(axis, v)];
                    row.extend(r.across_values.iter().map(|&a| {
                        let point = r.points.iter().find(|p| p.value == v && p.across == Some(a));
                        let Some(run) = point.and_then(|p| p.report.runs.get(ri)) else { return "–".to_string() };
                        let cell = match metric.count(run) {
                            Some(n) => n.to_string(),
                            None => ns(run.modelled_total_ns()),
                        };
                        let is_knee = r.knees.iter().any(|k| {
                            k.reader == run0.reader && k.metric == metric && k.across == Some(a) && k.value == v
                        });
                        if is_knee { format!("{cell} *") } else { cell }
                    }));
                    row
                })
                .collect();
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            out += &format!("\n{} — {what}\n", run0.reader.id());
            out += &layout(&header, &rows);
        }
    }
    out += &if r.sweep.axis.has_knee() {
        format!("\n* the knee along {} in that column (for that reader and metric).\n", axis.id())
    } else {
        format!("\nno knee along {}: a bigger value only costs more.\n", axis.id())
    };
    out += &sweep_footer(r);
    out
}

/// One line per knee, or why there is none.
fn knee_lines(r: &buflab::model::SweepReport) -> String {
    use buflab::model::Metric;
    let axis = r.sweep.axis;
    let mut out = String::new();
    if r.knees.is_empty() {
        out += &format!("no knee along {}: a bigger value only costs more.\n", axis.id());
    }
    for k in &r.knees {
        let what = match k.metric {
            Metric::SourceReads => "source reads",
            Metric::BytesCopied => "bytes copied",
            Metric::Allocations => "allocations",
            Metric::Time => "total time*",
        };
        out += &format!(
            "knee {:>8} = {:<6} {:<10} on {what}{}\n",
            axis.id(),
            format_value(axis, k.value),
            k.reader.id(),
            if k.first { " (the first point: no bigger value pays)" } else { "" },
        );
    }
    out
}

fn sweep_footer(r: &buflab::model::SweepReport) -> String {
    format!(
        "\nknee: the smallest {} whose count is within 5% of the sweep's best for that reader;\n\
         for time, the smallest after which no point is clearly (all samples > 5%) faster.\n\
         * total = measured CPU median + modelled I/O (source reads × {} ns). Digests {}.\n",
        r.sweep.axis.id(),
        r.params.sys,
        if r.digests_agree { "agree with the source at every point" } else { "DIFFER from the source" },
    )
}
