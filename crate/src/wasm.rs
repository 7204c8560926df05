//! The wasm glue: the only file that knows wasm-bindgen.
//!
//! ```text
//! main thread                         worker
//!   decode_link / parse_size /          run(link, counts, quick) -> Report | WriteReport
//!   format_size / max_streams             (blocking; only ever in the worker)
//!   encode_link / links / fit_sweep /   compare(link, counts, quick) -> Comparison
//!   verdict / time_ratio /                (a link with `b.` keys: A and B)
//!   encode_comparison / playground      calibrate_opfs(params, handle) -> Calibration
//!   (pure, synchronous)                   (the worker opens the OPFS handle)
//!                                       TraceSession, pair_results (files opened)
//! ```
//!
//! A comparison link decodes like any link (`decode_link`): its `compare`
//! holds B, the canonical comparison link and the settings that differ.
//! Reports say where they were measured (`Report::machine`): this glue
//! fills it from the worker's `navigator` (user agent, cores) and the clock.
//!
//! The schema (limits, defaults, choices, texts) is not here: it is a
//! constant, so the page imports it as generated data (`crate::types`,
//! web/src/engine/schema.gen.json).
//!
//! Values cross as plain JS objects through serde-wasm-bindgen (maps as
//! objects, 64-bit integers as numbers: every limit stays below 2^53). Errors
//! cross as `Error` objects whose message names the offending key.
//!
//! The page loads several builds of this crate (`npm run wasm`; their
//! features are listed in crate/Cargo.toml):
//! - web/pkg-counts, what the first numbers need and no more, so they wait
//!   for a small download: `run` for exact counts only (it refuses to time),
//!   the codec's way in (decode_link and the size helpers) and the time
//!   comparisons. Nothing in it takes an object: `run` takes the canonical
//!   link and the comparisons plain numbers, so the build carries no
//!   deserializer;
//! - web/pkg-timing/<workload>, one per workload: the read lab's timed pass
//!   (`time_counted`, `run`) and sweeps, with the loops of that workload only;
//! - web/pkg-program: what the page calls on its own thread besides reading
//!   links (`encode_link`, `links`, `fit_sweep`, `code`, `playground`,
//!   `encode_comparison`), the write lab and Calibrate;
//! - web/pkg-questions: the questions a room, a quiz link or a lesson asks
//!   (`quiz`, `lesson_choices`), from counted runs of every workload.
//!
//! `compare` is in the timing builds: its rounds time both sides.
//!
//! - web/pkg-trace (`npm run wasm:trace`): what reads the files a person
//!   opens, in a worker: [`TraceSession`], a program's own reads from its
//!   strace log, and `pair_results`, two exported results paired.
//!
//! Exports marked `#[cfg(feature = "timed")]` exist in the timing and
//! program builds, those marked `program` in the program build only, those
//! marked `questions` in the questions and program builds, those marked
//! `trace` in the trace build.

#[cfg(any(feature = "timed", feature = "program"))]
use serde::Deserialize;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::api;
#[cfg(feature = "timed")]
use crate::engine::clock;
use crate::engine::clock::{Clock, Sampling};
use crate::link;
use crate::model;
#[cfg(any(feature = "timed", feature = "program"))]
use crate::model::Params;

/// When this instance started, in `performance.now()` ms (as `f64` bits; 0
/// until set): set by [`start`], which runs as the instance is made, in the
/// builds that time, and moved back by [`warmed_up`]. Read by
/// [`PerformanceClock`].
#[cfg(feature = "timed")]
static STARTED_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

#[wasm_bindgen(start)]
fn start() {
    #[cfg(feature = "timed")]
    if let Some(performance) = performance() {
        STARTED_MS.store(performance.now().to_bits(), std::sync::atomic::Ordering::Relaxed);
    }
    // A panic traps the instance, and the trap's own message ("unreachable")
    // says nothing; so the hook also hands the panic message to
    // `globalThis.__buflabPanic` when the worker has set one, and the worker
    // shows it on the page.
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let global = js_sys::global();
        if let Ok(report) = js_sys::Reflect::get(&global, &"__buflabPanic".into()) {
            if let Some(report) = report.dyn_ref::<js_sys::Function>() {
                let _ = report.call1(&JsValue::NULL, &info.to_string().into());
            }
        }
    }));
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

#[cfg(any(feature = "timed", feature = "program"))]
fn params_from_js(value: JsValue) -> Result<Params, JsError> {
    let params: Params =
        serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("params: {e}")))?;
    params.check().map_err(|e| JsError::new(&e.to_string()))?;
    Ok(params)
}

/// Ends this instance's fresh period ([`clock::FRESH_NS`]) now: the timing
/// worker has called the functions it times in short calls until they
/// stopped getting faster (engine/worker-timing.ts), which is what the fixed
/// period stands in for. A full measurement then warms up for its own 30 ms
/// only.
#[cfg(feature = "timed")]
#[wasm_bindgen]
pub fn warmed_up() {
    if let Some(performance) = performance() {
        let started = performance.now() - clock::FRESH_NS / 1e6;
        STARTED_MS.store(started.to_bits(), std::sync::atomic::Ordering::Relaxed);
    }
}

/// `performance.now()` of whatever global scope this runs in (worker or page).
struct PerformanceClock {
    performance: web_sys::Performance,
    isolated: bool,
}

impl PerformanceClock {
    fn new() -> Result<Self, JsError> {
        let performance = performance().ok_or_else(|| JsError::new("this scope has no performance.now()"))?;
        let isolated = js_sys::Reflect::get(&js_sys::global(), &"crossOriginIsolated".into())
            .map(|v| v.is_truthy())
            .unwrap_or(false);
        Ok(PerformanceClock { performance, isolated })
    }
}

impl Clock for PerformanceClock {
    fn now_ns(&self) -> f64 {
        self.performance.now() * 1e6
    }
    fn isolated(&self) -> bool {
        self.isolated
    }
    #[cfg(feature = "timed")]
    fn fresh_until_ns(&self) -> f64 {
        f64::from_bits(STARTED_MS.load(std::sync::atomic::Ordering::Relaxed)) * 1e6 + clock::FRESH_NS
    }
}

/// This scope's `performance`, if it has one.
fn performance() -> Option<web_sys::Performance> {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into()).ok().and_then(|p| p.dyn_into().ok())
}

/// How the full build's sweep points are timed (`sweep_point`'s options).
#[cfg(feature = "timed")]
#[derive(Deserialize, Default)]
#[serde(default)]
struct PointOptions {
    /// One short sample per reader, for while a control moves.
    quick: bool,
}

#[cfg(feature = "faults")]
fn inject(fault: &str) -> Result<(), JsError> {
    match fault {
        "panic" => panic!("injected panic (a fault test)"),
        "hang" => loop {
            std::hint::spin_loop();
        },
        "oom" => {
            // Zeroed blocks are fresh wasm pages: nothing is written, so the
            // host commits little memory before growth fails and the
            // allocation error aborts the instance.
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                hoard.push(std::hint::black_box(vec![0u8; 256 << 20]));
            }
        }
        other => Err(JsError::new(&format!("options: unknown fault '{other}'"))),
    }
}

#[cfg(not(feature = "faults"))]
fn inject(_fault: &str) -> Result<(), JsError> {
    Err(JsError::new("options: fault injection exists only in test builds (npm run build:faults)"))
}

/// Runs the experiment of the lab the link selects and returns its report
/// (a read `Report` or a `WriteReport`; their `lab` field tells which).
/// `link`: a canonical fragment (`encode_link`'s, or a `Decoded`'s); one the
/// codec would correct is refused (`link::params_of`). `counts`: no timing,
/// the exact counts alone, at once (wins over `quick`, one short sample for
/// while a control moves). `fault`: "panic", "hang" or "oom", injected before
/// the run in builds with the `faults` feature only; other builds refuse it.
///
/// Plain arguments, not objects: the counting build then carries no
/// deserializer at all, a large part of its download otherwise
/// (docs/benchmarks.md, "The engine in parts").
#[wasm_bindgen]
pub fn run(link: &str, counts: bool, quick: bool, fault: Option<String>) -> Result<JsValue, JsError> {
    let params = link::params_of(link).map_err(|e| JsError::new(&e.to_string()))?;
    if let Some(fault) = &fault {
        inject(fault)?;
    }
    let sampling = Sampling::chosen(counts, quick, Sampling::FULL);
    let report = api::run_lab(&params, &PerformanceClock::new()?, sampling)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&measured_here(report))
}

/// A read report with where it was measured: this browser, as its worker's
/// `navigator` and clock tell. Times only: the counting build's reports are
/// exact counts, the same on every machine, and it stays small.
fn measured_here(report: model::LabReport) -> model::LabReport {
    match report {
        model::LabReport::Read(mut r) if cfg!(feature = "timed") => {
            r.machine = Some(browser_machine(&r.timer));
            model::LabReport::Read(r)
        }
        write => write,
    }
}

/// This browser: its user agent and logical cores (`navigator`), whether it
/// is cross-origin isolated and the timer's step (`timer`). Browsers do not
/// name the CPU.
fn browser_machine(timer: &model::Timer) -> model::Machine {
    let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).ok();
    let field = |name: &str| navigator.as_ref().and_then(|n| js_sys::Reflect::get(n, &name.into()).ok());
    model::Machine {
        kind: model::MachineKind::Browser,
        user_agent: field("userAgent").and_then(|v| v.as_string()),
        os: None,
        cpu: None,
        cores: field("hardwareConcurrency").and_then(|v| v.as_f64()).filter(|n| *n >= 1.0 && *n < 1e6).map(|n| n as u32),
        isolated: timer.isolated,
        timer_step_ns: timer.resolution_ns,
        build: model::Machine::this_build(),
    }
}

/// Compares A with B of a comparison link (one with `b.` keys; canonical,
/// as `decode_link`'s `compare.fragment`): both counted, then, unless
/// `counts`, timed in alternating rounds (`quick`: fewer, shorter rounds).
/// Returns a `Comparison`. Throws for a link the codec would correct or one
/// without `b.` keys, and for a workload this build does not run (a timing
/// build runs one: A's and B's must both be it). In the timing builds only.
#[cfg(feature = "timed")]
#[wasm_bindgen]
pub fn compare(link: &str, counts: bool, quick: bool) -> Result<JsValue, JsError> {
    let decoded = link::decode(link);
    if let Some(n) = decoded.notices.first() {
        return Err(JsError::new(&format!("link: {}: {}", n.key, n.message)));
    }
    let b = decoded.compare.ok_or_else(|| JsError::new("link: it has no b. keys, so nothing to compare"))?;
    let sampling = Sampling::chosen(counts, quick, Sampling::FULL);
    let mut comparison = api::compare(&decoded.params, &b.params, &PerformanceClock::new()?, sampling)
        .map_err(|e| JsError::new(&e.to_string()))?;
    for side in [&mut comparison.a, &mut comparison.b] {
        side.machine = Some(browser_machine(&side.timer));
    }
    to_js(&comparison)
}

/// Two exported read-lab results (JSON text: a file the page opened, a
/// saved run as `JSON.stringify` writes it), measured separately, paired:
/// a `Comparison` whose timing is `separate`. Untrusted: throws an `Error`
/// whose message names the file (`A: …`, `B: …`) and what is wrong (not
/// JSON, cut short, not a BufLab result, a newer version, …). In the
/// trace build, the one that reads the files a person opens (a log, a
/// result), in its worker: reading a whole report is most of a build's
/// size, and the program build, which every first change of a setting
/// waits for, stays without it.
#[cfg(feature = "trace")]
#[wasm_bindgen]
pub fn pair_results(a: &str, b: &str) -> Result<JsValue, JsError> {
    to_js(&api::pair_results(a, b).map_err(|e| JsError::new(&e.message))?)
}

/// The quiz the engine writes for a link (`catalog::quiz`): its questions,
/// answered by real counted runs. `link`: a canonical fragment, as [`run`]'s.
/// In the questions build only (a quiz is the read lab's: it needs every
/// workload's counted loops, which the program build leaves out); neither
/// the first numbers nor the first full measurement download it.
#[cfg(all(feature = "questions", feature = "workloads"))]
#[wasm_bindgen]
pub fn quiz(link: &str) -> Result<JsValue, JsError> {
    let params = link::params_of(link).map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&crate::catalog::quiz::quiz(&params).map_err(|e| JsError::new(&e.to_string()))?)
}

/// A lesson question's four choices (`catalog::choices`): the real answer
/// and three wrong ones, each a real run of the lesson's experiment with one
/// thing changed, lettered A to D in the lesson's own order. `link`: the
/// lesson's link; `answer`: its question's `answer` (lessons.gen.json), so
/// this build carries no lesson texts. In the questions build (a read
/// lesson's) and the program build (the write lab's lesson).
#[cfg(feature = "questions")]
#[wasm_bindgen]
pub fn lesson_choices(link: &str, answer: JsValue) -> Result<JsValue, JsError> {
    use crate::catalog::choices::{answer_from, choices_of};
    let get = |key: &str| js_sys::Reflect::get(&answer, &key.into()).ok();
    let text = |key: &str| get(key).and_then(|v| v.as_string());
    let (kind, reader, field, flavour, metric) = (text("kind").unwrap_or_default(), text("reader"), text("field"), text("flavour"), text("metric"));
    let across = get("across").and_then(|v| v.as_f64()).map(|a| a as u64);
    let answer = answer_from(&kind, reader.as_deref(), field.as_deref(), flavour.as_deref(), metric.as_deref(), across)
        .map_err(|e| JsError::new(&e.to_string()))?;
    let clock = PerformanceClock::new()?;
    to_js(&choices_of(link, answer, &clock).map_err(|e| JsError::new(&e.to_string()))?)
}

/// [`run`]'s timing stages for a link whose counts are known: `counts` is
/// the read report the counting build returned for this same link, and
/// only the timed pass runs (`api::time_counted`). A write-lab link runs
/// whole (its counts come from this build, in the same run). Throws when
/// `counts` is not a counts report of this link.
#[cfg(feature = "timed")]
#[wasm_bindgen]
pub fn time_counted(link: &str, quick: bool, counts: JsValue) -> Result<JsValue, JsError> {
    let params = link::params_of(link).map_err(|e| JsError::new(&e.to_string()))?;
    let sampling = Sampling::chosen(false, quick, Sampling::FULL);
    let clock = PerformanceClock::new()?;
    let report = match params.lab {
        model::Lab::Read => {
            let counted: model::Report =
                serde_wasm_bindgen::from_value(counts).map_err(|e| JsError::new(&format!("counts: {e}")))?;
            api::time_counted(&params, counted, &clock, sampling).map(model::LabReport::Read)
        }
        model::Lab::Write => api::run_lab(&params, &clock, sampling),
    };
    to_js(&measured_here(report.map_err(|e| JsError::new(&e.to_string()))?))
}

/// Runs the benchmark suite (`npm run bench`): blocking for tens of seconds,
/// so only ever in a worker. Only in builds with the `bench` feature.
#[cfg(feature = "bench")]
#[wasm_bindgen]
pub fn bench_suite() -> Result<JsValue, JsError> {
    to_js(&crate::bench::run_suite(&PerformanceClock::new()?))
}

/// The order check: one suite scenario's full measurement, alone or after
/// every other scenario (`bench::bench_one`). Only in builds with the
/// `bench` feature.
#[cfg(feature = "bench")]
#[wasm_bindgen]
pub fn bench_one(name: &str, after_others: bool) -> Result<JsValue, JsError> {
    let result = crate::bench::bench_one(name, after_others, &PerformanceClock::new()?);
    to_js(&result.ok_or_else(|| JsError::new(&format!("the suite has no scenario called {name:?}")))?)
}

/// Decodes an untrusted link: `{params, notices, fragment, links}`. Never throws.
#[wasm_bindgen]
pub fn decode_link(link: &str) -> Result<JsValue, JsError> {
    to_js(&link::decode(link))
}

/// The canonical fragment (no `#`) for valid params. Throws for invalid ones.
#[cfg(feature = "program")]
#[wasm_bindgen]
pub fn encode_link(params: JsValue) -> Result<String, JsError> {
    Ok(link::encode(&params_from_js(params)?))
}

/// The links the page keeps for valid params (`link::links`): `{link, run,
/// sweep, view}`. Throws for invalid ones.
#[cfg(feature = "program")]
#[wasm_bindgen]
pub fn links(params: JsValue) -> Result<JsValue, JsError> {
    to_js(&link::links(&params_from_js(params)?))
}

/// The canonical comparison link of A (`a`) and B (`b`), valid params
/// each: A's link, then B's `b.` keys where B differs (`b.v=1` where it
/// does not). Throws for invalid params.
#[cfg(feature = "program")]
#[wasm_bindgen]
pub fn encode_comparison(a: JsValue, b: JsValue) -> Result<String, JsError> {
    Ok(link::encode_pair(&params_from_js(a)?, &params_from_js(b)?))
}

/// The figures of a [`model::Stats`] that its comparisons read
/// ([`model::Stats::verdict`], [`model::Stats::ratio`]), as the page passes
/// them (engine/codec.ts `compared`): `[min, median, max, samples]`. Plain
/// numbers, so the counting build, which has no deserializer, compares
/// times as the rest of the engine does. Throws for any other length.
fn compared(figures: &[f64]) -> Result<model::Stats, JsError> {
    let [min, median, max, samples] = *figures else {
        return Err(JsError::new("stats: expected [min, median, max, samples]"));
    };
    Ok(model::Stats { min, median, max, samples: samples as u32, ..model::Stats::default() })
}

/// How time `a` compares with time `b` (each `[min, median, max,
/// samples]`, see [`compared`]): `"faster"`, `"slower"` or `"same"` within
/// noise (`Stats::verdict`: only when their samples separate).
#[wasm_bindgen]
pub fn verdict(a: &[f64], b: &[f64]) -> Result<String, JsError> {
    Ok(model::Id::id(compared(a)?.verdict(&compared(b)?)).to_string())
}

/// How many times time `b` is time `a` (each `[min, median, max,
/// samples]`), as the range their samples support (`Stats::ratio`): `{low,
/// median, high}`, or `undefined` with fewer than two samples a side.
#[wasm_bindgen]
pub fn time_ratio(a: &[f64], b: &[f64]) -> Result<JsValue, JsError> {
    match compared(a)?.ratio(&compared(b)?) {
        Some(ratio) => to_js(&ratio),
        None => Ok(JsValue::UNDEFINED),
    }
}

/// A size such as `8K`; `undefined` when unreadable or too large.
#[wasm_bindgen]
pub fn parse_size(text: &str) -> Option<f64> {
    model::parse_size(text).ok().flatten().map(|v| v as f64)
}

/// `8192` → `"8K"`. Negative, fractional or non-finite input is floored to a
/// whole number of bytes at or above 0.
#[wasm_bindgen]
pub fn format_size(n: f64) -> String {
    let n = if n.is_finite() && n > 0.0 { n.floor() as u64 } else { 0 };
    model::format_size(n)
}

/// The most streams a job may have with streams of `len` bytes and buffers of
/// `cap` bytes (the engine's rule, so the page never restates it).
#[wasm_bindgen]
pub fn max_streams(len: f64, cap: f64) -> f64 {
    let whole = |n: f64| if n.is_finite() && n > 0.0 { n.floor() as u64 } else { 1 };
    model::max_streams(whole(len), whole(cap)) as f64
}

/// The Rust program the params correspond to (`snippet.rs`), for the page's
/// code panel. Throws for invalid params.
#[cfg(feature = "program")]
#[wasm_bindgen]
pub fn code(params: JsValue) -> Result<String, JsError> {
    Ok(crate::catalog::snippet::snippet(&params_from_js(params)?))
}

/// The code panel's program in the Rust Playground: `{program, url,
/// reason}` (`catalog::snippet::playground`): the self-contained program
/// and its Playground address, or why there is none. Throws for invalid params.
#[cfg(feature = "program")]
#[wasm_bindgen]
pub fn playground(params: JsValue) -> Result<JsValue, JsError> {
    to_js(&crate::catalog::snippet::playground(&params_from_js(params)?))
}

// ---------------------------------------------------------------------------
// Sweeps: the worker runs a sweep point by point (one `sweep_point` call
// each, so progress reaches the page between points and Cancel can terminate
// the worker between or during them), then asks for the knees so far.

/// How many points a sweep has (0 without one). Throws for invalid params.
#[cfg(feature = "timed")]
#[wasm_bindgen]
pub fn sweep_total(params: JsValue) -> Result<u32, JsError> {
    Ok(crate::engine::sweep::grid(&params_from_js(params)?).len() as u32)
}

/// Runs point `index` of the sweep (in `Sweep::grid` order): `{value, across?, report}`. `options.quick`: one
/// sample per reader; otherwise the sweep's own lighter sampling
/// (`sweep::SAMPLING`).
#[cfg(feature = "timed")]
#[wasm_bindgen]
pub fn sweep_point(params: JsValue, index: u32, options: JsValue) -> Result<JsValue, JsError> {
    let params = params_from_js(params)?;
    let options: PointOptions = if options.is_undefined() || options.is_null() {
        PointOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options).map_err(|e| JsError::new(&format!("options: {e}")))?
    };
    let sampling = Sampling::chosen(false, options.quick, crate::engine::sweep::SAMPLING);
    let point = api::run_point(&params, index as usize, &PerformanceClock::new()?, sampling)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&point)
}

/// The sweep report of the points done so far (knees included).
#[cfg(feature = "timed")]
#[wasm_bindgen]
pub fn sweep_report(params: JsValue, points: JsValue) -> Result<JsValue, JsError> {
    let params = params_from_js(params)?;
    let points: Vec<model::SweepPoint> =
        serde_wasm_bindgen::from_value(points).map_err(|e| JsError::new(&format!("points: {e}")))?;
    let report = api::sweep_report(&params, points).ok_or_else(|| JsError::new("sweep: no sweep axis set"))?;
    to_js(&report)
}

/// `{params, notices, fragment}` for params whose sweep may no longer fit
/// the rest (the page changed `len`, `cap` or `streams` under a sweep): the
/// sweep is fitted as a link's would be. Throws when the rest is invalid.
#[cfg(feature = "program")]
#[wasm_bindgen]
pub fn fit_sweep(params: JsValue) -> Result<JsValue, JsError> {
    let params: Params =
        serde_wasm_bindgen::from_value(params).map_err(|e| JsError::new(&format!("params: {e}")))?;
    to_js(&link::fit_sweep(&params).map_err(|e| JsError::new(&e.to_string()))?)
}

// ---------------------------------------------------------------------------
// Calibrate: `sys` measured on the browser's file system. Opening a sync
// access handle is asynchronous and worker-only, so the worker opens it (and
// closes it afterwards); everything from there on is synchronous.
#[cfg(feature = "program")]
mod calibrate {
    use std::io;

    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{FileSystemReadWriteOptions, FileSystemSyncAccessHandle};

    use super::{params_from_js, to_js, PerformanceClock};
    use crate::engine::real::{self, Store};
    use crate::engine::source::ObservedRead;
    use crate::model::SysSource;

    /// A file in the Origin Private File System, as a calibration store.
    struct Opfs(FileSystemSyncAccessHandle);

    /// Reads the file from its first byte: each `read` is one
    /// `FileSystemSyncAccessHandle.read(buffer, {at})` call.
    struct OpfsReader<'a> {
        handle: &'a FileSystemSyncAccessHandle,
        at: f64,
        options: FileSystemReadWriteOptions,
    }

    fn js_io(e: JsValue) -> io::Error {
        let message = e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_else(|| format!("{e:?}"));
        io::Error::other(message)
    }

    impl io::Read for OpfsReader<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.options.set_at(self.at);
            let n = self.handle.read_with_u8_array_and_options(buf, &self.options).map_err(js_io)?;
            self.at += n;
            Ok(n as usize)
        }
    }

    impl ObservedRead for OpfsReader<'_> {}

    impl Store for Opfs {
        type Reader<'a> = OpfsReader<'a>;

        fn store(&mut self, bytes: &[u8]) -> io::Result<()> {
            self.0.truncate_with_f64(0.0).map_err(js_io)?;
            let options = FileSystemReadWriteOptions::new();
            options.set_at(0.0);
            let written = self.0.write_with_u8_array_and_options(bytes, &options).map_err(js_io)?;
            if written as usize != bytes.len() {
                return Err(io::Error::other(format!("wrote {written} of {} bytes", bytes.len())));
            }
            self.0.flush().map_err(js_io)
        }

        fn open(&self) -> io::Result<OpfsReader<'_>> {
            Ok(OpfsReader { handle: &self.0, at: 0.0, options: FileSystemReadWriteOptions::new() })
        }
    }

    /// Calibrates `sys` on the OPFS file behind `handle` (its contents are
    /// replaced): the link's stream written to it, then read back one real call
    /// per read (see `engine::real::calibrate`). Blocks for about half a second.
    #[wasm_bindgen]
    pub fn calibrate_opfs(params: JsValue, handle: FileSystemSyncAccessHandle) -> Result<JsValue, JsError> {
        let params = params_from_js(params)?;
        let calibration = real::calibrate(&params, &PerformanceClock::new()?, &mut Opfs(handle), SysSource::Opfs)
            .map_err(|e| JsError::new(&e.to_string()))?;
        to_js(&calibration)
    }
}

// ---------------------------------------------------------------------------
// A program's own reads: the worker reads a log in chunks (a `File`'s
// stream), one `feed` call each, so it can post progress between chunks and
// stop on Cancel (`finish(false)`); then it replays the descriptors the page
// shows. Nothing leaves the worker but the figures.
//
//   const session = new TraceSession();
//   for await (const chunk of file.stream()) post(session.feed(chunk));  // TraceProgress
//   const report = session.finish(true);                                  // TraceReport
//   const replay = session.replay(report.descriptors[0].id, options);     // ReplayOptions -> Replay
#[cfg(feature = "trace")]
#[wasm_bindgen]
pub struct TraceSession {
    parser: Option<crate::engine::trace::Parser>,
    trace: Option<crate::engine::trace::Trace>,
}

#[cfg(feature = "trace")]
#[wasm_bindgen]
impl TraceSession {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> TraceSession {
        TraceSession { parser: Some(crate::engine::trace::Parser::new()), trace: None }
    }

    /// Reads the next chunk of the log (lines may continue into the next
    /// chunk) and returns how far reading has come (`TraceProgress`).
    /// Throws after `finish`.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<JsValue, JsError> {
        let parser = self.parser.as_mut().ok_or_else(|| JsError::new("trace: the log was already finished"))?;
        parser.feed(chunk);
        to_js(&parser.progress())
    }

    /// Ends the log and returns its report (`TraceReport`). `complete`:
    /// the whole log was fed (false after Cancel: the report says its
    /// figures are of the part read). Throws when called twice.
    pub fn finish(&mut self, complete: bool) -> Result<JsValue, JsError> {
        let parser = self.parser.take().ok_or_else(|| JsError::new("trace: the log was already finished"))?;
        let trace = api::trace_finish(parser, complete);
        let report = to_js(&trace.report);
        self.trace = Some(trace);
        report
    }

    /// What a buffer would have made of descriptor `id`'s reads
    /// (`ReplayOptions` -> `Replay`; options `undefined`: the defaults,
    /// 8 KiB and 64 KiB, std and chained, with the sweep and the nearest
    /// link). A sweep point by point: `{caps: [c], readers: ["std"], sweep:
    /// false, fit: false}` per capacity. Throws before `finish`, or for
    /// options out of bounds (the message names the key).
    pub fn replay(&self, id: u32, options: JsValue) -> Result<JsValue, JsError> {
        let trace = self.trace.as_ref().ok_or_else(|| JsError::new("trace: finish the log first"))?;
        let options: model::ReplayOptions = if options.is_undefined() || options.is_null() {
            model::ReplayOptions::default()
        } else {
            serde_wasm_bindgen::from_value(options).map_err(|e| JsError::new(&format!("options: {e}")))?
        };
        let replay = api::trace_replay(trace, id, &options, &PerformanceClock::new()?).map_err(|e| JsError::new(&e.to_string()))?;
        to_js(&replay)
    }
}
