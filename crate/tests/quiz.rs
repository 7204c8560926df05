#![cfg(not(target_arch = "wasm32"))]
//! The quiz the engine writes (`quiz=on`), checked on every lesson link
//! against the CLI's own runs: each answer is what `buflab --counts --json`
//! reports for the question's own link, and `buflab quiz --json` prints the
//! same quiz the library writes.

use std::process::Command;

use buflab::catalog::lessons::LESSONS;
use buflab::catalog::quiz::{quiz, QuizKind};
use buflab::link::decode;
use buflab::model::{Id, Lab};
use serde_json::Value;

fn buflab(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_buflab")).args(args).output().expect("the CLI runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The source reads of `reader` in the CLI's counted run of `link`.
fn cli_reads(link: &str, reader: &str) -> u64 {
    let report = buflab(&["--counts", "--json", link]);
    let run = report["runs"].as_array().unwrap().iter().find(|r| r["reader"] == reader);
    run.unwrap_or_else(|| panic!("{reader} in {link}"))["source_reads"].as_u64().unwrap()
}

#[test]
fn every_lesson_links_quiz_is_answered_by_the_clis_own_runs() {
    for lesson in LESSONS {
        let link = format!("{}&quiz=on", lesson.link);
        let d = decode(&link);
        assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
        let q = quiz(&d.params).unwrap();
        // The CLI prints the same quiz.
        let printed = buflab(&["quiz", "--json", &link]);
        assert_eq!(printed, serde_json::to_value(&q).unwrap(), "{link}");
        if d.params.lab == Lab::Write {
            assert!(q.questions.is_empty() && q.note.is_some(), "{link}");
            continue;
        }
        assert!(q.questions.len() >= 2, "{link}: {q:?}");
        if d.params.sweep.is_some_and(|s| s.axis.has_knee()) {
            assert!(q.questions.iter().any(|q| q.kind == QuizKind::Knee), "{link}: a sweep gets a knee question");
        }
        for question in &q.questions {
            let reader = question.reader.id();
            let right = &question.choices[question.answer];
            assert_eq!(question.choices.iter().filter(|c| *c == right).count(), 1, "{question:?}");
            assert!(question.link.starts_with("#v=1&") && !question.link.contains("quiz"), "{}", question.link);
            match question.kind {
                QuizKind::Reads => {
                    let n = cli_reads(&question.link, reader);
                    assert_eq!(question.value, n, "{link}: {}", question.text);
                    assert_eq!(right.replace(',', ""), n.to_string());
                }
                QuizKind::Double => {
                    let linked = decode(&question.link).params;
                    assert_eq!(linked.cap, d.params.cap * 2, "{}", question.link);
                    let n = cli_reads(&question.link, reader);
                    assert_eq!(question.value, n, "{link}: {}", question.text);
                    assert_eq!(right.replace(',', ""), n.to_string());
                }
                QuizKind::Fewer => {
                    let names: Vec<String> = question.text.split(": ").nth(1).unwrap().to_string().split(" or ").map(String::from).collect();
                    assert_eq!(names.len(), 2, "{}", question.text);
                    let report = buflab(&["--counts", "--json", &question.link]);
                    let reads: Vec<u64> = report["runs"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|r| r["source_reads"].as_u64().unwrap())
                        .collect();
                    let ids: Vec<&str> = report["runs"].as_array().unwrap().iter().map(|r| r["reader"].as_str().unwrap()).collect();
                    let first = ids.iter().position(|&i| i == reader).unwrap();
                    let other = (0..ids.len())
                        .find(|&i| i != first && question.choices[1] == buflab::engine::readers::info(buflab::model::ReaderKind::from_id(ids[i]).unwrap()).label)
                        .unwrap();
                    let expected = match reads[first].cmp(&reads[other]) {
                        std::cmp::Ordering::Less => 0,
                        std::cmp::Ordering::Greater => 1,
                        std::cmp::Ordering::Equal => 2,
                    };
                    assert_eq!(question.answer, expected, "{link}: {}", question.why);
                }
                QuizKind::Knee => {
                    let report = buflab(&["--counts", "--json", &question.link]);
                    let across = question.text.split(" at ").nth(1).map(|s| s.split(',').next().unwrap().to_string());
                    let knees: Vec<&Value> = report["knees"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|k| k["reader"] == reader && k["metric"] == "source_reads")
                        .filter(|k| match (&across, k.get("across").and_then(Value::as_u64)) {
                            (Some(a), Some(v)) => buflab::model::format_size(v) == *a,
                            _ => true,
                        })
                        .collect();
                    assert_eq!(knees.len(), 1, "{link}: {knees:?} for {}", question.text);
                    assert_eq!(question.value, knees[0]["value"].as_u64().unwrap(), "{link}: {}", question.text);
                }
            }
        }
    }
}

#[test]
fn the_same_qseed_gives_the_room_the_same_quiz_and_another_a_different_one() {
    let link = "#v=1&len=64K&chunk=poor&cap=1K&rs=1&rd=unbuffered,std,chained&quiz=on";
    let a = buflab(&["quiz", "--json", &format!("{link}&qseed=5")]);
    assert_eq!(a, buflab(&["quiz", "--json", &format!("{link}&qseed=5")]));
    let others: Vec<Value> = (6..10).map(|s| buflab(&["quiz", "--json", &format!("{link}&qseed={s}")])).collect();
    assert!(others.iter().any(|o| o["questions"] != a["questions"]), "another qseed, another quiz");
}

/// A lesson's four choices for the room (`catalog::choices`), checked against
/// the CLI's own runs: on every read lesson whose question is a count, each
/// choice, the real one and the three wrong ones, is what `buflab --counts
/// --json` counts on the choice's own link (another reader, another
/// capacity, no buffer); the real one is also the count of the lesson's link.
#[test]
fn every_read_lessons_choices_are_the_clis_counts_of_their_own_links() {
    use buflab::catalog::choices::lesson_choices;
    use buflab::catalog::lessons::Answer;
    use buflab::engine::clock::InstantClock;
    let mut checked = 0;
    for lesson in LESSONS {
        let Answer::Read { reader, field } = lesson.question.answer else { continue };
        let c = lesson_choices(lesson.id, &InstantClock::default()).unwrap();
        for choice in &c.choices {
            let link = choice.link.as_deref().unwrap_or_else(|| panic!("{}: {choice:?} has its run's link", lesson.id.id()));
            let report = buflab(&["--counts", "--json", link]);
            let runs = report["runs"].as_array().unwrap();
            assert_eq!(runs.len(), 1, "{link}: one reader per choice");
            assert_eq!(runs[0][field].as_u64(), Some(choice.value), "{}: {choice:?}", lesson.id.id());
            if choice.real {
                let own = buflab(&["--counts", "--json", lesson.link]);
                let run = own["runs"].as_array().unwrap().iter().find(|r| r["reader"] == reader.id()).unwrap();
                assert_eq!(run[field].as_u64(), Some(choice.value), "{}: the lesson's own count", lesson.id.id());
            }
            checked += 1;
        }
    }
    assert!(checked >= 24, "every read lesson's four choices: {checked}");
}
