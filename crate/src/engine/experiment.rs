//! Runs one experiment: every chosen reader over the same streams, first once
//! for counts and the digest (the counted pass), then timed without any
//! counter (the timed pass, `engine::timed`).
//!
//! Reports leave `link` empty: the engine does not know the link codec; the
//! façade above both (`crate::api`) fills it in.

use std::cell::RefCell;

use super::content;
use super::clock::{self, Clock, Sampling};
use super::heap::{AllocScope, Lanes};
use super::readers::{self, Driven, ReaderConfig};
use super::source::{Costs, Probe, Recorded, Source};
#[cfg(feature = "timed")]
use super::workload::CountSink;
#[cfg(feature = "timed")]
use super::{timed, timeline};
use super::workload::{self, combined_digest, Consume, DigestSink, Spec, Ticking};
use crate::model::{
    key, ArrivalCounts, Id, Lab, LabReport, ParamError, Params, ReaderKind, Report, Run, Stage, Stats, Timeline,
    REPORT_FORMAT,
};

/// Checks `params`, then runs the experiment. `sampling` decides how hard to
/// time ([`Sampling::FULL`] or [`Sampling::QUICK`]).
pub fn run(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<Report, ParamError> {
    let mut report = run_with(params, clock, sampling, Timelines::Record)?;
    set_copy_floor(&mut report, clock, sampling);
    Ok(report)
}

/// Times the copy floor of `report`'s stream beside its readers, with the
/// same sampling (nothing without timing), and sets it on the report. The
/// counting build, which never times, leaves it out.
fn set_copy_floor(report: &mut Report, clock: &dyn Clock, sampling: Sampling) {
    if !cfg!(feature = "timed") || sampling.samples == 0 {
        return;
    }
    let data = content::generate(&report.params);
    let floor = time_copy(&data, report.params.streams, clock, report.timer.resolution_ns, sampling);
    report.set_copy_floor(floor);
}

/// The copy floor ([`Report::copy_ns`]): the stream's bytes copied once
/// per stream, `copy_from_slice` into a buffer made beforehand, sampled with
/// `sampling`. What any reader must at least spend to hand the bytes on.
pub fn time_copy(data: &[u8], streams: u64, clock: &dyn Clock, resolution_ns: f64, sampling: Sampling) -> Stats {
    let mut to = vec![0u8; data.len()];
    clock::sample(clock, resolution_ns, sampling, || {
        for _ in 0..streams {
            to.copy_from_slice(std::hint::black_box(data));
            std::hint::black_box(&mut to[..]);
        }
    })
}

/// Whether a run records each reader's buffer timeline (an untimed pass of
/// its own): a sweep's points leave it out, since nothing shows it there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timelines {
    Record,
    Skip,
}

/// [`run`], with or without the timelines.
pub fn run_with(params: &Params, clock: &dyn Clock, sampling: Sampling, timelines: Timelines) -> Result<Report, ParamError> {
    params.check()?;
    clock::check_timed(sampling)?;
    workload::check_served(params.workload)?;
    // Generated once and shared by every reader and every stream.
    let data = content::generate(params);
    let expected = content::expected(params.workload, &data);
    let resolution_ns = clock::resolution_ns(clock);
    // Each reader is counted, then timed, before the next is counted.
    let runs = params
        .readers
        .iter()
        .map(|&kind| {
            let mut run = count_reader_reusing(params, kind, &data)?;
            time_run(params, &mut run, &data, clock, resolution_ns, sampling, timelines);
            Ok(run)
        })
        .collect::<Result<Vec<_>, ParamError>>()?;
    Ok(Report {
        params: params.clone(),
        runs,
        timer: clock::timer(clock, resolution_ns),
        quick: sampling == Sampling::QUICK,
        stage: sampling.stage(),
        source_digest: combined_digest(&vec![expected.digest; params.streams as usize]),
        link: String::new(),
        lab: Lab::Read,
        copy_ns: None,
        machine: None,
        format: Some(REPORT_FORMAT),
    })
}

/// The counted pass alone, every reader of `params`: exact counts with no
/// clock and no timing (for texts that quote a count, such as the glossary's).
pub fn counts(params: &Params) -> Result<Vec<Run>, ParamError> {
    params.check()?;
    workload::check_served(params.workload)?;
    let data = content::generate(params);
    params.readers.iter().map(|&kind| count_reader_reusing(params, kind, &data)).collect()
}

/// [`run`] for a report whose counted pass is done (`counted`, a `counts`
/// stage report of the same [`Params::experiment`], however it is shown,
/// from either build of the engine): the timed pass and the timelines only. The page's counting worker has
/// already counted what its timing worker is asked to time; on the default
/// link, in WebAssembly, the counted pass is about a sixth of a full run
/// (more when it runs cold, on a first load), and most of a quick one.
/// The counts are exact, so counting again would only repeat them.
pub fn time_counted(params: &Params, counted: Report, clock: &dyn Clock, sampling: Sampling) -> Result<Report, ParamError> {
    params.check()?;
    clock::check_timed(sampling)?;
    workload::check_served(params.workload)?;
    let refused = |message: &str| ParamError { key: "counts", message: message.into() };
    if counted.stage != Stage::Counts || sampling.stage() == Stage::Counts {
        return Err(refused("only a counts report can be timed, and only with timing"));
    }
    if counted.params.experiment() != params.experiment() || counted.runs.iter().map(|r| r.reader).ne(params.readers.iter().copied()) {
        return Err(refused("the counts are of other settings"));
    }
    let data = content::generate(params);
    let resolution_ns = clock::resolution_ns(clock);
    let mut report = Report { params: params.clone(), ..counted };
    for run in &mut report.runs {
        time_run(params, run, &data, clock, resolution_ns, sampling, Timelines::Record);
    }
    report.timer = clock::timer(clock, resolution_ns);
    report.quick = sampling == Sampling::QUICK;
    report.stage = sampling.stage();
    report.set_copy_floor(time_copy(&data, params.streams, clock, resolution_ns, sampling));
    Ok(report)
}

/// Runs the lab `params.lab` selects: [`run`] for the read lab,
/// [`super::write::run`] for the write lab (in a build with the `write-lab`
/// feature; the page's counting module refuses it, as its schema entry says).
pub fn run_lab(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<LabReport, ParamError> {
    match params.lab {
        Lab::Read => run(params, clock, sampling).map(LabReport::Read),
        Lab::Write => run_write_lab(params, clock, sampling),
    }
}

#[cfg(feature = "write-lab")]
fn run_write_lab(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<LabReport, ParamError> {
    super::write::run(params, clock, sampling).map(LabReport::Write)
}

#[cfg(not(feature = "write-lab"))]
fn run_write_lab(_: &Params, _: &dyn Clock, _: Sampling) -> Result<LabReport, ParamError> {
    Err(ParamError { key: "lab", message: "this build of the engine counts the read lab only; the write lab runs in the full engine".into() })
}

/// The counted pass's drive: `kind` over one source per sink (the link's
/// streams, each living in time when the link has a rate), every source
/// counting into `probe`. The sinks tell `probe` of each piece the
/// application receives ([`Ticking`]), which the reader's clock charges.
fn once<C: Consume>(
    params: &Params,
    kind: ReaderKind,
    data: &[u8],
    probe: &Probe,
    app_buf: &mut [u8],
    sinks: &mut [Ticking<'_, C>],
) -> Result<Driven, ParamError> {
    let mut sources = Lanes::with_capacity(sinks.len());
    for i in 0..sinks.len() {
        sources.push(Source::of_stream(data, params, i, probe));
    }
    let spec = Spec::of(params, data.len());
    readers::drive_streams(kind, sources, probe, ReaderConfig::of(params), &spec, app_buf, sinks)
        .map_err(|e| ParamError { key: "run", message: format!("{} reader failed: {e}", kind.id()) })
}

/// The sizes each stream's reads return in a counted pass of `kind`, for
/// the timed pass to replay ([`crate::engine::source::Replay`]): a source
/// that lives in time decides them from the reader's clock, which the timed
/// pass does not keep.
pub fn read_sizes(params: &Params, kind: ReaderKind, data: &[u8]) -> Result<Vec<Vec<(u32, u32)>>, ParamError> {
    let streams = params.streams as usize;
    let probe = Probe::default();
    let logs: Vec<std::cell::RefCell<Vec<(u32, u32)>>> = (0..streams).map(|_| Default::default()).collect();
    let mut sources = Lanes::with_capacity(streams);
    for (i, log) in logs.iter().enumerate() {
        sources.push(Recorded { source: Source::of_stream(data, params, i, &probe), log });
    }
    let mut sinks: Vec<Ticking<'_, workload::CountSink>> =
        (0..streams).map(|_| Ticking { inner: Default::default(), probe: &probe }).collect();
    let mut app_buf = vec![0u8; params.rs as usize];
    readers::drive_streams(kind, sources, &probe, ReaderConfig::of(params), &Spec::of(params, data.len()), &mut app_buf, &mut sinks)
        .map_err(|e| ParamError { key: "run", message: format!("{} reader failed: {e}", kind.id()) })?;
    Ok(logs.into_iter().map(|l| l.into_inner()).collect())
}

/// The settings one reader's counted pass reads: the experiment's, except
/// the reader list (each reader is counted on its own), `sys` (modelled time
/// is counts × `sys`, applied afterwards) and the reader keys
/// ([`readers::ReaderInfo::keys`]) this reader does not take, which are left
/// at their defaults. Two settings with the same key count the same; the
/// property test `a_reused_count_is_the_count_of_the_new_settings` holds
/// every reader to it.
fn count_key(params: &Params, kind: ReaderKind) -> Params {
    let takes = |k: &str| readers::info(kind).keys.contains(&k);
    let plain = Params::default();
    let mut counted = params.experiment();
    counted.readers = vec![kind];
    // The costs move the reader's clock only when the source lives in time.
    if params.rate == 0 {
        counted.sys = plain.sys;
        counted.sys_kib = plain.sys_kib;
        counted.work = plain.work;
    }
    if !takes(key::CAP) {
        counted.cap = plain.cap;
    }
    if !takes(key::POOL) {
        counted.pool = plain.pool;
    }
    if !takes(key::PEND) {
        counted.pend = plain.pend;
    }
    counted.lab = plain.lab;
    counted.write = plain.write;
    counted
}

/// Counted runs kept for reuse, per thread (a wasm instance has one).
const KEPT_COUNTS: usize = 32;

thread_local! {
    /// The last [`KEPT_COUNTS`] counted runs by [`count_key`], newest last.
    /// The page counts after every control change: a change this reader's
    /// count does not read (the capacity, for the unbuffered reader; `sys`; a
    /// reader added beside it) reuses its count instead of repeating it.
    static COUNTED: RefCell<Vec<(Params, Run)>> = const { RefCell::new(Vec::new()) };
}

/// The counted pass of one reader ([`count_reader`]), or the same count made
/// before for the same [`count_key`], with this experiment's `sys`.
fn count_reader_reusing(params: &Params, kind: ReaderKind, data: &[u8]) -> Result<Run, ParamError> {
    let key = count_key(params, kind);
    COUNTED.with_borrow_mut(|kept| {
        if let Some((_, run)) = kept.iter().find(|(k, _)| *k == key) {
            return Ok(Run { modelled_io_ns: modelled_io_ns(params, run.source_reads, run.source_bytes), ..counts_of(run) });
        }
        let run = count_reader(params, kind, data)?;
        if kept.len() == KEPT_COUNTS {
            kept.remove(0);
        }
        kept.push((key, counts_of(&run)));
        Ok(run)
    })
}

/// A copy of a counted run (which has no timeline).
fn counts_of(run: &Run) -> Run {
    Run { digest: run.digest.clone(), timeline: None, ..*run }
}

/// Modelled I/O time: `sys` per source read and `sys_kib` per KiB read.
pub fn modelled_io_ns(params: &Params, source_reads: u64, source_bytes: u64) -> f64 {
    source_reads as f64 * params.sys as f64 + source_bytes as f64 * params.sys_kib as f64 / 1024.0
}

/// The counted pass of one reader: its counts and digest, untimed
/// (`cpu_ns` empty, no timeline).
fn count_reader(params: &Params, kind: ReaderKind, data: &[u8]) -> Result<Run, ParamError> {
    let streams = params.streams as usize;
    // The application's buffer and the sinks are the harness's, not the
    // reader's cost: made before the allocation scope starts.
    let mut app_buf = vec![0u8; params.rs as usize];
    let probe = Probe::default();
    let mut digests: Vec<Ticking<'_, DigestSink>> =
        (0..streams).map(|_| Ticking { inner: DigestSink::default(), probe: &probe }).collect();

    let scope = AllocScope::start();
    let driven = once(params, kind, data, &probe, &mut app_buf, &mut digests)?;
    let alloc = scope.finish();
    let per_stream: Vec<u64> = digests.iter().map(|d| d.inner.value()).collect();

    let (source_reads, source_bytes) = (probe.source_reads(), probe.source_bytes());
    Ok(Run {
        reader: kind,
        source_reads,
        app_reads: driven.app.app_reads,
        bytes: driven.app.bytes,
        bytes_copied: driven.bytes_copied,
        alloc,
        digest: combined_digest(&per_stream),
        cpu_ns: Stats::default(),
        modelled_io_ns: modelled_io_ns(params, source_reads, source_bytes),
        source_bytes,
        arrival: params.lives_in_time().then(|| {
            let w = probe.waiting();
            ArrivalCounts {
                waits: w.waits,
                waited_ns: w.waited_ps as f64 / 1000.0,
                joined: w.joined,
                elapsed_ns: Costs::of(params).clock_ps(&probe) as f64 / 1000.0,
            }
        }),
        blocks: driven.blocks,
        polls: driven.polls.map(|p| p.polls),
        pendings: driven.polls.map(|p| p.pendings),
        timeline: None,
        cpu_x_copy: None,
    })
}

/// The timed pass of a counted run (`sampling`), and its buffer timeline
/// when asked for.
fn time_run(
    params: &Params,
    run: &mut Run,
    data: &[u8],
    clock: &dyn Clock,
    resolution_ns: f64,
    sampling: Sampling,
    timelines: Timelines,
) {
    let mut app_buf = vec![0u8; params.rs as usize];
    run.cpu_ns = time_reader(params, run.reader, data, &mut app_buf, clock, resolution_ns, sampling);
    // Untimed and outside the allocation scope: its wrappers and logs
    // must not touch the counts.
    run.timeline = trace(params, run.reader, data, timelines);
}

/// The timed pass of one reader, sampled: the same run without a counter
/// (see `timed`). Counted once before: a failure here would have failed there.
#[cfg(feature = "timed")]
fn time_reader(
    params: &Params,
    kind: ReaderKind,
    data: &[u8],
    app_buf: &mut [u8],
    clock: &dyn Clock,
    resolution_ns: f64,
    sampling: Sampling,
) -> Stats {
    let mut sinks: Vec<CountSink> = (0..params.streams).map(|_| CountSink::default()).collect();
    // A source living in time: the counted pass's read sizes, replayed.
    let plans = params.lives_in_time()
        .then(|| read_sizes(params, kind, data).unwrap_or_default());
    let stats = clock::sample(clock, resolution_ns, sampling, || {
        let _ = match &plans {
            Some(plans) => timed::run_replayed(kind, params, data, plans, app_buf, &mut sinks),
            None => timed::run(kind, params, data, app_buf, &mut sinks),
        };
    });
    std::hint::black_box(sinks.iter().map(|s| s.0).sum::<u64>());
    stats
}

/// The counting module has no timed pass (`clock::check_timed` refused
/// any sampling before the run began).
#[cfg(not(feature = "timed"))]
fn time_reader(_: &Params, _: ReaderKind, _: &[u8], _: &mut [u8], _: &dyn Clock, _: f64, _: Sampling) -> Stats {
    Stats::default()
}

/// The buffer timeline of one reader, recorded when asked for.
#[cfg(feature = "timed")]
fn trace(params: &Params, kind: ReaderKind, data: &[u8], timelines: Timelines) -> Option<Timeline> {
    (timelines == Timelines::Record).then(|| timeline::record(params, kind, data))
}

/// The counting module has no recorder: the full engine's report brings the timeline.
#[cfg(not(feature = "timed"))]
fn trace(_: &Params, _: ReaderKind, _: &[u8], _: Timelines) -> Option<Timeline> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::clock::InstantClock;
    use crate::model::KIB;

    fn kept() -> Vec<Params> {
        COUNTED.with_borrow(|kept| kept.iter().map(|(key, _)| key.clone()).collect())
    }

    /// The default link with its capacity changed counts std again, not the
    /// unbuffered reader, which has no buffer; `sys` reaches the reused run.
    #[test]
    fn a_capacity_change_counts_only_the_readers_with_a_buffer() {
        let counted = |params: &Params| run(params, &InstantClock::default(), Sampling::COUNTS).expect("counts");
        let eight = Params::default();
        let first = counted(&eight);
        assert_eq!(kept().len(), 2);
        let sixteen = Params { cap: 16 * KIB, sys: 1000, ..eight.clone() };
        let second = counted(&sixteen);
        assert_eq!(kept().len(), 3, "only std counted again");
        assert_eq!(kept()[2], count_key(&sixteen, ReaderKind::Std));
        let (unbuffered, reused) = (&first.runs[0], &second.runs[0]);
        assert_eq!(reused.reader, ReaderKind::Unbuffered);
        assert_eq!((reused.source_reads, &reused.digest), (unbuffered.source_reads, &unbuffered.digest));
        assert_eq!(reused.modelled_io_ns, reused.source_reads as f64 * 1000.0);
        assert_eq!((first.runs[1].alloc.alloc_bytes, second.runs[1].alloc.alloc_bytes), (8 * KIB, 16 * KIB), "std counted with 16 KiB");
        // Back to 8 KiB: nothing new to count.
        counted(&eight);
        assert_eq!(kept().len(), 3);
    }

    /// At most KEPT_COUNTS runs stay: the oldest goes first.
    #[test]
    fn the_oldest_counts_go_first() {
        let small = |rs: u64| Params { len: KIB, rs, readers: vec![ReaderKind::Std], ..Params::default() };
        for rs in 1..=KEPT_COUNTS as u64 + 5 {
            run(&small(rs), &InstantClock::default(), Sampling::COUNTS).expect("counts");
        }
        let kept = kept();
        assert_eq!(kept.len(), KEPT_COUNTS);
        assert_eq!(kept[0].rs, 6);
        assert_eq!(kept[KEPT_COUNTS - 1].rs, KEPT_COUNTS as u64 + 5);
    }
}
