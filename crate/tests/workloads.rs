#![cfg(not(target_arch = "wasm32"))]
//! Every reader × every workload delivers exactly what a reference computed
//! from the plain byte slice says it must (content::expected), for random
//! chunkings, stream counts, capacities, pool and reuse settings; and the
//! counts the page draws from behave as described.

use std::io;

use buflab::engine::content;
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::engine::heap::{AllocScope, Lanes};
use buflab::engine::readers::{drive_streams, Driven, ReaderConfig};
use buflab::engine::source::{counting_bytes, stream_seed, Chunker, Probe, Source};
use buflab::engine::workload::{combined_digest, Consume, DigestSink, Spec};
use buflab::link::decode as decode_link;
use buflab::model::{Id, LenRange, ReaderKind, Workload};
use proptest::prelude::*;

mod common;
use common::{chunk_model, chunk_script};

#[derive(Debug)]
struct Case {
    workload: Workload,
    data: Vec<u8>,
    cap: usize,
    rs: usize,
    pool: bool,
    reuse: bool,
}

struct Outcome {
    driven: Driven,
    digest: String,
    source_reads: u64,
    source_bytes: u64,
}

fn run(kind: ReaderKind, case: &Case, chunkers: Vec<Chunker>) -> io::Result<Outcome> {
    let probe = Probe::default();
    let mut sources = Lanes::with_capacity(chunkers.len());
    for c in chunkers {
        sources.push(Source::with_chunker(&case.data, c, &probe));
    }
    let mut sinks: Vec<DigestSink> = (0..sources.len()).map(|_| DigestSink::default()).collect();
    let spec = Spec { workload: case.workload, rs: case.rs, len: case.data.len(), reuse: case.reuse };
    let config = ReaderConfig { cap: case.cap, pool: case.pool };
    let driven = drive_streams(kind, sources, &probe, config, &spec, &mut vec![0; case.rs], &mut sinks)?;
    let per_stream: Vec<u64> = sinks.iter().map(DigestSink::value).collect();
    Ok(Outcome {
        driven,
        digest: combined_digest(&per_stream),
        source_reads: probe.source_reads(),
        source_bytes: probe.source_bytes(),
    })
}

fn content_for(workload: Workload, len: usize, seed: u64, line: LenRange, frame: LenRange, nul: u64) -> Vec<u8> {
    match workload {
        Workload::Lines => content::lines(len, line, seed),
        // A frames stream is 0 or at least 4 bytes (one header).
        Workload::Frames => content::frames(if len < 4 { 0 } else { len }, frame, seed),
        Workload::Scan => content::nul_at(len, nul),
        _ => counting_bytes(len),
    }
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::sample::select(Workload::all()),
        prop_oneof![Just(0usize), 0usize..6000],
        any::<u64>(),
        (0u64..50, 0u64..200),
        (0u64..300, 0u64..700),
        0u64..7000,
        prop_oneof![Just((1usize, 1usize)), (1usize..2000, 1usize..3000), (1usize..64).prop_flat_map(|c| (Just(c), c..c * 4 + 1))],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(workload, len, seed, (lmin, lx), (fmin, fx), nul, (cap, rs), pool, reuse)| Case {
            workload,
            data: content_for(workload, len, seed, LenRange { min: lmin, max: lmin + lx }, LenRange { min: fmin, max: fmin + fx }, nul),
            cap,
            rs,
            pool,
            reuse,
        })
}


fn check(case: &Case, chunkers: impl Fn() -> Vec<Chunker>) -> Result<(), TestCaseError> {
    let streams = chunkers().len();
    let want = content::expected(case.workload, &case.data);
    let want_digest = combined_digest(&vec![want.digest; streams]);
    for info in buflab::catalog::schema().readers {
        let out = run(info.id, case, chunkers()).map_err(|e| TestCaseError::fail(format!("{:?}: {e}", info.id)))?;
        let who = format!("{:?} {:?} cap {} rs {} streams {streams}", info.id, case.workload, case.cap, case.rs);
        prop_assert_eq!(&out.digest, &want_digest, "{}", who);
        prop_assert_eq!(out.driven.app.bytes, want.bytes * streams as u64, "{}", who);
        if case.workload != Workload::Scan {
            prop_assert_eq!(out.source_bytes, (case.data.len() * streams) as u64, "{}: every byte read once", who);
        }
        let copied = out.driven.bytes_copied;
        match (info.id, case.workload) {
            (ReaderKind::Unbuffered, _) => prop_assert_eq!(copied, 0, "{}", who),
            // Lending readers copy nothing where they lend.
            (ReaderKind::Chained, Workload::Frames | Workload::Lines | Workload::Scan) => prop_assert_eq!(copied, 0, "{}", who),
            (ReaderKind::Std | ReaderKind::Tokio | ReaderKind::Futures, Workload::Scan) => prop_assert_eq!(copied, 0, "{}", who),
            _ => prop_assert!(copied <= out.driven.app.owned_bytes, "{}", who),
        }
        prop_assert_eq!(out.driven.blocks.is_some(), info.id == ReaderKind::Chained);
        prop_assert!(out.source_reads >= 1 || case.data.is_empty() && case.workload == Workload::Exact);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// The digest sink batches single bytes before hashing them: however the
    /// bytes arrive (single bytes, empty pieces, pieces of any length, in any
    /// mix), the digest is the whole string's.
    #[test]
    fn the_digest_does_not_depend_on_how_the_bytes_are_cut(
        data in proptest::collection::vec(any::<u8>(), 0..2048),
        cuts in proptest::collection::vec(prop_oneof![4 => Just(1usize), 1 => Just(0usize), 2 => 0usize..600], 1..400),
    ) {
        let mut whole = DigestSink::default();
        whole.take(&data);
        let mut pieces = DigestSink::default();
        let mut rest = &data[..];
        for n in &cuts {
            let (piece, tail) = rest.split_at((*n).min(rest.len()));
            pieces.take(piece);
            rest = tail;
        }
        pieces.take(rest);
        prop_assert_eq!(pieces.value(), whole.value());
    }

    #[test]
    fn every_reader_and_workload_delivers_the_reference_for_seeded_chunkings(
        case in case(), model in chunk_model(), seed in any::<u64>(), streams in prop_oneof![3 => Just(1usize), 1 => 2usize..5],
    ) {
        check(&case, || (0..streams).map(|i| Chunker::new(model, stream_seed(seed, i))).collect())?;
    }

    #[test]
    fn every_reader_and_workload_delivers_the_reference_for_scripted_chunkings(
        case in case(), scripts in prop::collection::vec(chunk_script(30), 1..4),
    ) {
        check(&case, || scripts.iter().map(|s| Chunker::scripted(s.clone())).collect())?;
    }
}

// ---------------------------------------------------------------------------
// Whole experiments, as the page and the CLI run them.

fn report(link: &str) -> buflab::Report {
    let d = decode_link(link);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let r = buflab::run(&d.params, &InstantClock::default(), Sampling::QUICK).unwrap();
    assert!(r.digests_agree(), "{link}");
    r
}

fn by_reader<'a>(r: &'a buflab::Report, kind: ReaderKind) -> &'a buflab::model::Run {
    r.runs.iter().find(|run| run.reader == kind).unwrap()
}

#[test]
fn frames_under_the_worst_chunking_std_allocates_per_frame_chained_per_pool() {
    let link = "len=1M&chunk=worst&seed=2&cap=8K&rd=std,chained&wl=frames";
    let r = report(link);
    let frames = content::frames(1 << 20, r.params.frame, r.params.seed);
    let mut count = 0u64;
    let mut at = 0;
    while at < frames.len() {
        at += 4 + u32::from_be_bytes(frames[at..at + 4].try_into().unwrap()) as usize;
        count += 1;
    }
    let std = by_reader(&r, ReaderKind::Std);
    let chained = by_reader(&r, ReaderKind::Chained);
    assert_eq!(std.alloc.allocations, count + 1, "a Vec per frame and the buffer");
    assert_eq!(std.bytes_copied, 1 << 20, "headers and payloads copied out of the buffer");
    assert_eq!(chained.bytes_copied, 0);
    assert!(chained.alloc.allocations <= 4, "{:?}", chained.alloc);
    let blocks = chained.blocks.unwrap();
    assert!(blocks.reused > 1000, "{blocks:?}");

    let off = report(&format!("{link}&pool=off"));
    let off_chained = by_reader(&off, ReaderKind::Chained);
    let off_blocks = off_chained.blocks.unwrap();
    assert_eq!(off_blocks.allocated, blocks.allocated + blocks.reused);
    assert!(off_chained.alloc.allocations > off_blocks.allocated, "every block is an allocation");
    assert_eq!(off_chained.source_reads, chained.source_reads, "the pool changes memory, not I/O");

    // Reused: the buffer, and one payload Vec that grows to the largest
    // frame seen (a few doublings), instead of one per frame.
    let reuse = report(&format!("{link}&reuse=on"));
    let reused = by_reader(&reuse, ReaderKind::Std).alloc.allocations;
    assert!((2..12).contains(&reused), "{reused}");
}

#[test]
fn many_streams_each_hold_a_buffer() {
    let r = report("len=64K&chunk=poor&cap=4K&rs=1&rd=unbuffered,std,chained&wl=fixed&streams=10");
    let std = by_reader(&r, ReaderKind::Std);
    assert_eq!(std.alloc.allocations, 10, "one buffer per stream");
    assert_eq!(std.alloc.peak_bytes, 10 * 4096);
    assert_eq!(std.bytes, 10 * 65536);
    assert_eq!(by_reader(&r, ReaderKind::Unbuffered).source_reads, 10 * (65536 + 1));
    // One stream's counts are what a one-stream experiment gives.
    let one = report("len=64K&chunk=poor&cap=4K&rs=1&rd=unbuffered,std,chained&wl=fixed");
    assert_eq!(one.runs[1].alloc.allocations, 1);
    assert_eq!(one.source_digest, buflab::engine::workload::digest_of(&counting_bytes(65536)), "digests of old links are kept");
}

#[test]
fn unbuffered_lines_read_one_byte_at_a_time_and_scan_stops_at_the_nul() {
    let r = report("len=64K&chunk=file&rd=unbuffered,std&wl=lines");
    // The reads that find the end: one, or two when the last line has no
    // newline (one ends that line, the next finds no line at all).
    let text = content::lines(65536, r.params.line, r.params.seed);
    let ends = if text.ends_with(b"\n") { 1 } else { 2 };
    assert_eq!(r.runs[0].source_reads, 65536 + ends, "one source read per byte");
    assert_eq!(r.runs[1].source_reads, 65536 / 8192 + ends);

    let r = report("len=64K&chunk=file&cap=1K&rs=100&rd=unbuffered,std,chained&wl=scan&nul=10000");
    for run in &r.runs {
        assert_eq!(run.bytes, 10000);
    }
    assert_eq!(r.runs[0].source_reads, 10000 / 100 + 1, "stops in the read holding the NUL");
    assert_eq!(r.runs[1].source_reads, 10000 / 1024 + 1);
    assert_eq!((r.runs[1].bytes_copied, r.runs[2].bytes_copied), (0, 0), "scanned in place");
}

#[test]
fn read_to_end_needs_no_buffer_and_bytes_is_slow_unbuffered() {
    let r = report("len=64K&chunk=normal&rd=unbuffered,std,chained&wl=to_end");
    assert_eq!(r.runs[0].source_reads, r.runs[1].source_reads, "the buffer saves no source read");
    assert_eq!(r.runs[1].bytes_copied, 0, "the source writes straight into the Vec");
    assert_eq!(r.runs[1].alloc.allocations, r.runs[0].alloc.allocations + 1, "only an extra buffer");

    let r = report("len=64K&chunk=normal&rd=unbuffered,std&wl=bytes");
    assert_eq!(r.runs[0].source_reads, 65536 + 1);
    assert!(r.runs[1].source_reads < 65536 / 200);
    assert_eq!(r.runs[1].bytes_copied, 65536);
}

#[test]
fn a_std_buffer_of_one_byte_bypasses_for_bytes_and_copies_nothing() {
    // Regression guard for the copy measurement: with a 1-byte buffer std's
    // bytes() reads straight into its own one-byte destination, inside std,
    // which only the reader-buffer window can tell apart from a copy.
    let r = report("len=4K&chunk=worst&cap=1&rd=std&wl=bytes");
    assert_eq!(r.runs[0].bytes_copied, 0);
}

#[test]
fn counting_allocations_does_not_charge_the_harness() {
    let scope = AllocScope::start();
    let r = report("len=64K&chunk=poor&rd=unbuffered&wl=fixed&streams=50");
    drop(r);
    let _ = scope.finish();
    let r = report("len=64K&chunk=poor&rd=unbuffered&wl=fixed&streams=50");
    assert_eq!(r.runs[0].alloc.allocations, 0, "50 sources and their vector are the harness's");
}

/// The page's timing builds are split by workload (crate/Cargo.toml's
/// `wl-<id>` features, one build each in scripts/wasm.sh): every
/// workload of the model has its feature, in the default set through
/// `workloads`, and a build of its own; natively every one is served.
#[test]
fn every_workload_has_its_feature_and_its_timing_build() {
    use buflab::engine::workload::{check_served, served};
    let cargo = include_str!("../Cargo.toml");
    let script = include_str!("../../scripts/wasm.sh");
    let built: Vec<&str> = script
        .lines()
        .find_map(|line| line.trim().strip_prefix("WORKLOADS=(")?.strip_suffix(')'))
        .expect("scripts/wasm.sh lists the workloads")
        .split_whitespace()
        .collect();
    assert_eq!(built, Workload::ids(), "scripts/wasm.sh builds one timing build per workload, in the model's order");
    let group = cargo.lines().find(|line| line.starts_with("workloads = [")).expect("the `workloads` feature");
    for workload in Workload::all() {
        let feature = format!("wl-{}", workload.id());
        assert!(group.contains(&format!("\"{feature}\"")), "`workloads` enables {feature}");
        assert!(cargo.lines().any(|line| line == format!("{feature} = []")), "{feature} is a feature");
        assert!(served(workload), "{} is served natively", workload.id());
        assert!(check_served(workload).is_ok());
    }
}
