//! The write lab: seed 004's seven write cursors serializing records, and
//! `std::io::BufWriter` over a chunked sink.
//!
//! [`run`] is the write lab's experiment: every chosen cursor flavour
//! serializes the same records (first once for counts and the bytes check,
//! then timed with the read side's warm-up, batching and statistics), then
//! the sink experiment writes the same data directly and through a
//! `BufWriter`, and last the final-flush demonstration shows where an error
//! on the last write goes.

pub mod bufwriter;
pub mod cursors;
pub mod sink;

use std::hint::black_box;

use super::measure::{self, AllocScope, Clock, Sampling};
use super::source::{counting_bytes, Chunker};
use super::workload::{digest_of, Consume, CountSink, DigestSink};
use crate::model::{
    Ending, Flavour, FlavourRun, Id, Lab, ParamError, Params, Record, SinkRun, Timer, WriteFailure, WriteMode,
    WriteReport, RECORD_BYTES,
};

use cursors::Sizes;
use sink::{Sink, SinkProbe};

/// Checks `params`, then runs the write lab (whatever `params.lab` says).
pub fn run(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<WriteReport, ParamError> {
    params.check()?;
    let w = &params.write;
    let resolution_ns = measure::resolution_ns(clock);

    let records = cursors::records(w.records as usize);
    let mut reference = DigestSink::default();
    cursors::encode_by_hand(&records, &mut |b| reference.take(b));
    let sizes = Sizes { init_cap: w.init_cap as usize, buf: w.buf as usize };
    let flavours = w
        .flavours
        .iter()
        .map(|&f| run_flavour(f, &records, sizes, clock, resolution_ns, sampling))
        .collect();
    drop(records);

    let data = counting_bytes(w.len as usize);
    let sink = [WriteMode::Direct, WriteMode::BufWriter]
        .into_iter()
        .map(|mode| run_sink(params, mode, &data, clock, resolution_ns, sampling))
        .collect::<Result<Vec<_>, _>>()?;
    let final_flush = Ending::all()
        .into_iter()
        .map(|e| bufwriter::final_flush(e, &data, w.ws as usize, w.cap as usize, Chunker::new(w.sink, params.seed)))
        .collect();

    Ok(WriteReport {
        lab: Lab::Write,
        params: params.clone(),
        flavours,
        reference_digest: reference.hex(),
        reference_bytes: w.records * RECORD_BYTES,
        sink,
        sink_digest: digest_of(&data),
        final_flush,
        timer: Timer { resolution_ns, isolated: clock.isolated() },
        quick: sampling == Sampling::QUICK,
        link: String::new(),
    })
}

fn run_flavour(
    flavour: Flavour,
    records: &[Record],
    sizes: Sizes,
    clock: &dyn Clock,
    resolution_ns: f64,
    sampling: Sampling,
) -> FlavourRun {
    let mut digest = DigestSink::default();
    let scope = AllocScope::start();
    let outcome = cursors::serialize(flavour, records, sizes, &mut |b| digest.take(b));
    let alloc = scope.finish();
    match outcome {
        Ok(bytes) => {
            let cpu_ns = measure::sample(clock, resolution_ns, sampling, || {
                // Succeeded once above, so it succeeds here: same input, same type.
                let _ = black_box(cursors::serialize(flavour, black_box(records), sizes, &mut |b| {
                    black_box(b);
                }));
            });
            FlavourRun { flavour, bytes, alloc, digest: Some(digest.hex()), error: None, cpu_ns: Some(cpu_ns) }
        }
        // A fixed buffer that is too small: the run ends, is shown, and is not timed.
        Err(stopped) => FlavourRun {
            flavour,
            bytes: stopped.bytes_written,
            alloc,
            digest: None,
            error: Some(WriteFailure::from(&stopped)),
            cpu_ns: None,
        },
    }
}

/// One pass of the sink experiment; generic over the consumer so timed runs
/// pay for no digest and no dynamic call.
fn sink_once<C: Consume>(params: &Params, mode: WriteMode, data: &[u8], consume: C) -> (std::io::Result<(u64, C)>, SinkProbe) {
    let w = &params.write;
    let probe = SinkProbe::default();
    probe.set_app_window(data);
    let sink = Sink::new(Chunker::new(w.sink, params.seed), &probe, consume);
    let result = bufwriter::drive(mode, data, w.ws as usize, w.cap as usize, sink);
    (result, probe)
}

fn run_sink(
    params: &Params,
    mode: WriteMode,
    data: &[u8],
    clock: &dyn Clock,
    resolution_ns: f64,
    sampling: Sampling,
) -> Result<SinkRun, ParamError> {
    let scope = AllocScope::start();
    let (result, probe) = sink_once(params, mode, data, DigestSink::default());
    let alloc = scope.finish();
    let (app_writes, digest) =
        result.map_err(|e| ParamError { key: "run", message: format!("{} failed: {e}", mode.id()) })?;

    let cpu_ns = measure::sample(clock, resolution_ns, sampling, || {
        // Succeeded once above; the sink only fails when built to.
        let _ = black_box(sink_once(params, mode, data, CountSink::default()).0.map(|(_, c)| c.0));
    });

    Ok(SinkRun {
        mode,
        app_writes,
        sink_writes: probe.writes(),
        sink_flushes: probe.flushes(),
        bytes: probe.accepted(),
        // Whatever the sink took from somewhere other than the application's
        // own data was copied into the writer's buffer first.
        bytes_copied: probe.accepted() - probe.direct_bytes(),
        alloc,
        digest: digest.hex(),
        cpu_ns,
        modelled_io_ns: probe.writes() as f64 * params.sys as f64,
    })
}
