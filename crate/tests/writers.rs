#![cfg(not(target_arch = "wasm32"))]
//! The write lab: std's `Cursor` behaviours the experiment relies on (ported
//! from the cases Rust's own std tests check), seed 004's qualities checked
//! against the real types, every flavour's bytes against a plain `Vec`
//! reference, and `BufWriter` over the chunked sink.

use std::io::{Cursor, ErrorKind, Seek, SeekFrom, Write};
use std::marker::PhantomData;

use buflab::catalog::cursors::{flavour, Seekable, FLAVOURS};
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::engine::source::{counting_bytes, Chunker};
use buflab::engine::workload::{digest_of, DigestSink};
use buflab::engine::write::bufwriter;
use buflab::engine::write::cursors::{self, encode_all, records, serialize, Sizes, WriterVec};
use buflab::engine::write::sink::{Drain, Sink, SinkProbe};
use buflab::link::decode as decode_link;
use buflab::model::{ChunkModel, Ending, Flavour, Id, Lab, Params, WriteMode, WriteParams};
use bytes::{BufMut, BytesMut};
use proptest::prelude::*;

mod common;
use common::chunk_model;

// ---------------------------------------------------------------------------
// std's Cursor, as its own tests pin it

#[test]
fn writing_at_the_end_of_a_fixed_slice_returns_zero() {
    let mut storage = [0u8; 4];
    let mut c = Cursor::new(&mut storage[..]);
    assert_eq!(c.write(&[1, 2, 3]).unwrap(), 3);
    assert_eq!(c.write(&[4, 5, 6]).unwrap(), 1, "a short write fills the rest");
    assert_eq!(c.write(&[7]).unwrap(), 0, "at the end: 0, not an error");
    assert_eq!(c.position(), 4);
    assert_eq!(storage, [1, 2, 3, 4]);

    let mut boxed = Cursor::new(vec![0u8; 2].into_boxed_slice());
    assert_eq!(boxed.write(&[9, 9, 9]).unwrap(), 2);
    assert_eq!(boxed.write(&[9]).unwrap(), 0);

    let mut storage = [0u8; 2];
    let mut slice: &mut [u8] = &mut storage;
    assert_eq!(slice.write(&[5, 6, 7]).unwrap(), 2);
    assert_eq!(slice.write(&[8]).unwrap(), 0);
    assert!(slice.is_empty());
}

#[test]
fn write_all_turns_the_zero_into_write_zero() {
    let mut storage = [0u8; 3];
    let e = Cursor::new(&mut storage[..]).write_all(&[1; 4]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::WriteZero);
    let mut storage = [0u8; 3];
    let mut slice: &mut [u8] = &mut storage;
    assert_eq!(slice.write_all(&[1; 4]).unwrap_err().kind(), ErrorKind::WriteZero);
}

#[test]
fn an_empty_write_leaves_the_position_alone() {
    let mut c = Cursor::new(Vec::new());
    c.write_all(&[1, 2, 3]).unwrap();
    c.set_position(1);
    assert_eq!(c.write(&[]).unwrap(), 0);
    assert_eq!(c.position(), 1);
    assert_eq!(c.get_ref(), &[1, 2, 3]);

    let mut storage = [0u8; 4];
    let mut c = Cursor::new(&mut storage[..]);
    c.set_position(2);
    assert_eq!(c.write(&[]).unwrap(), 0);
    assert_eq!(c.position(), 2);

    // Past the end of a Vec the position stays too. (Today's std pads the
    // gap with zeros before it looks at the data, so the Vec may grow to the
    // position; that detail is not pinned here.)
    let mut c = Cursor::new(vec![1u8]);
    c.set_position(5);
    assert_eq!(c.write(&[]).unwrap(), 0);
    assert_eq!(c.position(), 5);
    assert!(c.get_ref()[1..].iter().all(|&b| b == 0));
}

#[test]
fn a_vec_cursor_seeked_past_the_end_fills_the_gap_with_zeros() {
    let mut c = Cursor::new(vec![1u8, 2]);
    c.seek(SeekFrom::Start(5)).unwrap();
    c.write_all(&[9]).unwrap();
    assert_eq!(c.get_ref(), &[1, 2, 0, 0, 0, 9]);

    let mut v = vec![7u8];
    let mut c = Cursor::new(&mut v);
    c.seek(SeekFrom::End(2)).unwrap();
    c.write_all(&[8, 8]).unwrap();
    assert_eq!(v, [7, 0, 0, 8, 8]);
}

#[test]
fn a_slice_cursor_seeked_past_the_end_writes_nothing() {
    let mut storage = [0u8; 2];
    let mut c = Cursor::new(&mut storage[..]);
    c.seek(SeekFrom::Start(10)).unwrap();
    assert_eq!(c.write(&[1]).unwrap(), 0);
    assert_eq!(storage, [0, 0]);
}

#[test]
fn seeking_before_zero_is_an_error() {
    let mut c = Cursor::new(vec![1u8, 2, 3]);
    assert_eq!(c.seek(SeekFrom::Current(-1)).unwrap_err().kind(), ErrorKind::InvalidInput);
    assert_eq!(c.seek(SeekFrom::End(-4)).unwrap_err().kind(), ErrorKind::InvalidInput);
    assert_eq!(c.position(), 0, "a failed seek does not move");
    let mut storage = [0u8; 3];
    let mut c = Cursor::new(&mut storage[..]);
    c.set_position(2);
    assert!(c.seek(SeekFrom::Current(-3)).is_err());
    assert_eq!(c.position(), 2);
    assert_eq!(c.seek(SeekFrom::Current(-2)).unwrap(), 0);
}

#[test]
fn seeking_back_overwrites_in_place() {
    let mut c = Cursor::new(Vec::new());
    c.write_all(b"hello world").unwrap();
    c.seek(SeekFrom::Start(0)).unwrap();
    c.write_all(b"J").unwrap();
    assert_eq!(c.get_ref(), b"Jello world");
    assert_eq!(c.position(), 1);
}

// ---------------------------------------------------------------------------
// Seed 004's qualities, against the real types

/// Answers "does `T` implement `Seek`?" for a concrete type: an inherent
/// method (only there when `T: Seek`) wins over the trait's fallback.
struct Probe<T: ?Sized>(PhantomData<T>);
trait NotSeek {
    fn seek_impl(&self) -> bool {
        false
    }
}
impl<T: ?Sized> NotSeek for Probe<T> {}
impl<T: Seek + ?Sized> Probe<T> {
    fn seek_impl(&self) -> bool {
        true
    }
}

/// Whether the writer type each flavour really uses implements `io::Seek`.
fn implements_seek(f: Flavour) -> bool {
    match f {
        Flavour::CursorVec => Probe::<Cursor<Vec<u8>>>(PhantomData).seek_impl(),
        Flavour::CursorMutVec => Probe::<Cursor<&'static mut Vec<u8>>>(PhantomData).seek_impl(),
        Flavour::WriterVec => Probe::<WriterVec>(PhantomData).seek_impl(),
        Flavour::BytesMut => Probe::<bytes::buf::Writer<BytesMut>>(PhantomData).seek_impl(),
        Flavour::CursorMutSlice => Probe::<Cursor<&'static mut [u8]>>(PhantomData).seek_impl(),
        Flavour::CursorBox => Probe::<Cursor<Box<[u8]>>>(PhantomData).seek_impl(),
        Flavour::MutSlice => Probe::<&'static mut [u8]>(PhantomData).seek_impl(),
    }
}

#[test]
fn the_probe_tells_seek_from_not() {
    assert!(Probe::<Cursor<Vec<u8>>>(PhantomData).seek_impl());
    assert!(Probe::<std::fs::File>(PhantomData).seek_impl());
    assert!(!Probe::<Vec<u8>>(PhantomData).seek_impl());
    assert!(!Probe::<BytesMut>(PhantomData).seek_impl());
}

#[test]
fn seekable_means_the_type_implements_io_seek() {
    for info in FLAVOURS {
        assert_eq!(implements_seek(info.id), info.seekable == Seekable::Seek, "{}", info.label);
    }
}

#[test]
fn bytes_mut_is_overwritable_by_index_and_by_truncating() {
    let mut w = BytesMut::with_capacity(8).writer();
    w.write_all(b"abcdef").unwrap();
    let mut b = w.into_inner();
    b[1..3].copy_from_slice(b"XY");
    assert_eq!(&b[..], b"aXYdef");
    b.truncate(2);
    let mut w = b.writer();
    w.write_all(b"!!").unwrap();
    assert_eq!(&w.into_inner()[..], b"aX!!");
}

#[test]
fn only_bytes_mut_is_refcounted_two_handles_share_one_buffer() {
    let refcounted: Vec<Flavour> = FLAVOURS.iter().filter(|f| f.refcounted).map(|f| f.id).collect();
    assert_eq!(refcounted, [Flavour::BytesMut]);
    let mut w = BytesMut::with_capacity(64).writer();
    w.write_all(&[1; 32]).unwrap();
    let mut head = w.into_inner();
    let start = head.as_ptr() as usize;
    let tail = head.split_off(16);
    assert_eq!(tail.as_ptr() as usize, start + 16, "the tail is a view into the same allocation");
    assert_eq!((head.len(), tail.len()), (16, 16));
    // A split Vec is two buffers: the tail is copied to a new allocation.
    let mut v = vec![1u8; 32];
    let vtail = v.split_off(16);
    assert_ne!(vtail.as_ptr() as usize, v.as_ptr() as usize + 16);
}

#[test]
fn growable_flavours_grow_and_fixed_ones_stop_with_write_zero() {
    // Two records (32 bytes) into 0 bytes of initial capacity and a 20-byte buffer.
    let recs = records(2);
    let sizes = Sizes { init_cap: 0, buf: 20 };
    for info in FLAVOURS {
        let mut out = Vec::new();
        match serialize(info.id, &recs, sizes, &mut |b| out.extend_from_slice(b)) {
            Ok(n) => {
                assert!(info.growable, "{} grew but is listed as fixed", info.label);
                assert_eq!(n, 32);
            }
            Err(stopped) => {
                assert!(!info.growable, "{} failed but is listed as growable", info.label);
                assert_eq!(stopped.error.kind(), ErrorKind::WriteZero, "{}", info.label);
                assert_eq!(stopped.bytes_written, 20, "{}: the buffer was filled, not grown", info.label);
            }
        }
    }
}

#[test]
fn a_cursor_over_a_mut_slice_cannot_grow() {
    let mut storage = [0u8; 8];
    let mut c = Cursor::new(&mut storage[..]);
    let e = encode_all(&mut c, &records(1)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::WriteZero);
    assert_eq!(c.position(), 8);
    assert_eq!(c.get_ref().len(), 8, "the slice is what it was");
    assert_eq!(storage.len(), 8);
}

#[test]
fn cursor_over_a_mut_vec_and_over_a_vec_behave_the_same() {
    // Seed 004: "identical behavior in every way" — same bytes and positions
    // for a script of writes and seeks.
    let mut owned = Cursor::new(Vec::new());
    let mut v = Vec::new();
    let mut borrowed = Cursor::new(&mut v);
    for (seek, data) in [(None, &b"abc"[..]), (Some(1), b"ZZ"), (Some(6), b"q"), (None, b"")] {
        if let Some(to) = seek {
            owned.set_position(to);
            borrowed.set_position(to);
        }
        assert_eq!(owned.write(data).unwrap(), borrowed.write(data).unwrap());
        assert_eq!(owned.position(), borrowed.position());
    }
    assert_eq!(owned.get_ref(), *borrowed.get_ref());
}

// ---------------------------------------------------------------------------
// Bytes: every flavour equals a plain Vec

fn plain_vec_reference(recs: &[buflab::model::Record]) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::new();
    encode_all(&mut v, recs).unwrap();
    v
}

#[test]
fn the_plain_vec_reference_is_the_hand_encoding() {
    let recs = records(100);
    let mut by_hand = Vec::new();
    cursors::encode_by_hand(&recs, &mut |b| by_hand.extend_from_slice(b));
    assert_eq!(plain_vec_reference(&recs), by_hand);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_flavour_writes_the_plain_vec_bytes(n in 1usize..700, init_cap in prop_oneof![Just(0usize), 0usize..20_000], slack in 0usize..100) {
        let recs = records(n);
        let want = plain_vec_reference(&recs);
        let sizes = Sizes { init_cap, buf: want.len() + slack };
        for info in FLAVOURS {
            let mut out = Vec::new();
            let n = serialize(info.id, &recs, sizes, &mut |b| out.extend_from_slice(b));
            prop_assert_eq!(n.ok(), Some(want.len() as u64), "{}", info.label);
            prop_assert!(out == want, "{} wrote other bytes", info.label);
        }
    }

    #[test]
    fn a_too_small_fixed_buffer_stops_with_write_zero(n in 1usize..300, fraction in 0.0f64..1.0) {
        let recs = records(n);
        let want = plain_vec_reference(&recs);
        let buf = (want.len() as f64 * fraction) as usize; // < want.len()
        for info in FLAVOURS.iter().filter(|f| !f.growable) {
            let mut out = Vec::new();
            let e = serialize(info.id, &recs, Sizes { init_cap: 0, buf }, &mut |b| out.extend_from_slice(b)).unwrap_err();
            prop_assert_eq!(e.error.kind(), ErrorKind::WriteZero);
            prop_assert_eq!(e.bytes_written, buf as u64);
            prop_assert!(out.is_empty(), "a failed run hands out nothing");
        }
    }
}

// ---------------------------------------------------------------------------
// BufWriter over the chunked sink

fn chunk_script() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(prop_oneof![3 => Just(0usize), 3 => Just(1usize), 4 => 1usize..700], 0..40)
}

/// Writes through the counting sink, and through the timed pass's drain cut
/// the same way, which must deliver the same bytes.
fn write_through(mode: WriteMode, data: &[u8], ws: usize, cap: usize, chunker: Chunker) -> (String, SinkProbe, u64) {
    let probe = SinkProbe::default();
    probe.set_app_window(data);
    let mut app_writes = 0;
    let sink = Sink::new(chunker.clone(), &probe, DigestSink::default());
    let digest = bufwriter::drive(mode, data, ws, cap, sink, || app_writes += 1).expect("writes succeed").into_consume();
    let drain = bufwriter::drive(mode, data, ws, cap, Drain::new(chunker, DigestSink::default()), || {}).expect("writes succeed");
    assert_eq!(drain.into_consume().hex(), digest.hex(), "the drain delivers what the sink does");
    (digest.hex(), probe, app_writes)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn both_modes_deliver_the_data_for_seeded_chunkings(
        len in 1usize..20_000, model in chunk_model(), seed in any::<u64>(), ws in 1usize..3000, cap in 1usize..2000,
    ) {
        let data = counting_bytes(len);
        for mode in [WriteMode::Direct, WriteMode::BufWriter] {
            let (digest, probe, app_writes) = write_through(mode, &data, ws, cap, Chunker::new(model, seed));
            prop_assert_eq!(digest, digest_of(&data));
            prop_assert_eq!(probe.accepted(), len as u64);
            prop_assert_eq!(app_writes, len.div_ceil(ws) as u64);
            prop_assert_eq!(probe.flushes(), 1);
            if mode == WriteMode::Direct {
                prop_assert_eq!(probe.direct_bytes(), len as u64, "direct writes copy nothing");
            }
        }
    }

    #[test]
    fn both_modes_deliver_the_data_for_scripted_chunkings(
        len in 1usize..5_000, script in chunk_script(), ws in 1usize..700, cap in 1usize..700,
    ) {
        let data = counting_bytes(len);
        for mode in [WriteMode::Direct, WriteMode::BufWriter] {
            let (digest, probe, _) = write_through(mode, &data, ws, cap, Chunker::scripted(script.clone()));
            prop_assert_eq!(digest, digest_of(&data));
            prop_assert_eq!(probe.accepted(), len as u64);
        }
    }

    #[test]
    fn direct_sink_writes_follow_the_formula(len in 1usize..20_000, k in 1usize..600, ws in 1usize..1000) {
        let data = counting_bytes(len);
        let (_, probe, _) = write_through(WriteMode::Direct, &data, ws, 1, Chunker::new(ChunkModel::Fixed { size: k }, 0));
        // Each piece of ws bytes (the last one shorter) takes ⌈piece / k⌉ calls.
        let calls: usize = data.chunks(ws).map(|p| p.len().div_ceil(k)).sum();
        prop_assert_eq!(probe.writes(), calls as u64);
    }

    #[test]
    fn bufwriter_writes_one_buffer_per_call_to_a_file_sink(len in 1usize..50_000, ws_exp in 0u32..6, cap_mul in 1usize..64) {
        // ws divides cap: the buffer fills exactly, then goes out in one call.
        let ws = 1usize << ws_exp;
        let cap = ws * cap_mul;
        prop_assume!(ws < cap);
        let data = counting_bytes(len);
        let (_, probe, _) = write_through(WriteMode::BufWriter, &data, ws, cap, Chunker::new(ChunkModel::File, 0));
        prop_assert_eq!(probe.writes(), len.div_ceil(cap) as u64);
        prop_assert_eq!(probe.direct_bytes(), 0, "every byte went through the buffer");
    }

    #[test]
    fn the_final_flush_error_is_lost_only_on_drop(len in 1usize..5_000, model in chunk_model(), ws in 1usize..700, cap in 1usize..700) {
        let data = counting_bytes(len);
        for info in buflab::catalog::cursors::ENDINGS {
            let f = bufwriter::final_flush(info.id, &data, ws, cap, Chunker::new(model, 3));
            prop_assert!(f.bytes_lost >= 1, "the last byte never arrives");
            prop_assert_eq!(f.bytes_at_sink + f.bytes_lost, len as u64);
            match info.id {
                // A drop swallows it unless the last piece bypassed the buffer
                // (as large as the buffer), in which case write_all saw it.
                Ending::Dropped => prop_assert!(f.reported_by.is_none() || f.reported_by.as_deref() == Some("write_all")),
                _ => prop_assert!(f.reported_by.is_some(), "{:?} lost the error", info.id),
            }
        }
    }

    #[test]
    fn write_links_round_trip(
        records in 1u64..=(1 << 20), init_cap in 0u64..=(16 << 20), buf in 0u64..=(16 << 20),
        flavours in prop::sample::subsequence(Flavour::all(), 1..=7).prop_shuffle(),
        len in 1024u64..=(64 << 20), ws in 1u64..=(1 << 20), cap in 1u64..=(4 << 20), sink in chunk_model(),
        write_lab in any::<bool>(),
    ) {
        let p = Params {
            lab: if write_lab { Lab::Write } else { Lab::Read },
            write: WriteParams { records, init_cap, buf, flavours, len, ws, cap, sink },
            ..Params::default()
        };
        prop_assert_eq!(p.check(), Ok(()));
        let d = decode_link(&buflab::link::encode(&p));
        prop_assert!(d.notices.is_empty(), "{:?}", d.notices);
        prop_assert_eq!(d.params, p);
    }
}

// ---------------------------------------------------------------------------
// The whole write lab

fn run(link: &str) -> buflab::model::WriteReport {
    let d = decode_link(link);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    buflab::api::run_write(&d.params, &InstantClock::default(), Sampling::QUICK).unwrap()
}

#[test]
fn seed_004s_experiment_writes_identical_bytes_in_every_flavour() {
    let r = run("lab=write");
    assert_eq!(r.lab, Lab::Write);
    assert_eq!(r.flavours.len(), 7);
    assert_eq!(r.reference_bytes, 32 * 1024);
    for f in &r.flavours {
        assert_eq!(f.error, None);
        assert_eq!(f.bytes, 32 * 1024, "{:?}", f.flavour);
        assert_eq!(f.digest.as_deref(), Some(r.reference_digest.as_str()));
        assert_eq!(f.alloc.allocations, 1, "{:?}: one 32 KiB buffer, no growth", f.flavour);
        assert_eq!(f.alloc.reallocs, 0);
        assert!(f.cpu_ns.unwrap().median > 0.0);
    }
    assert!(r.bytes_agree());
    let direct = &r.sink[0];
    let buffered = &r.sink[1];
    assert_eq!((direct.mode, buffered.mode), (WriteMode::Direct, WriteMode::BufWriter));
    assert_eq!(direct.sink_writes, (1 << 20) / 16);
    assert_eq!(buffered.sink_writes, (1 << 20) / 8192);
    assert_eq!(direct.bytes_copied, 0);
    assert_eq!(buffered.bytes_copied, 1 << 20);
    assert_eq!(buffered.alloc.allocations, 1, "the BufWriter's buffer");
    assert_eq!(direct.modelled_io_ns, direct.sink_writes as f64 * 150.0);
    let lost: Vec<bool> = r.final_flush.iter().map(|f| f.reported_by.is_none()).collect();
    assert_eq!(lost, [false, true, false, false], "only the dropped BufWriter loses the error");
}

#[test]
fn starting_from_no_capacity_shows_growth_as_reallocations() {
    let r = run("lab=write&icap=0&wf=cursor_vec,writer_vec,bytes_mut,mut_slice");
    for f in &r.flavours[..3] {
        assert!(f.alloc.reallocs > 0, "{:?} grew without reallocating?", f.flavour);
        assert_eq!(f.digest.as_deref(), Some(r.reference_digest.as_str()));
    }
    assert_eq!(r.flavours[3].alloc.reallocs, 0, "a fixed buffer never grows");
}

#[test]
fn a_too_small_fixed_buffer_is_a_write_zero_result_not_a_panic() {
    let r = run("lab=write&buf=1K");
    for f in &r.flavours {
        let info = flavour(f.flavour);
        if info.growable {
            assert!(f.error.is_none());
        } else {
            let e = f.error.as_ref().expect("a fixed 1 KiB buffer cannot take 32 KiB");
            assert_eq!(e.kind, "WriteZero");
            assert_eq!(e.message, "failed to write whole buffer");
            assert_eq!((e.bytes_written, f.bytes), (1024, 1024));
            assert_eq!((f.digest.as_deref(), f.cpu_ns), (None, None), "not timed");
            // The buffer, and bincode's boxed error: the report's own strings are not the run's.
            assert_eq!(f.alloc.allocations, 2, "{}", info.label);
        }
    }
    assert!(r.bytes_agree(), "the growable flavours still agree");
    let r = run("lab=write&buf=0&wf=mut_slice");
    assert_eq!(r.flavours[0].error.as_ref().unwrap().bytes_written, 0);
}

#[test]
fn the_report_json_keeps_its_field_names() {
    let r = run("lab=write&recs=16&wlen=4K&wf=writer_vec");
    let json = serde_json::to_value(&r).unwrap();
    for key in ["lab", "params", "flavours", "reference_digest", "reference_bytes", "sink", "sink_digest", "final_flush", "timer", "quick", "link"] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert_eq!(json["lab"], "write");
    let f = &json["flavours"][0];
    for key in ["flavour", "bytes", "allocations", "reallocs", "frees", "alloc_bytes", "peak_bytes", "digest", "error", "cpu_ns"] {
        assert!(f.get(key).is_some(), "flavour run missing {key}");
    }
    let s = &json["sink"][1];
    for key in ["mode", "app_writes", "sink_writes", "sink_flushes", "bytes", "bytes_copied", "allocations", "digest", "cpu_ns", "modelled_io_ns"] {
        assert!(s.get(key).is_some(), "sink run missing {key}");
    }
    assert_eq!(s["mode"], "bufwriter");
    let ff = &json["final_flush"][1];
    assert_eq!(ff["ending"], "dropped");
    assert!(ff["reported_by"].is_null());
}

#[test]
fn run_lab_picks_the_lab_from_the_params() {
    let read = buflab::run_lab(&decode_link("len=4K").params, &InstantClock::default(), Sampling::QUICK).unwrap();
    assert!(matches!(read, buflab::model::LabReport::Read(ref r) if r.lab == Lab::Read));
    let write = buflab::run_lab(&decode_link("lab=write&recs=4").params, &InstantClock::default(), Sampling::QUICK).unwrap();
    assert!(matches!(write, buflab::model::LabReport::Write(_)));
    assert_eq!(serde_json::to_value(&write).unwrap()["lab"], "write");
    assert_eq!(serde_json::to_value(&read).unwrap()["lab"], "read");
}
