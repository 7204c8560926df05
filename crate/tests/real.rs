#![cfg(not(target_arch = "wasm32"))]
//! Real I/O (`buflab real` and the calibration): every reader × workload over
//! a real regular file, a real pipe and a real loopback TCP connection
//! delivers exactly the stream's bytes; over a regular file the kernel's
//! count of read calls equals the simulated `chunk=file` run's, and the
//! sizes the wrapper saw equal the model's, call for call;
//! the calibration over a real file stays in its bounds; the JSON names are
//! the interface the issue fixes.

use buflab::api;
use buflab::engine::content;
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::engine::heap::Lanes;
use buflab::engine::real::native::{TempFile, FIT_SIZES};
use buflab::engine::real::{
    calibrate, run_real_pass, timed_pass, Store, CALIBRATION_SAMPLES, MAX_FILE_BYTES, MAX_SAMPLE_CALLS,
};
use buflab::engine::workload::CountSink;
use buflab::link::{decode, encode};
use buflab::model::{
    CalibratedFrom, CallCounter, ChunkModel, CostFit, Id, Params, ReaderKind, RealReport, RealSource, SysSource, Workload, LIMITS,
};

mod common;
use common::every_reader;

fn real(params: &Params) -> RealReport {
    api::run_real(params, &InstantClock::default(), Sampling::QUICK, Sampling::QUICK)
        .unwrap_or_else(|e| panic!("{}: {e}", encode(params)))
}

fn params(link: &str) -> Params {
    let d = decode(link);
    assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
    d.params
}


#[test]
fn every_reader_and_workload_delivers_the_streams_bytes_over_every_real_source() {
    // Small pieces (worst: 1–128 bytes per write), one-byte reads, reads
    // above the buffer, several streams: each case over file, pipe and tcp.
    let cases = [
        "len=16K&chunk=worst&cap=256&rs=1",
        "len=20K&chunk=100&cap=1K&rs=4K&seed=7",
        "len=24K&chunk=pipe&cap=64&rs=13&streams=3&pool=off&reuse=on&line=0-40&frame=0-300",
    ];
    for case in cases {
        for workload in Workload::all() {
            let p = params(&format!("v=1&{case}&{}&wl={}&nul=9K", every_reader(), workload.id()));
            let r = real(&p);
            assert_eq!(r.real.len(), 3 * ReaderKind::all().len(), "three sources × every reader");
            for source in [RealSource::File, RealSource::Pipe, RealSource::Tcp] {
                for kind in ReaderKind::all() {
                    let run = r.real.iter().find(|x| x.source == source && x.reader == kind).expect("every pair runs");
                    assert_eq!(run.digest, r.simulated.source_digest, "{case} {} {} {}", workload.id(), source.id(), kind.id());
                    let sim = r.simulated.runs.iter().find(|s| s.reader == kind).unwrap();
                    assert_eq!(run.bytes, sim.bytes, "{case} {} {} {}", workload.id(), source.id(), kind.id());
                    assert!(run.read_calls >= 1 && run.wall_ns.median > 0.0);
                }
            }
            assert!(r.digests_agree());
        }
    }
}

#[test]
fn over_a_regular_file_read_calls_equal_the_simulated_chunk_file_calls_exactly() {
    // The link's own chunks are a network's: the file still answers every
    // request in full, so its calls are chunk=file's, whatever the link says.
    for case in ["len=32K&chunk=poor&cap=8K&rs=1", "len=40K&chunk=7&cap=1K&rs=3K", "len=33K&chunk=file&cap=100&rs=64K&streams=2"] {
        for workload in Workload::all() {
            let p = params(&format!("v=1&{case}&{}&wl={}&nul=20K", every_reader(), workload.id()));
            let r = real(&p);
            // An independent simulated run with chunk=file, straight from the façade.
            let file_model = api::run(&Params { chunk: ChunkModel::File, ..p.clone() }, &InstantClock::default(), Sampling::QUICK).unwrap();
            for run in r.real.iter().filter(|x| x.source == RealSource::File) {
                let sim = file_model.runs.iter().find(|s| s.reader == run.reader).unwrap();
                let what = format!("{case} {} {}", workload.id(), run.reader.id());
                assert_eq!(run.counted_by, CallCounter::Kernel, "{what}: Linux counts a file's read(2) calls");
                assert_eq!(run.read_calls, sim.source_reads, "{what}");
                assert_eq!(run.kernel_read_calls, Some(sim.source_reads), "{what}");
                assert_eq!(run.model.read_calls, sim.source_reads, "{what}");
                assert_eq!(run.model.chunk, ChunkModel::File, "{what}");
                assert_eq!(run.bytes_per_read, run.model.bytes_per_read, "{what}: a file returns what is asked");
            }
        }
    }
}

/// std's `File::read_to_end` reaches the file: the kernel counts its two
/// `read(2)` calls (the whole file, then the end), which the wrapper sees as
/// one call handed over; a pipe has no such override, so the wrapper sees
/// every call of std's generic algorithm and agrees with the kernel.
#[test]
fn read_to_end_over_a_real_file_is_files_own_two_calls_counted_by_the_kernel() {
    let r = real(&params("v=1&len=1M&chunk=file&cap=8K&rd=unbuffered,std,chained&wl=to_end"));
    for run in r.real.iter().filter(|x| x.source == RealSource::File) {
        assert_eq!((run.read_calls, run.wrapper_calls, run.counted_by), (2, 1, CallCounter::Kernel), "{}", run.reader.id());
    }
    for run in r.real.iter().filter(|x| x.source == RealSource::Pipe) {
        assert_eq!(Some(run.wrapper_calls), run.kernel_read_calls, "{}", run.reader.id());
    }
    for run in r.real.iter().filter(|x| x.source == RealSource::Tcp) {
        assert_eq!((run.kernel_read_calls, run.counted_by), (None, CallCounter::Wrapper), "recv(2) is not in syscr");
        assert_eq!(run.read_calls, run.wrapper_calls);
    }
}

#[test]
fn the_timed_pass_over_a_real_file_makes_the_counted_passs_calls_and_delivers_the_same_pieces() {
    // The timed pass is the user's loop (tallying into `()`) over a wrapper
    // that only counts calls; over a regular file it must do exactly what
    // the counted pass did: the same calls, the same pieces (the sinks sum
    // each piece's length and first byte).
    for streams in [1, 2] {
        for workload in Workload::all() {
            let p = params(&format!("v=1&len=24K&chunk=file&cap=1K&rs=7&streams={streams}&wl={}&line=0-40&frame=0-300&nul=9K", workload.id()));
            let data = content::generate(&p);
            let file = TempFile::new(&data).unwrap();
            let lanes = || {
                let mut l = Lanes::with_capacity(streams);
                for _ in 0..streams {
                    l.push(file.open().unwrap());
                }
                l
            };
            let mut app_buf = vec![0u8; 7];
            for kind in ReaderKind::all() {
                let what = format!("{streams} stream(s) {} {}", workload.id(), kind.id());
                let mut counted: Vec<CountSink> = (0..streams).map(|_| CountSink::default()).collect();
                let pass = run_real_pass(&p, kind, lanes(), data.len(), None, &mut app_buf, &mut counted).unwrap();
                let mut timed: Vec<CountSink> = (0..streams).map(|_| CountSink::default()).collect();
                let calls = timed_pass(&p, kind, lanes(), data.len(), &mut app_buf, &mut timed).unwrap();
                assert_eq!(calls, pass.read_calls, "{what}");
                assert_eq!(timed.iter().map(|s| s.0).collect::<Vec<_>>(), counted.iter().map(|s| s.0).collect::<Vec<_>>(), "{what}");
            }
        }
    }
}

#[test]
fn pipe_and_tcp_runs_sit_beside_the_links_own_chunk_model() {
    let p = params("v=1&len=64K&chunk=64-512&cap=8K&rs=1&rd=unbuffered,std&wl=fixed");
    let r = real(&p);
    for run in r.real.iter().filter(|x| x.source != RealSource::File) {
        assert_eq!(run.model.chunk, p.chunk);
        let sim = r.simulated.runs.iter().find(|s| s.reader == run.reader).unwrap();
        assert_eq!(run.model.read_calls, sim.source_reads);
        assert_eq!(run.model.total_ns, sim.cpu_ns.median + sim.source_reads as f64 * p.sys as f64);
        assert!((run.model.bytes_per_read.min, run.model.bytes_per_read.max) >= (1, 1));
        if run.reader == ReaderKind::Std {
            // The model's pieces are 64–512 bytes; a real read gets at most
            // the buffer, whatever the kernel joined.
            assert!(run.model.bytes_per_read.max <= 512);
            assert!(run.bytes_per_read.max <= 8192);
        } else {
            // One-byte reads get one byte each, over any source.
            assert_eq!((run.bytes_per_read.min, run.bytes_per_read.max), (1, 1));
            assert_eq!(run.read_calls, 64 * 1024 + 1);
        }
        assert!(run.ratio > 0.0 && run.ns_per_read > 0.0);
    }
}

#[test]
fn the_calibration_is_a_fit_to_real_reads_of_several_sizes_over_the_links_own_source_and_the_link_carries_it() {
    let r = real(&params("v=1&len=16K&chunk=poor&cap=8K&rs=1&rd=std,unbuffered&wl=fixed"));
    assert_eq!(r.calibrated_from, CalibratedFrom { source: RealSource::Tcp, reader: ReaderKind::Unbuffered }, "poor is a network's chunking");
    assert_eq!(r.fits.iter().map(|f| f.source).collect::<Vec<_>>(), [RealSource::File, RealSource::Pipe, RealSource::Tcp]);
    for fit in &r.fits {
        let asked: Vec<u64> = fit.points.iter().map(|p| p.asked).collect();
        assert_eq!(asked, FIT_SIZES.map(|n| n as u64), "{:?}", fit.source);
        // The line is the weighted least-squares line through the points.
        let xy: Vec<(f64, f64)> = fit.points.iter().map(|p| (p.bytes_per_call, p.ns_per_call)).collect();
        let (sys, per_kib, residual) = CostFit::line(&xy).unwrap();
        assert_eq!((fit.sys_ns, fit.ns_per_kib, fit.residual), (sys, per_kib, residual), "{:?}", fit.source);
        assert!(fit.points.iter().all(|p| p.ns_per_call > 0.0 && p.bytes_per_call > 0.0), "{fit:?}");
        assert!(fit.points.iter().all(|p| (p.fitted_ns - (sys + p.bytes_per_call * per_kib / 1024.0)).abs() < 1e-6));
    }
    let tcp = r.fits.iter().find(|f| f.source == RealSource::Tcp).unwrap();
    assert_eq!(r.calibrated_sys, LIMITS.sys.clamp(tcp.sys_ns.round().max(0.0) as u64));
    assert_eq!(r.calibrated_sys_kib, LIMITS.sys_kib.clamp(tcp.ns_per_kib.round().max(0.0) as u64));
    let linked = decode(&r.link);
    assert!(linked.notices.is_empty(), "{:?}", linked.notices);
    assert_eq!((linked.params.sys, linked.params.sys_kib, linked.params.sys_source), (r.calibrated_sys, r.calibrated_sys_kib, SysSource::Tcp));
    assert_eq!(Params { sys: 150, sys_kib: 0, sys_source: SysSource::Manual, ..linked.params }, r.simulated.params);

    let f = real(&params("v=1&len=8K&chunk=file&rs=1&rd=std,unbuffered"));
    assert_eq!(f.calibrated_from.source, RealSource::File);
    assert!(f.link.contains("&syssrc=file&"), "{}", f.link);
    assert_eq!(real(&params("v=1&len=8K&chunk=pipe&rs=1")).calibrated_from.source, RealSource::Pipe);
}

/// A line through points that lie on one is found exactly, with no
/// residual; the weights make a small read's error count as much as a large one's.
#[test]
fn the_cost_line_is_the_weighted_least_squares_line() {
    let on_line: Vec<(f64, f64)> = [1.0, 16.0, 256.0, 4096.0, 65536.0].iter().map(|&x| (x, 200.0 + x * 0.25)).collect();
    let (sys, per_kib, residual) = CostFit::line(&on_line).unwrap();
    assert!((sys - 200.0).abs() < 1e-6 && (per_kib - 256.0).abs() < 1e-6 && residual < 1e-9, "{sys} {per_kib} {residual}");
    // 10 % off at the smallest size moves the line's value at 0 bytes, not only the large points'.
    let mut off = on_line.clone();
    off[0].1 *= 1.1;
    let (sys_off, _, residual_off) = CostFit::line(&off).unwrap();
    assert!(sys_off > 205.0 && residual_off > 0.01, "{sys_off} {residual_off}");
    assert_eq!(CostFit::line(&on_line[..1]), None, "one size is no line");
}

#[test]
fn the_json_report_has_the_interface_names() {
    let r = real(&params("v=1&len=4K&chunk=file&rs=1"));
    let json = serde_json::to_value(&r).unwrap();
    for key in ["real", "simulated", "calibrated_sys", "link"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    let row = &json["real"][0];
    assert_eq!(row["source"], "file");
    assert_eq!(row["reader"], "unbuffered");
    for key in ["read_calls", "counted_by", "kernel_read_calls", "wrapper_calls", "minor_faults", "alloc_calls", "wall_ns", "ns_per_read", "bytes_per_read", "digest"] {
        assert!(row.get(key).is_some(), "{key}");
    }
    for key in ["min", "median", "max"] {
        assert!(row["bytes_per_read"].get(key).is_some(), "{key}");
        assert!(row["wall_ns"].get(key).is_some(), "{key}");
    }
    assert_eq!((&row["read_calls"], &row["counted_by"], &row["wrapper_calls"]), (&4097.into(), &"kernel".into(), &4097.into()));
    assert_eq!(json["simulated"]["runs"][0]["source_reads"], 4097);
}

#[test]
fn real_io_refuses_the_write_lab_and_too_many_streams_naming_the_key() {
    let clock = InstantClock::default();
    let e = api::run_real(&params("v=1&lab=write"), &clock, Sampling::QUICK, Sampling::QUICK).unwrap_err();
    assert_eq!(e.key, "lab");
    let e = api::run_real(&params("v=1&len=1K&streams=65"), &clock, Sampling::QUICK, Sampling::QUICK).unwrap_err();
    assert_eq!(e.key, "streams");
}

#[test]
fn calibrating_on_a_real_file_reads_the_streams_bytes_in_bounded_work() {
    let mut store = TempFile::new(&[]).unwrap();
    for (link, rs) in [("v=1&len=1M&rs=1", 1), ("v=1&len=64K&rs=8K&wl=lines", 8192), ("v=1&len=64M&rs=1M", 1 << 20)] {
        let p = params(link);
        let c = calibrate(&p, &InstantClock::default(), &mut store, SysSource::File).unwrap();
        assert!(c.bytes_ok, "{link}");
        assert_eq!((c.source, c.read_size), (SysSource::File, rs));
        assert!(c.file_bytes as usize <= MAX_FILE_BYTES.min(p.len as usize), "{link}: {}", c.file_bytes);
        // Each sample reads the whole file: one call per `rs` bytes, and
        // the final call that returns 0.
        let per_sample = c.file_bytes.div_ceil(rs) + 1;
        assert_eq!(c.ns_per_call.batch, per_sample, "{link}");
        assert_eq!(c.calls, per_sample * CALIBRATION_SAMPLES as u64, "{link}");
        assert!(per_sample <= MAX_SAMPLE_CALLS, "{link}");
        assert_eq!(c.ns_per_call.samples as usize, CALIBRATION_SAMPLES);
        assert!(c.ns_per_call.median > 0.0 && c.in_memory_ns >= 0.0, "{c:?}");
        assert!(LIMITS.sys.contains(c.sys));
        assert_eq!(c.sys, LIMITS.sys.clamp((c.ns_per_call.median - c.in_memory_ns).round().max(0.0) as u64));
    }
}
