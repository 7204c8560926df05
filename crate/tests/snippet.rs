#![cfg(not(target_arch = "wasm32"))]
//! The generated programs compile, and the self-contained form (the Rust
//! Playground's) runs and prints BufLab's source reads.
//!
//! Read-lab programs use std only: each workload's program (with all three
//! readers, plus the variants that change the code) is compiled by `rustc`
//! to metadata with warnings denied, in a fraction of a second each.
//! Write-lab programs need bincode, serde and bytes, and programs with an
//! async reader need tokio (rt, net, fs, io-util) and futures: one
//! `cargo check` of all of them, as the bins of a scratch crate under
//! target/snippet-check/deps. Its first run fetches those crates (crates.io,
//! or cargo's offline cache with CARGO_NET_OFFLINE=true) and checks them,
//! a minute or two; later runs check the programs alone, in seconds.

use std::path::PathBuf;
use std::process::Command;

mod common;
mod printed;

use buflab::catalog::snippet::{playground, self_contained, snippet, MAX_PLAYGROUND_URL, PLAYGROUND_URL};
use buflab::engine::clock::{InstantClock, Sampling};
use buflab::link::decode as decode_link;
use buflab::model::{Flavour, Id, Lab, Params, ReaderKind, Workload};
use common::every_reader;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/snippet-check").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read_links() -> Vec<String> {
    let mut links: Vec<String> = Workload::all()
        .into_iter()
        .flat_map(|w| {
            [
                format!("rd=unbuffered,std,chained&wl={}", w.id()),
                format!("rd=std&wl={}&chunk=file", w.id()),
                format!("rd=unbuffered&wl={}&chunk=pipe", w.id()),
            ]
        })
        .collect();
    links.push("wl=frames&reuse=on&streams=4&len=64K&rd=unbuffered,std".into());
    // Several streams: every workload, read round-robin.
    for w in Workload::all() {
        links.push(format!("rd=unbuffered,std,chained&wl={}&chunk=file&streams=3&len=64K", w.id()));
    }
    links.push("rd=unbuffered,std&wl=fixed&chunk=poor&streams=2&len=64K".into());
    links.push("rd=std&wl=lines&chunk=pipe&streams=2&len=64K".into());
    links.push("wl=frames&rd=chained&pool=off".into());
    links
}

#[test]
fn read_lab_programs_compile_with_std_alone() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let dir = scratch("read");
    // Each program as the Code panel prints it, and its self-contained form where it has one.
    let programs = read_links().into_iter().flat_map(|link| {
        let params = decode_link(&link).params;
        let contained = self_contained(&params).ok().map(|code| (format!("{link} (self-contained)"), code));
        std::iter::once((link, snippet(&params))).chain(contained)
    });
    for (i, (link, code)) in programs.enumerate() {
        let file = dir.join(format!("p{i}.rs"));
        std::fs::write(&file, &code).unwrap();
        let out = Command::new(&rustc)
            .args(["--edition", "2021", "--crate-type", "bin", "--emit=metadata", "-D", "warnings", "--out-dir"])
            .arg(&dir)
            .arg(&file)
            .output()
            .expect("rustc runs");
        assert!(
            out.status.success(),
            "{link}:\n{code}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `cargo check` of `programs` as the bins of a scratch crate with
/// `dependencies`, warnings denied.
fn cargo_check(name: &str, dependencies: &str, programs: &[String]) {
    let dir = scratch(name);
    let bins = dir.join("src/bin");
    // Bins of an earlier run with more programs would be checked too.
    let _ = std::fs::remove_dir_all(&bins);
    std::fs::create_dir_all(&bins).unwrap();
    printed::scratch_crate(&dir, "snippets", dependencies);
    for (i, program) in programs.iter().enumerate() {
        std::fs::write(bins.join(format!("p{i}.rs")), program).unwrap();
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["check", "--quiet", "--bins"])
        .env("RUSTFLAGS", "-D warnings")
        .current_dir(&dir)
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Programs with an async reader, over every workload and source kind.
fn async_links() -> Vec<String> {
    let mut links: Vec<String> = Workload::all()
        .into_iter()
        .flat_map(|w| {
            [
                format!("{}&wl={}", every_reader(), w.id()),
                format!("rd=tokio&wl={}&chunk=file", w.id()),
                format!("rd=futures&wl={}&chunk=pipe&pend=50", w.id()),
            ]
        })
        .collect();
    links.push("wl=frames&reuse=on&rd=tokio,futures".into());
    links.push("wl=lines&rd=chained,tokio".into());
    links.push("wl=scan&rd=std,tokio,futures&streams=3&len=64K&chunk=file".into());
    links.push("wl=fixed&rd=tokio,futures&streams=2&len=64K".into());
    links
}

/// Write-lab programs: every flavour, each kind of buffer.
const WRITE_LINKS: [&str; 4] = [
    "lab=write",
    "lab=write&wf=cursor_vec",
    "lab=write&wf=mut_slice,cursor_box&buf=1K",
    "lab=write&wf=writer_vec,bytes_mut&icap=0",
];

#[test]
fn async_and_write_lab_programs_compile_with_the_crates_they_name() {
    let links: Vec<String> = async_links().into_iter().chain(WRITE_LINKS.map(String::from)).collect();
    let programs: Vec<String> = links.iter().map(|l| snippet(&decode_link(l).params)).collect();
    // Each program's header names what it needs beyond std.
    for (link, program) in links.iter().zip(&programs) {
        let header: String = program.lines().take_while(|l| l.starts_with("//")).collect::<Vec<_>>().join("\n");
        let p = decode_link(link).params;
        let needs = [
            ("tokio", p.lab == Lab::Read && p.readers.contains(&ReaderKind::Tokio)),
            ("futures", p.lab == Lab::Read && p.readers.contains(&ReaderKind::Futures)),
            ("bincode", p.lab == Lab::Write),
            ("serde", p.lab == Lab::Write),
            ("bytes", p.lab == Lab::Write && p.write.flavours.contains(&Flavour::BytesMut)),
        ];
        for (krate, needed) in needs {
            assert_eq!(header.contains(&format!("{krate} = ")), needed, "{link}: {krate}\n{header}");
        }
    }
    cargo_check(
        "deps",
        "tokio = { version = \"1\", features = [\"rt\", \"net\", \"fs\", \"io-util\"] }\nfutures = \"0.3\"\n\
         bincode = \"1.3\"\nserde = { version = \"1\", features = [\"derive\"] }\nbytes = \"1\"\n",
        &programs,
    );
}

// ---------------------------------------------------------------------------
// The self-contained form (the Rust Playground's): run, not only compiled

/// `reader: N source reads` lines a self-contained program printed, in order.
fn printed_reads(stdout: &str) -> Vec<(String, u64)> {
    stdout
        .lines()
        .filter_map(|l| {
            let (reader, rest) = l.split_once(": ")?;
            let n = rest.strip_suffix(" source reads")?;
            Some((reader.to_string(), n.parse().ok()?))
        })
        .collect()
}

/// BufLab's source reads for `link`, per reader the program runs (the
/// chained reader is only described there).
fn buflab_reads(link: &str) -> Vec<(String, u64)> {
    let params = decode_link(link).params;
    let report = buflab::api::run(&params, &InstantClock::default(), Sampling::COUNTS).unwrap();
    report.runs.iter().filter(|r| r.reader != ReaderKind::Chained).map(|r| (r.reader.id().to_string(), r.source_reads)).collect()
}

/// Runs case `i` of a harness and checks its printed counts against BufLab's.
fn check_case(exe: &std::path::Path, i: usize, link: &str) {
    let out = Command::new(exe).arg(i.to_string()).output().expect("the harness runs");
    assert!(out.status.success(), "{link}: {}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(printed_reads(&stdout), buflab_reads(link), "{link}:\n{stdout}");
}

/// Every blocking reader (chained described), every workload, each kind of
/// chunking, read sizes below and above the buffer.
fn self_contained_std_links() -> Vec<String> {
    let mut links = Vec::new();
    for w in Workload::all() {
        for chunk in ["poor", "file", "pipe", "100", "worst"] {
            links.push(format!("len=20000&rd=unbuffered,std,chained&wl={}&chunk={chunk}&cap=1K&rs=3", w.id()));
        }
        links.push(format!("len=70000&rd=std,unbuffered&wl={}&chunk=good&cap=64&rs=4K", w.id()));
    }
    links.push("len=20000&rd=unbuffered,std&wl=frames&reuse=on&frame=0-300&chunk=normal".into());
    links.push("len=20000&rd=unbuffered,std&wl=lines&line=0-4K&chunk=1".into());
    links.push("len=20000&rd=std&wl=scan&nul=30000&chunk=file".into());
    links.push("len=0&rd=unbuffered,std&wl=to_end&chunk=file".into());
    links.push("len=1M&chunk=poor&cap=8K&rs=1&rd=unbuffered,std".into());
    // Several streams, read round-robin: each its own source, its chunks
    // drawn with the stream's own seed; the count is every stream's.
    for w in Workload::all() {
        links.push(format!("len=20000&rd=unbuffered,std,chained&wl={}&chunk=poor&cap=1K&rs=3&streams=3", w.id()));
    }
    links.push("len=20000&rd=std&wl=to_end&chunk=file&streams=2".into());
    links
}

#[test]
fn self_contained_programs_print_buflabs_source_reads() {
    let links = self_contained_std_links();
    let programs: Vec<String> =
        links.iter().map(|l| self_contained(&decode_link(l).params).unwrap_or_else(|e| panic!("{l}: {e}"))).collect();
    // As the Code panel's programs: warnings denied.
    let dir = scratch("self-contained");
    let exe = printed::build_harness(&dir, &programs);
    for (i, link) in links.iter().enumerate() {
        check_case(&exe, i, link);
    }
}

/// tokio's and futures' readers, whose self-contained programs need those
/// crates (the Playground has them): built by cargo, then run.
#[test]
fn self_contained_async_programs_print_buflabs_source_reads() {
    let mut links: Vec<String> =
        Workload::all().into_iter().map(|w| format!("len=20000&rd=tokio,futures,std&wl={}&chunk=poor&cap=1K&rs=3", w.id())).collect();
    links.push("len=20000&rd=futures,tokio&wl=to_end&chunk=file".into());
    links.push("len=20000&rd=tokio&wl=lines&chunk=pipe&pend=50".into());
    links.push("len=20000&rd=tokio,futures,std&wl=fixed&chunk=poor&cap=1K&rs=3&streams=3".into());
    let programs: Vec<String> = links.iter().map(|l| self_contained(&decode_link(l).params).unwrap()).collect();
    let exe = printed::cargo_harness(
        &scratch("self-contained-async"),
        "tokio = { version = \"1\", features = [\"rt\", \"io-util\"] }\nfutures = \"0.3\"\n",
        &programs,
    );
    for (i, link) in links.iter().enumerate() {
        check_case(&exe, i, link);
    }
}

#[test]
fn the_playground_gets_the_self_contained_program_or_a_reason() {
    let default = playground(&Params::default());
    let url = default.url.expect("the default link fits");
    assert!(url.starts_with("https://play.rust-lang.org/?version=stable&mode=release&edition=2021&code=%2F%2F%20BufLab"), "{url}");
    assert!(url.len() <= MAX_PLAYGROUND_URL, "{}", url.len());
    assert!(!url[PLAYGROUND_URL.len()..].contains(['+', ' ', '\n', '&', '#']), "every reserved character escaped");
    let program = default.program.unwrap();
    assert!(program.contains("fn stream()") && program.contains("SOURCE_READS") && !program.contains("TcpStream"), "{program}");
    // No self-contained form: a source that lives in time, the write lab, the chained reader alone.
    for (link, why) in [
        ("rate=4M&len=64K", "lives in time"),
        ("lab=write", "write lab"),
        ("rd=chained", "chained reader"),
    ] {
        let p = playground(&decode_link(link).params);
        assert_eq!((p.program, p.url), (None, None), "{link}");
        assert!(p.reason.as_deref().is_some_and(|r| r.contains(why)), "{link}: {:?}", p.reason);
    }
    // Too long for an address: every reader and workload's longest program, as a reason.
    // Several streams have one: it reads them round-robin, as the link does.
    let streams = playground(&decode_link("streams=4&len=64K").params).program.expect("a program for several streams");
    assert!(streams.contains("const STREAMS: usize = 4;") && streams.contains("fn round_robin<R>("), "{streams}");
    let long = playground(&decode_link("rd=unbuffered,std,chained,tokio,futures&wl=frames&chunk=file").params);
    if long.url.is_none() {
        assert!(long.program.is_some() && long.reason.unwrap().contains("Playground address"));
    }
}
