//! The façade the wasm glue, the CLI and the tests call: the engine's runs
//! with their links filled in. The engine does not know the link codec, so
//! every report it makes leaves `link` empty; this is the one place that
//! pairs the two.

use crate::catalog;
use crate::engine::clock::{Clock, Sampling};
use crate::engine::compare::{self, ResultError};
use crate::engine::trace::{Parser, Trace};
use crate::engine::{experiment, sweep, write};
use crate::link;
use crate::model::{
    Comparison, LabReport, ParamError, Params, Replay, ReplayOptions, Report, SweepComparison, SweepPoint, SweepReport, TraceProgress,
    WriteReport,
};
#[cfg(not(target_arch = "wasm32"))]
use crate::model::RealReport;

/// Checks `params`, then runs the read lab's experiment.
pub fn run(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<Report, ParamError> {
    let mut report = experiment::run(params, clock, sampling)?;
    report.link = link::encode(&report.params);
    here(&mut report);
    Ok(report)
}

/// Natively, where a report was measured (`engine::machine`); in a browser
/// the wasm glue says so from the worker's `navigator`.
fn here(report: &mut Report) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        report.machine = Some(crate::engine::machine::native(&report.timer));
    }
    let _ = report;
}

/// Compares `a` with `b` (`engine::compare::run`: counts, then times in
/// alternating rounds), with the links, the settings that differ and every
/// sentence filled in.
pub fn compare(a: &Params, b: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<Comparison, ParamError> {
    let mut c = compare::run(a, b, clock, sampling)?;
    here(&mut c.a);
    here(&mut c.b);
    if a.sweep.is_some() && b.sweep.is_some() {
        // A sweep's points take the sweep's own lighter sampling, as a sweep alone does.
        let points = Sampling::chosen(sampling.samples == 0, sampling == Sampling::QUICK, sweep::SAMPLING);
        c.sweeps = Some(Box::new(compare_sweeps(a, b, clock, points, |_, _, _, _| {})?));
    }
    Ok(described(c))
}

/// Two results measured separately (a saved run, exported files), paired.
pub fn pair(a: Report, b: Report) -> Comparison {
    described(compare::pair(a, b))
}

/// Two exported result files (untrusted text) read and paired; an error
/// names the file and what is wrong with it.
pub fn pair_results(a: &str, b: &str) -> Result<Comparison, ResultError> {
    compare::pair_results(a, b).map(described)
}

/// A comparison with its links, changed settings and sentences.
fn described(mut c: Comparison) -> Comparison {
    c.a.link = link::encode(&c.a.params);
    c.b.link = link::encode(&c.b.params);
    c.link = link::encode_pair(&c.a.params, &c.b.params);
    c.changed = link::changed(&c.a.params, &c.b.params);
    catalog::compare::describe(&mut c);
    c
}

/// Checks `params`, then runs the write lab (whatever `params.lab` says).
pub fn run_write(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<WriteReport, ParamError> {
    let mut report = write::run(params, clock, sampling)?;
    report.link = link::encode(&report.params);
    Ok(report)
}

/// Runs the lab `params.lab` selects.
pub fn run_lab(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<LabReport, ParamError> {
    Ok(match experiment::run_lab(params, clock, sampling)? {
        LabReport::Read(mut r) => {
            r.link = link::encode(&r.params);
            here(&mut r);
            LabReport::Read(r)
        }
        LabReport::Write(w) => LabReport::Write(WriteReport { link: link::encode(&w.params), ..w }),
    })
}

/// Times the read lab's experiment whose counts are known (`counted`, a
/// counts report of these params, from either build): the timed pass
/// alone (`experiment::time_counted`), with the link filled in.
pub fn time_counted(params: &Params, counted: Report, clock: &dyn Clock, sampling: Sampling) -> Result<Report, ParamError> {
    let mut report = experiment::time_counted(params, counted, clock, sampling)?;
    report.link = link::encode(&report.params);
    here(&mut report);
    Ok(report)
}

/// Runs point `index` of the sweep in `params`.
pub fn run_point(params: &Params, index: usize, clock: &dyn Clock, sampling: Sampling) -> Result<SweepPoint, ParamError> {
    let mut point = sweep::run_point(params, index, clock, sampling)?;
    point.report.link = link::encode(&point.report.params);
    Ok(point)
}

/// The sweep report of the points done so far (knees included); `None`
/// without a sweep.
pub fn sweep_report(params: &Params, points: Vec<SweepPoint>) -> Option<SweepReport> {
    let mut report = sweep::report(params, points)?;
    report.link = link::encode(params);
    Some(report)
}

/// Runs every point of the sweep in order, calling `on_point` after each.
pub fn run_sweep(
    params: &Params,
    clock: &dyn Clock,
    sampling: Sampling,
    on_point: impl FnMut(usize, usize, &SweepPoint),
) -> Result<SweepReport, ParamError> {
    let mut report = sweep::run_sweep(params, clock, sampling, on_point)?;
    report.link = link::encode(params);
    for point in &mut report.points {
        point.report.link = link::encode(&point.report.params);
    }
    Ok(report)
}

/// Compares the sweeps of `a` and `b` (a comparison link whose A has a
/// sweep): both sweeps run point by point in alternating order
/// (`engine::sweep::run_pair`), the knee of each side paired, with the
/// links, the settings that differ and every sentence filled in.
pub fn compare_sweeps(
    a: &Params,
    b: &Params,
    clock: &dyn Clock,
    sampling: Sampling,
    on_point: impl FnMut(char, usize, usize, &SweepPoint),
) -> Result<SweepComparison, ParamError> {
    Ok(sweeps_described(sweep::run_pair(a, b, clock, sampling, on_point)?))
}

/// Two sweep reports measured already (the page runs each side's points
/// itself), paired: the knee of each side, with links and sentences.
pub fn pair_sweeps(a: SweepReport, b: SweepReport) -> SweepComparison {
    let knees = sweep::compare_knees(&a, &b);
    sweeps_described(SweepComparison { a, b, link: String::new(), changed: Vec::new(), knees })
}

/// A sweep comparison with its links, changed settings and sentences.
fn sweeps_described(mut c: SweepComparison) -> SweepComparison {
    for r in [&mut c.a, &mut c.b] {
        r.link = link::encode(&r.params);
        for point in &mut r.points {
            point.report.link = link::encode(&point.report.params);
        }
    }
    c.link = link::encode_pair(&c.a.params, &c.b.params);
    c.changed = link::changed(&c.a.params, &c.b.params);
    catalog::compare::describe_sweeps(&mut c);
    c
}

/// Runs the link's readers over real kernel sources beside its simulated
/// run (`buflab real`); the report's `link` carries the calibrated `sys`.
/// `sampling` times the simulated runs, `real` the real ones.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_real(params: &Params, clock: &dyn Clock, sampling: Sampling, real: Sampling) -> Result<RealReport, ParamError> {
    let mut report = crate::engine::real::native::run(params, clock, sampling, real)?;
    report.simulated.link = link::encode(&report.simulated.params);
    report.link = link::encode(&report.calibrated_params());
    Ok(report)
}

/// Ends a log's reading (`complete`: it was read to its end), with the
/// catalog's words filled in (see [`trace_words`]).
pub fn trace_finish(parser: Parser, complete: bool) -> Trace {
    trace_words(parser.finish(complete))
}

/// Reads a whole log from `input` in chunks of `chunk` bytes
/// (`engine::trace::read_log`), with the catalog's words filled in.
pub fn read_trace(input: impl std::io::Read, chunk: usize, go_on: impl FnMut(&TraceProgress) -> bool) -> std::io::Result<Trace> {
    crate::engine::trace::read_log(input, chunk, go_on).map(trace_words)
}

/// Says what each descriptor's reads show about its source (the catalog's words).
fn trace_words(mut trace: Trace) -> Trace {
    for d in &mut trace.report.descriptors {
        d.about = crate::catalog::trace::about_source(d);
        d.label = crate::catalog::trace::label(d);
    }
    for line in &mut trace.report.skipped.examples {
        line.why = crate::catalog::trace::skip_reason(line.reason).to_string();
    }
    trace
}

/// Replays descriptor `id` of `trace` (`Trace::replay`), with the nearest
/// link's link and the sentences filled in.
pub fn trace_replay(trace: &Trace, id: u32, options: &ReplayOptions, clock: &dyn Clock) -> Result<Replay, ParamError> {
    let mut replay = trace.replay(id, options, clock)?;
    let d = &trace.report.descriptors[id as usize];
    if let Some(fit) = &mut replay.fit {
        fit.link = link::encode(&fit.params);
        fit.about = crate::catalog::trace::fit_about(fit);
    }
    replay.headline = crate::catalog::trace::headline(d, &replay);
    Ok(replay)
}
