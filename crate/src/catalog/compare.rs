//! What a comparison says in words: one sentence per reader and metric
//! ([`Compared::says`]), the settings that differ, and what each kind of
//! spread is. The page and the CLI show these sentences as they are, so a
//! comparison reads the same in both; every ratio in them is computed.

use serde::Serialize;

use super::metrics::{Unit, METRICS};
use super::settings;
use crate::model::{Changed, Compared, Comparison, Id, Lab, MetricId, Outcome, SpreadKind, Timing};

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
