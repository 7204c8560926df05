//! The cross-check: BufLab's timed pass against a plain program doing the
//! same with std, each timed by Criterion, outside BufLab's own harness.
//!
//! `cargo bench -p buflab --bench crosscheck` (natively; `npm run bench` puts
//! the table in docs/benchmarks.md). Each scenario of
//! `buflab::bench::CROSSCHECK` is timed in [`ROUNDS`] rounds, each a group
//! (`<scenario>/round <r>`) with two functions, `buflab` and `plain`; their
//! ratio is what BufLab's harness adds to the user's code. Criterion times
//! all of one function before the other, so the rounds alternate which goes
//! first: a machine that slows down or speeds up over a few seconds (another
//! build beside it, a neighbour on a shared host) then lands on each side in
//! turn, and the median of the rounds' ratios cancels it. The rounds are
//! short (0.3 s a side) so that each pair of sides runs on nearly the same
//! machine. Both sides return the same sum, checked before timing.

use std::hint::black_box;

use buflab::bench::{Setup, CROSSCHECK};
use criterion::{criterion_group, criterion_main, Criterion};

/// Rounds per scenario, alternating which side is timed first.
const ROUNDS: usize = 10;

fn crosscheck(c: &mut Criterion) {
    for case in CROSSCHECK {
        let setup = Setup::new(case.link, case.what);
        assert_eq!(setup.buflab(), (case.plain)(&setup), "{}: the two sides disagree", case.name);
        for round in 0..ROUNDS {
            let mut g = c.benchmark_group(format!("{}/round {round}", case.name));
            let ours = |g: &mut criterion::BenchmarkGroup<_>| {
                g.bench_function("buflab", |b| b.iter(|| black_box(setup.buflab())));
            };
            let theirs = |g: &mut criterion::BenchmarkGroup<_>| {
                g.bench_function("plain", |b| b.iter(|| black_box((case.plain)(&setup))));
            };
            if round % 2 == 0 {
                ours(&mut g);
                theirs(&mut g);
            } else {
                theirs(&mut g);
                ours(&mut g);
            }
            g.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(100))
        .measurement_time(std::time::Duration::from_millis(300))
        .sample_size(20);
    targets = crosscheck
}
criterion_main!(benches);
