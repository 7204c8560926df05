//! A lesson question's four choices, A to D, for a room that answers with
//! printed cards or raised hands (issue 48): the real answer and three
//! wrong ones, every one a real run of the same experiment with one thing
//! changed: another reader's count, another capacity's, the count without
//! the buffer. Each choice says what it is, so the reveal can explain every
//! wrong answer ("unbuffered Read: no buffer").
//!
//! What must stay true (`tests` below, proptest; `tests/choices.rs` against
//! the lessons' own results):
//! - the real answer is among the choices exactly once, and it is the
//!   number the page reads off the lesson's own results;
//! - the choices are distinct;
//! - a wrong choice is a count of a real run whenever the experiment offers
//!   three distinct ones; only then does a guess fill in, and it says so;
//! - the order is a function of the seed (the lesson's link): every screen
//!   showing a lesson letters it the same way.
//!
//! The same picking serves the quiz's count questions (`catalog::quiz`).

use serde::Serialize;

use super::lessons::{self, Answer};
use super::trace::{grouped, size_words};
use crate::engine::clock::Clock;
use crate::engine::source::SplitMix64;
use crate::engine::{content, experiment, readers, sweep, timeline};
use crate::link;
use crate::model::{key, max_streams, AllocCounts, Flavour, FlavourRun, Id, LessonId, Run, Metric, ParamError, Params, ReaderKind, Timeline, View, LIMITS};

/// The letter of one of a question's four choices, as the room's printed
/// cards carry them (A on a card's top edge, then B, C and D clockwise:
/// web/src/shared/cards.ts); the page's `Letter` type is generated from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Letter {
    A,
    B,
    C,
    D,
}

impl Letter {
    /// The four, in the order the choices are lettered.
    pub const ALL: [Letter; 4] = [Letter::A, Letter::B, Letter::C, Letter::D];
}

/// One choice of a lesson's question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Choice {
    pub letter: Letter,
    pub value: u64,
    /// The real answer (exactly one choice has it).
    pub real: bool,
    /// What the number is: the run it counts ("std's BufReader with its
    /// buffer at 16 KiB"), for the reveal to explain a wrong answer.
    pub what: String,
    /// The BufLab link (a fragment with its `#`) of the run or sweep that
    /// counts it, when there is one: `buflab --counts --json` on it gives
    /// the number (`tests/quiz.rs` checks the read lessons').
    pub link: Option<String>,
}

/// The four choices of one lesson's question, in the order the page letters them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LessonChoices {
    pub lesson: LessonId,
    pub choices: Vec<Choice>,
}

/// A number a choice can offer, and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub value: u64,
    pub what: String,
    /// The run that counts it (`Choice::link`).
    pub link: Option<String>,
}

impl Candidate {
    pub fn new(value: u64, what: impl Into<String>) -> Candidate {
        Candidate { value, what: what.into(), link: None }
    }

    /// This candidate, counted by the run of `p` (its run view, without the lesson).
    pub fn of(self, p: &Params) -> Candidate {
        Candidate { link: Some(run_link(p)), ..self }
    }
}

/// The link of `p`'s run: its run (or timeline) view, without a sweep, a
/// lesson or the quiz's keys.
pub fn run_link(p: &Params) -> String {
    let view = if p.view == View::Timeline { View::Timeline } else { View::Run };
    let plain = Params { quiz: false, qseed: 1, sweep: None, view, lesson: None, predict: false, present: false, ..p.clone() };
    format!("#{}", link::encode(&plain))
}

/// The real answer and up to `want - 1` wrong ones, in `rng`'s order; the
/// second item is true for the real answer. Wrong candidates are taken in
/// the order given (most plausible first); one whose number equals the
/// answer or a number already taken is passed over for the next (a tie: a
/// reader whose count is the same as the one asked about is no wrong
/// answer, and two cards with one number could not be told apart).
pub fn pick(real: Candidate, wrong: impl IntoIterator<Item = Candidate>, want: usize, rng: &mut SplitMix64) -> Vec<(Candidate, bool)> {
    let mut picked = vec![(real, true)];
    for w in wrong {
        if picked.len() >= want {
            break;
        }
        if picked.iter().all(|(p, _)| p.value != w.value) {
            picked.push((w, false));
        }
    }
    shuffle(&mut picked, rng);
    picked
}

/// Fisher–Yates with `rng`.
pub fn shuffle<T>(items: &mut [T], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// The four choices of lesson `id`'s question, from real runs of its own
/// link's experiment ([`choices_of`]).
pub fn lesson_choices(id: LessonId, clock: &dyn Clock) -> Result<LessonChoices, ParamError> {
    let lesson = lessons::lesson(id);
    choices_of(lesson.link, lesson.question.answer, clock)
}

/// A lesson's question's answer as the page hands it over (its
/// `question.answer` from lessons.gen.json, field by field): the wasm
/// builds take the lesson's link and its answer from the page rather than
/// carry the lessons' texts, and read it without a serde deserializer (an
/// internally tagged enum's cost the timing builds 30 KB before wasm-opt).
pub fn answer_from(kind: &str, reader: Option<&str>, field: Option<&str>, flavour: Option<&str>, metric: Option<&str>, across: Option<u64>) -> Result<Answer, ParamError> {
    let reader = || reader.and_then(ReaderKind::from_id).ok_or_else(|| missing("reader"));
    let field = || field.and_then(|name| COUNTS.iter().copied().find(|&f| f == name)).ok_or_else(|| missing("count"));
    Ok(match kind {
        "read" => Answer::Read { reader: reader()?, field: field()? },
        "write" => Answer::Write { flavour: flavour.and_then(Flavour::from_id).ok_or_else(|| missing("cursor"))?, field: field()? },
        "knee" => Answer::Knee {
            reader: reader()?,
            metric: match metric {
                Some("source_reads") => Metric::SourceReads,
                Some("bytes_copied") => Metric::BytesCopied,
                Some("allocations") => Metric::Allocations,
                Some("time") => Metric::Time,
                _ => return Err(missing("metric")),
            },
            across,
        },
        "fill_serves" => Answer::FillServes { reader: reader()? },
        _ => return Err(missing("kind of answer")),
    })
}

/// The counts a question can ask about by name (`Counted`).
const COUNTS: [&str; 10] = ["source_reads", "app_reads", "bytes", "bytes_copied", "source_bytes", "allocations", "frees", "alloc_bytes", "peak_bytes", "reallocs"];

/// The four choices of a lesson's question: `link`, the lesson's link
/// (with its `lesson` key), whose experiment is run with one thing changed
/// for each wrong choice; `answer`, where its answer is. The lesson's link
/// seeds the order, so every screen letters them the same way. `clock`
/// times nothing that matters here (the write lab runs with it, quick;
/// counts are exact).
pub fn choices_of(link_text: &str, answer: Answer, clock: &dyn Clock) -> Result<LessonChoices, ParamError> {
    let fragment = link_text.trim_start_matches('#');
    let params = link::decode(fragment).params;
    let id = params.lesson.ok_or_else(|| missing("lesson"))?;
    let (real, wrong) = candidates(answer, &params, clock)?;
    let mut rng = SplitMix64::new(fnv1a(format!("#{fragment}").as_bytes()));
    let mut picked = pick(real.clone(), wrong, Letter::ALL.len(), &mut rng);
    if picked.len() < Letter::ALL.len() {
        // The experiment offered fewer than three distinct numbers: guesses
        // fill in, named as guesses, never equal to a number already offered.
        let mut taken: Vec<u64> = picked.iter().map(|(c, _)| c.value).collect();
        let mut extra = Vec::new();
        for v in guesses(real.value) {
            if taken.len() >= Letter::ALL.len() {
                break;
            }
            if !taken.contains(&v) {
                taken.push(v);
                extra.push(Candidate::new(v, "a guess, not a run: the experiment offers no other count"));
            }
        }
        picked = pick(real, picked.into_iter().filter(|(_, r)| !r).map(|(c, _)| c).chain(extra), Letter::ALL.len(), &mut rng);
    }
    Ok(LessonChoices {
        lesson: id,
        choices: picked
            .into_iter()
            .zip(Letter::ALL)
            .map(|((c, real), letter)| Choice { letter, value: c.value, real, what: c.what, link: c.link })
            .collect(),
    })
}

/// A 64-bit FNV-1a hash: the seed of a lesson's letters from its link.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Numbers near `real` a person might guess (only used when the experiment offers too few).
fn guesses(real: u64) -> impl Iterator<Item = u64> {
    [real * 2, real / 2, real + 1, real.saturating_sub(1), real * 4, real + 2].into_iter().chain((1..).map(move |k| real + 10 * k))
}

/// The real answer of a lesson's question and the wrong candidates, most
/// plausible first (repeats and the answer itself included: `pick` drops them).
pub fn candidates(answer: Answer, params: &Params, clock: &dyn Clock) -> Result<(Candidate, Vec<Candidate>), ParamError> {
    match answer {
        // The program build (the write lab, no read workload) answers the
        // write lab's lesson only: the read lessons' branches would add to
        // its download what it never runs (the timing builds answer them).
        #[cfg(all(feature = "write-lab", not(feature = "workloads")))]
        Answer::Read { .. } | Answer::Knee { .. } | Answer::FillServes { .. } => {
            Err(ParamError { key: key::LAB, message: "the read lab's lessons are answered by the timing build of their workload".into() })
        }
        #[cfg(any(feature = "workloads", not(feature = "write-lab")))]
        Answer::Read { reader, field } => read_candidates(params, reader, field),
        #[cfg(not(feature = "write-lab"))]
        Answer::Write { .. } => {
            let _ = clock;
            Err(ParamError { key: key::LAB, message: "the write lab's lessons are answered by the build with the write lab".into() })
        }
        #[cfg(feature = "write-lab")]
        Answer::Write { flavour, field } => {
            use super::cursors;
            use crate::engine::{clock::Sampling, write};
            let report = write::run(params, clock, Sampling::QUICK)?;
            let value = |f: &FlavourRun| field_of(f, field);
            let own = report.flavours.iter().find(|f| f.flavour == flavour).and_then(value).ok_or_else(|| missing(field))?;
            let label = cursors::flavour(flavour).label;
            let real = Candidate::new(own, format!("{label}, as the lesson runs it")).of(params);
            // Another cursor's count of the same thing.
            let mut wrong: Vec<Candidate> = report
                .flavours
                .iter()
                .filter(|f| f.flavour != flavour)
                .filter_map(|f| value(f).map(|v| Candidate::new(v, format!("{}, another cursor", cursors::flavour(f.flavour).label)).of(params)))
                .collect();
            // The same cursor starting with another capacity.
            for init in [64, 1024, 16, 4096, 256] {
                let mut p = Params { ..params.clone() };
                p.write.flavours = vec![flavour];
                p.write.init_cap = init;
                if init == params.write.init_cap || p.check().is_err() {
                    continue;
                }
                if let Some(v) = write::run(&p, clock, Sampling::QUICK)?.flavours.first().and_then(value) {
                    wrong.push(Candidate::new(v, format!("{label} starting with {} of capacity", size_words(init))).of(&p));
                }
            }
            Ok((real, wrong))
        }
        #[cfg(any(feature = "workloads", not(feature = "write-lab")))]
        Answer::Knee { reader, metric, across } => knee_candidates(params, reader, metric, across),
        #[cfg(any(feature = "workloads", not(feature = "write-lab")))]
        Answer::FillServes { reader } => {
            let base = Params { sweep: None, ..params.experiment() };
            let label = readers::info(reader).label;
            let own = served(&base, reader).ok_or_else(|| missing("fill_serves"))?;
            let timeline_of = |p: &Params| Params { view: View::Timeline, ..p.clone() };
            let real = Candidate::new(own, format!("{label} with its buffer at {}, as the lesson runs it", size_words(base.cap))).of(&timeline_of(&base));
            let mut wrong = Vec::new();
            if reader != ReaderKind::Unbuffered {
                if let Some(n) = served(&base, ReaderKind::Unbuffered) {
                    wrong.push(Candidate::new(n, "unbuffered Read: no buffer, so every application read goes to the source").of(&timeline_of(&base)));
                }
            }
            for cap in other_caps(&base) {
                let p = Params { cap, ..base.clone() };
                if let Some(n) = served(&p, reader) {
                    wrong.push(Candidate::new(n, format!("{label} with its buffer at {}", size_words(cap))).of(&timeline_of(&p)));
                }
            }
            Ok((real, wrong))
        }
    }
}

/// The counts of a read-lab question: the lesson's reader, the reader
/// without a buffer, the lesson's other readers, other capacities.
pub fn read_candidates(params: &Params, reader: ReaderKind, field: &str) -> Result<(Candidate, Vec<Candidate>), ParamError> {
    let base = Params { sweep: None, ..params.experiment() };
    // `p`'s run of reader `r` alone, and its count: a candidate with its link.
    let count = |p: &Params, r: ReaderKind, what: String| -> Result<Option<Candidate>, ParamError> {
        let p = Params { readers: vec![r], ..p.clone() };
        Ok(experiment::counts(&p)?.first().and_then(|run| field_of(run, field)).map(|n| Candidate::new(n, what).of(&p)))
    };
    let label = readers::info(reader).label;
    let real = count(&base, reader, format!("{label}{}, as this experiment runs it", cap_words(reader, base.cap)))?.ok_or_else(|| missing(field))?;
    let mut wrong = Vec::new();
    // The count without the buffer.
    if reader != ReaderKind::Unbuffered {
        wrong.extend(count(&base, ReaderKind::Unbuffered, "unbuffered Read: no buffer, every read goes to the source".into())?);
    }
    // Another reader's.
    for &r in base.readers.iter().filter(|&&r| r != reader && r != ReaderKind::Unbuffered) {
        wrong.extend(count(&base, r, format!("{}{}, another reader", readers::info(r).label, cap_words(r, base.cap)))?);
    }
    // Another capacity's: the reader asked about, or (asked about the
    // unbuffered reader) the lesson's buffered readers.
    let buffered: Vec<ReaderKind> = if uses_cap(reader) { vec![reader] } else { base.readers.iter().copied().filter(|&r| uses_cap(r)).collect() };
    for cap in other_caps(&base) {
        for &r in &buffered {
            wrong.extend(count(&Params { cap, ..base.clone() }, r, format!("{} with its buffer at {}", readers::info(r).label, size_words(cap)))?);
        }
    }
    // Last, a count that does not go with the buffer (allocations of a
    // pool, say) still goes with the stream: half and twice its length.
    for len in [base.len / 2, base.len * 2] {
        let p = Params { len, ..base.clone() };
        if len != base.len && p.check().is_ok() {
            wrong.extend(count(&p, reader, format!("{label} reading {} instead of {}", size_words(len), size_words(base.len)))?);
        }
    }
    Ok((real, wrong))
}

/// The knee along the lesson's sweep of one reader's metric (in the column
/// `across`), and the wrong ones: the knee of the lesson's other readers,
/// the knee in the other columns, the axis values next to the knee.
#[cfg_attr(all(feature = "write-lab", not(feature = "workloads")), allow(dead_code))] // the program build: write lab only
fn knee_candidates(params: &Params, reader: ReaderKind, metric: Metric, across: Option<u64>) -> Result<(Candidate, Vec<Candidate>), ParamError> {
    let Some(s) = params.sweep else { return Err(missing("sweep")) };
    let show = |v: u64| if s.axis.in_bytes() { size_words(v) } else { grouped(v) };
    let column = |a: Option<u64>| match (s.across, a) {
        (Some(x), Some(c)) => format!(" where {} is {}", x.axis.id(), if x.axis.in_bytes() { size_words(c) } else { grouped(c) }),
        _ => String::new(),
    };
    // One reader's curve along the first axis in one column: (values, counts).
    let curve = |r: ReaderKind, a: Option<u64>| -> Result<(Vec<u64>, Vec<f64>), ParamError> {
        let mut values = Vec::new();
        let mut counts = Vec::new();
        for (v, _) in s.grid().into_iter().filter(|&(_, c)| c == a) {
            let p = Params { readers: vec![r], ..s.apply(params, v, a).experiment() };
            if p.streams > max_streams(p.len, p.cap) {
                continue;
            }
            values.push(v);
            counts.push(experiment::counts(&p)?.first().and_then(|run| metric.count(run)).unwrap_or(0) as f64);
        }
        Ok((values, counts))
    };
    let knee_of = |r: ReaderKind, a: Option<u64>| -> Result<Option<u64>, ParamError> {
        let (values, counts) = curve(r, a)?;
        Ok(sweep::knee(&counts).map(|i| values[i]))
    };
    let label = readers::info(reader).label;
    let sweep_link = format!("#{}", link::encode(&Params { quiz: false, qseed: 1, lesson: None, predict: false, present: false, view: View::Sweep, ..params.clone() }));
    let at = |c: Candidate| Candidate { link: Some(sweep_link.clone()), ..c };
    let (values, counts) = curve(reader, across)?;
    let k = sweep::knee(&counts).ok_or_else(|| missing("knee"))?;
    let real = at(Candidate::new(values[k], format!("{label}'s knee{}", column(across))));
    let mut wrong = Vec::new();
    // Another reader's knee in the same column.
    for &r in params.readers.iter().filter(|&&r| r != reader) {
        if let Some(v) = knee_of(r, across)? {
            wrong.push(at(Candidate::new(v, format!("{}'s knee{}", readers::info(r).label, column(across)))));
        }
    }
    // The knee in another column (another chunk size's, another rate's).
    let mut others = s.across_values();
    others.retain(|&c| Some(c) != across);
    // The columns nearest the one asked about first.
    others.sort_by_key(|&c| across.map_or(0, |a| (c as i128 - a as i128).unsigned_abs()));
    for c in others {
        if let Some(v) = knee_of(reader, Some(c))? {
            wrong.push(at(Candidate::new(v, format!("{label}'s knee{}", column(Some(c))))));
        }
    }
    // The points either side of the knee: still falling before it, flat after.
    for (i, words) in [
        (k.checked_sub(1), "still falling"),
        (Some(k + 1), "no fewer than at the knee"),
        (k.checked_sub(2), "still falling"),
        (Some(k + 2), "no fewer than at the knee"),
    ] {
        if let Some(i) = i.filter(|&i| i < values.len()) {
            wrong.push(at(Candidate::new(
                values[i],
                format!("{} {}: {label} makes {} source reads there, {words}", s.axis.id(), show(values[i]), grouped(counts[i] as u64)),
            )));
        }
    }
    Ok((real, wrong))
}

/// How many application reads one fill of `reader`'s buffer serves in its
/// timeline (from the step of the first fill to the step before the next);
/// without a buffer, from one source read to the next.
#[cfg_attr(all(feature = "write-lab", not(feature = "workloads")), allow(dead_code))] // the program build: write lab only
fn served(params: &Params, reader: ReaderKind) -> Option<u64> {
    let data = content::generate(params);
    let t: Timeline = timeline::record(params, reader, &data);
    let steps: Vec<usize> = if uses_cap(reader) {
        t.fills()
    } else {
        t.ops.iter().enumerate().filter(|(_, op)| op.source_reads > 0).map(|(i, _)| i).collect()
    };
    (steps.len() >= 2).then(|| (steps[1] - steps[0]) as u64)
}

/// Capacities to try besides the experiment's, nearest first, within the
/// limits and the job-size rule (a link could ask for each). Far ones too:
/// where a reader gets one piece per source read, every capacity above the
/// largest piece counts the same (a tie, passed over), and only a buffer
/// smaller than the pieces changes the count.
fn other_caps(base: &Params) -> Vec<u64> {
    let c = base.cap;
    [c * 2, c / 2, c * 4, c / 4, c * 8, c / 8, c / 16, c / 32, c / 64, c * 16]
        .into_iter()
        .filter(|&cap| cap != base.cap && LIMITS.cap.contains(cap) && base.streams <= max_streams(base.len, cap))
        .collect()
}

/// A count of a run or a cursor's run by its name in the report's JSON
/// (`source_reads`, `alloc_bytes`): named fields, not the JSON itself, so
/// the wasm builds carry no JSON values (a `Value` of a whole run cost the
/// program build 35 KB gzipped). `tests` hold the two to each other.
pub trait Counted {
    fn field(&self, name: &str) -> Option<u64>;
}

fn alloc_field(a: &AllocCounts, name: &str) -> Option<u64> {
    Some(match name {
        "allocations" => a.allocations,
        "frees" => a.frees,
        "alloc_bytes" => a.alloc_bytes,
        "peak_bytes" => a.peak_bytes,
        "reallocs" => a.reallocs,
        _ => return None,
    })
}

impl Counted for Run {
    fn field(&self, name: &str) -> Option<u64> {
        match name {
            "source_reads" => Some(self.source_reads),
            "app_reads" => Some(self.app_reads),
            "bytes" => Some(self.bytes),
            "bytes_copied" => Some(self.bytes_copied),
            "source_bytes" => Some(self.source_bytes),
            _ => alloc_field(&self.alloc, name),
        }
    }
}

impl Counted for FlavourRun {
    fn field(&self, name: &str) -> Option<u64> {
        match name {
            "bytes" => Some(self.bytes),
            _ => alloc_field(&self.alloc, name),
        }
    }
}

fn field_of(run: &impl Counted, field: &str) -> Option<u64> {
    run.field(field)
}

fn missing(what: &str) -> ParamError {
    ParamError { key: key::LESSON, message: format!("the lesson's experiment has no {what} to ask about") }
}

fn uses_cap(r: ReaderKind) -> bool {
    readers::info(r).keys.contains(&key::CAP)
}

fn cap_words(r: ReaderKind, cap: u64) -> String {
    if uses_cap(r) {
        format!(" with its buffer at {}", size_words(cap))
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::clock::InstantClock;
    use crate::engine::write;

    fn values(c: &LessonChoices) -> Vec<u64> {
        c.choices.iter().map(|c| c.value).collect()
    }

    #[test]
    fn every_lesson_has_four_distinct_choices_with_its_answer_once_and_each_says_what_it_is() {
        for l in &lessons::LESSONS {
            let c = lesson_choices(l.id, &InstantClock::default()).unwrap();
            assert_eq!(c.choices.iter().map(|c| c.letter).collect::<Vec<_>>(), Letter::ALL, "{}", l.id.id());
            let mut v = values(&c);
            v.sort();
            v.dedup();
            assert_eq!(v.len(), 4, "{}: {c:?}", l.id.id());
            assert_eq!(c.choices.iter().filter(|c| c.real).count(), 1, "{}", l.id.id());
            for ch in &c.choices {
                assert!(!ch.what.is_empty());
                assert!(!ch.what.starts_with("a guess"), "{}: every wrong choice is a real run: {c:?}", l.id.id());
            }
        }
    }

    #[test]
    fn one_byte_offers_no_buffer_and_other_capacities_real_counts() {
        let c = lesson_choices(LessonId::OneByte, &InstantClock::default()).unwrap();
        let mut v = values(&c);
        v.sort();
        // std's 129; unbuffered's 1,048,577 (one per byte and the final 0);
        // std at 16 KiB: 65 source reads; at 4 KiB: 257.
        assert_eq!(v, [65, 129, 257, 1_048_577]);
        let unbuffered = c.choices.iter().find(|c| c.value == 1_048_577).unwrap();
        assert!(unbuffered.what.contains("no buffer"), "{unbuffered:?}");
        assert!(c.choices.iter().any(|c| c.what.contains("16 KiB")), "{c:?}");
    }

    #[test]
    fn a_reader_that_ties_with_the_answer_is_passed_over_for_the_next_variant() {
        // knee-grid: the chained reader's knee is std's (the diagonal), so it is no wrong answer.
        let c = lesson_choices(LessonId::KneeGrid, &InstantClock::default()).unwrap();
        assert!(!c.choices.iter().any(|c| c.what.contains("chained")), "{c:?}");
        // no-help: std and unbuffered tie on source reads, but the question is about bytes allocated.
        let mut rng = SplitMix64::new(1);
        let p = pick(Candidate::new(5, "real"), [Candidate::new(5, "tie"), Candidate::new(6, "six"), Candidate::new(6, "six again"), Candidate::new(7, "seven")], 4, &mut rng);
        let whats: Vec<&str> = p.iter().map(|(c, _)| c.what.as_str()).collect();
        assert!(!whats.contains(&"tie") && !whats.contains(&"six again"), "{whats:?}");
        assert_eq!(p.len(), 3);
    }


    #[test]
    fn a_count_by_name_is_the_reports_json_field_of_that_name() {
        let p = link::decode("v=1&len=64K&chunk=poor&cap=1K&rs=1&rd=unbuffered,std,chained&wl=fixed").params;
        for run in experiment::counts(&p).unwrap() {
            let json = serde_json::to_value(&run).unwrap();
            for name in COUNTS {
                assert_eq!(run.field(name), json[name].as_u64(), "{name}");
            }
            assert_eq!(run.field("digest"), None);
        }
        let w = write::run(&link::decode("lab=write&icap=0").params, &InstantClock::default(), crate::engine::clock::Sampling::QUICK).unwrap();
        for f in &w.flavours {
            let json = serde_json::to_value(f).unwrap();
            for name in ["bytes", "allocations", "frees", "alloc_bytes", "peak_bytes", "reallocs"] {
                assert_eq!(f.field(name), json[name].as_u64(), "{name}");
            }
        }
        // Every field a lesson asks about has its name here.
        for l in &lessons::LESSONS {
            match l.question.answer {
                Answer::Read { field, .. } => assert!(experiment::counts(&p).unwrap()[0].field(field).is_some(), "{field}"),
                Answer::Write { field, .. } => assert!(w.flavours[0].field(field).is_some(), "{field}"),
                _ => {}
            }
        }
    }

    #[test]
    fn the_page_hands_over_each_lessons_answer_as_the_lessons_serialize_it() {
        for l in &lessons::LESSONS {
            let json = serde_json::to_value(l.question.answer).unwrap();
            let text = |k: &str| json.get(k).and_then(|v| v.as_str());
            let back = answer_from(text("kind").unwrap(), text("reader"), text("field"), text("flavour"), text("metric"), json.get("across").and_then(|v| v.as_u64())).unwrap();
            assert_eq!(serde_json::to_value(back).unwrap(), json, "{}", l.id.id());
        }
        assert!(answer_from("read", Some("std"), Some("digest"), None, None, None).is_err());
        assert!(answer_from("knee", Some("std"), None, None, Some("speed"), None).is_err());
        assert!(answer_from("guess", Some("std"), None, None, None, None).is_err());
    }

    #[test]
    fn the_same_lesson_gets_the_same_letters() {
        let c = || lesson_choices(LessonId::OwnLog, &InstantClock::default()).unwrap();
        assert_eq!(c(), c());
    }

    #[test]
    fn the_seed_moves_the_answer_to_every_letter() {
        let mut at = std::collections::BTreeSet::new();
        for seed in 0..64 {
            let p = pick(Candidate::new(7, "real"), [1, 2, 3].map(|w| Candidate::new(w, "w")), 4, &mut SplitMix64::new(seed));
            at.insert(p.iter().position(|(_, r)| *r).unwrap());
        }
        assert_eq!(at.into_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
    }
}

// (proptest is a native dev-dependency only: the wasm glue's tests build this crate for wasm32.)
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_real_answer_is_picked_exactly_once_among_distinct_numbers_in_the_seeds_order(
            real in 0u64..50,
            wrong in proptest::collection::vec(0u64..50, 0..12),
            seed in any::<u64>(),
        ) {
            let run = |seed: u64| pick(Candidate::new(real, "real"), wrong.iter().map(|&w| Candidate::new(w, format!("w{w}"))), 4, &mut SplitMix64::new(seed));
            let p = run(seed);
            prop_assert_eq!(p.iter().filter(|(_, r)| *r).count(), 1);
            prop_assert_eq!(p.iter().filter(|(c, _)| c.value == real).count(), 1);
            prop_assert!(p.iter().all(|(c, r)| *r == (c.what == "real")));
            let mut v: Vec<u64> = p.iter().map(|(c, _)| c.value).collect();
            v.sort();
            v.dedup();
            prop_assert_eq!(v.len(), p.len());
            let mut distinct = wrong.clone();
            distinct.retain(|&w| w != real);
            distinct.sort();
            distinct.dedup();
            prop_assert_eq!(p.len(), 4.min(1 + distinct.len()));
            prop_assert_eq!(p, run(seed));
        }
    }
}
