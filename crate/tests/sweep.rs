#![cfg(not(target_arch = "wasm32"))]
//! Sweeps: the lesson's claim (a bigger buffer stops paying once it holds the
//! largest chunk), correctness at every point, and the sweep link keys.

use buflab::api;
use buflab::catalog::schema::sweep_axis;
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::engine::sweep;
use buflab::link::decode as decode_link;
use buflab::model::{Id, Metric, Params, ReaderKind, Sweep, SweepAxis, SweepReport, MAX_GRID_POINTS, MAX_SWEEP_POINTS};
use proptest::prelude::*;

/// The `buffer-size` lesson's link (issue 6 contract): std and chained over
/// chunks of 64–512 bytes, capacity swept from 16 B to 64 KiB.
const LESSON_LINK: &str =
    "#v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=1&sys=150&rd=std,chained&wl=fixed&sweep=cap&from=16&to=64K";

/// Run once and shared by the tests that read it (26 runs of 1 MiB read a
/// byte at a time are slow in a debug build).
fn lesson_sweep() -> &'static SweepReport {
    static REPORT: std::sync::OnceLock<SweepReport> = std::sync::OnceLock::new();
    REPORT.get_or_init(|| {
        let d = decode_link(LESSON_LINK);
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        api::run_sweep(&d.params, &InstantClock::default(), Sampling::QUICK, |_, _, _| {}).unwrap()
    })
}

#[test]
fn the_lessons_capacity_sweep_knees_at_512_on_source_reads() {
    let r = lesson_sweep();
    assert!(r.complete);
    assert_eq!(r.values, [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]);
    for reader in [ReaderKind::Std, ReaderKind::Chained] {
        let k = r.knees.iter().find(|k| k.reader == reader && k.metric == Metric::SourceReads).unwrap();
        assert_eq!(k.value, 512, "{reader:?}: {k:?}");
        // Exactly flat from 512 on: every source read returns a whole chunk.
        let reads: Vec<u64> = r.points.iter().map(|p| p.report.runs.iter().find(|run| run.reader == reader).unwrap().source_reads).collect();
        assert!(reads[5..].iter().all(|&n| n == reads[5]), "{reads:?}");
        assert!(reads[4] as f64 > reads[5] as f64 * 1.05, "256 still pays: {reads:?}");
    }
    // std copies every byte once and allocates one buffer, whatever its size:
    // a bigger buffer never pays on those, so their knee is the first point.
    let std_copied = r.knees.iter().find(|k| k.reader == ReaderKind::Std && k.metric == Metric::BytesCopied).unwrap();
    assert!(std_copied.first && std_copied.value == 16);
    // Whether a time knee is marked depends on the machine's noise (one is
    // marked only where the samples separate): its rules are pinned on
    // scripted samples in engine/sweep.rs's unit tests, not here.
}

#[test]
fn every_point_delivers_the_same_bytes() {
    let r = lesson_sweep();
    assert!(r.digests_agree);
    let first = &r.points[0].report.source_digest;
    for p in &r.points {
        assert_eq!(&p.report.source_digest, first, "cap {}", p.value);
        for run in &p.report.runs {
            assert_eq!(&run.digest, first, "cap {} reader {:?}", p.value, run.reader);
            assert!(run.timeline.is_none(), "a sweep point records no timeline");
        }
    }
}

#[test]
fn chunk_sweeps_mean_fixed_chunks_and_knee_at_the_buffer() {
    // Chunks larger than the 4 KiB buffer cannot be read in one call by std:
    // more chunk stops paying at the capacity.
    let d = decode_link("len=256K&cap=4K&rs=1&rd=std&sweep=chunk&from=64&to=64K");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let r = api::run_sweep(&d.params, &InstantClock::default(), Sampling::QUICK, |_, _, _| {}).unwrap();
    let k = r.knees.iter().find(|k| k.metric == Metric::SourceReads).unwrap();
    assert_eq!(k.value, 4096);
    assert_eq!(r.points[0].report.runs[0].source_reads, 256 * 1024 / 64 + 1);
}

#[test]
fn axes_without_a_knee_report_none() {
    let d = decode_link("len=4K&rd=std&sweep=streams&from=1&to=4");
    let r = api::run_sweep(&d.params, &InstantClock::default(), Sampling::QUICK, |_, _, _| {}).unwrap();
    assert_eq!(r.points.len(), 3);
    assert!(r.knees.is_empty());
    assert_eq!(r.points.iter().map(|p| p.report.params.streams).collect::<Vec<_>>(), [1, 2, 4]);
}

#[test]
fn progress_is_reported_point_by_point() {
    let d = decode_link("len=4K&rd=std&sweep=rs&from=1&to=8");
    let mut seen = Vec::new();
    api::run_sweep(&d.params, &InstantClock::default(), Sampling::QUICK, |i, n, p| seen.push((i, n, p.value))).unwrap();
    assert_eq!(seen, [(0, 4, 1), (1, 4, 2), (2, 4, 4), (3, 4, 8)]);
}

fn keys(link: &str) -> Vec<String> {
    decode_link(link).notices.into_iter().map(|n| n.key).collect()
}

#[test]
fn bad_sweep_values_fall_back_with_notices_naming_the_key() {
    assert_eq!(decode_link("sweep=size").params.sweep, None);
    assert_eq!(keys("sweep=size"), ["sweep"]);
    assert_eq!(decode_link("sweep=off&from=16").params.sweep, None);
    assert_eq!(keys("sweep=off&from=16&to=1K"), ["from", "to"]);
    // Rounded to the nearest power of two.
    let d = decode_link("sweep=cap&from=100&to=3000");
    assert_eq!(d.params.sweep, Some(Sweep::one(SweepAxis::Cap, 128, 2048)));
    assert_eq!(keys("sweep=cap&from=100&to=3000"), ["from", "to"]);
    // Reversed, clamped, defaulted.
    assert_eq!(decode_link("sweep=rs&from=1K&to=16").params.sweep, Some(Sweep::one(SweepAxis::Rs, 16, 1024)));
    assert_eq!(decode_link("sweep=rs&to=16G").params.sweep.unwrap().to, 1 << 20);
    assert_eq!(decode_link("sweep=cap&from=x").params.sweep.unwrap().from, sweep_axis(SweepAxis::Cap).from);
    assert_eq!(keys("sweep=cap&from=x"), ["from"]);
    assert_eq!(keys("sweep=cap&sweep=rs"), ["sweep"]);
    // Too many points: cut at `to`.
    let d = decode_link("sweep=chunk&from=1&to=64M");
    assert_eq!(d.params.sweep.unwrap().values().len() as u64, MAX_SWEEP_POINTS);
    assert_eq!(keys("sweep=chunk&from=1&to=64M"), ["to"]);
}

#[test]
fn streams_points_past_the_job_limit_are_dropped_with_a_notice() {
    // 1 MiB streams: at most 64 of them.
    let d = decode_link("len=1M&sweep=streams&from=1&to=512");
    assert_eq!(d.params.sweep.unwrap().to, 64);
    assert_eq!(d.notices.len(), 1, "{:?}", d.notices);
    assert_eq!(d.notices[0].key, "to");
    assert!(d.notices[0].message.contains("3 points past streams = 64 dropped"), "{:?}", d.notices[0]);
    // A capacity sweep with many streams: cap × streams stays within 64 MiB.
    let d = decode_link("len=64K&streams=100&sweep=cap&from=1K&to=4M");
    assert_eq!(d.params.sweep.unwrap().to, 512 * 1024);
    assert_eq!(sweep::points(&d.params).len(), 10);
    assert!(sweep::points(&d.params).iter().all(|p| p.check().is_ok()));
}

#[test]
fn strict_check_rejects_bad_sweeps_with_the_key() {
    let with = |s: Sweep| Params { sweep: Some(s), ..Params::default() }.check().unwrap_err().key;
    assert_eq!(with(Sweep::one(SweepAxis::Cap, 100, 1024)), "from");
    assert_eq!(with(Sweep::one(SweepAxis::Cap, 1024, 16)), "from");
    assert_eq!(with(Sweep::one(SweepAxis::Cap, 16, 8 << 20)), "to");
    assert_eq!(with(Sweep::one(SweepAxis::Chunk, 1, 1 << 24)), "to");
    assert_eq!(with(Sweep::one(SweepAxis::Streams, 1, 512)), "to");
    assert!(buflab::link::params_from_json(r#"{"sweep": {"axis": "size", "from": 1, "to": 2}}"#).is_err());
    let p = buflab::link::params_from_json(r#"{"sweep": {"axis": "cap", "from": 16, "to": 1024}}"#).unwrap();
    assert_eq!(p.sweep.unwrap().values().len(), 7);
    assert_eq!(buflab::link::params_from_json(r#"{"sweep": null}"#).unwrap().sweep, None);
}

#[test]
fn sweep_keys_stay_out_of_links_without_a_sweep() {
    assert!(!buflab::link::encode(&Params::default()).contains("sweep"));
    let d = decode_link(LESSON_LINK);
    assert!(d.fragment.ends_with("&sweep=cap&from=16&to=64K"), "{}", d.fragment);
}

#[test]
fn the_schema_exposes_the_axes() {
    let json = serde_json::to_value(buflab::catalog::schema()).unwrap();
    let axes = json["sweep_axes"].as_array().unwrap();
    let ids: Vec<&str> = axes.iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["cap", "rs", "chunk", "len", "streams", "rate"]);
    assert_eq!((axes[5]["bounds"]["min"].as_u64(), axes[5]["knee"].as_bool()), (Some(1024), Some(false)), "bytes per second; no knee of its own");
    assert_eq!(axes[0]["bounds"]["max"], 4 << 20);
    assert_eq!(axes[4]["bounds"]["max"], 512, "the largest power of two within 1000 streams");
    assert!(axes.iter().all(|a| a["label"].is_string() && a["about"].is_string()));
    assert_eq!(json["defaults"]["sweep"], serde_json::Value::Null);
    // The page words its knee definition from this, not from a copy.
    assert_eq!(json["knee_tolerance"], buflab::engine::sweep::KNEE_TOLERANCE);
}

proptest! {
    #[test]
    fn sweeps_round_trip_through_the_link(axis in 0usize..6, a in 0u32..27, b in 0u32..27, len_log in 10u32..=26, streams in 1u64..8) {
        let info = &buflab::catalog::schema().sweep_axes[axis];
        let lo = info.bounds.min.ilog2();
        let hi = info.bounds.max.ilog2();
        let (a, b) = (lo + a % (hi - lo + 1), lo + b % (hi - lo + 1));
        let (from, to) = (1u64 << a.min(b), 1u64 << a.max(b));
        let base = Params { len: 1 << len_log, streams: streams.min(buflab::model::max_streams(1 << len_log, 8192)), ..Params::default() };
        // The decoder fits the range (points, job size); what it gives back must round-trip.
        let d = decode_link(&(buflab::link::encode(&base) + &format!("&sweep={}&from={from}&to={to}", info.id.id())));
        prop_assert_eq!(d.params.check(), Ok(()));
        let s = d.params.sweep.unwrap();
        prop_assert_eq!(s.axis, info.id);
        prop_assert!(s.values().len() as u64 <= MAX_SWEEP_POINTS);
        let again = decode_link(&d.fragment);
        prop_assert!(again.notices.is_empty(), "{:?}", again.notices);
        prop_assert_eq!(&again.params, &d.params);
        prop_assert!(sweep::points(&d.params).iter().all(|p| p.check().is_ok()));
    }
}

#[test]
fn a_sweep_is_refitted_when_the_rest_changes() {
    // 64 streams of 1 MiB fit; of 4 MiB only 16 do.
    let p = decode_link("len=1M&sweep=streams&from=1&to=64").params;
    let d = buflab::link::fit_sweep(&Params { len: 4 << 20, ..p.clone() }).unwrap();
    assert_eq!(d.params.sweep.unwrap().to, 16);
    assert_eq!(d.notices.iter().map(|n| n.key.as_str()).collect::<Vec<_>>(), ["to"]);
    assert!(buflab::link::fit_sweep(&Params { cap: 0, ..p }).is_err());
}

/// A two-axis sweep: capacity down the rows, read size across the columns.
const GRID_LINK: &str = "#v=1&len=256K&chunk=64-512&rd=std,chained&sweep=cap,rs&from=64,1&to=1K,8";

#[test]
fn a_two_axis_sweep_runs_every_pair_and_knees_in_every_column() {
    let d = decode_link(GRID_LINK);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert!(d.fragment.ends_with("&sweep=cap,rs&from=64,1&to=1K,8"), "{}", d.fragment);
    let r = api::run_sweep(&d.params, &InstantClock::default(), Sampling::QUICK, |_, _, _| {}).unwrap();
    assert!(r.complete && r.digests_agree);
    assert_eq!((r.values.as_slice(), r.across_values.as_slice(), r.total), ([64, 128, 256, 512, 1024].as_slice(), [1, 2, 4, 8].as_slice(), 20));
    // Row by row, each point's experiment at its pair and no sweep of its own.
    for (i, p) in r.points.iter().enumerate() {
        assert_eq!((p.value, p.across), (r.values[i / 4], Some(r.across_values[i % 4])));
        assert_eq!((p.report.params.cap, p.report.params.rs, p.report.params.sweep), (p.value, r.across_values[i % 4], None));
    }
    // The buffer stops paying once it holds the largest chunk, whatever the
    // read size: the knee line is straight at 512.
    for rs in [1, 2, 4, 8] {
        let k = r.knees.iter().find(|k| k.reader == ReaderKind::Std && k.metric == Metric::SourceReads && k.across == Some(rs)).unwrap();
        assert_eq!(k.value, 512, "rs {rs}: {k:?}");
    }
    assert_eq!(r.knees.iter().filter(|k| k.metric == Metric::SourceReads).count(), 2 * 4, "one knee per reader and column");
    // The JSON lists one point per pair.
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["points"].as_array().unwrap().len(), 20);
    assert_eq!(json["points"][5]["across"], 2);
    assert_eq!(json["sweep"]["across"]["axis"], "rs");
}

/// The keys of a JSON object.
fn fields(v: &serde_json::Value) -> std::collections::BTreeSet<String> {
    v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().cloned().collect()
}

/// A one-axis report is what it was before two-axis sweeps: no `across`
/// anywhere (not even `null`), the same fields as a two-axis report's
/// otherwise, and it reads back as the report it was written from.
#[test]
fn one_axis_reports_keep_their_form() {
    let r = lesson_sweep();
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(json["sweep"], serde_json::json!({ "axis": "cap", "from": 16, "to": 65536 }));
    assert_eq!(json["across_values"], serde_json::json!([]));
    assert_eq!(json["total"], 13);
    let points = json["points"].as_array().unwrap();
    assert_eq!(points.len(), 13);
    for (point, value) in points.iter().zip(&r.values) {
        assert_eq!(fields(point), fields(&serde_json::json!({ "value": 0, "report": 0 })), "{}", point["value"]);
        assert_eq!(point["value"], *value);
    }
    // A two-axis knee has the same fields and `across`.
    let mut two_axis = r.knees[0].clone();
    two_axis.across = Some(1);
    let mut knee_fields = fields(&serde_json::to_value(&two_axis).unwrap());
    assert!(knee_fields.remove("across"));
    assert!(!r.knees.is_empty());
    for knee in json["knees"].as_array().unwrap() {
        assert_eq!(fields(knee), knee_fields, "{knee}");
    }
    assert!(!r.link.contains("sweep=cap,") && r.link.contains("sweep=cap&from=16&to=64K"), "{}", r.link);
    let back: SweepReport = serde_json::from_value(json).unwrap();
    assert_eq!(&back, r);
}

#[test]
fn bad_two_axis_links_fall_back_with_notices() {
    let one = |link: &str| decode_link(link).params.sweep.unwrap();
    assert_eq!(one("sweep=cap,cap").across, None);
    assert_eq!(keys("sweep=cap,cap"), ["sweep"]);
    assert_eq!(one("sweep=cap,nope").across, None);
    assert_eq!(keys("sweep=cap,rs,len&from=16,1&to=64,4"), ["sweep"]);
    assert_eq!(one("sweep=cap,rs,len&from=16,1&to=64,4").across.unwrap().axis, SweepAxis::Rs);
    // A second value on one axis is ignored; an empty part keeps the default.
    assert_eq!(keys("sweep=cap&from=16,1"), ["from"]);
    let s = one("sweep=cap,rs&from=,4&to=1K");
    assert_eq!((s.from, s.to, s.across.unwrap().from), (sweep_axis(SweepAxis::Cap).from, 1024, 4));
    // Both axes' default ranges make 13 × 17 points: the second axis is cut.
    let d = decode_link("sweep=cap,rs");
    let s = d.params.sweep.unwrap();
    assert!(s.point_count() <= MAX_GRID_POINTS && s.values().len() == 13, "{s:?}");
    assert_eq!(d.notices.iter().map(|n| n.key.as_str()).collect::<Vec<_>>(), ["to"]);
    // A second axis longer than one axis may be is cut to 24 points, even on a one-row grid.
    let s = one("sweep=len,chunk&from=1M,1&to=1M,64M");
    assert_eq!(s.across.unwrap().to, 1 << 23, "{s:?}");
    assert_eq!(Params { sweep: Some(s), ..Params::default() }.check(), Ok(()));
    // Job size: the second axis is cut before the first.
    let d = decode_link("len=1M&sweep=cap,streams&from=256K,1&to=4M,64");
    assert_eq!(d.params.check(), Ok(()));
    assert!(sweep::points(&d.params).iter().all(|p| p.check().is_ok()));
    let s = d.params.sweep.unwrap();
    assert_eq!(s.to, 4 << 20, "{:?}", d.notices);
    assert!(s.across.unwrap().to < 64, "{s:?}");
    assert!(d.notices.iter().any(|n| n.key == "to" && n.message.contains("dropped")), "{:?}", d.notices);
}

proptest! {
    #[test]
    fn two_axis_sweeps_round_trip_through_the_link(x in 0usize..5, y in 0usize..4, a in 0u32..27, b in 0u32..27, c in 0u32..27, e in 0u32..27) {
        let axes = &buflab::catalog::schema().sweep_axes;
        let (first, second) = (&axes[x], &axes[(x + 1 + y) % 5]);
        let range = |info: &buflab::catalog::schema::SweepAxisInfo, a: u32, b: u32| {
            let (lo, hi) = (info.bounds.min.ilog2(), info.bounds.max.ilog2());
            let (a, b) = (lo + a % (hi - lo + 1), lo + b % (hi - lo + 1));
            (1u64 << a.min(b), 1u64 << a.max(b))
        };
        let ((f1, t1), (f2, t2)) = (range(first, a, b), range(second, c, e));
        let link = format!("len=64K&sweep={},{}&from={f1},{f2}&to={t1},{t2}", first.id.id(), second.id.id());
        let d = decode_link(&link);
        prop_assert_eq!(d.params.check(), Ok(()));
        let s = d.params.sweep.unwrap();
        prop_assert_eq!(s.across.map(|a| a.axis), Some(second.id));
        prop_assert!(s.point_count() <= MAX_GRID_POINTS);
        let again = decode_link(&d.fragment);
        prop_assert!(again.notices.is_empty(), "{:?}", again.notices);
        prop_assert_eq!(&again.params, &d.params);
        prop_assert!(sweep::points(&d.params).iter().all(|p| p.check().is_ok()));
    }
}

/// An unbuffered reader does the same work at every capacity: whatever its
/// measured times do from point to point (one noisy sample each here), no
/// time knee past the first point is claimed for it, as none is for its counts.
#[test]
fn a_reader_whose_work_never_changes_has_no_time_knee() {
    let d = decode_link("len=16K&chunk=64-512&rd=unbuffered,std&sweep=cap&from=16&to=1K");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let r = api::run_sweep(&d.params, &InstantClock::default(), Sampling::QUICK, |_, _, _| {}).unwrap();
    let unbuffered: Vec<_> = r.knees.iter().filter(|k| k.reader == ReaderKind::Unbuffered).collect();
    assert_eq!(unbuffered.len(), Metric::all().len(), "{unbuffered:?}");
    assert!(unbuffered.iter().all(|k| k.first && k.value == 16), "{unbuffered:?}");
    // std's source reads fall until its buffer holds the largest chunk.
    let std_reads = r.knees.iter().find(|k| k.reader == ReaderKind::Std && k.metric == Metric::SourceReads).unwrap();
    assert_eq!(std_reads.value, 512);
}

// ---------------------------------------------------------------------------
// Two sweeps compared (issue 49): the knee of each

/// A std capacity sweep over chunks of 512 bytes, B over chunks of 128: the
/// source reads' knee is each side's chunk (exact counts).
const SWEEP_PAIR: &str = "#v=1&len=4K&chunk=512&rs=1&rd=std&sweep=cap&from=16&to=2K&b.chunk=128";

fn counted_pair(link: &str) -> buflab::model::SweepComparison {
    let d = decode_link(link);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let b = d.compare.expect("a comparison link");
    api::compare_sweeps(&d.params, &b.params, &InstantClock::default(), Sampling::COUNTS, |_, _, _, _| {}).unwrap()
}

/// Each side's knees are exactly those of its sweep run alone, and the
/// source reads' knees differ for real: 512 against 128, a ratio the engine
/// computes, in the sentence the page and the CLI show.
#[test]
fn a_sweep_comparison_pairs_the_knee_of_each_side() {
    let c = counted_pair(SWEEP_PAIR);
    let d = decode_link(SWEEP_PAIR);
    let alone = |p: &Params| api::run_sweep(p, &InstantClock::default(), Sampling::COUNTS, |_, _, _| {}).unwrap();
    let (a, b) = (alone(&d.params), alone(&d.compare.as_ref().unwrap().params));
    assert_eq!(c.a.knees, a.knees);
    assert_eq!(c.b.knees, b.knees);
    assert_eq!(c.a.link, a.link);
    assert_eq!(c.b.link, b.link);
    assert_eq!(c.changed.len(), 1, "{:?}", c.changed);
    let reads = c.knees.iter().find(|k| k.reader == ReaderKind::Std && k.metric == Metric::SourceReads).unwrap();
    assert_eq!((reads.a, reads.b, reads.ratio), (Some(512), Some(128), Some(0.25)), "{reads:?}");
    assert_eq!(reads.outcome, buflab::model::Outcome::Less);
    assert!(reads.says.starts_with("std, source reads: A's knee: 512 bytes; B's knee: 128 bytes (B ÷ A = 0.25)"), "{}", reads.says);
    assert!(reads.says.contains("exact"), "{}", reads.says);
    // Every reader and metric of A has its pair.
    assert_eq!(c.knees.len(), c.a.knees.len(), "{:?}", c.knees);
    // The JSON the CLI prints carries both sweeps and the pairs.
    let json = serde_json::to_value(&c).unwrap();
    assert!(json["a"]["points"].is_array() && json["b"]["points"].is_array() && json["knees"][0]["says"].is_string());
}

/// B the same sweep as A (`b.v=1`): every knee the same, counts a tie.
#[test]
fn an_a_a_sweep_comparison_reads_the_same() {
    let c = counted_pair("#v=1&len=4K&chunk=512&rs=1&rd=std,unbuffered&sweep=cap&from=16&to=2K&b.v=1");
    assert!(c.changed.is_empty());
    assert!(!c.knees.is_empty());
    for k in &c.knees {
        let want = if k.metric == Metric::Time { buflab::model::Outcome::Same } else { buflab::model::Outcome::Tie };
        assert_eq!((k.outcome, k.a), (want, k.b), "{k:?}");
        assert!(k.says.contains("the same knee"), "{}", k.says);
    }
}

/// B without a sweep (`b.sweep=off`) has no knee to compare: refused, not
/// run as two single runs.
#[test]
fn a_sweep_comparison_needs_a_sweep_on_both_sides() {
    let d = decode_link("#v=1&len=4K&chunk=512&rs=1&rd=std&sweep=cap&from=16&to=2K&b.sweep=off");
    let b = d.compare.expect("a comparison link");
    assert!(b.params.sweep.is_none());
    let e = api::compare_sweeps(&d.params, &b.params, &InstantClock::default(), Sampling::COUNTS, |_, _, _, _| {}).unwrap_err();
    assert_eq!(e.key, "sweep");
}

/// Points run in alternating order, A first in even steps and B first in odd ones.
#[test]
fn a_sweep_comparison_runs_its_points_in_alternating_order() {
    let d = decode_link("#v=1&len=4K&chunk=512&rs=1&rd=std&sweep=cap&from=16&to=64&b.chunk=128");
    let b = d.compare.unwrap();
    let mut order = Vec::new();
    api::compare_sweeps(&d.params, &b.params, &InstantClock::default(), Sampling::COUNTS, |side, i, _, _| order.push((side, i))).unwrap();
    assert_eq!(order, [('A', 0), ('B', 0), ('B', 1), ('A', 1), ('A', 2), ('B', 2)]);
}

/// The comparison the page asks for (`api::compare`, the wasm `compare`) of
/// a link whose A and B have a sweep carries both sweeps and their knees,
/// the same the CLI prints; one without a sweep carries none.
#[test]
fn a_comparison_of_sweep_links_carries_the_sweeps() {
    let d = decode_link(SWEEP_PAIR);
    let b = d.compare.as_ref().unwrap();
    let c = api::compare(&d.params, &b.params, &InstantClock::default(), Sampling::COUNTS).unwrap();
    let sweeps = c.sweeps.expect("the sweeps compared");
    assert_eq!(sweeps.knees, counted_pair(SWEEP_PAIR).knees);
    let single = decode_link("#v=1&len=4K&chunk=512&rs=1&rd=std&b.chunk=128");
    let c = api::compare(&single.params, &single.compare.unwrap().params, &InstantClock::default(), Sampling::COUNTS).unwrap();
    assert!(c.sweeps.is_none());
}

/// A timed A/A sweep comparison on this (loaded, shared) machine never
/// calls a time knee different: each side's noise may move its own knee a
/// point, but a difference needs the later side to gain clearly more than
/// the other side's samples allow. Before that second condition, one A/A
/// run here read "B's knee comes later, clearly".
#[test]
fn a_timed_a_a_sweep_comparison_never_calls_a_time_knee_different() {
    let d = decode_link("#v=1&len=16K&chunk=poor&rs=1&rd=std,chained&sweep=cap&from=16&to=4K&b.v=1");
    let b = d.compare.unwrap();
    for run in 0..5 {
        let c = api::compare_sweeps(&d.params, &b.params, &InstantClock::default(), sweep::SAMPLING, |_, _, _, _| {}).unwrap();
        for k in c.knees.iter().filter(|k| k.metric == Metric::Time) {
            assert!(matches!(k.outcome, buflab::model::Outcome::Same | buflab::model::Outcome::NotCompared), "run {run}: {}", k.says);
        }
        for k in c.knees.iter().filter(|k| k.metric != Metric::Time) {
            assert_eq!(k.outcome, buflab::model::Outcome::Tie, "run {run}: {}", k.says);
        }
    }
}
