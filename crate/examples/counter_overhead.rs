//! The cost of BufLab's instrumented source, in instructions: std `BufReader`
//! with 1-byte reads over a counting [`Source`] and over a plain slice reader
//! (both inner reads never inlined, like a system call). Timings on a busy
//! 2-core machine wander by 10–15 %; instruction counts repeat exactly:
//!
//! ```sh
//! cargo build --release -p buflab --example counter_overhead
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/counter_overhead source
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/counter_overhead slice
//! ```
//!
//! Compare the two "Collected" totals (same data, same number of reads).

use std::io::BufReader;

use buflab::bench::{drain_bytewise, PlainSlice};
use buflab::engine::source::{counting_bytes, Probe, Source};
use buflab::model::ChunkModel;

const LEN: usize = 4 << 20;
const ROUNDS: usize = 5;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let data = counting_bytes(LEN);
    let start = std::time::Instant::now();
    let mut total = 0;
    for _ in 0..ROUNDS {
        total ^= match which.as_str() {
            "source" => {
                let probe = Probe::default();
                drain_bytewise(BufReader::with_capacity(8192, Source::new(&data, ChunkModel::File, 0, &probe)))
            }
            "slice" => drain_bytewise(BufReader::with_capacity(8192, PlainSlice(&data))),
            _ => {
                eprintln!("usage: counter_overhead source|slice");
                std::process::exit(2);
            }
        };
    }
    let ns_per_byte = start.elapsed().as_nanos() as f64 / (ROUNDS * LEN) as f64;
    println!("{which}: {ns_per_byte:.3} ns/byte (checksum {total})");
}
