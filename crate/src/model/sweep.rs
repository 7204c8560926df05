//! A sweep's result: one report per point (axis value, or pair of values
//! on two axes) and the knees. Field names are
//! an interface, as `Report`'s are.

use serde::{Deserialize, Serialize};

use super::id::Id;
use super::params::{Params, ReaderKind, Sweep};
use super::report::{Report, Run};

/// What a knee is measured on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Calls on the source (exact).
    SourceReads,
    /// Bytes moved between buffers (exact).
    BytesCopied,
    /// Heap allocations per run (exact).
    Allocations,
    /// Measured CPU median + modelled I/O (source reads × `sys`).
    Time,
}

impl Id for Metric {}

impl Metric {
    /// The run's exact count for this metric; `None` for time (measured).
    pub fn count(self, run: &Run) -> Option<u64> {
        match self {
            Metric::SourceReads => Some(run.source_reads),
            Metric::BytesCopied => Some(run.bytes_copied),
            Metric::Allocations => Some(run.alloc.allocations),
            Metric::Time => None,
        }
    }
}

/// Where a bigger value stops paying, for one reader and one metric.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Knee {
    pub reader: ReaderKind,
    pub metric: Metric,
    /// The knee's axis value.
    pub value: u64,
    /// The metric at the knee.
    pub at_knee: f64,
    /// The sweep's best (smallest) value of the metric.
    pub best: f64,
    /// True when the knee is the first point: no bigger value in the range
    /// pays at all.
    pub first: bool,
    /// In a two-axis sweep, the second axis' value this knee (along the
    /// first axis) is found at: one knee per column of the grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub across: Option<u64>,
}

/// One measured point of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SweepPoint {
    /// The axis value.
    pub value: u64,
    /// In a two-axis sweep, the second axis' value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub across: Option<u64>,
    /// The experiment's report at this value (its `params` have no sweep).
    pub report: Report,
}

/// A whole sweep: what the CLI's `--json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SweepReport {
    /// The swept experiment, sweep included.
    pub params: Params,
    pub sweep: Sweep,
    /// Every value of the (first) axis, ascending.
    pub values: Vec<u64>,
    /// In a two-axis sweep, every value of the second axis, ascending
    /// (empty for one axis).
    #[serde(default)]
    pub across_values: Vec<u64>,
    /// How many points the sweep has (`values` × `across_values`); the points
    /// done so far are a prefix of them, in the order of `Sweep::grid`.
    #[serde(default)]
    pub total: usize,
    pub points: Vec<SweepPoint>,
    /// One per reader and metric, on axes where a knee means something.
    pub knees: Vec<Knee>,
    /// True when every point is done.
    pub complete: bool,
    /// True when every reader at every point delivered exactly the source's bytes.
    pub digests_agree: bool,
    /// The canonical link of the sweep.
    pub link: String,
}

/// One knee of a sweep comparison: A's knee and B's for one reader and
/// metric (and, on two axes, one column), and what can be said of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct KneePair {
    pub reader: ReaderKind,
    pub metric: Metric,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub across: Option<u64>,
    /// A's knee (its axis value); `None` where A's curve has none (a time
    /// curve that zig-zags, a reader A does not run).
    pub a: Option<u64>,
    /// B's knee.
    pub b: Option<u64>,
    /// B's knee ÷ A's, where both have one.
    pub ratio: Option<f64>,
    /// For counts (exact): `tie`, or `less` / `more` where B's knee lies at
    /// a smaller / larger value. For time: `same` within noise unless the
    /// side whose knee lies further along clearly gains between the two
    /// knees (every sample more than the knee tolerance apart, the rule the
    /// time knee itself is found by) and its time relative to the other
    /// side's falls there beyond the factor of separate measurements (3×):
    /// then `less` / `more`. `not_compared` where a side has no knee or the
    /// sweeps run along different axes.
    pub outcome: super::compare::Outcome,
    /// The comparison in words: "A's knee: 4 KiB; B's knee: 64 KiB …".
    pub says: String,
}

/// Two sweeps compared (a comparison link whose A has a sweep): both sweeps,
/// their points run in alternating order, and the knee of each side paired.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SweepComparison {
    pub a: SweepReport,
    pub b: SweepReport,
    /// The canonical comparison link (A's link, then B's `b.` keys).
    pub link: String,
    /// The settings that differ, in the key table's order.
    pub changed: Vec<super::compare::Changed>,
    /// Per reader and metric (and column, on two axes), A's knee and B's.
    pub knees: Vec<KneePair>,
}
