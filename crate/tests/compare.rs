#![cfg(not(target_arch = "wasm32"))]
//! Comparisons as a person runs them: an A/A comparison (B the same
//! experiment as A) reads "same within noise" however loaded the machine,
//! a real difference is called, counts are exact on both sides, and two
//! exported results pair with both machines named and every malformed file
//! refused with its own message.
//!
//! The A/A test runs on whatever else the machine is doing (a CI box's two
//! cores, other builds): alternating rounds put load on both sides alike,
//! and the verdict needs the interval of the median per-round ratio beyond
//! the margin, which symmetric noise does not give.

use std::sync::Mutex;
use std::time::Instant;

use buflab::api;
use buflab::engine::compare::{self, ResultErrorKind, MARGIN, ROUNDS};
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::link::decode;
use buflab::model::{Comparison, MachineKind, MetricId, Outcome, Params, Timing};

/// A link whose readers take a few ms per run in a test build: the
/// unbuffered reader's 1-byte reads and std's, over a poor network.
const LINK: &str = "v=1&len=16K&chunk=poor&cap=8K&rs=1&rd=unbuffered,std";

/// The timing tests of this file take turns: each would otherwise be the
/// other's load, in one process, on the same cores.
static TIMING: Mutex<()> = Mutex::new(());

fn params(link: &str) -> Params {
    let d = decode(link);
    assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
    d.params
}

/// Every time row of a comparison (each reader's CPU time and time per run,
/// and the copy floor), with its outcome.
fn time_rows(c: &Comparison) -> Vec<(String, Outcome, (f64, f64))> {
    let mut rows = Vec::new();
    for pair in &c.readers {
        for m in pair.metrics.iter().filter(|m| matches!(m.metric, MetricId::CpuMedianNs | MetricId::ModelledTotalNs)) {
            let s = m.ratio_spread.expect("a time row has its interval");
            rows.push((format!("{:?} {:?}", pair.a.unwrap(), m.metric), m.outcome, (s.low, s.high)));
        }
    }
    let copy = c.copy.as_ref().expect("the copy floors are compared");
    let s = copy.ratio_spread.unwrap();
    rows.push(("copy".into(), copy.outcome, (s.low, s.high)));
    rows
}

/// B the same experiment as A, 20 times over: "same within noise" for every
/// time in at least 19, and every count a tie in all.
#[test]
fn an_a_a_comparison_reads_same_within_noise_in_19_of_20_runs() {
    let _turn = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let a = params(LINK);
    let clock = InstantClock::default();
    let started = Instant::now();
    let mut same = 0;
    let mut seen = Vec::new();
    for _ in 0..20 {
        let c = api::compare(&a, &a, &clock, Sampling::FULL).unwrap();
        assert!(c.same_experiment && c.changed.is_empty(), "{}", c.link);
        assert!(c.link.ends_with("&b.v=1"), "{}", c.link);
        assert!(matches!(c.timing, Timing::Alternating { rounds: ROUNDS, .. }), "{:?}", c.timing);
        for pair in &c.readers {
            for m in pair.metrics.iter().filter(|m| m.ratio_spread.is_none()) {
                assert_eq!(m.outcome, Outcome::Tie, "{:?} {:?}: counts are exact", pair.a, m.metric);
            }
        }
        let rows = time_rows(&c);
        if rows.iter().all(|(_, o, _)| *o == Outcome::Same) {
            same += 1;
        }
        seen.push(rows);
    }
    let elapsed = started.elapsed();
    // The intervals, for the record (`--nocapture`).
    for (i, rows) in seen.iter().enumerate() {
        let text: Vec<String> = rows.iter().map(|(w, o, (lo, hi))| format!("{w} {o:?} {lo:.3}–{hi:.3}")).collect();
        println!("A/A run {i:>2}: {}", text.join("; "));
    }
    println!("A/A: {same} of 20 same within noise (margin {MARGIN}), {:.1} s", elapsed.as_secs_f64());
    assert!(same >= 19, "only {same} of 20 A/A comparisons read same within noise: {seen:#?}");
}

/// A difference far beyond noise is called, the right way round: B reads
/// four times the bytes, 1-byte reads that each reach the source. (Tests
/// run unoptimized code, so the difference must be one of work, not of
/// the optimizer's help: std's buffer against raw reads is a release build's.)
#[test]
fn a_real_difference_is_called_slower_and_its_counts_are_exact() {
    let _turn = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let d = decode("v=1&len=16K&chunk=poor&rs=1&rd=unbuffered&b.len=64K");
    let b = d.compare.clone().expect("a comparison link").params;
    let c = api::compare(&d.params, &b, &InstantClock::default(), Sampling::FULL).unwrap();
    let pair = &c.readers[0];
    let row = |metric| pair.metrics.iter().find(|m| m.metric == metric).unwrap();
    let reads = row(MetricId::SourceReads);
    assert_eq!((reads.outcome, reads.a, reads.b), (Outcome::More, Some(16_385.0), Some(65_537.0)));
    let cpu = row(MetricId::CpuMedianNs);
    assert_eq!(cpu.outcome, Outcome::Slower, "{}", cpu.says);
    assert!(cpu.says.starts_with("B slower: "), "{}", cpu.says);
    assert!(cpu.a_x_copy.is_some_and(|x| x > 1.0) && cpu.b_x_copy.is_some(), "{cpu:?}");
    // The same comparison as two links, and the counts each link counts alone.
    let alone = api::run(&b, &InstantClock::default(), Sampling::COUNTS).unwrap();
    assert_eq!(c.b.runs[0].source_reads, alone.runs[0].source_reads);
    assert_eq!(c.link, d.compare.unwrap().fragment);
}

#[test]
fn counts_only_compares_no_time() {
    let d = decode("v=1&len=64K&rd=std&b.cap=64");
    let c = api::compare(&d.params, &d.compare.unwrap().params, &InstantClock::default(), Sampling::COUNTS).unwrap();
    assert_eq!(c.timing, Timing::Untimed);
    assert!(c.copy.is_none());
    let reads = &c.readers[0].metrics[0];
    assert_eq!((reads.metric, reads.outcome), (MetricId::SourceReads, Outcome::More));
    assert_eq!(c.changed.len(), 1);
}

/// Two exported results (`buflab --json`): paired as measured separately,
/// each machine named; the same experiment's counts agree.
#[test]
fn two_exported_results_pair_with_both_machines_named() {
    let _turn = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let p = params("v=1&len=16K&chunk=poor&rs=1&rd=unbuffered,std");
    let clock = InstantClock::default();
    let export = |p: &Params| serde_json::to_string(&api::run(p, &clock, Sampling::FULL).unwrap()).unwrap();
    let (a, b) = (export(&p), export(&p));
    let c = api::pair_results(&a, &b).unwrap();
    assert!(matches!(c.timing, Timing::Separate { same_machine: true, .. }), "{:?}", c.timing);
    assert!(c.notes[0].starts_with("Measured at different times on the same machine"), "{:?}", c.notes);
    assert!(c.notes.iter().any(|n| n.starts_with("Counts carry across machines")), "{:?}", c.notes);
    assert_eq!(c.a.machine.as_ref().unwrap().kind, MachineKind::Native);
    for pair in &c.readers {
        for m in pair.metrics.iter().filter(|m| !matches!(m.metric, MetricId::CpuMedianNs | MetricId::ModelledTotalNs)) {
            assert_eq!(m.outcome, Outcome::Tie, "{:?}", m.metric);
        }
    }
    // Another machine: its own name in the notes; ns not compared, × copy is.
    let mut other: serde_json::Value = serde_json::from_str(&b).unwrap();
    other["machine"]["kind"] = "browser".into();
    other["machine"]["user_agent"] = "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0".into();
    other["machine"]["os"] = serde_json::Value::Null;
    other["machine"]["cpu"] = serde_json::Value::Null;
    let c = api::pair_results(&a, &other.to_string()).unwrap();
    assert!(matches!(c.timing, Timing::Separate { same_machine: false, .. }));
    assert!(c.notes[0].contains("B on browser, Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0"), "{}", c.notes[0]);
    let cpu = c.readers[0].metrics.iter().find(|m| m.metric == MetricId::CpuMedianNs).unwrap();
    assert_eq!(cpu.outcome, Outcome::NotCompared);
    assert!(cpu.x_copy_outcome.is_some(), "{cpu:?}");
    // Counts that disagree for the same experiment are named.
    let mut edited: serde_json::Value = serde_json::from_str(&b).unwrap();
    edited["runs"][1]["source_reads"] = 9.into();
    let c = api::pair_results(&a, &edited.to_string()).unwrap();
    assert!(c.notes.iter().any(|n| n.contains("yet their counts differ (source reads of std")), "{:?}", c.notes);
}

/// Untrusted files: each way one can be wrong has its own message, and
/// none panics.
#[test]
fn a_malformed_result_file_gets_a_clear_message() {
    let p = params("v=1&len=4K&rd=std");
    let good = serde_json::to_string_pretty(&api::run(&p, &InstantClock::default(), Sampling::COUNTS).unwrap()).unwrap();
    let mut newer: serde_json::Value = serde_json::from_str(&good).unwrap();
    newer["format"] = 2.into();
    let mut bad_params: serde_json::Value = serde_json::from_str(&good).unwrap();
    bad_params["params"]["cap"] = 0.into();
    let mut write_lab: serde_json::Value = serde_json::from_str(&good).unwrap();
    write_lab["lab"] = "write".into();
    let cases = [
        (good[..good.len() / 2].to_string(), ResultErrorKind::Truncated, "cut short"),
        (String::new(), ResultErrorKind::NotJson, "empty"),
        ("<html>hello</html>".to_string(), ResultErrorKind::NotJson, "not JSON"),
        ("[1, 2, 3]".to_string(), ResultErrorKind::NotBufLab, "not an object"),
        (r#"{"name": "a package.json"}"#.to_string(), ResultErrorKind::NotBufLab, "no params and runs"),
        (r#"{"params": {}, "runs": 7}"#.to_string(), ResultErrorKind::NotBufLab, "not a BufLab result"),
        (newer.to_string(), ResultErrorKind::Newer, "newer BufLab"),
        (bad_params.to_string(), ResultErrorKind::Invalid, "not valid"),
        (write_lab.to_string(), ResultErrorKind::OtherKind, "write-lab"),
        ("[".repeat(100_000), ResultErrorKind::NotJson, "not JSON"),
    ];
    for (text, kind, says) in cases {
        let e = compare::read_result(&text).expect_err(&text[..text.len().min(60)]);
        assert_eq!(e.kind, kind, "{}", e.message);
        assert!(e.message.contains(says), "{}", e.message);
    }
    let e = api::pair_results(&good, "{").unwrap_err();
    assert!(e.message.starts_with("B: the file ends early"), "{}", e.message);
    assert!(compare::read_result(&good).is_ok());
    // The page's JSON export wraps the report (web/src/panels/export.ts `jsonOf`).
    let wrapped = format!(r#"{{"link": "https://example.org/#v=1", "exported_at": "2026-11-29T07:00:00Z", "report": {good}}}"#);
    assert_eq!(compare::read_result(&wrapped).unwrap(), compare::read_result(&good).unwrap());
    let e = compare::read_result(r#"{"link": "x", "report": 7}"#).unwrap_err();
    assert_eq!(e.kind, ResultErrorKind::NotBufLab, "{}", e.message);
}
