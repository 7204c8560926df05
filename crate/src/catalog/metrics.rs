//! The numbers the page shows per run, one entry each: its id (the report's
//! field name, the CSV column, the table cell's `data-metric`), its label,
//! the short form running text uses, its unit, where it comes from (counted
//! exactly, measured, or modelled) and what it means. The page takes every
//! metric's words from here (through the schema) and joins them with the
//! one accessor per metric in `web/src/shared/metrics.ts`.
//!
//! [`Metric`] is the subset a sweep finds knees on; [`MetricInfo::knee`]
//! names the entry each of them is.

use serde::Serialize;

use super::terms::TermId;
use crate::model::Metric;

/// A number the page shows for one run of either lab (the model owns the ids:
/// a comparison names them too).
pub use crate::model::MetricId;

/// What a metric's numbers count, for how the page writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Calls or items: "1,048,577".
    Count,
    /// Bytes: "8 KiB".
    Bytes,
    /// Nanoseconds: "4.3 ms".
    Ns,
    /// Not a number (a digest).
    Text,
}

/// Where a metric's value comes from, which says how far to trust a difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Counted by the engine in the untimed pass: the same on every run, here and natively.
    Exact,
    /// Timed in the timed pass: samples with a spread.
    Measured,
    /// Computed from exact counts and a cost the page sets (`sys`), in part or whole.
    Modelled,
}

/// What the page says about one metric.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MetricInfo {
    pub id: MetricId,
    /// Column heading and chart title: "Source reads".
    pub label: &'static str,
    /// The label inside a sentence or on an axis: "source reads".
    pub short: &'static str,
    pub unit: Unit,
    pub origin: Origin,
    /// What it counts, one or two sentences (a heading's tooltip).
    pub about: &'static str,
    /// How the value depends on the machine it was taken on, where it does.
    pub platform: Option<&'static str>,
    /// The sweep metric this is, when sweeps find knees on it.
    pub knee: Option<Metric>,
    /// The glossary entry that says what it means: its chart's title links there.
    pub term: Option<TermId>,
}

const fn exact(id: MetricId, label: &'static str, short: &'static str, unit: Unit, about: &'static str) -> MetricInfo {
    MetricInfo { id, label, short, unit, origin: Origin::Exact, about, platform: None, knee: None, term: None }
}

/// Every metric, in the order of [`MetricId`].
pub const METRICS: [MetricInfo; 16] = [
    MetricInfo {
        knee: Some(Metric::SourceReads),
        term: Some(TermId::SourceRead),
        ..exact(
            MetricId::SourceReads,
            "Source reads",
            "source reads",
            Unit::Count,
            "Calls on the simulated source (system calls), the final one that returns 0 included.",
        )
    },
    MetricInfo {
        term: Some(TermId::AppRead),
        ..exact(MetricId::AppReads, "App reads", "app reads", Unit::Count, "Read calls the application made on the reader.")
    },
    MetricInfo {
        term: Some(TermId::Pending),
        ..exact(
            MetricId::Polls,
            "Polls",
            "polls",
            Unit::Count,
            "Async readers: polls of the futures the application awaited, one per read plus one per Pending; below, how many answered Pending.",
        )
    },
    exact(
        MetricId::Bytes,
        "Bytes",
        "bytes",
        Unit::Bytes,
        "Bytes the application received (read lab), or that the writer held at the end or when an error came (write lab).",
    ),
    MetricInfo {
        knee: Some(Metric::BytesCopied),
        term: Some(TermId::Copy),
        ..exact(
            MetricId::BytesCopied,
            "Bytes copied",
            "bytes copied",
            Unit::Bytes,
            "Bytes moved between buffers inside the reader or writer.",
        )
    },
    MetricInfo {
        knee: Some(Metric::Allocations),
        term: Some(TermId::Allocation),
        ..exact(
            MetricId::Allocations,
            "Allocations",
            "allocations",
            Unit::Count,
            "Heap allocations during one run, from a counting allocator, and the bytes they asked for.",
        )
    },
    MetricInfo {
        term: Some(TermId::Allocation),
        ..exact(
            MetricId::Reallocs,
            "Reallocations",
            "reallocations",
            Unit::Count,
            "realloc calls in one run: a growable buffer that started too small.",
        )
    },
    MetricInfo {
        platform: Some(
            "Heap bytes follow the sizes of Rust types, which differ between a 32-bit wasm build and a 64-bit native one.",
        ),
        ..exact(
            MetricId::PeakBytes,
            "Peak heap",
            "peak heap",
            Unit::Bytes,
            "Most heap bytes live at once during the run, above where it started: buffers, blocks, Vecs.",
        )
    },
    exact(
        MetricId::PoolBlocks,
        "Pool blocks",
        "pool blocks",
        Unit::Count,
        "Chained reader: blocks allocated, and blocks the pool handed out again instead.",
    ),
    MetricInfo {
        id: MetricId::CpuMedianNs,
        label: "CPU time",
        short: "CPU time",
        unit: Unit::Ns,
        origin: Origin::Measured,
        about: "Measured time of one run in this tab: the median of the samples, with their spread (min–max) below.",
        platform: Some("Depends on the machine, the browser and what else runs: compare times taken on one machine."),
        knee: None,
        term: Some(TermId::Measured),
    },
    MetricInfo {
        id: MetricId::ModelledIoNs,
        label: "I/O (modelled)",
        short: "modelled I/O",
        unit: Unit::Ns,
        origin: Origin::Modelled,
        about: "Calls that reach the system (source reads, sink writes) × the cost per call you set, plus the bytes source reads return × the cost per KiB. Modelled, not measured.",
        platform: None,
        knee: None,
        term: Some(TermId::Modelled),
    },
    MetricInfo {
        id: MetricId::ModelledTotalNs,
        label: "Time per run",
        short: "time per run",
        unit: Unit::Ns,
        origin: Origin::Modelled,
        about: "Measured CPU median plus modelled I/O.",
        platform: Some("Its CPU part depends on the machine, the browser and what else runs."),
        knee: Some(Metric::Time),
        term: Some(TermId::Modelled),
    },
    MetricInfo {
        term: Some(TermId::Digest),
        ..exact(
            MetricId::Digest,
            "Digest",
            "digest",
            Unit::Text,
            "Hash of the bytes the application received or the sink accepted; every run must agree.",
        )
    },
    exact(MetricId::AppWrites, "App writes", "app writes", Unit::Count, "write_all calls the application made."),
    MetricInfo {
        term: Some(TermId::SystemCall),
        ..exact(MetricId::SinkWrites, "Sink writes", "sink writes", Unit::Count, "write calls on the sink (system calls).")
    },
    exact(MetricId::SinkFlushes, "Flushes", "flushes", Unit::Count, "flush calls on the sink."),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Id;

    #[test]
    fn the_table_lists_every_metric_id_once_in_order() {
        assert_eq!(METRICS.iter().map(|m| m.id).collect::<Vec<_>>(), MetricId::all());
    }

    #[test]
    fn every_sweep_metric_is_exactly_one_entry() {
        for m in Metric::all() {
            let entries: Vec<_> = METRICS.iter().filter(|e| e.knee == Some(m)).map(|e| e.id).collect();
            assert_eq!(entries.len(), 1, "{m:?} is named by {entries:?}");
        }
    }

    #[test]
    fn labels_are_distinct_and_short_forms_say_the_same() {
        for (i, a) in METRICS.iter().enumerate() {
            for b in &METRICS[i + 1..] {
                assert_ne!(a.label, b.label, "{:?} and {:?}", a.id, b.id);
            }
            assert!(!a.about.is_empty() && a.about.ends_with('.'), "{:?}", a.id);
            // Measured and modelled numbers say so wherever the page shows them.
            if a.origin == Origin::Exact {
                assert_eq!(a.short.to_lowercase(), a.label.to_lowercase(), "{:?}", a.id);
            }
        }
    }
}
