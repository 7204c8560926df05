//! Sweeps: one experiment re-run along one axis (capacity, read size, chunk
//! size, stream length or streams) through the powers of two of a range, or
//! over the grid of two such axes, and the knee of each curve: where a bigger
//! value stops paying (on two axes: along the first axis, for every value of
//! the second, which draws the knee line across the grid).
//!
//! The range and its limits are owned by the model (link keys `sweep`,
//! `from`, `to`); this module turns a swept `Params` into its points, runs
//! them, and finds the knees. Knee finding is a pure function of the numbers,
//! so it is tested exactly on deterministic counts. Like every engine
//! report, a sweep report leaves its links empty (`crate::api` fills them).

use super::experiment::Timelines;
use super::clock::{Clock, Sampling, COARSE_RESOLUTION_FACTOR};
use super::compare::SEPARATE_FACTOR;
use crate::model::{
    Id, Knee, KneePair, Metric, Outcome, ParamError, Params, ReaderKind, Run, Sweep, SweepComparison, SweepPoint, SweepReport,
};

/// How hard each point is timed. A full measurement (30 ms warm-up, 5–10
/// samples, 100 ms beyond the fifth) per reader makes a 13-point sweep of
/// the default 1 MiB byte-at-a-time stream take seconds; this keeps a short
/// warm-up (the first calls of a wasm function are slow while V8 tiers up)
/// and three samples, so such a sweep takes under a second. The warm-up is spent
/// before the first point only ([`point_sampling`]). Counts are exact either
/// way.
pub const SAMPLING: Sampling =
    Sampling { warmup_ns: 5e6, samples: 3, budget_ns: 60e6, min_samples: 3, ticks: COARSE_RESOLUTION_FACTOR };

/// The sampling of point `index` of a sweep timed with `sampling`: the
/// warm-up goes before the first point alone. Every later point runs the
/// same compiled loops (the same readers, chunk model and workload; only
/// sizes differ), already warm. Without a warm-up, [`super::clock::sample`]
/// keeps the run that sizes each reader's batches as its first sample when
/// that run spans a sample's length. On the buffer-size lesson's 13-point
/// sweep this saves 12 × 2 readers × two or three runs of a 1 MiB stream.
pub fn point_sampling(sampling: Sampling, index: usize) -> Sampling {
    if index == 0 {
        sampling
    } else {
        Sampling { warmup_ns: 0.0, ..sampling }
    }
}

/// A bigger value "still pays" while it improves a metric by more than this
/// fraction of the sweep's best value for that metric (see [`knee`]).
pub const KNEE_TOLERANCE: f64 = 0.05;

/// The points of a sweep in the order they run, `(value, across value)`
/// (empty without a sweep; see [`Sweep::grid`]).
pub fn grid(params: &Params) -> Vec<(u64, Option<u64>)> {
    params.sweep.map(|s| s.grid()).unwrap_or_default()
}

/// The experiments of a sweep, one per point in [`grid`] order; each is
/// `params` with the axes set to the point's values (for `chunk`, the model
/// `fixed v`) and no sweep. Points that break the job-size rule are left out
/// (a decoded link has none: the decoder cuts `to` with a notice).
pub fn points(params: &Params) -> Vec<Params> {
    let Some(s) = params.sweep else { return Vec::new() };
    s.grid()
        .into_iter()
        .map(|(v, a)| s.apply(params, v, a))
        .filter(|p| p.streams <= crate::model::max_streams(p.len, p.cap))
        .collect()
}

/// The knee of a curve where smaller is better: the index of the **smallest
/// axis value whose metric is within [`KNEE_TOLERANCE`] (5 %) of the best
/// (smallest) metric anywhere in the sweep**, i.e. the first `i` with
/// `metric[i] <= best × 1.05`. Going further along the axis can win at most
/// another 5 %: a bigger value has stopped paying. `metric` is ordered by
/// ascending axis value. `None` for an empty curve or one with a non-finite
/// value. On exact counts the result is exact (no noise).
pub fn knee(metric: &[f64]) -> Option<usize> {
    if metric.is_empty() || metric.iter().any(|m| !m.is_finite()) {
        return None;
    }
    let best = metric.iter().copied().fold(f64::INFINITY, f64::min);
    let limit = best + best.abs() * KNEE_TOLERANCE;
    metric.iter().position(|&m| m <= limit)
}

/// Measured time per point: the median and the min–max spread of the samples
/// (all as total time, CPU + modelled I/O).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timed {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

/// The knee of a measured time curve, stated so that noise cannot invent
/// one. Point `a` is **clearly faster** than point `b` when `a`'s whole
/// spread lies below `b`'s by more than the tolerance:
/// `a.max < b.min × (1 − 0.05)`. The knee is the smallest axis value that is
/// clearly faster than the first point (or the first point itself) with no
/// clearly faster point after it: from there on, the measurements show no
/// gain from a bigger value. With one sample per point (min = median = max)
/// on a curve that falls and then stays flat, this is the same point as
/// [`knee`]; with noisy samples it comes earlier rather than later, because
/// overlapping spreads prove nothing.
///
/// `None` for a curve that **zig-zags**: one that clearly rises and then
/// clearly falls again (a point clearly slower than an earlier one and than
/// a later one). Its points then differ by more than their own samples'
/// spread, for a reason the samples do not show (the machine's load changed
/// between points), so no knee on it is supported. A curve that falls and
/// then rises (a bigger buffer costing cache misses) keeps its knee.
pub fn time_knee(times: &[Timed]) -> Option<usize> {
    if times.is_empty() || times.iter().any(|t| !(t.median.is_finite() && t.min.is_finite() && t.max.is_finite())) {
        return None;
    }
    if zigzags(times) {
        return None;
    }
    (0..times.len()).find(|&i| {
        (i == 0 || clearly_faster(&times[i], &times[0])) && !times[i + 1..].iter().any(|later| clearly_faster(later, &times[i]))
    })
}

/// `a`'s whole spread lies more than [`KNEE_TOLERANCE`] below `b`'s.
fn clearly_faster(a: &Timed, b: &Timed) -> bool {
    a.max < b.min * (1.0 - KNEE_TOLERANCE)
}

/// Some point is clearly slower than an earlier point and than a later one.
fn zigzags(times: &[Timed]) -> bool {
    (1..times.len()).any(|k| {
        let peak = &times[k];
        times[..k].iter().any(|before| clearly_faster(before, peak)) && times[k + 1..].iter().any(|after| clearly_faster(after, peak))
    })
}

/// What a run did, in exact counts. Two runs with the same work ran the
/// same calls, copies and allocations: a time that differs between them
/// differs by noise (the machine's load), never because of the axis.
fn work(run: &Run) -> impl PartialEq {
    (run.source_reads, run.app_reads, run.bytes_copied, run.alloc.allocations, run.alloc.reallocs, run.blocks, run.polls, run.pendings)
}

/// The index of the last point whose work differs from the point before it
/// (0 when the work never changes). The time knee is looked for up to there:
/// a later point repeats that point's work, so a time that falls there falls
/// by noise. A reader whose work never changes along the axis (an unbuffered
/// reader on a capacity axis) thus has its time knee at the first point.
fn last_change(runs: &[&Run]) -> usize {
    (1..runs.len()).rev().find(|&i| work(runs[i]) != work(runs[i - 1])).unwrap_or(0)
}

fn total(run: &Run) -> Timed {
    Timed {
        median: run.cpu_ns.median + run.modelled_io_ns,
        min: run.cpu_ns.min + run.modelled_io_ns,
        max: run.cpu_ns.max + run.modelled_io_ns,
    }
}

/// The knees of the points measured so far, per reader (in the order the
/// experiment lists them) and metric, along the first axis; on two axes, one
/// set per value of the second axis (in ascending order). Empty when the
/// first axis has no knee (stream length, streams) and without points.
pub fn knees(sweep: &Sweep, points: &[SweepPoint]) -> Vec<Knee> {
    if !sweep.axis.has_knee() {
        return Vec::new();
    }
    if sweep.across.is_none() {
        return knees_along(&points.iter().collect::<Vec<_>>(), None);
    }
    sweep
        .across_values()
        .into_iter()
        .flat_map(|a| knees_along(&points.iter().filter(|p| p.across == Some(a)).collect::<Vec<_>>(), Some(a)))
        .collect()
}

/// The knees of one curve along the first axis (`points` ascending).
fn knees_along(points: &[&SweepPoint], across: Option<u64>) -> Vec<Knee> {
    let Some(first) = points.first() else { return Vec::new() };
    let mut out = Vec::new();
    for (r, run0) in first.report.runs.iter().enumerate() {
        let runs: Vec<&Run> = points.iter().filter_map(|p| p.report.runs.get(r)).collect();
        if runs.len() != points.len() || runs.iter().any(|run| run.reader != run0.reader) {
            continue;
        }
        for metric in Metric::all() {
            let (index, curve): (Option<usize>, Vec<f64>) = match metric {
                Metric::Time => {
                    let times: Vec<Timed> = runs.iter().map(|run| total(run)).collect();
                    (time_knee(&times[..=last_change(&runs)]), times.iter().map(|t| t.median).collect())
                }
                _ => {
                    let curve: Vec<f64> = runs.iter().map(|run| metric.count(run).unwrap_or(0) as f64).collect();
                    (knee(&curve), curve)
                }
            };
            if let Some(i) = index {
                out.push(Knee {
                    reader: run0.reader,
                    metric,
                    value: points[i].value,
                    at_knee: curve[i],
                    best: curve.iter().copied().fold(f64::INFINITY, f64::min),
                    first: i == 0,
                    across,
                });
            }
        }
    }
    out
}

/// Builds the report of the points measured so far.
pub fn report(params: &Params, points: Vec<SweepPoint>) -> Option<SweepReport> {
    let sweep = params.sweep?;
    let total = sweep.grid().len();
    Some(SweepReport {
        knees: knees(&sweep, &points),
        complete: points.len() == total,
        digests_agree: points.iter().all(|p| p.report.digests_agree()),
        link: String::new(),
        params: params.clone(),
        sweep,
        values: sweep.values(),
        across_values: sweep.across_values(),
        total,
        points,
    })
}

/// Runs one point: the experiment at `grid(params)[index]`.
pub fn run_point(params: &Params, index: usize, clock: &dyn Clock, sampling: Sampling) -> Result<SweepPoint, ParamError> {
    params.check()?;
    let sweep = params.sweep.ok_or_else(|| ParamError { key: "sweep", message: "no sweep axis set".into() })?;
    let grid = sweep.grid();
    let &(value, across) = grid.get(index).ok_or_else(|| ParamError {
        key: "sweep",
        message: format!("point {index} is past the sweep's {} points", grid.len()),
    })?;
    // No timeline per point: nothing shows it, and every point's report
    // crosses to the page (and back, for the knees) after each point.
    let sampling = point_sampling(sampling, index);
    let report = super::experiment::run_with(&sweep.apply(params, value, across), clock, sampling, Timelines::Skip)?;
    Ok(SweepPoint { value, across, report })
}

/// Runs every point of the sweep in order, calling `on_point` after each
/// (the CLI prints progress with it), and returns the whole report.
pub fn run_sweep(
    params: &Params,
    clock: &dyn Clock,
    sampling: Sampling,
    mut on_point: impl FnMut(usize, usize, &SweepPoint),
) -> Result<SweepReport, ParamError> {
    params.check()?;
    if params.sweep.is_none() {
        return Err(ParamError { key: "sweep", message: "no sweep axis set".into() });
    }
    let n = grid(params).len();
    let mut done = Vec::with_capacity(n);
    for i in 0..n {
        let point = run_point(params, i, clock, sampling)?;
        on_point(i, n, &point);
        done.push(point);
    }
    Ok(report(params, done).expect("the sweep was checked above"))
}

// ---------------------------------------------------------------------------
// Two sweeps compared: the knee of each

/// A's knee and B's, per reader and metric (and column, on two axes), in A's
/// order of knees, then any B has alone; sentences left empty
/// (`catalog::compare::knee_says` writes them). A knee of a count is exact,
/// so two knees at different values differ for real. Two time knees at
/// different values differ only where the samples show it, by the rule the
/// time knee itself is found by ([`clearly_faster`]): the side whose knee
/// lies further along is, at its own knee, clearly faster than at the other
/// side's knee (the later value still pays there), and its time relative
/// to the other side's falls between the two knees by more than
/// [`SEPARATE_FACTOR`] (3×) in every ratio their samples allow ([`factor`]):
/// a sweep's points are timed one after another, a few samples each, and on
/// a shared machine two such measurements differ by more than their spreads
/// show (a timed A/A sweep comparison here called knees apart by the 5 %
/// rule alone, `crate/tests/sweep.rs`), so they are held to the factor of
/// measurements taken separately. Otherwise the two are the same within
/// noise. Times of one sample each (a quick sweep) are never called
/// different.
/// Sweeps along different axes have no knees to pair (every pair
/// `not_compared`).
pub fn compare_knees(a: &SweepReport, b: &SweepReport) -> Vec<KneePair> {
    let same_axes = a.sweep.axis == b.sweep.axis && a.sweep.across.map(|x| x.axis) == b.sweep.across.map(|x| x.axis);
    let key = |k: &Knee| (k.reader, k.metric, k.across);
    let mut keys: Vec<(ReaderKind, Metric, Option<u64>)> = a.knees.iter().map(key).collect();
    for k in b.knees.iter().map(key) {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    // A time curve without a knee (a zig-zag) still pairs with the other side's.
    keys.into_iter()
        .map(|(reader, metric, across)| {
            let find = |r: &SweepReport| r.knees.iter().find(|k| key(k) == (reader, metric, across)).map(|k| k.value);
            let (ka, kb) = (find(a), find(b));
            let outcome = match (ka, kb) {
                _ if !same_axes => Outcome::NotCompared,
                (Some(va), Some(vb)) if va == vb => if metric == Metric::Time { Outcome::Same } else { Outcome::Tie },
                (Some(va), Some(vb)) => {
                    let further = if vb > va { Outcome::More } else { Outcome::Less };
                    if metric != Metric::Time {
                        further
                    } else {
                        let (later, earlier, at, from) = if vb > va { (b, a, vb, va) } else { (a, b, va, vb) };
                        let own = |x| time_at(later, reader, x, across);
                        // The later side's time ÷ the other's at one value: two points run one after the other.
                        let relative = |x| Some(factor((own(x)?, time_at(earlier, reader, x, across)?)));
                        match (own(at), own(from), relative(at), relative(from)) {
                            (Some(la), Some(lf), Some(ra), Some(rf)) if clearly_faster(&la, &lf) && ra.max * SEPARATE_FACTOR < rf.min => further,
                            _ => Outcome::Same,
                        }
                    }
                }
                _ => Outcome::NotCompared,
            };
            let ratio = ka.zip(kb).filter(|&(va, _)| va > 0).map(|(va, vb)| vb as f64 / va as f64);
            KneePair { reader, metric, across, a: ka, b: kb, ratio, outcome, says: String::new() }
        })
        .collect()
}

/// The ratio of two times `(at, from)`, at ÷ from, its spread every ratio
/// their samples allow (the fastest `at` over the slowest `from`, to the
/// slowest over the fastest).
fn factor((at, from): (Timed, Timed)) -> Timed {
    Timed { median: at.median / from.median, min: at.min / from.max, max: at.max / from.min }
}

/// `reader`'s total time at the point `(value, across)` of a sweep; `None`
/// for a time of one sample (a quick sweep's), whose spread shows no noise.
fn time_at(r: &SweepReport, reader: ReaderKind, value: u64, across: Option<u64>) -> Option<Timed> {
    let point = r.points.iter().find(|p| p.value == value && p.across == across)?;
    point.report.runs.iter().find(|run| run.reader == reader && run.cpu_ns.samples != 1).map(total)
}

/// Runs the sweeps of `a` and `b` (each must have one) point by point in
/// alternating order (A's point `i` then B's in even steps, B's first in odd
/// ones, so the machine's drift falls on both alike), calling `on_point`
/// with the side (`'A'` or `'B'`) after each; returns both reports and
/// their knees paired ([`compare_knees`]). Links and sentences are left
/// empty (`crate::api` fills them).
pub fn run_pair(
    a: &Params,
    b: &Params,
    clock: &dyn Clock,
    sampling: Sampling,
    mut on_point: impl FnMut(char, usize, usize, &SweepPoint),
) -> Result<SweepComparison, ParamError> {
    for p in [a, b] {
        p.check()?;
        if p.sweep.is_none() {
            return Err(ParamError { key: "sweep", message: "a sweep comparison needs a sweep on both sides (B has `b.sweep=off`?)".into() });
        }
    }
    let (na, nb) = (grid(a).len(), grid(b).len());
    let (mut pa, mut pb) = (Vec::with_capacity(na), Vec::with_capacity(nb));
    for i in 0..na.max(nb) {
        let order = if i % 2 == 0 { [('A', a, na), ('B', b, nb)] } else { [('B', b, nb), ('A', a, na)] };
        for (side, p, n) in order {
            if i < n {
                let point = run_point(p, i, clock, sampling)?;
                on_point(side, i, n, &point);
                if side == 'A' { pa.push(point) } else { pb.push(point) }
            }
        }
    }
    let (ra, rb) = (report(a, pa).expect("checked above"), report(b, pb).expect("checked above"));
    let knees = compare_knees(&ra, &rb);
    Ok(SweepComparison { a: ra, b: rb, link: String::new(), changed: Vec::new(), knees })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_point_warms_up() {
        assert_eq!(point_sampling(SAMPLING, 0), SAMPLING);
        let later = point_sampling(SAMPLING, 1);
        assert_eq!(later.warmup_ns, 0.0);
        assert_eq!((later.samples, later.min_samples, later.budget_ns), (SAMPLING.samples, SAMPLING.min_samples, SAMPLING.budget_ns));
        assert_eq!(point_sampling(Sampling::QUICK, 5), Sampling::QUICK);
    }

    #[test]
    fn knee_is_the_first_point_within_five_percent_of_the_best() {
        // Halving until 512, then flat: the knee is the first flat point.
        assert_eq!(knee(&[8000.0, 4000.0, 2000.0, 1000.0, 1000.0, 1000.0]), Some(3));
        // 1049 is within 5 % of 1000, 1051 is not.
        assert_eq!(knee(&[2000.0, 1049.0, 1000.0]), Some(1));
        assert_eq!(knee(&[2000.0, 1051.0, 1000.0]), Some(2));
    }

    #[test]
    fn a_flat_curve_knees_at_its_first_point() {
        assert_eq!(knee(&[1.0, 1.0, 1.0]), Some(0));
        assert_eq!(knee(&[0.0, 0.0]), Some(0), "zero copies everywhere: no bigger value pays");
    }

    #[test]
    fn a_curve_that_worsens_knees_at_its_best_region() {
        // Bigger buffers cost more allocation bytes: smallest is best.
        assert_eq!(knee(&[1.0, 2.0, 4.0]), Some(0));
        // U-shaped: the knee is the first point near the bottom.
        assert_eq!(knee(&[100.0, 40.0, 10.0, 10.2, 30.0]), Some(2));
    }

    #[test]
    fn no_knee_without_numbers() {
        assert_eq!(knee(&[]), None);
        assert_eq!(knee(&[1.0, f64::NAN]), None);
        assert_eq!(time_knee(&[]), None);
    }

    #[test]
    fn time_knee_needs_a_clearly_faster_later_point() {
        let t = |median: f64, spread: f64| Timed { median, min: median - spread, max: median + spread };
        // Without spread: falls, then flat within 5 %.
        assert_eq!(time_knee(&[t(300.0, 0.0), t(200.0, 0.0), t(100.0, 0.0), t(98.0, 0.0)]), Some(2));
        // 130 ± 30 (100..160) against 100 ± 5 (95..105): 105 ≥ 100 × 0.95, not clearly faster.
        assert_eq!(time_knee(&[t(300.0, 10.0), t(130.0, 30.0), t(100.0, 5.0)]), Some(1));
        // 130 ± 10 (120..140): 105 < 120 × 0.95, clearly faster.
        assert_eq!(time_knee(&[t(300.0, 10.0), t(130.0, 10.0), t(100.0, 5.0)]), Some(2));
        // Slower at the end (cache misses): the knee stays at the fast point.
        assert_eq!(time_knee(&[t(50.0, 0.0), t(10.0, 0.0), t(12.0, 0.0), t(40.0, 0.0)]), Some(1));
        // A point whose spread reaches back up to the first point's is no knee,
        // however low its median: the first later point clear of both is.
        assert_eq!(time_knee(&[t(100.0, 1.0), t(50.0, 49.0), t(60.0, 1.0), t(61.0, 1.0)]), Some(2));
    }

    /// A point with any one figure not finite (a failed timer, say) leaves
    /// the curve without a time knee, whichever figure it is and wherever
    /// the point lies; a one-point curve too.
    #[test]
    fn a_time_curve_with_any_figure_not_finite_has_no_knee() {
        let ok = |m: f64| Timed { median: m, min: m, max: m };
        for bad in [f64::NAN, f64::INFINITY] {
            for broken in [Timed { median: bad, ..ok(50.0) }, Timed { min: bad, ..ok(50.0) }, Timed { max: bad, ..ok(50.0) }] {
                assert_eq!(time_knee(&[broken]), None, "{broken:?}");
                assert_eq!(time_knee(&[ok(100.0), broken, ok(40.0)]), None, "{broken:?}");
            }
        }
    }

    /// On the tolerance's edge: 95 is not clearly faster than 100 (it must be
    /// *more* than 5 % below), so the knee stays at the first point.
    #[test]
    fn exactly_five_percent_faster_is_not_clearly_faster() {
        let t = |median: f64| Timed { median, min: median, max: median };
        assert_eq!(time_knee(&[t(100.0), t(95.0)]), Some(0));
        assert_eq!(time_knee(&[t(100.0), t(94.9)]), Some(1));
    }

    /// The time knee is looked for up to and including the last point whose
    /// work changes: a reader whose work never changes (unbuffered, on a
    /// capacity axis) still has one, at the first point (its times, noisy
    /// here, are not asserted on: only which points are looked at).
    #[test]
    fn the_time_knee_looks_up_to_the_last_change_of_work_inclusive() {
        use crate::engine::clock::InstantClock;
        use crate::model::ReaderKind;
        let d = crate::link::decode("len=4K&chunk=512&rd=unbuffered,std&sweep=cap&from=16&to=512");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        let r = run_sweep(&d.params, &InstantClock::default(), Sampling::QUICK, |_, _, _| {}).unwrap();
        let time = |reader| r.knees.iter().find(|k| k.reader == reader && k.metric == Metric::Time).cloned();
        let unbuffered = time(ReaderKind::Unbuffered).expect("an unbuffered reader's time knee (its work never changes)");
        assert!(unbuffered.first && unbuffered.value == 16, "{unbuffered:?}");
        // std's work changes at every point up to 512 (the chunk): the last change is the last point.
        let runs: Vec<&Run> = r.points.iter().map(|p| &p.report.runs[1]).collect();
        assert_eq!(last_change(&runs), runs.len() - 1);
        assert_eq!(last_change(&runs[..1]), 0);
    }

    /// A range past the sweep's point limit is cut to exactly the limit,
    /// not one point (one bit of `to`) more.
    #[test]
    fn a_range_too_long_is_cut_to_the_point_limit() {
        use crate::model::MAX_SWEEP_POINTS;
        let d = crate::link::decode("sweep=chunk&from=1&to=64M");
        let s = d.params.sweep.unwrap();
        assert_eq!(s.values().len() as u64, MAX_SWEEP_POINTS);
        assert_eq!(s.to, 1 << (MAX_SWEEP_POINTS - 1));
        assert!(d.params.check().is_ok());
        // The strict check (a link's params from JSON, the CLI) allows exactly the limit too.
        let with = |to: u64| Params { len: 1 << 26, sweep: Some(Sweep::one(crate::model::SweepAxis::Chunk, 1, to)), ..Params::default() }.check();
        assert!(with(1 << (MAX_SWEEP_POINTS - 1)).is_ok());
        assert_eq!(with(1 << MAX_SWEEP_POINTS).map_err(|e| e.key), Err("to"));
    }

    /// The sweep's time chart once marked "knee 256" on a flat reader whose
    /// points jumped up and down between loads, each with a tight spread.
    #[test]
    fn a_zigzag_has_no_time_knee() {
        let t = |median: f64, spread: f64| Timed { median, min: median - spread, max: median + spread };
        // Up, down, up, down: a dip at the fifth point, clear of every earlier one.
        let zigzag = [t(100.0, 2.0), t(130.0, 2.0), t(90.0, 2.0), t(140.0, 2.0), t(80.0, 2.0), t(120.0, 2.0), t(95.0, 2.0)];
        assert_eq!(time_knee(&zigzag), None);
        // A spike between a fall and the plateau: the fall is no longer supported either.
        assert_eq!(time_knee(&[t(90.0, 2.0), t(33.0, 1.0), t(160.0, 5.0), t(17.0, 0.5), t(20.0, 1.0)]), None);
        // Ups and downs inside the tolerance are no zig-zag: the knee stands.
        assert_eq!(time_knee(&[t(300.0, 5.0), t(100.0, 2.0), t(103.0, 2.0), t(99.0, 2.0), t(102.0, 2.0)]), Some(1));
        // Wide spreads that overlap are no zig-zag either: flat, so the first point.
        assert_eq!(time_knee(&[t(100.0, 20.0), t(130.0, 20.0), t(90.0, 20.0), t(125.0, 20.0)]), Some(0));
    }

    /// A counted std sweep of capacity 16..512 (six points) with `times`
    /// (median, spread) put on its one reader, knees found anew.
    fn timed_sweep(times: &[(f64, f64)]) -> SweepReport {
        use crate::engine::clock::InstantClock;
        let d = crate::link::decode("len=4K&chunk=512&rs=1&rd=std&sweep=cap&from=16&to=512");
        let r = run_sweep(&d.params, &InstantClock::default(), Sampling::COUNTS, |_, _, _| {}).unwrap();
        let mut points = r.points;
        for (p, &(m, s)) in points.iter_mut().zip(times) {
            let run = &mut p.report.runs[0];
            run.modelled_io_ns = 0.0;
            (run.cpu_ns.median, run.cpu_ns.min, run.cpu_ns.max) = (m, m - s, m + s);
        }
        report(&d.params, points).unwrap()
    }

    fn time_pair(a: &SweepReport, b: &SweepReport) -> KneePair {
        compare_knees(a, b).into_iter().find(|k| k.metric == Metric::Time).unwrap()
    }

    const KNEE_AT_64: [(f64, f64); 6] = [(300.0, 1.0), (200.0, 1.0), (100.0, 1.0), (99.0, 1.0), (98.0, 1.0), (97.0, 1.0)];

    /// The same sweep on both sides: every knee the same, counts a tie.
    #[test]
    fn an_a_a_sweep_comparison_reads_the_same() {
        let a = timed_sweep(&KNEE_AT_64);
        let pairs = compare_knees(&a, &a.clone());
        assert_eq!(pairs.len(), Metric::all().len());
        for k in &pairs {
            let want = if k.metric == Metric::Time { Outcome::Same } else { Outcome::Tie };
            assert_eq!((k.outcome, k.a, k.ratio), (want, k.b, Some(1.0)), "{k:?}");
        }
    }

    /// B's time knee later than A's, and B's own samples there clearly below
    /// its samples at A's knee: a real difference, with the ratio.
    #[test]
    fn a_later_time_knee_clearly_apart_is_called_so() {
        let a = timed_sweep(&KNEE_AT_64);
        let b = timed_sweep(&[(900.0, 1.0), (800.0, 1.0), (700.0, 1.0), (600.0, 1.0), (100.0, 1.0), (99.0, 1.0)]);
        let k = time_pair(&a, &b);
        assert_eq!((k.a, k.b, k.ratio, k.outcome), (Some(64), Some(256), Some(4.0), Outcome::More), "{k:?}");
        // The other way round: B's knee earlier, A's later one clearly apart.
        let k = time_pair(&b, &a);
        assert_eq!((k.a, k.b, k.ratio, k.outcome), (Some(256), Some(64), Some(0.25), Outcome::Less), "{k:?}");
    }

    /// Knees at different values whose times overlap within the tolerance
    /// are the same within noise: B's knee at 128 (80..140) is not clearly
    /// below B's own time at A's knee 64 (90..150).
    #[test]
    fn time_knees_apart_by_noise_are_the_same_within_noise() {
        let a = timed_sweep(&KNEE_AT_64);
        let b = timed_sweep(&[(300.0, 1.0), (250.0, 1.0), (120.0, 30.0), (110.0, 30.0), (80.0, 5.0), (80.0, 5.0)]);
        let k = time_pair(&a, &b);
        assert_eq!((k.a, k.b, k.outcome), (Some(64), Some(128), Outcome::Same), "{k:?}");
    }

    /// B's knee one point later, its own samples there clearly faster, but
    /// its time relative to A's falls by less than 3× in some ratio the
    /// samples allow (A's point at 128 spreads 85..105): the same within
    /// noise. On the 3× edge: A's point as tight as the rest, a difference.
    #[test]
    fn a_later_knee_within_the_factor_of_separate_measurements_is_the_same_within_noise() {
        let a = timed_sweep(&[(300.0, 1.0), (200.0, 1.0), (100.0, 1.0), (95.0, 10.0), (96.0, 1.0), (97.0, 1.0)]);
        let b = timed_sweep(&[(300.0, 1.0), (200.0, 1.0), (100.0, 1.0), (30.0, 1.0), (30.0, 1.0), (30.0, 1.0)]);
        let k = time_pair(&a, &b);
        assert_eq!((k.a, k.b, k.outcome), (Some(64), Some(128), Outcome::Same), "{k:?}");
        // B ÷ A at 128 at most 31/98 = 0.316, × 3 = 0.949, below 0.98 (at least, at 64): clearly apart.
        let a = timed_sweep(&[(300.0, 1.0), (200.0, 1.0), (100.0, 1.0), (99.0, 1.0), (98.0, 1.0), (97.0, 1.0)]);
        assert_eq!(time_pair(&a, &b).outcome, Outcome::More);
    }

    /// A side whose time curve zig-zags has no knee: nothing to compare.
    #[test]
    fn a_side_without_a_time_knee_is_not_compared() {
        let a = timed_sweep(&KNEE_AT_64);
        let b = timed_sweep(&[(100.0, 2.0), (130.0, 2.0), (90.0, 2.0), (140.0, 2.0), (80.0, 2.0), (120.0, 2.0)]);
        let k = time_pair(&a, &b);
        assert_eq!((k.a, k.b, k.ratio, k.outcome), (Some(64), None, None, Outcome::NotCompared), "{k:?}");
    }

    /// Sweeps along different axes have no knees to pair.
    #[test]
    fn sweeps_along_different_axes_are_not_compared() {
        let a = timed_sweep(&KNEE_AT_64);
        let mut b = a.clone();
        b.sweep.axis = crate::model::SweepAxis::Rs;
        assert!(compare_knees(&a, &b).iter().all(|k| k.outcome == Outcome::NotCompared));
    }

    #[test]
    fn points_follow_the_powers_of_two_of_the_range() {
        use crate::model::{ChunkModel::Fixed, SweepAxis};
        let swept = |axis, from, to, base: Params| Params { sweep: Some(Sweep::one(axis, from, to)), ..base };
        let p = swept(SweepAxis::Cap, 16, 1024, Params { len: 65536, ..Params::default() });
        let caps: Vec<u64> = points(&p).iter().map(|p| p.cap).collect();
        assert_eq!(caps, [16, 32, 64, 128, 256, 512, 1024]);
        assert!(points(&p).iter().all(|p| p.sweep.is_none() && p.len == 65536));
        assert!(points(&Params::default()).is_empty());
        let p = swept(SweepAxis::Chunk, 64, 256, Params::default());
        let chunks: Vec<_> = points(&p).iter().map(|p| p.chunk).collect();
        assert_eq!(chunks, [Fixed { size: 64 }, Fixed { size: 128 }, Fixed { size: 256 }]);
    }

    /// A counted sweep of `link`, every point run (no timing).
    fn counted(link: &str) -> SweepReport {
        use crate::engine::clock::InstantClock;
        let d = crate::link::decode(link);
        assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
        run_sweep(&d.params, &InstantClock::default(), Sampling::COUNTS, |_, _, _| {}).unwrap()
    }

    #[test]
    fn a_grid_varies_its_second_axis_fastest_and_no_sweep_has_no_points() {
        let one = crate::link::decode("sweep=cap&from=16&to=64").params;
        assert_eq!(grid(&one), [(16, None), (32, None), (64, None)]);
        let two = crate::link::decode("len=4K&chunk=512&sweep=cap,rs&from=16,1&to=32,2").params;
        assert_eq!(grid(&two), [(16, Some(1)), (16, Some(2)), (32, Some(1)), (32, Some(2))]);
        assert!(grid(&Params::default()).is_empty());
    }

    /// A point's time is its CPU time plus its modelled I/O, in each figure.
    #[test]
    fn a_points_total_time_adds_the_modelled_io_to_each_figure() {
        let mut run = timed_sweep(&KNEE_AT_64).points[0].report.runs[0].clone();
        run.modelled_io_ns = 50.0;
        assert_eq!(total(&run), Timed { median: 350.0, min: 349.0, max: 351.0 });
    }

    /// A time knee reports the medians: its own and the curve's best.
    #[test]
    fn a_time_knee_reports_the_median_there_and_the_best_median() {
        let r = timed_sweep(&KNEE_AT_64);
        let k = r.knees.iter().find(|k| k.metric == Metric::Time).unwrap();
        assert_eq!((k.value, k.at_knee, k.best, k.first, k.across), (64, 100.0, 97.0, false, None), "{k:?}");
    }

    /// A report of the points so far is complete only once every point is in.
    #[test]
    fn a_sweep_report_is_complete_only_with_every_point() {
        let r = counted("len=4K&chunk=512&rd=std&sweep=cap&from=16&to=64");
        assert!(r.complete && r.digests_agree && r.total == 3 && r.points.len() == 3, "{r:?}");
        let part = report(&r.params, r.points[..2].to_vec()).unwrap();
        assert!(!part.complete && part.total == 3, "{part:?}");
        assert_eq!(report(&Params::default(), Vec::new()), None, "no sweep, no report");
    }

    /// On two axes, each column of the grid has the knees of the one-axis
    /// sweep with the second axis fixed at that column's value.
    #[test]
    fn a_grids_knees_are_each_columns_own_one_axis_knees() {
        // Reads of 32 bytes pass a 16- or 32-byte buffer by; reads of 64 pass all three.
        let grid = counted("len=4K&chunk=512&rd=std&sweep=cap,rs&from=16,32&to=64,64");
        let column = |rs: u64| counted(&format!("len=4K&chunk=512&rd=std&rs={rs}&sweep=cap&from=16&to=64")).knees;
        let (one, two) = (column(32), column(64));
        assert_ne!(one, two, "the columns' knees differ, so a column read from the other shows");
        let want: Vec<Knee> = one.into_iter().map(|k| Knee { across: Some(32), ..k }).chain(two.into_iter().map(|k| Knee { across: Some(64), ..k })).collect();
        assert_eq!(grid.knees, want);
    }

    /// A reader that is missing from a point, or listed in another place
    /// there, has no whole curve: no knees. The other readers keep theirs.
    #[test]
    fn a_reader_missing_from_a_point_or_out_of_place_has_no_knees() {
        let r = counted("len=4K&chunk=512&rd=unbuffered,std&sweep=cap&from=16&to=64");
        let readers = |r: &SweepReport| {
            let mut v: Vec<ReaderKind> = r.knees.iter().map(|k| k.reader).collect();
            v.dedup();
            v
        };
        assert_eq!(readers(&r), [ReaderKind::Unbuffered, ReaderKind::Std]);
        let mut points = r.points.clone();
        points[2].report.runs.truncate(1);
        assert_eq!(readers(&report(&r.params, points).unwrap()), [ReaderKind::Unbuffered]);
        let mut points = r.points.clone();
        points[1].report.runs.reverse();
        assert!(report(&r.params, points).unwrap().knees.is_empty());
    }

    #[test]
    fn a_factor_spans_every_ratio_the_samples_allow() {
        let f = factor((Timed { median: 30.0, min: 20.0, max: 40.0 }, Timed { median: 60.0, min: 50.0, max: 80.0 }));
        assert_eq!(f, Timed { median: 0.5, min: 0.25, max: 0.8 });
    }

    /// On the 3× edge: B's time relative to A's falls from 1.5 (96 ÷ 64, at
    /// A's knee) to 0.5 (32 ÷ 64, at B's), exactly 3×: not more, so the same
    /// within noise; from 97 ÷ 64 it is more.
    #[test]
    fn knees_exactly_the_factor_apart_are_the_same_within_noise() {
        let a = timed_sweep(&[(300.0, 0.0), (200.0, 0.0), (64.0, 0.0), (64.0, 0.0), (64.0, 0.0), (64.0, 0.0)]);
        let b = timed_sweep(&[(300.0, 0.0), (200.0, 0.0), (96.0, 0.0), (32.0, 0.0), (32.0, 0.0), (32.0, 0.0)]);
        let k = time_pair(&a, &b);
        assert_eq!((k.a, k.b, k.outcome), (Some(64), Some(128), Outcome::Same), "{k:?}");
        let b = timed_sweep(&[(300.0, 0.0), (200.0, 0.0), (97.0, 0.0), (32.0, 0.0), (32.0, 0.0), (32.0, 0.0)]);
        assert_eq!(time_pair(&a, &b).outcome, Outcome::More);
    }

    /// Times of one sample each (a quick sweep) show no noise: knees at
    /// different values are never called different on them.
    #[test]
    fn quick_times_never_call_knees_different() {
        let a = timed_sweep(&KNEE_AT_64);
        let mut b = timed_sweep(&[(900.0, 1.0), (800.0, 1.0), (700.0, 1.0), (600.0, 1.0), (100.0, 1.0), (99.0, 1.0)]);
        assert_eq!(time_pair(&a, &b).outcome, Outcome::More);
        for p in &mut b.points {
            p.report.runs[0].cpu_ns.samples = 1;
        }
        let k = time_pair(&a, &b);
        assert_eq!((k.a, k.b, k.outcome), (Some(64), Some(256), Outcome::Same), "{k:?}");
    }

    /// A reader's knees are compared on its own times, not on the first
    /// listed reader's: a flat reader listed first changes nothing.
    #[test]
    fn knees_are_compared_on_the_readers_own_times() {
        let flat_first = |r: SweepReport| {
            let mut points = r.points.clone();
            for p in &mut points {
                let mut other = p.report.runs[0].clone();
                other.reader = ReaderKind::Unbuffered;
                (other.cpu_ns.median, other.cpu_ns.min, other.cpu_ns.max) = (500.0, 499.0, 501.0);
                p.report.runs.insert(0, other);
            }
            report(&r.params, points).unwrap()
        };
        let a = flat_first(timed_sweep(&KNEE_AT_64));
        let b = flat_first(timed_sweep(&[(900.0, 1.0), (800.0, 1.0), (700.0, 1.0), (600.0, 1.0), (100.0, 1.0), (99.0, 1.0)]));
        let k = compare_knees(&a, &b).into_iter().find(|k| k.reader == ReaderKind::Std && k.metric == Metric::Time).unwrap();
        assert_eq!((k.a, k.b, k.outcome), (Some(64), Some(256), Outcome::More), "{k:?}");
    }

    /// Two sweeps run point by point in turn (A first on even steps, B
    /// first on odd ones), each to its own length, and their knees paired.
    #[test]
    fn a_sweep_pair_alternates_its_points_and_runs_each_side_to_its_own_length() {
        use crate::engine::clock::InstantClock;
        let a = crate::link::decode("len=4K&chunk=512&rd=std&sweep=cap&from=16&to=64").params;
        let b = crate::link::decode("len=4K&chunk=512&rd=std&sweep=cap&from=16&to=32").params;
        let mut order = Vec::new();
        let c = run_pair(&a, &b, &InstantClock::default(), Sampling::COUNTS, |side, i, n, p| order.push((side, i, n, p.value))).unwrap();
        assert_eq!(order, [('A', 0, 3, 16), ('B', 0, 2, 16), ('B', 1, 2, 32), ('A', 1, 3, 32), ('A', 2, 3, 64)]);
        let values = |r: &SweepReport| r.points.iter().map(|p| p.value).collect::<Vec<_>>();
        assert_eq!((values(&c.a), values(&c.b)), (vec![16, 32, 64], vec![16, 32]));
        assert!(c.a.complete && c.b.complete);
        assert!(!c.knees.is_empty());
        assert_eq!(c.knees, compare_knees(&c.a, &c.b));
        let none = run_pair(&a, &Params::default(), &InstantClock::default(), Sampling::COUNTS, |_, _, _, _| {});
        assert_eq!(none.map(|_| ()).map_err(|e| e.key), Err("sweep"));
    }
}
