//! Instruction counts of one cross-check scenario, repeatable whatever else
//! the machine does:
//!
//! ```sh
//! cargo build --release --example insns
//! for n in 1 11; do valgrind --tool=callgrind target/release/examples/insns buflab '1-byte reads, std 8K' $n; done
//! ```
//!
//! (total for 11 runs − total for 1) / 10 is one run's instructions; the
//! same for `plain`. Names are those of `buflab::bench::CROSSCHECK`.

use std::hint::black_box;

use buflab::bench::{Setup, CROSSCHECK};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, side, name, runs] = &args[..] else {
        panic!("usage: insns buflab|plain NAME RUNS");
    };
    let case = CROSSCHECK.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no scenario {name:?}"));
    let setup = Setup::new(case.link, case.what);
    let mut total = 0u64;
    for _ in 0..runs.parse::<usize>().expect("a number of runs") {
        total ^= match side.as_str() {
            "buflab" => setup.buflab(),
            "plain" => (case.plain)(&setup),
            other => panic!("no side {other:?}"),
        };
    }
    println!("{}", black_box(total));
}
