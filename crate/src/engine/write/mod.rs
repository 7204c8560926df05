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

use super::clock::{self, Clock, Sampling};
use super::heap::AllocScope;
use super::source::{counting_bytes, AtMost, Chunker, Limit, Uniform};
use super::workload::{digest_of, Consume, CountSink, DigestSink};
use crate::model::{
    ChunkModel, Ending, Flavour, FlavourRun, Id, Lab, ParamError, Params, Record, SinkRun, WriteFailure, WriteMode,
    WriteReport, RECORD_BYTES,
};

use cursors::Sizes;
use sink::{Drain, Sink, SinkProbe};

/// Checks `params`, then runs the write lab (whatever `params.lab` says).
pub fn run(params: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<WriteReport, ParamError> {
    params.check()?;
    clock::check_timed(sampling)?;
    let w = &params.write;
    let resolution_ns = clock::resolution_ns(clock);

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
        timer: clock::timer(clock, resolution_ns),
        quick: sampling == Sampling::QUICK,
        stage: sampling.stage(),
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
            let cpu_ns = clock::sample(clock, resolution_ns, sampling, || {
                // Succeeded once above, so it succeeds here: same input, same type.
                #[cfg(feature = "timed")]
                let _ = std::hint::black_box(cursors::serialize(flavour, std::hint::black_box(records), sizes, &mut |b| {
                    std::hint::black_box(b);
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

/// The counted pass of the sink experiment: the application's `write_all`
/// calls and the digest of what arrived.
fn sink_counted(params: &Params, mode: WriteMode, data: &[u8], probe: &SinkProbe) -> std::io::Result<(u64, DigestSink)> {
    let w = &params.write;
    probe.set_app_window(data);
    let sink = Sink::new(Chunker::new(w.sink, params.seed), probe, DigestSink::default());
    let mut app_writes = 0;
    let sink = bufwriter::drive(mode, data, w.ws as usize, w.cap as usize, sink, || app_writes += 1)?;
    Ok((app_writes, sink.into_consume()))
}

/// The timed pass of the sink experiment: the same writes into a [`Drain`]
/// cut as the counted pass's sink is, counting nothing. Returns the drain's
/// sum (of every accepted write's length and first byte).
pub fn timed_sink(params: &Params, mode: WriteMode, data: &[u8]) -> std::io::Result<u64> {
    let w = &params.write;
    let (ws, cap) = (w.ws as usize, w.cap as usize);
    match (w.sink, AtMost::of(w.sink)) {
        (ChunkModel::Uniform { min, max }, _) => drain(mode, data, ws, cap, Uniform::new(min, max, params.seed)),
        (_, Some(limit)) => drain(mode, data, ws, cap, limit),
        (_, None) => unreachable!("only uniform has no single limit"),
    }
}

/// One mode's writes into a fresh drain; never inlined, one per chunk kind.
#[inline(never)]
fn drain<L: Limit>(mode: WriteMode, data: &[u8], ws: usize, cap: usize, chunks: L) -> std::io::Result<u64> {
    let sink = bufwriter::drive(mode, data, ws, cap, Drain::new(chunks, CountSink::default()), || {})?;
    Ok(sink.into_consume().0)
}

fn run_sink(
    params: &Params,
    mode: WriteMode,
    data: &[u8],
    clock: &dyn Clock,
    resolution_ns: f64,
    sampling: Sampling,
) -> Result<SinkRun, ParamError> {
    let probe = SinkProbe::default();
    let scope = AllocScope::start();
    let result = sink_counted(params, mode, data, &probe);
    let alloc = scope.finish();
    let (app_writes, digest) =
        result.map_err(|e| ParamError { key: "run", message: format!("{} failed: {e}", mode.id()) })?;

    let cpu_ns = clock::sample(clock, resolution_ns, sampling, || {
        // Succeeded once above; the sink only fails when built to.
        #[cfg(feature = "timed")]
        let _ = std::hint::black_box(timed_sink(params, mode, data));
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
