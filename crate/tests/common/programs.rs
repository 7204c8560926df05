//! Printed programs (the Code panel's, `catalog::snippet`) built into one
//! harness: program `i` becomes module `case_i`, its `main` made public,
//! and the harness's `main` runs the case its first argument names. One
//! build serves every case.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The harness's source for `programs`.
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

/// The harness of programs that use std alone, built in `dir` with `rustc -O`.
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

/// The harness of programs that need crates, built in `dir` by cargo as the
/// main of a scratch crate with `dependencies` (its first build fetches and
/// builds them; later ones only the harness).
pub fn cargo_harness(dir: &Path, dependencies: &str, programs: &[String]) -> PathBuf {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"harness\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n\
             [dependencies]\n{dependencies}"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("src/main.rs"), harness_source(programs)).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo).args(["build", "--quiet"]).current_dir(dir).output().expect("cargo runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir.join("target/debug/harness")
}
