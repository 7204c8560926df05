//! The benchmark suite: the same scenarios timed natively (`buflab --bench`)
//! and in WebAssembly in Chromium (`bench_suite` in the wasm glue), with the
//! same sampling and statistics, so `npm run bench` can print their ratio.
//!
//! Each scenario is a link with one reader, so it can also be opened on the
//! page or run with the CLI. The cross-check ([`CROSSCHECK`]) times BufLab's
//! timed pass beside a plain program doing the same ([`plain`]): natively
//! with Criterion (`crate/benches/crosscheck.rs`), and here, in both
//! environments, with alternating rounds.

pub mod plain;
pub mod trace_log;

use std::hint::black_box;

use serde::{Deserialize, Serialize};

use crate::engine::clock::{self, Clock, Sampling};
use crate::engine::source::{counting_bytes, AtMost};
use crate::engine::workload::CountSink;
use crate::engine::write::{self, cursors};
use crate::engine::{content, timed};
use crate::link::decode as decode_link;
use crate::model::{ChunkModel, Lab, Params, Record, Stats, WriteMode};

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

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuiteReport {
    pub results: Vec<BenchResult>,
    /// BufLab's timed pass against plain programs, in this environment.
    pub crosscheck: Vec<CrossResult>,
    pub resolution_ns: f64,
    pub isolated: bool,
}

/// Runs every scenario with full sampling, then the cross-check.
pub fn run_suite(clock: &dyn Clock) -> SuiteReport {
    let results = SUITE.iter().map(|s| time_scenario(s, clock, Sampling::FULL)).collect();
    let resolution_ns = clock::resolution_ns(clock);
    let crosscheck = CROSSCHECK.iter().map(|c| c.run(clock, resolution_ns)).collect();
    SuiteReport { results, crosscheck, resolution_ns, isolated: clock.isolated() }
}

/// One scenario as the page measures its link (a read lab's `run`, a write
/// lab's `run_write`), checked against the source's digest.
fn time_scenario(s: &Scenario, clock: &dyn Clock, sampling: Sampling) -> BenchResult {
    let params = decode_link(s.link).params;
    let (link, bytes, cpu_ns) = match params.lab {
        Lab::Read => {
            let report = crate::run(&params, clock, sampling).expect("suite links are valid");
            let run = &report.runs[0];
            assert_eq!(run.digest, report.source_digest, "{}: wrong bytes", s.name);
            (report.link, run.bytes, run.cpu_ns)
        }
        Lab::Write => {
            let report = crate::api::run_write(&params, clock, sampling).expect("suite links are valid");
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
}

/// The order check (issue 35): the full measurement of the suite scenario
/// called `name`, either alone (the first thing this process or worker
/// times) or after every other scenario of the suite has run once in it
/// (`after_others`, a quick run each: their data, buffers and code paths),
/// as a page that has run other experiments first would time it. Alone
/// means a fresh process or worker per sample, so `npm run bench` starts one
/// for each (`buflab --bench-one`, `bench_one` in the wasm glue). `None` for
/// a name the suite does not have.
pub fn bench_one(name: &str, after_others: bool, clock: &dyn Clock) -> Option<BenchResult> {
    let scenario = SUITE.iter().find(|s| s.name == name)?;
    if after_others {
        for other in SUITE.iter().filter(|s| s.name != name) {
            black_box(time_scenario(other, clock, Sampling::QUICK));
        }
    }
    Some(time_scenario(scenario, clock, Sampling::FULL))
}

// ---------------------------------------------------------------------------
// The cross-check: BufLab's timed pass against plain programs

/// One cross-checked scenario: a link with one reader or cursor, which of
/// the link's experiments is timed, and the plain program that does the same.
pub struct Cross {
    pub name: &'static str,
    pub link: &'static str,
    pub what: What,
    /// The plain program for the setup's settings; returns its sum.
    pub plain: fn(&Setup) -> u64,
}

/// Which experiment of a link a cross-check times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    /// The read lab's reader over the link's stream.
    Read,
    /// The write lab's cursor serializing the records.
    Cursor,
    /// The write lab's `BufWriter` over the sink.
    BufWriter,
}

/// Every scenario the cross-check compares; each side must return the same
/// sum (checked before timing).
pub const CROSSCHECK: &[Cross] = &[
    Cross {
        name: "1-byte reads, std 8K",
        link: "len=1M&chunk=poor&cap=8K&rs=1&rd=std",
        what: What::Read,
        plain: |s| plain::reads_buffered(s.data(), s.cap(), s.rs(), s.min(), s.max()),
    },
    Cross {
        name: "1-byte reads, unbuffered",
        link: "len=1M&chunk=poor&rs=1&rd=unbuffered",
        what: What::Read,
        plain: |s| plain::reads_unbuffered(s.data(), s.rs(), s.min(), s.max()),
    },
    Cross {
        name: "64-byte reads, std 8K",
        link: "len=4M&chunk=poor&cap=8K&rs=64&rd=std",
        what: What::Read,
        plain: |s| plain::reads_buffered(s.data(), s.cap(), s.rs(), s.min(), s.max()),
    },
    Cross {
        name: "lines, std 8K",
        link: "len=4M&chunk=poor&cap=8K&rd=std&wl=lines",
        what: What::Read,
        plain: |s| plain::lines_buffered(s.data(), s.cap(), s.min(), s.max()),
    },
    Cross {
        name: "frames, std 8K",
        link: "len=4M&chunk=poor&cap=8K&rd=std&wl=frames",
        what: What::Read,
        plain: |s| plain::frames_buffered(s.data(), s.cap(), s.min(), s.max()),
    },
    Cross {
        name: "frames, chained 8K",
        link: "len=4M&chunk=poor&cap=8K&rd=chained&wl=frames",
        what: What::Read,
        plain: |s| plain::frames_chained(s.data(), s.cap(), s.min(), s.max()),
    },
    Cross {
        name: "NUL scan, std 64K",
        link: "len=4M&chunk=poor&cap=64K&rd=std&wl=scan&nul=4M",
        what: What::Read,
        plain: |s| plain::nul_scan(s.data(), s.cap(), s.min(), s.max()),
    },
    Cross { name: "Cursor<Vec<u8>>", link: "lab=write&wf=cursor_vec", what: What::Cursor, plain: |s| s.cursor(0) },
    Cross { name: "Cursor<&mut Vec<u8>>", link: "lab=write&wf=cursor_mut_vec", what: What::Cursor, plain: |s| s.cursor(1) },
    Cross { name: "WriterVec", link: "lab=write&wf=writer_vec", what: What::Cursor, plain: |s| s.cursor(2) },
    Cross { name: "BytesMut", link: "lab=write&wf=bytes_mut", what: What::Cursor, plain: |s| s.cursor(3) },
    Cross { name: "Cursor<&mut [u8]>", link: "lab=write&wf=cursor_mut_slice", what: What::Cursor, plain: |s| s.cursor(4) },
    Cross { name: "Cursor<Box<[u8]>>", link: "lab=write&wf=cursor_box", what: What::Cursor, plain: |s| s.cursor(5) },
    Cross { name: "&mut [u8]", link: "lab=write&wf=mut_slice", what: What::Cursor, plain: |s| s.cursor(6) },
    Cross {
        name: "BufWriter 8K, 16-byte writes",
        link: "lab=write&wf=writer_vec&wlen=1M&ws=16&wcap=8K&sink=file",
        what: What::BufWriter,
        plain: |s| plain::buffered_writes(s.data(), s.ws(), s.wcap(), s.sink_chunk()),
    },
];

/// A scenario ready to run: its params, the stream or sink data, the records.
pub struct Setup {
    pub params: Params,
    pub what: What,
    data: Vec<u8>,
    records: Vec<Record>,
    plain_records: Vec<plain::Record>,
}

impl Setup {
    pub fn new(link: &str, what: What) -> Setup {
        let params = decode_link(link).params;
        let (data, records, plain_records) = match params.lab {
            Lab::Read => (content::generate(&params), Vec::new(), Vec::new()),
            Lab::Write => {
                let w = &params.write;
                (counting_bytes(w.len as usize), cursors::records(w.records as usize), plain::records(w.records))
            }
        };
        Setup { params, what, data, records, plain_records }
    }

    /// One run of BufLab's timed pass, as the page times it; returns its sum
    /// (the cursors: bytes written).
    pub fn buflab(&self) -> u64 {
        let p = &self.params;
        match self.what {
            What::Read => {
                let mut app_buf = vec![0u8; p.rs as usize];
                let mut sinks = [CountSink::default()];
                timed::run(p.readers[0], p, &self.data, &mut app_buf, &mut sinks).expect("in memory");
                sinks[0].0
            }
            What::BufWriter => write::timed_sink(p, WriteMode::BufWriter, &self.data).expect("in memory"),
            What::Cursor => {
                let sizes = cursors::Sizes { init_cap: p.write.init_cap as usize, buf: p.write.buf as usize };
                cursors::serialize(p.write.flavours[0], &self.records, sizes, &mut |b| {
                    black_box(b);
                })
                .expect("the default buffers fit")
            }
        }
    }

    // The settings, each behind `black_box`: the plain programs get them at
    // run time, as BufLab gets them from the link.
    fn data(&self) -> &[u8] {
        black_box(&self.data)
    }
    fn cap(&self) -> usize {
        black_box(self.params.cap as usize)
    }
    fn rs(&self) -> usize {
        black_box(self.params.rs as usize)
    }
    fn min(&self) -> usize {
        black_box(self.range().0)
    }
    fn max(&self) -> usize {
        black_box(self.range().1)
    }
    fn range(&self) -> (usize, usize) {
        match self.params.chunk {
            ChunkModel::Uniform { min, max } => (min, max),
            other => panic!("the cross-check's read links use uniform chunks, not {other:?}"),
        }
    }
    fn ws(&self) -> usize {
        black_box(self.params.write.ws as usize)
    }
    fn wcap(&self) -> usize {
        black_box(self.params.write.cap as usize)
    }
    fn sink_chunk(&self) -> usize {
        black_box(AtMost::of(self.params.write.sink).expect("the cross-check's sink has one limit").0)
    }
    fn cursor(&self, i: usize) -> u64 {
        let (name, f) = plain::CURSORS[i];
        debug_assert_eq!(name, crate::model::Id::id(self.params.write.flavours[0]));
        f(black_box(&self.plain_records), black_box(self.params.write.init_cap as usize))
    }
}

/// One scenario's two sides, timed in alternating rounds in one process.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CrossResult {
    pub name: String,
    pub link: String,
    pub buflab: Stats,
    pub plain: Stats,
    /// Median over the rounds of buflab ÷ plain (each round's medians).
    pub ratio: f64,
    /// The lowest and highest round ratio.
    pub ratio_min: f64,
    pub ratio_max: f64,
}

/// Rounds of alternating samples per side: drift in the machine's speed hits
/// both sides alike.
const ROUNDS: usize = 5;

/// How each side is sampled per round.
const CROSS_SAMPLING: Sampling = Sampling { warmup_ns: 10e6, samples: 5, budget_ns: 100e6, min_samples: 3, ..Sampling::FULL };

impl Cross {
    pub fn run(&self, clock: &dyn Clock, resolution_ns: f64) -> CrossResult {
        let setup = Setup::new(self.link, self.what);
        assert_eq!(setup.buflab(), (self.plain)(&setup), "{}: the two sides disagree", self.name);
        let (mut ours, mut theirs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let mut sink = 0u64;
        for _ in 0..ROUNDS {
            let a = clock::sample(clock, resolution_ns, CROSS_SAMPLING, || sink ^= setup.buflab());
            let b = clock::sample(clock, resolution_ns, CROSS_SAMPLING, || sink ^= (self.plain)(&setup));
            ratios.push(a.median / b.median);
            ours.push(a.median);
            theirs.push(b.median);
        }
        black_box(sink);
        let spread = clock::stats(&mut ratios.clone(), 1);
        CrossResult {
            name: self.name.to_string(),
            link: crate::link::encode(&setup.params),
            buflab: clock::stats(&mut ours, 1),
            plain: clock::stats(&mut theirs, 1),
            ratio: spread.median,
            ratio_min: spread.min,
            ratio_max: spread.max,
        }
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
    fn bench_one_times_the_named_scenario_and_refuses_other_names() {
        let clock = clock::InstantClock::default();
        assert!(bench_one("no such scenario", false, &clock).is_none());
        let first = &SUITE[0];
        let result = bench_one(first.name, false, &clock).expect("a suite scenario");
        assert_eq!(result.name, first.name);
        assert_eq!(result.bytes, 1 << 20, "{}", first.link);
        assert!(result.cpu_ns.median > 0.0);
    }

    #[test]
    fn both_sides_of_every_crosscheck_agree() {
        for c in CROSSCHECK {
            let d = decode_link(c.link);
            assert!(d.notices.is_empty(), "{}: {:?}", c.name, d.notices);
            let setup = Setup::new(c.link, c.what);
            assert_eq!(setup.buflab(), (c.plain)(&setup), "{}", c.name);
        }
    }
}
