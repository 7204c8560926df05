//! How fast `buflab trace` reads a log, and the heap it holds: a made-up
//! log (`bench::trace_log`) of a million lines, generated first, then fed
//! to the reader as the command line feeds a file, 1 MiB per chunk, as
//! many times as it takes to make the lines asked for. Wall time and the
//! process's CPU time (Linux: `/proc/self/stat`; on a shared machine the
//! CPU time is the one to compare).
//!
//! ```sh
//! cargo run --release --example trace_speed -- 10000000 one-byte
//! cargo run --release --example trace_speed -- 10000000 mixed
//! cargo run --release --example trace_speed -- 1000000 mixed --write /tmp/mixed.strace   # the block, for scripts/trace-speed.mjs
//! ```

use std::time::Instant;

use buflab::bench::trace_log::{Shape, SyntheticLog};
use buflab::engine::clock::InstantClock;
use buflab::engine::heap::AllocScope;
use buflab::engine::trace::{memory_bound, Parser};
use buflab::model::ReplayOptions;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let lines: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10_000_000);
    let shape = match args.get(2).map(String::as_str) {
        Some("mixed") => Shape::Mixed,
        _ => Shape::OneByte,
    };
    let block = lines.min(1_000_000);
    let mut log = SyntheticLog::new(shape, block, 42);
    let mut text = Vec::new();
    while log.fill(&mut text, 1 << 20) {}
    if let (Some("--write"), Some(path)) = (args.get(3).map(String::as_str), args.get(4)) {
        std::fs::write(path, &text).expect("the block is written");
        return;
    }
    let rounds = lines.div_ceil(block);
    let scope = AllocScope::start();
    let mut parser = Parser::new();
    let bytes = text.len() as u64 * rounds;
    let (start, cpu) = (Instant::now(), cpu_seconds());
    for _ in 0..rounds {
        for chunk in text.chunks(1 << 20) {
            parser.feed(chunk);
        }
    }
    let trace = parser.finish(true);
    let (reading, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    let lines = block * rounds;
    let heap = scope.finish();
    let r = &trace.report;
    println!(
        "{shape:?}: {lines} lines, {:.1} MiB read in {reading:.2} s wall ({:.2} M lines/s), {cpu:.2} s CPU ({:.2} M lines/s, {:.0} MiB/s)",
        bytes as f64 / 1048576.0,
        lines as f64 / reading / 1e6,
        lines as f64 / cpu / 1e6,
        bytes as f64 / cpu / 1048576.0
    );
    println!(
        "heap: peak {:.1} MiB above the start (chunk buffer not counted: allocated before), bound {:.1} MiB; {} descriptors (+{} past the bound), {} read calls, {} skipped lines",
        heap.peak_bytes as f64 / 1048576.0,
        memory_bound() as f64 / 1048576.0,
        r.descriptors.len(),
        r.more_descriptors.descriptors,
        r.read_calls,
        r.skipped.lines
    );
    if let Some(busiest) = r.descriptors.iter().max_by_key(|d| d.calls) {
        let start = Instant::now();
        let options = ReplayOptions { sweep: false, fit: false, ..ReplayOptions::default() };
        let replay = trace.replay(busiest.id, &options, &InstantClock::default()).unwrap();
        let runs: Vec<String> = replay.runs.iter().map(|r| format!("{:?} {:?}: {}", r.reader, r.cap, r.source_reads)).collect();
        println!(
            "replay of the busiest descriptor ({} calls, {} runs stored): {:.2} s for {} readers: {}",
            busiest.calls,
            busiest.sequence.runs,
            start.elapsed().as_secs_f64(),
            replay.runs.len(),
            runs.join(", ")
        );
    }
}

/// This process's CPU time so far, user and system (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // Fields after the command's closing parenthesis; utime and stime are
    // the 12th and 13th of those, in clock ticks (100 per second).
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields.get(11).and_then(|u| u.parse().ok()).unwrap_or(0) + fields.get(12).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
    ticks as f64 / 100.0
}
