#![cfg(not(target_arch = "wasm32"))]
//! The native CLI run as a user runs it: a two-axis sweep link prints its
//! matrices, and `--json` lists one point per pair.

use std::process::Command;

/// The README's two-axis example, counts only (exact, and fast in a debug build).
const GRID: &str = "#v=1&len=64K&chunk=64-512&rd=std&sweep=cap,rs&from=64,1&to=1K,8";

fn buflab(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_buflab")).args(args).output().expect("the CLI runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn a_two_axis_sweep_prints_a_matrix_per_reader_and_metric() {
    let table = buflab(&["--counts", GRID]);
    assert!(table.contains("sweep of buffer capacity (cap) 64 to 1K by read size (rs) 1 to 8: 5 × 4 = 20 points"), "{table}");
    assert!(table.contains("std — source reads"), "{table}");
    let header = table.lines().find(|l| l.starts_with("cap \\ rs")).expect("a matrix header");
    assert_eq!(header.split_whitespace().skip(3).collect::<Vec<_>>(), ["1", "2", "4", "8"]);
    // The knee row (512: the buffer holds the largest chunk) is starred in every column.
    let row = table.lines().find(|l| l.starts_with("512 ")).expect("a row for cap 512");
    assert_eq!(row.matches('*').count(), 4, "{row}");
}

#[test]
fn a_two_axis_sweeps_json_lists_one_point_per_pair() {
    let json: serde_json::Value = serde_json::from_str(&buflab(&["--counts", "--json", GRID])).unwrap();
    let points = json["points"].as_array().unwrap();
    assert_eq!(points.len(), 20);
    let pairs: Vec<(u64, u64)> = points.iter().map(|p| (p["value"].as_u64().unwrap(), p["across"].as_u64().unwrap())).collect();
    assert_eq!(&pairs[..5], [(64, 1), (64, 2), (64, 4), (64, 8), (128, 1)]);
    assert_eq!(json["across_values"], serde_json::json!([1, 2, 4, 8]));
    assert!(json["link"].as_str().unwrap().ends_with("&sweep=cap,rs&from=64,1&to=1K,8"));
    assert_eq!(json["digests_agree"], true);
}

/// `buflab stream` writes the bytes the readers get: for `lines` (every
/// byte reaches the application) their digest is each run's digest.
#[test]
fn stream_writes_the_bytes_the_links_readers_read() {
    let dir = std::env::temp_dir().join(format!("buflab-cli-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = "len=20000&chunk=file&wl=lines&rd=unbuffered,std&streams=3";
    let out = dir.join("data.bin");
    buflab(&["stream", "--out", out.to_str().unwrap(), link]);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len(), 20000);
    assert!(bytes.contains(&b'\n'), "text lines");
    let json: serde_json::Value = serde_json::from_str(&buflab(&["--counts", "--json", &link.replace("&streams=3", "")])).unwrap();
    assert_eq!(json["runs"][0]["digest"].as_str().unwrap(), buflab::engine::workload::digest_of(&bytes));
    // To standard output: the same bytes.
    let stdout = Command::new(env!("CARGO_BIN_EXE_buflab")).args(["stream", link]).output().unwrap().stdout;
    assert_eq!(stdout, bytes);
    // One file per stream, numbered from 1, each the same bytes.
    buflab(&["stream", "--streams", "--out", out.to_str().unwrap(), link]);
    for i in 1..=3 {
        assert_eq!(std::fs::read(dir.join(format!("data-{i}.bin"))).unwrap(), bytes, "stream {i}");
    }
    assert!(!dir.join("data-4.bin").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The many-streams lesson's native cost, as the command line prints it:
/// std's 100 buffers are given back to the kernel after each run (`brk`
/// lowers the heap's top) and taken again and faulted in in the next; the
/// unbuffered reader allocates nothing, faults nothing and makes no
/// allocator calls. Counts, not times (the kernel's minor-fault count and
/// strace's count of `brk`/`mmap`/`munmap`, median of runs), in a fresh
/// process whose main thread owns glibc's main heap (in a test thread among
/// others the heap is shared and may not shrink, so the count would depend
/// on the other tests).
#[cfg(target_os = "linux")]
#[test]
fn natively_stds_many_buffers_fault_in_and_call_brk_every_run_and_unbuffered_does_neither() {
    let out = buflab(&["--counts", "v=1&len=64K&chunk=file&cap=8K&rs=64K&rd=unbuffered,std&wl=fixed&streams=100"]);
    let line = out.lines().find(|l| l.starts_with("Natively, per run")).expect("the kernel costs line");
    // `…: unbuffered 0 minor faults, 0 brk, 0 mmap, 0 munmap; std 85 minor faults, 7 brk, …`
    let of = |kind: &str, what: &str| -> Option<u64> {
        let at = line.find(&format!(" {kind} ")).unwrap_or_else(|| panic!("{kind} in {line}")) + kind.len() + 2;
        let part = line[at..].split([';', '(', '.']).next().unwrap();
        part.split(',').find_map(|f| f.trim().strip_suffix(&format!(" {what}"))).map(|n| n.parse().unwrap())
    };
    let (raw, std) = (of("unbuffered", "minor faults").unwrap(), of("std", "minor faults").unwrap());
    assert!(raw <= 2, "unbuffered allocates nothing: {line}");
    // 100 × 8 KiB is 200 pages; glibc keeps part of the freed top.
    assert!(std >= 20, "std's buffers: {line}");
    if line.contains("calls unavailable") {
        assert!(Command::new("strace").arg("-V").output().is_err(), "strace is installed, yet: {line}");
        println!("skipped the brk/mmap/munmap part: {line}");
        return;
    }
    for call in ["brk", "mmap", "munmap"] {
        assert_eq!(of("unbuffered", call), Some(0), "unbuffered makes no {call} call: {line}");
    }
    let std_calls: u64 = ["brk", "mmap", "munmap"].iter().map(|c| of("std", c).expect(c)).sum();
    assert!(std_calls >= 2, "std's heap shrinks and grows again every run: {line}");
}

/// `buflab real` counts the allocator's calls of each counted pass too (a
/// second, traced run of the command): over the file, the unbuffered
/// reader makes none; std's 50 buffers, 400 KiB freed after the previous
/// run, take the heap's top back with `brk`.
#[cfg(target_os = "linux")]
#[test]
fn buflab_real_counts_the_allocators_calls_of_each_run() {
    let out = buflab(&["real", "--quick", "--json", "v=1&len=64K&chunk=file&cap=8K&rs=64K&rd=unbuffered,std&wl=fixed&streams=50"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    if let Some(why) = json["alloc_calls_unavailable"].as_str() {
        assert!(Command::new("strace").arg("-V").output().is_err(), "strace is installed, yet: {why}");
        println!("skipped: {why}");
        return;
    }
    let calls = |reader: &str| -> u64 {
        let row = json["real"].as_array().unwrap().iter().find(|r| r["source"] == "file" && r["reader"] == reader).unwrap();
        ["brk", "mmap", "munmap"].iter().map(|c| row["alloc_calls"][c].as_u64().expect("counted")).sum()
    };
    assert_eq!(calls("unbuffered"), 0, "{out}");
    assert!(calls("std") >= 1, "{out}");
}

/// A comparison link whose A has a sweep runs two sweeps and prints the
/// knee of each (issue 49), the same from `buflab compare A B`; `--json`
/// carries both sweeps and the pairs. Before, such a link ran one
/// comparison of two single runs and said nothing of knees.
#[test]
fn a_sweep_comparison_link_prints_the_knee_of_each_side() {
    let link = "#v=1&len=4K&chunk=512&rs=1&rd=std&sweep=cap&from=16&to=2K&b.chunk=128";
    let table = buflab(&["--counts", link]);
    assert!(table.contains("── Knees, A against B ──"), "{table}");
    assert!(table.contains("std, source reads: A's knee: 512 bytes; B's knee: 128 bytes (B ÷ A = 0.25)"), "{table}");
    assert!(table.contains("── A ──") && table.contains("── B ──"), "{table}");
    let two = buflab(&["compare", "--counts", "len=4K&chunk=512&rs=1&rd=std&sweep=cap&from=16&to=2K", "len=4K&chunk=128&rs=1&rd=std&sweep=cap&from=16&to=2K"]);
    let knees = |t: &str| t.split("── Knees").nth(1).map(str::to_string);
    assert_eq!(knees(&two), knees(&table));
    let json: serde_json::Value = serde_json::from_str(&buflab(&["--counts", "--json", link])).unwrap();
    assert_eq!(json["a"]["points"].as_array().unwrap().len(), 8);
    assert_eq!(json["b"]["points"].as_array().unwrap().len(), 8);
    let reads = json["knees"].as_array().unwrap().iter().find(|k| k["reader"] == "std" && k["metric"] == "source_reads").unwrap();
    assert_eq!((reads["a"].as_u64(), reads["b"].as_u64(), reads["outcome"].as_str()), (Some(512), Some(128), Some("less")));
}
