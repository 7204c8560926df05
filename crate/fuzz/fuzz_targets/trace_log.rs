//! Any bytes read as an strace log, cut into chunks anywhere: no panic, no
//! hang, the same report whatever the chunks, every figure within the
//! reader's bounds, and every descriptor's replay delivering the log's
//! bytes (unbuffered: in the log's calls).
#![no_main]

use arbitrary::Arbitrary;
use buflab::engine::measure::InstantClock;
use buflab::engine::trace::{read_text, Parser};
use buflab::model::{ReaderKind, ReplayOptions, TRACE};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case<'a> {
    cuts: Vec<u16>,
    cap: u16,
    log: &'a [u8],
}

fuzz_target!(|case: Case| {
    let whole = read_text(case.log);
    let mut parser = Parser::new();
    let mut cuts: Vec<usize> = case.cuts.iter().map(|&c| usize::from(c) % (case.log.len() + 1)).collect();
    cuts.sort_unstable();
    let mut at = 0;
    for cut in cuts {
        parser.feed(&case.log[at..cut]);
        at = cut;
    }
    parser.feed(&case.log[at..]);
    let pieces = parser.finish(true);
    assert_eq!(pieces.report, whole.report);
    let r = &whole.report;
    assert!(r.descriptors.len() as u64 <= TRACE.descriptors);
    assert!(r.skipped.examples.len() as u64 <= TRACE.quoted_lines);
    let options = ReplayOptions {
        caps: vec![u64::from(case.cap).max(1)],
        readers: vec![ReaderKind::Std, ReaderKind::Chained],
        sweep: false,
        fit: false,
    };
    for d in &r.descriptors {
        assert!(d.over_time.len() as u64 <= TRACE.slices);
        let replay = whole.replay(d.id, &options, &InstantClock::default()).unwrap();
        assert_eq!(replay.runs[0].source_reads, d.sequence.calls);
        for run in &replay.runs {
            assert_eq!(run.bytes, d.sequence.bytes, "{run:?}");
        }
    }
});
