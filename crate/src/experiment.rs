//! Runs one experiment: every chosen reader over the same stream, first once
//! for counts and the digest, then timed.

use crate::measure::{self, AllocScope, Clock, Sampling};
use crate::params::{Lab, ParamError, Params};
use crate::read::{self, ReaderKind};
use crate::report::{LabReport, Report, Run, Timer};
use crate::source::{counting_bytes, Probe, Source};
use crate::workload::{digest_of, AppCounts, Consume, CountSink, DigestSink};

/// Checks `params`, then runs the experiment. `sampling` decides how hard to
/// time ([`Sampling::FULL`] or [`Sampling::QUICK`]).
pub fn run(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<Report, ParamError> {
    params.check()?;
    let data = counting_bytes(params.len as usize);
    let resolution_ns = measure::resolution_ns(clock);
    let runs = params
        .readers
        .iter()
        .map(|&kind| run_reader(params, kind, &data, clock, resolution_ns, sampling))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Report {
        params: params.clone(),
        runs,
        timer: Timer { resolution_ns, isolated: clock.isolated() },
        quick: sampling == Sampling::QUICK,
        source_digest: digest_of(&data),
        link: params.to_link(),
        lab: Lab::Read,
    })
}

/// Runs the lab `params.lab` selects: [`run`] for the read lab,
/// [`crate::write::run`] for the write lab.
pub fn run_lab(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<LabReport, ParamError> {
    match params.lab {
        Lab::Read => run(params, clock, sampling).map(LabReport::Read),
        Lab::Write => crate::write::run(params, clock, sampling).map(LabReport::Write),
    }
}

/// Counts of one run: what the application saw and what the source saw.
struct Counted {
    app: AppCounts,
    source_reads: u64,
    direct_bytes: u64,
}

fn once<C: Consume>(params: &Params, kind: ReaderKind, data: &[u8], app_buf: &mut [u8], sink: &mut C) -> Result<Counted, ParamError> {
    let probe = Probe::default();
    let source = Source::new(data, params.chunk, params.seed, &probe);
    let app = read::drive(kind, source, params.cap as usize, params.workload, app_buf, sink)
        .map_err(|e| ParamError { key: "run", message: format!("{} reader failed: {e}", kind.id()) })?;
    Ok(Counted { app, source_reads: probe.source_reads(), direct_bytes: probe.direct_bytes() })
}

fn run_reader(
    params: &Params,
    kind: ReaderKind,
    data: &[u8],
    clock: &dyn Clock,
    resolution_ns: f64,
    sampling: Sampling,
) -> Result<Run, ParamError> {
    // The application's buffer is the application's, not the reader's cost.
    let mut app_buf = vec![0u8; params.rs as usize];

    let mut digest = DigestSink::default();
    let scope = AllocScope::start();
    let counted = once(params, kind, data, &mut app_buf, &mut digest)?;
    let alloc = scope.finish();

    let mut sink = CountSink::default();
    let cpu_ns = measure::sample(clock, resolution_ns, sampling, || {
        // Counted once above; a failure here would have failed there.
        let _ = once(params, kind, data, &mut app_buf, &mut sink);
    });
    std::hint::black_box(sink.0);

    Ok(Run {
        reader: kind,
        source_reads: counted.source_reads,
        app_reads: counted.app.app_reads,
        bytes: counted.app.bytes,
        // Whatever reached the application without the source writing it
        // there directly was copied inside the reader.
        bytes_copied: counted.app.bytes - counted.direct_bytes,
        alloc,
        digest: digest.hex(),
        cpu_ns,
        modelled_io_ns: counted.source_reads as f64 * params.sys as f64,
    })
}
