//! The quiz the engine writes (`quiz=on` on any read-lab link): questions
//! about the link's own experiment, each answered by a real run.
//!
//! What must stay true:
//! - every answer is a count of a real counted pass: the link's own run, or
//!   the same experiment with one setting changed (another capacity, no
//!   buffer, the sweep's points), never arithmetic on the link's count. The
//!   wrong choices are real runs too where one exists (another reader's
//!   count, another capacity's, the count without the buffer); only when
//!   those run out is a halved or doubled count offered as a plausible
//!   wrong guess, and never when it equals the answer;
//! - the real answer is among the choices exactly once; choices are distinct;
//! - the quiz is a function of the link: the same link (its `qseed`
//!   included) gives the same questions in the same order, in every browser
//!   and in the CLI (`buflab quiz LINK`); `qseed` picks the readers asked
//!   about and the order of the choices, never a result;
//! - each question's `link` is a BufLab link (without the quiz keys) to the
//!   run or sweep that shows its answer.
//!
//! `tests/quiz.rs` checks every answer against the CLI's own runs on every
//! lesson link.

use serde::Serialize;

use super::choices::{self, Candidate};
use super::trace::{grouped, size_words};
use crate::engine::readers;
use crate::engine::source::SplitMix64;
use crate::engine::{experiment, sweep};
use crate::link;
use crate::model::{format_size, key, Lab, Id, ParamError, Params, ReaderKind, View, LIMITS};

/// A quiz about one link's experiment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Quiz {
    /// The quiz's seed (the link's `qseed`).
    pub qseed: u64,
    pub questions: Vec<QuizQuestion>,
    /// Why the quiz has no questions, in words (`None` when it has some).
    pub note: Option<String>,
}

/// What a question asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum QuizKind {
    /// How many source reads one reader makes.
    Reads,
    /// Which of two readers makes fewer source reads.
    Fewer,
    /// Where the knee of one reader's source reads is along the sweep.
    Knee,
    /// One reader's source reads with its buffer twice as large.
    Double,
}

/// One question, its choices, its answer and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct QuizQuestion {
    pub kind: QuizKind,
    pub text: String,
    /// The choices as the page shows them (A, B, C, D in this order).
    pub choices: Vec<String>,
    /// The index of the right choice in `choices`.
    pub answer: usize,
    /// What each choice is, in the order of `choices`: for a count, the run
    /// that makes it ("unbuffered Read: no buffer"), so a wrong pick is
    /// explained (`catalog::choices`, as a lesson's cards are).
    pub whats: Vec<String>,
    /// The answer explained, the run's figures quoted.
    pub why: String,
    /// The BufLab link (a fragment with its `#`) to the run or sweep that shows why.
    pub link: String,
    /// The reader asked about.
    pub reader: ReaderKind,
    /// The figure the answer rests on: a count of source reads (`reads`,
    /// `double`), the knee's axis value (`knee`), or for `fewer` the index
    /// of the reader with fewer reads in `[first, second]` (2: the same).
    pub value: u64,
}

/// The quiz of `params` (a read-lab experiment; the write lab gets a quiz
/// with no questions and a note). Runs the counted pass only: counts are
/// exact, so no timing is needed.
pub fn quiz(params: &Params) -> Result<Quiz, ParamError> {
    let mut rng = SplitMix64::new(params.qseed ^ 0x5155_495a); // "QUIZ"
    let mut quiz = Quiz { qseed: params.qseed, questions: Vec::new(), note: None };
    if params.lab != Lab::Read {
        quiz.note = Some("The quiz asks about the read lab's runs; this link shows the write lab.".into());
        return Ok(quiz);
    }
    let base = Params { sweep: None, ..params.experiment() };
    let runs = experiment::counts(&base)?;
    let reads_of = |kind: ReaderKind| runs.iter().find(|r| r.reader == kind).map(|r| r.source_reads);
    let readers = &base.readers;

    // How many source reads will this reader make?
    let asked = readers[rng.below(readers.len() as u64) as usize];
    // The wrong ones as a lesson's cards have them (catalog::choices): the
    // count without the buffer, another reader's, another capacity's.
    let (real, wrong) = choices::read_candidates(&base, asked, "source_reads")?;
    let answer = real.value;
    let label = readers::info(asked).label;
    let run_link = explained(&base);
    if let Some((choices, whats, index)) = numeric_choices(real, wrong, &mut rng) {
        quiz.questions.push(QuizQuestion {
            kind: QuizKind::Reads,
            text: format!(
                "How many source reads does {label} make for {} read {} at a time{}?",
                format_size(base.len),
                bytes_word(base.rs),
                capacity_words(asked, base.cap)
            ),
            choices,
            answer: index,
            whats,
            why: format!("The run makes {} source reads with {label}{}.", grouped(answer), others_words(&runs, asked)),
            link: run_link.clone(),
            reader: asked,
            value: answer,
        });
    }

    // Which of two readers makes fewer source reads?
    if readers.len() >= 2 {
        let i = rng.below(readers.len() as u64) as usize;
        let j = (i + 1 + rng.below(readers.len() as u64 - 1) as usize) % readers.len();
        let (a, b) = (readers[i], readers[j]);
        let (na, nb) = (reads_of(a).unwrap_or(0), reads_of(b).unwrap_or(0));
        let value = match na.cmp(&nb) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => 2,
        };
        let (la, lb) = (readers::info(a).label, readers::info(b).label);
        quiz.questions.push(QuizQuestion {
            kind: QuizKind::Fewer,
            text: format!("Which makes fewer source reads here: {la} or {lb}?"),
            choices: vec![la.to_string(), lb.to_string(), "the same number".to_string()],
            answer: value as usize,
            whats: vec![
                format!("{la}: {} source reads", grouped(na)),
                format!("{lb}: {} source reads", grouped(nb)),
                if na == nb { "both make the same number".into() } else { "they differ".into() },
            ],
            why: format!("{la} makes {} source reads; {lb} makes {}.", grouped(na), grouped(nb)),
            link: run_link.clone(),
            reader: a,
            value,
        });
    }

    // Where is the knee?
    if let Some(q) = knee_question(params, &mut rng)? {
        quiz.questions.push(q);
    }

    // What if the buffer doubles? A real run at twice the capacity.
    let buffered: Vec<ReaderKind> = readers.iter().copied().filter(|&r| uses_cap(r)).collect();
    if !buffered.is_empty() {
        let r = buffered[rng.below(buffered.len() as u64) as usize];
        let now = reads_of(r).unwrap_or(0);
        if let Some(doubled) = count_at(&base, r, base.cap * 2)? {
            let label = readers::info(r).label;
            let real = choices::Candidate::new(doubled, format!("{label} with its buffer at {}", size_words(base.cap * 2)));
            let mut wrong = vec![choices::Candidate::new(now, format!("{label} with its buffer at {}, as now: as if doubling changed nothing", size_words(base.cap)))];
            for cap in [base.cap * 4, base.cap / 2] {
                if let Some(n) = count_at(&base, r, cap)? {
                    wrong.push(choices::Candidate::new(n, format!("{label} with its buffer at {}", size_words(cap))));
                }
            }
            let at = Params { cap: base.cap * 2, ..base.clone() };
            if let Some((choices, whats, index)) = numeric_choices(real, wrong, &mut rng) {
                quiz.questions.push(QuizQuestion {
                    kind: QuizKind::Double,
                    text: format!(
                        "{label} makes {} source reads with its buffer at {}. How many does it make with its buffer at {}?",
                        grouped(now),
                        format_size(base.cap),
                        format_size(base.cap * 2)
                    ),
                    choices,
                    answer: index,
                    whats,
                    why: format!(
                        "A real run at {} makes {} source reads{}.",
                        format_size(base.cap * 2),
                        grouped(doubled),
                        change_words(now, doubled)
                    ),
                    link: explained(&at),
                    reader: r,
                    value: doubled,
                });
            }
        }
    }
    if quiz.questions.is_empty() {
        quiz.note = Some("This experiment gives no question with distinct answers.".into());
    }
    Ok(quiz)
}

/// The knee question, for a link with a sweep along an axis that has one:
/// one reader's source reads at every point (real counted runs; on two
/// axes, in one column), and the smallest axis value within 5 % of the best.
fn knee_question(params: &Params, rng: &mut SplitMix64) -> Result<Option<QuizQuestion>, ParamError> {
    let Some(s) = params.sweep.filter(|s| s.axis.has_knee()) else { return Ok(None) };
    let readers = &params.readers;
    let reader = readers[rng.below(readers.len() as u64) as usize];
    let grid = s.grid();
    let columns: Vec<Option<u64>> = {
        let mut c: Vec<Option<u64>> = grid.iter().map(|&(_, a)| a).collect();
        c.dedup();
        c.sort();
        c.dedup();
        c
    };
    let column = columns[rng.below(columns.len() as u64) as usize];
    let mut values = Vec::new();
    let mut reads = Vec::new();
    for (v, a) in grid.into_iter().filter(|&(_, a)| a == column) {
        let p = Params { readers: vec![reader], ..s.apply(params, v, a).experiment() };
        if p.streams > crate::model::max_streams(p.len, p.cap) {
            continue;
        }
        values.push(v);
        reads.push(experiment::counts(&p)?[0].source_reads as f64);
    }
    let Some(k) = sweep::knee(&reads) else { return Ok(None) };
    if values.len() < 2 {
        return Ok(None);
    }
    let show = |v: u64| if s.axis.in_bytes() { format_size(v) } else { v.to_string() };
    // The knee and its nearest neighbours along the axis.
    let mut picked = vec![k];
    for d in 1..values.len() {
        for i in [k.checked_sub(d), Some(k + d)].into_iter().flatten() {
            if i < values.len() && picked.len() < 4 {
                picked.push(i);
            }
        }
    }
    shuffle(&mut picked, rng);
    let label = readers::info(reader).label;
    let within = match (s.across, column) {
        (Some(a), Some(c)) => format!(" with {} at {}", a.axis.id(), if a.axis.in_bytes() { format_size(c) } else { c.to_string() }),
        _ => String::new(),
    };
    Ok(Some(QuizQuestion {
        kind: QuizKind::Knee,
        text: format!(
            "Along the sweep of {}{within}, from which value on is {label} within 5 % of its fewest source reads (the knee)?",
            s.axis.id()
        ),
        answer: picked.iter().position(|&i| i == k).expect("the knee is a choice"),
        whats: picked
            .iter()
            .map(|&i| format!("{} {}: {label} makes {} source reads there", s.axis.id(), show(values[i]), grouped(reads[i] as u64)))
            .collect(),
        choices: picked.iter().map(|&i| show(values[i])).collect(),
        why: format!(
            "At {} {label} makes {} source reads; its fewest anywhere in the sweep are {}.",
            show(values[k]),
            grouped(reads[k] as u64),
            grouped(reads.iter().copied().fold(f64::INFINITY, f64::min) as u64)
        ),
        link: format!("#{}", link::encode(&Params { quiz: false, qseed: 1, view: View::Sweep, ..params.clone() })),
        reader,
        value: values[k],
    }))
}

/// The reader's count with the buffer at `cap`, or `None` where `cap` is
/// outside the limits or the job-size rule (a link could not ask for it).
fn count_at(base: &Params, reader: ReaderKind, cap: u64) -> Result<Option<u64>, ParamError> {
    if !LIMITS.cap.contains(cap) || cap == base.cap || base.streams > crate::model::max_streams(base.len, cap) {
        return Ok(None);
    }
    count_of(base, reader, cap).map(Some)
}

fn count_of(base: &Params, reader: ReaderKind, cap: u64) -> Result<u64, ParamError> {
    let p = Params { readers: vec![reader], cap, ..base.clone() };
    Ok(experiment::counts(&p)?[0].source_reads)
}

fn uses_cap(r: ReaderKind) -> bool {
    readers::info(r).keys.contains(&key::CAP)
}

/// The answer and up to three distinct wrong counts (`choices::pick`: ties
/// passed over), shuffled, with what each is; `None` when no wrong count
/// differs from the answer. Only when the runs offer fewer than three is a
/// halved or doubled count offered, named as a guess.
fn numeric_choices(real: Candidate, wrong: Vec<Candidate>, rng: &mut SplitMix64) -> Option<(Vec<String>, Vec<String>, usize)> {
    let answer = real.value;
    let guesses = [answer * 2, answer / 2, answer + answer / 2].map(|n| Candidate::new(n, "a guess, not a run"));
    let picked = choices::pick(real, wrong.into_iter().filter(|w| w.value > 0).chain(guesses.into_iter().filter(|g| g.value > 0)), 4, rng);
    if picked.len() < 2 {
        return None;
    }
    let index = picked.iter().position(|(_, real)| *real)?;
    Some((picked.iter().map(|(c, _)| grouped(c.value)).collect(), picked.into_iter().map(|(c, _)| c.what).collect(), index))
}

use choices::shuffle;

/// The run link of `p`, without the quiz's keys, as a link with its `#`.
fn explained(p: &Params) -> String {
    let plain = Params { quiz: false, qseed: 1, sweep: None, view: View::Run, ..p.clone() };
    format!("#{}", link::links(&plain).run)
}

fn bytes_word(n: u64) -> String {
    if n == 1 {
        "one byte".into()
    } else {
        format_size(n)
    }
}

fn capacity_words(r: ReaderKind, cap: u64) -> String {
    if uses_cap(r) {
        format!(", with its buffer at {}", format_size(cap))
    } else {
        String::new()
    }
}

fn others_words(runs: &[crate::model::Run], asked: ReaderKind) -> String {
    let others: Vec<String> = runs
        .iter()
        .filter(|r| r.reader != asked)
        .map(|r| format!("{} makes {}", readers::info(r.reader).label, grouped(r.source_reads)))
        .collect();
    if others.is_empty() {
        String::new()
    } else {
        format!("; {}", others.join(", "))
    }
}

fn change_words(before: u64, after: u64) -> String {
    match after.cmp(&before) {
        std::cmp::Ordering::Equal => ", the same as before: a bigger buffer does not change how often this reader goes to the source".into(),
        std::cmp::Ordering::Less => format!(", {} fewer than the {} before", grouped(before - after), grouped(before)),
        std::cmp::Ordering::Greater => format!(", {} more than the {} before", grouped(after - before), grouped(before)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_among_the_choices_once_and_the_seed_decides_the_order() {
        let p = link::decode("v=1&len=64K&chunk=poor&cap=1K&rs=1&rd=unbuffered,std&quiz=on").params;
        let a = quiz(&p).unwrap();
        assert_eq!(a, quiz(&p).unwrap());
        assert!(a.questions.len() >= 3, "{a:?}");
        for q in &a.questions {
            let right = &q.choices[q.answer];
            assert_eq!(q.choices.iter().filter(|c| *c == right).count(), 1, "{q:?}");
            let mut distinct = q.choices.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), q.choices.len(), "{q:?}");
            assert!(!q.link.contains("quiz"), "{}", q.link);
        }
        let orders: Vec<Vec<String>> =
            (1..8).map(|s| quiz(&Params { qseed: s, ..p.clone() }).unwrap().questions[0].choices.clone()).collect();
        assert!(orders.iter().any(|o| o != &orders[0]), "qseed changes the order: {orders:?}");
    }

    #[test]
    fn the_write_lab_gets_a_note_instead_of_questions() {
        let q = quiz(&link::decode("lab=write&quiz=on").params).unwrap();
        assert!(q.questions.is_empty());
        assert!(q.note.unwrap().contains("read lab"));
    }

    #[test]
    fn the_double_question_is_a_real_run_at_twice_the_capacity() {
        let p = link::decode("v=1&len=64K&chunk=file&cap=1K&rs=1&rd=std&quiz=on").params;
        let q = quiz(&p).unwrap();
        let d = q.questions.iter().find(|q| q.kind == QuizKind::Double).expect("a double question");
        let real = experiment::counts(&Params { cap: 2048, quiz: false, ..p.clone() }).unwrap()[0].source_reads;
        assert_eq!(d.value, real);
        assert_eq!(d.choices[d.answer], grouped(real));
        assert!(d.link.contains("cap=2K"), "{}", d.link);
    }
}
