//! Clocks, sampling and statistics: how a time is taken.
//!
//! Timing follows a native harness: warm up (V8 compiles wasm lazily and
//! tiers up, so first calls are slower), then size batches so that one sample
//! lasts long enough for the timer ([`min_sample_ns`]), then
//! take several samples and report min, median, MAD and max per run.

use serde::{Deserialize, Serialize};

use crate::model::{ParamError, Stage, Stats, Timer};

/// A monotonic clock. Natively [`std::time::Instant`]; in the worker the wasm
/// glue supplies `performance.now()`, whose resolution depends on cross-origin
/// isolation (5 µs isolated, 100 µs not, in Chromium).
pub trait Clock {
    /// Nanoseconds since an arbitrary fixed origin.
    fn now_ns(&self) -> f64;
    /// Whether the host grants the fine timer (always true natively).
    fn isolated(&self) -> bool;
    /// Until when ([`Clock::now_ns`]'s time) a full measurement keeps
    /// warming up because the engine around it has only just started: in a
    /// worker, [`FRESH_NS`] after this wasm instance started. Natively there
    /// is no such time (the order check measured no fresh-process effect), so
    /// by default none.
    fn fresh_until_ns(&self) -> f64 {
        0.0
    }
}

/// How long after a wasm instance starts its samples still run slow: in a
/// worker that has just instantiated the engine, full measurements run
/// slower and scatter wider for a while (docs/benchmarks.md, "A fresh
/// instance"). So the first full measurement of an instance warms up until
/// this long after its start ([`Clock::fresh_until_ns`], [`sample`]); later
/// ones are past it. The page's timing worker ends the period sooner, once
/// short calls of the functions it times stop getting faster (`warmed_up` in
/// wasm.rs).
pub const FRESH_NS: f64 = 400e6;

/// Native clock (`Instant` is not available in wasm32-unknown-unknown; the
/// glue brings its own clock there).
#[derive(Debug)]
pub struct InstantClock {
    origin: std::time::Instant,
}

impl Default for InstantClock {
    fn default() -> Self {
        InstantClock { origin: std::time::Instant::now() }
    }
}

impl Clock for InstantClock {
    fn now_ns(&self) -> f64 {
        self.origin.elapsed().as_nanos() as f64
    }
    fn isolated(&self) -> bool {
        true
    }
}

/// A settled measurement's sample lasts this many timer ticks, so rounding to
/// the tick costs at most 0.1 % ([`Sampling::ticks`]).
pub const RESOLUTION_FACTOR: f64 = 1000.0;

/// A sample need not last longer than this (ns) once it spans
/// [`COARSE_RESOLUTION_FACTOR`] ticks: with a coarse timer (a browser worker
/// that is not cross-origin isolated ticks in 100 µs steps)
/// [`RESOLUTION_FACTOR`] ticks would make every sample 100 ms and a full
/// measurement seconds long.
pub const MAX_MIN_SAMPLE_NS: f64 = 20e6;

/// The fewest ticks a sample may span (rounding at most 0.5 %, still well
/// inside the run-to-run spread the stats report): 20 ms of a 100 µs timer.
pub const COARSE_RESOLUTION_FACTOR: f64 = 200.0;

/// How long one sample must last on a clock of this resolution: `ticks`
/// ticks ([`Sampling::ticks`]), or [`MAX_MIN_SAMPLE_NS`] where that is
/// shorter, but never fewer than [`COARSE_RESOLUTION_FACTOR`] ticks.
pub fn min_sample_ns(resolution_ns: f64, ticks: f64) -> f64 {
    (resolution_ns * ticks).min(MAX_MIN_SAMPLE_NS).max(resolution_ns * COARSE_RESOLUTION_FACTOR)
}

/// Whether a clock of this step lengthens a full measurement's samples so
/// much that measuring takes longer: [`Sampling::FULL`]'s samples, each
/// [`min_sample_ns`] long, no longer all fit in its budget, so the timer's
/// step and not the runs sets how long measuring lasts. A browser worker's
/// 5 µs step (Chromium, isolated) does not (10 samples of 5 ms); a 20 µs one
/// (Firefox and WebKit, isolated) does, as does any step without isolation.
pub fn samples_lengthened(resolution_ns: f64) -> bool {
    let full = Sampling::FULL;
    min_sample_ns(resolution_ns, full.ticks) * f64::from(full.samples) > full.budget_ns
}

/// The timer a report states: the step seen, isolation, and what the step
/// does to sampling ([`samples_lengthened`]).
pub fn timer(clock: &dyn Clock, resolution_ns: f64) -> Timer {
    Timer { resolution_ns, isolated: clock.isolated(), samples_lengthened: samples_lengthened(resolution_ns) }
}

/// The smallest step the clock shows: the least non-zero difference between
/// consecutive readings, over a few steps.
pub fn resolution_ns(clock: &dyn Clock) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = clock.now_ns();
        let mut now = clock.now_ns();
        // Bounded spin: a clock that never moves must not hang the page.
        let mut spins = 0u32;
        while now <= start && spins < 10_000_000 {
            now = clock.now_ns();
            spins += 1;
        }
        if now > start {
            best = best.min(now - start);
        }
    }
    if best.is_finite() {
        best
    } else {
        1e6
    }
}

/// How hard to measure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    /// Time spent running before the first sample, in ns.
    pub warmup_ns: f64,
    /// Samples to take (at least 1).
    pub samples: u32,
    /// Keep sampling at most this long (ns) once [`Sampling::min_samples`]
    /// are taken.
    pub budget_ns: f64,
    /// Never fewer samples than this, whatever the budget.
    pub min_samples: u32,
    /// The fewest timer ticks one sample spans (runs are batched until it
    /// does): [`RESOLUTION_FACTOR`] for a settled measurement, fewer for
    /// lighter ones, never under [`COARSE_RESOLUTION_FACTOR`].
    pub ticks: f64,
}

impl Sampling {
    /// A settled measurement: 10 samples, or 5 once 100 ms have gone on
    /// sampling. Samples of one run span 1000 ticks, so a fine timer (5 µs)
    /// gets 10 samples of runs up to 10 ms; a coarse one's 20 ms samples
    /// (a plain static host's first visit) stop at 5.
    pub const FULL: Sampling =
        Sampling { warmup_ns: 30e6, samples: 10, budget_ns: 100e6, min_samples: 5, ticks: RESOLUTION_FACTOR };
    /// A rough estimate while a control is moving: one short sample.
    pub const QUICK: Sampling =
        Sampling { warmup_ns: 0.0, samples: 1, budget_ns: 0.0, min_samples: 1, ticks: RESOLUTION_FACTOR };
    /// No timing at all: the counted pass alone, for exact counts at once.
    pub const COUNTS: Sampling =
        Sampling { warmup_ns: 0.0, samples: 0, budget_ns: 0.0, min_samples: 0, ticks: RESOLUTION_FACTOR };

    /// The sampling of a run asked for as exact counts alone (`counts`, which
    /// wins), a quick estimate (`quick`), or neither: `settled`
    /// ([`Sampling::FULL`], or a sweep's lighter policy). The one place the
    /// CLI's flags and the worker's arguments become a policy.
    pub fn chosen(counts: bool, quick: bool, settled: Sampling) -> Sampling {
        match (counts, quick) {
            (true, _) => Sampling::COUNTS,
            (false, true) => Sampling::QUICK,
            (false, false) => settled,
        }
    }

    /// What a report made with this sampling says of its times.
    pub fn stage(&self) -> Stage {
        if self.samples == 0 {
            Stage::Counts
        } else if *self == Sampling::QUICK {
            Stage::Quick
        } else {
            Stage::Full
        }
    }
}

/// Refuses timing in a build without the timed pass (the page's counting
/// module, built without the `timed` feature): it counts only.
pub fn check_timed(sampling: Sampling) -> Result<(), ParamError> {
    if cfg!(feature = "timed") || sampling.samples == 0 {
        Ok(())
    } else {
        Err(ParamError { key: "run", message: "this build of the engine counts only; times come from the full engine".into() })
    }
}

/// A time is an outlier when it is farther from the median than this many
/// scaled median absolute deviations (MAD × 1.4826, a standard deviation's
/// estimate for normal noise); outliers are counted, never dropped.
pub const OUTLIER_FENCE: f64 = 3.0;

/// The statistics of per-run times (sorted in place) taken in batches of
/// `batch` runs.
pub fn stats(per_run_ns: &mut [f64], batch: u64) -> Stats {
    if per_run_ns.is_empty() {
        return Stats { batch, ..Stats::default() };
    }
    per_run_ns.sort_by(f64::total_cmp);
    let median = median_sorted(per_run_ns);
    let mut deviations: Vec<f64> = per_run_ns.iter().map(|t| (t - median).abs()).collect();
    deviations.sort_by(f64::total_cmp);
    let mad = median_sorted(&deviations);
    let fence = OUTLIER_FENCE * 1.4826 * mad;
    Stats {
        min: per_run_ns[0],
        median,
        max: per_run_ns[per_run_ns.len() - 1],
        mad,
        samples: per_run_ns.len() as u32,
        batch,
        outliers: deviations.iter().filter(|&&d| d > fence).count() as u32,
    }
}

fn median_sorted(v: &[f64]) -> f64 {
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Times `run` (one complete run of an experiment) and returns per-run stats;
/// with no samples asked for ([`Sampling::COUNTS`]) it never runs it and
/// returns stats with no samples.
pub fn sample(clock: &dyn Clock, resolution_ns: f64, how: Sampling, mut run: impl FnMut()) -> Stats {
    if how.samples == 0 {
        return Stats::default();
    }
    let time = |run: &mut dyn FnMut(), batch: u64| {
        let start = clock.now_ns();
        for _ in 0..batch {
            run();
        }
        (clock.now_ns() - start).max(0.0)
    };

    // Warm up, and learn roughly how long one run takes: for the warm-up's
    // length, and in a freshly started engine until it is no longer fresh.
    let warm_start = clock.now_ns();
    let warm_until = if how.warmup_ns > 0.0 { (warm_start + how.warmup_ns).max(clock.fresh_until_ns()) } else { warm_start };
    let mut one_run = time(&mut run, 1);
    while clock.now_ns() < warm_until {
        one_run = one_run.min(time(&mut run, 1));
    }

    let min_sample_ns = min_sample_ns(resolution_ns, how.ticks);
    let mut batch = if one_run <= 0.0 {
        1
    } else {
        (min_sample_ns / one_run).ceil().max(1.0) as u64
    };
    if how.samples <= 1 && how.warmup_ns == 0.0 {
        batch = batch.min(quick_batch(one_run));
    }
    // Per-run times in the order taken (`stats` sorts them at the end).
    let mut per_run = Vec::with_capacity(how.samples as usize);
    // Without a warm-up (a quick estimate, a sweep's later points, whose code
    // the points before ran), the run that sized the batches is a sample when
    // it already spans a sample's length: taking another would repeat it.
    if how.warmup_ns == 0.0 && one_run >= min_sample_ns {
        per_run.push(one_run);
    }
    let started = clock.now_ns();
    loop {
        while per_run.len() < how.samples.max(1) as usize {
            let elapsed = time(&mut run, batch);
            // A sample that came out too short for the clock doubles the batch
            // and is taken again (runs get faster as the engine tiers up).
            if elapsed < min_sample_ns && how.samples > 1 && batch < u64::MAX / 2 {
                batch *= 2;
                continue;
            }
            per_run.push(elapsed / batch as f64);
            let over_budget = clock.now_ns() - started > how.budget_ns;
            if over_budget && per_run.len() >= how.min_samples.max(1) as usize {
                break;
            }
        }
        // Runs still getting faster are not yet what a run costs in a
        // program that has been running: a warm-up of fixed length ends
        // before V8's optimized code arrives when the machine is busy (a
        // first load: the page builds itself beside the worker). The older
        // half goes and is taken again, within the budget.
        if clock.now_ns() - started > how.budget_ns || !still_warming(&per_run) {
            break;
        }
        per_run.drain(..per_run.len() / 2);
    }
    stats(&mut per_run, batch)
}

/// Samples whose newer half is this much faster (median against median)
/// than their older half were taken while the code was still warming up: a
/// late optimizing compile often shows as a gradual gain rather than a step
/// (docs/benchmarks.md, "Still warming"). The cost: noise alone can retake
/// the slower half of µs-scale samples now and then, a slight lean towards
/// faster samples (the Criterion cross-check holds both sides to the same
/// rule).
pub const STILL_WARMING: f64 = 0.1;

/// Whether per-run times, in the order taken, were still getting faster
/// ([`STILL_WARMING`]); fewer than 4 samples tell nothing.
fn still_warming(in_order: &[f64]) -> bool {
    if in_order.len() < 4 {
        return false;
    }
    let median = |half: &[f64]| {
        let mut sorted = half.to_vec();
        sorted.sort_by(f64::total_cmp);
        median_sorted(&sorted)
    };
    let (older, newer) = in_order.split_at(in_order.len() / 2);
    median(newer) < median(older) * (1.0 - STILL_WARMING)
}

/// Times `run` on what `setup` made, one run per sample, and hands each
/// sample's time (ns) and result to `after`; returns the times in sample
/// order. For runs over real sources, which must be made afresh for every
/// run and whose making is not part of the time: a file opened, a pipe and
/// its writer thread, a TCP connection. `after` runs untimed, before the
/// next `setup` (joining a writer thread, say). No batching: such a run is a
/// sequence of system calls, far longer than the clock's step. `how` is the
/// same policy as [`sample`]'s: warm-up time, then `how.samples` samples, or
/// fewer once the budget is spent and `how.min_samples` are in.
pub fn time_each<T, R>(
    clock: &dyn Clock,
    how: Sampling,
    mut setup: impl FnMut() -> T,
    mut run: impl FnMut(T) -> R,
    mut after: impl FnMut(R, f64),
) -> Vec<f64> {
    let mut once = |setup: &mut dyn FnMut() -> T, after: &mut dyn FnMut(R, f64)| {
        let made = setup();
        let start = clock.now_ns();
        let out = run(made);
        let elapsed = (clock.now_ns() - start).max(0.0);
        after(out, elapsed);
        elapsed
    };
    let warm_start = clock.now_ns();
    while clock.now_ns() - warm_start < how.warmup_ns {
        once(&mut setup, &mut after);
    }
    let mut times = Vec::with_capacity(how.samples.max(1) as usize);
    let started = clock.now_ns();
    while times.len() < how.samples.max(1) as usize {
        times.push(once(&mut setup, &mut after));
        let over_budget = clock.now_ns() - started > how.budget_ns;
        if over_budget && times.len() >= how.min_samples.max(1) as usize {
            break;
        }
    }
    times
}

/// Quick estimates stop at about 20 ms of runs, so a moving slider stays live.
fn quick_batch(one_run_ns: f64) -> u64 {
    if one_run_ns <= 0.0 {
        return 1;
    }
    (20e6 / one_run_ns).floor().max(1.0) as u64
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    #[test]
    fn stats_of_odd_and_even_sample_counts() {
        let s = stats(&mut [5.0, 1.0, 3.0], 2);
        assert_eq!((s.min, s.median, s.max, s.samples, s.batch), (1.0, 3.0, 5.0, 3, 2));
        assert_eq!(s.mad, 2.0);
        let s = stats(&mut [4.0, 1.0, 2.0, 3.0], 1);
        assert_eq!(s.median, 2.5);
    }

    #[test]
    fn outliers_are_counted_not_dropped() {
        let s = stats(&mut [10.0, 10.5, 9.5, 10.2, 9.8, 40.0], 1);
        assert_eq!(s.outliers, 1);
        assert_eq!(s.max, 40.0, "the outlier stays in the stats");
        assert_eq!(stats(&mut [1.0, 1.0, 1.0], 1).outliers, 0);
    }

    #[test]
    fn time_each_times_only_the_run_and_keeps_to_the_sample_policy() {
        let clock = InstantClock::default();
        let how = Sampling { warmup_ns: 0.0, samples: 4, budget_ns: 0.0, min_samples: 2, ..Sampling::FULL };
        let (mut setups, mut afters) = (0, Vec::new());
        let times = time_each(
            &clock,
            how,
            || {
                setups += 1;
                // Setup is slow; the runs are not, and the times must say so.
                std::thread::sleep(std::time::Duration::from_millis(20));
                setups
            },
            |n| n * 10,
            |out, t| afters.push((out, t)),
        );
        assert_eq!(times.len(), 2, "the budget is spent, so min_samples end it");
        assert_eq!(afters.iter().map(|a| a.0).collect::<Vec<_>>(), [10, 20]);
        assert!(times.iter().all(|&t| t < 10e6), "{times:?}");
        assert_eq!(times, afters.iter().map(|a| a.1).collect::<Vec<_>>());
    }

    #[test]
    fn native_clock_has_sub_microsecond_resolution() {
        let r = resolution_ns(&InstantClock::default());
        assert!(r > 0.0 && r < 1000.0, "resolution {r} ns");
    }

    #[test]
    fn samples_last_long_enough_for_the_clock() {
        let clock = InstantClock::default();
        let mut runs = 0u64;
        let s = sample(&clock, 1000.0, Sampling { warmup_ns: 1e6, ..Sampling::FULL }, || {
            runs += 1;
            std::hint::black_box(runs);
        });
        assert!(s.samples >= Sampling::FULL.min_samples);
        // 1000 × 1 µs resolution = 1 ms per sample at least.
        assert!(s.median * s.batch as f64 >= 1e6 * 0.99, "{s:?}");
    }

    /// A clock that moves only when a simulated run says so.
    struct SimClock(Cell<f64>);

    impl Clock for SimClock {
        fn now_ns(&self) -> f64 {
            self.0.get()
        }
        fn isolated(&self) -> bool {
            true
        }
    }

    #[test]
    fn samples_taken_while_the_code_still_got_faster_are_taken_again() {
        // A run costs 5 µs for its first 1400 calls (unoptimized code, past
        // the 1 ms warm-up and through 6 of 10 samples), then 1 µs: the settled
        // cost is 1 µs.
        let clock = SimClock(Cell::new(0.0));
        let mut calls = 0u64;
        let how = Sampling { warmup_ns: 1e6, ..Sampling::FULL };
        let s = sample(&clock, 1000.0, how, || {
            calls += 1;
            clock.0.set(clock.0.get() + if calls <= 1400 { 5_000.0 } else { 1_000.0 });
        });
        assert_eq!(s.median, 1_000.0, "{s:?}");
        assert!(s.samples >= how.min_samples, "{s:?}");
        // Steady runs keep the first samples.
        let steady = SimClock(Cell::new(0.0));
        let s = sample(&steady, 1000.0, how, || steady.0.set(steady.0.get() + 1_000.0));
        assert_eq!((s.median, s.samples), (1_000.0, how.samples), "{s:?}");
        assert!(!still_warming(&[1.0, 1.05, 0.97, 1.0]));
        assert!(still_warming(&[5.0, 5.0, 1.0, 1.0]));
    }

    /// A [`SimClock`] in an engine that is fresh until `.1` ns.
    struct FreshClock(SimClock, f64);

    impl Clock for FreshClock {
        fn now_ns(&self) -> f64 {
            self.0.now_ns()
        }
        fn isolated(&self) -> bool {
            true
        }
        fn fresh_until_ns(&self) -> f64 {
            self.1
        }
    }

    #[test]
    fn a_fresh_engine_warms_up_until_it_is_no_longer_fresh_before_a_measurement_with_a_warm_up() {
        // Runs of 1 ms, in an engine fresh for its first 400 ms: how many
        // runs a measurement starting at `at` ns makes in all.
        let runs = |how: Sampling, at: f64| {
            let clock = FreshClock(SimClock(Cell::new(at)), FRESH_NS);
            let mut runs = 0u32;
            sample(&clock, 1000.0, how, || {
                runs += 1;
                clock.0 .0.set(clock.0.now_ns() + 1e6);
            });
            runs
        };
        // At the start, a full measurement warms up for 400 runs, then takes
        // its 10 samples of one run each; once the engine is 500 ms old it
        // warms up for its own 30 ms only.
        assert_eq!(runs(Sampling::FULL, 0.0), 400 + 10);
        assert_eq!(runs(Sampling::FULL, 500e6), 30 + 10);
        // A quick estimate has no warm-up, fresh or not: one run.
        assert_eq!(runs(Sampling::QUICK, 0.0), 1);
    }

    #[test]
    fn a_full_measurement_takes_ten_samples_or_five_once_it_has_sampled_100_ms() {
        // The default link's unbuffered run (9 ms) and std run (2.5 ms).
        let samples = |resolution_ns: f64, run_ns: f64| {
            let clock = SimClock(Cell::new(0.0));
            sample(&clock, resolution_ns, Sampling::FULL, || clock.0.set(clock.0.get() + run_ns)).samples
        };
        // A fine timer (5 µs, isolated): samples of 5 ms or one run.
        assert_eq!((samples(5e3, 9e6), samples(5e3, 2.5e6)), (10, 10));
        // A coarse one (100 µs): samples of at least 20 ms (27 ms: 3 runs;
        // 20 ms: 8 runs, whose fifth sample ends at 100 ms, not past it).
        assert_eq!((samples(100e3, 9e6), samples(100e3, 2.5e6)), (5, 6));
    }

    #[test]
    fn without_a_warm_up_the_run_that_sized_the_batches_is_a_sample() {
        // Runs of 2 ms against samples of at least 1 ms (1000 ticks of 1 µs).
        let runs_taken = |how: Sampling| {
            let clock = SimClock(Cell::new(0.0));
            let mut runs = 0u32;
            let s = sample(&clock, 1000.0, how, || {
                runs += 1;
                clock.0.set(clock.0.get() + 2e6);
            });
            assert_eq!((s.median, s.batch), (2e6, 1), "{s:?}");
            (runs, s.samples)
        };
        let sweep_point = Sampling { warmup_ns: 0.0, samples: 3, budget_ns: 60e6, min_samples: 3, ticks: RESOLUTION_FACTOR };
        assert_eq!(runs_taken(sweep_point), (3, 3));
        assert_eq!(runs_taken(Sampling::QUICK), (1, 1));
        // A warm-up is its own: samples come after it (5 ms of runs, then 3 more).
        assert_eq!(runs_taken(Sampling { warmup_ns: 5e6, ..sweep_point }), (3 + 3, 3));
        // A run shorter than a sample only sizes the batches.
        let clock = SimClock(Cell::new(0.0));
        let mut runs = 0u32;
        let s = sample(&clock, 1000.0, sweep_point, || {
            runs += 1;
            clock.0.set(clock.0.get() + 0.4e6);
        });
        assert_eq!((runs, s.samples, s.batch), (1 + 3 * 3, 3, 3), "{s:?}");
    }

    #[test]
    fn samples_are_lengthened_once_a_full_measurements_samples_outlast_its_budget() {
        // Chromium's isolated step, and a native clock: 10 samples of 5 ms (1 µs) fit in 100 ms.
        assert!(!samples_lengthened(5_000.0));
        assert!(!samples_lengthened(20.0));
        // 10 µs: 10 samples of 10 ms, exactly the budget.
        assert!(!samples_lengthened(10_000.0));
        // Firefox's and WebKit's isolated 20 µs (samples of 20 ms), and every step without isolation.
        assert!(samples_lengthened(20_000.0));
        assert!(samples_lengthened(100_000.0));
        assert!(samples_lengthened(1e6));
        let clock = InstantClock::default();
        assert_eq!(timer(&clock, 20_000.0), Timer { resolution_ns: 20_000.0, isolated: true, samples_lengthened: true });
    }

    #[test]
    fn a_coarse_clock_needs_samples_of_200_ticks_and_20_ms() {
        let full = Sampling::FULL.ticks;
        assert_eq!(min_sample_ns(5_000.0, full), 5e6, "an isolated browser worker: 1000 ticks of 5 µs");
        assert_eq!(min_sample_ns(100_000.0, full), 20e6, "not isolated: 200 ticks of 100 µs, not 1000");
        assert_eq!(min_sample_ns(42.0, full), 42_000.0);
        assert_eq!(min_sample_ns(1e6, full), 200e6, "a 1 ms timer still gets 200 ticks: rounding stays at most 0.5 %");
        assert_eq!(min_sample_ns(5_000.0, 100.0), 1e6, "never fewer than 200 ticks, whatever a sampling asks");
    }
}
