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
