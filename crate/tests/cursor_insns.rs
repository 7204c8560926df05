#![cfg(target_os = "linux")]
//! Why the write-cursor article's order no longer holds, in the generated
//! code: the seven cursors' instructions per record and calls to `memcpy`,
//! counted by callgrind in the release build (`crate/examples/insns.rs`, the
//! write lab's own `cursors::serialize`, with the features of the page's
//! program build, which runs the write lab, and LTO as it is built).
//!
//! A run's figure is (the program with 11 runs − the program with 1) ÷ 10,
//! so start-up and set-up cancel out; per record is that ÷ 2048. What the
//! write lab says (`catalog::cursors::ARTICLE_ORDER`) is pinned here: each
//! of a record's five fields is a `memcpy` call in the slice cursors and an
//! inlined store in the growable ones; the slice cursors take about 4×
//! WriterVec's instructions, Cursor<Vec<u8>> about twice.
//!
//! Needs valgrind (`scripts/setup.sh` installs it); without it the test
//! says so and passes. The figures print with
//! `cargo test -p buflab --test cursor_insns -- --nocapture`.

use std::path::{Path, PathBuf};
use std::process::Command;

use buflab::catalog::cursors::{ARTICLE_ORDER, FLAVOURS};
use buflab::model::{Flavour, RECORD_BYTES};

const RECORDS: u64 = 2048;

fn have_valgrind() -> bool {
    Command::new("valgrind").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// The page's program build's features (scripts/wasm.sh): the write lab's
/// engine without the read lab's workloads, whose loops would make most of
/// the compile time.
const PROGRAM_FEATURES: &str = "timed,write-lab,program";

/// Builds the `insns` example in release (the profile the page's engine is
/// built with) and returns its path.
fn insns_exe() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["build", "--release", "-p", "buflab", "--example", "insns", "--no-default-features", "--features", PROGRAM_FEATURES])
        .arg("--message-format=json-render-diagnostics")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "insns")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .expect("cargo names the example's executable")
}

/// One program run under callgrind: its instructions and its calls to
/// `memcpy` (glibc's, whichever variant it chose: `__memcpy_*`,
/// `__memmove_*`).
fn callgrind(exe: &Path, scenario: &str, runs: u32, dir: &Path) -> (u64, u64) {
    let file = dir.join(format!("callgrind.{runs}.out"));
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--dump-line=no"])
        .arg(format!("--callgrind-out-file={}", file.display()))
        .arg(exe)
        .args(["buflab", scenario, &runs.to_string()])
        .output()
        .expect("valgrind runs");
    assert!(out.status.success(), "{scenario}: {}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    (total_instructions(&text), memcpy_calls(&text))
}

fn total_instructions(callgrind_out: &str) -> u64 {
    callgrind_out
        .lines()
        .find_map(|l| l.strip_prefix("summary:").or_else(|| l.strip_prefix("totals:")))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("callgrind writes its total")
}

/// Calls whose callee is a `memcpy`/`memmove`. Callgrind names a function
/// once (`cfn=(7) name`) and refers to it by number after (`cfn=(7)`); a
/// `calls=N …` line counts calls to the last `cfn`.
fn memcpy_calls(callgrind_out: &str) -> u64 {
    let mut names = std::collections::HashMap::new();
    let (mut callee, mut total) = (String::new(), 0);
    for line in callgrind_out.lines() {
        let named = line.strip_prefix("cfn=").map(|r| (r, true)).or_else(|| line.strip_prefix("fn=").map(|r| (r, false)));
        if let Some((rest, is_callee)) = named {
            let (id, name) = rest.split_once(' ').map_or((rest, None), |(i, n)| (i, Some(n)));
            if let Some(n) = name {
                names.insert(id.to_string(), n.to_string());
            }
            if is_callee {
                callee = names.get(id).cloned().unwrap_or_default();
            }
        } else if let Some(rest) = line.strip_prefix("calls=") {
            if callee.contains("memcpy") || callee.contains("memmove") {
                total += rest.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
            }
        }
    }
    total
}

struct PerRecord {
    flavour: Flavour,
    instructions: f64,
    memcpy: f64,
}

fn measure(exe: &Path, flavour: Flavour, label: &str, dir: &Path) -> PerRecord {
    let (i1, m1) = callgrind(exe, label, 1, dir);
    let (i11, m11) = callgrind(exe, label, 11, dir);
    let per = |a: u64, b: u64| (b - a) as f64 / 10.0 / RECORDS as f64;
    PerRecord { flavour, instructions: per(i1, i11), memcpy: per(m1, m11) }
}

#[test]
fn slice_cursors_call_memcpy_per_field_and_take_about_four_times_writervecs_instructions() {
    let wasm_builds = include_str!("../../scripts/wasm.sh");
    assert!(wasm_builds.contains(&format!("--features {PROGRAM_FEATURES}")), "the program build's features are {PROGRAM_FEATURES}");
    if !have_valgrind() {
        println!("skipped: valgrind is not installed (bash scripts/setup.sh installs it)");
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/cursor-insns");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let exe = insns_exe();
    // The example's scenario names are the cross-check's, the flavours' labels.
    let all: Vec<PerRecord> = FLAVOURS.iter().map(|f| measure(&exe, f.id, f.label, &dir)).collect();
    println!("per {RECORD_BYTES}-byte record, natively (callgrind, release build):");
    for r in &all {
        println!("  {:<22} {:>6.1} instructions, {:.2} memcpy calls", FLAVOURS.iter().find(|f| f.id == r.flavour).unwrap().label, r.instructions, r.memcpy);
    }
    let of = |f: Flavour| all.iter().find(|r| r.flavour == f).unwrap();
    let writer_vec = of(Flavour::WriterVec).instructions;

    // A record is five fields (u64, u32, u8, bool, u16): five writes.
    for f in [Flavour::CursorMutSlice, Flavour::CursorBox, Flavour::MutSlice] {
        let r = of(f);
        assert!((r.memcpy - 5.0).abs() < 0.01, "{f:?}: a memcpy call per field, {:.3} per record", r.memcpy);
        let ratio = r.instructions / writer_vec;
        assert!((3.0..=5.5).contains(&ratio), "{f:?}: about 4× WriterVec's instructions, {ratio:.2}×");
    }
    // The growable ones copy inline (their growth may copy a few times a run).
    for f in [Flavour::CursorVec, Flavour::CursorMutVec, Flavour::WriterVec, Flavour::BytesMut] {
        assert!(of(f).memcpy < 0.05, "{f:?}: copies inlined, {:.3} memcpy calls per record", of(f).memcpy);
    }
    for f in [Flavour::CursorVec, Flavour::CursorMutVec] {
        let ratio = of(f).instructions / writer_vec;
        assert!((1.6..=2.8).contains(&ratio), "{f:?}: about twice WriterVec's instructions, {ratio:.2}×");
    }
    assert!(ARTICLE_ORDER.contains("five fields") && ARTICLE_ORDER.contains("4×") && ARTICLE_ORDER.contains("twice"));
    std::fs::remove_dir_all(&dir).unwrap();
}
