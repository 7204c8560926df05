//! What a comparison says in words: one sentence per reader and metric
//! ([`Compared::says`]), the settings that differ, and what each kind of
//! spread is. The page and the CLI show these sentences as they are, so a
//! comparison reads the same in both; every ratio in them is computed.

use serde::Serialize;

use super::metrics::{Unit, METRICS};
use super::settings;
use crate::engine::compare::SEPARATE_FACTOR;
use crate::engine::sweep::KNEE_TOLERANCE;
use crate::model::{
    Changed, Compared, Comparison, Id, KneePair, Lab, Metric, MetricId, Outcome, SpreadKind, SweepAxis, SweepComparison, Timing,
};

/// What a spread is, for a label beside it.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SpreadInfo {
    pub kind: SpreadKind,
    /// A label short enough to stand beside the figure: "MAD".
    pub label: &'static str,
    /// What it is, in a sentence (a tooltip, a footnote).
    pub about: &'static str,
    /// The fields of every `Stats` (a report's times) that are this spread:
    /// `mad` is the `±` beside a median, `min` and `max` its range.
    pub stats_fields: &'static [&'static str],
}

/// Every kind of spread, in the order of [`SpreadKind`].
pub const SPREADS: [SpreadInfo; 4] = [
    SpreadInfo {
        kind: SpreadKind::Mad,
        label: "MAD",
        about: "Median absolute deviation: half of the samples (or rounds) lie within ± this of their median.",
        stats_fields: &["mad"],
    },
    SpreadInfo {
        kind: SpreadKind::Range,
        label: "min–max",
        about: "The fastest to the slowest sample.",
        stats_fields: &["min", "max"],
    },
    SpreadInfo {
        kind: SpreadKind::RatioInterval,
        label: "CI",
        about: "A confidence interval of the median of the per-round ratios B ÷ A over alternating rounds, at the \
                comparison's confidence (order statistics: no assumption about the shape of the noise).",
        stats_fields: &[],
    },
    SpreadInfo {
        kind: SpreadKind::RatioRange,
        label: "sample range",
        about: "Every ratio B ÷ A that one side's samples allow against the other's (fastest over slowest to \
                slowest over fastest): two measurements taken separately.",
        stats_fields: &[],
    },
];

/// What the page says about `kind`.
pub fn spread(kind: SpreadKind) -> SpreadInfo {
    SPREADS[kind as usize]
}

/// The short label of a metric ("source reads").
fn short(metric: MetricId) -> &'static str {
    METRICS[metric as usize].short
}

/// A figure as the CLI and sentences write it: counts grouped
/// (`1,048,577`), times in ns, µs, ms or s.
pub fn figure(metric: MetricId, value: f64) -> String {
    match METRICS[metric as usize].unit {
        Unit::Ns => ns(value),
        _ => grouped(value),
    }
}

/// A whole number with thousands separators; negative numbers keep their sign.
fn grouped(value: f64) -> String {
    let n = value.round();
    let digits = format!("{:.0}", n.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0.0 {
        format!("−{out}")
    } else {
        out
    }
}

/// A time: `850 ns`, `12.4 µs`, `3.21 ms`, `1.20 s`.
pub fn ns(t: f64) -> String {
    let sign = if t < 0.0 { "−" } else { "" };
    let t = t.abs();
    let body = match t {
        t if t >= 1e9 => format!("{:.2} s", t / 1e9),
        t if t >= 1e6 => format!("{:.2} ms", t / 1e6),
        t if t >= 1e3 => format!("{:.1} µs", t / 1e3),
        t => format!("{t:.0} ns"),
    };
    format!("{sign}{body}")
}

/// A ratio with the digits it needs: `7.8`, `0.131`, `1024`.
pub fn ratio(r: f64) -> String {
    match r {
        r if r >= 100.0 => format!("{r:.0}"),
        r if r >= 10.0 => format!("{r:.1}"),
        r if r >= 0.1 => format!("{r:.2}"),
        r => format!("{r:.3}"),
    }
}

/// One figure's sentence, B against A.
pub fn says(m: &Compared, timing: &Timing) -> String {
    let what = short(m.metric);
    let (a, b) = match (m.a, m.b) {
        (Some(a), Some(b)) => (a, b),
        (Some(_), None) => return format!("only A has {what}"),
        (None, Some(_)) => return format!("only B has {what}"),
        (None, None) => return format!("{what}: not measured (counts only)"),
    };
    let (fa, fb) = (figure(m.metric, a), figure(m.metric, b));
    let times = m.ratio.map(|r| format!(" (B ÷ A = {})", ratio(r))).unwrap_or_default();
    match m.outcome {
        Outcome::Tie => format!("a tie: {fa} {what} each (exact)"),
        Outcome::Less => format!("B has fewer {what}: {fb} against {fa}{times}, exact"),
        Outcome::More => format!("B has more {what}: {fb} against {fa}{times}, exact"),
        Outcome::NotCompared => match (timing, m.x_copy_outcome, m.a_x_copy.zip(m.b_x_copy)) {
            (Timing::Separate { factor, .. }, Some(o), Some((xa, xb))) => format!(
                "on two machines, {fb} against {fa} in ns are not compared; as × copy, B {} against A {}: {}",
                ratio(xb),
                ratio(xa),
                called(o, &format!("beyond {factor}×"))
            ),
            _ => format!("{fb} against {fa}: not compared"),
        },
        Outcome::Faster | Outcome::Slower | Outcome::Same => {
            let interval = m.ratio_spread.map(|s| format!("{}–{}", ratio(s.low), ratio(s.high)));
            match *timing {
                Timing::Alternating { rounds, confidence, margin, .. } => {
                    let rule = match m.outcome {
                        Outcome::Faster => format!("below 1 ÷ {}", 1.0 + margin),
                        Outcome::Slower => format!("above {}", 1.0 + margin),
                        _ => format!("not beyond 1 ± {:.0}%", margin * 100.0),
                    };
                    let interval = interval.map(|i| format!("{:.0}% interval {i} ", confidence * 100.0)).unwrap_or_default();
                    format!("{}: {fb} against {fa}{times}; {interval}over {rounds} alternating rounds, {rule}", called(m.outcome, ""))
                }
                Timing::Separate { factor, .. } => {
                    let interval = interval.map(|i| format!("the samples allow {i}, ")).unwrap_or_default();
                    format!(
                        "measured at different times: {fb} against {fa}{times}; {interval}called only beyond {factor}×: {}",
                        called(m.outcome, "")
                    )
                }
                Timing::Untimed => format!("{fb} against {fa}"),
            }
        }
    }
}

/// An outcome of times in words.
fn called(o: Outcome, beyond: &str) -> String {
    match o {
        Outcome::Faster => "B faster".into(),
        Outcome::Slower => "B slower".into(),
        Outcome::Same if beyond.is_empty() => "same within noise".into(),
        Outcome::Same => format!("same within noise (not {beyond})"),
        other => other.id().replace('_', " "),
    }
}

/// A changed setting in words: "Buffer capacity 8K → 64K".
pub fn changed_words(lab: Lab, c: &Changed) -> String {
    let label = settings::settings().into_iter().find(|s| s.lab == lab && s.key == c.key).map_or(c.key.as_str(), |s| s.label);
    let value = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".into());
    format!("{label} ({}) {} → {}", c.key, value(&c.a), value(&c.b))
}

/// Fills in every sentence of a comparison.
pub fn describe(c: &mut Comparison) {
    let timing = c.timing;
    for pair in &mut c.readers {
        for m in &mut pair.metrics {
            m.says = says(m, &timing);
        }
    }
    if let Some(copy) = &mut c.copy {
        copy.says = says(copy, &timing);
    }
}

/// A sweep axis' value in words: "4 KiB" (sizes), "8" (streams).
fn axis_value(axis: SweepAxis, v: u64) -> String {
    if axis.in_bytes() {
        super::trace::size_words(v)
    } else {
        super::trace::grouped(v)
    }
}

/// The sentence of one knee pair of a sweep comparison along `axis`:
/// "A's knee: 4 KiB; B's knee: 64 KiB (B ÷ A = 16), exact". The ratio is
/// the pair's, computed by the engine.
pub fn knee_says(axis: SweepAxis, across: Option<SweepAxis>, k: &KneePair) -> String {
    let what = METRICS_OF_KNEES.iter().find(|(m, _)| *m == k.metric).map_or("", |(_, w)| *w);
    let column = match (across, k.across) {
        (Some(x), Some(v)) => format!(" at {} {}", x.id(), axis_value(x, v)),
        _ => String::new(),
    };
    let side = |who: &str, v: Option<u64>| match v {
        Some(v) => format!("{who}'s knee: {}", axis_value(axis, v)),
        None if k.metric == Metric::Time => format!("{who}: no knee (its times rise and fall again by more than their spread)"),
        None => format!("{who}: no knee ({who} does not run this reader)"),
    };
    let head = format!("{}, {what}{column}: {}; {}", k.reader.id(), side("A", k.a), side("B", k.b));
    let times = k.ratio.filter(|&r| r != 1.0).map(|r| format!(" (B ÷ A = {})", ratio(r))).unwrap_or_default();
    let pct = format!("{:.0}%", KNEE_TOLERANCE * 100.0);
    let tail = match (k.outcome, k.a.zip(k.b)) {
        (Outcome::Tie, _) => " — the same knee (exact counts)".to_string(),
        (Outcome::Less, _) if k.metric != Metric::Time => format!("{times}: B's knee comes earlier (exact counts, so the difference is real)"),
        (Outcome::More, _) if k.metric != Metric::Time => format!("{times}: B's knee comes later (exact counts, so the difference is real)"),
        (Outcome::Less | Outcome::More, Some((a, b))) => {
            let (who, other, at, from) = if b > a { ("B", "A", b, a) } else { ("A", "B", a, b) };
            format!(
                "{times}: B's knee comes {}, clearly: {who}'s every sample at {} lies more than {pct} below its every sample at {}, \
                 and {who}'s time relative to {other}'s falls there beyond {SEPARATE_FACTOR}×",
                if b > a { "later" } else { "earlier" },
                axis_value(axis, at),
                axis_value(axis, from)
            )
        }
        (Outcome::Same, Some((a, b))) if a == b => " — the same knee".to_string(),
        (Outcome::Same, Some((a, b))) => {
            let (who, other, at, from) = if b > a { ("B", "A", b, a) } else { ("A", "B", a, b) };
            format!(
                "{times}: same within noise (from {} to {}, {who}'s time relative to {other}'s does not fall beyond \
                 {SEPARATE_FACTOR}× in every ratio their samples allow, the factor points timed separately need)",
                axis_value(axis, from),
                axis_value(axis, at)
            )
        }
        _ => ": not compared".to_string(),
    };
    format!("{head}{tail}")
}

/// The metrics a knee is found on, as the sentences name them.
const METRICS_OF_KNEES: [(Metric, &str); 4] = [
    (Metric::SourceReads, "source reads"),
    (Metric::BytesCopied, "bytes copied"),
    (Metric::Allocations, "allocations"),
    (Metric::Time, "total time"),
];

/// Fills in every knee pair's sentence of a sweep comparison. Sweeps along
/// different axes get one pair's worth of why.
pub fn describe_sweeps(c: &mut SweepComparison) {
    let (axis, across) = (c.a.sweep.axis, c.a.sweep.across.map(|x| x.axis));
    let other = c.b.sweep.axis != axis || c.b.sweep.across.map(|x| x.axis) != across;
    for k in &mut c.knees {
        k.says = if other {
            format!("{}: the sweeps run along different axes ({} and {}), so their knees are not compared", k.reader.id(), axis.id(), c.b.sweep.axis.id())
        } else {
            knee_says(axis, across, k)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Spread;

    #[test]
    fn spreads_are_listed_in_order_with_labels() {
        for (i, s) in SPREADS.iter().enumerate() {
            assert_eq!(s.kind as usize, i);
            assert!(!s.label.is_empty() && s.about.ends_with('.'));
        }
        assert_eq!(SpreadKind::all().len(), SPREADS.len());
    }

    #[test]
    fn figures_group_counts_and_scale_times() {
        assert_eq!(figure(MetricId::SourceReads, 1_048_577.0), "1,048,577");
        assert_eq!(figure(MetricId::SourceReads, -1_000.0), "−1,000");
        assert_eq!(figure(MetricId::CpuMedianNs, 3_214_000.0), "3.21 ms");
        assert_eq!(ratio(0.1312), "0.13");
        assert_eq!(ratio(1024.4), "1024");
    }

    /// CPU time, 2.00 ms against 2.02 ms, called the same, with `ratio_spread`.
    fn two_ms(ratio_spread: Option<Spread>) -> Compared {
        Compared {
            metric: MetricId::CpuMedianNs,
            a: Some(2e6),
            b: Some(2.02e6),
            difference: Some(0.02e6),
            ratio: Some(1.01),
            outcome: Outcome::Same,
            a_spread: None,
            b_spread: None,
            ratio_spread,
            a_x_copy: None,
            b_x_copy: None,
            x_copy_outcome: None,
            says: String::new(),
        }
    }

    #[test]
    fn a_sentence_says_what_it_rests_on() {
        let alternating = Timing::Alternating { rounds: 21, confidence: 0.95, coverage: 0.973, margin: 0.05 };
        let base = two_ms(Some(Spread { kind: SpreadKind::RatioInterval, low: 0.98, high: 1.03 }));
        let s = says(&base, &alternating);
        assert_eq!(
            s,
            "same within noise: 2.02 ms against 2.00 ms (B ÷ A = 1.01); 95% interval 0.98–1.03 over 21 alternating rounds, not beyond 1 ± 5%"
        );
        let tie = Compared { metric: MetricId::SourceReads, a: Some(10487.0), b: Some(10487.0), outcome: Outcome::Tie, ..base };
        assert_eq!(says(&tie, &alternating), "a tie: 10,487 source reads each (exact)");
    }

    #[test]
    fn a_sentence_without_an_interval_leaves_its_clause_out() {
        // Two quick results paired as separate files carry no ratio interval.
        let separate = Timing::Separate { same_machine: true, factor: 3.0 };
        let m = two_ms(None);
        assert_eq!(
            says(&m, &separate),
            "measured at different times: 2.02 ms against 2.00 ms (B ÷ A = 1.01); called only beyond 3×: same within noise"
        );
        let alternating = Timing::Alternating { rounds: 21, confidence: 0.95, coverage: 0.973, margin: 0.05 };
        assert!(!says(&m, &alternating).contains("interval"), "{}", says(&m, &alternating));
    }
}
