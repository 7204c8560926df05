use super::*;
use crate::model::{Embed, Flavour, LessonId, SysSource, WriteParams, MIB};

fn keys(d: &Decoded) -> Vec<&str> {
    d.notices.iter().map(|n| n.key.as_str()).collect()
}

#[test]
fn default_params_are_valid_and_round_trip() {
    let p = Params::default();
    assert_eq!(p.check(), Ok(()));
    let d = decode(&encode(&p));
    assert_eq!(d.params, p);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
}

#[test]
fn design_example_link_decodes() {
    let d = decode("#v=1&len=1M&chunk=64-512&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.params.len, 1 << 20);
    assert_eq!(d.params.chunk, ChunkModel::Uniform { min: 64, max: 512 });
    assert_eq!(d.params.cap, 8192);
    assert_eq!(d.fragment, "v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed");
}

#[test]
fn bad_values_fall_back_with_a_notice_naming_the_key() {
    let d = decode("v=1&cap=banana&len=-5&rs=0&seed=NaN&rd=nope&wl=x&chunk=zz");
    assert_eq!(keys(&d), ["len", "chunk", "seed", "cap", "rs", "rd", "wl"]);
    let def = Params::default();
    assert_eq!(d.params.cap, def.cap);
    assert_eq!(d.params.len, def.len);
    assert_eq!(d.params.rs, LIMITS.rs.min, "0 clamps up to the minimum");
    assert_eq!(d.params.readers, def.readers);
    assert_eq!(d.params.check(), Ok(()));
}

#[test]
fn out_of_range_values_clamp() {
    let d = decode("len=1G&cap=0&rs=99999999999999999999999&sys=99999999999");
    assert_eq!(d.params.len, LIMITS.len.max);
    assert_eq!(d.params.cap, LIMITS.cap.min);
    assert_eq!(d.params.rs, LIMITS.rs.max);
    assert_eq!(d.params.sys, LIMITS.sys.max);
    assert_eq!(keys(&d), ["len", "cap", "rs", "sys"]);
    assert!(d.notices[0].message.contains("maximum 64M"), "{:?}", d.notices[0]);
    // A value under the range says so, with the minimum it takes.
    assert_eq!(d.notices[1].message, "0 is below the minimum 1; using 1", "{:?}", d.notices[1]);
}

#[test]
fn duplicate_keys_fall_back_to_the_default() {
    let d = decode("cap=4K&cap=16K");
    assert_eq!(d.params.cap, Params::default().cap);
    assert_eq!(keys(&d), ["cap"]);
}

#[test]
fn percent_encoding_and_plus_are_decoded() {
    let d = decode("#rd=unbuffered%2Cstd&chunk=%20100+");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.params.chunk, ChunkModel::Fixed { size: 100 });
}

#[test]
fn whole_urls_and_unknown_keys_are_accepted() {
    let d = decode("https://example.org/buflab/?x=1#v=1&cap=16K&future=yes");
    assert_eq!(keys(&d), ["future"], "the query before # is not the link's");
    assert_eq!(d.params.cap, 16384);
}

/// Issue 49: `CAP=16K` and `cpa=16K` ran `cap=8K` without a word.
#[test]
fn a_mistyped_key_gets_a_notice_naming_the_nearest_known_key_and_the_link_still_runs() {
    for (link, typed, near) in [
        ("v=1&CAP=16K", "CAP", "cap"),
        ("v=1&cpa=16K", "cpa", "cap"),
        ("v=1&Rd=std", "Rd", "rd"),
        ("v=1&chunks=file", "chunks", "chunk"),
        ("v=1&b.cpa=16K", "b.cpa", "b.cap"),
        ("v=1&B.CAP=16K", "B.CAP", "b.cap"),
    ] {
        let d = decode(link);
        assert_eq!(keys(&d), [typed], "{link}: {:?}", d.notices);
        assert_eq!(d.notices[0].message, format!("unknown key '{typed}' ignored; did you mean '{near}'?"));
        assert_eq!(d.params, Params::default(), "{link}: the value is not guessed into the link");
        assert_eq!(d.compare, None, "{link}");
    }
    // One notice per key, however often it is given; known keys still apply.
    let d = decode("cap=4K&cpa=1&cpa=2&rd=std");
    assert_eq!((keys(&d), d.params.cap), (vec!["cpa"], 4096));
}

#[test]
fn reversed_chunk_range_is_swapped() {
    let d = decode("chunk=512-64");
    assert_eq!(d.params.chunk, ChunkModel::Uniform { min: 64, max: 512 });
    assert_eq!(keys(&d), ["chunk"]);
}

/// Half a range is not read as a range from the minimum (or to the
/// default's maximum): the whole value is refused, with one notice.
#[test]
fn a_range_with_one_unreadable_end_is_refused_whole() {
    let def = Params::default();
    for (link, why) in [("chunk=4K-zz", "is not a chunk model"), ("chunk=zz-4K", "is not a chunk model"), ("line=64-zz", "is not a length range"), ("line=zz-1K", "is not a length range")] {
        let d = decode(link);
        assert_eq!((d.params.chunk, d.params.line), (def.chunk, def.line), "{link}");
        assert_eq!(d.notices.len(), 1, "{link}: {:?}", d.notices);
        assert!(d.notices[0].message.contains(why), "{link}: {}", d.notices[0].message);
    }
}

#[test]
fn oversized_links_are_refused_whole() {
    let link = format!("cap=16K&pad={}", "x".repeat(MAX_LINK_BYTES));
    let d = decode(&link);
    assert_eq!(d.params, Params::default());
    assert_eq!(keys(&d), ["link"]);
    // A link of exactly the limit is read.
    let pad = "x".repeat(MAX_LINK_BYTES - "cap=16K&pad=".len());
    let d = decode(&format!("#cap=16K&pad={pad}"));
    assert_eq!((d.params.cap, keys(&d)), (16 * 1024, vec!["pad"]));
}

#[test]
fn a_fragment_over_8_kib_is_refused_as_the_readme_says() {
    // README: "A fragment over 8 KiB is refused" (written out, not MAX_LINK_BYTES).
    let link = |bytes: usize| format!("cap=16K&pad={}", "x".repeat(bytes - "cap=16K&pad=".len()));
    let d = decode(&link(8 * 1024));
    assert_eq!((d.params.cap, keys(&d)), (16 * 1024, vec!["pad"]));
    let d = decode(&link(8 * 1024 + 1));
    assert_eq!((d.params.cap, keys(&d)), (Params::default().cap, vec!["link"]));
}

#[test]
fn reset_gives_defaults() {
    assert_eq!(decode("#reset").params, Params::default());
}

#[test]
fn added_keys_round_trip_and_stay_out_of_default_links() {
    assert!(!encode(&Params::default()).contains("streams"), "{}", encode(&Params::default()));
    let link = "v=1&len=256K&chunk=worst&seed=2&cap=1K&rs=1&sys=150&rd=std,chained&wl=frames\
                &streams=8&pool=off&reuse=on&line=0-4K&frame=1-128&nul=1000";
    let d = decode(link);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.params.streams, 8);
    assert!(!d.params.pool && d.params.reuse);
    assert_eq!(d.params.line, LenRange { min: 0, max: 4096 });
    assert_eq!(d.params.frame, LenRange { min: 1, max: 128 });
    assert_eq!(d.params.nul, 1000);
    assert_eq!(d.fragment, link);
    assert_eq!(decode("frame=100").params.frame, LenRange { min: 100, max: 100 });
    assert_eq!(decode("pool=0&reuse=YES").params.pool, false);
    assert!(decode("pool=0&reuse=YES").params.reuse);
}

#[test]
fn pend_is_a_bounded_percentage_written_only_when_set() {
    assert!(!encode(&Params::default()).contains("pend"));
    let link = "v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=std,tokio,futures&wl=fixed&pend=50";
    let d = decode(link);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.params.pend, 50);
    assert_eq!(d.fragment, link);
    assert_eq!(decode("pend=25%").params.pend, 25, "a percent sign is allowed");
    let d = decode("pend=250");
    assert_eq!((d.params.pend, keys(&d)), (100, vec!["pend"]), "clamped to 100 with a notice");
    let d = decode("pend=often");
    assert_eq!((d.params.pend, keys(&d)), (0, vec!["pend"]));
}

#[test]
fn bad_added_values_fall_back_with_notices_naming_the_key() {
    let d = decode("streams=0&pool=maybe&reuse=2&line=x&frame=2M-1&nul=-1");
    assert_eq!(keys(&d), ["streams", "pool", "reuse", "line", "frame", "frame", "nul"]);
    let def = Params::default();
    assert_eq!(d.params.streams, 1, "0 clamps up to 1");
    assert_eq!((d.params.pool, d.params.reuse, d.params.line, d.params.nul), (def.pool, def.reuse, def.line, def.nul));
    assert_eq!(d.params.frame, LenRange { min: 1, max: MIB }, "clamped, then swapped");
    assert_eq!(d.params.check(), Ok(()));
}

#[test]
fn streams_are_capped_by_the_job_size_with_a_notice() {
    // 1 MiB streams: 64 of them make 64 MiB.
    let d = decode("len=1M&streams=1000");
    assert_eq!(d.params.streams, 64);
    assert_eq!(keys(&d), ["streams"]);
    assert!(d.notices[0].message.contains("at most 64 streams"), "{:?}", d.notices[0]);
    // Large buffers bind first: 4 MiB × 16 = 64 MiB.
    let d = decode("len=1K&cap=4M&streams=1000");
    assert_eq!(d.params.streams, 16);
    assert!(d.notices[0].message.contains("a buffer capacity of 4M allows at most 16"), "{:?}", d.notices[0]);
    assert_eq!(decode("len=64K&cap=8K&streams=1000").params.streams, 1000);
    assert_eq!(max_streams(LIMITS.len.max, LIMITS.cap.max), 1);
    let p = Params { streams: 65, ..Params::default() };
    assert_eq!(p.check().unwrap_err().key, "streams");
}

#[test]
fn json_params_are_checked_strictly() {
    assert!(params_from_json(r#"{"cap": -1}"#).is_err());
    assert!(params_from_json(r#"{"cap": 0}"#).is_err());
    assert!(params_from_json(r#"{"readers": ["nope"]}"#).is_err());
    assert_eq!(params_from_json(r#"{"cap": 4096}"#).unwrap().cap, 4096);
    assert!(params_from_json(r#"{"lab": "sideways"}"#).is_err());
    assert!(params_from_json(r#"{"write": {"flavours": ["nope"]}}"#).is_err());
    let p = params_from_json(r#"{"lab": "write", "write": {"records": 10}}"#).unwrap();
    assert_eq!((p.lab, p.write.records, p.write.buf), (Lab::Write, 10, WriteParams::default().buf));
}

#[test]
fn every_key_of_the_table_is_known_once() {
    let keys: Vec<&str> = known_keys().collect();
    for (i, k) in keys.iter().enumerate() {
        assert!(!keys[..i].contains(k), "{k} twice");
    }
    assert_eq!(keys.len(), 40);
    assert!(DISPLAY_KEYS.iter().all(|k| keys.contains(k)));
}

// ---- the write lab

#[test]
fn read_links_stay_as_they_were_and_lab_write_adds_the_write_keys() {
    assert!(!encode(&Params::default()).contains("lab="), "absent lab means read");
    let d = decode("#v=1&lab=write");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.params.lab, Lab::Write);
    assert_eq!(d.params.write, WriteParams::default());
    assert_eq!(
        d.fragment,
        "v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&lab=write\
         &recs=2K&icap=32K&buf=32K&wf=cursor_vec,cursor_mut_vec,writer_vec,bytes_mut,cursor_mut_slice,cursor_box,mut_slice\
         &wlen=1M&ws=16&wcap=8K&sink=file"
    );
    assert_eq!(decode(&d.fragment).params, d.params);
}

#[test]
fn changed_write_settings_survive_a_switch_back_to_the_read_lab() {
    let p = Params { write: WriteParams { init_cap: 0, ..WriteParams::default() }, ..Params::default() };
    let link = encode(&p);
    assert!(!link.contains("lab="), "{link}");
    assert!(link.contains("&icap=0&"), "{link}");
    assert_eq!(decode(&link).params, p);
}

#[test]
fn write_keys_decode_with_suffixes_and_lists() {
    let d = decode("lab=WRITE&recs=100&icap=0&buf=1K&wf=mut_slice,+bytes_mut&wlen=64K&ws=4K&wcap=1M&sink=worst");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let w = &d.params.write;
    assert_eq!((w.records, w.init_cap, w.buf, w.len, w.ws, w.cap), (100, 0, 1024, 65536, 4096, 1 << 20));
    assert_eq!(w.flavours, [Flavour::MutSlice, Flavour::BytesMut]);
    assert_eq!(w.sink, ChunkModel::preset("worst").unwrap());
}

#[test]
fn bad_write_values_fall_back_with_a_notice_naming_the_key() {
    let d = decode("lab=both&recs=0&icap=lots&buf=99G&wf=nope&wlen=1&ws=0&wcap=x&sink=zz");
    assert_eq!(keys(&d), ["lab", "recs", "icap", "buf", "wf", "wlen", "ws", "wcap", "sink"]);
    let def = WriteParams::default();
    let w = &d.params.write;
    assert_eq!(d.params.lab, Lab::Read);
    assert_eq!(w.records, LIMITS.records.min);
    assert_eq!(w.init_cap, def.init_cap);
    assert_eq!(w.buf, LIMITS.buf.max);
    assert_eq!(w.flavours, def.flavours);
    assert_eq!(w.len, LIMITS.wlen.min);
    assert_eq!(w.ws, LIMITS.ws.min);
    assert_eq!(w.cap, def.cap);
    assert_eq!(w.sink, def.sink);
    assert!(d.notices.last().unwrap().message.contains("not a chunk model"));
    assert_eq!(d.params.check(), Ok(()));
}

#[test]
fn unknown_flavours_are_named_and_the_rest_kept() {
    let d = decode("wf=writer_vec,Cursor<Vec>,writer_vec");
    assert_eq!(d.params.write.flavours, [Flavour::WriterVec]);
    assert_eq!(keys(&d), ["wf"]);
    assert!(d.notices[0].message.contains("Cursor<Vec>"), "{:?}", d.notices);
}

#[test]
fn lesson_key_round_trips_and_unknown_lessons_are_named() {
    let d = decode("v=1&len=64K&lesson=one-byte");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.params.lesson, Some(LessonId::OneByte));
    assert!(d.fragment.ends_with("&lesson=one-byte"), "{}", d.fragment);
    assert_eq!(decode(&d.fragment).params, d.params);
    assert_eq!(decode("lesson=%20Cursors%20").params.lesson, Some(LessonId::Cursors));
    for bad in ["nope", "", "<b>x</b>", "one-byte,cursors"] {
        let d = decode(&format!("len=64K&lesson={bad}"));
        assert_eq!(keys(&d), ["lesson"], "{bad:?}");
        assert!(d.notices[0].message.contains("not a lesson"), "{:?}", d.notices[0]);
        assert_eq!(d.params, decode("len=64K").params, "the rest of the link still applies");
    }
    assert!(!encode(&Params::default()).contains("lesson"));
    assert_eq!(params_from_json(r#"{"lesson": "no-help"}"#).unwrap().lesson, Some(LessonId::NoHelp));
    assert!(params_from_json(r#"{"lesson": "nope"}"#).is_err());
}

#[test]
fn display_keys_change_no_part_of_the_experiment() {
    let plain = decode("v=1&cap=16K&rs=4");
    let shown = decode("v=1&cap=16K&rs=4&present=on&view=timeline&step=33&lesson=one-byte&syssrc=opfs&embed=reads&predict=on");
    assert!(shown.notices.is_empty(), "{:?}", shown.notices);
    assert_ne!(plain.params, shown.params);
    // With the display keys' fields reset, the two are the same experiment.
    assert_eq!(shown.params.experiment(), plain.params);
    let swept = decode("v=1&cap=16K&rs=4&view=sweep&sweep=cap&from=1K&to=64K");
    assert_eq!(swept.params.experiment(), plain.params, "a sweep's single run is the experiment");
    assert_eq!(DISPLAY_KEYS, [key::PRESENT, key::VIEW, key::STEP, key::LESSON, key::SYS_SOURCE, key::EMBED, key::PREDICT, key::QUIZ, key::QUIZ_SEED]);
}

#[test]
fn embed_round_trips_drops_unknown_charts_and_stays_out_of_default_links() {
    assert!(!encode(&Params::default()).contains("embed"));
    let d = decode("v=1&cap=16K&embed=reads,TIME,reads");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.params.embed, [Embed::Reads, Embed::Time]);
    let link = encode(&d.params);
    assert!(link.ends_with("&embed=reads,time"), "{link}");
    assert_eq!(decode(&link).params, d.params);
    // An unknown chart is dropped with a notice naming the key; none known: the whole page.
    let d = decode("v=1&embed=reads,<b>pie</b>");
    assert_eq!(d.params.embed, [Embed::Reads]);
    assert_eq!(d.notices.len(), 1);
    assert_eq!(d.notices[0].key, "embed");
    assert!(d.notices[0].message.contains("known: reads, time, copied, allocs, sweep, write, reallocs, timeline"), "{:?}", d.notices);
    let d = decode("v=1&embed=pie");
    assert!(d.params.embed.is_empty());
    assert!(d.notices[0].message.ends_with("using none"), "{:?}", d.notices);
}

#[test]
fn presenter_mode_round_trips_and_stays_out_of_default_links() {
    assert!(!encode(&Params::default()).contains("present"));
    let d = decode("v=1&cap=16K&present=on");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert!(d.params.present);
    assert!(d.fragment.ends_with("&present=on"), "{}", d.fragment);
    assert_eq!(decode(&d.fragment).params, d.params);
    assert!(!decode("present=off").params.present);
    assert!(decode("lab=write&present=YES").params.present);
    let bad = decode("present=big");
    assert_eq!(keys(&bad), ["present"]);
    assert!(!bad.params.present);
    assert!(bad.notices[0].message.contains("not on or off"), "{:?}", bad.notices);
    assert!(params_from_json(r#"{"present": true}"#).unwrap().present);
}

#[test]
fn the_timeline_step_round_trips_is_clamped_to_the_recorded_steps_and_stays_out_of_default_links() {
    assert!(!encode(&Params::default()).contains("step"));
    let d = decode("v=1&cap=256&rs=8&view=timeline&step=33");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.params.step, 33);
    assert!(d.fragment.ends_with("&view=timeline&step=33"), "{}", d.fragment);
    assert_eq!(decode(&d.fragment).params, d.params, "it survives a reload");
    // Step 1 is the first, written by no link.
    assert!(!decode("v=1&step=1").fragment.contains("step"));
    // Past the recorded steps: clamped, with a notice naming the key.
    let past = decode("v=1&view=timeline&step=5000");
    assert_eq!(keys(&past), ["step"]);
    assert_eq!(past.params.step, crate::model::TIMELINE_OPS);
    let zero = decode("v=1&step=0");
    assert_eq!((keys(&zero), zero.params.step), (vec!["step"], 1));
    let bad = decode("v=1&step=later");
    assert_eq!((keys(&bad), bad.params.step), (vec!["step"], 1));
    // A display key: the step never changes a result.
    assert!(crate::link::DISPLAY_KEYS.contains(&"step"));
    assert!(Params { step: 101, ..Params::default() }.check().is_err());
}

#[test]
fn predict_round_trips_and_stays_out_of_default_links() {
    assert!(!encode(&Params::default()).contains("predict"));
    let d = decode("v=1&cap=16K&present=on&predict=on");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert!(d.params.predict && d.params.present);
    assert!(d.fragment.ends_with("&predict=on"), "{}", d.fragment);
    assert_eq!(decode(&d.fragment).params, d.params);
    let bad = decode("predict=later");
    assert_eq!(keys(&bad), ["predict"]);
    assert!(!bad.params.predict);
}

#[test]
fn the_quiz_and_its_seed_round_trip_stay_out_of_default_links_and_bad_values_get_a_notice() {
    assert!(!encode(&Params::default()).contains("quiz"));
    let d = decode("v=1&cap=16K&quiz=on&qseed=7");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert!(d.params.quiz);
    assert_eq!(d.params.qseed, 7);
    assert!(d.fragment.ends_with("&quiz=on&qseed=7"), "{}", d.fragment);
    assert_eq!(decode(&d.fragment).params, d.params);
    assert_eq!(d.params.experiment(), decode("v=1&cap=16K").params, "the quiz never changes a result");
    let bad = decode("quiz=soon&qseed=x");
    assert_eq!(keys(&bad), ["quiz", "qseed"]);
    assert!(!bad.params.quiz);
    assert_eq!(bad.params.qseed, Params::default().qseed);
}

#[test]
fn the_view_is_implied_by_the_sweep_and_written_only_when_it_differs() {
    // Links without `view` keep their form and meaning: no sweep opens the
    // single run, a sweep opens the sweep.
    assert_eq!(decode("v=1&cap=16K").params.view, View::Run);
    let sweep = decode("v=1&sweep=cap&from=16&to=64K");
    assert_eq!(sweep.params.view, View::Sweep);
    assert!(!sweep.fragment.contains("view="), "{}", sweep.fragment);
    assert!(!encode(&Params::default()).contains("view"));
    // Another view is written, and read back.
    for (link, view) in [("v=1&view=timeline", View::Timeline), ("v=1&sweep=cap&view=run", View::Run), ("v=1&view=sweep", View::Sweep)] {
        let d = decode(link);
        assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
        assert_eq!(d.params.view, view, "{link}");
        assert!(d.fragment.contains(&format!("view={}", view.id())), "{}", d.fragment);
        assert_eq!(decode(&d.fragment).params, d.params);
    }
    // A view the link implies is not repeated.
    assert!(!decode("v=1&sweep=cap&view=sweep").fragment.contains("view="));
    // An unknown view is named and the implied one is used.
    let bad = decode("v=1&sweep=rs&view=%3Cb%3Ebig");
    assert_eq!(keys(&bad), ["view"]);
    assert_eq!(bad.params.view, View::Sweep);
    assert!(bad.notices[0].message.contains("not a view"), "{:?}", bad.notices);
}

#[test]
fn a_link_with_no_known_key_says_so() {
    for link in ["#%%%%&&&===", "#lessons", "foo=1&bar", "#&&&"] {
        let d = decode(link);
        assert_eq!(keys(&d), ["link"], "{link}");
        assert!(d.notices[0].message.contains("no known key"), "{:?}", d.notices);
        assert_eq!(d.params, Params::default(), "{link}");
    }
    // Empty links and `reset` are the defaults, without a word.
    for link in ["", "#", "reset"] {
        assert!(decode(link).notices.is_empty(), "{link}: {:?}", decode(link).notices);
    }
    // Unknown keys beside known ones are ignored, each with a notice.
    for (link, unknown) in [("v=1&future=yes", "future"), ("cap=16K&x=%%", "x")] {
        let d = decode(link);
        assert_eq!(keys(&d), [unknown], "{link}");
        assert!(d.notices[0].message.ends_with("ignored: not a BufLab setting"), "{:?}", d.notices);
    }
}

#[test]
fn sys_source_follows_sys_and_stays_out_of_hand_set_links() {
    assert!(!encode(&Params::default()).contains("syssrc"), "a hand-set sys keeps old links' form");
    let d = decode("v=1&sys=212000&syssrc=opfs&rd=unbuffered");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!((d.params.sys, d.params.sys_source), (212_000, SysSource::Opfs));
    assert!(d.fragment.contains("&sys=212000&syssrc=opfs&rd="), "{}", d.fragment);
    assert_eq!(decode(&d.fragment).params, d.params);
    for (raw, want) in [("TCP", SysSource::Tcp), ("file", SysSource::File), ("pipe", SysSource::Pipe), ("manual", SysSource::Manual)] {
        assert_eq!(decode(&format!("syssrc={raw}")).params.sys_source, want, "{raw}");
    }
    let bad = decode("sys=300&syssrc=guess");
    assert_eq!(keys(&bad), ["syssrc"]);
    assert_eq!((bad.params.sys, bad.params.sys_source), (300, SysSource::Manual), "sys itself still applies");
    assert!(bad.notices[0].message.contains("not a sys source"), "{:?}", bad.notices);
    assert_eq!(params_from_json(r#"{"sys_source": "opfs"}"#).unwrap().sys_source, SysSource::Opfs);
    assert!(params_from_json(r#"{"sys_source": "guess"}"#).is_err());
}

// The page sends the worker canonical links (wasm `run` takes a link, not
// params): whatever a link decodes to must come back from its canonical form
// as the same params, with nothing left to correct. (proptest is a native
// dev-dependency only.)
#[cfg(not(target_arch = "wasm32"))]
mod canonical {
    use super::*;
    use proptest::prelude::*;

    /// A value for each key, valid or not (out of range, unknown, malformed).
    pub(super) fn pair() -> impl Strategy<Value = String> {
        let values: &[(&str, &[&str])] = &[
            ("len", &["1", "1K", "64K", "1M", "0", "999T", "x"]),
            ("chunk", &["file", "poor", "1-7", "64-512", "0-0", "9-3"]),
            ("seed", &["0", "42", "-1"]),
            ("cap", &["0", "1", "64", "8K", "1M"]),
            ("rs", &["1", "3", "64", "64K", "banana"]),
            ("sys", &["0", "150", "99999999"]),
            ("pend", &["0", "3"]),
            ("syssrc", &["opfs", "native", "x"]),
            ("rd", &["std", "unbuffered,std,chained,tokio,futures", "nope", ""]),
            ("wl", &["fixed", "exact", "bytes", "to_end", "lines", "frames", "scan", "x"]),
            ("streams", &["1", "4", "64", "0"]),
            ("pool", &["0", "4"]),
            ("reuse", &["1", "0"]),
            ("line", &["16", "80"]),
            ("frame", &["64", "4K"]),
            ("nul", &["64"]),
            ("present", &["1"]),
            ("predict", &["1", "maybe"]),
            ("quiz", &["1", "later"]),
            ("lab", &["read", "write", "x"]),
            ("recs", &["1", "512", "0"]),
            ("icap", &["0", "1K"]),
            ("buf", &["512", "1K"]),
            ("wf", &["cursor_vec,writer_vec,bytes_mut,mut_slice", "x"]),
            ("wlen", &["64K", "1"]),
            ("ws", &["16", "1"]),
            ("wcap", &["8K", "0"]),
            ("sink", &["poor", "file"]),
            ("sweep", &["cap", "rs", "cap,rs", "x"]),
            ("from", &["64", "1", "64,1"]),
            ("to", &["1K", "8", "1K,8"]),
            ("view", &["run", "timeline", "sweep", "x"]),
            ("step", &["1", "33", "100", "0", "101", "x"]),
            ("embed", &["reads,time", "sweep", "x"]),
            ("lesson", &["1", "x"]),
        ];
        proptest::sample::select(values).prop_flat_map(|(key, vals)| {
            proptest::sample::select(vals).prop_map(move |v| format!("{key}={v}"))
        })
    }

    /// A value near either limit of `b` (where off-by-one and doubled limits
    /// show) or anywhere in u64.
    fn near_limits(b: Bounds) -> impl Strategy<Value = u64> {
        prop_oneof![
            b.min.saturating_sub(3)..=b.min.saturating_add(3),
            b.max.saturating_sub(3)..=b.max.saturating_add(3),
            b.max..=b.max.saturating_mul(4),
            any::<u64>(),
        ]
    }

    proptest! {
        /// Every numeric key, any value: clamped to its limits, with a notice
        /// exactly when it was changed, whether written as bytes or with a
        /// suffix.
        #[test]
        fn every_numeric_key_is_clamped_to_its_limits(
            (i, v) in (0..numeric_keys().len()).prop_flat_map(|i| (Just(i), near_limits(numeric_keys()[i].bounds))),
            suffixed in any::<bool>(),
        ) {
            let k = &numeric_keys()[i];
            let raw = match k.form {
                Form::Size if suffixed => format_size(v),
                _ => v.to_string(),
            };
            prop_assert_eq!(assert_clamped(k, v, &raw), Ok(()));
        }

        #[test]
        fn every_decoded_link_is_run_as_it_was_decoded(pairs in proptest::collection::vec(pair(), 0..10)) {
            let d = decode(&pairs.join("&"));
            prop_assert_eq!(params_of(&d.fragment), Ok(d.params.clone()));
            prop_assert_eq!(params_of(&encode(&d.params)), Ok(d.params));
        }
    }
}

/// How a numeric key's value is written in a link.
#[derive(Clone, Copy, Debug)]
enum Form {
    /// A size: bytes, or with a K/M/G suffix.
    Size,
    /// A plain whole number.
    Count,
}

/// One numeric key: its bounds and where its value lands in the params
/// (`line` and `frame` given as one length `k`, meaning `k-k`; `chunk` and
/// `sink` as one fixed size).
struct Numeric {
    key: &'static str,
    bounds: Bounds,
    form: Form,
    value: fn(&Params) -> u64,
}

fn fixed_size(c: ChunkModel) -> u64 {
    match c {
        ChunkModel::Fixed { size } => size as u64,
        other => panic!("not a fixed chunk size: {other:?}"),
    }
}

fn single_length(r: LenRange) -> u64 {
    assert_eq!(r.min, r.max, "one length k is the range k-k");
    r.min
}

/// Every numeric key of the table (the sweep's `from` and `to` are tested on
/// their own: they are rounded to powers of two).
fn numeric_keys() -> Vec<Numeric> {
    use Form::*;
    let n = |key, bounds, form, value| Numeric { key, bounds, form, value };
    vec![
        n(key::LEN, LIMITS.len, Size, |p| p.len),
        n(key::CHUNK, LIMITS.chunk, Size, |p| fixed_size(p.chunk)),
        n(key::SEED, LIMITS.seed, Count, |p| p.seed),
        n(key::CAP, LIMITS.cap, Size, |p| p.cap),
        n(key::READ_SIZE, LIMITS.rs, Size, |p| p.rs),
        n(key::SYS, LIMITS.sys, Count, |p| p.sys),
        n(key::SYS_KIB, LIMITS.sys_kib, Count, |p| p.sys_kib),
        n(key::WORK, LIMITS.work, Count, |p| p.work),
        n(key::STREAMS, LIMITS.streams, Count, |p| p.streams),
        n(key::LINE, LIMITS.line, Size, |p| single_length(p.line)),
        n(key::FRAME, LIMITS.frame, Size, |p| single_length(p.frame)),
        n(key::NUL, LIMITS.nul, Size, |p| p.nul),
        n(key::PEND, LIMITS.pend, Count, |p| p.pend),
        n(key::STEP, LIMITS.step, Count, |p| p.step),
        n(key::QUIZ_SEED, LIMITS.qseed, Count, |p| p.qseed),
        n(key::RECORDS, LIMITS.records, Size, |p| p.write.records),
        n(key::INIT_CAP, LIMITS.init_cap, Size, |p| p.write.init_cap),
        n(key::FIXED_BUF, LIMITS.buf, Size, |p| p.write.buf),
        n(key::WRITE_LEN, LIMITS.wlen, Size, |p| p.write.len),
        n(key::WRITE_SIZE, LIMITS.ws, Size, |p| p.write.ws),
        n(key::WRITE_CAP, LIMITS.wcap, Size, |p| p.write.cap),
        n(key::SINK, LIMITS.chunk, Size, |p| fixed_size(p.write.sink)),
    ]
}

/// Decodes `key=v` alone and checks it against `bounds`: the value used is
/// `v` clamped (streams further capped by the job-size rule at the default
/// `len` and `cap`), notices, each naming the key, exactly when `v` was changed, and
/// the params pass the strict check.
fn assert_clamped(k: &Numeric, v: u64, raw: &str) -> Result<(), String> {
    let d = decode(&format!("{}={raw}", k.key));
    let mut expected = k.bounds.clamp(v);
    if k.key == key::STREAMS {
        let def = Params::default();
        expected = expected.min(max_streams(def.len, def.cap));
    }
    let got = (k.value)(&d.params);
    let noticed = !d.notices.is_empty() && d.notices.iter().all(|n| n.key == k.key);
    if got != expected || noticed != (expected != v) || (expected == v && !d.notices.is_empty()) || d.params.check().is_err() {
        return Err(format!("{}={raw} ({v}): got {got}, want {expected}; notices {:?}", k.key, d.notices));
    }
    Ok(())
}

#[test]
fn every_numeric_key_clamps_above_its_maximum_and_below_its_minimum() {
    for k in numeric_keys() {
        let Bounds { min, max } = k.bounds;
        let mut values = vec![min, max, max + 1, max.saturating_mul(2), u64::MAX];
        if min > 0 {
            values.extend([min - 1, 0]);
        }
        for v in values {
            assert_clamped(&k, v, &v.to_string()).unwrap();
            if let Form::Size = k.form {
                assert_clamped(&k, v, &format_size(v)).unwrap();
            }
        }
        // The notice says which limit and what was used.
        let above = decode(&format!("{}={}", k.key, max.saturating_mul(2)));
        assert!(
            above.notices[0].message.contains(&max.to_string()) || above.notices[0].message.contains(&format_size(max)),
            "{:?}",
            above.notices
        );
    }
}

#[test]
fn every_link_key_is_numeric_tested_or_named_as_not_numeric() {
    let numeric: Vec<&str> = numeric_keys().iter().map(|k| k.key).collect();
    let not_numeric = [
        key::VERSION,
        key::SYS_SOURCE,
        key::READERS,
        key::WORKLOAD,
        key::POOL,
        key::REUSE,
        key::PRESENT,
        key::PREDICT,
        key::QUIZ,
        key::LAB,
        key::FLAVOURS,
        key::SWEEP,
        key::FROM,
        key::TO,
        key::VIEW,
        key::EMBED,
        key::LESSON,
        // A size with `off` (0) besides its range: `a_rate_is_a_size_per_second_or_off`.
        key::RATE,
    ];
    for name in known_keys() {
        assert!(
            numeric.contains(&name) != not_numeric.contains(&name),
            "{name}: add it to numeric_keys() (with its limit) or to the keys that are not numbers"
        );
    }
}

#[test]
fn sweep_ends_clamp_to_the_axis_powers_of_two() {
    let cap = SweepAxis::Cap.bounds();
    let d = decode(&format!("sweep=cap&from=0&to={}", cap.max * 2));
    let s = d.params.sweep.unwrap();
    assert_eq!((s.from, s.to), (cap.min, cap.max), "{:?}", d.notices);
    assert_eq!(keys(&d), ["from", "to"]);
    let streams = SweepAxis::Streams.bounds();
    let d = decode("sweep=streams&len=1K&cap=1&from=1&to=1000");
    assert_eq!(d.params.sweep.unwrap().to, streams.max, "{:?}", d.notices);
    assert_eq!(d.params.check(), Ok(()));
}

#[test]
fn sweep_ends_round_to_the_nearest_power_of_two_a_tie_going_down() {
    // 100 lies 36 above 64 and 28 below 128; 3000 lies 952 above 2K and 1096 below 4K; 3K lies 1K from both.
    for (raw, to) in [("100", 128), ("3000", 2048), ("3K", 2048), ("5K", 4096), ("7K", 8192), ("1000", 1024)] {
        let d = decode(&format!("sweep=cap&from=16&to={raw}"));
        assert_eq!(d.params.sweep.unwrap().to, to, "{raw}");
        assert_eq!(d.notices.len(), 1, "{raw}: {:?}", d.notices);
        assert_eq!(d.notices[0].message, format!("{} is not a power of two; using {}", format_size(crate::model::parse_size(raw).unwrap().unwrap()), format_size(to)));
    }
}

/// A decoder bug that let a value past its limit would reach the engine in
/// a release build if nothing checked the result: `finish` refuses it.
#[test]
fn params_that_fail_the_check_are_never_returned() {
    let bad = Params { cap: LIMITS.cap.max * 2, ..Params::default() };
    let d = finish(bad, Decoder::new(Params::default()));
    assert_eq!(d.params, Params::default());
    assert_eq!(keys(&d), ["cap"]);
    assert!(d.notices[0].message.contains("using defaults"), "{:?}", d.notices);
}

#[test]
fn a_grid_past_the_job_size_is_cut_on_its_second_axis_first() {
    // The last point, cap = 8K with 512 streams of 1M, is past the job-size
    // rule (64 streams at most): the streams axis is cut to 64 and the cap
    // axis is kept whole.
    let d = decode("sweep=cap,streams&from=1K,1&to=8K,512");
    let s = d.params.sweep.unwrap();
    assert_eq!((s.from, s.to), (1024, 8192), "{:?}", d.notices);
    let a = s.across.unwrap();
    assert_eq!((a.axis, a.from, a.to), (SweepAxis::Streams, 1, 64), "{:?}", d.notices);
    assert_eq!(keys(&d), ["to"]);
    assert!(d.notices[0].message.starts_with("12 points past cap = 8K, streams = 64 dropped"), "{:?}", d.notices);
}

/// Two axes, each with both ends; a third axis is dropped, and an axis named
/// twice is swept alone, each with a notice naming `sweep`.
#[test]
fn a_sweep_has_one_or_two_axes_each_with_its_own_ends() {
    let d = decode("sweep=cap,rs&from=16,2&to=1K,8");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let s = d.params.sweep.unwrap();
    assert_eq!((s.axis, s.from, s.to), (SweepAxis::Cap, 16, 1024));
    assert_eq!(s.across, Some(Across { axis: SweepAxis::Rs, from: 2, to: 8 }));
    let d = decode("sweep=cap,rs,len&from=16,2&to=1K,8");
    assert_eq!(d.params.sweep.unwrap().across.map(|a| a.axis), Some(SweepAxis::Rs));
    assert_eq!(keys(&d), ["sweep"]);
    assert!(d.notices[0].message.ends_with("a sweep has one or two axes; using the first two"), "{:?}", d.notices);
    let d = decode("sweep=cap,cap");
    assert_eq!(d.params.sweep, Some(Sweep::one(SweepAxis::Cap, 16, 64 * 1024)));
    assert_eq!(keys(&d), ["sweep"]);
    assert_eq!(d.notices[0].message, "cap twice; sweeping it alone");
    // `off` is no sweep, without a word.
    let d = decode("sweep=off");
    assert_eq!((d.params.sweep, d.notices.len()), (None, 0), "{:?}", d.notices);
}

/// `from` and `to` give one end per axis: an empty part keeps that axis'
/// end without a word; a second part on one axis is ignored with a notice
/// (an empty one silently).
#[test]
fn sweep_ends_give_one_part_per_axis() {
    let d = decode("sweep=cap,rs&from=64,&to=1K,8");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let s = d.params.sweep.unwrap();
    assert_eq!((s.from, s.across.unwrap().from), (64, SweepAxis::Rs.default_range().0));
    let d = decode("sweep=cap&from=64,2");
    assert_eq!(d.params.sweep.unwrap().from, 64);
    assert_eq!(keys(&d), ["from"]);
    assert_eq!(d.notices[0].message, "'2' ignored: the sweep has one axis");
    let d = decode("sweep=cap&from=64,");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.params.sweep.unwrap().from, 64);
}

/// A reversed range is swapped, on either axis, with a notice naming
/// `from`; a range of one point is no reversed range.
#[test]
fn reversed_sweep_ranges_are_swapped_and_one_point_ranges_kept() {
    let d = decode("sweep=rs&from=1K&to=16");
    assert_eq!(d.params.sweep, Some(Sweep::one(SweepAxis::Rs, 16, 1024)));
    assert_eq!(keys(&d), ["from"]);
    assert_eq!(d.notices[0].message, "from 1K is above to 16; swapped");
    let d = decode("sweep=cap,rs&from=16,8&to=1K,2");
    assert_eq!(d.params.sweep.unwrap().across, Some(Across { axis: SweepAxis::Rs, from: 2, to: 8 }));
    assert_eq!(keys(&d), ["from"]);
    assert_eq!(d.notices[0].message, "rs from 8 is above to 2; swapped");
    for link in ["sweep=rs&from=1K&to=1K", "sweep=cap,rs&from=16,8&to=1K,8"] {
        let d = decode(link);
        assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
    }
    assert_eq!(decode("sweep=rs&from=1K&to=1K").params.sweep, Some(Sweep::one(SweepAxis::Rs, 1024, 1024)));
}

/// A sweep of more than MAX_SWEEP_POINTS points is cut at `to`; a grid of
/// more than MAX_GRID_POINTS at its second axis' `to`: exactly at the limit,
/// nothing is cut.
#[test]
fn sweeps_and_grids_are_cut_at_their_point_limits_and_kept_at_them() {
    // 1..64M is 27 points: the 24th is 8M.
    let d = decode("sweep=chunk&from=1&to=64M");
    assert_eq!(d.params.sweep, Some(Sweep::one(SweepAxis::Chunk, 1, 8 * MIB)), "{:?}", d.notices);
    assert_eq!(keys(&d), ["to"]);
    assert_eq!(d.notices[0].message, "27 points is too many (at most 24); using to = 8M");
    let d = decode("sweep=chunk&from=2&to=16M");
    assert!(d.notices.is_empty(), "24 points: {:?}", d.notices);
    assert_eq!(d.params.sweep.unwrap().to, 16 * MIB);
    // 13 capacities (16..64K) leave 64 / 13 = 4 points to the second axis: 1..8.
    let d = decode("sweep=cap,rs");
    let s = d.params.sweep.unwrap();
    assert_eq!((s.from, s.to), (16, 64 * 1024));
    assert_eq!(s.across, Some(Across { axis: SweepAxis::Rs, from: 1, to: 8 }), "{:?}", d.notices);
    assert_eq!(keys(&d), ["to"]);
    assert_eq!(d.notices[0].message, "13 × 17 points is too many (at most 24 per axis, 64 in all); using rs to = 8");
    let d = decode("sweep=cap,rs&from=16,2&to=64K,16");
    assert!(d.notices.is_empty(), "13 × 4 points: {:?}", d.notices);
    assert_eq!(d.params.sweep.unwrap().across.unwrap().to, 16);
}



/// A grid whose second axis, cut down to its `from`, still breaks the
/// job-size rule is cut on its first axis too; one that breaks it even at
/// the first axis' least value is refused whole, naming that point.
#[test]
fn a_grid_past_the_job_size_at_its_second_axis_from_is_cut_on_its_first_axis() {
    // 32 streams of 4M make 128M: the streams stay 32..32 and the lengths stop at 2M.
    let d = decode("sweep=len,streams&from=16K,32&to=4M,64");
    let s = d.params.sweep.unwrap();
    assert_eq!((s.from, s.to), (16 * 1024, 2 * MIB), "{:?}", d.notices);
    assert_eq!(s.across, Some(Across { axis: SweepAxis::Streams, from: 32, to: 32 }));
    assert_eq!(keys(&d), ["to"]);
    assert!(d.notices[0].message.starts_with("10 points past len = 2M, streams = 32 dropped"), "{:?}", d.notices);
    // 128 streams of 1M break it at any capacity.
    let d = decode("len=1M&sweep=cap,streams&from=1K,128&to=8K,512");
    assert_eq!(d.params, Params { len: MIB, ..Params::default() });
    assert_eq!(keys(&d), ["to", "to"]);
    assert!(d.notices[1].message.starts_with("the point cap = 1, streams = 128: "), "{:?}", d.notices);
}

/// The params of a canonical link are taken as they are; a link the codec
/// would have to correct is refused with its first notice.
#[test]
fn params_of_takes_a_canonical_link_and_refuses_one_that_needs_a_correction() {
    let p = Params { cap: 16 * 1024, ..Params::default() };
    assert_eq!(params_of(&encode(&p)), Ok(p));
    let e = params_of("v=1&cap=banana").unwrap_err();
    assert_eq!(e.key, "link");
    assert!(e.message.starts_with("cap: "), "{e:?}");
}

#[test]
fn fit_sweep_fits_a_sweep_to_the_rest_of_the_params() {
    // Valid but for the sweep: 512 streams of 1M are past the job size.
    let p = Params { sweep: Some(Sweep::one(SweepAxis::Streams, 1, 512)), ..Params::default() };
    assert_eq!(p.check().unwrap_err().key, "to");
    let d = fit_sweep(&p).unwrap();
    assert_eq!(d.params.sweep, Some(Sweep::one(SweepAxis::Streams, 1, 64)));
    assert_eq!(keys(&d), ["to"]);
    // Anything else invalid is refused.
    assert_eq!(fit_sweep(&Params { cap: 0, ..p }).unwrap_err().key, "cap");
}

#[test]
fn a_rate_is_a_size_per_second_or_off() {
    for (raw, rate) in [("4M", 4 << 20), ("4M/s", 4 << 20), ("64K", 64 << 10), ("off", 0), ("0", 0), ("OFF", 0)] {
        let d = decode(&format!("rate={raw}"));
        assert!(d.notices.is_empty(), "{raw}: {:?}", d.notices);
        assert_eq!(d.params.rate, rate, "{raw}");
    }
    // Below the least rate: clamped up, with a notice; above the most, down.
    let d = decode("rate=512");
    assert_eq!((d.params.rate, keys(&d)), (LIMITS.rate.min, vec!["rate"]));
    let d = decode("rate=1000G");
    assert_eq!((d.params.rate, keys(&d)), (LIMITS.rate.max, vec!["rate"]));
    // Unreadable: off, with a notice.
    let d = decode("rate=fast");
    assert_eq!((d.params.rate, keys(&d)), (0, vec!["rate"]));
    assert!(d.notices[0].message.contains("off"), "{:?}", d.notices);
    // Written only when set, so links without it keep their form and meaning.
    assert!(!encode(&Params::default()).contains("rate="));
    let p = Params { rate: 3 << 20, work: 200, sys_kib: 40, ..Params::default() };
    let link = encode(&p);
    assert!(link.contains("&rate=3M") && link.contains("&work=200") && link.contains("&syskib=40"), "{link}");
    assert_eq!(decode(&link).params, p);
}

// ---------------------------------------------------------------------------
// Comparison links: B as `b.` keys over A (`compare.rs`)

mod comparison {
    use super::*;
    use crate::model::Changed;

    /// A key's value in `p` as the key table writes it.
    fn value_of(name: &str, p: &Params) -> Option<String> {
        (KEYS.iter().find(|k| k.name == name).unwrap().value)(p)
    }

    fn b_keys(d: &Decoded) -> Vec<String> {
        d.notices.iter().map(|n| n.key.clone()).collect()
    }

    #[test]
    fn the_design_example_compares_two_capacities() {
        let d = decode("#v=1&len=1M&chunk=poor&cap=8K&rs=1&rd=std&b.cap=64K");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert_eq!(d.params.cap, 8 * 1024);
        let b = d.compare.expect("a comparison");
        assert_eq!(b.params, Params { cap: 64 * 1024, ..d.params.clone() });
        assert_eq!(b.changed, [Changed { key: "cap".into(), a: Some("8K".into()), b: Some("64K".into()) }]);
        assert_eq!(b.fragment, format!("{}&b.cap=64K", d.fragment));
        assert_eq!(d.fragment, encode(&d.params), "A's fragment is A's alone");
        // A link without `b.` keys is no comparison.
        assert_eq!(decode("v=1&cap=8K").compare, None);
    }

    /// Every numeric key B may set, at and past its limits: `b.key=v` gives
    /// B the value `key=v` gives A, with the same notices, named `b.key`.
    #[test]
    fn b_keys_clamp_and_fall_back_as_the_keys_themselves_do_at_every_limit() {
        for k in numeric_keys().into_iter().filter(|k| comparable(k.key)) {
            let Bounds { min, max } = k.bounds;
            let mut raws: Vec<String> =
                [min, max, max + 1, max.saturating_mul(2), u64::MAX].iter().map(u64::to_string).collect();
            if min > 0 {
                raws.extend([(min - 1).to_string(), "0".to_string()]);
            }
            raws.extend(["banana".to_string(), "-1".to_string(), format_size(max)]);
            for raw in raws {
                let a = decode(&format!("{}={raw}", k.key));
                let d = decode(&format!("b.{}={raw}", k.key));
                let b = d.compare.unwrap_or_else(|| panic!("b.{}={raw} is a comparison", k.key));
                assert_eq!(value_of(k.key, &b.params), value_of(k.key, &a.params), "b.{}={raw}", k.key);
                assert_eq!(d.params, Params::default(), "A keeps its defaults: b.{}={raw}", k.key);
                let prefixed: Vec<(String, String)> =
                    a.notices.iter().map(|n| (format!("b.{}", n.key), n.message.clone())).collect();
                let got: Vec<(String, String)> = d.notices.iter().map(|n| (n.key.clone(), n.message.clone())).collect();
                assert_eq!(got, prefixed, "b.{}={raw}", k.key);
                assert_eq!(b.params.check(), Ok(()));
            }
        }
    }

    #[test]
    fn an_unreadable_b_value_falls_back_to_as_value_not_the_default() {
        let d = decode("cap=16K&rs=4&b.cap=banana&b.rs=8");
        let b = d.compare.clone().unwrap();
        assert_eq!((b.params.cap, b.params.rs), (16 * 1024, 8));
        assert_eq!(b_keys(&d), ["b.cap"]);
        assert!(d.notices[0].message.ends_with("using 16K"), "{:?}", d.notices);
        // Given twice: A's value, with a notice.
        let d = decode("cap=16K&b.cap=1K&b.cap=2K");
        assert_eq!((d.compare.clone().unwrap().params.cap, b_keys(&d)), (16 * 1024, vec!["b.cap".to_string()]));
    }

    #[test]
    fn b_settles_its_own_job_size_and_sweep() {
        // 64 streams of 1M are A's limit; B's 64M streams allow one.
        let d = decode("streams=64&b.len=64M");
        let b = d.compare.clone().unwrap();
        assert_eq!((d.params.streams, b.params.streams), (64, max_streams(64 * MIB, 8 * 1024)));
        assert_eq!(b_keys(&d), ["b.streams"]);
        // B's own sweep: another axis brings its own range, and its ends are written.
        let d = decode("sweep=cap&from=1K&to=8K&b.sweep=rs&b.to=4K");
        let b = d.compare.clone().unwrap();
        assert_eq!(b.params.sweep, Some(Sweep::one(SweepAxis::Rs, 1, 4096)), "{:?}", d.notices);
        assert!(b.fragment.ends_with("&b.sweep=rs&b.from=1&b.to=4K"), "{}", b.fragment);
        assert_eq!(decode(&b.fragment).compare.unwrap().params, b.params);
        // No sweep for B: `b.sweep=off`.
        let d = decode("sweep=cap&b.sweep=off");
        let b = d.compare.clone().unwrap();
        assert_eq!((b.params.sweep, b.fragment.ends_with("&b.sweep=off")), (None, true), "{}", b.fragment);
    }

    /// The arrival keys (issue 45) are compared as any other: `b.rate` at
    /// and past its limits gives B what `rate` gives A, with the same
    /// notices named `b.rate`; B may turn A's arrival off, and the link
    /// writes it so.
    #[test]
    fn the_arrival_keys_compare_as_any_other() {
        for k in [key::RATE, key::WORK, key::SYS_KIB] {
            assert!(comparable(k), "{k}");
        }
        for raw in ["512", "1000G", "fast", "4M", "4M/s", "off", "0"] {
            let a = decode(&format!("rate={raw}"));
            let d = decode(&format!("b.rate={raw}"));
            let b = d.compare.clone().unwrap_or_else(|| panic!("b.rate={raw} is a comparison"));
            assert_eq!(b.params.rate, a.params.rate, "b.rate={raw}");
            let prefixed: Vec<String> = a.notices.iter().map(|n| format!("b.{}", n.key)).collect();
            assert_eq!(b_keys(&d), prefixed, "b.rate={raw}");
        }
        let d = decode("len=1M&rate=4M&work=200&b.rate=off&b.work=0&b.syskib=40");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        let b = d.compare.unwrap();
        assert_eq!((d.params.rate, d.params.work, d.params.sys_kib), (4 << 20, 200, Params::default().sys_kib));
        assert_eq!((b.params.rate, b.params.work, b.params.sys_kib), (0, 0, 40));
        let changed: Vec<&str> = b.changed.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(changed, ["syskib", "rate", "work"]);
        assert!(b.fragment.ends_with("&b.syskib=40&b.rate=off&b.work=0"), "{}", b.fragment);
        let again = decode(&b.fragment);
        assert_eq!((again.params, again.compare.unwrap().params), (d.params, b.params));
    }

    #[test]
    fn display_keys_are_not_compared_and_b_shows_as_a_does() {
        let d = decode("cap=16K&present=on&view=timeline&b.present=off&b.view=run&b.lesson=one-byte");
        assert_eq!(b_keys(&d), ["b.present", "b.view", "b.lesson"]);
        assert!(d.notices.iter().all(|n| n.message.ends_with("so A and B share it; ignored")), "{:?}", d.notices);
        assert_eq!(d.compare, None, "display keys alone make no comparison");
        let d = decode("cap=16K&present=on&view=timeline&b.cap=1K&b.present=off");
        let b = d.compare.unwrap().params;
        assert_eq!((b.present, b.view, b.cap), (true, View::Timeline, 1024));
        assert_eq!(b.shown_as(&d.params), b);
        for k in DISPLAY_KEYS {
            assert!(!comparable(k), "{k}");
        }
        assert!(comparable("cap") && comparable("rd") && comparable("sweep") && !comparable("nope"));
    }

    #[test]
    fn an_a_a_comparison_is_written_b_v_1() {
        let a = decode("cap=16K").params;
        let link = encode_pair(&a, &a);
        assert_eq!(link, format!("{}&b.v=1", encode(&a)));
        let d = decode(&link);
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        let b = d.compare.clone().unwrap();
        assert_eq!((b.params, b.changed, b.fragment), (a, vec![], link));
        let d = decode("v=1&b.v=2");
        assert_eq!(b_keys(&d), ["b.v"]);
        // B the same as A by value is an A/A comparison too.
        assert!(decode("cap=8K&b.cap=8K").compare.unwrap().fragment.ends_with("&b.v=1"));
    }

    #[test]
    fn a_sweep_on_another_axis_brings_its_ends_and_a_dropped_sweep_only_itself() {
        use crate::model::{Sweep, SweepAxis};
        let swept = |axis| Params { sweep: Some(Sweep::one(axis, 16, 1024)), ..Params::default() };
        let keys = |a: &Params, b: &Params| changed(a, b).into_iter().map(|c| c.key).collect::<Vec<_>>();
        let cap = swept(SweepAxis::Cap);
        // The same range on another axis means other values: the ends go with the axis.
        assert_eq!(keys(&cap, &swept(SweepAxis::Rs)), ["sweep", "from", "to"]);
        // The same sweep: its ends are compared by value, as any key.
        assert_eq!(keys(&cap, &Params { cap: 4096, ..cap.clone() }), ["cap"]);
        // B without a sweep: `sweep=off`, and no ends (B has none).
        assert_eq!(keys(&cap, &Params::default()), ["sweep"]);
    }

    #[test]
    fn b_keys_are_known_keys() {
        assert!(decode("b.cap=1K").notices.is_empty());
        let d = decode("b.nope=1");
        assert_eq!(keys(&d), ["link"], "no known key at all: {:?}", d.notices);
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod property {
        use super::*;
        use proptest::prelude::*;

        /// A random link (every key, valid or not) decoded to valid params.
        fn params() -> impl Strategy<Value = Params> {
            proptest::collection::vec(super::super::canonical::pair(), 0..10).prop_map(|pairs| decode(&pairs.join("&")).params)
        }

        proptest! {
            /// Any A, any B: the comparison link decodes back to both, with
            /// nothing to correct, and encodes again to itself.
            #[test]
            fn a_comparison_link_round_trips(a in params(), b in params()) {
                let b = b.shown_as(&a);
                let link = encode_pair(&a, &b);
                let d = decode(&link);
                prop_assert!(d.notices.is_empty(), "{}: {:?}", link, d.notices);
                prop_assert_eq!(&d.params, &a);
                let got = d.compare.expect("a comparison");
                prop_assert_eq!(&got.params, &b);
                prop_assert_eq!(&got.fragment, &link);
                prop_assert_eq!(got.changed.is_empty(), a.experiment() == b.experiment() && a.sweep == b.sweep);
            }

            /// B from any `b.` keys over any A: what `key=v` alone over the
            /// same A gives, field for field.
            #[test]
            fn b_is_a_with_its_keys_read_as_any_link_reads_them(
                a_pairs in proptest::collection::vec(super::super::canonical::pair(), 0..6),
                b_pair in super::super::canonical::pair(),
            ) {
                let a_link = a_pairs.join("&");
                let (name, _) = b_pair.split_once('=').unwrap();
                // (A sweep's ends are read after its axis, so `b.sweep` over A's
                // `from` is not A's `sweep` before it: those keys are tested on their own.)
                prop_assume!(comparable(name) && !SWEEP_KEYS.contains(&name));
                prop_assume!(!a_pairs.iter().any(|p| p.split_once('=').unwrap().0 == name));
                let as_b = decode(&format!("{a_link}&b.{b_pair}"));
                let as_a = decode(&format!("{a_link}&{b_pair}"));
                let b = as_b.compare.expect("a comparison").params;
                prop_assert_eq!(b.experiment(), as_a.params.experiment(), "{} {}", a_link, b_pair);
                prop_assert_eq!(b.sweep, as_a.params.sweep);
            }
        }
    }
}
