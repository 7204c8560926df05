//! The buffer timeline against the measured run: over a stream short enough
//! to be traced to its end, the trace's operations must add up to the run's
//! own counts. This pins that the traced pass (wrapped source and reader)
//! does what the measured pass does, and that the wrappers left the measured
//! figures alone.

use buflab::engine::content;
use buflab::engine::measure::{InstantClock, Sampling};
use buflab::engine::timeline::{record_with, TRACE_OPS};
use buflab::link::decode as decode_link;
use buflab::model::ReaderKind;

#[test]
fn a_complete_trace_adds_up_to_the_measured_run() {
    let workloads = ["fixed", "exact", "bytes", "to_end", "lines", "frames", "scan"];
    for wl in workloads {
        for (chunk, cap, rs) in
            [("worst", "16", "3"), ("64-512", "8K", "1"), ("1-128", "32", "64"), ("file", "10", "10")]
        {
            let link = format!(
                "#v=1&len=1K&chunk={chunk}&seed=5&cap={cap}&rs={rs}&rd=unbuffered,std,chained,tokio,futures&wl={wl}&line=5-20&frame=1-30&nul=70&pend=30"
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
