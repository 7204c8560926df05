//! The cross-check: BufLab's timed pass against a plain program doing the
//! same with std, each timed by Criterion, outside BufLab's own harness.
//!
//! `cargo bench -p buflab --bench crosscheck` (natively; `npm run bench` puts
//! the table in docs/benchmarks.md). Each scenario of
//! `buflab::bench::CROSSCHECK` is a group with two functions, `buflab` and
//! `plain`; their ratio is what BufLab's harness adds to the user's code.
//! Both sides return the same sum, checked before timing.

use std::hint::black_box;

use buflab::bench::{Setup, CROSSCHECK};
use criterion::{criterion_group, criterion_main, Criterion};

fn crosscheck(c: &mut Criterion) {
    for case in CROSSCHECK {
        let setup = Setup::new(case.link, case.what);
        assert_eq!(setup.buflab(), (case.plain)(&setup), "{}: the two sides disagree", case.name);
        let mut g = c.benchmark_group(case.name);
        g.bench_function("buflab", |b| b.iter(|| black_box(setup.buflab())));
        g.bench_function("plain", |b| b.iter(|| black_box((case.plain)(&setup))));
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = crosscheck
}
criterion_main!(benches);
