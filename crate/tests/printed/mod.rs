//! The Code panel's printed programs as real processes: one harness crate
//! built from their texts, the link's bytes written where they read them,
//! and `strace` to watch them (`tests/kernel.rs`, `tests/trace.rs`); the
//! Playground's self-contained programs built the same way (`tests/snippet.rs`).

// Each test target uses only part of it.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// An empty directory of its own under target/kernel-check.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/kernel-check").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One harness crate from the programs' texts: `case_i` is program `i`
/// as printed, its `main` made public; the harness's `main` runs the case
/// its first argument names. Built with `rustc -O`.
pub fn build_harness(dir: &Path, programs: &[String]) -> PathBuf {
    let src = harness_source(programs);
    let file = dir.join("harness.rs");
    std::fs::write(&file, &src).unwrap();
    let exe = dir.join("harness");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .args(["--edition", "2021", "-O", "-o"])
        .arg(&exe)
        .arg(&file)
        .output()
        .expect("rustc runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    exe
}

pub fn harness_source(programs: &[String]) -> String {
    let mut src = String::from("#![allow(dead_code)]\n");
    for (i, program) in programs.iter().enumerate() {
        assert_eq!(program.matches("\nfn main()").count(), 1, "{program}");
        let module = program.replace("\nfn main()", "\npub fn main()");
        let _ = writeln!(src, "mod case_{i} {{\n{module}\n}}");
    }
    src += "fn main() -> std::io::Result<()> {\n    match std::env::args().nth(1).as_deref() {\n";
    for i in 0..programs.len() {
        let _ = writeln!(src, "        Some(\"{i}\") => case_{i}::main(),");
    }
    src += "        _ => panic!(\"which case?\"),\n    }\n}\n";
    src
}

/// A scratch crate `name` in `dir` with `dependencies` (its own workspace,
/// so the repository's does not claim it); its sources are the caller's.
pub fn scratch_crate(dir: &Path, name: &str, dependencies: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n\
             [dependencies]\n{dependencies}"
        ),
    )
    .unwrap();
}

/// The harness of programs that need crates, built in `dir` by cargo as the
/// main of a scratch crate with `dependencies` (its first build fetches and
/// builds them; later ones only the harness).
pub fn cargo_harness(dir: &Path, dependencies: &str, programs: &[String]) -> PathBuf {
    scratch_crate(dir, "harness", dependencies);
    std::fs::write(dir.join("src/main.rs"), harness_source(programs)).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo).args(["build", "--quiet"]).current_dir(dir).output().expect("cargo runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir.join("target/debug/harness")
}

/// `buflab stream --out FILE LINK`: the link's bytes where the program reads them.
pub fn stream(link: &str, out: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_buflab"))
        .args(["stream", "--out"])
        .arg(out)
        .arg(link)
        .status()
        .expect("the CLI runs");
    assert!(status.success());
}

/// The `strace` that `scripts/setup.sh` installs.
pub fn strace() -> &'static str {
    let path = "/usr/bin/strace";
    assert!(Path::new(path).exists(), "strace is missing: bash scripts/setup.sh installs it");
    path
}
