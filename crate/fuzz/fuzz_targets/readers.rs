//! Every reader, driven by an arbitrary chunk script (0 = interrupted read),
//! capacity and read size, delivers exactly the bytes of the plain slice and
//! never panics.
#![no_main]

use arbitrary::Arbitrary;
use buflab::engine::readers as read;
use buflab::engine::source::{counting_bytes, Chunker, Probe, Source};
use buflab::engine::workload::{digest_of, DigestSink};
use buflab::model::{Id, ReaderKind, Workload};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case {
    len: u16,
    script: Vec<u16>,
    cap: u16,
    rs: u16,
}

fuzz_target!(|case: Case| {
    let data = counting_bytes(usize::from(case.len));
    let want = digest_of(&data);
    let cap = usize::from(case.cap).max(1);
    let rs = usize::from(case.rs).max(1);
    let script: Vec<usize> = case.script.iter().map(|&n| usize::from(n % 1024)).collect();
    for info in buflab::catalog::schema().readers {
        let probe = Probe::default();
        let source = Source::with_chunker(&data, Chunker::scripted(script.clone()), &probe);
        let mut app = vec![0u8; rs];
        let mut sink = DigestSink::default();
        let counts = read::drive(info.id, source, cap, Workload::Fixed, &mut app, &mut sink).unwrap();
        assert_eq!(counts.bytes, data.len() as u64);
        assert_eq!(sink.hex(), want, "{:?}", info.id);
    }
});
