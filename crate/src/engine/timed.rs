//! The timed pass: only what the user's program runs.
//!
//! Every count comes from the counted pass (`experiment::run`), which drives
//! the same readers over counting sources. This pass runs the same reader
//! and the same workload loop over a [`Stream`]: the same bytes in the same
//! chunks, with no counters, no tally (the loops tally into `()`) and no
//! sink but a running sum ([`CountSink`]). Measured against plain code (the
//! cross-check in `crate/benches/crosscheck.rs`), these are what make its
//! machine code the user's:
//! - the chunk model is resolved before the loop: a [`Uniform`] or an
//!   [`AtMost`] or a [`WholeFile`], not the `Chunker` enum with its script
//!   variant;
//! - one never-inlined function per (reader, chunk kind, workload) that
//!   builds its own readers; the workload's type tags the stream, so the
//!   reader type is particular to that loop and its `read` has one caller
//!   (with a second caller LLVM stopped inlining `BufReader::read`: 2× the
//!   time of the same loop alone);
//! - with one stream the reader and its state are locals of a plain loop
//!   (`workload`'s `round_robin`).

use std::io;
use std::marker::PhantomData;

use super::heap::Lanes;
use super::readers::{self, ReaderConfig, Strategy, Visit};
use super::source::{stream_seed, AtMost, Limit, Replay, Stream, Uniform, WholeFile};
use super::workload::{self, AppReader, Arity, Consume, CountSink, Many, One, Spec};
use crate::model::{ChunkModel, Params, ReaderKind, Workload};

/// One timed run of `params`'s workload through `kind` readers, one per
/// stream, over `data`. `app_buf` is the application's read buffer (its
/// length is the read size), `sinks[i]` sums what stream `i` delivered.
pub fn run(
    kind: ReaderKind,
    params: &Params,
    data: &[u8],
    app_buf: &mut [u8],
    sinks: &mut [CountSink],
) -> io::Result<()> {
    struct Run<'a> {
        params: &'a Params,
        data: &'a [u8],
        app_buf: &'a mut [u8],
        sinks: &'a mut [CountSink],
    }
    impl Visit for Run<'_> {
        type Output = io::Result<()>;
        fn visit<T: Strategy>(self) -> io::Result<()> {
            let Run { params, data, app_buf, sinks } = self;
            let seed = |i| stream_seed(params.seed, i);
            match params.chunk {
                ChunkModel::Uniform { min, max } => {
                    by_workload::<T, _>(params, data, app_buf, sinks, |i| Uniform::new(min, max, seed(i)))
                }
                ChunkModel::File => by_workload::<T, _>(params, data, app_buf, sinks, |_| WholeFile),
                model => {
                    let limit = AtMost::of(model).expect("every model but uniform and file has one limit");
                    by_workload::<T, _>(params, data, app_buf, sinks, |_| limit)
                }
            }
        }
    }
    readers::visit(kind, Run { params, data, app_buf, sinks })
}

/// [`run`] for a source that lives in time (link key `rate`): each stream's
/// reads get the sizes `plans[i]` logged in a counted pass of the same
/// reader ([`Replay`]), so the timed pass makes the counted pass's calls
/// without a clock of its own.
pub fn run_replayed(
    kind: ReaderKind,
    params: &Params,
    data: &[u8],
    plans: &[Vec<(u32, u32)>],
    app_buf: &mut [u8],
    sinks: &mut [CountSink],
) -> io::Result<()> {
    struct Run<'a> {
        params: &'a Params,
        data: &'a [u8],
        plans: &'a [Vec<(u32, u32)>],
        app_buf: &'a mut [u8],
        sinks: &'a mut [CountSink],
    }
    impl Visit for Run<'_> {
        type Output = io::Result<()>;
        fn visit<T: Strategy>(self) -> io::Result<()> {
            let Run { params, data, plans, app_buf, sinks } = self;
            by_workload::<T, _>(params, data, app_buf, sinks, |i| Replay::new(&plans[i]))
        }
    }
    readers::visit(kind, Run { params, data, plans, app_buf, sinks })
}

fn by_workload<T: Strategy, C: Limit>(
    p: &Params,
    data: &[u8],
    app_buf: &mut [u8],
    sinks: &mut [CountSink],
    chunks: impl Fn(usize) -> C,
) -> io::Result<()> {
    let spec = Spec { workload: p.workload, rs: app_buf.len(), len: data.len(), reuse: p.reuse };
    let go = Go { config: ReaderConfig::of(p), spec, seed: p.seed, pend: p.pend, data, app_buf, sinks };
    if p.streams == 1 {
        by_loop::<T, C, One>(go, chunks)
    } else {
        by_loop::<T, C, Many>(go, chunks)
    }
}

fn by_loop<T: Strategy, C: Limit, A: Arity + 'static>(go: Go<'_>, chunks: impl Fn(usize) -> C) -> io::Result<()> {
    struct Simulated<'a, T, C, F> {
        go: Go<'a>,
        chunks: F,
        types: PhantomData<(T, C)>,
    }
    impl<T: Strategy, C: Limit, F: Fn(usize) -> C> WithLoop for Simulated<'_, T, C, F> {
        type Output = io::Result<()>;
        fn with<W: Loop>(self) -> io::Result<()> {
            self.go.run::<T, C, W>(self.chunks)
        }
    }
    let workload = go.spec.workload;
    with_loop::<A, _>(workload, Simulated::<T, C, _> { go, chunks, types: PhantomData })?
}

/// Something to do with a workload's loop type.
pub trait WithLoop {
    type Output;
    fn with<W: Loop>(self) -> Self::Output;
}

/// Runs `v` with the loop type of `workload` for `A` streams: the one
/// dispatch from a workload to its loop (the simulated timed pass and the
/// real sources' timed pass, `engine::real`, both go through it). Fails for
/// a workload this build does not run (`workload::served`).
pub fn with_loop<A: Arity + 'static, V: WithLoop>(workload: Workload, v: V) -> io::Result<V::Output> {
    match workload {
        #[cfg(feature = "wl-fixed")]
        Workload::Fixed => Ok(v.with::<Fixed<A>>()),
        #[cfg(feature = "wl-exact")]
        Workload::Exact => Ok(v.with::<Exact<A>>()),
        #[cfg(feature = "wl-bytes")]
        Workload::Bytes => Ok(v.with::<Bytes<A>>()),
        #[cfg(feature = "wl-to_end")]
        Workload::ToEnd => Ok(v.with::<ToEnd<A>>()),
        #[cfg(feature = "wl-lines")]
        Workload::Lines => Ok(v.with::<Lines<A>>()),
        #[cfg(feature = "wl-frames")]
        Workload::Frames => Ok(v.with::<Frames<A>>()),
        #[cfg(feature = "wl-scan")]
        Workload::Scan => Ok(v.with::<Scan<A>>()),
        #[allow(unreachable_patterns)]
        other => {
            let _ = v;
            Err(workload::unserved(other))
        }
    }
}

/// What one timed run needs besides its types.
struct Go<'a> {
    config: ReaderConfig,
    spec: Spec,
    seed: u64,
    /// The async readers' `Pending` schedule (link key `pend`): they poll
    /// again here as often as in the counted pass.
    pend: u64,
    data: &'a [u8],
    app_buf: &'a mut [u8],
    sinks: &'a mut [CountSink],
}

impl Go<'_> {
    /// Builds the readers over fresh streams and runs loop `W` once. Never
    /// inlined: each (reader, chunk kind, workload) compiles on its own.
    #[inline(never)]
    fn run<T: Strategy, C: Limit, W: Loop>(self, chunks: impl Fn(usize) -> C) -> io::Result<()> {
        let shared = T::shared(self.config)?;
        let mut sources = Lanes::with_capacity(self.sinks.len());
        for i in 0..self.sinks.len() {
            let seed = stream_seed(self.seed, i);
            sources.push(Stream::<C, W>::new(self.data, chunks(i)).with_pending(self.pend, seed));
        }
        let config = self.config;
        let readers = sources.map(|source| T::build(&shared, config, source));
        run_loop::<W, _>(&self.spec, readers, self.app_buf, self.sinks)
    }
}

/// Runs loop `W`, summing into `sinks`. Over one stream the sum lives in
/// this frame while the loop runs, as a user's local variable would, and is
/// written back once: summing through the caller's slice would keep every
/// addition a load and a store the next iteration waits on, which the plain
/// program does not pay.
#[inline(always)]
pub fn run_loop<W: Loop, R: AppReader>(spec: &Spec, readers: Lanes<R>, app_buf: &mut [u8], sinks: &mut [CountSink]) -> io::Result<()> {
    if !W::ONE {
        return W::run(spec, readers, app_buf, sinks);
    }
    let [sum] = sinks else { unreachable!("a one-stream loop has one sink") };
    let mut own = [CountSink(sum.0)];
    let result = W::run(spec, readers, app_buf, &mut own);
    sum.0 = own[0].0;
    result
}

/// A workload's loop for one or many streams, as a type: it tags the
/// stream, so each loop has a reader type of its own.
pub trait Loop: 'static {
    /// Whether the loop reads exactly one stream.
    const ONE: bool;
    fn run<R: AppReader, K: Consume>(spec: &Spec, readers: Lanes<R>, app_buf: &mut [u8], sinks: &mut [K]) -> io::Result<()>;
}

pub struct Fixed<A>(PhantomData<A>);
pub struct Exact<A>(PhantomData<A>);
pub struct Bytes<A>(PhantomData<A>);
pub struct ToEnd<A>(PhantomData<A>);
pub struct Lines<A>(PhantomData<A>);
pub struct Frames<A>(PhantomData<A>);
pub struct Scan<A>(PhantomData<A>);

impl<A: Arity + 'static> Loop for Fixed<A> {
    const ONE: bool = A::ONE;
    fn run<R: AppReader, K: Consume>(_: &Spec, readers: Lanes<R>, app_buf: &mut [u8], sinks: &mut [K]) -> io::Result<()> {
        workload::fixed::<A, _, _, _>(readers, app_buf, sinks, &mut ())
    }
}

impl<A: Arity + 'static> Loop for Exact<A> {
    const ONE: bool = A::ONE;
    fn run<R: AppReader, K: Consume>(spec: &Spec, readers: Lanes<R>, app_buf: &mut [u8], sinks: &mut [K]) -> io::Result<()> {
        workload::exact::<A, _, _, _>(readers, spec.len, app_buf, sinks, &mut ())
    }
}

impl<A: Arity + 'static> Loop for Bytes<A> {
    const ONE: bool = A::ONE;
    fn run<R: AppReader, K: Consume>(_: &Spec, readers: Lanes<R>, _: &mut [u8], sinks: &mut [K]) -> io::Result<()> {
        workload::bytes::<A, _, _, _>(readers, sinks, &mut ())
    }
}

impl<A: Arity + 'static> Loop for ToEnd<A> {
    const ONE: bool = A::ONE;
    fn run<R: AppReader, K: Consume>(spec: &Spec, readers: Lanes<R>, _: &mut [u8], sinks: &mut [K]) -> io::Result<()> {
        workload::to_end::<A, _, _, _>(readers, spec.len, sinks, &mut ())
    }
}

impl<A: Arity + 'static> Loop for Lines<A> {
    const ONE: bool = A::ONE;
    fn run<R: AppReader, K: Consume>(_: &Spec, readers: Lanes<R>, _: &mut [u8], sinks: &mut [K]) -> io::Result<()> {
        workload::lines::<A, _, _, _>(readers, sinks, &mut ())
    }
}

impl<A: Arity + 'static> Loop for Frames<A> {
    const ONE: bool = A::ONE;
    fn run<R: AppReader, K: Consume>(spec: &Spec, readers: Lanes<R>, _: &mut [u8], sinks: &mut [K]) -> io::Result<()> {
        workload::frames::<A, _, _, _>(readers, spec.reuse, sinks, &mut ())
    }
}

impl<A: Arity + 'static> Loop for Scan<A> {
    const ONE: bool = A::ONE;
    fn run<R: AppReader, K: Consume>(_: &Spec, readers: Lanes<R>, app_buf: &mut [u8], sinks: &mut [K]) -> io::Result<()> {
        workload::scan::<A, _, _, _>(readers, app_buf, sinks, &mut ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::content;
    use crate::model::Id;

    /// The timed pass reads exactly what the counted pass reads: the same
    /// bytes reach the sink (the sum of every read's length and first byte).
    #[test]
    fn the_timed_pass_reads_what_the_counted_pass_reads() {
        use crate::engine::heap::Lanes;
        use crate::engine::readers::{drive_streams, ReaderConfig};
        use crate::engine::source::{Probe, Source};
        for kind in ReaderKind::all() {
            for workload in Workload::all() {
                for chunk in [ChunkModel::Uniform { min: 1, max: 40 }, ChunkModel::Fixed { size: 7 }, ChunkModel::File] {
                    // pend: the async readers meet Pendings in both passes.
                    let p = Params { len: 20_000, chunk, cap: 64, rs: 5, workload, streams: 2, nul: 15_000, pend: 30, ..Params::default() };
                    let data = content::generate(&p);
                    let mut timed = [CountSink::default(), CountSink::default()];
                    run(kind, &p, &data, &mut [0u8; 5], &mut timed).unwrap();
                    let probe = Probe::default();
                    let mut sources = Lanes::with_capacity(2);
                    for i in 0..2 {
                        let seed = stream_seed(p.seed, i);
                        sources.push(Source::new(&data, chunk, seed, &probe).with_pending(p.pend, seed));
                    }
                    let spec = Spec { workload, rs: 5, len: data.len(), reuse: false };
                    let mut counted = [CountSink::default(), CountSink::default()];
                    drive_streams(kind, sources, &probe, ReaderConfig::of(&p), &spec, &mut [0u8; 5], &mut counted).unwrap();
                    let sums = |s: &[CountSink]| s.iter().map(|c| c.0).collect::<Vec<_>>();
                    assert_eq!(sums(&timed), sums(&counted), "{} {} {chunk:?}", kind.id(), workload.id());
                }
            }
        }
    }

    /// Over a source living in time the timed pass replays the counted
    /// pass's read sizes: the same calls, the same pieces.
    #[test]
    fn the_timed_pass_replays_the_counted_reads_of_a_source_living_in_time() {
        use crate::engine::experiment::read_sizes;
        use crate::engine::heap::Lanes;
        use crate::engine::readers::{drive_streams, ReaderConfig};
        use crate::engine::source::{Probe, Source};
        use crate::engine::workload::Ticking;
        for kind in ReaderKind::all() {
            for workload in Workload::all() {
                let p = Params {
                    len: 30_000,
                    chunk: ChunkModel::Uniform { min: 1, max: 400 },
                    cap: 256,
                    rs: 5,
                    workload,
                    streams: 2,
                    nul: 25_000,
                    rate: 4 << 20,
                    work: 300,
                    ..Params::default()
                };
                let data = content::generate(&p);
                let plans = read_sizes(&p, kind, &data).unwrap();
                let mut timed = [CountSink::default(), CountSink::default()];
                run_replayed(kind, &p, &data, &plans, &mut [0u8; 5], &mut timed).unwrap();
                let probe = Probe::default();
                let mut sources = Lanes::with_capacity(2);
                for i in 0..2 {
                    sources.push(Source::of_stream(&data, &p, i, &probe));
                }
                let spec = Spec { workload, rs: 5, len: data.len(), reuse: false };
                let mut counted = [Ticking { inner: CountSink::default(), probe: &probe }, Ticking { inner: CountSink::default(), probe: &probe }];
                drive_streams(kind, sources, &probe, ReaderConfig::of(&p), &spec, &mut [0u8; 5], &mut counted).unwrap();
                assert!(probe.waiting().joined > 0 || kind == ReaderKind::Unbuffered, "{}: the reads are the arrival model's", kind.id());
                assert_eq!(timed.iter().map(|c| c.0).collect::<Vec<_>>(), counted.iter().map(|c| c.inner.0).collect::<Vec<_>>(), "{} {}", kind.id(), workload.id());
            }
        }
    }
}
