//! The wasm glue in a real browser worker: a link in, report out, bad links
//! back as JS errors. Run with `wasm-pack test --headless --chrome crate --test wasm`.
#![cfg(target_arch = "wasm32")]

use buflab::wasm;
use js_sys::{Array, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

fn get(v: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(v.clone(), |v, key| match key.parse::<u32>() {
        Ok(i) => Array::from(&v).get(i),
        Err(_) => Reflect::get(&v, &key.into()).unwrap(),
    })
}

fn json(text: &str) -> JsValue {
    JSON::parse(text).unwrap()
}

#[wasm_bindgen_test]
fn run_returns_a_report_with_exact_counts() {
    let report = wasm::run("len=64K&chunk=100&cap=8K&rs=1&rd=unbuffered,std", false, true, None).map_err(JsValue::from).unwrap();
    assert_eq!(get(&report, "runs.0.reader").as_string().unwrap(), "unbuffered");
    assert_eq!(get(&report, "runs.0.source_reads").as_f64(), Some(65537.0));
    assert_eq!(get(&report, "runs.1.source_reads").as_f64(), Some(65536.0 / 100.0 + 1.0).map(f64::ceil));
    assert_eq!(get(&report, "runs.1.bytes_copied").as_f64(), Some(65536.0));
    assert_eq!(get(&report, "runs.1.allocations").as_f64(), Some(1.0), "the counting allocator works in wasm");
    let digest = get(&report, "source_digest");
    assert_eq!(get(&report, "runs.0.digest"), digest);
    assert_eq!(get(&report, "runs.1.digest"), digest);
    assert!(get(&report, "timer.resolution_ns").as_f64().unwrap() > 0.0);
    assert!(get(&report, "runs.0.cpu_ns.median").as_f64().unwrap() > 0.0);
    assert_eq!(get(&report, "link").as_string().unwrap(),
               "v=1&len=64K&chunk=100&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed");
}

#[wasm_bindgen_test]
fn same_counts_as_native_for_a_seeded_chunking() {
    // Pinned natively in tests/readers.rs too: seeded chunks are platform-free.
    let report = wasm::run("len=64K&chunk=worst&seed=42&cap=1K&rs=1&rd=std", false, true, None).map_err(JsValue::from).unwrap();
    let native = buflab::run(
        &buflab::link::decode("len=64K&chunk=worst&seed=42&cap=1K&rs=1&rd=std").params,
        &FixedClock,
        buflab::engine::clock::Sampling::QUICK,
    )
    .unwrap();
    assert_eq!(get(&report, "runs.0.source_reads").as_f64(), Some(native.runs[0].source_reads as f64));
}

/// A clock for comparing counts only. It steps 10 ms per reading, so a quick
/// sample thinks one run takes 10 ms and repeats it only twice (a 1 µs step
/// made it repeat the run a thousand times, too slow in a debug build).
struct FixedClock;
impl buflab::engine::clock::Clock for FixedClock {
    fn now_ns(&self) -> f64 {
        thread_local!(static T: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) });
        T.with(|t| {
            t.set(t.get() + 1e7);
            t.get()
        })
    }
    fn isolated(&self) -> bool {
        true
    }
}

#[wasm_bindgen_test]
fn links_the_codec_would_correct_come_back_as_js_errors_naming_the_key() {
    for (link, key) in [("cap=0", "cap"), ("len=999T", "len"), ("rd=nope", "rd"), ("chunk=zz", "chunk"), ("v=9", "v")] {
        let err: JsValue = wasm::run(link, true, false, None).unwrap_err().into();
        let message = get(&err, "message").as_string().unwrap();
        assert!(message.starts_with(&format!("link: {key}: ")), "{link}: {message}");
    }
    // Fault injection is compiled out of normal builds.
    let err: JsValue = wasm::run("", true, false, Some("panic".into())).unwrap_err().into();
    assert!(get(&err, "message").as_string().unwrap().contains("only in test builds"));
}

#[wasm_bindgen_test]
fn decode_link_reports_notices_and_never_throws() {
    let d = wasm::decode_link("#v=1&cap=banana&len=-5").unwrap();
    let notices = Array::from(&get(&d, "notices"));
    let keys: Vec<String> = notices.iter().map(|n| get(&n, "key").as_string().unwrap()).collect();
    assert_eq!(keys, ["len", "cap"]);
    assert_eq!(get(&d, "params.cap").as_f64(), Some(8192.0));
    let big = "x".repeat(100_000);
    assert_eq!(Array::from(&get(&wasm::decode_link(&big).unwrap(), "notices")).length(), 1);
}

#[wasm_bindgen_test]
fn sizes_and_encoding() {
    let defaults = get(&wasm::decode_link("").unwrap(), "params");
    assert_eq!(get(&defaults, "len").as_f64(), Some(1024.0 * 1024.0));
    assert_eq!(get(&defaults, "rs").as_f64(), Some(1.0));
    assert_eq!(wasm::parse_size("8K"), Some(8192.0));
    assert_eq!(wasm::parse_size("eight"), None);
    assert_eq!(wasm::format_size(1048576.0), "1M");
    assert_eq!(wasm::format_size(f64::NAN), "0");
    let encoded = wasm::encode_link(defaults).unwrap();
    assert!(encoded.starts_with("v=1&len=1M&chunk=poor"), "{encoded}");
}

#[wasm_bindgen_test]
fn run_returns_a_write_report_for_the_write_lab() {
    let report = wasm::run("#v=1&lab=write&recs=2K&buf=1K&wlen=64K", false, true, None).map_err(JsValue::from).unwrap();
    assert_eq!(get(&report, "lab").as_string().unwrap(), "write");
    let reference = get(&report, "reference_digest");
    // Cursor<Vec<u8>> finishes with the reference bytes; &mut [u8] stops with WriteZero, no trap.
    assert_eq!(get(&report, "flavours.0.flavour").as_string().unwrap(), "cursor_vec");
    assert_eq!(get(&report, "flavours.0.digest"), reference);
    assert_eq!(get(&report, "flavours.0.allocations").as_f64(), Some(1.0));
    assert_eq!(get(&report, "flavours.6.flavour").as_string().unwrap(), "mut_slice");
    assert_eq!(get(&report, "flavours.6.error.kind").as_string().unwrap(), "WriteZero");
    assert_eq!(get(&report, "flavours.6.bytes").as_f64(), Some(1024.0));
    assert!(get(&report, "flavours.6.cpu_ns").is_null(), "a failed cursor is not timed");
    assert_eq!(get(&report, "sink.0.sink_writes").as_f64(), Some(65536.0 / 16.0));
    assert_eq!(get(&report, "sink.1.sink_writes").as_f64(), Some(8.0));
    assert_eq!(get(&report, "sink.1.digest"), get(&report, "sink_digest"));
    assert!(get(&report, "final_flush.1.reported_by").is_null(), "a dropped BufWriter loses the error");
    assert_eq!(get(&report, "final_flush.2.reported_by").as_string().unwrap(), "flush");

    let err: JsValue = wasm::run("lab=write&recs=0", true, false, None).unwrap_err().into();
    assert!(get(&err, "message").as_string().unwrap().starts_with("link: recs: "));
}

#[wasm_bindgen_test]
fn chained_frames_match_native_counts_with_the_pool_on_and_off() {
    for link in [
        "len=16K&chunk=worst&seed=2&cap=1K&rd=std,chained&wl=frames",
        "len=16K&chunk=worst&seed=2&cap=1K&rd=std,chained&wl=frames&pool=off&streams=3",
    ] {
        let report = wasm::run(link, false, true, None).map_err(JsValue::from).unwrap();
        let native = buflab::run(&buflab::link::decode(link).params, &FixedClock, buflab::engine::clock::Sampling::QUICK).unwrap();
        for (i, run) in native.runs.iter().enumerate() {
            let at = |field: &str| get(&report, &format!("runs.{i}.{field}")).as_f64();
            assert_eq!(at("source_reads"), Some(run.source_reads as f64), "{link}");
            assert_eq!(at("bytes_copied"), Some(run.bytes_copied as f64), "{link}");
            assert_eq!(get(&report, &format!("runs.{i}.digest")), get(&report, "source_digest"));
            if let Some(blocks) = run.blocks {
                // Block counts are the engine's own; allocations come from the
                // counting allocator, which must see them in wasm as well.
                assert_eq!(at("blocks.allocated"), Some(blocks.allocated as f64), "{link}");
                assert_eq!(at("blocks.reused"), Some(blocks.reused as f64), "{link}");
                assert!(at("allocations").unwrap() >= blocks.allocated as f64, "{link}");
            } else {
                assert!(get(&report, &format!("runs.{i}")).is_object());
                assert!(get(&report, &format!("runs.{i}.blocks")).is_undefined());
            }
        }
    }
    assert_eq!(wasm::max_streams(1048576.0, 8192.0), 64.0);
    assert_eq!(wasm::max_streams(f64::NAN, 4194304.0), 16.0);
}

#[wasm_bindgen_test]
fn a_sweep_runs_point_by_point_and_its_knees_come_back() {
    // The worker's round trip: the point count, one point at a time, then the
    // report of the points so far (reports cross back into Rust for the knees).
    let decoded = wasm::decode_link("len=16K&chunk=64-512&cap=8K&rs=1&rd=std&sweep=cap&from=128&to=2K").unwrap();
    let params = get(&decoded, "params");
    let total = wasm::sweep_total(params.clone()).map_err(JsValue::from).unwrap();
    assert_eq!(total, 5);
    let points = Array::new();
    for i in 0..total {
        let point = wasm::sweep_point(params.clone(), i, json(r#"{"quick": true}"#)).map_err(JsValue::from).unwrap();
        assert_eq!(get(&point, "value").as_f64(), Some(f64::from(128 << i)));
        points.push(&point);
    }
    let report = wasm::sweep_report(params.clone(), points.into()).map_err(JsValue::from).unwrap();
    assert_eq!(get(&report, "complete").as_bool(), Some(true));
    assert_eq!(get(&report, "digests_agree").as_bool(), Some(true));
    assert_eq!(get(&report, "knees.0.metric").as_string().unwrap(), "source_reads");
    assert_eq!(get(&report, "knees.0.value").as_f64(), Some(512.0));
    assert!(wasm::sweep_point(params, 5, JsValue::UNDEFINED).is_err(), "past the last point");
}

#[wasm_bindgen_test]
fn a_two_axis_sweeps_points_keep_their_pair_through_the_round_trip() {
    let decoded = wasm::decode_link("len=16K&chunk=64-512&rd=std&sweep=cap,rs&from=256,1&to=1K,2").unwrap();
    let params = get(&decoded, "params");
    assert_eq!(wasm::sweep_total(params.clone()).map_err(JsValue::from).unwrap(), 6);
    let points = Array::new();
    for i in 0..6 {
        let point = wasm::sweep_point(params.clone(), i, json(r#"{"quick": true}"#)).map_err(JsValue::from).unwrap();
        assert_eq!(get(&point, "across").as_f64(), Some(f64::from(1 << (i % 2))));
        points.push(&point);
    }
    let report = wasm::sweep_report(params, points.into()).map_err(JsValue::from).unwrap();
    assert_eq!(get(&report, "total").as_f64(), Some(6.0));
    // One knee per column: the pair came back into Rust intact.
    assert_eq!(get(&report, "knees.0.across").as_f64(), Some(1.0));
    assert_eq!(get(&report, "knees.0.value").as_f64(), Some(512.0));
}

/// A comparison link in, a `Comparison` out: B's exact counts beside A's,
/// and both sides named as measured in this browser.
#[wasm_bindgen_test]
fn compare_runs_a_b_link_and_names_the_browser() {
    let c = wasm::compare("v=1&len=64K&chunk=100&seed=42&cap=8K&rs=1&sys=150&rd=std&wl=fixed&b.cap=64", true, false)
        .map_err(JsValue::from)
        .unwrap();
    assert_eq!(get(&c, "kind").as_string().unwrap(), "compare");
    assert_eq!(get(&c, "timing.kind").as_string().unwrap(), "untimed");
    assert_eq!(get(&c, "changed.0.key").as_string().unwrap(), "cap");
    let reads = get(&c, "readers.0.metrics.0");
    assert_eq!(get(&reads, "metric").as_string().unwrap(), "source_reads");
    // 100-byte chunks through an 8 KiB buffer: 656 reads and the final 0; through 64 bytes, 1024 and the 0.
    assert_eq!((get(&reads, "a").as_f64(), get(&reads, "b").as_f64()), (Some(657.0), Some(1025.0)));
    assert_eq!(get(&reads, "outcome").as_string().unwrap(), "more");
    assert_eq!(get(&c, "b.machine.kind").as_string().unwrap(), "browser");
    assert!(get(&c, "b.machine.user_agent").as_string().is_some_and(|ua| ua.contains("Chrome")));
    // A link without b. keys, or one the codec would correct, is refused.
    for link in ["v=1&cap=8K", "v=1&b.cap=banana"] {
        let err: JsValue = wasm::compare(link, true, false).unwrap_err().into();
        assert!(get(&err, "message").as_string().unwrap().starts_with("link: "), "{link}");
    }
}

/// Untrusted result files come back as errors naming the file and the fault.
#[wasm_bindgen_test]
fn pair_results_names_a_bad_file() {
    let report = wasm::run("len=4K&rd=std", true, false, None).map_err(JsValue::from).unwrap();
    let text = String::from(JSON::stringify(&report).unwrap());
    let c = wasm::pair_results(&text, &text).map_err(JsValue::from).unwrap();
    assert_eq!(get(&c, "timing.kind").as_string().unwrap(), "separate");
    let err: JsValue = wasm::pair_results(&text, &text[..text.len() / 2]).unwrap_err().into();
    assert!(get(&err, "message").as_string().unwrap().starts_with("B: the file ends early"));
}

#[wasm_bindgen_test]
fn playground_offers_the_self_contained_program() {
    let params = get(&wasm::decode_link("v=1&len=64K&rd=unbuffered,std").map_err(JsValue::from).unwrap(), "params");
    let p = wasm::playground(params).map_err(JsValue::from).unwrap();
    assert!(get(&p, "url").as_string().unwrap().starts_with("https://play.rust-lang.org/?version=stable&mode=release&edition=2021&code="));
    assert!(get(&p, "program").as_string().unwrap().contains("fn stream()"));
}

#[wasm_bindgen_test]
fn a_log_is_fed_in_chunks_finished_once_and_replayed() {
    // 2 × 8 KiB of 1-byte reads from a file, then its end; the log split in
    // the middle of a line, and a line that is not strace's.
    let mut log = String::from("hello\n");
    log += "1 openat(AT_FDCWD, \"data.bin\", O_RDONLY) = 3\n";
    for _ in 0..16384 {
        log += "1 read(3, \"x\", 1) = 1\n";
    }
    log += "1 read(3, \"\", 1) = 0\n";
    let bytes = log.as_bytes();
    let mut session = wasm::TraceSession::new();
    let progress = session.feed(&bytes[..100]).map_err(JsValue::from).unwrap();
    assert_eq!(get(&progress, "bytes").as_f64(), Some(100.0));
    session.feed(&bytes[100..]).map_err(JsValue::from).unwrap();
    let report = session.finish(true).map_err(JsValue::from).unwrap();
    assert!(session.feed(b"more").is_err(), "feeding after finish");
    assert!(session.finish(true).is_err(), "finishing twice");
    assert_eq!(get(&report, "kind").as_string().unwrap(), "strace");
    assert_eq!(get(&report, "skipped.lines").as_f64(), Some(1.0));
    assert_eq!(get(&report, "skipped.examples.0.text").as_string().unwrap(), "hello");
    assert_eq!(get(&report, "descriptors.0.path").as_string().unwrap(), "data.bin");
    assert_eq!(get(&report, "descriptors.0.calls").as_f64(), Some(16385.0));
    let replay = session.replay(0, JsValue::UNDEFINED).map_err(JsValue::from).unwrap();
    assert_eq!(get(&replay, "runs.0.reader").as_string().unwrap(), "unbuffered");
    assert_eq!(get(&replay, "runs.0.source_reads").as_f64(), Some(16385.0));
    assert_eq!(get(&replay, "runs.1.reader").as_string().unwrap(), "std");
    assert_eq!(get(&replay, "runs.1.cap").as_f64(), Some(8192.0));
    assert_eq!(get(&replay, "runs.1.source_reads").as_f64(), Some(3.0));
    assert!(get(&replay, "headline").as_string().unwrap().contains("3 source reads through an 8 KiB std BufReader"));
    assert!(get(&replay, "fit.link").as_string().unwrap().contains("chunk=file"));
    let one = session.replay(0, json(r#"{"caps": [16], "readers": ["std"], "sweep": false, "fit": false}"#)).map_err(JsValue::from).unwrap();
    assert_eq!(get(&one, "runs.1.source_reads").as_f64(), Some(1025.0));
    assert!(get(&one, "sweep").is_undefined());
    let err: JsValue = session.replay(0, json(r#"{"caps": [0]}"#)).unwrap_err().into();
    assert!(get(&err, "message").as_string().unwrap().starts_with("cap: "));
    assert!(session.replay(7, JsValue::UNDEFINED).is_err(), "no descriptor 7");
}
