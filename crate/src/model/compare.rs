//! A comparison of two experiments, A and B: both reports, and per reader
//! and metric A, B, the difference, the ratio and what can be said of it.
//!
//! What a comparison may claim:
//! - a count is exact, so any difference is real: `less`, `more` or `tie`;
//! - a time is compared only as it was measured. Taken in one comparison
//!   (A and B in alternating rounds, [`Timing::Alternating`]), B is
//!   `faster` or `slower` only where the confidence interval of the ratio
//!   B ÷ A over the rounds lies beyond 1 by more than the margin; otherwise
//!   the two are the `same` within noise. Taken at different times (a saved
//!   result, a colleague's file: [`Timing::Separate`]) only a far larger
//!   difference is called, and nothing in ns across two machines;
//! - every spread says what it is ([`SpreadKind`]).
//!
//! Field names are an interface (the CLI's `--json`, the page): add fields,
//! rename none.

use serde::{Deserialize, Serialize};

use super::id::Id;
use super::params::ReaderKind;
use super::report::{MetricId, Report};
use super::sweep::{Metric, SweepReport};

/// One setting that differs between A and B, as a link writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Changed {
    /// The link key (without `b.`).
    pub key: String,
    /// A's value, as a link writes it (`8K`); `None` where A has none (a
    /// sweep's `from` without a sweep).
    pub a: Option<String>,
    /// B's value.
    pub b: Option<String>,
}

/// What a spread is: every `±` and every range the page or the CLI shows
/// beside a figure names one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SpreadKind {
    /// The median absolute deviation of one side's samples: half of them lie
    /// within ± this of their median (`Stats::mad`; the `±` beside a median).
    Mad,
    /// One side's fastest to slowest sample (`Stats::min`..`Stats::max`).
    Range,
    /// A confidence interval of the median of the per-round ratios B ÷ A
    /// (order statistics; its coverage is in [`Timing::Alternating`]).
    RatioInterval,
    /// Every ratio B ÷ A one side's samples allow against the other's
    /// (fastest over slowest to slowest over fastest): two measurements
    /// taken separately.
    RatioRange,
}

impl Id for SpreadKind {}

/// A spread, with what it is.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Spread {
    pub kind: SpreadKind,
    pub low: f64,
    pub high: f64,
}

/// What a comparison says of one metric, B against A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// An exact figure (a count, or one computed from counts) is the same.
    Tie,
    /// An exact figure is lower for B.
    Less,
    /// An exact figure is higher for B.
    More,
    /// B's time is lower beyond noise and the margin.
    Faster,
    /// B's time is higher beyond noise and the margin.
    Slower,
    /// The times are the same within noise (or the margin).
    Same,
    /// Not compared: no times (counts only), a side without the figure, or
    /// times in ns from two machines.
    NotCompared,
}

impl Id for Outcome {}

impl Outcome {
    /// Whether B has more of it (warm colours on the page), less (cool), or
    /// neither.
    pub fn direction(self) -> i8 {
        match self {
            Outcome::More | Outcome::Slower => 1,
            Outcome::Less | Outcome::Faster => -1,
            Outcome::Tie | Outcome::Same | Outcome::NotCompared => 0,
        }
    }
}

/// One metric of one pair of runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Compared {
    pub metric: MetricId,
    /// A's figure (a time: the median); `None` where A has no such figure
    /// (polls of a blocking reader, a time not taken).
    pub a: Option<f64>,
    pub b: Option<f64>,
    /// B − A.
    pub difference: Option<f64>,
    /// B ÷ A (for a time, the median of the per-round ratios when taken in
    /// alternating rounds); `None` where A is 0 or either side has none.
    pub ratio: Option<f64>,
    pub outcome: Outcome,
    /// The spread of A's figure (a time's [`SpreadKind::Mad`] over its rounds
    /// or samples); `None` for an exact figure.
    #[serde(default)]
    pub a_spread: Option<Spread>,
    #[serde(default)]
    pub b_spread: Option<Spread>,
    /// The ratio's interval the outcome was read from (`None` for exact figures).
    #[serde(default)]
    pub ratio_spread: Option<Spread>,
    /// A time as multiples of that side's copy floor ("× copy").
    #[serde(default)]
    pub a_x_copy: Option<f64>,
    #[serde(default)]
    pub b_x_copy: Option<f64>,
    /// Times measured separately on two machines: the outcome read from the
    /// × copy figures (ns do not carry across machines); `None` otherwise.
    #[serde(default)]
    pub x_copy_outcome: Option<Outcome>,
    /// One sentence a person reads: what B's figure is against A's, and on
    /// what grounds (filled in beside the link, `crate::api`).
    #[serde(default)]
    pub says: String,
}

/// A reader of A against a reader of B: the same reader where both run it,
/// otherwise the ones left over, in order (`rd=std` against `b.rd=chained`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PairedRun {
    /// A's reader; `None`: B's reader has no counterpart in A.
    pub a: Option<ReaderKind>,
    pub b: Option<ReaderKind>,
    /// One entry per metric, in the table's order; empty for an unpaired reader.
    pub metrics: Vec<Compared>,
}

/// How the two sides' times were taken, and so what their comparison may claim.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Timing {
    /// Nothing timed: counts only.
    Untimed,
    /// A and B in alternating rounds of one measurement (A then B, then B
    /// then A, …), one batched sample each per round.
    Alternating {
        rounds: u32,
        /// The nominal confidence of the ratio's interval (0.95).
        confidence: f64,
        /// Its exact coverage with this many rounds (order statistics of
        /// the median: at least `confidence`).
        coverage: f64,
        /// B is faster or slower only when the interval lies beyond 1 by
        /// more than this fraction (below 1 ÷ (1 + margin), above 1 + margin).
        margin: f64,
    },
    /// Two measurements taken at different times (a saved result, exported
    /// files): not alternating, so drift between them is not averaged out.
    Separate {
        /// Both name the same machine (kind, CPU or browser, cores, build).
        same_machine: bool,
        /// A time is faster or slower only when every ratio the two sides'
        /// samples allow lies beyond this factor (B at most A ÷ factor, or
        /// at least A × factor); in ns only on the same machine.
        factor: f64,
    },
}

/// Two experiments compared: both reports and the comparison of each reader
/// and metric.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Comparison {
    /// Always `compare`: tells a comparison from a lab's report.
    #[cfg_attr(test, ts(type = "\"compare\""))]
    pub kind: String,
    /// A's report (its times are the rounds' medians when alternating).
    pub a: Report,
    pub b: Report,
    /// The comparison link (A's link with B's `b.` keys).
    pub link: String,
    /// The settings that differ, in the link's key order; empty for A/A.
    pub changed: Vec<Changed>,
    /// A and B are the same experiment (display keys aside).
    pub same_experiment: bool,
    pub timing: Timing,
    pub readers: Vec<PairedRun>,
    /// The copy floors of A and B (`Report::copy_ns`), compared as a time.
    #[serde(default)]
    pub copy: Option<Compared>,
    /// Sentences on what the comparison rests on: how the times were taken,
    /// what carries across machines, counts that disagree.
    pub notes: Vec<String>,
    /// [`super::report::REPORT_FORMAT`].
    #[serde(default)]
    pub format: Option<u32>,
    /// Where A and B both have a sweep (a comparison link with `sweep`):
    /// both sweeps, their points run in alternating order, and the knee of
    /// each side paired. The rest of the comparison is of the single runs
    /// at the link's other settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub sweeps: Option<Box<SweepComparison>>,
}

/// The `kind` of a [`Comparison`].
pub const COMPARISON_KIND: &str = "compare";

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
    pub outcome: Outcome,
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
    pub changed: Vec<Changed>,
    /// Per reader and metric (and column, on two axes), A's knee and B's.
    pub knees: Vec<KneePair>,
}
