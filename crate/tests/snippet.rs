//! The generated programs compile.
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

use buflab::catalog::snippet::snippet;
use buflab::link::decode as decode_link;
use buflab::model::{Flavour, Id, Lab, ReaderKind, Workload};

mod common;
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
    for (i, link) in read_links().iter().enumerate() {
        let code = snippet(&decode_link(link).params);
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
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"snippets\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n\
             [dependencies]\n{dependencies}"
        ),
    )
    .unwrap();
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
