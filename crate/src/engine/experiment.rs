//! Runs one experiment: every chosen reader over the same streams, first once
//! for counts and the digest (the counted pass), then timed without any
//! counter (the timed pass, `engine::timed`).
//!
//! Reports leave `link` empty: the engine does not know the link codec; the
//! façade above both (`crate::api`) fills it in.

use super::content;
use super::measure::{self, AllocScope, Clock, Lanes, Sampling};
use super::readers::{self, Driven, ReaderConfig};
use super::source::{stream_seed, Probe, Source};
#[cfg(feature = "timed")]
use super::workload::CountSink;
#[cfg(feature = "timed")]
use super::{timed, timeline};
use super::workload::{self, combined_digest, Consume, DigestSink, Spec};
use crate::model::{Id, Lab, LabReport, ParamError, Params, ReaderKind, Report, Run, Stage, Stats, Timeline, Timer};

/// Checks `params`, then runs the experiment. `sampling` decides how hard to
/// time ([`Sampling::FULL`] or [`Sampling::QUICK`]).
pub fn run(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<Report, ParamError> {
    run_with(params, clock, sampling, Timelines::Record)
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
    measure::check_timed(sampling)?;
    workload::check_served(params.workload)?;
    // Generated once and shared by every reader and every stream.
    let data = content::generate(params);
    let expected = content::expected(params.workload, &data);
    let resolution_ns = measure::resolution_ns(clock);
    // Each reader is counted, then timed, before the next is counted.
    let runs = params
        .readers
        .iter()
        .map(|&kind| {
            let mut run = count_reader(params, kind, &data)?;
            time_run(params, &mut run, &data, clock, resolution_ns, sampling, timelines);
            Ok(run)
        })
        .collect::<Result<Vec<_>, ParamError>>()?;
    Ok(Report {
        params: params.clone(),
        runs,
        timer: Timer { resolution_ns, isolated: clock.isolated() },
        quick: sampling == Sampling::QUICK,
        stage: sampling.stage(),
        source_digest: combined_digest(&vec![expected.digest; params.streams as usize]),
        link: String::new(),
        lab: Lab::Read,
    })
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
    measure::check_timed(sampling)?;
    workload::check_served(params.workload)?;
    let refused = |message: &str| ParamError { key: "counts", message: message.into() };
    if counted.stage != Stage::Counts || sampling.stage() == Stage::Counts {
        return Err(refused("only a counts report can be timed, and only with timing"));
    }
    if counted.params.experiment() != params.experiment() || counted.runs.iter().map(|r| r.reader).ne(params.readers.iter().copied()) {
        return Err(refused("the counts are of other settings"));
    }
    let data = content::generate(params);
    let resolution_ns = measure::resolution_ns(clock);
    let mut report = Report { params: params.clone(), ..counted };
    for run in &mut report.runs {
        time_run(params, run, &data, clock, resolution_ns, sampling, Timelines::Record);
    }
    report.timer = Timer { resolution_ns, isolated: clock.isolated() };
    report.quick = sampling == Sampling::QUICK;
    report.stage = sampling.stage();
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

/// Counts of one run: what the reader and application did and what the
/// sources saw.
struct Counted {
    driven: Driven,
    source_reads: u64,
}

fn once<C: Consume>(
    params: &Params,
    kind: ReaderKind,
    data: &[u8],
    app_buf: &mut [u8],
    sinks: &mut [C],
) -> Result<Counted, ParamError> {
    let probe = Probe::default();
    let mut sources = Lanes::with_capacity(sinks.len());
    for i in 0..sinks.len() {
        let seed = stream_seed(params.seed, i);
        sources.push(Source::new(data, params.chunk, seed, &probe).with_pending(params.pend, seed));
    }
    let spec = Spec::of(params, data.len());
    let driven = readers::drive_streams(kind, sources, &probe, ReaderConfig::of(params), &spec, app_buf, sinks)
        .map_err(|e| ParamError { key: "run", message: format!("{} reader failed: {e}", kind.id()) })?;
    Ok(Counted { driven, source_reads: probe.source_reads() })
}

/// The counted pass of one reader: its counts and digest, untimed
/// (`cpu_ns` empty, no timeline).
fn count_reader(params: &Params, kind: ReaderKind, data: &[u8]) -> Result<Run, ParamError> {
    let streams = params.streams as usize;
    // The application's buffer and the sinks are the harness's, not the
    // reader's cost: made before the allocation scope starts.
    let mut app_buf = vec![0u8; params.rs as usize];
    let mut digests: Vec<DigestSink> = (0..streams).map(|_| DigestSink::default()).collect();

    let scope = AllocScope::start();
    let counted = once(params, kind, data, &mut app_buf, &mut digests)?;
    let alloc = scope.finish();
    let per_stream: Vec<u64> = digests.iter().map(DigestSink::value).collect();

    let driven = counted.driven;
    Ok(Run {
        reader: kind,
        source_reads: counted.source_reads,
        app_reads: driven.app.app_reads,
        bytes: driven.app.bytes,
        bytes_copied: driven.bytes_copied,
        alloc,
        digest: combined_digest(&per_stream),
        cpu_ns: Stats::default(),
        modelled_io_ns: counted.source_reads as f64 * params.sys as f64,
        blocks: driven.blocks,
        polls: driven.polls.map(|p| p.polls),
        pendings: driven.polls.map(|p| p.pendings),
        timeline: None,
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
    let stats = measure::sample(clock, resolution_ns, sampling, || {
        let _ = timed::run(kind, params, data, app_buf, &mut sinks);
    });
    std::hint::black_box(sinks.iter().map(|s| s.0).sum::<u64>());
    stats
}

/// The counting module has no timed pass (`measure::check_timed` refused
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
