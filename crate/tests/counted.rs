#![cfg(not(target_arch = "wasm32"))]
//! Timing a report whose counts are known (`api::time_counted`, what the
//! page's timing worker does with its counting worker's report) gives the
//! report a whole run gives: the same counts, digests and timelines, timed.

use buflab::api;
use buflab::engine::measure::{InstantClock, Sampling};
use buflab::link::params_of;
use buflab::model::{Report, Stage, Stats};

const LINKS: &[&str] = &[
    "",
    "len=64K&chunk=1-64&cap=1&rs=3&rd=unbuffered,std,chained,tokio,futures&wl=lines",
    "len=32K&chunk=poor&cap=16&rs=100&streams=3&rd=std,chained&wl=frames",
    "len=16K&chunk=1-9&cap=8&rs=1&pend=30&rd=tokio,futures,std&wl=bytes",
    "len=16K&chunk=7&cap=4K&rs=64K&rd=std,unbuffered&wl=scan",
    "len=20K&cap=1K&rs=10&rd=chained,std&wl=to_end",
];

/// The report with every time emptied: what the counted pass decides.
fn untimed(mut report: Report) -> Report {
    for run in &mut report.runs {
        run.cpu_ns = Stats::default();
    }
    report.timer.resolution_ns = 0.0;
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
    for link in LINKS {
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
    let params = params_of(LINKS[1]).expect("a valid link");
    let other = api::time_counted(&params, counts_of(LINKS[2]), &clock, Sampling::QUICK).expect_err("other settings");
    assert_eq!(other.key, "counts");
    let mut timed = counts_of(LINKS[1]);
    timed.stage = Stage::Quick;
    assert_eq!(api::time_counted(&params, timed, &clock, Sampling::QUICK).expect_err("not counts").key, "counts");
    let counts = Sampling::chosen(true, false, Sampling::FULL);
    assert!(api::time_counted(&params, counts_of(LINKS[1]), &clock, counts).is_err(), "counting again is not timing");
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
