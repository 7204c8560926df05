//! The schema: everything the page needs to build its controls (limits,
//! defaults, the choices with their texts), in one value the page imports as
//! generated data (`crate::types` writes web/src/engine/schema.gen.json). The
//! page never writes a limit, default or label of its own.

use serde::Serialize;

use super::compare::{SpreadInfo, SPREADS};
use super::cursors::{EndingInfo, FlavourInfo, WriteModeInfo, ARTICLE_ORDER, ENDINGS, FLAVOURS, WRITE_MODES};
use super::metrics::{MetricInfo, METRICS};
use super::settings::{self, SettingInfo};
use super::workloads::{WorkloadInfo, WORKLOADS};
use crate::engine::compare;
use crate::engine::readers::{self, ReaderDifference, ReaderInfo};
use crate::engine::sweep::KNEE_TOLERANCE;
use crate::link::{B_PREFIX, DISPLAY_KEYS, LINK_VERSION, MAX_LINK_BYTES, SWEEP_KEYS};
use crate::model::limits::TraceLimits;
use crate::model::{TRACE, 
    key, Bounds, Id, Lab, Limits, Params, Preset, ReaderKind, SweepAxis, SysSource, View, LIMITS, MAX_JOB_BYTES,
    MAX_SWEEP_POINTS, PRESETS, RECORD_BYTES,
};

#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LabInfo {
    pub id: Lab,
    pub label: &'static str,
    pub about: &'static str,
    /// Whether the page's counting module (the engine built without default
    /// features, web/pkg-counts, which gives the first numbers) runs this
    /// lab. A lab it leaves out for size (the `write-lab` feature) gets its
    /// first counts from the program build, which then loads at once.
    pub counting_module: bool,
    /// The result views the lab offers, the one a link opens without `view`
    /// first; a link's `view` outside them shows the first.
    pub views: &'static [View],
}

/// The labs, in the order the page's switch shows them.
pub const LABS: [LabInfo; 2] = [
    LabInfo {
        id: Lab::Read,
        label: "Read",
        about: "Readers over a chunked source: unbuffered Read against std BufReader.",
        counting_module: true,
        views: Lab::Read.views(),
    },
    LabInfo {
        id: Lab::Write,
        label: "Write",
        about: "The write-cursor article's seven cursors serializing records, and std BufWriter over a chunked sink.",
        counting_module: false,
        views: Lab::Write.views(),
    },
];

/// A result view (the `view` link key), for the page's view tabs.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ViewInfo {
    pub id: View,
    pub label: &'static str,
    pub about: &'static str,
}

/// Where a `sys` value came from, as the page says it.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SysSourceInfo {
    pub id: SysSource,
    pub label: &'static str,
    pub about: &'static str,
}

/// The read lab's result views, in the order the page's tabs show them (the
/// write lab has one view of its own).
pub const VIEWS: [ViewInfo; 3] = [
    ViewInfo { id: View::Run, label: "Single run", about: "One measurement of these settings: charts and the full table." },
    ViewInfo { id: View::Sweep, label: "Sweep", about: "These settings re-run at every power of two along one axis." },
    ViewInfo { id: View::Timeline, label: "Timeline", about: "One reader's first operations, step by step." },
];

/// Every origin of `sys`, in the order of [`SysSource`].
pub const SYS_SOURCES: [SysSourceInfo; 5] = [
    SysSourceInfo {
        id: SysSource::Manual,
        label: "set by hand",
        about: "A model value: a real system call costs about 100 ns to a few µs.",
    },
    SysSourceInfo {
        id: SysSource::File,
        label: "calibrated on a regular file",
        about: "The time of one read(2) on a regular file in the page cache, less the same read's in-memory \
                cost, measured natively by `buflab real`.",
    },
    SysSourceInfo {
        id: SysSource::Pipe,
        label: "calibrated on a pipe",
        about: "The time of one read(2) on a pipe fed by a writer thread, less the same read's in-memory cost, \
                measured natively by `buflab real`.",
    },
    SysSourceInfo {
        id: SysSource::Tcp,
        label: "calibrated on loopback TCP",
        about: "The time of one read(2) on a loopback TCP connection fed by a server thread, less the same \
                read's in-memory cost, measured natively by `buflab real`.",
    },
    SysSourceInfo {
        id: SysSource::Opfs,
        label: "calibrated in a browser (OPFS)",
        about: "The time of one FileSystemSyncAccessHandle.read() call into a browser's Origin Private File \
                System, less the same read's in-memory cost, measured by the page's Calibrate.",
    },
];

/// One sweep axis, for the page's sweep controls.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SweepAxisInfo {
    pub id: SweepAxis,
    /// The link key (= `Params` field) a point of this axis sets. The page
    /// offers the axis only when the experiment uses that key, by the rule
    /// that decides which settings it shows (a key a workload's or reader's
    /// `keys` lists is used while that workload or reader is chosen).
    pub key: &'static str,
    pub label: &'static str,
    pub about: &'static str,
    /// The powers of two the axis may take (inside the limits).
    pub bounds: Bounds,
    /// The range a sweep of this axis gets when the link gives none.
    pub from: u64,
    pub to: u64,
    /// True when the axis is in bytes (shown with K/M suffixes).
    pub bytes: bool,
    /// What follows a value in words: "/s" for a rate in bytes per second, else nothing.
    pub per: &'static str,
    /// True when "where a bigger value stops paying" (the knee) means
    /// something along this axis; a longer stream or more streams only
    /// cost more.
    pub knee: bool,
}

/// What the page says about sweeping `axis`.
pub fn sweep_axis(axis: SweepAxis) -> SweepAxisInfo {
    let (label, about) = match axis {
        SweepAxis::Cap => (
            settings::label(Lab::Read, key::CAP),
            "Doubles the buffer (the chained reader's block length) from point to point: where does a bigger buffer stop paying?",
        ),
        SweepAxis::Rs => (
            settings::label(Lab::Read, key::READ_SIZE),
            "Doubles the application's read size: small reads lean on the buffer, reads larger than it skip it.",
        ),
        SweepAxis::Chunk => (
            "Chunk size",
            "Doubles a fixed chunk size (the model `fixed v`): the most bytes one source read can return.",
        ),
        SweepAxis::Len => (settings::label(Lab::Read, key::LEN), "Doubles the stream length: counts and time should grow in step with it."),
        SweepAxis::Streams => (
            settings::label(Lab::Read, key::STREAMS),
            "Doubles the number of streams read round-robin, each with its own buffer (the BufRead article: many streams, many buffers).",
        ),
        SweepAxis::Rate => (
            settings::label(Lab::Read, key::RATE),
            "Doubles the pace at which the pieces arrive: a reader behind a faster writer finds them joined.",
        ),
    };
    let (from, to) = axis.default_range();
    let link_key = match axis {
        SweepAxis::Cap => key::CAP,
        SweepAxis::Rs => key::READ_SIZE,
        SweepAxis::Chunk => key::CHUNK,
        SweepAxis::Len => key::LEN,
        SweepAxis::Streams => key::STREAMS,
        SweepAxis::Rate => key::RATE,
    };
    SweepAxisInfo {
        id: axis,
        key: link_key,
        label,
        about,
        bounds: axis.bounds(),
        from,
        to,
        bytes: axis.in_bytes(),
        per: if axis == SweepAxis::Rate { "/s" } else { "" },
        knee: axis.has_knee(),
    }
}

/// What the page needs to build its controls: limits, defaults, choices.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Schema {
    pub version: u32,
    pub defaults: Params,
    pub limits: Limits,
    pub readers: Vec<ReaderInfo>,
    /// Where a reader's algorithm differs from std's for a workload, one
    /// sentence each (owned by the reader's module); the page shows those of
    /// the readers and workload it ran.
    pub differences: Vec<ReaderDifference>,
    pub workloads: &'static [WorkloadInfo],
    pub presets: &'static [Preset],
    pub max_link_bytes: usize,
    /// Link keys that change how the page looks or what it points at, never a
    /// result.
    pub display_keys: &'static [&'static str],
    /// Link keys that describe a sweep: a single run's link leaves them out.
    pub sweep_keys: &'static [&'static str],
    /// The labs the page's switch offers.
    pub labs: &'static [LabInfo],
    /// The read lab's result views, for the page's view tabs.
    pub views: &'static [ViewInfo],
    /// The write lab's cursor flavours, with the article's qualities.
    pub flavours: &'static [FlavourInfo],
    /// Why today's cursor times need not follow the article's order, shown
    /// beside its table.
    pub article_order: &'static str,
    /// The sink experiment's two ways to write.
    pub write_modes: &'static [WriteModeInfo],
    /// The final-flush demonstration's endings.
    pub endings: &'static [EndingInfo],
    /// Encoded size of one record in the cursor experiment.
    pub record_bytes: u64,
    /// Stream length × streams and buffer capacity × streams are each at most this.
    pub max_job_bytes: u64,
    /// The axes a sweep can run along, with their power-of-two bounds.
    pub sweep_axes: Vec<SweepAxisInfo>,
    /// Most points one sweep may have.
    pub max_sweep_points: u64,
    /// How close to a sweep's best a point must be to count as its knee (0.05: within 5 %).
    pub knee_tolerance: f64,
    /// Where `sys` may come from (the `syssrc` link key), with the page's words.
    pub sys_sources: &'static [SysSourceInfo],
    /// Every number the page shows per run: label, unit, origin, meaning.
    pub metrics: &'static [MetricInfo],
    /// Both forms' settings: label, hint and unit per lab and link key.
    pub settings: Vec<SettingInfo>,
    /// What each kind of spread is, for the label beside every ± and range.
    pub spreads: &'static [SpreadInfo],
    /// The rules a comparison's verdicts follow.
    pub compare: CompareInfo,
    /// What reading a program's strace log keeps, whatever its length.
    pub trace: TraceLimits,
}

/// The rules of a comparison (`engine::compare`), for the page's words.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CompareInfo {
    /// The prefix of B's keys in a comparison link (`b.`).
    pub b_prefix: &'static str,
    /// Alternating rounds of a settled comparison, and of a quick one.
    pub rounds: u32,
    pub quick_rounds: u32,
    /// The nominal confidence of a ratio's interval.
    pub confidence: f64,
    /// How far beyond 1 the interval must lie for faster or slower.
    pub margin: f64,
    /// Separate measurements: the factor a time must differ by.
    pub separate_factor: f64,
    /// The largest result file the engine reads, in bytes: the page reads no
    /// more of a file than this and one byte.
    pub max_result_bytes: usize,
    /// What carries from one machine to another, in a few sentences.
    pub across_machines: &'static str,
}

pub fn schema() -> Schema {
    Schema {
        version: LINK_VERSION,
        defaults: Params::default(),
        limits: LIMITS,
        readers: ReaderKind::all().into_iter().map(readers::info).collect(),
        differences: ReaderKind::all().into_iter().flat_map(readers::differences).collect(),
        workloads: &WORKLOADS,
        presets: &PRESETS,
        max_link_bytes: MAX_LINK_BYTES,
        display_keys: DISPLAY_KEYS,
        sweep_keys: SWEEP_KEYS,
        labs: &LABS,
        views: &VIEWS,
        flavours: &FLAVOURS,
        article_order: ARTICLE_ORDER,
        write_modes: &WRITE_MODES,
        endings: &ENDINGS,
        record_bytes: RECORD_BYTES,
        max_job_bytes: MAX_JOB_BYTES,
        sweep_axes: SweepAxis::all().into_iter().map(sweep_axis).collect(),
        max_sweep_points: MAX_SWEEP_POINTS,
        knee_tolerance: KNEE_TOLERANCE,
        sys_sources: &SYS_SOURCES,
        metrics: &METRICS,
        settings: settings::settings(),
        spreads: &SPREADS,
        compare: CompareInfo {
            b_prefix: B_PREFIX,
            rounds: compare::ROUNDS,
            quick_rounds: compare::QUICK_ROUNDS,
            confidence: compare::CONFIDENCE,
            margin: compare::MARGIN,
            separate_factor: compare::SEPARATE_FACTOR,
            max_result_bytes: compare::MAX_RESULT_BYTES,
            across_machines: compare::ACROSS_MACHINES,
        },
        trace: TRACE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::known_keys;
    use crate::model::Workload;

    #[test]
    fn the_schema_lists_every_choice_in_order() {
        let s = schema();
        assert_eq!(s.labs.iter().map(|l| l.id).collect::<Vec<_>>(), Lab::all());
        assert_eq!(s.views.iter().map(|v| v.id).collect::<Vec<_>>(), View::all());
        for lab in s.labs {
            assert_eq!(lab.views.first(), Some(&View::Run), "{:?} opens on the single run", lab.id);
        }
        assert_eq!(s.labs[0].views, View::all(), "the read lab offers every view");
        assert_eq!(s.readers.iter().map(|r| r.id).collect::<Vec<_>>(), ReaderKind::all());
        assert_eq!(s.workloads.iter().map(|w| w.id).collect::<Vec<_>>(), Workload::all());
        assert_eq!(s.flavours.len(), 7);
        assert_eq!(s.sys_sources.iter().map(|x| x.id).collect::<Vec<_>>(), SysSource::all());
        assert_eq!(s.record_bytes, 16);
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["defaults"]["write"]["records"], 2048);
        assert_eq!(json["flavours"][3]["seekable"], "by_index");
        assert_eq!(json["defaults"]["lesson"], serde_json::Value::Null);
        assert_eq!(json["display_keys"], serde_json::json!(["present", "view", "step", "lesson", "syssrc", "embed", "predict", "quiz", "qseed"]));
        let chained = json["readers"].as_array().unwrap().iter().find(|r| r["id"] == "chained").unwrap();
        assert_eq!(chained["shape"], "blocks");
        assert!(s.differences.iter().any(|d| d.reader == ReaderKind::Tokio && d.workload == Workload::ToEnd));
    }

    #[test]
    fn schema_keys_name_real_link_keys() {
        let known: Vec<&str> = known_keys().collect();
        let s = schema();
        let axis_keys = s.sweep_axes.iter().map(|a| &a.key);
        for k in s.readers.iter().flat_map(|r| r.keys).chain(s.workloads.iter().flat_map(|w| w.keys)).chain(axis_keys) {
            assert!(known.contains(k), "{k}");
        }
    }

    /// The sweep's axis select offers an axis only while the experiment uses
    /// its key, by the same rule as the settings strip: read size is an axis
    /// of the workloads that read with it, capacity of the readers with a
    /// buffer, and chunk size, length and streams of every experiment.
    #[test]
    fn each_sweep_axis_names_the_setting_it_moves() {
        let s = schema();
        let axis = |id| s.sweep_axes.iter().find(|a| a.id == id).unwrap();
        let listed_by_workload = |k: &str, w: Workload| crate::catalog::workloads::workload(w).keys.contains(&k);
        assert!(listed_by_workload(axis(SweepAxis::Rs).key, Workload::Fixed));
        assert!(!listed_by_workload(axis(SweepAxis::Rs).key, Workload::Frames), "frames reads headers and payloads, not rs");
        let listed_by_reader = |k: &str, r: ReaderKind| s.readers.iter().any(|i| i.id == r && i.keys.contains(&k));
        assert!(listed_by_reader(axis(SweepAxis::Cap).key, ReaderKind::Std));
        assert!(!listed_by_reader(axis(SweepAxis::Cap).key, ReaderKind::Unbuffered));
        for always in [SweepAxis::Chunk, SweepAxis::Len, SweepAxis::Streams, SweepAxis::Rate] {
            let k = axis(always).key;
            assert!(!s.workloads.iter().any(|w| w.keys.contains(&k)) && !s.readers.iter().any(|r| r.keys.contains(&k)), "{k}");
        }
        // The key is the one a point sets: a point's params differ from the base in that field alone.
        let base = Params::default();
        for a in &s.sweep_axes {
            let moved = a.id.apply(&base, a.to);
            let changed: Vec<&str> = [
                (key::CAP, moved.cap != base.cap),
                (key::READ_SIZE, moved.rs != base.rs),
                (key::CHUNK, moved.chunk != base.chunk),
                (key::LEN, moved.len != base.len),
                (key::STREAMS, moved.streams != base.streams),
                (key::RATE, moved.rate != base.rate),
            ]
            .into_iter()
            .filter_map(|(k, c)| c.then_some(k))
            .collect();
            assert_eq!(changed, [a.key], "{:?}", a.id);
        }
    }
}
