#![cfg(not(target_arch = "wasm32"))]
//! Timing a report whose counts are known (`api::time_counted`, what the
//! page's timing worker does with its counting worker's report) gives the
//! report a whole run gives: the same counts, digests and timelines, timed.
//! And a count the engine reuses from earlier settings is the count of the
//! new ones.

mod common;

use buflab::api;
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::link::params_of;
use buflab::model::{LenRange, Params, ReaderKind, Report, Stage, Stats, Workload};
use proptest::prelude::*;

/// Links of every kind of run: the defaults, every reader at once, several
/// streams, async readers with Pendings, a read above the buffer, `to_end`.
fn links() -> Vec<String> {
    vec![
        String::new(),
        format!("len=64K&chunk=1-64&cap=1&rs=3&{}&wl=lines", common::every_reader()),
        "len=32K&chunk=poor&cap=16&rs=100&streams=3&rd=std,chained&wl=frames".into(),
        "len=16K&chunk=1-9&cap=8&rs=1&pend=30&rd=tokio,futures,std&wl=bytes".into(),
        "len=16K&chunk=7&cap=4K&rs=64K&rd=std,unbuffered&wl=scan".into(),
        "len=20K&cap=1K&rs=10&rd=chained,std&wl=to_end".into(),
    ]
}

/// The report with every time emptied: what the counted pass decides.
fn untimed(mut report: Report) -> Report {
    for run in &mut report.runs {
        run.cpu_ns = Stats::default();
        run.cpu_x_copy = None;
    }
    report.timer.resolution_ns = 0.0;
    report.copy_ns = None;
    // The machine's timer step is measured with each report, as the timer's.
    if let Some(machine) = &mut report.machine {
        machine.timer_step_ns = 0.0;
    }
    report
}

/// What the page sends: the counts report, through JSON and back.
fn counts_of(link: &str) -> Report {
    let params = params_of(link).expect("a valid link");
    let counts = api::run(&params, &InstantClock::default(), Sampling::chosen(true, false, Sampling::FULL)).expect("counts");
    assert_eq!(counts.stage, Stage::Counts);
    serde_json::from_str(&serde_json::to_string(&counts).expect("serializes")).expect("deserializes")
}

#[test]
fn timing_known_counts_gives_the_whole_runs_report() {
    let clock = InstantClock::default();
    for link in &links() {
        let params = params_of(link).expect("a valid link");
        let whole = api::run(&params, &clock, Sampling::QUICK).expect("a whole run");
        let timed = api::time_counted(&params, counts_of(link), &clock, Sampling::QUICK).expect("timed");
        assert_eq!((timed.stage, timed.quick), (Stage::Quick, true), "{link}");
        assert!(timed.runs.iter().all(|r| r.cpu_ns.samples > 0 && r.timeline.is_some()), "{link}: every reader timed");
        assert!(timed.digests_agree(), "{link}");
        assert_eq!(untimed(timed), untimed(whole), "{link}");
    }
}

#[test]
fn counts_of_other_settings_or_a_timed_report_are_refused() {
    let clock = InstantClock::default();
    let links = links();
    let params = params_of(&links[1]).expect("a valid link");
    let other = api::time_counted(&params, counts_of(&links[2]), &clock, Sampling::QUICK).expect_err("other settings");
    assert_eq!(other.key, "counts");
    let mut timed = counts_of(&links[1]);
    timed.stage = Stage::Quick;
    assert_eq!(api::time_counted(&params, timed, &clock, Sampling::QUICK).expect_err("not counts").key, "counts");
    let counts = Sampling::chosen(true, false, Sampling::FULL);
    assert!(api::time_counted(&params, counts_of(&links[1]), &clock, counts).is_err(), "counting again is not timing");
}

#[test]
fn counts_of_the_same_experiment_shown_otherwise_are_timed_as_the_request_asks() {
    let clock = InstantClock::default();
    // The counting worker counted the single run; the timing worker is asked
    // with the address bar's link: presenter mode, a lesson, the sweep view.
    let shown = "len=20K&cap=1K&rs=10&rd=chained,std&present=on&lesson=one-byte&view=sweep&sweep=cap&from=1K&to=8K";
    let params = params_of(shown).expect("a valid link");
    let single = "len=20K&cap=1K&rs=10&rd=chained,std";
    let timed = api::time_counted(&params, counts_of(single), &clock, Sampling::QUICK).expect("the same experiment, however it is shown");
    assert_eq!(timed.params, params, "the report is of the request");
    let other = params_of("len=20K&cap=2K&rs=10&rd=chained,std&present=on").expect("a valid link");
    assert!(api::time_counted(&other, counts_of(single), &clock, Sampling::QUICK).is_err());
}

/// Settings that differ where a count can tell: every reader key (`cap`,
/// `pool`, `pend`), the read size, chunking, workload, streams and length,
/// every reader in any order, and `sys`, which no count reads.
fn settings() -> impl Strategy<Value = Params> {
    use ReaderKind::*;
    let readers = prop::sample::subsequence(vec![Unbuffered, Std, Chained, Tokio, Futures], 1..=5).prop_shuffle();
    let workload = prop::sample::select(vec![Workload::Fixed, Workload::Exact, Workload::Bytes, Workload::ToEnd, Workload::Lines, Workload::Frames, Workload::Scan]);
    let size = |sizes: &[u64]| prop::sample::select(sizes.to_vec());
    (
        (size(&[1024, 1500, 3000]), common::chunk_model(), size(&[1, 7, 64, 4096]), size(&[1, 3, 100, 5000])),
        (any::<bool>(), size(&[0, 40]), size(&[0, 150, 2000]), readers, workload, 1u64..=3, any::<bool>()),
    )
        .prop_map(|((len, chunk, cap, rs), (pool, pend, sys, readers, workload, streams, reuse))| Params {
            len,
            chunk,
            cap,
            rs,
            pool,
            pend,
            sys,
            readers,
            workload,
            streams,
            reuse,
            line: LenRange { min: 0, max: 40 },
            frame: LenRange { min: 0, max: 300 },
            nul: len / 2,
            ..Params::default()
        })
}

/// `after`, with each setting `before`'s where `keep` says: most pairs
/// differ in a few settings, as one control change makes them.
fn mixed(before: &Params, after: Params, keep: [bool; 11]) -> Params {
    fn pick<T>(keep: bool, before: T, after: T) -> T {
        if keep {
            before
        } else {
            after
        }
    }
    Params {
        len: pick(keep[0], before.len, after.len),
        chunk: pick(keep[1], before.chunk, after.chunk),
        cap: pick(keep[2], before.cap, after.cap),
        rs: pick(keep[3], before.rs, after.rs),
        pool: pick(keep[4], before.pool, after.pool),
        pend: pick(keep[5], before.pend, after.pend),
        sys: pick(keep[6], before.sys, after.sys),
        readers: pick(keep[7], before.readers.clone(), after.readers.clone()),
        workload: pick(keep[8], before.workload, after.workload),
        streams: pick(keep[9], before.streams, after.streams),
        reuse: pick(keep[10], before.reuse, after.reuse),
        nul: pick(keep[0], before.nul, after.nul),
        ..after
    }
}

fn counts(params: &Params) -> Report {
    api::run(params, &InstantClock::default(), Sampling::COUNTS).expect("valid settings count")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The engine keeps each reader's count per thread and reuses it for
    /// settings that reader's count does not read (`experiment::count_key`).
    /// Counted after earlier settings in this thread (whose counts it may
    /// reuse; the cases before this one are counted here too), a report is
    /// the one a fresh thread, which has counted nothing, makes.
    #[test]
    fn a_reused_count_is_the_count_of_the_new_settings(before in settings(), other in settings(), keep in any::<[bool; 11]>()) {
        let after = mixed(&before, other, keep);
        prop_assume!(after.check().is_ok() && before.check().is_ok());
        counts(&before);
        let reused = counts(&after);
        let fresh = std::thread::spawn(move || counts(&after)).join().expect("the fresh thread counts");
        // Counts only: a timeline, recorded afresh either way, names the
        // chained reader's blocks by address, which depends on the heap.
        let counts_only = |report: Report| {
            let mut report = untimed(report);
            report.runs.iter_mut().for_each(|run| run.timeline = None);
            report
        };
        prop_assert_eq!(counts_only(reused), counts_only(fresh));
    }
}
