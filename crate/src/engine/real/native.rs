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
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

use super::kernel::{self, Delta};
use super::{model_pass, run_pass, timed_pass, Pass, SizeLog, Store};
use crate::engine::content;
use crate::engine::experiment;
use crate::engine::clock::{self, Clock, Sampling};
use crate::engine::heap::Lanes;
use crate::engine::source::{stream_seed, Chunker, Limit, ObservedRead};
use crate::engine::workload::{combined_digest, CountSink, DigestSink};
use crate::model::{
    key, CalibratedFrom, CallCounter, ChunkModel, Id, Lab, ModelSide, ParamError, Params, ReaderKind, RealReport,
    RealRun, RealSource, Report, LIMITS, MAX_REAL_STREAMS,
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
    let simulated_file = if params.chunk == ChunkModel::File { None } else { Some(experiment::run(&file_model, clock, sampling)?) };

    let failed = |source: RealSource, kind: ReaderKind, e: io::Error| ParamError {
        key: "run",
        message: format!("{} over a real {}: {e}", kind.id(), source.id()),
    };
    let file = TempFile::new(&data).map_err(|e| ParamError { key: "run", message: format!("temporary file: {e}") })?;
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| ParamError { key: "run", message: format!("loopback: {e}") })?;
    let mut rows = Vec::new();
    for source in SOURCES {
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
    let carrier = rows
        .iter()
        .filter(|r| r.source == own)
        .fold(None::<&RealRun>, |best, r| match best {
            Some(b) if b.read_calls >= r.read_calls => Some(b),
            _ => Some(r),
        })
        .expect("every source kind runs every reader, and a link has at least one");
    Ok(RealReport {
        calibrated_sys: LIMITS.sys.clamp(carrier.sys_ns.round().max(0.0) as u64),
        calibrated_from: CalibratedFrom { source: carrier.source, reader: carrier.reader },
        real: rows,
        simulated,
        link: String::new(),
        alloc_calls_unavailable: None,
    })
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
        total_ns: run.cpu_ns.median + source_reads as f64 * params.sys as f64,
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
    let mut digests: Vec<DigestSink> = (0..streams).map(|_| DigestSink::default()).collect();
    feed.start();
    let label = alloc_label(source, kind);
    let (pass, counts) = kernel::count(|| {
        kernel::marked(&label, || run_pass(params, kind, sources, len, Some(&log), &mut app_buf, &mut digests))
    });
    feed.finish()?;
    let pass = pass?;
    let kernel = counts.filter(|_| kernel_counts);
    let digest = combined_digest(&digests.iter().map(DigestSink::value).collect::<Vec<_>>());

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
    Ok(Measured { pass, kernel, sizes: log.sizes(), digest, wall, ns_per_read })
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
    writers: Vec<JoinHandle<io::Result<()>>>,
}

impl Feed {
    fn start(&self) {
        for go in &self.go {
            // A writer that is already gone reports why in `finish`.
            let _ = go.send(());
        }
    }

    /// Waits for every writer; the first one's error, if any.
    fn finish(self) -> io::Result<()> {
        drop(self.go);
        let mut first = Ok(());
        for w in self.writers {
            let result = w.join().unwrap_or_else(|_| Err(io::Error::other("a writer thread panicked")));
            if first.is_ok() {
                first = result;
            }
        }
        first
    }

    /// A writer thread for stream `index`: after `start`, it writes `data`
    /// to `out` in pieces cut by the link's chunk model and the stream's
    /// seed, then closes `out` (the reader's end of stream).
    fn spawn(&mut self, params: &Params, index: usize, data: &Arc<[u8]>, out: impl Write + Send + 'static) {
        let (go, wait) = channel();
        let chunker = Chunker::new(params.chunk, stream_seed(params.seed, index));
        let data = Arc::clone(data);
        self.go.push(go);
        self.writers.push(thread::spawn(move || write_pieces(out, &data, chunker, wait)));
    }
}

fn write_pieces(mut out: impl Write, data: &[u8], mut chunker: Chunker, go: Receiver<()>) -> io::Result<()> {
    if go.recv().is_err() {
        return Ok(()); // the run never started
    }
    let mut at = 0;
    while at < data.len() {
        let n = chunker.next_limit().max(1).min(data.len() - at);
        match out.write_all(&data[at..at + n]) {
            Ok(()) => at += n,
            // The reader stopped early (the `scan` workload, `exact`) and
            // closed its end: nothing left to deliver.
            Err(e) if matches!(e.kind(), ErrorKind::BrokenPipe | ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted) => {
                return Ok(())
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
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
