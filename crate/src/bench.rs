//! The benchmark suite: the same scenarios timed natively (`buflab --bench`)
//! and in WebAssembly in Chromium (`bench_suite` in the wasm glue), with the
//! same sampling and statistics, so `npm run bench` can print their ratio.
//!
//! Each scenario is a link with one reader, so it can also be opened on the
//! page or run with the CLI.

use std::io::{BufReader, Read};

use serde::{Deserialize, Serialize};

use crate::engine::measure::{self, Clock, Sampling};
use crate::engine::source::{counting_bytes, Probe, Source};
use crate::link::decode as decode_link;
use crate::model::{ChunkModel, Lab, Stats};

/// One scenario of the suite.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Scenario {
    pub name: &'static str,
    /// A link with exactly one reader (read lab) or one flavour (write lab).
    pub link: &'static str,
    /// Dominated by memcpy (large reads): WASM should be close to native here.
    pub copy_bound: bool,
}

pub const SUITE: &[Scenario] = &[
    Scenario {
        name: "1-byte reads, unbuffered",
        link: "len=1M&chunk=file&rs=1&rd=unbuffered",
        copy_bound: false,
    },
    Scenario { name: "1-byte reads, std 8K", link: "len=4M&chunk=file&cap=8K&rs=1&rd=std", copy_bound: false },
    Scenario { name: "64-byte reads, std 8K", link: "len=16M&chunk=file&cap=8K&rs=64&rd=std", copy_bound: false },
    Scenario { name: "4 KiB reads, std 8K", link: "len=64M&chunk=file&cap=8K&rs=4K&rd=std", copy_bound: true },
    Scenario {
        name: "64 KiB reads (bypass), std 8K",
        link: "len=64M&chunk=file&cap=8K&rs=64K&rd=std",
        copy_bound: true,
    },
    Scenario {
        name: "1-byte reads, std 8K, worst network",
        link: "len=4M&chunk=worst&cap=8K&rs=1&rd=std",
        copy_bound: false,
    },
    // A byte scan (memchr over each filled buffer): the loop a `simd128` build speeds up.
    Scenario { name: "NUL scan, std 64K", link: "len=16M&chunk=file&cap=64K&rd=std&wl=scan&nul=16M", copy_bound: false },
    Scenario { name: "lines, std 8K", link: "len=4M&chunk=file&cap=8K&rd=std&wl=lines", copy_bound: false },
    Scenario { name: "frames, std 8K", link: "len=4M&chunk=file&cap=8K&rd=std&wl=frames", copy_bound: false },
    Scenario { name: "frames, chained 8K", link: "len=4M&chunk=file&cap=8K&rd=chained&wl=frames", copy_bound: false },
    // The async readers: a future polled to completion per application read.
    Scenario { name: "1-byte reads, tokio 8K", link: "len=4M&chunk=file&cap=8K&rs=1&rd=tokio", copy_bound: false },
    Scenario { name: "1-byte reads, futures 8K", link: "len=4M&chunk=file&cap=8K&rs=1&rd=futures", copy_bound: false },
    Scenario { name: "lines, tokio 8K", link: "len=4M&chunk=file&cap=8K&rd=tokio&wl=lines", copy_bound: false },
    Scenario { name: "lines, futures 8K", link: "len=4M&chunk=file&cap=8K&rd=futures&wl=lines", copy_bound: false },
    Scenario { name: "Cursor<Vec<u8>>, 2048 records", link: "lab=write&wf=cursor_vec", copy_bound: false },
    Scenario { name: "Cursor<&mut Vec<u8>>, 2048 records", link: "lab=write&wf=cursor_mut_vec", copy_bound: false },
    Scenario { name: "WriterVec, 2048 records", link: "lab=write&wf=writer_vec", copy_bound: false },
    Scenario { name: "BytesMut, 2048 records", link: "lab=write&wf=bytes_mut", copy_bound: false },
    Scenario { name: "Cursor<&mut [u8]>, 2048 records", link: "lab=write&wf=cursor_mut_slice", copy_bound: false },
    Scenario { name: "Cursor<Box<[u8]>>, 2048 records", link: "lab=write&wf=cursor_box", copy_bound: false },
    Scenario { name: "&mut [u8], 2048 records", link: "lab=write&wf=mut_slice", copy_bound: false },
];

/// One scenario's timing.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchResult {
    pub name: String,
    pub link: String,
    pub bytes: u64,
    pub cpu_ns: Stats,
    pub ns_per_byte: f64,
    pub copy_bound: bool,
}

/// The cost of BufLab's own instrumentation: the same std `BufReader` with
/// 1-byte reads over the counting [`Source`] and over a plain `&[u8]`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Overhead {
    pub instrumented_ns_per_byte: f64,
    pub plain_ns_per_byte: f64,
    /// Median over alternating rounds of `instrumented / plain`, minus 1.
    pub overhead: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuiteReport {
    pub results: Vec<BenchResult>,
    pub overhead: Overhead,
    pub resolution_ns: f64,
    pub isolated: bool,
}

/// Runs every scenario with full sampling.
pub fn run_suite(clock: &dyn Clock) -> SuiteReport {
    let results = SUITE
        .iter()
        .map(|s| {
            let params = decode_link(s.link).params;
            let (link, bytes, cpu_ns) = match params.lab {
                Lab::Read => {
                    let report = crate::run(&params, clock, Sampling::FULL).expect("suite links are valid");
                    let run = &report.runs[0];
                    assert_eq!(run.digest, report.source_digest, "{}: wrong bytes", s.name);
                    (report.link, run.bytes, run.cpu_ns)
                }
                Lab::Write => {
                    let report = crate::api::run_write(&params, clock, Sampling::FULL).expect("suite links are valid");
                    let run = &report.flavours[0];
                    assert_eq!(run.digest.as_ref(), Some(&report.reference_digest), "{}: wrong bytes", s.name);
                    (report.link, run.bytes, run.cpu_ns.expect("a finished flavour is timed"))
                }
            };
            BenchResult {
                name: s.name.to_string(),
                link,
                bytes,
                cpu_ns,
                ns_per_byte: cpu_ns.median / bytes as f64,
                copy_bound: s.copy_bound,
            }
        })
        .collect();
    let resolution_ns = measure::resolution_ns(clock);
    SuiteReport { results, overhead: overhead(clock, resolution_ns), resolution_ns, isolated: clock.isolated() }
}

fn overhead(clock: &dyn Clock, resolution_ns: f64) -> Overhead {
    const LEN: usize = 4 << 20;
    const ROUNDS: usize = 7;
    let data = counting_bytes(LEN);
    let mut total = 0u64;
    // Alternating rounds, so drift in the machine's speed (frequency, other
    // load) hits both sides alike; each round is a full sample set.
    let (mut inst, mut plain, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let i = measure::sample(clock, resolution_ns, Sampling::FULL, || {
            let probe = Probe::default();
            total ^= drain_bytewise(BufReader::with_capacity(8192, Source::new(&data, ChunkModel::File, 0, &probe)));
        });
        let p = measure::sample(clock, resolution_ns, Sampling::FULL, || {
            total ^= drain_bytewise(BufReader::with_capacity(8192, PlainSlice(&data[..])));
        });
        inst.push(i.median / LEN as f64);
        plain.push(p.median / LEN as f64);
        ratios.push(i.median / p.median);
    }
    std::hint::black_box(total);
    let median = |v: &mut Vec<f64>| measure::stats(v, 1).median;
    Overhead {
        instrumented_ns_per_byte: median(&mut inst),
        plain_ns_per_byte: median(&mut plain),
        overhead: median(&mut ratios) - 1.0,
    }
}

/// Reads one byte at a time to the end; returns a sum so nothing is elided.
/// Never inlined, so both sides get the same standalone loop: inlined into
/// the two sampling closures, the loops compiled differently enough to show
/// an 80 % "overhead" that a standalone binary did not reproduce.
#[inline(never)]
pub fn drain_bytewise<R: Read>(mut reader: R) -> u64 {
    let mut byte = [0u8; 1];
    let mut sum = 0u64;
    while let Ok(1) = reader.read(&mut byte) {
        sum = sum.wrapping_add(u64::from(byte[0]));
    }
    sum
}

/// A slice reader that, like [`Source`], is never inlined into its caller.
pub struct PlainSlice<'a>(pub &'a [u8]);

impl Read for PlainSlice<'_> {
    #[inline(never)]
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_links_are_clean_and_have_one_reader() {
        for s in SUITE {
            let d = decode_link(s.link);
            assert!(d.notices.is_empty(), "{}: {:?}", s.name, d.notices);
            match d.params.lab {
                Lab::Read => assert_eq!(d.params.readers.len(), 1, "{}", s.name),
                Lab::Write => assert_eq!(d.params.write.flavours.len(), 1, "{}", s.name),
            }
        }
    }

    #[test]
    fn plain_slice_reads_like_a_slice() {
        let data = counting_bytes(10_000);
        assert_eq!(drain_bytewise(PlainSlice(&data)), data.iter().map(|&b| u64::from(b)).sum::<u64>());
    }
}
