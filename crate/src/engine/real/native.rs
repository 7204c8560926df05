//! `buflab real`: the link's readers and workload over real kernel sources.
//!
//! - **file**: the stream in a temporary regular file, opened afresh for
//!   every run. The file was just written, so the page cache holds it: this
//!   measures `read(2)` served from memory, not a disk.
//! - **pipe**: `std::io::pipe`; a writer thread writes the stream in pieces
//!   whose sizes follow the link's chunk model and seed.
//! - **tcp**: a loopback connection (the BufRead article's setting); a
//!   server thread writes pieces that follow the chunk model, with Nagle's
//!   algorithm off so each piece is sent as it is written.
//!
//! The kernel decides how a pipe or a socket joins the pieces it is given,
//! so what one read call gets is observed, never assumed. A writer starts
//! writing when its run's clock has started, so a run's time covers the
//! whole transfer; making the source (a file opened, a pipe, a connection,
//! the writer thread) is not in it.
//!
//! A counted pass (the source wrapped in `Counted`: calls, each call's size,
//! the digest) comes first; then the timed passes run what the simulated
//! timed pass runs, the loops tallying into `()`, over a wrapper that only
//! counts calls (`timed_pass`). Both hand `read_to_end` and `read_to_string`
//! to the source whole, so `File`'s overrides run. The read calls reported
//! are the kernel's count for the reading thread ([`kernel`]: `syscr`, which
//! counts `read(2)` on a file or a pipe but not `recv(2)`, std's read on a
//! socket); where the kernel gives none (a socket, or not Linux) they are the
//! wrapper's, which is exact for a source that overrides nothing that
//! changes its calls, as `TcpStream` does not.
//!
//! Each real run is set beside the simulated run of the same reader over the
//! chunk model the source follows ([`RealSource::model`]): its read calls,
//! its CPU time, its total with modelled I/O, and the `sys` that would make
//! the model's total equal the real time.

use std::fs::{self, File};
use std::io::{self, ErrorKind, PipeReader, Write};
use std::net::{TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

use super::kernel::{self, Delta};
use super::{model_pass, run_real_pass, timed_pass, Pass, SizeLog, Store};
use crate::engine::content;
use crate::engine::experiment;
use crate::engine::clock::{self, Clock, Sampling};
use crate::engine::heap::Lanes;
use crate::engine::source::{stream_seed, Chunker, Limit, ObservedRead};
use crate::engine::workload::{combined_digest, Consume, CountSink, DigestSink};
use crate::model::{
    key, CalibratedFrom, CallCounter, ChunkModel, CostFit, FitPoint, Id, Lab, ModelSide, ParamError, Params, ReaderKind,
    RealReport, RealRun, RealSource, Report, LIMITS, MAX_REAL_STREAMS,
};

/// std's `File` overrides `read_to_end` and `read_to_string` (its size
/// first, then one read of what is left); pipes and sockets do not.
impl ObservedRead for File {
    fn own_read_to_end(&self) -> bool {
        true
    }
}
impl ObservedRead for PipeReader {}
impl ObservedRead for TcpStream {}

/// How hard to time a real run: the counted pass before the samples warms
/// up; then 5 to 7 samples, stopping after 1.5 s once 5 are in (a run of the
/// default link's unbuffered reader over TCP makes a million calls).
pub const REAL_SAMPLING: Sampling = Sampling { warmup_ns: 0.0, samples: 7, budget_ns: 1.5e9, min_samples: 5, ..Sampling::FULL };

/// The source kinds, in the order reports list them.
pub const SOURCES: [RealSource; 3] = [RealSource::File, RealSource::Pipe, RealSource::Tcp];

/// Runs every reader of `params` over every real source kind, beside the
/// simulated runs. `sampling` times the simulated runs; `real` the real ones
/// ([`REAL_SAMPLING`], or [`Sampling::QUICK`] for one sample). The report's
/// `link` is left empty (the façade fills it in).
pub fn run(params: &Params, clock: &dyn Clock, sampling: Sampling, real: Sampling) -> Result<RealReport, ParamError> {
    run_over(params, clock, sampling, real, &SOURCES, &SOURCES)
}

/// [`run`] over the source kinds `sources` only, with the cost fitted over
/// `fitted` (the link's own kind among them, or none): what a test needs
/// of `buflab real` and no more. The report's `calibrated_*` are 0 without a fit.
pub fn run_over(
    params: &Params,
    clock: &dyn Clock,
    sampling: Sampling,
    real: Sampling,
    sources: &[RealSource],
    fitted: &[RealSource],
) -> Result<RealReport, ParamError> {
    params.check()?;
    if params.lab != Lab::Read {
        return Err(ParamError { key: key::LAB, message: "real I/O runs the read lab's readers; this link is the write lab".into() });
    }
    if params.streams > MAX_REAL_STREAMS {
        return Err(ParamError {
            key: key::STREAMS,
            message: format!(
                "real I/O reads at most {MAX_REAL_STREAMS} streams at once (a writer thread each), not {}",
                params.streams
            ),
        });
    }
    let data: Arc<[u8]> = content::generate(params).into();
    let simulated = experiment::run(params, clock, sampling)?;
    // A regular file answers every request in full: its runs are set beside
    // `chunk=file`'s, measured here unless that is the link's own model.
    let file_model = Params { chunk: ChunkModel::File, ..params.clone() };
    let with_file = sources.contains(&RealSource::File) && params.chunk != ChunkModel::File;
    let simulated_file = if with_file { Some(experiment::run(&file_model, clock, sampling)?) } else { None };

    let failed = |source: RealSource, kind: ReaderKind, e: io::Error| ParamError {
        key: "run",
        message: format!("{} over a real {}: {e}", kind.id(), source.id()),
    };
    let file = TempFile::new(&data).map_err(|e| ParamError { key: "run", message: format!("temporary file: {e}") })?;
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| ParamError { key: "run", message: format!("loopback: {e}") })?;
    let mut rows = Vec::new();
    for &source in sources {
        let model_report = match (source, &simulated_file) {
            (RealSource::File, Some(r)) => r,
            _ => &simulated,
        };
        for &kind in &params.readers {
            let measured = match source {
                RealSource::File => {
                    measure_source(params, source, kind, data.len(), clock, real, || file.open_streams(params.streams))
                }
                RealSource::Pipe => measure_source(params, source, kind, data.len(), clock, real, || open_pipes(params, &data)),
                RealSource::Tcp => {
                    measure_source(params, source, kind, data.len(), clock, real, || open_tcp(params, &data, &listener))
                }
            }
            .map_err(|e| failed(source, kind, e))?;
            let model = model_side(params, kind, &data, source.model(params.chunk), model_report).map_err(|e| failed(source, kind, e))?;
            rows.push(measured.row(source, kind, model));
        }
    }

    let own = RealSource::of_chunk(params.chunk);
    let mut fits = Vec::with_capacity(fitted.len());
    for &source in fitted {
        let fit = fit_costs(source, clock, &listener)
            .map_err(|e| ParamError { key: "run", message: format!("fitting the cost per call over a real {}: {e}", source.id()) })?;
        fits.push(fit);
    }
    let fit = fits.iter().find(|f| f.source == own);
    let whole = |v: Option<f64>| v.map_or(0, |v| v.round().max(0.0) as u64);
    Ok(RealReport {
        calibrated_sys: LIMITS.sys.clamp(whole(fit.map(|f| f.sys_ns))),
        calibrated_sys_kib: LIMITS.sys_kib.clamp(whole(fit.map(|f| f.ns_per_kib))),
        calibrated_from: CalibratedFrom { source: own, reader: ReaderKind::Unbuffered },
        fits,
        real: rows,
        simulated,
        link: String::new(),
        alloc_calls_unavailable: None,
    })
}

// ---------------------------------------------------------------------------
// The cost per call and per byte

/// Read sizes of the cost fit: 1 byte to 64 KiB, each 16 times the last.
pub const FIT_SIZES: [usize; 5] = [1, 16, 256, 4096, 65536];
/// Calls one size makes per round, at most.
const FIT_CALLS: usize = 4096;
/// Rounds per size after a warm-up; the fastest round's time per call is the point.
pub const FIT_ROUNDS: usize = 7;

/// Bytes `source` holds for a reader that has not read yet: a regular
/// file all of them, a pipe grown to 1 MiB (Linux's `pipe-max-size` for
/// everyone), a loopback socket 64 KiB (what its buffers take in before
/// the reader reads, with room to spare).
fn fit_room(source: RealSource) -> usize {
    match source {
        RealSource::File => 4 << 20,
        RealSource::Pipe => 1 << 20,
        RealSource::Tcp => 64 << 10,
    }
}

/// Fits `sys` and the cost per KiB to real reads over `source`: for each of
/// [`FIT_SIZES`], unbuffered `read` calls of that size on a fresh source
/// whose bytes are all there before the first call (a regular file in the
/// page cache; a pipe or a loopback socket its writer filled first), timed
/// as a whole, the sizes in turn, [`FIT_ROUNDS`] rounds after one to warm
/// up; a size's point is its fastest round's time per call, less the same
/// calls' copy from memory, which the model's CPU time already holds. The line through the points, weighted by 1 ÷ time²,
/// is [`CostFit::line`]. What a read that waits for its writer costs on top
/// (a wake-up) is not in it.
pub fn fit_costs(source: RealSource, clock: &dyn Clock, listener: &TcpListener) -> io::Result<CostFit> {
    use std::io::Read;
    let room = fit_room(source);
    let data: Arc<[u8]> = (0..room).map(|i| i as u8).collect::<Vec<u8>>().into();
    let file = TempFile::new(&data)?;
    let mut buf = vec![0u8; *FIT_SIZES.last().expect("sizes")];
    let calls_of = |n: usize| (room / n).clamp(1, FIT_CALLS);
    // Per size: time per call and bytes per call of each round. The sizes
    // take turns within a round, so a busy spell of the machine falls on all
    // of them; round 0 warms up and is dropped.
    let mut rounds: Vec<Vec<(f64, f64)>> = vec![Vec::with_capacity(FIT_ROUNDS); FIT_SIZES.len()];
    for round in 0..=FIT_ROUNDS {
        for (i, &n) in FIT_SIZES.iter().enumerate() {
            let calls = calls_of(n);
            let need = calls * n;
            let mut reader: Box<dyn Read> = match source {
                RealSource::File => Box::new(File::open(&file.path)?),
                RealSource::Pipe => {
                    let (r, mut w) = io::pipe()?;
                    grow_pipe(&w, need);
                    w.write_all(&data[..need])?;
                    Box::new(r)
                }
                RealSource::Tcp => {
                    let client = TcpStream::connect(listener.local_addr()?)?;
                    let (server, _) = listener.accept()?;
                    server.set_nodelay(true)?;
                    flat_out(server, Arc::clone(&data), need)
                        .join()
                        .unwrap_or_else(|_| Err(io::Error::other("the writer panicked")))?;
                    Box::new(client)
                }
            };
            let (mut made, mut got) = (0usize, 0usize);
            let start = clock.now_ns();
            while made < calls {
                let k = reader.read(&mut buf[..n])?;
                made += 1;
                got += k;
                if k == 0 {
                    break;
                }
            }
            let ns = (clock.now_ns() - start).max(0.0);
            if round > 0 {
                rounds[i].push((ns / made.max(1) as f64, got as f64 / made.max(1) as f64));
            }
        }
    }
    let mut points = Vec::with_capacity(FIT_SIZES.len());
    for (i, &n) in FIT_SIZES.iter().enumerate() {
        // The least disturbed round: on a busy machine a round's time is the
        // call's and whatever else ran meanwhile, never less than the call's.
        let &(ns, bytes) = rounds[i].iter().min_by(|a, b| a.0.total_cmp(&b.0)).expect("rounds");
        points.push((n, bytes, (ns - in_memory_ns(&data, n, calls_of(n), clock)).max(1.0)));
    }
    let xy: Vec<(f64, f64)> = points.iter().map(|&(_, x, y)| (x, y)).collect();
    let (sys_ns, ns_per_kib, residual) = CostFit::line(&xy).unwrap_or((0.0, 0.0, f64::NAN));
    Ok(CostFit {
        source,
        points: points
            .into_iter()
            .map(|(asked, x, y)| FitPoint { asked: asked as u64, bytes_per_call: x, ns_per_call: y, fitted_ns: sys_ns + x * ns_per_kib / 1024.0 })
            .collect(),
        sys_ns,
        ns_per_kib,
        residual,
    })
}

/// Grows the pipe of `w` to hold `bytes` (Linux: `F_SETPIPE_SZ`, up to
/// `pipe-max-size`); elsewhere nothing happens.
fn grow_pipe(w: &io::PipeWriter, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: F_SETPIPE_SZ takes an int and changes only this pipe's capacity.
        unsafe {
            libc::fcntl(w.as_raw_fd(), libc::F_SETPIPE_SZ, bytes.max(64 << 10) as libc::c_int);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (w, bytes);
}

/// A writer thread that writes `data[..need]` to `out` in 64 KiB pieces as
/// fast as the kernel takes them, then closes it.
fn flat_out(mut out: impl Write + Send + 'static, data: Arc<[u8]>, need: usize) -> JoinHandle<io::Result<()>> {
    thread::spawn(move || {
        for piece in data[..need].chunks(64 << 10) {
            match out.write_all(piece) {
                Ok(()) => {}
                // The reader had what it needed and closed its end.
                Err(e) if matches!(e.kind(), ErrorKind::BrokenPipe | ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted) => {
                    return Ok(())
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    })
}

/// Time per call of `calls` reads of `n` bytes out of memory (`&[u8]`'s
/// `read`: the copy), the fastest of five rounds.
fn in_memory_ns(data: &[u8], n: usize, calls: usize, clock: &dyn Clock) -> f64 {
    use std::io::Read;
    let mut buf = vec![0u8; n];
    let rounds: Vec<f64> = (0..5)
        .map(|_| {
            let mut from = &data[..];
            let start = clock.now_ns();
            for _ in 0..calls {
                if std::hint::black_box(&mut from).read(&mut buf).unwrap_or(0) == 0 {
                    from = &data[..];
                }
            }
            std::hint::black_box(&buf);
            (clock.now_ns() - start).max(0.0) / calls as f64
        })
        .collect();
    rounds.into_iter().fold(f64::INFINITY, f64::min)
}

/// What one reader did over one real source kind.
struct Measured {
    pass: Pass,
    /// The kernel's count over the counted pass (`None`: unavailable).
    kernel: Option<Delta>,
    sizes: crate::model::ReadSizes,
    digest: String,
    wall: crate::model::Stats,
    ns_per_read: f64,
    writer_late: Option<crate::model::Lateness>,
}

impl Measured {
    /// The read calls reported: the kernel's, else the wrapper's.
    fn read_calls(&self) -> (u64, CallCounter) {
        match self.kernel {
            Some(d) => (d.read_calls, CallCounter::Kernel),
            None => (self.pass.read_calls, CallCounter::Wrapper),
        }
    }

    fn row(self, source: RealSource, reader: ReaderKind, model: ModelSide) -> RealRun {
        let median = self.wall.median;
        let (read_calls, counted_by) = self.read_calls();
        RealRun {
            source,
            reader,
            read_calls,
            counted_by,
            kernel_read_calls: self.kernel.map(|d| d.read_calls),
            wrapper_calls: self.pass.read_calls,
            minor_faults: self.kernel.map(|d| d.minor_faults),
            alloc_calls: None,
            bytes: self.pass.driven.app.bytes,
            bytes_per_read: self.sizes,
            wall_ns: self.wall,
            ns_per_read: self.ns_per_read,
            digest: self.digest,
            writer_late_ns: self.writer_late,
            ratio: median / model.total_ns,
            sys_ns: (median - model.cpu_ns) / read_calls.max(1) as f64,
            model,
        }
    }
}

/// The simulated side of a real run: counts and sizes from a counted pass
/// over the in-memory source cut by `chunk`, times from `report` (the
/// simulated run with that chunk model).
fn model_side(params: &Params, kind: ReaderKind, data: &[u8], chunk: ChunkModel, report: &Report) -> io::Result<ModelSide> {
    let (_, sizes, source_reads) = model_pass(params, kind, data, chunk)?;
    let run = report.runs.iter().find(|r| r.reader == kind).expect("the simulated report runs every reader of the link");
    debug_assert_eq!(source_reads, run.source_reads, "a counted pass makes the simulated run's source reads");
    Ok(ModelSide {
        chunk,
        read_calls: source_reads,
        bytes_per_read: sizes,
        cpu_ns: run.cpu_ns.median,
        total_ns: run.cpu_ns.median + run.modelled_io_ns,
    })
}

/// Runs reader `kind` over the sources `open` makes (streams of `len`
/// bytes): once counted (digest, each call's size, the kernel's counts when
/// `kernel_counts`), then timed (each sample's calls from the kernel too,
/// read outside the timed span).
fn measure_source<S: ObservedRead>(
    params: &Params,
    source: RealSource,
    kind: ReaderKind,
    len: usize,
    clock: &dyn Clock,
    how: Sampling,
    mut open: impl FnMut() -> io::Result<(Lanes<S>, Feed)>,
) -> io::Result<Measured> {
    // `syscr` counts `read(2)`-family calls; std reads a socket with `recv(2)`.
    let kernel_counts = source != RealSource::Tcp;
    let streams = params.streams as usize;
    let mut app_buf = vec![0u8; params.rs as usize];

    let (sources, feed) = open()?;
    let log = SizeLog::default();
    let mut kept: Vec<Kept> = (0..streams).map(|_| Kept::room_for(len)).collect();
    feed.start();
    let label = alloc_label(source, kind);
    let raised = paced(params) && Pace::raise_priority();
    let started = clock.now_ns();
    let (pass, counts) = kernel::count(|| {
        kernel::marked(&label, || run_real_pass(params, kind, sources, len, Some(&log), &mut app_buf, &mut kept))
    });
    let counted_ns = (clock.now_ns() - started).max(0.0);
    if raised {
        Pace::usual_priority();
    }
    let late = feed.finish()?;
    let pass = pass?;
    let kernel = counts.filter(|_| kernel_counts);
    let digest = combined_digest(&kept.iter().map(Kept::digest).collect::<Vec<_>>());
    drop(kept);
    if paced(params) {
        // Its time is the writer's pace and the application's work, not the
        // program's cost: the counted pass's wall time is all there is to say.
        let wall = clock::stats(&mut vec![counted_ns], 1);
        let ns_per_read = counted_ns / kernel.map_or(pass.read_calls, |d| d.read_calls).max(1) as f64;
        let writer_late = lateness(late);
        return Ok(Measured { pass, kernel, sizes: log.sizes(), digest, wall, ns_per_read, writer_late });
    }

    let mut sinks: Vec<CountSink> = (0..streams).map(|_| CountSink::default()).collect();
    let mut calls = Vec::new();
    let mut failure = None;
    let times = clock::time_each(
        clock,
        how,
        || (open(), kernel::now()),
        |(opened, before)| {
            let (sources, feed) = opened?;
            feed.start();
            let pass = timed_pass(params, kind, sources, len, &mut app_buf, &mut sinks);
            Ok((pass, feed, before))
        },
        |out: io::Result<(io::Result<u64>, Feed, Option<kernel::Reading>)>, _| {
            let after = kernel::now();
            let done = out.and_then(|(pass, feed, before)| {
                feed.finish()?;
                let wrapper = pass?;
                Ok(match (kernel_counts, before, after) {
                    (true, Some(b), Some(a)) => kernel::between(b, a).read_calls,
                    _ => wrapper,
                })
            });
            match done {
                Ok(n) => calls.push(n),
                Err(e) => failure = Some(e),
            }
        },
    );
    if let Some(e) = failure {
        return Err(e);
    }
    std::hint::black_box(sinks.iter().map(|s| s.0).sum::<u64>());
    let mut per_read: Vec<f64> = times.iter().zip(&calls).map(|(t, &n)| t / n.max(1) as f64).collect();
    let ns_per_read = clock::stats(&mut per_read, 1).median;
    let wall = clock::stats(&mut times.clone(), 1);
    Ok(Measured { pass, kernel, sizes: log.sizes(), digest, wall, ns_per_read, writer_late: lateness(late) })
}

/// How late a paced writer wrote its pieces: median, 90th percentile and
/// most, in ns; `None` without a pace.
fn lateness(mut late: Vec<u64>) -> Option<crate::model::Lateness> {
    if late.is_empty() {
        return None;
    }
    late.sort_unstable();
    let at = |q: f64| late[((late.len() - 1) as f64 * q).round() as usize];
    Some(crate::model::Lateness { median_ns: at(0.5), p90_ns: at(0.9), max_ns: at(1.0), pieces: late.len() as u64 })
}

/// The real counted pass's sink: keeps what the application received, in
/// memory taken and touched before the run, and hashes it afterwards. The
/// reader of a paced run must keep the pace of the program it stands for;
/// hashing as it goes (a test build's unoptimized hash costs microseconds
/// per piece) would slow it down. The digest is the same, cut or whole.
struct Kept(Vec<u8>);

impl Kept {
    fn room_for(len: usize) -> Kept {
        let mut bytes = Vec::with_capacity(len);
        // Touched now: the run's page faults are the reader's alone.
        bytes.resize(len, 1);
        bytes.clear();
        Kept(bytes)
    }

    fn digest(&self) -> u64 {
        let mut d = DigestSink::default();
        d.take(&self.0);
        d.value()
    }
}

impl Consume for Kept {
    fn take(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

/// A real run whose time is set by the writer's pace or the application's
/// work (link keys `rate`, `work`): it runs once, counted, and is not timed.
pub fn paced(params: &Params) -> bool {
    params.lives_in_time() || params.work > 0
}

/// The label of a real run's counted pass in a trace of its allocator
/// calls ([`kernel::marked`]): `real/SOURCE/READER`.
pub fn alloc_label(source: RealSource, kind: ReaderKind) -> String {
    format!("real/{}/{}", source.id(), kind.id())
}

// ---------------------------------------------------------------------------
// Sources

/// The writer threads that feed one run's pipes or sockets: each waits for
/// `start`, so the writing happens inside the run's time.
#[derive(Default)]
struct Feed {
    go: Vec<Sender<()>>,
    writers: Vec<JoinHandle<io::Result<Vec<u64>>>>,
}

impl Feed {
    fn start(&self) {
        for go in &self.go {
            // A writer that is already gone reports why in `finish`.
            let _ = go.send(());
        }
    }

    /// Waits for every writer; the first one's error, if any, else how
    /// late each paced writer wrote its pieces (ns, every piece of every
    /// stream; empty without a pace).
    fn finish(self) -> io::Result<Vec<u64>> {
        drop(self.go);
        let mut first = Ok(Vec::new());
        for w in self.writers {
            let result = w.join().unwrap_or_else(|_| Err(io::Error::other("a writer thread panicked")));
            match (&mut first, result) {
                (Ok(all), Ok(late)) => all.extend(late),
                (Ok(_), Err(e)) => first = Err(e),
                (Err(_), _) => {}
            }
        }
        first
    }

    /// A writer thread for stream `index`: after `start`, it writes `data`
    /// to `out` in pieces cut by the link's chunk model and the stream's
    /// seed, then closes `out` (the reader's end of stream). With a `rate`
    /// it is paced as the model's pieces arrive ([`Pace`]); without, it
    /// writes as fast as the kernel takes the pieces.
    fn spawn(&mut self, params: &Params, index: usize, data: &Arc<[u8]>, out: impl Write + AsRawFd + Send + 'static) {
        let (go, wait) = channel();
        let chunker = Chunker::new(params.chunk, stream_seed(params.seed, index));
        let data = Arc::clone(data);
        let pace = (params.rate > 0).then_some(Pace { rate: params.rate });
        self.go.push(go);
        self.writers.push(thread::spawn(move || write_pieces(out, &data, chunker, pace, wait)));
    }
}

/// A paced writer: piece `i` is written when the model says it has arrived,
/// `(bytes through piece i) ÷ rate` after the run began, the piece's end
/// time at the link's rate. The writer sleeps until then. A writer that is
/// late (woken late by a busy machine, or blocked on a full pipe) catches
/// up at [`Pace::CATCH_UP`] times the rate, never closer than that fraction
/// of a piece's time after the piece before, rather than in one burst that
/// a reader would find joined where the model's punctual writer delivers
/// pieces one by one; over a run it keeps the rate. A writer that is behind
/// because a write found no room (the kernel's buffer was full: its end is
/// non-blocking, so the kernel says so) writes what is due at once, as the
/// model's writer refills the buffer.
/// The thread asks the kernel for timers without slack (50 µs by default)
/// and for a higher priority where permitted, so a sleep ends when it is
/// due; how late it woke is reported ([`RealRun::writer_late_ns`]).
#[derive(Clone, Copy, Debug)]
struct Pace {
    rate: u64,
}

impl Pace {
    /// When the piece ending at byte `end` is due, from the run's start.
    fn due(&self, end: usize) -> std::time::Duration {
        std::time::Duration::from_nanos((end as u128 * 1_000_000_000).div_ceil(u128::from(self.rate)) as u64)
    }

    /// This thread's timers without slack (Linux; elsewhere nothing happens).
    fn sharpen_timers() {
        #[cfg(target_os = "linux")]
        // SAFETY: PR_SET_TIMERSLACK takes one integer argument and changes
        // nothing but the calling thread's timer slack.
        unsafe {
            libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0 as libc::c_ulong, 0 as libc::c_ulong, 0 as libc::c_ulong);
        }
    }

    /// Asks the kernel to run the calling thread before ordinary work
    /// (nice −10, where permitted: root or `CAP_SYS_NICE`), so a busy machine
    /// delays a paced writer or reader less. `false` where it may not (the
    /// run goes on at the usual priority).
    fn raise_priority() -> bool {
        #[cfg(target_os = "linux")]
        // SAFETY: setpriority with `who` 0 changes only the calling thread's nice value (Linux).
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, -10) == 0
        }
        #[cfg(not(target_os = "linux"))]
        false
    }

    /// The calling thread back at the usual priority (nice 0).
    fn usual_priority() {
        #[cfg(target_os = "linux")]
        // SAFETY: as in `raise_priority`.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, 0);
        }
    }

    /// How many times the rate a late writer catches up at.
    const CATCH_UP: u32 = 4;



    /// The shortest spacing worth a sleep when catching up: below it a
    /// sleep costs more than it spaces (a wake-up takes tens of µs on a
    /// busy machine), so a late writer writes at once.
    const SPACING: std::time::Duration = std::time::Duration::from_micros(20);
}

/// Writes `data` in pieces, paced or flat out; returns how late the
/// writer woke from each of its sleeps, in ns (empty without a pace).
fn write_pieces(mut out: impl Write + AsRawFd, data: &[u8], mut chunker: Chunker, pace: Option<Pace>, go: Receiver<()>) -> io::Result<Vec<u64>> {
    if pace.is_some() {
        Pace::sharpen_timers();
        let _ = Pace::raise_priority();
        set_nonblocking(&out)?;
    }
    let mut late = Vec::new();
    if go.recv().is_err() {
        return Ok(late); // the run never started
    }
    let start = std::time::Instant::now();
    let mut at = 0;
    let mut last = std::time::Duration::ZERO;
    // The last write waited for room: the writer is behind because the
    // kernel's buffer was full, and refills it at once, as the model's does.
    let mut refilling = false;
    while at < data.len() {
        let n = chunker.next_limit().max(1).min(data.len() - at);
        if let Some(pace) = pace {
            let due = pace.due(at + n);
            let spacing = (due - pace.due(at)) / Pace::CATCH_UP;
            let now = start.elapsed();
            let until = if due > now {
                refilling = false;
                due
            } else if !refilling && spacing >= Pace::SPACING {
                last + spacing
            } else {
                now
            };
            if until > now {
                thread::sleep(until - now);
                late.push(start.elapsed().saturating_sub(until).as_nanos() as u64);
            }
            last = start.elapsed();
        }
        let written = match pace {
            Some(_) => write_waiting(&mut out, &data[at..at + n]).map(|waited| refilling |= waited),
            None => out.write_all(&data[at..at + n]),
        };
        match written {
            Ok(()) => at += n,
            // The reader stopped early (the `scan` workload, `exact`) and
            // closed its end: nothing left to deliver.
            Err(e) if matches!(e.kind(), ErrorKind::BrokenPipe | ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted) => {
                return Ok(late)
            }
            Err(e) => return Err(e),
        }
    }
    Ok(late)
}

/// The paced writer's end in non-blocking mode, so a write that finds no
/// room says so ([`write_waiting`]).
fn set_nonblocking(out: &impl AsRawFd) -> io::Result<()> {
    // SAFETY: F_GETFL and F_SETFL on an open descriptor change only its flags.
    let ok = unsafe {
        let flags = libc::fcntl(out.as_raw_fd(), libc::F_GETFL);
        flags >= 0 && libc::fcntl(out.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) == 0
    };
    if ok {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Writes all of `bytes` to a non-blocking `out`, waiting (poll) whenever
/// the kernel has no room; whether it had to wait.
fn write_waiting(out: &mut (impl Write + AsRawFd), mut bytes: &[u8]) -> io::Result<bool> {
    let mut waited = false;
    while !bytes.is_empty() {
        match out.write(bytes) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                waited = true;
                let mut fd = libc::pollfd { fd: out.as_raw_fd(), events: libc::POLLOUT, revents: 0 };
                // SAFETY: one pollfd, valid for the call.
                if unsafe { libc::poll(&mut fd, 1, -1) } < 0 {
                    let e = io::Error::last_os_error();
                    if e.kind() != ErrorKind::Interrupted {
                        return Err(e);
                    }
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(waited)
}

fn open_pipes(params: &Params, data: &Arc<[u8]>) -> io::Result<(Lanes<PipeReader>, Feed)> {
    let streams = params.streams as usize;
    let mut sources = Lanes::with_capacity(streams);
    let mut feed = Feed::default();
    for i in 0..streams {
        let (reader, writer) = io::pipe()?;
        sources.push(reader);
        feed.spawn(params, i, data, writer);
    }
    Ok((sources, feed))
}

fn open_tcp(params: &Params, data: &Arc<[u8]>, listener: &TcpListener) -> io::Result<(Lanes<TcpStream>, Feed)> {
    let streams = params.streams as usize;
    let mut sources = Lanes::with_capacity(streams);
    let mut feed = Feed::default();
    let addr = listener.local_addr()?;
    for i in 0..streams {
        let client = TcpStream::connect(addr)?;
        let (server, _) = listener.accept()?;
        server.set_nodelay(true)?;
        sources.push(client);
        feed.spawn(params, i, data, server);
    }
    Ok((sources, feed))
}

/// A temporary regular file, removed when dropped.
#[derive(Debug)]
pub struct TempFile {
    path: PathBuf,
}

impl TempFile {
    /// A new file in the system's temporary directory holding `bytes`.
    pub fn new(bytes: &[u8]) -> io::Result<TempFile> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!("buflab-real-{}-{}.bin", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let file = TempFile { path: std::env::temp_dir().join(name) };
        fs::write(&file.path, bytes)?;
        Ok(file)
    }

    fn open_streams(&self, streams: u64) -> io::Result<(Lanes<File>, Feed)> {
        let mut sources = Lanes::with_capacity(streams as usize);
        for _ in 0..streams {
            sources.push(File::open(&self.path)?);
        }
        Ok((sources, Feed::default()))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// A regular file as a calibration [`Store`]: what `calibrate` measures in
/// the browser's file system, measured on the kernel's.
impl Store for TempFile {
    type Reader<'a> = File;

    fn store(&mut self, bytes: &[u8]) -> io::Result<()> {
        fs::write(&self.path, bytes)
    }

    fn open(&self) -> io::Result<File> {
        File::open(&self.path)
    }
}

// ---------------------------------------------------------------------------
// Allocation's kernel cost

/// Runs of each reader for [`page_faults`]: one to warm up, then these,
/// whose median is reported.
pub const FAULT_RUNS: usize = 3;

/// Minor page faults of one run of each of `params`' readers, natively: the
/// timed pass (only what the user's program runs) over the simulated
/// source, counted by the kernel for this thread, median of [`FAULT_RUNS`]
/// runs after one warm-up. A fault is the kernel mapping in a page the run
/// touched first: memory the allocator took from the kernel (or took back
/// from it) for buffers and Vecs. glibc gives freed memory at the top of
/// its heap back to the kernel once more than 128 KiB is free, so a run
/// that frees its buffers faults them in again in the next. `None` per
/// reader where the kernel gives no count. Each run is marked
/// ([`kernel::marked`], label `READER/RUN`, run 0 the warm-up), so the same
/// function run under `strace` gives the `brk`/`mmap`/`munmap` calls behind
/// the faults (the command line does that). The figure is a
/// program's: run it in a process's main thread (the command line does),
/// whose heap is its own; a thread sharing an arena with others may not see
/// the heap shrink.
pub fn page_faults(params: &Params) -> Result<Vec<(ReaderKind, Option<u64>)>, ParamError> {
    params.check()?;
    let data = content::generate(params);
    let mut app_buf = vec![0u8; params.rs as usize];
    let mut sinks: Vec<CountSink> = (0..params.streams).map(|_| CountSink::default()).collect();
    let mut out = Vec::with_capacity(params.readers.len());
    for &kind in &params.readers {
        let mut faults = Vec::with_capacity(FAULT_RUNS);
        for run in 0..=FAULT_RUNS {
            let label = format!("{}/{run}", kind.id());
            let (done, delta) = kernel::count(|| {
                kernel::marked(&label, || crate::engine::timed::run(kind, params, &data, &mut app_buf, &mut sinks))
            });
            done.map_err(|e| ParamError { key: "run", message: format!("{}: {e}", kind.id()) })?;
            if run > 0 {
                faults.push(delta.map(|d| d.minor_faults));
            }
        }
        let mut known: Vec<u64> = faults.iter().flatten().copied().collect();
        known.sort_unstable();
        out.push((kind, (known.len() == FAULT_RUNS).then(|| known[FAULT_RUNS / 2])));
    }
    std::hint::black_box(sinks.iter().map(|s| s.0).sum::<u64>());
    Ok(out)
}
