//! Real I/O: the link's readers and workload over real sources instead of
//! the simulated one, through the same [`readers::drive_streams`] (so every
//! reader is built by its own module, exactly as over the simulated source).
//!
//! A real source is wrapped in [`Counted`], which the reader wraps in turn:
//! every call the reader makes on the source passes through it and is
//! recorded in a [`Probe`] (calls, bytes, and where the bytes landed, as the
//! simulated source records them), and, in a counted pass, the size each
//! call returned. `read_to_end` and `read_to_string` are handed to the
//! source whole, so a `File` answers them with its own override, as in the
//! user's program; the wrapper sees one call, the kernel counts the
//! `read(2)` calls the override made ([`kernel`], natively). Nothing is
//! modelled: the counts are the calls the real source served.
//!
//! - [`native`] (not in wasm): `buflab real`'s kernel sources, a regular
//!   file, a pipe and a loopback TCP connection;
//! - [`calibrate`]: `sys` measured on any [`Store`], a file the calibration
//!   fills and reads back one real call per read (the browser's OPFS in the
//!   wasm glue; a regular file in the tests).

#[cfg(not(target_arch = "wasm32"))]
pub mod kernel;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;

use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::io::{self, Read};

use super::clock::{self, Clock, Sampling};
use super::heap::Lanes;
use super::readers::unbuffered::Unbuffered;
use super::readers::{self, Driven, ReaderConfig, Strategy};
use super::source::{Generic, ObservedRead, Probe, Source};
use super::timed::{self, Loop};
use super::workload::{self, digest_of, Consume, CountSink, DigestSink, Many, One, Spec, Ticking};
use crate::model::{
    Calibration, ChunkModel, ParamError, Params, ReadSizes, ReaderKind, SysSource, LIMITS, MIB,
};

/// A real source as the reader sees it: every call goes to `inner` and is
/// recorded in `probe` (and its size in `log`, when there is one).
#[derive(Debug)]
pub struct Counted<'p, S> {
    inner: S,
    probe: &'p Probe,
    log: Option<&'p SizeLog>,
    /// Address range `[lo, hi)` of the wrapping reader's own buffer; empty
    /// without one. Bytes written elsewhere went straight to the application.
    reader_buffer: (usize, usize),
}

impl<'p, S> Counted<'p, S> {
    pub fn new(inner: S, probe: &'p Probe, log: Option<&'p SizeLog>) -> Self {
        Counted { inner, probe, log, reader_buffer: (0, 0) }
    }
}

impl<S> Counted<'_, S> {
    /// One call that returned `n` bytes at `at`.
    fn note(&self, at: usize, n: usize) {
        let (lo, hi) = self.reader_buffer;
        self.probe.record(n, n > 0 && !(lo <= at && at < hi));
        if let (Some(log), true) = (self.log, n > 0) {
            log.0.borrow_mut().push(n as u64);
        }
    }
}

impl<S: ObservedRead> Read for Counted<'_, S> {
    // `read`, which std's provided `read_exact` and `read_buf` call, and the
    // two methods a source may override in a way that changes its calls: a
    // source that does ([`ObservedRead::own_read_to_end`], std's `File`) gets
    // them whole, seen as one call, so it makes the calls it makes in the
    // user's program; over any other, std's generic algorithm runs over this
    // `read`, as it would over the source's, and every call is seen.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.probe.read_begins();
        let result = self.inner.read(buf);
        self.note(buf.as_ptr() as usize, *result.as_ref().unwrap_or(&0));
        result
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        if !self.inner.own_read_to_end() {
            return Generic(self).read_to_end(buf);
        }
        self.probe.read_begins();
        let result = self.inner.read_to_end(buf);
        // Into the caller's Vec: never the reader's own buffer.
        self.note(0, *result.as_ref().unwrap_or(&0));
        result
    }

    fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
        if !self.inner.own_read_to_end() {
            return Generic(self).read_to_string(buf);
        }
        self.probe.read_begins();
        let result = self.inner.read_to_string(buf);
        self.note(0, *result.as_ref().unwrap_or(&0));
        result
    }
}

impl<S: ObservedRead> ObservedRead for Counted<'_, S> {
    fn own_read_to_end(&self) -> bool {
        self.inner.own_read_to_end()
    }

    fn set_reader_buffer(&mut self, start: *const u8, len: usize) {
        let lo = start as usize;
        self.reader_buffer = (lo, lo + len);
        self.inner.set_reader_buffer(start, len);
    }
}

/// The sizes of the calls that returned data, in call order (a counted pass
/// only: the timed passes keep no log).
#[derive(Debug, Default)]
pub struct SizeLog(RefCell<Vec<u64>>);

impl SizeLog {
    /// Min, median and max of the logged sizes (zeros when none were).
    pub fn sizes(&self) -> ReadSizes {
        let mut v = self.0.borrow().clone();
        if v.is_empty() {
            return ReadSizes::default();
        }
        v.sort_unstable();
        let n = v.len();
        let median = if n % 2 == 1 { v[n / 2] as f64 } else { (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0 };
        ReadSizes { min: v[0], median, max: v[n - 1] }
    }
}

/// One run of a reader over counted sources.
#[derive(Clone, Copy, Debug)]
pub struct Pass {
    pub driven: Driven,
    /// Calls the reader made on the sources as [`Counted`] saw them, summed
    /// over the streams (a `read_to_end` handed to a source is one).
    pub read_calls: u64,
}

/// Runs `params`' workload through a reader of `kind` over `sources` (one
/// per stream, each wrapped in [`Counted`], which records its calls in
/// `probe`); `log` gets each call's size. `app_buf` is the application's
/// read buffer (`params.rs` bytes, the caller's, so it is not part of the
/// run); `sinks[i]` receives stream `i`, whose sources all carry `len`
/// bytes. Sinks that tell a probe of each piece ([`Ticking`]) make the
/// application's work happen: a real run's probe spends it
/// ([`Probe::spend_work`]), a simulated source's clock charges it.
pub fn run_pass<S: ObservedRead, C: Consume>(
    params: &Params,
    kind: ReaderKind,
    sources: Lanes<S>,
    probe: &Probe,
    len: usize,
    log: Option<&SizeLog>,
    app_buf: &mut [u8],
    sinks: &mut [C],
) -> io::Result<Pass> {
    let reads_before = probe.source_reads();
    let counted = sources.map(|s| Counted::new(s, probe, log));
    let spec = Spec::of(params, len);
    let driven = readers::drive_streams(kind, counted, probe, ReaderConfig::of(params), &spec, app_buf, sinks)?;
    Ok(Pass { driven, read_calls: probe.source_reads() - reads_before })
}

/// [`run_pass`] as the user's program over real sources: the application
/// spends the link's `work` on every piece it receives, for real.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_real_pass<S: ObservedRead, C: Consume>(
    params: &Params,
    kind: ReaderKind,
    sources: Lanes<S>,
    len: usize,
    log: Option<&SizeLog>,
    app_buf: &mut [u8],
    sinks: &mut [C],
) -> io::Result<Pass> {
    let probe = Probe::default();
    probe.spend_work(params.work);
    let mut ticking: Vec<Ticking<'_, &mut C>> = sinks.iter_mut().map(|inner| Ticking { inner, probe: &probe }).collect();
    run_pass(params, kind, sources, &probe, len, log, app_buf, &mut ticking)
}

/// A real source in a timed pass: counts the calls and nothing else. `W`,
/// the workload's loop, tags it, so the reader built over it is a type no
/// other loop uses and its `read` has that loop as its one caller, as in the
/// user's program (see `engine::timed`).
pub struct Calls<'c, S, W> {
    inner: S,
    calls: &'c Cell<u64>,
    tag: PhantomData<W>,
}

impl<S: ObservedRead, W> Read for Calls<'_, S, W> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls.set(self.calls.get() + 1);
        self.inner.read(buf)
    }

    /// As [`Counted`] does it: handed over whole (one call) to a source
    /// with its own, else std's generic algorithm over this `read`.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        if !self.inner.own_read_to_end() {
            return Generic(self).read_to_end(buf);
        }
        self.calls.set(self.calls.get() + 1);
        self.inner.read_to_end(buf)
    }

    fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
        if !self.inner.own_read_to_end() {
            return Generic(self).read_to_string(buf);
        }
        self.calls.set(self.calls.get() + 1);
        self.inner.read_to_string(buf)
    }
}

impl<S: ObservedRead, W> ObservedRead for Calls<'_, S, W> {
    fn own_read_to_end(&self) -> bool {
        self.inner.own_read_to_end()
    }
}

/// A timed run of `params`' workload through a reader of `kind` over
/// `sources` (streams of `len` bytes): what the simulated timed pass runs
/// (the same loop types, one never-inlined function per reader and
/// workload, the loops tallying into `()`), over the real sources with one
/// counter per call. Returns the read calls.
pub fn timed_pass<S: ObservedRead>(
    params: &Params,
    kind: ReaderKind,
    sources: Lanes<S>,
    len: usize,
    app_buf: &mut [u8],
    sinks: &mut [CountSink],
) -> io::Result<u64> {
    struct Go<'a, S> {
        params: &'a Params,
        sources: Lanes<S>,
        len: usize,
        app_buf: &'a mut [u8],
        sinks: &'a mut [CountSink],
    }
    impl<S: ObservedRead> readers::Visit for Go<'_, S> {
        type Output = io::Result<u64>;
        fn visit<T: Strategy>(self) -> io::Result<u64> {
            let workload = self.params.workload;
            let one = self.sources.len() == 1;
            let tagged = Tagged::<T, S> { go: self, types: PhantomData };
            if one {
                timed::with_loop::<One, _>(workload, tagged)?
            } else {
                timed::with_loop::<Many, _>(workload, tagged)?
            }
        }
    }
    struct Tagged<'a, T, S> {
        go: Go<'a, S>,
        types: PhantomData<T>,
    }
    impl<T: Strategy, S: ObservedRead> timed::WithLoop for Tagged<'_, T, S> {
        type Output = io::Result<u64>;
        #[inline(never)]
        fn with<W: Loop>(self) -> io::Result<u64> {
            let Go { params, sources, len, app_buf, sinks } = self.go;
            let config = ReaderConfig::of(params);
            let shared = T::shared(config)?;
            let calls = Cell::new(0);
            let readers = sources.map(|inner| T::build(&shared, config, Calls::<S, W> { inner, calls: &calls, tag: PhantomData }));
            timed::run_loop::<W, _>(&Spec::of(params, len), readers, app_buf, sinks)?;
            Ok(calls.get())
        }
    }
    readers::visit(kind, Go { params, sources, len, app_buf, sinks })
}

/// The simulated source's side of a real run: `params`' reader `kind` over
/// the in-memory streams cut by `chunk`, with each call's size logged (as
/// [`Counted`] sees the calls). Also returns the source reads the simulated
/// sources served, which a `read_to_end` handed to them may make several of.
pub fn model_pass(params: &Params, kind: ReaderKind, data: &[u8], chunk: ChunkModel) -> io::Result<(Pass, ReadSizes, u64)> {
    let model = Params { chunk, ..params.clone() };
    // The simulated sources' own probe: their counts and the reader's clock
    // (the sinks tell it of each piece). The wrappers count into another.
    let probe = Probe::default();
    let streams = params.streams as usize;
    let mut sources = Lanes::with_capacity(streams);
    for i in 0..streams {
        sources.push(Source::of_stream(data, &model, i, &probe));
    }
    let log = SizeLog::default();
    let mut sinks: Vec<Ticking<'_, CountSink>> = (0..streams).map(|_| Ticking { inner: CountSink::default(), probe: &probe }).collect();
    let mut app_buf = vec![0u8; params.rs as usize];
    let wrapper = Probe::default();
    let pass = run_pass(&model, kind, sources, &wrapper, data.len(), Some(&log), &mut app_buf, &mut sinks)?;
    Ok((pass, log.sizes(), probe.source_reads()))
}

// ---------------------------------------------------------------------------
// Calibration

/// A file the calibration fills and reads back: each `read` of its readers
/// is one real call into a file system (`FileSystemSyncAccessHandle.read` in
/// the browser, `read(2)` on a regular file natively).
pub trait Store {
    type Reader<'a>: ObservedRead
    where
        Self: 'a;
    /// Replaces the file's contents with `bytes`.
    fn store(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// A reader from the file's first byte.
    fn open(&self) -> io::Result<Self::Reader<'_>>;
}

/// Read calls of the first pass, which sizes the samples (and warms up).
pub const PROBE_CALLS: u64 = 32;
/// Timed samples; each reads the whole file.
pub const CALIBRATION_SAMPLES: usize = 5;
/// How long one sample should take: the probe, one untimed check and five
/// samples stay near 400 ms (a fresh worker's start comes on top).
pub const SAMPLE_TARGET_NS: f64 = 60e6;
/// Most read calls in one sample, so a calibration makes a few thousand
/// calls at most however fast the calls are.
pub const MAX_SAMPLE_CALLS: u64 = 1000;
/// Most bytes of the stream the calibration's file holds.
pub const MAX_FILE_BYTES: usize = 4 * MIB as usize;

/// Measures `sys` on `store`: the link's stream (its first bytes) is written
/// to the file, then read back with unbuffered reads of the link's read size
/// (`fixed` workload), one real call per read, the final one that returns 0
/// included. Time per call, less the same read's time over the in-memory
/// source, is the `sys` the model needs. The work is bounded: a probe of
/// [`PROBE_CALLS`] calls sizes the samples to [`SAMPLE_TARGET_NS`] each, at
/// most [`MAX_SAMPLE_CALLS`] calls.
pub fn calibrate<F: Store>(params: &Params, clock: &dyn Clock, store: &mut F, source: SysSource) -> Result<Calibration, ParamError> {
    params.check()?;
    let failed = |what: &str, e: io::Error| ParamError { key: "calibrate", message: format!("{what}: {e}") };
    let rs = params.rs as usize;
    let config = ReaderConfig::of(params);
    let most = (params.len as usize).min(MAX_FILE_BYTES);
    let data = super::content::generate(&Params { len: most as u64, ..params.clone() });
    let resolution_ns = clock::resolution_ns(clock);

    // One read-back of the whole file: the unbuffered reader (built by its
    // strategy, as everywhere) in the `fixed` loop, one real call per read.
    // Only this reader and loop are instantiated over the store's reader,
    // which keeps the page's wasm small. Its time and read calls.
    let mut app_buf = vec![0u8; rs];
    let mut pass = |store: &F, sink: &mut dyn FnMut(&[u8])| -> io::Result<(f64, u64)> {
        let probe = Probe::default();
        let mut readers = Lanes::with_capacity(1);
        readers.push(Unbuffered::build(&(), config, Counted::new(store.open()?, &probe, None)));
        let mut sinks = [Forward(sink)];
        let start = clock.now_ns();
        workload::fixed::<One, _, _, _>(readers, &mut app_buf, &mut sinks, &mut ())?;
        Ok(((clock.now_ns() - start).max(0.0), probe.source_reads()))
    };

    let probe_len = data.len().min((PROBE_CALLS as usize - 1) * rs);
    store.store(&data[..probe_len]).map_err(|e| failed("writing the file", e))?;
    let (probe_ns, probe_calls) = pass(store, &mut |_| ()).map_err(|e| failed("reading the file", e))?;
    let per_call = probe_ns / probe_calls.max(1) as f64;
    let calls = if per_call > 0.0 { (SAMPLE_TARGET_NS / per_call) as u64 } else { MAX_SAMPLE_CALLS };
    let calls = calls.clamp(2, MAX_SAMPLE_CALLS);
    let file_len = data.len().min((calls as usize - 1) * rs);
    let file = &data[..file_len];
    store.store(file).map_err(|e| failed("writing the file", e))?;

    // Untimed: the bytes read back are the stream's.
    let mut check = DigestSink::default();
    pass(store, &mut |b| check.take(b)).map_err(|e| failed("reading the file", e))?;
    let bytes_ok = check.hex() == digest_of(file);

    let mut per_call = Vec::with_capacity(CALIBRATION_SAMPLES);
    let (mut total_calls, mut batch) = (0, 0);
    let mut count = CountSink::default();
    for _ in 0..CALIBRATION_SAMPLES {
        let (ns, n) = pass(store, &mut |b| count.take(b)).map_err(|e| failed("reading the file", e))?;
        per_call.push(ns / n.max(1) as f64);
        total_calls += n;
        batch = n;
    }
    std::hint::black_box(count.0);
    let ns_per_call = clock::stats(&mut per_call, batch);

    // The same reads over the in-memory source: the part the model already
    // measures as CPU time.
    let mut app_buf = vec![0u8; rs];
    let mut sink = CountSink::default();
    let mut memory_calls = 0;
    let memory = clock::sample(clock, resolution_ns, Sampling::QUICK, || {
        let probe = Probe::default();
        let mut readers = Lanes::with_capacity(1);
        readers.push(Unbuffered::build(&(), config, Source::new(file, ChunkModel::File, 0, &probe)));
        let _ = workload::fixed::<One, _, _, _>(readers, &mut app_buf, std::slice::from_mut(&mut sink), &mut ());
        memory_calls = probe.source_reads();
    });
    std::hint::black_box(sink.0);
    let in_memory_ns = memory.median / memory_calls.max(1) as f64;

    let sys = (ns_per_call.median - in_memory_ns).round().max(0.0) as u64;
    Ok(Calibration {
        source,
        read_size: rs as u64,
        file_bytes: file_len as u64,
        calls: total_calls,
        ns_per_call,
        in_memory_ns,
        sys: LIMITS.sys.clamp(sys),
        bytes_ok,
        timer: clock::timer(clock, resolution_ns),
    })
}

/// A sink that hands every piece to a closure.
struct Forward<'f>(&'f mut dyn FnMut(&[u8]));

impl Consume for Forward<'_> {
    fn take(&mut self, bytes: &[u8]) {
        (self.0)(bytes)
    }
}
