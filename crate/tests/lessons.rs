#![cfg(not(target_arch = "wasm32"))]
//! Every lesson's claim, checked on the real result of its own link: each
//! link is decoded (it must decode without a notice and select its lesson),
//! run through the real experiment with quick sampling, and the claim is
//! asserted on the exact counts (never on times). The figures the lessons'
//! "what to notice" points quote are checked too, so the text cannot drift
//! from what the page shows; and the README must list every lesson's link.
//!
//! `buffer-size` and `knee-grid` are sweeps: their claims are asserted here on
//! the sweeps their links run. The counts lessons quote over a pipe or a
//! socket are checked against real ones in `tests/arrival.rs`.

use buflab::api::{run_lab, run_sweep};
use buflab::catalog::cursors::{flavour, FLAVOURS};
use buflab::catalog::lessons::LESSONS;
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::link::decode as decode_link;
use buflab::engine::source::KERNEL_BUFFER;
use buflab::model::{
    ChunkModel, Flavour, Id, Lab, LabReport, LenRange, LessonId, Metric, Params, ReaderKind, Report, Run, SweepAxis, View,
    Workload, WriteParams, WriteReport,
};

/// The lesson's link, decoded: no notice, and it selects its own lesson.
fn lesson_params(id: LessonId) -> Params {
    let lesson = buflab::catalog::lessons::lesson(id);
    let d = decode_link(lesson.link);
    assert!(d.notices.is_empty(), "{}: {:?}", id.id(), d.notices);
    assert_eq!(d.params.lesson, Some(id));
    d.params
}

fn run(params: &Params) -> LabReport {
    run_lab(params, &InstantClock::default(), Sampling::QUICK).expect("a lesson's params are valid")
}

fn read_report(params: &Params) -> Report {
    match run(params) {
        LabReport::Read(r) => {
            assert!(r.digests_agree(), "every reader delivers the stream's bytes");
            r
        }
        LabReport::Write(_) => panic!("expected the read lab"),
    }
}

fn write_report(params: &Params) -> WriteReport {
    match run(params) {
        LabReport::Write(w) => {
            assert!(w.bytes_agree(), "every flavour writes the reference bytes");
            w
        }
        LabReport::Read(_) => panic!("expected the write lab"),
    }
}

fn reader(report: &Report, kind: ReaderKind) -> &Run {
    report.runs.iter().find(|r| r.reader == kind).unwrap_or_else(|| panic!("no {} run", kind.id()))
}

#[test]
fn every_lesson_link_decodes_cleanly_and_is_canonical() {
    assert_eq!(LESSONS.len(), 11);
    for lesson in &LESSONS {
        let d = decode_link(lesson.link);
        assert!(d.notices.is_empty(), "{}: {:?}", lesson.id.id(), d.notices);
        assert_eq!(d.params.lesson, Some(lesson.id));
        // Loading it leaves the address as it is: the page shows exactly this link.
        assert_eq!(format!("#{}", d.fragment), lesson.link);
    }
}

/// The params of a lesson's suggestion, by the words it is named with.
fn suggestion_params(id: LessonId, text: &str) -> Params {
    let lesson = buflab::catalog::lessons::lesson(id);
    let s = lesson.suggestions.iter().find(|s| s.text == text).unwrap_or_else(|| panic!("{} suggests no '{text}'", id.id()));
    decode_link(s.link).params
}

#[test]
fn every_suggestion_is_a_clean_canonical_link_of_its_own_lesson_that_changes_the_experiment() {
    for lesson in &LESSONS {
        let own = decode_link(lesson.link).params;
        for s in lesson.suggestions {
            let d = decode_link(s.link);
            assert!(d.notices.is_empty(), "{}: {:?}", s.link, d.notices);
            assert_eq!(format!("#{}", d.fragment), s.link, "{}: a suggestion's link is canonical", lesson.id.id());
            assert_eq!(d.params.lesson, Some(lesson.id), "{}", s.link);
            assert_ne!(Params { lesson: None, ..d.params }, Params { lesson: None, ..own.clone() }, "{}", s.link);
            assert!(!s.text.is_empty());
            // The points name what the suggestion changes.
            let words = s.text.split(' ').last().unwrap();
            assert!(lesson.notice.iter().any(|p| p.contains(words)), "{}: no point mentions '{words}'", lesson.id.id());
        }
    }
}

#[test]
fn one_byte_unbuffered_makes_at_least_1000_times_the_source_reads_of_std() {
    let p = lesson_params(LessonId::OneByte);
    assert_eq!((p.rs, p.workload, p.len), (1, Workload::Fixed, 1 << 20));
    let r = read_report(&p);
    let (raw, std) = (reader(&r, ReaderKind::Unbuffered), reader(&r, ReaderKind::Std));
    assert!(raw.source_reads >= 1000 * std.source_reads, "{} vs {}", raw.source_reads, std.source_reads);
    // The figures the lesson quotes.
    assert_eq!((raw.source_reads, std.source_reads), (1_048_577, 129));
    assert_eq!((raw.app_reads, std.app_reads), (1_048_577, 1_048_577));
    // Its third point: over a poor network the reader waits for each piece, so the buffer cannot fill.
    let poor = read_report(&suggestion_params(LessonId::OneByte, "chunking poor (64–512 bytes)"));
    assert_eq!(poor.params.chunk, ChunkModel::preset("poor").unwrap());
    let poor_std = reader(&poor, ReaderKind::Std).source_reads;
    assert_eq!(poor_std, 3641);
    let times = (poor_std as f64 / std.source_reads as f64).round();
    assert!(point(LessonId::OneByte, 2).contains(&format!("std makes {times} times as many")), "{times}");
}

/// Point `i` of a lesson's "what to notice".
fn point(id: LessonId, i: usize) -> &'static str {
    buflab::catalog::lessons::lesson(id).notice[i]
}

#[test]
fn no_help_large_reads_make_std_copy_nothing_and_read_as_often_as_unbuffered_while_buffers_cost_streams_times_cap() {
    let p = lesson_params(LessonId::NoHelp);
    assert!(p.rs > p.cap, "the lesson's read size is above the capacity");
    let r = read_report(&p);
    let (raw, std) = (reader(&r, ReaderKind::Unbuffered), reader(&r, ReaderKind::Std));
    assert_eq!(std.bytes_copied, raw.bytes_copied);
    assert_eq!(std.bytes_copied, 0);
    assert_eq!(std.source_reads, raw.source_reads);
    assert_eq!(std.source_reads, 200, "two per stream, as the lesson says");
    assert_eq!(raw.alloc.allocations, 0);
    assert_eq!(std.alloc.allocations, p.streams);
    assert_eq!(std.alloc.alloc_bytes, p.streams * p.cap);
    // And the cost grows with the streams: a tenth of them, a tenth of the bytes.
    let fewer = read_report(&Params { streams: p.streams / 10, ..p.clone() });
    assert_eq!(reader(&fewer, ReaderKind::Std).alloc.alloc_bytes, p.streams / 10 * p.cap);
    // Below the capacity the buffer helps again: its third point.
    let small = read_report(&suggestion_params(LessonId::NoHelp, "read size 1"));
    assert_eq!(Params { rs: p.rs, ..small.params.clone() }, p);
    let (raw, std) = (reader(&small, ReaderKind::Unbuffered), reader(&small, ReaderKind::Std));
    assert!(std.source_reads * 100 < raw.source_reads, "{} vs {}", std.source_reads, raw.source_reads);
}

#[test]
fn bytes_vs_to_end_one_source_read_per_byte_against_two_and_one_file_sized_allocation() {
    let p = lesson_params(LessonId::BytesVsToEnd);
    assert_eq!(p.workload, Workload::Bytes);
    let r = read_report(&p);
    let (raw, std) = (reader(&r, ReaderKind::Unbuffered), reader(&r, ReaderKind::Std));
    assert_eq!(raw.source_reads, p.len + 1, "one per byte and the final 0");
    assert_eq!(std.source_reads, p.len / p.cap + 1);
    assert_eq!(std.source_reads, 129);

    // The seed's fix, the lesson's second point: read_to_end into a pre-sized Vec.
    let to_end = read_report(&suggestion_params(LessonId::BytesVsToEnd, "the workload \"read_to_end, then scan\""));
    assert_eq!(Params { workload: p.workload, ..to_end.params.clone() }, p);
    let (raw_end, std_end) = (reader(&to_end, ReaderKind::Unbuffered), reader(&to_end, ReaderKind::Std));
    // std's File: the whole file in one read, then the read that finds the end.
    assert_eq!(raw_end.source_reads, 2);
    assert_eq!(std_end.source_reads, raw_end.source_reads, "the buffer saves nothing here");
    // The lesson's aside: over a pipe, std's generic reads (8 KiB, doubling).
    let piped = read_report(&Params { workload: Workload::ToEnd, chunk: ChunkModel::Pipe, ..p.clone() });
    assert_eq!(reader(&piped, ReaderKind::Std).source_reads, 20);
    assert_eq!(raw_end.app_reads, 1);
    assert_eq!((raw_end.alloc.allocations, raw_end.alloc.alloc_bytes), (1, p.len));
    assert_eq!((std_end.alloc.allocations, std_end.alloc.alloc_bytes), (2, p.len + p.cap));
    assert!(raw.source_reads > 100_000 * raw_end.source_reads);
}

#[test]
fn chained_worst_copies_nothing_and_allocates_far_less_than_std_with_the_pool_on() {
    let p = lesson_params(LessonId::ChainedWorst);
    assert_eq!(p.chunk, ChunkModel::preset("worst").unwrap());
    assert_eq!((p.workload, p.pool, p.frame), (Workload::Frames, true, LenRange { min: 64, max: 1024 }));
    let r = read_report(&p);
    let (std, chained) = (reader(&r, ReaderKind::Std), reader(&r, ReaderKind::Chained));
    assert_eq!(chained.bytes_copied, 0);
    assert!(chained.alloc.allocations * 100 <= std.alloc.allocations, "{} vs {}", chained.alloc.allocations, std.alloc.allocations);
    // The figures the lesson quotes.
    assert_eq!(std.bytes_copied, p.len);
    assert_eq!((std.alloc.allocations, chained.alloc.allocations), (1894, 3));
    let blocks = chained.blocks.expect("the chained reader reports its blocks");
    assert_eq!((blocks.allocated, blocks.reused), (1, 16_190));
    assert_eq!((std.source_reads, chained.source_reads), (16_269, 16_269));
    // Pool off: a block per fill.
    let off = read_report(&suggestion_params(LessonId::ChainedWorst, "the block pool off"));
    assert_eq!(Params { pool: true, ..off.params.clone() }, p);
    assert!(reader(&off, ReaderKind::Chained).alloc.allocations > 16_000);
}

#[test]
fn cursors_growable_ones_reallocate_from_empty_and_fixed_ones_allocate_once() {
    let p = lesson_params(LessonId::Cursors);
    assert_eq!(p.lab, Lab::Write);
    assert_eq!((p.write.init_cap, p.write.records, p.write.flavours.len()), (0, 2048, 7));
    let w = write_report(&p);
    assert_eq!(w.flavours.len(), 7);
    for f in &w.flavours {
        let info = FLAVOURS.iter().find(|i| i.id == f.flavour).unwrap();
        assert!(f.error.is_none(), "{:?}", f.flavour);
        assert_eq!(f.bytes, 32_768, "{:?}", f.flavour);
        if info.growable {
            assert!(f.alloc.reallocs > 0, "{:?} grew without reallocating?", f.flavour);
            assert_eq!((f.alloc.allocations, f.alloc.reallocs), (13, 12), "{:?}", f.flavour);
        } else {
            assert_eq!((f.alloc.allocations, f.alloc.reallocs), (1, 0), "{:?}", f.flavour);
        }
    }
    let growable = w.flavours.iter().filter(|f| flavour(f.flavour).growable).count();
    assert_eq!(growable, 4);

    // The third point: start at 32K and nothing reallocates; a smaller fixed buffer ends in WriteZero.
    let sized = write_report(&suggestion_params(LessonId::Cursors, "the growable cursors starting at 32K"));
    assert_eq!(sized.params, Params { write: WriteParams { init_cap: 32 * 1024, ..p.write.clone() }, ..p.clone() });
    assert!(sized.flavours.iter().all(|f| f.alloc.reallocs == 0));
    let short = write_report(&suggestion_params(LessonId::Cursors, "the fixed buffer at 16K"));
    assert_eq!(short.params, Params { write: WriteParams { buf: 16 * 1024, ..p.write.clone() }, ..p });
    for f in &short.flavours {
        assert_eq!(f.error.is_some(), !flavour(f.flavour).growable, "{:?}", f.flavour);
    }
    assert!(short.flavours.iter().any(|f| f.flavour == Flavour::MutSlice && f.error.is_some()));
}

/// The pace at which a program that spends `work` ns on each `rs`-byte
/// record handles bytes, in MiB/s.
fn pace_mib(p: &Params) -> f64 {
    p.rs as f64 / (p.work as f64 * 1e-9) / (1 << 20) as f64
}

#[test]
fn buffer_size_the_knee_sits_at_the_largest_piece_while_the_program_keeps_up_and_at_the_kernels_buffer_behind_a_faster_sender() {
    let p = lesson_params(LessonId::BufferSize);
    assert_eq!(p.chunk, ChunkModel::preset("good").unwrap());
    assert_eq!(p.readers, [ReaderKind::Std, ReaderKind::Chained]);
    let sweep = p.sweep.expect("the lesson is a sweep");
    assert_eq!((sweep.axis, sweep.across.map(|a| a.axis)), (SweepAxis::Cap, Some(SweepAxis::Rate)));
    let pace = pace_mib(&p);
    let lesson = buflab::catalog::lessons::lesson(LessonId::BufferSize);
    assert!(lesson.explanation.contains(&format!("about {pace:.1} MiB/s")), "{pace:.1}");
    let report = run_sweep(&p, &InstantClock::default(), Sampling::COUNTS, |_, _, _| {}).unwrap();
    assert!(report.complete && report.digests_agree);
    assert_eq!(report.values.first().copied(), Some(512));
    assert_eq!(report.values.last().copied(), Some(64 * 1024));
    let largest_piece = 4096;
    for kind in [ReaderKind::Std, ReaderKind::Chained] {
        for &rate in &report.across_values {
            let knee = report
                .knees
                .iter()
                .find(|k| k.reader == kind && k.metric == Metric::SourceReads && k.across == Some(rate))
                .unwrap_or_else(|| panic!("{} has no knee at {rate} B/s", kind.id()));
            let keeps_up = (rate as f64) < pace * (1 << 20) as f64;
            // The claim: the largest piece while the program keeps up, the kernel's buffer behind a faster sender.
            let want = if keeps_up { largest_piece } else { KERNEL_BUFFER as u64 };
            assert_eq!(knee.value, want, "{} at {rate} B/s", kind.id());
        }
    }
    // Both worlds are in the grid.
    assert!(report.across_values.iter().any(|&r| (r as f64) < pace * (1 << 20) as f64));
    assert!(report.across_values.iter().any(|&r| (r as f64) > pace * (1 << 20) as f64));
}

#[test]
fn fast_sender_std_reads_as_from_a_file_behind_a_faster_sender_and_one_piece_per_read_when_the_program_keeps_up() {
    let p = lesson_params(LessonId::FastSender);
    let lesson = buflab::catalog::lessons::lesson(LessonId::FastSender);
    let pace = pace_mib(&p);
    let rate_mib = p.rate as f64 / (1 << 20) as f64;
    assert!(lesson.explanation.contains(&format!("about {pace:.1} MiB/s")) && rate_mib > pace, "{pace:.1}");
    let times = ["once", "twice", "three times", "four times"][(rate_mib / pace).floor() as usize - 1];
    assert!(lesson.explanation.contains(&format!("The sender is {times} as fast")) && lesson.question.text.contains(times), "{times}");
    let r = read_report(&p);
    let (raw, std) = (reader(&r, ReaderKind::Unbuffered), reader(&r, ReaderKind::Std));
    // The claim: within 5 % of a regular file's reads.
    let file = read_report(&Params { chunk: ChunkModel::File, rate: 0, ..p.clone() });
    let file_std = reader(&file, ReaderKind::Std).source_reads;
    assert!((std.source_reads as f64) <= file_std as f64 * 1.05 && std.source_reads >= file_std, "{} vs {file_std}", std.source_reads);
    assert!(std.arrival.unwrap().joined * 10 > std.source_reads * 9, "nearly every read got pieces joined");
    // The second point: 64 bytes every time.
    assert_eq!(raw.source_reads, p.len / p.rs + 1);
    assert!(point(LessonId::FastSender, 1).contains(&grouped(raw.source_reads)));
    assert_eq!(raw.source_reads, reader(&file, ReaderKind::Unbuffered).source_reads, "as from a file");
    // The third point: at 2 MiB/s the program keeps up; one piece per read, as without a rate.
    let slow = read_report(&suggestion_params(LessonId::FastSender, "the sender at 2 MiB/s"));
    assert!((slow.params.rate as f64) < pace * (1 << 20) as f64);
    let slow_std = reader(&slow, ReaderKind::Std);
    let waiting = read_report(&Params { rate: 0, ..slow.params.clone() });
    assert_eq!(slow_std.source_reads, reader(&waiting, ReaderKind::Std).source_reads, "one piece per read");
    assert_eq!(slow_std.arrival.unwrap().joined, 0);
    let times = (slow_std.source_reads as f64 / std.source_reads as f64).round();
    assert!(point(LessonId::FastSender, 2).contains(&format!("{times} times as many")), "{times}");
}

/// Every lesson names the world its source lives in, and its link is of that world.
#[test]
fn every_lesson_names_the_world_of_its_link() {
    use buflab::catalog::lessons::World;
    for lesson in &LESSONS {
        let p = lesson_params(lesson.id);
        let expected = if p.lab == Lab::Write {
            World::Memory
        } else if p.sweep.is_some_and(|s| s.across.is_some_and(|a| a.axis == SweepAxis::Rate) || s.axis == SweepAxis::Rate) {
            World::Both
        } else if p.chunk == ChunkModel::File {
            World::File
        } else if p.chunk == ChunkModel::Pipe && p.rate == 0 {
            World::WriterAhead
        } else if p.rate == 0 {
            World::ReaderWaiting
        } else if (p.rate as f64) > pace_mib(&p) * (1 << 20) as f64 {
            World::WriterAhead
        } else {
            World::ReaderWaiting
        };
        assert_eq!(lesson.world, expected, "{}", lesson.id.id());
        assert!(!lesson.world_note.is_empty(), "{}", lesson.id.id());
    }
}

/// The glossary's "Modelled" entry quotes a ratio of the default link's
/// exact counts, computed, and no typed range.
#[test]
fn the_glossary_quotes_the_default_links_read_ratio_as_computed() {
    use buflab::catalog::glossary::glossary;
    use buflab::catalog::terms::TermId;
    let r = read_report(&Params { readers: vec![ReaderKind::Unbuffered, ReaderKind::Std], ..Params::default() });
    let ratio = (reader(&r, ReaderKind::Unbuffered).source_reads as f64 / reader(&r, ReaderKind::Std).source_reads as f64).round();
    let modelled = glossary().into_iter().find(|t| t.id == TermId::Modelled).unwrap();
    assert!(modelled.definition.contains(&format!("makes {ratio}× std's source reads")), "{}", modelled.definition);
    for t in glossary() {
        assert!(!t.definition.contains("–3×") && !t.definition.contains("–400×"), "{:?} types a range of ratios", t.id);
    }
}

#[test]
fn async_bufreader_reads_and_copies_as_std_does_and_a_pending_costs_a_poll_not_a_source_read() {
    let p = lesson_params(LessonId::AsyncBufreader);
    assert_eq!(p.readers, [ReaderKind::Std, ReaderKind::Tokio, ReaderKind::Futures]);
    assert_eq!((p.rs, p.workload, p.pend, p.chunk), (1, Workload::Fixed, 50, ChunkModel::preset("poor").unwrap()));
    let r = read_report(&p);
    let std = reader(&r, ReaderKind::Std);
    assert_eq!((std.polls, std.pendings), (None, None), "a blocking reader is not polled");
    for kind in [ReaderKind::Tokio, ReaderKind::Futures] {
        let run = reader(&r, kind);
        // The claim: std's source reads and copies, exactly.
        assert_eq!((run.source_reads, run.bytes_copied, run.app_reads), (std.source_reads, std.bytes_copied, std.app_reads), "{}", kind.id());
        // A poll per application read, one more per Pending.
        let (polls, pendings) = (run.polls.unwrap(), run.pendings.unwrap());
        assert_eq!(polls, run.app_reads + pendings, "{}", kind.id());
        // The figures the lesson quotes.
        assert_eq!((run.source_reads, run.bytes_copied), (3641, 1 << 20));
        assert_eq!((polls, pendings), (1_050_384, 1_807), "{}", kind.id());
    }
    // Pendings add no source read: the same link always ready reads the same.
    let ready = read_report(&Params { pend: 0, ..p.clone() });
    for run in &ready.runs {
        assert_eq!(run.source_reads, 3641, "{}", run.reader.id());
        assert_eq!(run.pendings.unwrap_or(0), 0);
    }
    // The third point: read_to_end over a pipe, and over a file.
    let to_end = read_report(&suggestion_params(LessonId::AsyncBufreader, "chunking pipe and the workload read_to_end"));
    assert_eq!(to_end.params, Params { chunk: ChunkModel::Pipe, workload: Workload::ToEnd, ..p.clone() });
    let reads: Vec<u64> = to_end.runs.iter().map(|r| r.source_reads).collect();
    assert_eq!(reads, [20, 17, 17]);
    let from_file = read_report(&suggestion_params(LessonId::AsyncBufreader, "a file and the workload read_to_end"));
    assert_eq!(from_file.params, Params { chunk: ChunkModel::File, workload: Workload::ToEnd, ..p });
    let reads: Vec<u64> = from_file.runs.iter().map(|r| r.source_reads).collect();
    assert_eq!(reads, [2, 2, 2]);
    let futures = reader(&to_end, ReaderKind::Futures);
    assert_eq!((futures.alloc.reallocs, futures.alloc.peak_bytes), (1, 2 * (1 << 20) + 8192), "the Vec grows to 2 MiB");
}

#[test]
fn knee_grid_source_reads_stop_falling_where_the_capacity_reaches_the_chunk_in_every_column() {
    let p = lesson_params(LessonId::KneeGrid);
    let sweep = p.sweep.expect("the lesson is a sweep");
    let across = sweep.across.expect("on two axes");
    assert_eq!((sweep.axis, across.axis), (SweepAxis::Cap, SweepAxis::Chunk));
    assert_eq!((p.rs, p.len), (1, 256 * 1024));
    let report = run_sweep(&p, &InstantClock::default(), Sampling::QUICK, |_, _, _| {}).unwrap();
    assert!(report.complete && report.digests_agree);
    assert_eq!(report.across_values, [64, 128, 256, 512, 1024]);
    for kind in [ReaderKind::Std, ReaderKind::Chained] {
        for &chunk in &report.across_values {
            let knee = report
                .knees
                .iter()
                .find(|k| k.reader == kind && k.metric == Metric::SourceReads && k.across == Some(chunk))
                .unwrap_or_else(|| panic!("{} has no knee at chunk {chunk}", kind.id()));
            // The claim: the knee sits where the capacity equals the chunk, a diagonal.
            assert_eq!(knee.value, chunk, "{} at chunk {chunk}", kind.id());
            assert!(!knee.first);
        }
    }
    // The figures the second point quotes: one chunk per read on and above the diagonal.
    let reads = |cap: u64, chunk: u64| -> u64 {
        let point = report.points.iter().find(|pt| pt.value == cap && pt.across == Some(chunk)).unwrap();
        point.report.runs.iter().find(|r| r.reader == ReaderKind::Std).unwrap().source_reads
    };
    assert_eq!((reads(64, 64), reads(4096, 64)), (4097, 4097));
    assert_eq!((reads(1024, 1024), reads(4096, 1024)), (257, 257));
    // Below it, each read fills the whole buffer.
    assert_eq!(reads(32, 1024), 256 * 1024 / 32 + 1);
}

#[test]
fn buffer_timeline_one_fill_of_the_256_byte_buffer_serves_32_reads_and_the_refill_comes_at_step_33() {
    let p = lesson_params(LessonId::BufferTimeline);
    assert_eq!((p.cap, p.rs, p.view, p.step), (256, 8, View::Timeline, 33));
    let r = read_report(&p);
    let t = reader(&r, ReaderKind::Std).timeline.as_ref().expect("std's run carries its timeline");
    let fills = t.fills();
    // Steps are counted from 1 on the page: the fill at step 1, the refill at step 33, the step the link opens on.
    assert_eq!(&fills[..2], [0, 32]);
    assert_eq!(t.ops[0].source_reads, 1);
    assert_eq!(t.ops[0].reads[0].returned, 256, "the first source read fills the whole buffer");
    assert!(t.ops[1..32].iter().all(|op| op.source_reads == 0), "steps 2 to 32 are served from memory");
    assert_eq!(fills[1] + 1, p.step as usize);
    // Unbuffered: a source read on every step.
    let raw = reader(&r, ReaderKind::Unbuffered).timeline.as_ref().unwrap();
    assert!(raw.ops.iter().all(|op| op.source_reads >= 1));
    assert_eq!(raw.ops.len(), buflab::model::TIMELINE_OPS as usize);
}

#[test]
fn the_readme_lists_every_lesson_with_its_exact_link() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let start = readme.find("\n## Lessons\n").expect("README has a \"## Lessons\" section");
    let rest = &readme[start + 1..];
    let section = &rest[..rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3)];
    for lesson in &LESSONS {
        assert!(section.contains(&format!("`{}`", lesson.id.id())), "README's Lessons lacks the id {}", lesson.id.id());
        assert!(section.contains(&format!("`{}`", lesson.link)), "README's Lessons lacks the link of {}", lesson.id.id());
        assert!(section.contains(lesson.title), "README's Lessons lacks the title {}", lesson.title);
    }
}

/// A count with thousands separators, as the page's `count()` writes it.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The number a lesson's question asks for, read off the real result of its link
/// the way the page reads it (a field of the report's JSON, or the sweep's knee).
fn answer_of(lesson: &buflab::catalog::lessons::Lesson) -> u64 {
    use buflab::catalog::lessons::Answer;
    let p = lesson_params(lesson.id);
    match lesson.question.answer {
        Answer::Read { reader: kind, field } => {
            let r = read_report(&p);
            let run = serde_json::to_value(reader(&r, kind)).unwrap();
            run[field].as_u64().unwrap_or_else(|| panic!("{}: a run has no count `{field}`", lesson.id.id()))
        }
        Answer::Write { flavour, field } => {
            let w = write_report(&p);
            let run = w.flavours.iter().find(|f| f.flavour == flavour).expect("the lesson runs the flavour it asks about");
            serde_json::to_value(run).unwrap()[field]
                .as_u64()
                .unwrap_or_else(|| panic!("{}: a flavour run has no count `{field}`", lesson.id.id()))
        }
        Answer::Knee { reader: kind, metric, across } => {
            let report = run_sweep(&p, &InstantClock::default(), Sampling::QUICK, |_, _, _| {}).unwrap();
            report
                .knees
                .iter()
                .find(|k| k.reader == kind && k.metric == metric && k.across == across)
                .expect("the sweep has the knee asked about")
                .value
        }
        Answer::FillServes { reader: kind } => {
            let r = read_report(&p);
            let fills = reader(&r, kind).timeline.as_ref().expect("a run carries its timeline").fills();
            (fills[1] - fills[0]) as u64
        }
    }
}

#[test]
fn every_lesson_question_has_its_answer_in_the_real_result_and_explains_that_number() {
    for lesson in &LESSONS {
        let q = &lesson.question;
        assert!(q.text.ends_with('?') && !q.unit.is_empty(), "{}", lesson.id.id());
        let answer = answer_of(lesson);
        let shown = grouped(answer);
        assert!(q.why.contains(&shown), "{}: the explanation must quote the answer {shown}: {}", lesson.id.id(), q.why);
        // The question itself never gives the number away.
        assert!(!q.text.contains(&shown), "{}: {}", lesson.id.id(), q.text);
    }
}

/// The lesson of a real program's log: its link is the nearest experiment the
/// engine finds for the shipped log's busiest descriptor, and both count what
/// the lesson says.
#[test]
fn own_log_bash_reads_its_pipe_a_byte_at_a_time_and_a_buffer_makes_two_source_reads() {
    use buflab::engine::clock::InstantClock;
    use buflab::model::trace::ReplayOptions;
    let lesson = buflab::catalog::lessons::lesson(LessonId::OwnLog);
    let name = lesson.log.expect("the lesson opens a shipped log");
    let path = format!("{}/../public/traces/{name}", env!("CARGO_MANIFEST_DIR"));
    let trace = buflab::api::read_trace(std::fs::File::open(&path).unwrap(), 1 << 12, |_| true).unwrap();
    // bash's standard input, the pipe: the descriptor with the most read calls.
    let d = trace.report.descriptors.iter().max_by_key(|d| d.calls).unwrap();
    assert_eq!((d.fd, d.calls, d.bytes), (0, 1057, 1056));
    let replay = buflab::api::trace_replay(&trace, d.id, &ReplayOptions::default(), &InstantClock::default()).unwrap();
    let fit = replay.fit.expect("the log's pattern fits a chunk model");
    assert_eq!(lesson.link, format!("#{}&lesson=own-log", fit.link), "the lesson's link is the log's nearest experiment");
    let r = read_report(&lesson_params(LessonId::OwnLog));
    let (raw, std) = (reader(&r, ReaderKind::Unbuffered), reader(&r, ReaderKind::Std));
    assert_eq!((raw.source_reads, std.source_reads), (d.calls, 2));
    let replayed = |kind: ReaderKind, cap: Option<u64>| replay.runs.iter().find(|x| x.reader == kind && x.cap == cap).unwrap().source_reads;
    assert_eq!((replayed(ReaderKind::Unbuffered, None), replayed(ReaderKind::Std, Some(8192))), (raw.source_reads, std.source_reads));
    // The figures its points and claim quote.
    let calls = format!("{} read calls of 1 byte", grouped(d.calls));
    assert!(point(LessonId::OwnLog, 0).contains(&calls) && point(LessonId::OwnLog, 0).contains(&format!("for {} bytes", grouped(d.bytes))));
    assert!(point(LessonId::OwnLog, 1).contains(&format!("make {} source reads", std.source_reads)));
    assert!(point(LessonId::OwnLog, 0).contains(&format!("makes the same {} source reads", grouped(raw.source_reads))));
    assert!(lesson.claim.contains(&format!("({} for {} bytes)", grouped(d.calls), grouped(d.bytes))) && lesson.claim.contains("make 2 source reads"));
}

/// The room's four choices of every lesson (`catalog::choices`): the real one
/// is the answer read off the link's real result, as the page reads it,
/// exactly once among four distinct numbers; every wrong one is a real
/// run's count, and says which run.
#[test]
fn every_lesson_offers_its_real_answer_once_among_four_real_runs() {
    use buflab::catalog::choices::lesson_choices;
    for lesson in &LESSONS {
        let c = lesson_choices(lesson.id, &InstantClock::default()).unwrap();
        let answer = answer_of(lesson);
        let real: Vec<u64> = c.choices.iter().filter(|c| c.real).map(|c| c.value).collect();
        assert_eq!(real, [answer], "{}: {:?}", lesson.id.id(), c.choices);
        assert_eq!(c.choices.iter().filter(|c| c.value == answer).count(), 1, "{}", lesson.id.id());
        let mut values: Vec<u64> = c.choices.iter().map(|c| c.value).collect();
        values.sort();
        values.dedup();
        assert_eq!(values.len(), 4, "{}: {:?}", lesson.id.id(), c.choices);
        for ch in &c.choices {
            assert!(!ch.what.is_empty() && !ch.what.contains("guess"), "{}: {ch:?}", lesson.id.id());
        }
    }
}
