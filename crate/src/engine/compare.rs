//! Two experiments compared: A and B counted exactly, then timed in
//! alternating rounds of one measurement; or two results measured
//! separately (a saved run, exported files) paired as they are.
//!
//! The timing. After a warm-up of each side (which also sizes each side's
//! batch, so one sample spans at least as many timer ticks as a settled
//! measurement's), every round times one batched sample of A and one of B,
//! A first in even rounds and B first in odd ones, so drift in the
//! machine's speed and any cost of going second fall on both alike. Each
//! round gives one ratio B ÷ A of two samples taken moments apart.
//!
//! The verdict. The median of the per-round ratios, with a distribution-free
//! confidence interval from order statistics ([`median_interval`]): with `n`
//! rounds, the `k`-th smallest and `k`-th largest ratio, `k` the largest for
//! which the chance that fewer than `k` of `n` ratios fall below the true
//! median is at most 2.5 % (Binomial(n, ½)). It assumes only that rounds
//! are independent, not that noise is normal or symmetric; one round hit
//! by a burst of load moves it by one order statistic. B is `faster` when
//! the whole interval lies below 1 ÷ (1 + [`MARGIN`]), `slower` when above
//! 1 + [`MARGIN`], else the `same` within noise. An A/A comparison (B the
//! same experiment) must read `same`: an interval beyond the margin needs
//! at least `n − k + 1` of the `n` rounds to put one side more than the
//! margin ahead, which load shared by both sides does not do.
//!
//! Separate measurements cannot average drift out: their times are called
//! faster or slower only beyond [`SEPARATE_FACTOR`], and times in ns from
//! two machines not at all (their "× copy" figures instead).

use crate::model::{
    x_copy, Compared, Comparison, Machine, MetricId, Outcome, PairedRun, ParamError, Params, ReaderKind, Report, Run,
    Spread, SpreadKind, Stats, Timing, COMPARISON_KIND, REPORT_FORMAT,
};
use crate::model::Lab;

use super::experiment::{self, Timelines};
use super::clock::{self, Clock, Sampling};
#[cfg(feature = "timed")]
use super::content;
use super::workload;

/// Rounds of a settled comparison: an interval of the 6th to the 16th
/// ratio, coverage 97.3 %.
pub const ROUNDS: u32 = 21;

/// Rounds of a quick comparison (`Sampling::QUICK`): the interval is the
/// fastest to the slowest ratio, coverage 98.4 %.
pub const QUICK_ROUNDS: u32 = 7;

/// The nominal confidence of a ratio's interval: 99 %, not 95 %, because a
/// comparison reads several intervals at once (each reader's time and the
/// copy floor) and any one of them beyond the margin is a claim.
pub const CONFIDENCE: f64 = 0.99;

/// How far beyond 1 the interval must lie for B to be called faster or
/// slower: 5 %. Smaller differences exist, but alternating rounds on a
/// shared machine do not show them reliably (the A/A test,
/// `crate/tests/compare.rs`, runs on a loaded two-core machine).
pub const MARGIN: f64 = 0.05;

/// The shortest sample a round takes of each side: runs are batched until
/// one lasts this long (or the sampling's ticks, if longer). On a shared
/// machine the scheduler hands out the cores in slices of a few ms, so a
/// sample of one short run is either untouched or stretched several times;
/// over 10 ms the share a side gets evens out, and each round's ratio with
/// it.
pub const ROUND_NS: f64 = 10e6;

/// Two measurements taken at different times: a time is faster or slower
/// only when every ratio their samples allow lies beyond 3×. The same link
/// measured twice minutes apart on a busy two-core machine has differed by
/// 2.3× (issue 49): drift that one measurement's spread does not show.
pub const SEPARATE_FACTOR: f64 = 3.0;

/// The distribution-free confidence interval of the median of `n` values:
/// `(lo, hi, coverage)` with `lo` and `hi` 0-based indices into the sorted
/// values and `coverage` the exact chance the interval holds the median
/// (independent values of a continuous distribution). The widest interval,
/// from the least to the greatest value, where even it falls short of
/// `confidence` (fewer than 6 values at 95 %). `None` for no values.
pub fn median_interval(n: usize, confidence: f64) -> Option<(usize, usize, f64)> {
    if n == 0 {
        return None;
    }
    // P(X ≤ j) for X ~ Binomial(n, ½), summed in f64 (n is a few dozen).
    let mut below = Vec::with_capacity(n + 1);
    let (mut term, mut sum) = (0.5f64.powi(n as i32), 0.0);
    for j in 0..=n {
        sum += term;
        below.push(sum);
        term = term * (n - j) as f64 / (j + 1) as f64;
    }
    let tail = (1.0 - confidence) / 2.0;
    // The largest k (1-based) with P(X ≤ k − 1) ≤ tail, at least 1.
    let k = (1..=n.div_ceil(2)).rev().find(|&k| below[k - 1] <= tail).unwrap_or(1);
    let coverage = (1.0 - 2.0 * below[k - 1]).max(0.0);
    Some((k - 1, n - k, coverage))
}

/// What the ratio's interval says, B against A, with `margin`.
pub fn verdict(low: f64, high: f64, margin: f64) -> Outcome {
    if low > 1.0 + margin {
        Outcome::Slower
    } else if high < 1.0 / (1.0 + margin) {
        Outcome::Faster
    } else {
        Outcome::Same
    }
}

// ---------------------------------------------------------------------------
// Exact figures

/// The exact figures of a run a comparison shows, in the table's order.
const EXACT: [MetricId; 8] = [
    MetricId::SourceReads,
    MetricId::AppReads,
    MetricId::Polls,
    MetricId::Bytes,
    MetricId::BytesCopied,
    MetricId::Allocations,
    MetricId::PeakBytes,
    MetricId::PoolBlocks,
];

/// A run's exact figure of `metric` (`None`: the reader has none).
fn exact_value(run: &Run, metric: MetricId) -> Option<f64> {
    let n = match metric {
        MetricId::SourceReads => run.source_reads,
        MetricId::AppReads => run.app_reads,
        MetricId::Polls => run.polls?,
        MetricId::Bytes => run.bytes,
        MetricId::BytesCopied => run.bytes_copied,
        MetricId::Allocations => run.alloc.allocations,
        MetricId::PeakBytes => run.alloc.peak_bytes,
        MetricId::PoolBlocks => run.blocks?.allocated,
        _ => return None,
    };
    Some(n as f64)
}

/// An entry with nothing compared yet.
fn entry(metric: MetricId, a: Option<f64>, b: Option<f64>) -> Compared {
    Compared {
        metric,
        a,
        b,
        difference: a.zip(b).map(|(a, b)| b - a),
        ratio: a.zip(b).filter(|&(a, _)| a != 0.0).map(|(a, b)| b / a),
        outcome: Outcome::NotCompared,
        a_spread: None,
        b_spread: None,
        ratio_spread: None,
        a_x_copy: None,
        b_x_copy: None,
        x_copy_outcome: None,
        says: String::new(),
    }
}

/// Two exact figures: a tie, less or more.
fn exact(metric: MetricId, a: Option<f64>, b: Option<f64>) -> Compared {
    let outcome = match (a, b) {
        (Some(a), Some(b)) if a == b => Outcome::Tie,
        (Some(a), Some(b)) if b < a => Outcome::Less,
        (Some(_), Some(_)) => Outcome::More,
        _ => Outcome::NotCompared,
    };
    Compared { outcome, ..entry(metric, a, b) }
}

/// The exact rows of a pair of runs, and modelled I/O (counts × `sys`).
fn exact_rows(a: &Run, b: &Run) -> Vec<Compared> {
    let mut rows: Vec<Compared> = EXACT
        .iter()
        .filter(|&&m| exact_value(a, m).is_some() || exact_value(b, m).is_some())
        .map(|&m| exact(m, exact_value(a, m), exact_value(b, m)))
        .collect();
    rows.push(exact(MetricId::ModelledIoNs, Some(a.modelled_io_ns), Some(b.modelled_io_ns)));
    rows
}

/// Which run of A goes with which run of B: the same reader where both run
/// it (in A's order), then the readers left over on each side in order,
/// then whatever is still unpaired on one side.
pub fn pair_readers(a: &[ReaderKind], b: &[ReaderKind]) -> Vec<(Option<usize>, Option<usize>)> {
    let mut pairs: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    let left_b: Vec<usize> = (0..b.len()).filter(|&j| !a.contains(&b[j])).collect();
    let mut left_b = left_b.into_iter();
    for (i, kind) in a.iter().enumerate() {
        match b.iter().position(|k| k == kind) {
            Some(j) => pairs.push((Some(i), Some(j))),
            None => pairs.push((Some(i), left_b.next())),
        }
    }
    pairs.extend(left_b.map(|j| (None, Some(j))));
    pairs
}

// ---------------------------------------------------------------------------
// Alternating rounds

/// One side's times over the rounds, in round order: per-run ns of each
/// round's sample.
#[derive(Clone, Debug, Default)]
pub struct Rounds {
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    /// Runs per sample on each side.
    pub batch: (u64, u64),
}

#[cfg(feature = "timed")]
impl Rounds {
    /// Each side's times as stats over its rounds.
    fn stats(&self) -> (Stats, Stats) {
        (clock::stats(&mut self.a.clone(), self.batch.0), clock::stats(&mut self.b.clone(), self.batch.1))
    }
}

/// Times `a` and `b` in `rounds` alternating rounds after a warm-up of each
/// (`sampling`'s, which also sizes each side's batch to span
/// `sampling.ticks` timer ticks).
pub fn alternate(
    clock: &dyn Clock,
    resolution_ns: f64,
    sampling: Sampling,
    rounds: u32,
    a: &mut dyn FnMut(),
    b: &mut dyn FnMut(),
) -> Rounds {
    let warm = Sampling { samples: 1, min_samples: 1, budget_ns: 0.0, ..sampling };
    let batch = |s: Stats| {
        let for_round = if s.median > 0.0 { (ROUND_NS / s.median).ceil() as u64 } else { 1 };
        s.batch.max(for_round).max(1)
    };
    let batch_a = batch(clock::sample(clock, resolution_ns, warm, &mut *a));
    let batch_b = batch(clock::sample(clock, resolution_ns, warm, &mut *b));
    let time = |run: &mut dyn FnMut(), batch: u64| {
        let start = clock.now_ns();
        for _ in 0..batch {
            run();
        }
        (clock.now_ns() - start).max(0.0) / batch as f64
    };
    let mut out = Rounds { batch: (batch_a, batch_b), ..Rounds::default() };
    for round in 0..rounds {
        if round % 2 == 0 {
            out.a.push(time(a, batch_a));
            out.b.push(time(b, batch_b));
        } else {
            out.b.push(time(b, batch_b));
            out.a.push(time(a, batch_a));
        }
    }
    out
}

/// A time measured in alternating rounds: each side's median over the
/// rounds with its MAD, and the median per-round ratio with its interval.
#[cfg(feature = "timed")]
fn alternating_time(metric: MetricId, a: &[f64], b: &[f64]) -> Compared {
    let (sa, sb) = (clock::stats(&mut a.to_vec(), 1), clock::stats(&mut b.to_vec(), 1));
    let mut ratios: Vec<f64> = a.iter().zip(b).filter(|(a, _)| **a > 0.0).map(|(a, b)| b / a).collect();
    ratios.sort_by(f64::total_cmp);
    let mut row = entry(metric, Some(sa.median), Some(sb.median));
    row.a_spread = Some(Spread { kind: SpreadKind::Mad, low: sa.median - sa.mad, high: sa.median + sa.mad });
    row.b_spread = Some(Spread { kind: SpreadKind::Mad, low: sb.median - sb.mad, high: sb.median + sb.mad });
    let Some((lo, hi, _)) = median_interval(ratios.len(), CONFIDENCE) else {
        return row;
    };
    let (low, high) = (ratios[lo], ratios[hi]);
    row.ratio = Some(clock::stats(&mut ratios.clone(), 1).median);
    row.ratio_spread = Some(Spread { kind: SpreadKind::RatioInterval, low, high });
    row.outcome = verdict(low, high, MARGIN);
    row
}

/// The settings each side is counted and timed with: the single run (no
/// sweep), as given otherwise.
fn single(p: &Params) -> Params {
    Params { sweep: None, ..p.clone() }
}

/// Checks both sides: valid, the read lab, workloads this build runs.
fn check(a: &Params, b: &Params) -> Result<(), ParamError> {
    for p in [a, b] {
        p.check()?;
        if p.lab != Lab::Read {
            return Err(ParamError { key: "lab", message: "a comparison runs the read lab; this link is the write lab's".into() });
        }
        workload::check_served(p.workload)?;
    }
    clock::check_timed(Sampling::COUNTS)
}

/// Compares `a` with `b`: both counted exactly, then (unless `sampling` is
/// [`Sampling::COUNTS`]) each pair of readers and the copy floors timed in
/// alternating rounds ([`ROUNDS`], or [`QUICK_ROUNDS`] for a quick
/// estimate). Reports leave `link` empty (`crate::api` fills it in).
pub fn run(a: &Params, b: &Params, clock: &dyn Clock, sampling: Sampling) -> Result<Comparison, ParamError> {
    check(a, b)?;
    clock::check_timed(sampling)?;
    let (a, b) = (single(a), single(b));
    let mut ra = experiment::run_with(&a, clock, Sampling::COUNTS, Timelines::Skip)?;
    let mut rb = experiment::run_with(&b, clock, Sampling::COUNTS, Timelines::Skip)?;
    let pairs = pair_readers(&a.readers, &b.readers);
    let mut readers: Vec<PairedRun> = pairs
        .iter()
        .map(|&(i, j)| PairedRun {
            a: i.map(|i| ra.runs[i].reader),
            b: j.map(|j| rb.runs[j].reader),
            metrics: match (i, j) {
                (Some(i), Some(j)) => exact_rows(&ra.runs[i], &rb.runs[j]),
                _ => Vec::new(),
            },
        })
        .collect();
    let mut copy = None;
    let timing = if sampling.samples == 0 {
        Timing::Untimed
    } else {
        let rounds = if sampling == Sampling::QUICK { QUICK_ROUNDS } else { ROUNDS };
        let round_sampling = if sampling == Sampling::QUICK { Sampling { warmup_ns: 5e6, ..sampling } } else { sampling };
        copy = Some(time_pairs(&a, &b, &mut ra, &mut rb, &pairs, &mut readers, clock, round_sampling, rounds));
        let coverage = median_interval(rounds as usize, CONFIDENCE).map_or(0.0, |(_, _, c)| c);
        Timing::Alternating { rounds, confidence: CONFIDENCE, coverage, margin: MARGIN }
    };
    for r in [&mut ra, &mut rb] {
        r.stage = sampling.stage();
        r.quick = sampling == Sampling::QUICK;
    }
    Ok(assemble(ra, rb, timing, readers, copy))
}

/// The timed part of [`run`]: every pair of readers and the copy floors in
/// alternating rounds; sets each side's times on its report and fills the
/// time rows. Returns the copy floors compared.
#[cfg(feature = "timed")]
#[allow(clippy::too_many_arguments)]
fn time_pairs(
    a: &Params,
    b: &Params,
    ra: &mut Report,
    rb: &mut Report,
    pairs: &[(Option<usize>, Option<usize>)],
    readers: &mut [PairedRun],
    clock: &dyn Clock,
    sampling: Sampling,
    rounds: u32,
) -> Compared {
    use std::cell::RefCell;

    let data_a = content::generate(a);
    let own_b = content::generate(b);
    // Both sides read the same bytes where they are the same, and write into
    // one application buffer and one copy destination: where a buffer lies
    // changes how fast it is copied into (alignment, 4 KiB aliasing), by up
    // to a tenth here, which an A/A comparison must not mistake for a
    // difference between experiments.
    let data_b: &[u8] = if own_b == data_a { &data_a } else { &own_b };
    let app_buf = RefCell::new(vec![0u8; a.rs.max(b.rs) as usize]);
    let resolution_ns = clock::resolution_ns(clock);
    for (pair, row) in pairs.iter().zip(readers.iter_mut()) {
        let (i, j) = match *pair {
            (Some(i), Some(j)) => (i, j),
            // An unpaired reader is still timed, alone, for its own report.
            (Some(i), None) => {
                let kind = ra.runs[i].reader;
                let mut run = side_runner(a, kind, &data_a, &app_buf);
                ra.runs[i].cpu_ns = clock::sample(clock, resolution_ns, sampling, &mut run);
                continue;
            }
            (None, Some(j)) => {
                let kind = rb.runs[j].reader;
                let mut run = side_runner(b, kind, data_b, &app_buf);
                rb.runs[j].cpu_ns = clock::sample(clock, resolution_ns, sampling, &mut run);
                continue;
            }
            (None, None) => continue,
        };
        let mut run_a = side_runner(a, ra.runs[i].reader, &data_a, &app_buf);
        let mut run_b = side_runner(b, rb.runs[j].reader, data_b, &app_buf);
        let times = alternate(clock, resolution_ns, sampling, rounds, &mut run_a, &mut run_b);
        let (sa, sb) = times.stats();
        ra.runs[i].cpu_ns = sa;
        rb.runs[j].cpu_ns = sb;
        row.metrics.push(alternating_time(MetricId::CpuMedianNs, &times.a, &times.b));
        let (io_a, io_b) = (ra.runs[i].modelled_io_ns, rb.runs[j].modelled_io_ns);
        let total_a: Vec<f64> = times.a.iter().map(|t| t + io_a).collect();
        let total_b: Vec<f64> = times.b.iter().map(|t| t + io_b).collect();
        row.metrics.push(alternating_time(MetricId::ModelledTotalNs, &total_a, &total_b));
    }
    // The copy floors, alternating too: each side's bytes once per stream.
    let to = RefCell::new(vec![0u8; data_a.len().max(data_b.len())]);
    let (streams_a, streams_b) = (a.streams, b.streams);
    let mut copy_a = || copy_streams(&mut to.borrow_mut()[..data_a.len()], &data_a, streams_a);
    let mut copy_b = || copy_streams(&mut to.borrow_mut()[..data_b.len()], data_b, streams_b);
    let floors = alternate(clock, resolution_ns, sampling, rounds, &mut copy_a, &mut copy_b);
    let (fa, fb) = floors.stats();
    ra.set_copy_floor(fa);
    rb.set_copy_floor(fb);
    for (pair, row) in pairs.iter().zip(readers.iter_mut()) {
        if let (Some(i), Some(j)) = *pair {
            for m in row.metrics.iter_mut().filter(|m| m.metric == MetricId::CpuMedianNs) {
                m.a_x_copy = ra.runs[i].cpu_x_copy;
                m.b_x_copy = rb.runs[j].cpu_x_copy;
            }
        }
    }
    alternating_time(MetricId::CpuMedianNs, &floors.a, &floors.b)
}

/// The counting build has no timed pass (`clock::check_timed` refused any
/// sampling before the comparison began).
#[cfg(not(feature = "timed"))]
#[allow(clippy::too_many_arguments)]
fn time_pairs(
    _: &Params,
    _: &Params,
    _: &mut Report,
    _: &mut Report,
    _: &[(Option<usize>, Option<usize>)],
    _: &mut [PairedRun],
    _: &dyn Clock,
    _: Sampling,
    _: u32,
) -> Compared {
    entry(MetricId::CpuMedianNs, None, None)
}

/// One timed run of `kind` over `data` with `p`'s settings, as the timed
/// pass runs it (`engine::timed`), reading into the first `rs` bytes of
/// `app_buf` (shared by both sides), with sinks of its own.
#[cfg(feature = "timed")]
fn side_runner<'d>(
    p: &Params,
    kind: ReaderKind,
    data: &'d [u8],
    app_buf: &'d std::cell::RefCell<Vec<u8>>,
) -> impl FnMut() + 'd {
    use super::workload::CountSink;
    let mut sinks: Vec<CountSink> = (0..p.streams).map(|_| CountSink::default()).collect();
    let (p, rs) = (p.clone(), p.rs as usize);
    move || {
        let _ = super::timed::run(kind, &p, data, &mut app_buf.borrow_mut()[..rs], &mut sinks);
        std::hint::black_box(&sinks);
    }
}

/// The copy floor's one run: `data` copied into `to` once per stream.
#[cfg(feature = "timed")]
fn copy_streams(to: &mut [u8], data: &[u8], streams: u64) {
    for _ in 0..streams {
        to.copy_from_slice(std::hint::black_box(data));
        std::hint::black_box(&mut *to);
    }
}

/// The comparison of two reports and their rows, with its notes.
fn assemble(a: Report, b: Report, timing: Timing, readers: Vec<PairedRun>, copy: Option<Compared>) -> Comparison {
    let same_experiment = a.params.experiment() == b.params.experiment();
    let mut notes = Vec::new();
    match timing {
        Timing::Untimed => notes.push("Counts only: no times were taken.".to_string()),
        Timing::Alternating { rounds, confidence, coverage, margin } => notes.push(format!(
            "Times: A and B in {rounds} alternating rounds of one measurement (A first, then B first, in turn), one \
             batched sample each per round. B is called faster or slower only where the {:.0}% confidence interval of \
             the median per-round ratio B ÷ A (order statistics; exact coverage {:.1}% with {rounds} rounds) lies \
             beyond 1 by more than {:.0}%; otherwise the two are the same within noise. Each side's ± is the median \
             absolute deviation (MAD) of its rounds.",
            confidence * 100.0,
            coverage * 100.0,
            margin * 100.0,
        )),
        Timing::Separate { .. } => {}
    }
    notes.push("Counts are exact: any difference between A and B is real, and equal counts are a tie.".to_string());
    if same_experiment {
        if let Some(which) = counts_disagree(&readers) {
            notes.push(format!(
                "A and B are the same experiment, yet their counts differ ({which}): they were made by different builds \
                 of BufLab, or a result was edited."
            ));
        }
    }
    Comparison {
        kind: COMPARISON_KIND.to_string(),
        link: String::new(),
        changed: Vec::new(),
        same_experiment,
        timing,
        readers,
        copy,
        notes,
        format: Some(REPORT_FORMAT),
        sweeps: None,
        a,
        b,
    }
}

/// The first count two runs of the same reader disagree on, in words.
fn counts_disagree(readers: &[PairedRun]) -> Option<String> {
    readers.iter().find_map(|pair| {
        let (ka, kb) = (pair.a?, pair.b?);
        if ka != kb {
            return None;
        }
        let row = pair.metrics.iter().find(|m| m.outcome == Outcome::Less || m.outcome == Outcome::More)?;
        Some(format!(
            "{} of {}: {} against {}",
            crate::model::Id::id(row.metric).replace('_', " "),
            crate::model::Id::id(ka),
            row.a.unwrap_or_default(),
            row.b.unwrap_or_default()
        ))
    })
}

// ---------------------------------------------------------------------------
// Separate measurements: a saved result, exported files

/// Whether two results name the same machine: the same kind, user agent,
/// OS, CPU, cores and build (a machine not named is not the same).
pub fn same_machine(a: Option<&Machine>, b: Option<&Machine>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            (a.kind, &a.user_agent, &a.os, &a.cpu, a.cores, &a.build) == (b.kind, &b.user_agent, &b.os, &b.cpu, b.cores, &b.build)
        }
        _ => false,
    }
}

/// A time from two separate measurements: the ratio of the medians, the
/// range of ratios the samples allow, and a verdict only beyond
/// [`SEPARATE_FACTOR`], in ns on one machine and in × copy on any.
fn separate_time(metric: MetricId, a: &Stats, b: &Stats, a_floor: Option<&Stats>, b_floor: Option<&Stats>, same: bool) -> Compared {
    let timed = |s: &Stats| s.samples > 0;
    let mut row = entry(metric, timed(a).then_some(a.median), timed(b).then_some(b.median));
    if !(timed(a) && timed(b)) {
        return row;
    }
    row.a_spread = Some(Spread { kind: SpreadKind::Mad, low: a.median - a.mad, high: a.median + a.mad });
    row.b_spread = Some(Spread { kind: SpreadKind::Mad, low: b.median - b.mad, high: b.median + b.mad });
    let range = a.ratio(b);
    row.ratio_spread = range.map(|r| Spread { kind: SpreadKind::RatioRange, low: r.low, high: r.high });
    let called = |low: f64, high: f64| {
        if low > SEPARATE_FACTOR {
            Outcome::Slower
        } else if high < 1.0 / SEPARATE_FACTOR {
            Outcome::Faster
        } else {
            Outcome::Same
        }
    };
    row.outcome = match (same, range) {
        (false, _) => Outcome::NotCompared,
        (true, Some(r)) => called(r.low, r.high),
        (true, None) => Outcome::Same,
    };
    if let (Some(fa), Some(fb)) = (a_floor, b_floor) {
        row.a_x_copy = x_copy(a.median, fa);
        row.b_x_copy = x_copy(b.median, fb);
        // The floors' own medians rescale the sample range.
        row.x_copy_outcome = match (range, row.a_x_copy.is_some() && row.b_x_copy.is_some()) {
            (Some(r), true) => {
                let scale = fa.median / fb.median;
                Some(called(r.low * scale, r.high * scale))
            }
            // One sample a side bounds nothing: the same within noise.
            (None, true) => Some(Outcome::Same),
            _ => None,
        };
    }
    row
}

/// Pairs two results measured separately (a saved run and a new one, or two
/// exported files): counts compared exactly, times only as
/// [`Timing::Separate`] allows. `link` is left empty (`crate::api`).
pub fn pair(a: Report, b: Report) -> Comparison {
    let same = same_machine(a.machine.as_ref(), b.machine.as_ref());
    let kinds = |r: &Report| r.runs.iter().map(|run| run.reader).collect::<Vec<_>>();
    let pairs = pair_readers(&kinds(&a), &kinds(&b));
    let readers: Vec<PairedRun> = pairs
        .iter()
        .map(|&(i, j)| {
            let (ra, rb) = (i.map(|i| &a.runs[i]), j.map(|j| &b.runs[j]));
            let mut metrics = Vec::new();
            if let (Some(ra), Some(rb)) = (ra, rb) {
                metrics = exact_rows(ra, rb);
                metrics.push(separate_time(MetricId::CpuMedianNs, &ra.cpu_ns, &rb.cpu_ns, a.copy_ns.as_ref(), b.copy_ns.as_ref(), same));
                let total = |r: &Run| Stats {
                    min: r.cpu_ns.min + r.modelled_io_ns,
                    median: r.cpu_ns.median + r.modelled_io_ns,
                    max: r.cpu_ns.max + r.modelled_io_ns,
                    ..r.cpu_ns
                };
                metrics.push(separate_time(MetricId::ModelledTotalNs, &total(ra), &total(rb), None, None, same));
            }
            PairedRun { a: ra.map(|r| r.reader), b: rb.map(|r| r.reader), metrics }
        })
        .collect();
    let copy = match (&a.copy_ns, &b.copy_ns) {
        (Some(fa), Some(fb)) => Some(separate_time(MetricId::CpuMedianNs, fa, fb, None, None, same)),
        _ => None,
    };
    let timing = Timing::Separate { same_machine: same, factor: SEPARATE_FACTOR };
    let (ma, mb) = (a.machine.clone(), b.machine.clone());
    let mut out = assemble(a, b, timing, readers, copy);
    let mut notes = vec![if same {
        format!(
            "Measured at different times on the same machine, not in alternating rounds: drift between the two \
             measurements is not averaged out, so a time is called faster or slower only when every ratio their samples \
             allow lies beyond {SEPARATE_FACTOR}×. Compare the two links in one comparison for a closer verdict."
        )
    } else {
        let name = |m: &Option<Machine>| m.as_ref().map_or_else(|| "a machine it does not name".to_string(), Machine::describe);
        format!(
            "Measured on two machines, at different times: A on {}; B on {}. Times in ns are not compared; in × copy \
             (each time over its own run's copy floor) only beyond {SEPARATE_FACTOR}×.",
            name(&ma),
            name(&mb)
        )
    }];
    notes.push(ACROSS_MACHINES.to_string());
    notes.append(&mut out.notes);
    out.notes = notes;
    out
}

/// What carries from one machine to another.
pub const ACROSS_MACHINES: &str = "Counts carry across machines: the same link counts the same anywhere. Times as \
multiples of the copy floor (× copy) carry roughly: they divide out how fast the machine copies memory, not its caches, \
branch predictor or browser. Absolute times in ns do not carry: they are one machine's, one browser's, one moment's.";

// ---------------------------------------------------------------------------
// Result files

/// The longest result file read (a report with its timelines is well under
/// a megabyte).
pub const MAX_RESULT_BYTES: usize = 32 << 20;

/// Why a result file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ResultErrorKind {
    /// Larger than [`MAX_RESULT_BYTES`].
    TooLarge,
    /// Not JSON at all.
    NotJson,
    /// JSON that ends early: a file cut short.
    Truncated,
    /// JSON, but not a BufLab read-lab result.
    NotBufLab,
    /// A BufLab result of another kind (write lab, sweep, comparison).
    OtherKind,
    /// Written by a newer BufLab, in a format this one does not read.
    Newer,
    /// A BufLab result whose settings fail the checks a link's do.
    Invalid,
}

/// A result file that could not be read, and why, in words.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ResultError {
    pub kind: ResultErrorKind,
    pub message: String,
}

impl std::fmt::Display for ResultError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn refused(kind: ResultErrorKind, message: impl Into<String>) -> ResultError {
    ResultError { kind, message: message.into() }
}

/// Reads an exported read-lab result (`buflab --json`, the page's JSON
/// export): untrusted text. Never panics; each way a file can be wrong has
/// its own message.
pub fn read_result(text: &str) -> Result<Report, ResultError> {
    use serde_json::{error::Category, Value};
    use ResultErrorKind::*;
    if text.len() > MAX_RESULT_BYTES {
        return Err(refused(TooLarge, format!("the file is {} bytes, over the {} MiB a result may have", text.len(), MAX_RESULT_BYTES >> 20)));
    }
    if text.trim().is_empty() {
        return Err(refused(NotJson, "the file is empty"));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| match e.classify() {
        Category::Eof => refused(
            Truncated,
            format!("the file ends early (line {}, column {}): it was cut short, copy or save it again", e.line(), e.column()),
        ),
        _ => refused(NotJson, format!("not a BufLab result: not JSON ({e})")),
    })?;
    // The page's JSON export wraps the report: `{link, exported_at, report}`.
    let value = match value {
        Value::Object(mut wrapper) if !wrapper.contains_key("params") && wrapper.get("report").is_some_and(Value::is_object) => {
            wrapper.remove("report").unwrap_or_default()
        }
        other => other,
    };
    let Some(object) = value.as_object() else {
        return Err(refused(NotBufLab, "not a BufLab result: JSON, but not an object with params and runs"));
    };
    if let Some(format) = object.get("format").and_then(Value::as_u64) {
        if format > u64::from(REPORT_FORMAT) {
            return Err(refused(
                Newer,
                format!("made by a newer BufLab (result format {format}; this one reads up to {REPORT_FORMAT}): open it there"),
            ));
        }
    }
    let kind = |k: &str| object.get(k).is_some();
    if object.get("kind").and_then(Value::as_str) == Some(COMPARISON_KIND) {
        return Err(refused(OtherKind, "a comparison, not one result: export each side on its own"));
    }
    if kind("points") && kind("sweep") {
        return Err(refused(OtherKind, "a sweep's result: compare files of single runs"));
    }
    if object.get("lab").and_then(Value::as_str) == Some("write") {
        return Err(refused(OtherKind, "a write-lab result: comparing files compares read-lab results"));
    }
    if !(kind("params") && kind("runs")) {
        return Err(refused(NotBufLab, "not a BufLab result: it has no params and runs"));
    }
    let report: Report =
        serde_json::from_value(value).map_err(|e| refused(NotBufLab, format!("not a BufLab result: {e}")))?;
    report.params.check().map_err(|e| refused(Invalid, format!("its settings are not valid: {e}")))?;
    if report.runs.iter().any(|r| !report.params.readers.contains(&r.reader)) || report.runs.is_empty() {
        return Err(refused(Invalid, "its runs are not the readers its settings name"));
    }
    let finite = |s: &Stats| [s.min, s.median, s.max, s.mad].iter().all(|v| v.is_finite() && *v >= 0.0);
    if !report.runs.iter().all(|r| finite(&r.cpu_ns) && r.modelled_io_ns.is_finite()) || !report.copy_ns.as_ref().map_or(true, finite) {
        return Err(refused(Invalid, "its times are not numbers a run can take"));
    }
    Ok(report)
}

/// Reads two exported results and pairs them ([`pair`]); an error names
/// the file ("A: …", "B: …").
pub fn pair_results(a: &str, b: &str) -> Result<Comparison, ResultError> {
    let named = |side: &str, e: ResultError| ResultError { message: format!("{side}: {}", e.message), ..e };
    let a = read_result(a).map_err(|e| named("A", e))?;
    let b = read_result(b).map_err(|e| named("B", e))?;
    Ok(pair(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_interval_is_the_order_statistics_binomial_tails_allow() {
        // n = 21: the 6th to the 16th value, coverage 1 − 2·P(Bin(21, ½) ≤ 5).
        let (lo, hi, coverage) = median_interval(21, 0.95).unwrap();
        assert_eq!((lo, hi), (5, 15));
        assert!((coverage - 0.9734).abs() < 1e-3, "{coverage}");
        // n = 7: only the whole range reaches 95 %.
        let (lo, hi, coverage) = median_interval(7, 0.95).unwrap();
        assert_eq!((lo, hi), (0, 6));
        assert!((coverage - (1.0 - 2.0 / 128.0)).abs() < 1e-9, "{coverage}");
        // n = 5 falls short even so: its coverage says by how much.
        let (lo, hi, coverage) = median_interval(5, 0.95).unwrap();
        assert_eq!((lo, hi), (0, 4));
        assert!((coverage - 0.9375).abs() < 1e-9);
        assert_eq!(median_interval(0, 0.95), None);
        for n in 1..60 {
            let (lo, hi, c) = median_interval(n, 0.95).unwrap();
            assert!(lo <= hi && hi < n && (0.0..=1.0).contains(&c) && (n == 1 || c >= 0.5), "{n}");
            assert_eq!(lo, n - 1 - hi, "symmetric");
        }
    }

    #[test]
    fn a_verdict_needs_the_interval_beyond_the_margin() {
        assert_eq!(verdict(1.06, 1.2, 0.05), Outcome::Slower);
        assert_eq!(verdict(1.04, 1.2, 0.05), Outcome::Same, "within the margin");
        assert_eq!(verdict(0.5, 0.95, 0.05), Outcome::Faster);
        assert_eq!(verdict(0.5, 0.96, 0.05), Outcome::Same, "0.96 > 1 / 1.05");
        assert_eq!(verdict(0.9, 1.1, 0.0), Outcome::Same, "an interval holding 1");
    }

    #[test]
    fn readers_pair_by_kind_then_in_order() {
        use ReaderKind::*;
        assert_eq!(pair_readers(&[Unbuffered, Std], &[Unbuffered, Std]), [(Some(0), Some(0)), (Some(1), Some(1))]);
        assert_eq!(pair_readers(&[Std], &[Chained]), [(Some(0), Some(0))]);
        assert_eq!(pair_readers(&[Unbuffered, Std], &[Std]), [(Some(0), None), (Some(1), Some(0))]);
        assert_eq!(pair_readers(&[Std], &[Chained, Std, Tokio]), [(Some(0), Some(1)), (None, Some(0)), (None, Some(2))]);
        assert_eq!(pair_readers(&[Unbuffered, Std], &[Std, Unbuffered]), [(Some(0), Some(1)), (Some(1), Some(0))]);
    }
}
