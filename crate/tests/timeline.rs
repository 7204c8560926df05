//! The buffer timeline against the measured run: over a stream short enough
//! to be traced to its end, the trace's operations must add up to the run's
//! own counts. This pins that the traced pass (wrapped source and reader)
//! does what the measured pass does, and that the wrappers left the measured
//! figures alone.

use buflab::engine::content;
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::engine::timeline::{record_with, TRACE_OPS};
use buflab::link::decode as decode_link;
use buflab::model::ReaderKind;

mod common;
use common::every_reader;

#[test]
fn a_complete_trace_adds_up_to_the_measured_run() {
    let workloads = ["fixed", "exact", "bytes", "to_end", "lines", "frames", "scan"];
    for wl in workloads {
        for (chunk, cap, rs) in
            [("worst", "16", "3"), ("64-512", "8K", "1"), ("1-128", "32", "64"), ("file", "10", "10")]
        {
            let link = format!(
                "#v=1&len=1K&chunk={chunk}&seed=5&cap={cap}&rs={rs}&{}&wl={wl}&line=5-20&frame=1-30&nul=70&pend=30",
                every_reader()
            );
            let d = decode_link(&link);
            assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
            let report = buflab::run(&d.params, &InstantClock::default(), Sampling::QUICK).unwrap();
            assert!(report.digests_agree());
            let data = content::generate(&d.params);
            for run in &report.runs {
                // The whole run, traced without the page's limit.
                let t = record_with(&d.params, run.reader, &data, usize::MAX, &mut |_| {});
                assert!(!t.truncated && t.error.is_none());
                let sum = |f: fn(&buflab::model::Op) -> u64| t.ops.iter().map(f).sum::<u64>();
                let what = format!("{link} {:?}", run.reader);
                assert_eq!(sum(|o| o.source_reads), run.source_reads, "{what}");
                assert_eq!(sum(|o| o.returned), run.bytes, "{what}");
                assert_eq!(sum(|o| o.copied), run.bytes_copied, "{what}");
                assert_eq!(sum(|o| o.calls), run.app_reads, "{what}");
                assert_eq!(t.capacity, if run.reader == ReaderKind::Unbuffered { 0 } else { d.params.cap }, "{what}");
            }
        }
    }
}

#[test]
fn the_report_json_carries_a_bounded_timeline_per_reader() {
    let d = decode_link("#v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std,chained&wl=fixed");
    let report = buflab::run(&d.params, &InstantClock::default(), Sampling::QUICK).unwrap();
    let json = serde_json::to_value(&report).unwrap();
    for run in json["runs"].as_array().unwrap() {
        let ops = run["timeline"]["ops"].as_array().expect("timeline.ops");
        assert_eq!(ops.len(), TRACE_OPS);
        assert!(ops[0]["caption"].as_str().unwrap().starts_with("app asked 1 byte"));
    }
    // Small enough for every report: a few hundred bytes per operation.
    assert!(serde_json::to_string(&json).unwrap().len() < 3 * TRACE_OPS * 600, "report grew too large");
}

/// The same link gives the same timeline whatever the heap looked like
/// before: chained blocks are named by the reader's takes, not by where the
/// allocator happened to put them (without the pool a block freed and
/// allocated again within one operation may or may not get its old address).
#[test]
fn a_timeline_does_not_depend_on_the_heap_it_ran_on() {
    let record_in = |link: &'static str, churn: usize| {
        std::thread::spawn(move || {
            // Holes of about a block's size, in a pattern that depends on `churn`.
            let mut held: Vec<Box<[u8]>> = (0..64 * churn).map(|i| vec![0u8; 5 + i % (churn + 3)].into_boxed_slice()).collect();
            let mut i = 0;
            held.retain(|_| {
                i += 1;
                i % (churn + 1) != 0
            });
            let d = decode_link(link);
            let data = content::generate(&d.params);
            let t = record_with(&d.params, ReaderKind::Chained, &data, usize::MAX, &mut |_| {});
            drop(held);
            serde_json::to_string(&t).unwrap()
        })
        .join()
        .unwrap()
    };
    for link in [
        "#v=1&len=1K&chunk=1&seed=5&cap=7&rs=1&rd=chained&wl=lines&pool=off&line=0-40",
        "#v=1&len=1K&chunk=1-9&seed=5&cap=7&rs=3&rd=chained&wl=frames&pool=off&frame=1-30",
        "#v=1&len=1K&chunk=1-9&seed=5&cap=8&rs=5&rd=chained&wl=fixed&pool=off&pend=30",
        "#v=1&len=1K&chunk=1&seed=5&cap=7&rs=1&rd=chained&wl=lines&pool=on&line=0-40",
    ] {
        let fresh = record_in(link, 0);
        for churn in 1..6 {
            assert_eq!(record_in(link, churn), fresh, "{link}, heap churn {churn}");
        }
    }
}

/// A source living in time: the trace's source reads are the run's (the
/// traced pass keeps the same clock), and each step says what waits in the
/// kernel: nothing while the reader keeps up, pieces piling up behind a
/// faster writer.
#[test]
fn over_a_source_living_in_time_the_trace_shows_what_waits_in_the_kernel() {
    for (rate, behind) in [("1M", false), ("64M", true)] {
        let link = format!("#v=1&len=256K&chunk=poor&seed=42&cap=8K&rs=64&rd=unbuffered,std&wl=fixed&rate={rate}&work=6400");
        let d = decode_link(&link);
        assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
        let report = buflab::run(&d.params, &InstantClock::default(), Sampling::QUICK).unwrap();
        let data = content::generate(&d.params);
        for run in &report.runs {
            let t = record_with(&d.params, run.reader, &data, usize::MAX, &mut |_| {});
            assert_eq!(t.ops.iter().map(|o| o.source_reads).sum::<u64>(), run.source_reads, "{link} {:?}", run.reader);
            let kernel: Vec<_> = t.ops.iter().map(|o| o.kernel.expect("every step says what the kernel holds")).collect();
            let arrival = run.arrival.unwrap();
            assert_eq!(kernel.iter().map(|k| k.waits).sum::<u64>(), arrival.waits, "{link} {:?}", run.reader);
            assert_eq!(kernel.iter().map(|k| k.joined).sum::<u64>(), arrival.joined, "{link} {:?}", run.reader);
            assert!(kernel.windows(2).all(|w| w[0].clock_ns <= w[1].clock_ns), "the reader's clock runs forward");
            let most = kernel.iter().map(|k| k.pieces).max().unwrap();
            if behind {
                assert!(most > 10, "{link} {:?}: pieces pile up in the kernel ({most})", run.reader);
                assert!(t.ops.iter().any(|o| o.caption.contains("pieces (") && o.caption.contains("wait in the kernel")), "{link}");
            } else {
                assert!(most <= 1, "{link} {:?}: the reader keeps up ({most})", run.reader);
                assert!(t.ops.iter().any(|o| o.caption.contains("waited for the next piece")), "{link}");
            }
        }
    }
}
